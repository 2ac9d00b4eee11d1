-- Script-declared options: defaults, types and validators.
local bb = require "bulkbench"

describe("bb.options", function()
  it("returns declared defaults when the command line has none", function()
    local o = bb.options { { "spec_rows", 42, "rows" }, { "spec_name", "x", "a name" }, { "spec_on", true, "flag" } }
    assert.are.equal(42, o.spec_rows)
    assert.are.equal("x", o.spec_name)
    assert.are.equal(true, o.spec_on)
  end)

  it("runs validators on defaults too", function()
    assert.has_error(function()
      bb.options { { "spec_bad", 0, "must be positive", check = function(v) return v > 0, "must be > 0" end } }
    end)
  end)

  it("lists declared options in help", function()
    bb.options { { "spec_helped", 5, "shows up in help" } }
    assert.is_truthy(bb.help_text():find("--spec_helped=VALUE", 1, true))
  end)
end)
