-- The statistics of --repeat (runtime/core/run/summary.c through bb.summary): medians, MAD,
-- standard deviation, outliers by modified Z-score, and the bootstrap interval of the median.
local bb = require "bulkbench"

local function near(a, b, tol) return math.abs(a - b) <= (tol or 1e-9) * math.max(1, math.abs(b)) end

-- a fixed stream of uniform numbers in [0, 1): the same values on every run of the spec
local function lcg(seed)
  local s = seed
  return function()
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  end
end

describe("summary", function()
  it("gives the median, MAD, extremes, standard deviation and CV of known data", function()
    local s = bb.summary { 1, 2, 3, 4, 100 }
    assert.are.equal(5, s.n)
    assert.are.equal(3, s.median)
    assert.are.equal(1, s.mad)
    assert.are.equal(1, s.min)
    assert.are.equal(100, s.max)
    assert.are.equal(22, s.mean)
    assert.is_true(near(s.stddev, math.sqrt(7610 / 4)))
    assert.is_true(near(s.cv, math.sqrt(7610 / 4) / 22))
  end)

  it("takes the mean of the middle two for an even count", function()
    local s = bb.summary { 4, 1, 3, 2 }
    assert.are.equal(2.5, s.median)
    assert.are.equal(1, s.mad) -- |x - 2.5| = 1.5, 1.5, 0.5, 0.5
  end)

  it("flags an outlier by modified Z-score 0.6745 (x - median) / MAD > 3.5", function()
    local s = bb.summary { 1, 2, 3, 4, 100 }
    assert.are.equal(1, s.outliers)
    assert.is_true(near(s.z[5], 0.6745 * 97))
    assert.is_true(near(s.z[1], -0.6745 * 2))
    assert.are.equal(0, bb.summary({ 100, 101, 99, 102, 98 }).outliers)
  end)

  it("falls back to the mean absolute deviation when the MAD is 0, and calls equal values no outliers", function()
    local s = bb.summary { 10, 10, 10, 10, 10, 10, 20 }
    assert.are.equal(0, s.mad)
    assert.is_true(near(s.z[7], 10 / (1.253314 * 10 / 7), 1e-6))
    assert.are.equal(1, s.outliers)
    local e = bb.summary { 7, 7, 7 }
    assert.are.equal(0, e.outliers)
    assert.are.equal(0, e.stddev)
    assert.are.same({ 7, 7 }, e.ci95)
  end)

  it("knows nothing of nothing, and no spread of one value", function()
    local none = bb.summary {}
    assert.are.equal(0, none.n)
    assert.is_nil(none.median)
    assert.is_nil(none.ci95)
    local one = bb.summary { 5 }
    assert.are.equal(5, one.median)
    assert.is_nil(one.stddev)
    assert.is_nil(one.cv)
    assert.are.same({ 5, 5 }, one.ci95)
  end)

  it("refuses values that are not numbers >= 0", function()
    assert.has_error(function() bb.summary { 1, -2 } end)
    assert.has_error(function() bb.summary { 1, "x" } end)
  end)

  it("gives [min, max] for five runs: no narrower interval of the median reaches 95%", function()
    -- the bootstrap median of 5 values is the smallest with probability 5.8% > 2.5%
    local s = bb.summary { 210, 190, 205, 200, 120 }
    assert.are.same({ 120, 210 }, s.ci95)
  end)

  it("is reproducible: the same values and seed give the same interval", function()
    local r, v = lcg(42), {}
    for i = 1, 41 do v[i] = 1000 + 100 * r() end
    local a, b = bb.summary(v, 7), bb.summary(v, 7)
    assert.are.same(a.ci95, b.ci95)
    assert.is_true(a.min <= a.ci95[1] and a.ci95[1] <= a.median and a.median <= a.ci95[2] and a.ci95[2] <= a.max)
    assert.is_true(a.ci95[2] - a.ci95[1] < a.max - a.min) -- 41 values: narrower than their range
  end)

  it("lands near the distribution-free interval of the median, [x(8), x(18)] of 25 values", function()
    local r, v = lcg(3), {}
    for i = 1, 25 do v[i] = r() end
    local s = bb.summary(v, 1)
    table.sort(v)
    assert.is_true(s.ci95[1] >= v[6] and s.ci95[1] <= v[10], "lo " .. s.ci95[1])
    assert.is_true(s.ci95[2] >= v[16] and s.ci95[2] <= v[20], "hi " .. s.ci95[2])
  end)

  it("covers the true median about 95% of the time", function()
    local r, hits, trials = lcg(11), 0, 200
    for _ = 1, trials do
      local v = {}
      for i = 1, 25 do v[i] = r() end -- uniform: the true median is 0.5
      local s = bb.summary(v, 5)
      if s.ci95[1] <= 0.5 and 0.5 <= s.ci95[2] then hits = hits + 1 end
    end
    assert.is_true(hits >= 0.88 * trials and hits <= 0.995 * trials, hits .. " of " .. trials)
  end)
end)
