-- bulkbench.report.stats: the statistics the reports state, each with the confidence it really has
-- (docs/statistics.md gives every rule and its source). Numbers in, numbers out: it requires
-- only the runtime's own statistics (core.summary), so every report module may use it.
--   median_interval: order statistics around the median, their exact binomial coverage
--   ratio_ci:        the ratio of two points' rows/s, its distribution-free interval
--                    (Mann-Whitney), the level that interval really has
--   dixon:           an outlier only where the runs can show one (Dixon's Q)
local core = require "bulkbench.core"

local M = {}

M.LEVEL = 0.95 -- the confidence the reports call sure; below it they say how sure they are

-- The q-quantile (0..1) of an already sorted array, interpolated between neighbours.
function M.quantile_sorted(xs, q)
  local n = #xs
  if n == 0 then return nil end
  local h = (n - 1) * q + 1
  local lo = math.floor(h)
  if lo >= n then return xs[n] end
  return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])
end

function M.sorted(xs)
  local s = {}
  for i, v in ipairs(xs) do s[i] = v end
  table.sort(s)
  return s
end

function M.quantile(xs, q) return M.quantile_sorted(M.sorted(xs), q) end

function M.median(xs) return M.quantile(xs, 0.5) end

-- Sample standard deviation over the mean; nil below two values or for a mean of 0.
function M.cv(xs)
  local n, sum = #xs, 0
  if n < 2 then return nil end
  for _, v in ipairs(xs) do sum = sum + v end
  local mean, ss = sum / n, 0
  for _, v in ipairs(xs) do ss = ss + (v - mean) ^ 2 end
  return mean > 0 and math.sqrt(ss / (n - 1)) / mean or nil
end

-- ---- the interval of a median ----

-- P(B <= j) for B ~ Binomial(n, 1/2), summed in logs so that large n does not underflow.
function M.binom_half_cdf(n, j)
  if j < 0 then return 0 end
  if j >= n then return 1 end
  local logt, sum = -n * math.log(2), 0
  for i = 0, j do
    if i > 0 then logt = logt + math.log((n - i + 1) / i) end
    sum = sum + math.exp(logt)
  end
  return math.min(sum, 1)
end

-- The coverage of [x(k), x(n+1-k)] for the median of the law n values are drawn from:
-- 1 - 2 P(B <= k-1) (the median lies below x(k) when fewer than k values fall below it).
function M.order_coverage(n, k) return 1 - 2 * M.binom_half_cdf(n, k - 1) end

-- k of the narrowest order-statistic interval of n values with coverage >= LEVEL, and that
-- coverage; when none reaches it, k = 1 (the range of the values) and its lower coverage.
function M.median_rank(n)
  local k = 1
  while k + 1 <= n + 1 - (k + 1) and M.order_coverage(n, k + 1) >= M.LEVEL do k = k + 1 end
  return k, n > 0 and M.order_coverage(n, k) or 0
end

-- The interval of the median of xs: lo, hi and the probability it holds the true median
-- (distribution-free: the values need only be independent draws of one law). nil for no
-- values. The runtime's rule (runtime/core/run/summary.c), so a file's report says what the
-- run printed.
function M.median_interval(xs)
  if #xs == 0 then return nil end
  local s = core.summary(xs)
  return s.ci95[1], s.ci95[2], s.ci_level
end

-- ---- the ratio of two points ----

-- P(U <= u) of the Mann-Whitney statistic of samples of m and n under no difference: exact
-- (the coefficients of the Gaussian binomial [m+n, m]) while C(m+n, m) is exact in a double,
-- else the normal approximation with a continuity correction.
local function mw_cdf(m, n)
  if m > n then m, n = n, m end
  local total = 1
  for i = 1, m do total = total * (n + i) / i end
  if total < 2 ^ 52 then
    local c = { [0] = 1 }
    for u = 1, m * n + m do c[u] = 0 end
    local deg = 0
    for i = 1, m do -- times (1 - q^(n+i)) / (1 - q^i)
      local a = n + i
      for u = deg + a, a, -1 do c[u] = c[u] - c[u - a] end
      deg = deg + a
      for u = i, deg do c[u] = c[u] + c[u - i] end
      deg = deg - i
    end
    local cum = {}
    local run = 0
    for u = 0, m * n do run = run + c[u]; cum[u] = run / total end
    return function(u)
      if u < 0 then return 0 end
      return cum[math.min(u, m * n)]
    end, total
  end
  local mu, sd = m * n / 2, math.sqrt(m * n * (m + n + 1) / 12)
  return function(u)
    if u < 0 then return 0 end
    local z = (u + 0.5 - mu) / sd
    return 0.5 * M.erfc(-z / math.sqrt(2))
  end, total
end

-- erfc(x), |error| < 1.2e-7 (Numerical Recipes' erfcc, Chebyshev fit)
function M.erfc(x)
  local z = math.abs(x)
  local t = 1 / (1 + 0.5 * z)
  local r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
    + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
  return x >= 0 and r or 2 - r
end

-- The k-th smallest of the m*n ratios b[j] / a[i] (a, b sorted, positive), without making
-- them: a bisection on the value, counting the ratios at or under it in one pass.
local function kth_ratio(a, b, k)
  local function count(t) -- #{(i, j): b[j] <= t a[i]}, a ascending so the bound only rises
    local c, j = 0, 0
    for i = 1, #a do
      while j < #b and b[j + 1] <= t * a[i] do j = j + 1 end
      c = c + j
    end
    return c
  end
  local lo, hi = b[1] / a[#a], b[#b] / a[1]
  if count(lo) >= k then return lo end
  for _ = 1, 200 do -- in logs: the ratios may span decades
    if hi <= lo * (1 + 1e-13) then break end
    local mid = math.sqrt(lo * hi)
    if mid <= lo or mid >= hi then break end
    if count(mid) >= k then hi = mid else lo = mid end
  end
  local best -- the largest ratio at or under hi: the k-th itself
  local j = 0
  for i = 1, #a do
    while j < #b and b[j + 1] <= hi * a[i] do j = j + 1 end
    if j > 0 then
      local r = b[j] / a[i]
      if not best or r > best then best = r end
    end
  end
  return best or hi
end

-- cand against base, each a list of runs' rows/s (> 0): { ratio = median(cand) /
-- median(base), lo, hi, level }. The interval is the one for a scale change between the two
-- laws: the k-th smallest and largest of the m*n ratios of a run of one to a run of the
-- other, k from the Mann-Whitney distribution (Hodges-Lehmann / Moses), level its exact
-- coverage: the narrowest at >= LEVEL, else all the ratios' range and its lower level.
-- nil when a side has no run.
function M.ratio_ci(base, cand)
  local a, b = {}, {}
  for _, v in ipairs(base) do if v > 0 then a[#a + 1] = v end end
  for _, v in ipairs(cand) do if v > 0 then b[#b + 1] = v end end
  if #a == 0 or #b == 0 then return nil end
  table.sort(a)
  table.sort(b)
  local m, n = #a, #b
  local cdf = mw_cdf(m, n)
  local function cover(k) return 1 - 2 * cdf(k - 1) end
  local k = 1
  while k + 1 <= m * n + 1 - (k + 1) and cover(k + 1) >= M.LEVEL do k = k + 1 end
  local level = math.max(0, cover(k))
  return { ratio = M.quantile_sorted(b, 0.5) / M.quantile_sorted(a, 0.5), lo = kth_ratio(a, b, k),
           hi = kth_ratio(a, b, m * n + 1 - k), level = level, m = m, n = n }
end

-- Whether a ratio is sure to differ from 1: its interval at LEVEL or more clear of 1.
function M.told_apart(ci) return ci ~= nil and ci.level >= M.LEVEL - 1e-12 and (ci.lo > 1 or ci.hi < 1) end

-- ratio, lo, hi, level: the ratio of the medians of cand and base, with its interval only
-- when that reaches LEVEL (nil, nil and the level the runs could reach, else). For callers
-- that act on the interval (advise's baseline, --compare's verdicts).
function M.ratio_interval(base, cand)
  local ci = M.ratio_ci(base, cand)
  if not ci then return nil end
  if ci.level >= M.LEVEL - 1e-12 then return ci.ratio, ci.lo, ci.hi, ci.level end
  return ci.ratio, nil, nil, ci.level
end

-- ---- outliers ----

-- The outlier among xs, if the runs can show one (Dixon's Q of the logarithms, and 10% apart
-- from its nearest run: runtime/core/run/summary.c, the rule the run itself printed). Values
-- <= 0 are left out. Returns its index, Q and the critical value; nil below 3 values or
-- without one.
function M.dixon(xs)
  local v = {}
  for i, x in ipairs(xs) do v[i] = x > 0 and x or 0 end
  local s = core.summary(v)
  return s.outlier, s.q, s.q_crit
end

-- ---- words ----

-- "96.9%", "75%": a coverage as the reports print it (never rounded up to a level it misses)
function M.percent(level)
  local p = math.floor(level * 1000 + 1e-9) / 10
  return (p == math.floor(p) and ("%d%%"):format(p) or ("%.1f%%"):format(p))
end

-- What an interval of the median of n runs is called: "96.9% interval" when it reaches
-- LEVEL, else "range of 3 runs (75%)" (or "one run").
function M.interval_name(n, level)
  if n <= 1 then return "one run" end
  if level >= M.LEVEL - 1e-12 then return M.percent(level) .. " interval" end
  return ("range of %d runs (%s)"):format(n, M.percent(level))
end

return M
