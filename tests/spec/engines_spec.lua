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

  it("every Lua module a descriptor names is in the build, and loads", function()
    local dialects = require "bulkbench.dialects"
    for _, e in ipairs(core.engines()) do
      local d = bb.engine(e)
      for _, x in ipairs { d.dialect, unpack(d.dialects) } do
        if x.lua then assert.is_table(dialects.of(core.dialect(x.name)), e .. " " .. x.name) end
      end
      for _, field in ipairs { "catalog_lua", "strategies_lua" } do
        if d[field] then assert.is_table(require("bulkbench.engines").module(e, field), e .. " " .. field) end
      end
    end
  end)

  it("a module not in the build and a module that raises are two loud errors", function()
    local dialects = require "bulkbench.dialects"
    local ok, err = pcall(dialects.load, "bulkbench.drivers.nosuch.dialect_nosuch", "engine nosuch", require)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("engine nosuch names the Lua module bulkbench.drivers.nosuch.dialect_nosuch, "
      .. "which is not in this build", 1, true), tostring(err))
    package.preload["bulkbench.drivers.probe.dialect_probe"] = function() error("probe: broken dialect", 0) end
    ok, err = pcall(dialects.load, "bulkbench.drivers.probe.dialect_probe", "engine probe", require)
    package.preload["bulkbench.drivers.probe.dialect_probe"] = nil
    assert.is_false(ok)
    assert.are.equal("probe: broken dialect", tostring(err))
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
