-- The statistics behind `bulkbench report --compare`: percentiles, the seeded bootstrap of
-- a ratio of medians, and the verdicts.
local stats = require "bulkbench.stats"
local compare = require "bulkbench.compare"

-- n draws of a normal law (Box–Muller) from math.random
local function normal(n, mean, sd)
  local xs = {}
  for i = 1, n do
    xs[i] = mean + sd * math.sqrt(-2 * math.log(1 - math.random())) * math.cos(2 * math.pi * math.random())
  end
  return xs
end

describe("stats", function()
  it("takes medians and interpolated percentiles", function()
    assert.are.equal(3, stats.median { 5, 1, 3 })
    assert.are.equal(2.5, stats.median { 4, 1, 3, 2 })
    assert.are.equal(1.75, stats.quantile({ 1, 2, 3, 4 }, 0.25))
    assert.are.equal(4, stats.quantile({ 1, 2, 3, 4 }, 1))
    assert.is_nil(stats.median {})
  end)

  it("draws the same sequence from the same seed, another from another", function()
    local a, b, c = stats.rng(7), stats.rng(7), stats.rng(8)
    local same, differ = true, false
    for _ = 1, 100 do
      local x = a(1000)
      assert.is_true(x >= 1 and x <= 1000)
      same = same and x == b(1000)
      differ = differ or x ~= c(1000)
    end
    assert.is_true(same)
    assert.is_true(differ)
  end)
end)

describe("the bootstrap interval of a ratio of medians", function()
  local base, cand
  before_each(function()
    math.randomseed(42)
    base, cand = normal(15, 100, 5), normal(15, 130, 5)
  end)

  it("is reproducible for a fixed seed", function()
    local r1, lo1, hi1 = stats.ratio_interval(base, cand, { seed = 3 })
    local r2, lo2, hi2 = stats.ratio_interval(base, cand, { seed = 3 })
    assert.are.same({ r1, lo1, hi1 }, { r2, lo2, hi2 })
    assert.is_true(lo1 < r1 and r1 < hi1)
  end)

  it("contains the true ratio for synthetic data", function()
    local _, lo, hi = stats.ratio_interval(base, cand)
    assert.is_true(lo < 1.3 and 1.3 < hi, ("[%g, %g]"):format(lo, hi))
  end)

  it("covers the true ratio about 95% of the time", function()
    local covered, trials = 0, 200
    for t = 1, trials do
      local _, lo, hi = stats.ratio_interval(normal(15, 100, 5), normal(15, 130, 5), { seed = t, resamples = 1000 })
      if lo <= 1.3 and 1.3 <= hi then covered = covered + 1 end
    end
    -- the percentile bootstrap of a median runs a little narrow at n = 15
    assert.is_true(covered >= 0.85 * trials and covered <= 0.995 * trials, covered .. " of " .. trials)
  end)

  it("says nothing of the spread with one run a side", function()
    local ratio, lo, hi = stats.ratio_interval({ 100 }, { 150 })
    assert.are.equal(1.5, ratio)
    assert.is_nil(lo)
    assert.is_nil(hi)
  end)
end)

describe("verdicts", function()
  local function verdict(base, cand)
    local c = { base = base, cand = cand }
    c.ratio, c.lo, c.hi = stats.ratio_interval(base, cand)
    return compare.verdict(c), c
  end

  it("calls clear gains and losses, and overlap no difference", function()
    assert.are.equal("faster", (verdict({ 100, 101, 99, 102, 98 }, { 200, 201, 199, 202, 198 })))
    assert.are.equal("slower", (verdict({ 200, 201, 199, 202, 198 }, { 100, 101, 99, 102, 98 })))
    assert.are.equal("no difference", (verdict({ 100, 120, 90, 110, 95 }, { 105, 115, 92, 108, 99 })))
    assert.are.equal("no difference", (verdict({ 100, 100, 100 }, { 100, 100, 100 })))
  end)

  it("gives none for one run each, or no successful run", function()
    assert.are.equal("n/a (one run each: use --repeat)", (verdict({ 100 }, { 300 })))
    assert.are.equal("n/a (no successful run in candidate)", compare.verdict { base = { 1, 2 }, cand = {} })
  end)

  it("fails --fail-if-slower only when the interval is clear of the limit", function()
    local _, slow = verdict({ 100, 101, 99, 102, 98 }, { 90, 91, 89, 92, 88 }) -- 10% slower
    slow.r = { scenario = "s", engine = "sqlite", method = "multirow", threads = 1, batch = 1000 }
    local why = compare.too_slow({ slow }, 5)
    assert.is_truthy(why:find("s (sqlite, multirow, threads=1, batch=1000) is 10.0% slower", 1, true), why)
    assert.is_nil(compare.too_slow({ slow }, 15))
  end)

  it("counts each run of a --repeat result, and an older result as one run", function()
    local runs = { { rows_per_s = 1 }, { rows_per_s = 2 }, { rows_per_s = 3 } }
    assert.are.same({ 1, 2, 3 }, compare.run_rates { rows_per_s = 2, runs = runs })
    assert.are.same({ 5 }, compare.run_rates { rows_per_s = 5 })
  end)
end)
