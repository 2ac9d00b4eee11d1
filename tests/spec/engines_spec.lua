-- The engines' descriptors as scripts see them (bb.engine, bb.default_methods): what the rest of
-- the tree asks of an engine is read from there, never typed per engine.
local bb = require "bulkbench"
local core = require "bulkbench.core"

describe("engine descriptors", function()
  it("every engine's default method is one it offers", function()
    for _, e in ipairs(core.engines()) do
      local d = bb.engine(e)
      assert.are.equal(e, d.name)
      local _, names = bb.methods(e)
      local offered = {}
      for _, n in ipairs(names) do offered[n] = true end
      assert.is_true(offered[d.default_method] == true, e .. "'s default method " .. tostring(d.default_method))
    end
  end)

  it("bb.default_methods maps every engine to its descriptor's default", function()
    local m, n = bb.default_methods(), 0
    for e, method in pairs(m) do
      n = n + 1
      assert.are.equal(bb.engine(e).default_method, method)
    end
    assert.are.equal(#core.engines(), n)
    assert.is_nil(bb.engine("no-such-engine"))
  end)
end)
