-- Encoders: what reaches a COPY, a CSV file, a LOAD DATA stream or a VALUES list.
local bb = require "bulkbench"

local nasty = "tab\there, nl\nthere, cr\rthere, back\\slash, 'single' \"double\" ñ漢字"

local t = bb.table "enc" {
  { "id", "int", bb.seq() },
  { "s", "text", bb.const(nasty) },
  { "n", "text", bb.const "x", null = 0.999 },
}

describe("encoders", function()
  it("escapes COPY text and writes NULL as \\N", function()
    local line = t:encode(0, 1, "copy")
    assert.are.equal("1\ttab\\there, nl\\nthere, cr\\rthere, back\\\\slash, 'single' \"double\" ñ漢字\t\\N\n", line)
  end)

  it("quotes CSV fields that need it (RFC 4180) and leaves NULL empty", function()
    local line = t:encode(0, 1, "csv")
    assert.are.equal('1,"tab\there, nl\nthere, cr\rthere, back\\slash, \'single\' ""double"" ñ漢字",\n', line)
  end)

  it("writes plain TSV as it is: backslashes and quotes are data, NULL an empty field", function()
    local p = bb.table "plain" {
      { "id", "int", bb.seq() },
      { "s", "text", bb.const [[C:\dir\ "q" \N]] },
      { "n", "text", bb.const "x", null = 0.999 },
    }
    assert.are.equal('1\tC:\\dir\\ "q" \\N\t\n', p:encode(0, 1, "tsv"))
  end)

  it("refuses plain TSV for a value with a tab or a line end, naming the column", function()
    local ok, err = pcall(function() return t:encode(0, 1, "tsv") end)
    assert.is_false(ok)
    assert.truthy(err:find("column s: the value is text with a tab, which plain TSV cannot hold", 1, true))
  end)

  it("writes SQL literals with doubled quotes", function()
    local line = t:encode(0, 1, "sql")
    assert.are.equal("(1,'tab\there, nl\nthere, cr\rthere, back\\slash, ''single'' \"double\" ñ漢字',NULL)\n", line)
  end)

  it("round-trips every encoded string through SQLite", function()
    local db = bb.connect("sqlite")
    db:exec("CREATE TABLE enc (id int, s text, n text)")
    db:exec("INSERT INTO enc VALUES " .. t:encode(0, 1, "sql"))
    local rows = db:query("SELECT s, n FROM enc")
    assert.are.equal(nasty, rows[1][1])
    assert.is_nil(rows[1][2])
    db:close()
  end)

  it("encodes N rows in one call", function()
    local s = t:encode(0, 1000, "copy")
    local lines = select(2, s:gsub("\n", "\n"))
    assert.are.equal(1000, lines)
  end)
end)
