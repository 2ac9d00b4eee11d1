-- bulkbench.stats: the few statistics the reports need: percentiles of a sample and the
-- bootstrap interval of a ratio of medians, reproducible for a given seed.
local M = {}

-- The q-quantile (0..1) of an already sorted array, interpolated between neighbours.
function M.quantile_sorted(xs, q)
  local n = #xs
  if n == 0 then return nil end
  local h = (n - 1) * q + 1
  local lo = math.floor(h)
  if lo >= n then return xs[n] end
  return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])
end

function M.quantile(xs, q)
  local s = {}
  for i, v in ipairs(xs) do s[i] = v end
  table.sort(s)
  return M.quantile_sorted(s, q)
end

function M.median(xs) return M.quantile(xs, 0.5) end

-- A seeded generator of its own (Park–Miller), so the same files give the same interval
-- whatever else has drawn from math.random. Returns a function of n: an integer in 1..n.
function M.rng(seed)
  local x = seed % 2147483646 + 1
  return function(n)
    x = x * 48271 % 2147483647 -- exact in a double: the product stays below 2^53
    return x % n + 1
  end
end

local function resample_median(xs, draw, buf)
  local n = #xs
  for i = 1, n do buf[i] = xs[draw(n)] end
  table.sort(buf)
  return M.quantile_sorted(buf, 0.5)
end

M.RESAMPLES = 4000

-- median(cand) / median(base) and its (1 - alpha) percentile-bootstrap interval: each
-- side resampled with replacement, the ratio of the medians taken each time.
-- Returns ratio, lo, hi; lo and hi are nil when both sides hold a single value, where
-- resampling can say nothing about the spread.
function M.ratio_interval(base, cand, opts)
  opts = opts or {}
  local ratio = M.median(cand) / M.median(base)
  if #base < 2 and #cand < 2 then return ratio end
  local draw, alpha = M.rng(opts.seed or 1), opts.alpha or 0.05
  local ratios, bb, cb = {}, {}, {}
  for i = 1, opts.resamples or M.RESAMPLES do
    ratios[i] = resample_median(cand, draw, cb) / resample_median(base, draw, bb)
  end
  table.sort(ratios)
  return ratio, M.quantile_sorted(ratios, alpha / 2), M.quantile_sorted(ratios, 1 - alpha / 2)
end

return M
