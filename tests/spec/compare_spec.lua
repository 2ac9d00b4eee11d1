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

describe("what differs between two files", function()
  local differs = require "bulkbench.report.differs"
  local compare = require "bulkbench.report.compare"
  local function r(t)
    local x = { scenario = "s", engine = "pg", method = "txn", threads = 1, batch = 10, rows_per_s = 100,
                version = "0.1.0", server = { version = "PostgreSQL 15", settings = { fsync = "on" } } }
    for k, v in pairs(t) do x[k] = v end
    return x
  end

  it("is a dimension with one value on each side, not the same: paired across, and said", function()
    local d = differs.between({ r { set = { synchronous_commit = "on" } } }, { r { set = { synchronous_commit = "off" } } })
    assert.are.same({ ["set.synchronous_commit"] = true }, d.skip)
    assert.are.same({ "synchronous_commit: on → off" }, d.lines)
    local rows = compare.match({ r { set = { synchronous_commit = "on" }, rows_per_s = 100 } },
      { r { set = { synchronous_commit = "off" }, rows_per_s = 300 } })
    assert.are.equal(1, #rows)
    assert.are.equal(3, rows[1].ratio)
    assert.is_nil(compare.unpaired(rows))
  end)

  it("is no change where a side holds several values: those pair value by value", function()
    local base = { r { set = { synchronous_commit = "on" } }, r { set = { synchronous_commit = "off" } } }
    local d = differs.between(base, { r { set = { synchronous_commit = "on" } } })
    assert.are.same({}, d.skip)
    local rows = compare.match(base, { r { set = { synchronous_commit = "on" } } })
    assert.are.equal(2, #rows)
    assert.is_truthy(compare.unpaired(rows):find("^1 point could not be paired %(only in base: s %(pg, txn, threads=1, batch=10, synchronous_commit=off%)"))
  end)

  it("tells the environment (versions, server settings, the script) without pairing on it", function()
    local d = differs.between({ r { strategy = "none" } },
      { r { version = "0.2.0", strategy = "drop-indexes", scenario_sha256 = ("c"):rep(64),
            server = { version = "PostgreSQL 16", settings = { fsync = "off" } } } })
    assert.are.same({ strategy = true }, d.skip)
    assert.are.same({ "strategy: none → drop-indexes", "bulkbench version: 0.1.0 → 0.2.0",
                      "server version: PostgreSQL 15 → PostgreSQL 16", "the script (sha256): (not set) → cccccccccccc",
                      "fsync: on → off" }, d.lines)
  end)

  it("pairs a method only with itself: a method is no change of a whole file", function()
    local rows = compare.match({ r { method = "txn" } }, { r { method = "multirow" } })
    assert.is_truthy(compare.unpaired(rows):find("^2 points could not be paired"))
  end)
end)

describe("the verdict on a scenario's points", function()
  local verdict = require "bulkbench.report.verdict"
  local points = require "bulkbench.report.points"
  local function pt(batch, rates)
    return points.summarise { r = { scenario = "s", engine = "sqlite", method = "txn", threads = 1, batch = batch },
                              rates = rates, failed = {}, results = {} }
  end

  it("puts each other point in one of told apart, cannot be told apart, too few runs: never two", function()
    local best, apart, tie, few = pt(1000, { 200, 201, 199, 202, 198 }), pt(10, { 100, 101, 99, 102, 98 }),
      pt(100, { 196, 201, 193, 199, 197 }), pt(500, { 150 })
    local v = verdict.of { apart, few, tie, best }
    assert.are.equal(best, v.best)
    assert.are.same({ tie }, v.ties)
    assert.are.same({ few }, v.unsure)
    local text = table.concat(v.lines, "\n")
    assert.is_truthy(text:find("as fast as the slowest, batch=10 (", 1, true), text)
    assert.is_truthy(text:find("\n  cannot be told apart from it: batch=100\n", 1, true), text)
    assert.is_truthy(text:find("too few runs to tell from it (4 or more of each tell a clear difference): batch=500", 1, true), text)
    local slowest = text:match("as fast as the slowest, (.-) %(")
    for name in (text:match("cannot be told apart from it: ([^\n]*)") .. "; "):gmatch("(.-); ") do
      assert.are_not.equal(slowest, name)
    end
  end)

  it("with one run a point says that nothing can be told apart, rather than list every other", function()
    local pts = {}
    for i = 1, 30 do pts[i] = pt(i, { 1000 + i }) end
    local lines = verdict.of(pts).lines
    assert.are.equal("  with one run a point nothing can be told apart: --repeat=4 or more tells a clear difference", lines[#lines])
    assert.is_falsy(table.concat(lines, "\n"):find("cannot be told apart from it", 1, true))
  end)
end)
