-- The statistics behind `bulkbench report --compare`: percentiles, the distribution-free
-- interval of a ratio of medians with its exact level, and the verdicts.
local stats = require "bulkbench.report.stats"
local compare = require "bulkbench.report.compare"

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

end)

describe("the interval of a ratio of medians", function()
  local base, cand
  before_each(function()
    math.randomseed(42)
    base, cand = normal(15, 100, 5), normal(15, 130, 5)
  end)

  it("has the exact level of the Mann-Whitney distribution: 3 and 3 runs 90%, 4 and 4 97.1%", function()
    assert.are.equal(0.9, stats.ratio_ci({ 1, 2, 3 }, { 4, 5, 6 }).level) -- [min, max] misses 2 orders of 20
    assert.is_true(math.abs(stats.ratio_ci({ 1, 2, 3, 4 }, { 5, 6, 7, 8 }).level - (1 - 2 / 70)) < 1e-12)
    local five = stats.ratio_ci({ 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }) -- k = 3: 1 - 2 P(U <= 2) = 1 - 8/252
    assert.is_true(math.abs(five.level - (1 - 8 / 252)) < 1e-12, five.level)
    assert.are.equal(0.5, stats.ratio_ci({ 300 }, { 100, 101, 102 }).level)
    assert.are.equal(0, stats.ratio_ci({ 100 }, { 150 }).level)
  end)

  it("is the k-th smallest and largest of the ratios of a run of one side to a run of the other", function()
    local ci = stats.ratio_ci({ 100, 200 }, { 300, 400 })
    assert.are.equal(350 / 150, ci.ratio)
    assert.are.equal(300 / 200, ci.lo)
    assert.are.equal(400 / 100, ci.hi)
    math.randomseed(5)
    local a, b = {}, {}
    for i = 1, 12 do a[i] = 100 + 50 * math.random(); b[i] = 120 + 60 * math.random() end
    ci = stats.ratio_ci(a, b)
    local all = {}
    for _, x in ipairs(a) do for _, y in ipairs(b) do all[#all + 1] = y / x end end
    table.sort(all)
    local k = 1
    while all[k] < ci.lo do k = k + 1 end
    assert.are.equal(all[k], ci.lo)
    assert.are.equal(all[#all + 1 - k], ci.hi) -- symmetric ranks
    assert.is_true(ci.level >= 0.95)
  end)

  it("contains the true ratio for synthetic data", function()
    local ci = stats.ratio_ci(base, cand)
    assert.is_true(ci.lo < 1.3 and 1.3 < ci.hi, ("[%g, %g]"):format(ci.lo, ci.hi))
  end)

  it("covers the true ratio at least 95% of the time", function()
    local covered, trials = 0, 300
    for _ = 1, trials do
      local ci = stats.ratio_ci(normal(15, 100, 5), normal(15, 130, 6.5)) -- a scale change: sd grows with the mean
      if ci.lo <= 1.3 and 1.3 <= ci.hi then covered = covered + 1 end
    end
    assert.is_true(covered >= 0.92 * trials, covered .. " of " .. trials)
  end)

  it("gives no interval to act on below 95%", function()
    local ratio, lo, hi, level = stats.ratio_interval({ 100, 101, 102 }, { 300, 301, 302 })
    assert.are.equal(301 / 101, ratio)
    assert.is_nil(lo)
    assert.is_nil(hi)
    assert.are.equal(0.9, level)
  end)
end)

describe("verdicts", function()
  local function verdict(base, cand)
    local c = { base = base, cand = cand }
    local ci = stats.ratio_ci(base, cand)
    c.ratio, c.lo, c.hi, c.level = ci.ratio, ci.lo, ci.hi, ci.level
    return compare.verdict(c), c
  end

  it("calls clear gains and losses, and overlap no difference", function()
    assert.are.equal("faster", (verdict({ 100, 101, 99, 102, 98 }, { 200, 201, 199, 202, 198 })))
    assert.are.equal("slower", (verdict({ 200, 201, 199, 202, 198 }, { 100, 101, 99, 102, 98 })))
    assert.are.equal("no difference", (verdict({ 100, 120, 90, 110, 95 }, { 105, 115, 92, 108, 99 })))
    assert.are.equal("no difference", (verdict({ 100, 100, 100, 100 }, { 100, 100, 100, 100 })))
  end)

  it("says too few runs to tell where the runs cannot reach 95%, however far apart", function()
    assert.is_truthy(verdict({ 100 }, { 300 }):find("^too few runs to tell"))
    assert.is_truthy(verdict({ 300, 301, 302 }, { 100 }):find("^too few runs to tell %(3 and 1: 50%% sure at most"))
    assert.is_truthy(verdict({ 100, 101, 102 }, { 200, 201, 202 }):find("^too few runs to tell %(3 and 3: 90%%"))
    assert.are.equal("n/a (no successful run in candidate)", compare.verdict { base = { 1, 2 }, cand = {} })
  end)

  it("fails --fail-if-slower only when the interval is clear of the limit", function()
    local _, slow = verdict({ 100, 101, 99, 102, 98 }, { 90, 91, 89, 92, 88 }) -- 10% slower
    slow.r = { scenario = "s", engine = "sqlite", method = "multirow", threads = 1, batch = 1000 }
    local why = compare.too_slow({ slow }, 5)
    assert.is_truthy(why:find("s (sqlite, multirow, threads=1, batch=1000) is 10.0% slower", 1, true), why)
    assert.is_nil(compare.too_slow({ slow }, 15))
    local _, few = verdict({ 100, 101, 99 }, { 50, 51, 49 }) -- twice as slow, but 3 runs a side reach 90%
    few.r = slow.r
    assert.is_nil(compare.too_slow({ few }, 5))
  end)

  it("counts each run of a --repeat result, and an older result as one run", function()
    local runs = { { rows_per_s = 1 }, { rows_per_s = 2 }, { rows_per_s = 3 } }
    assert.are.same({ 1, 2, 3 }, compare.run_rates { rows_per_s = 2, runs = runs })
    assert.are.same({ 5 }, compare.run_rates { rows_per_s = 5 })
  end)
end)
