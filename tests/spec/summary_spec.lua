-- The statistics of --repeat (runtime/core/run/summary.c through bb.summary): medians, MAD,
-- standard deviation, modified Z-scores, outliers by Dixon's Q, and the interval of the median
-- with its exact coverage; and that lua/report/stats.lua gives the reports the same figures.
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

  it("gives each value's modified Z-score 0.6745 (x - median) / MAD", function()
    local s = bb.summary { 1, 2, 3, 4, 100 }
    assert.is_true(near(s.z[5], 0.6745 * 97))
    assert.is_true(near(s.z[1], -0.6745 * 2))
  end)

  it("flags an outlier by Dixon's Q of the logarithms only where the runs can show one", function()
    local s = bb.summary { 1, 2, 3, 4, 1000 } -- Q = log(250) / log(1000) against 0.710 for 5 values
    assert.are.equal(1, s.outliers)
    assert.are.equal(5, s.outlier)
    assert.is_true(near(s.q, math.log(250) / math.log(1000)) and s.q_crit == 0.710)
    assert.are.equal(0, bb.summary({ 1, 2, 3, 4, 100 }).outliers) -- a factor of 25 among values spread by 4
    -- five times slower than four runs spread by half: plain rows/s would hide it (Q 0.59)
    assert.are.equal(1, bb.summary({ 19083, 100000, 109739, 130000, 156943 }).outlier)
    assert.are.equal(0, bb.summary({ 100, 101, 99, 102, 98 }).outliers)
    -- a run 11% slower than two close ones: the modified Z-score said -12.8; three runs cannot tell
    local three = bb.summary { 100, 101, 89 }
    assert.are.equal(0, three.outliers)
    assert.is_true(near(three.q, math.log(100 / 89) / math.log(101 / 89)) and three.q_crit == 0.970)
    assert.are.equal(1, bb.summary({ 100, 101, 25 }).outliers) -- far enough: 75 of a range of 76
    local two = bb.summary { 100, 10 }
    assert.are.equal(0, two.outliers) -- two values show no outlier
    assert.is_nil(two.q)
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

  it("gives the range of too few runs with the probability it holds the median: 75% for 3, 93.75% for 5", function()
    local s = bb.summary { 210, 190, 205 }
    assert.are.same({ 190, 210 }, s.ci95)
    assert.are.equal(0.75, s.ci_level)
    s = bb.summary { 210, 190, 205, 200, 120 }
    assert.are.same({ 120, 210 }, s.ci95)
    assert.are.equal(0.9375, s.ci_level)
    assert.are.equal(0.5, bb.summary({ 1, 2 }).ci_level)
    assert.are.equal(0, bb.summary({ 1 }).ci_level)
  end)

  it("reaches 95% from six runs, and narrows to order statistics: x(8) to x(18) of 25 values", function()
    local six = bb.summary { 6, 1, 5, 2, 4, 3 }
    assert.are.same({ 1, 6 }, six.ci95)
    assert.are.equal(1 - 2 / 64, six.ci_level)
    local r, v = lcg(3), {}
    for i = 1, 25 do v[i] = r() end
    local s = bb.summary(v)
    table.sort(v)
    assert.are.same({ v[8], v[18] }, s.ci95)
    assert.is_true(s.ci_level >= 0.95 and s.ci_level < 0.96, s.ci_level)
  end)

  it("is what the reports compute from a file's runs (lua/report/stats.lua)", function()
    local stats = require "bulkbench.report.stats"
    local r = lcg(9)
    for n = 1, 40 do
      local v = {}
      for i = 1, n do v[i] = 1000 + 100 * r() end
      if n % 7 == 0 then v[1] = 10 end -- now and then a slow run
      local s = bb.summary(v)
      local lo, hi, level = stats.median_interval(v)
      assert.are.same({ lo, hi }, s.ci95)
      assert.is_true(near(level, s.ci_level), n .. ": " .. level .. " vs " .. s.ci_level)
      local at = stats.dixon(v)
      assert.are.equal(at or false, s.outlier or false, "outlier of " .. n)
    end
  end)

  it("covers the true median at least as often as it says", function()
    local r, hits, trials = lcg(11), 0, 400
    for _ = 1, trials do
      local v = {}
      for i = 1, 25 do v[i] = r() end -- uniform: the true median is 0.5
      local s = bb.summary(v)
      if s.ci95[1] <= 0.5 and 0.5 <= s.ci95[2] then hits = hits + 1 end
    end
    assert.is_true(hits >= 0.92 * trials, hits .. " of " .. trials) -- 95.7% expected
    hits = 0
    for _ = 1, trials do
      local s = bb.summary { r(), r(), r() }
      if s.ci95[1] <= 0.5 and 0.5 <= s.ci95[2] then hits = hits + 1 end
    end
    assert.is_true(hits >= 0.68 * trials and hits <= 0.82 * trials, hits .. " of " .. trials) -- 3 runs: 75%
  end)
end)
