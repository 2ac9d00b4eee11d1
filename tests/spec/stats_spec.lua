-- The latency histogram: bounded relative error, percentiles never above the maximum.
local bb = require "bulkbench"

describe("histogram", function()
  it("reports percentiles within 1% of the exact value", function()
    local h, values = bb.histogram(), {}
    math.randomseed(7)
    for i = 1, 20000 do
      local v = math.floor(math.exp(math.random() * 18)) + 1 -- 1 ns .. ~65 ms, log-spread
      values[i] = v
      h:record(v)
    end
    table.sort(values)
    for _, q in ipairs { 0.5, 0.9, 0.95, 0.99, 0.999 } do
      local exact = values[math.ceil(q * #values)]
      local got = h:quantile(q)
      assert.is_true(math.abs(got - exact) <= exact * 0.01 + 1, ("q%.3f: %d vs %d"):format(q, got, exact))
    end
  end)

  it("never reports a percentile above the maximum", function()
    local h = bb.histogram()
    for _, v in ipairs { 1000, 1001, 100003, 100003, 100003 } do h:record(v) end
    assert.are.equal(100003, h:max())
    assert.is_true(h:quantile(0.99) <= h:max())
    assert.is_true(h:quantile(1.0) <= h:max())
  end)

  it("says nothing when nothing was recorded", function()
    assert.is_nil(bb.histogram():quantile(0.5))
  end)
end)
