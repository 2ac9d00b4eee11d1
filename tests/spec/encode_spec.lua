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

  it("writes through the encoding plan exactly the bytes bb_values and enc_row write", function()
    -- every kind, NULLs, empty strings, text that needs escaping, fixed and moving instants
    local every = bb.table "every" {
      { "id", "bigint", bb.seq { start = -3, step = 7 } },
      { "i", "int", bb.int { -5000, 100000 } },
      { "big", "bigint", bb.int { -9e18, 9e18 } },
      { "ni", "int", bb.int { 0, 9 }, null = 0.3 },
      { "dbl", "double", bb.double { -1, 1 } },
      { "di", "int", bb.double { 0, 10 } },
      { "money", "decimal(8,2)", bb.decimal { -999, 99999 } },
      { "nmoney", "decimal(8,2)", bb.decimal { 0, 10 }, null = 0.5 },
      { "dec", "decimal(12,4)", bb.decimal { min = -5, max = 5, scale = 4 } },
      { "dec0", "decimal(9,0)", bb.decimal { min = 0, max = 1e6, scale = 0 } },
      { "s", "varchar(24)", bb.string { len = 20 } },
      { "odd", "text", bb.string { min = 0, max = 9 } },
      { "ns", "text", bb.string { min = 0, max = 3 }, null = 0.2 },
      { "dirty", "text", bb.string { min = 0, max = 6, charset = "a,\t\n\r\\\"'x" } },
      { "blob", "bytea", bb.blob { bytes = 17 } },
      { "tpl", "text", bb.template "##-@@ #" },
      { "ts", "timestamp", bb.timestamp { from = "2020-01-01", to = "2024-12-31 23:59:59" } },
      { "tsu", "timestamp", bb.timestamp { from = "1960-01-01", to = "2030-01-01", micros = true } },
      { "tsn", "timestamp", bb.timestamp "now" },
      { "tsat", "timestamp", bb.timestamp { at = "2001-02-03 04:05:06" }, null = 0.1 },
      { "tss", "timestamp", bb.timestamp { start = "2020-01-01", step = 0.5, jitter = 2 } },
      { "d", "date", bb.date() },
      { "b", "boolean", bb.bool { p = 0.3 } },
      { "u", "uuid", bb.uuid() },
      { "u7", "uuid", bb.uuid7() },
      { "ch", "text", bb.choice { { "GET", 3 }, { "", 1 }, { "a,b", 1 }, { "tab\there", 1 } } },
      { "cc", "text", bb.choice { "x", "yy" } },
      { "k", "text", bb.const "clean" },
      { "ke", "text", bb.const "" },
      { "kd", "text", bb.const(nasty), null = 0.4 },
      { "g", "double", bb.gaussian { 0, 1 } },
      { "z", "int", bb.zipf { 1, 1000 } },
      { "pa", "double", bb.pareto() },
      { "pe", "int", bb.permutation { 1, 1000000 } },
    }
    for _, fmt in ipairs { "copy", "csv", "load-text" } do
      for _, at in ipairs { 0, 123456789 } do
        local plan, ref = every:encode(at, 3000, fmt), every:encode(at, 3000, fmt, true)
        assert.are.equal(#ref, #plan)
        assert.is_true(plan == ref, fmt .. " from row " .. at .. " differs")
      end
    end
    assert.are.equal(t:encode(0, 5, "copy", true), t:encode(0, 5, "copy"))
  end)

  it("encodes N rows in one call", function()
    local s = t:encode(0, 1000, "copy")
    local lines = select(2, s:gsub("\n", "\n"))
    assert.are.equal(1000, lines)
  end)
end)
