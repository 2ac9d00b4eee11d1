-- Goodness-of-fit tests for the distribution specs: chi-square for discrete laws,
-- Kolmogorov–Smirnov for continuous ones, each returning its statistic and p-value.
local M = {}

local exp, log, sqrt, abs, floor, pi = math.exp, math.log, math.sqrt, math.abs, math.floor, math.pi

-- log Γ(x), x > 0: Stirling's series once x >= 10, the recurrence Γ(x+1) = xΓ(x) below.
function M.lgamma(x)
  local shift = 0
  while x < 10 do shift = shift + log(x); x = x + 1 end
  local z = 1 / (x * x)
  local series = (1 / 12 - z * (1 / 360 - z * (1 / 1260 - z * (1 / 1680 - z / 1188)))) / x
  return (x - 0.5) * log(x) - x + 0.5 * log(2 * pi) + series - shift
end

-- Regularized lower incomplete gamma P(a, x): its power series below a + 1, where it
-- converges fast; above, 1 - Q from the continued fraction of Q (modified Lentz).
local function gamma_series(a, x)
  local term, sum, ap = 1 / a, 1 / a, a
  for _ = 1, 100000 do
    ap = ap + 1
    term = term * x / ap
    sum = sum + term
    if abs(term) < abs(sum) * 1e-16 then break end
  end
  return sum * exp(-x + a * log(x) - M.lgamma(a))
end

local function gamma_cf(a, x)
  local tiny = 1e-300
  local b = x + 1 - a
  local c, d = 1 / tiny, 1 / b
  local h = d
  for i = 1, 100000 do
    local an = -i * (i - a)
    b = b + 2
    d = an * d + b; if abs(d) < tiny then d = tiny end
    c = b + an / c; if abs(c) < tiny then c = tiny end
    d = 1 / d
    local delta = d * c
    h = h * delta
    if abs(delta - 1) < 1e-16 then break end
  end
  return exp(-x + a * log(x) - M.lgamma(a)) * h
end

function M.gamma_p(a, x)
  if x <= 0 then return 0 end
  if x < a + 1 then return gamma_series(a, x) end
  return 1 - gamma_cf(a, x)
end

function M.gamma_q(a, x)
  if x <= 0 then return 1 end
  if x < a + 1 then return 1 - gamma_series(a, x) end
  return gamma_cf(a, x)
end

-- P(X >= x) for X chi-square with df degrees of freedom.
function M.chi2_sf(x, df) return M.gamma_q(df / 2, x / 2) end

-- P(K > lambda) for the Kolmogorov distribution: the alternating series for large lambda,
-- the Jacobi-theta form of the CDF for small lambda where the former converges slowly.
function M.kolmogorov_sf(lambda)
  if lambda <= 0 then return 1 end
  if lambda < 1 then
    local cdf, k = 0, 1
    while true do
      local t = exp(-(2 * k - 1) ^ 2 * pi * pi / (8 * lambda * lambda))
      cdf = cdf + t
      if t < 1e-17 then break end
      k = k + 1
    end
    return 1 - sqrt(2 * pi) / lambda * cdf
  end
  local sum, sign = 0, 1
  for j = 1, 100 do
    local t = exp(-2 * j * j * lambda * lambda)
    sum = sum + sign * t
    if t < 1e-17 then break end
    sign = -sign
  end
  return 2 * sum
end

-- Standard normal CDF through erf(z/√2) = P(1/2, z²/2).
function M.normal_cdf(z)
  local p = M.gamma_p(0.5, z * z / 2)
  return z >= 0 and 0.5 + 0.5 * p or 0.5 - 0.5 * p
end

-- Pearson's chi-square of observed counts against a discrete law. cells is a list of
-- { key, probability } in the law's order (probabilities summing to 1); counts maps a key
-- to its observed count. Adjacent cells merge until each expected count is >= 5 (a short
-- remainder joins the last cell). A key outside the cells is an error: the law never makes it.
-- Returns statistic, degrees of freedom, p-value.
function M.chi2_fit(counts, cells, n)
  local known, total = {}, 0
  for _, c in ipairs(cells) do known[c[1]] = true end
  for k, v in pairs(counts) do
    if not known[k] then error("value outside the law: " .. tostring(k) .. " (" .. v .. " times)") end
    total = total + v
  end
  n = n or total
  local exp_l, obs_l = {}, {}
  local e, o = 0, 0
  for _, c in ipairs(cells) do
    e = e + c[2] * n
    o = o + (counts[c[1]] or 0)
    if e >= 5 then exp_l[#exp_l + 1] = e; obs_l[#obs_l + 1] = o; e, o = 0, 0 end
  end
  if e > 0 or o > 0 then
    if #exp_l == 0 then exp_l[1], obs_l[1] = 0, 0 end
    exp_l[#exp_l] = exp_l[#exp_l] + e
    obs_l[#obs_l] = obs_l[#obs_l] + o
  end
  local x2 = 0
  for i = 1, #exp_l do x2 = x2 + (obs_l[i] - exp_l[i]) ^ 2 / exp_l[i] end
  local df = #exp_l - 1
  return x2, df, M.chi2_sf(x2, df)
end

-- Chi-square test of independence of an r × c table of counts (a list of rows): with
-- fixed margins, as for a permutation's positions against its values.
function M.chi2_independence(tab)
  local r, c, n = #tab, #tab[1], 0
  local rs, cs = {}, {}
  for i = 1, r do rs[i] = 0 end
  for j = 1, c do cs[j] = 0 end
  for i = 1, r do
    for j = 1, c do
      rs[i] = rs[i] + tab[i][j]; cs[j] = cs[j] + tab[i][j]; n = n + tab[i][j]
    end
  end
  local x2 = 0
  for i = 1, r do
    for j = 1, c do
      local e = rs[i] * cs[j] / n
      x2 = x2 + (tab[i][j] - e) ^ 2 / e
    end
  end
  local df = (r - 1) * (c - 1)
  return x2, df, M.chi2_sf(x2, df)
end

-- One-sample Kolmogorov–Smirnov test of xs (sorted in place) against the CDF cdf.
-- Returns D, p-value (asymptotic, with Stephens' small-sample correction).
function M.ks_fit(xs, cdf)
  table.sort(xs)
  local n, d = #xs, 0
  for i = 1, n do
    local f = cdf(xs[i])
    local hi, lo = i / n - f, f - (i - 1) / n
    if hi > d then d = hi end
    if lo > d then d = lo end
  end
  local sn = sqrt(n)
  return d, M.kolmogorov_sf((sn + 0.12 + 0.11 / sn) * d)
end

-- Generalized harmonic number H(n, s) = sum of k^-s for k = 1..n: directly up to 1000
-- terms, beyond by Euler–Maclaurin on the rest (error far below a double's).
function M.harmonic(n, s)
  local m = math.min(n, 1000)
  local sum = 0
  for k = m, 1, -1 do sum = sum + k ^ -s end
  if n <= m then return sum end
  local a, b = m, n
  local integral = (s == 1) and log(b / a) or (b ^ (1 - s) - a ^ (1 - s)) / (1 - s)
  -- sum over (a, b] = integral + (f(b) - f(a))/2 + B2/2! (f'(b) - f'(a)) + B4/4! (f'''(b) - f'''(a))
  local f = function(x) return x ^ -s end
  local f1 = function(x) return -s * x ^ (-s - 1) end
  local f3 = function(x) return -s * (s + 1) * (s + 2) * x ^ (-s - 3) end
  return sum + integral + (f(b) - f(a)) / 2 + (f1(b) - f1(a)) / 12 - (f3(b) - f3(a)) / 720
end

-- The cells of the bounded Zipf law P(k) = k^-s / H(n, s) on min..max, keyed by value.
-- With more than `limit` ranks, the first limit - 1 ranks and one tail cell keyed "tail".
function M.zipf_cells(min, max, s, limit)
  local n = max - min + 1
  local h = M.harmonic(n, s)
  local cells, used = {}, 0
  local last = limit and math.min(n, limit - 1) or n
  for k = 1, last do
    local p = k ^ -s / h
    cells[#cells + 1] = { min + k - 1, p }
    used = used + p
  end
  if last < n then cells[#cells + 1] = { "tail", 1 - used } end
  return cells
end

-- Counts of values, with values past `cut` counted under "tail".
function M.count(xs, cut)
  local c = {}
  for _, x in ipairs(xs) do
    local k = x
    if cut and x > cut then k = "tail" end
    c[k] = (c[k] or 0) + 1
  end
  return c
end

-- Civil date-time text "YYYY-MM-DD[ HH:MM:SS[.ffffff]]" (UTC) to epoch seconds, with the
-- fraction as a separate integer of microseconds.
function M.epoch(text)
  local y, mo, d, rest = text:match("^(%-?%d+)-(%d%d)-(%d%d)(.*)$")
  y, mo, d = tonumber(y), tonumber(mo), tonumber(d)
  if mo <= 2 then y = y - 1 end
  local era = floor(y / 400)
  local yoe = y - era * 400
  local mp = (mo + 9) % 12
  local doy = floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + doy
  local days = era * 146097 + doe - 719468
  local hh, mm, ss, frac = rest:match("^ (%d%d):(%d%d):(%d%d)%.?(%d*)$")
  local sec = days * 86400 + (hh and (tonumber(hh) * 3600 + tonumber(mm) * 60 + tonumber(ss)) or 0)
  local usec = (frac and #frac > 0) and tonumber((frac .. "000000"):sub(1, 6)) or 0
  return sec, usec, days
end

return M
