-- Each generator against its exact law: 1,000,000 values per case with a fixed seed (200,000 in
-- the sanitized pass), chi-square for discrete laws (cells merged until every expected count is >= 5),
-- Kolmogorov–Smirnov for continuous ones. A case fails below p = 0.001.
-- BB_STAT_VERBOSE=1 prints every statistic and p-value to stderr.
local bb = require "bulkbench"
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local st = dofile(dir .. "stat_helpers.lua")

-- the sanitized pass of make check looks for memory errors on the same paths, and the main
-- pass has already held each law to a million values: a fifth of them there
local N = os.getenv("BB_IN_SANITIZE") and 200000 or 1000000
local ALPHA = 0.001
local verbose = os.getenv("BB_STAT_VERBOSE")

-- the COPY text of one column (NULL is \N) for rows 0..N-1 under a fixed seed, one value a line
local function column(gen, sqltype, seed, null)
  local t = bb.table "dist" { { "x", sqltype, gen, null = null } }
  return t:native(seed):encode(0, N, "copy")
end

-- one number a line, read in place with strtod: a Lua string per line (gmatch, tonumber)
-- took half of each case's time
local ffi = require "ffi"
pcall(ffi.cdef, "double strtod(const char *s, char **end);")
local function numbers(text)
  local out, i = {}, 0
  local p = ffi.cast("const char *", text)
  local stop, e = p + #text, ffi.new("char *[1]")
  while p < stop do
    local x = ffi.C.strtod(p, e)
    if e[0] == p or (e[0] ~= stop and e[0][0] ~= 10) then error("not a number: " .. ffi.string(p, math.min(20, stop - p))) end
    i = i + 1
    out[i] = x
    p = e[0] + 1
  end
  return out, i
end

local function sample(gen, sqltype, seed, parse)
  local text = column(gen, sqltype, seed)
  local out, i = {}, 0
  if parse then
    for line in text:gmatch("[^\n]+") do
      i = i + 1
      out[i] = parse(line)
    end
  else
    out, i = numbers(text)
  end
  assert.are.equal(N, i)
  return out
end

local function pass(name, stat, df, p)
  if verbose then io.stderr:write(("# %-44s stat %12.4f  df %6s  p %.4f\n"):format(name, stat, df or "-", p)) end
  assert.is_true(p >= ALPHA, ("%s: statistic %.3f (df %s), p = %.3g"):format(name, stat, tostring(df or "-"), p))
end

local function ks(name, xs, cdf)
  local d, p = st.ks_fit(xs, cdf)
  pass(name, d, nil, p)
end

local function uniform_cells(lo, hi)
  local cells = {}
  for v = lo, hi do cells[#cells + 1] = { v, 1 / (hi - lo + 1) } end
  return cells
end

local function minmax(xs)
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(xs) do
    if x < lo then lo = x end
    if x > hi then hi = x end
  end
  return lo, hi
end

describe("statistics helpers", function()
  it("give the textbook chi-square and Kolmogorov p-values", function()
    local function near(want, got, tol) assert.is_true(math.abs(want - got) < tol, ("want %g, got %g"):format(want, got)) end
    near(0.001, st.chi2_sf(45.315, 20), 2e-6)
    near(0.05, st.chi2_sf(3.841, 1), 1e-4)
    near(0.05, st.chi2_sf(124.342, 100), 1e-5)
    near(0.001, st.chi2_sf(10.828, 1), 1e-5)
    near(0.5, st.chi2_sf(9999.333, 10000), 1e-3)
    near(1 - 0.8427007929497149, st.gamma_q(0.5, 1), 1e-12) -- erfc(1)
    near(0.975, st.normal_cdf(1.959963985), 1e-9)
    near(0.05, st.kolmogorov_sf(1.3581), 1e-4)
    near(0.001, st.kolmogorov_sf(1.9495), 1e-5)
    near(0.9639, st.kolmogorov_sf(0.5), 1e-4)
    near(7.485470860550345, st.harmonic(1000, 1), 1e-12)
    near(1.6449340668482264 - 1 / 1e9, st.harmonic(1e9, 2), 1e-12) -- zeta(2) minus its tail
  end)
end)

describe("zipf: exact bounded law P(k) = k^-s / H(n, s)", function()
  local function zipf_case(min, max, s, seed, limit)
    local xs = sample(bb.zipf { min = min, max = max, s = s }, "int", seed)
    local lo, hi = minmax(xs)
    assert.is_true(lo >= min and hi <= max, ("values in [%g, %g], want [%d, %d]"):format(lo, hi, min, max))
    local cut = limit and (min + limit - 2) or nil
    local name = ("zipf s=%g on %d..%d%s"):format(s, min, max, limit and (" (first " .. (limit - 1) .. " ranks + tail)") or "")
    pass(name, st.chi2_fit(st.count(xs, cut), st.zipf_cells(min, max, s, limit), N))
    return xs
  end

  it("s = 1 on 1..1000, every rank, and ranks 1..20 plus the tail", function()
    local xs = zipf_case(1, 1000, 1, 101)
    pass("zipf s=1 on 1..1000 (ranks 1..20 + tail)", st.chi2_fit(st.count(xs, 20), st.zipf_cells(1, 1000, 1, 21), N))
  end)
  it("s = 2 on 1..100", function() zipf_case(1, 100, 2, 102) end)
  it("s = 0.8 on 1..10000", function() zipf_case(1, 10000, 0.8, 103) end)
  it("s = 1.5 on 10..500 (min other than 1)", function() zipf_case(10, 500, 1.5, 104) end)
  it("s = 0.3 on -3..3 (negative values, a short range)", function() zipf_case(-3, 3, 0.3, 105) end)
  it("s = 1.2 on 1..10^9 with no table: the first 999 ranks plus the tail", function()
    zipf_case(1, 1000000000, 1.2, 106, 1000)
  end)
  it("min = max gives that value", function()
    local xs = sample(bb.zipf { min = 7, max = 7, s = 1 }, "int", 107)
    assert.are.same({ 7, 7 }, { minmax(xs) })
  end)
end)

describe("continuous laws (Kolmogorov–Smirnov)", function()
  it("double: uniform on [min, max)", function()
    local xs = sample(bb.double { -3, 5 }, "double", 201)
    local lo, hi = minmax(xs)
    assert.is_true(lo >= -3 and hi < 5)
    ks("double U[-3, 5)", xs, function(x) return (x + 3) / 8 end)
  end)

  it("gaussian: normal with the asked mean and stddev, unclamped", function()
    local xs = sample(bb.gaussian { mean = 100, stddev = 15 }, "double", 202)
    ks("gaussian N(100, 15)", xs, function(x) return st.normal_cdf((x - 100) / 15) end)
  end)

  it("pareto: P(X > x) = (scale/x)^shape from the scale up", function()
    local xs = sample(bb.pareto { scale = 2, shape = 1.5 }, "double", 203)
    assert.is_true(minmax(xs) >= 2)
    ks("pareto scale=2 shape=1.5", xs, function(x) return 1 - (2 / x) ^ 1.5 end)
  end)
end)

describe("discrete laws (chi-square)", function()
  it("int: uniform on [min, max], both ends", function()
    local xs = sample(bb.int { 0, 1000 }, "int", 301)
    assert.are.same({ 0, 1000 }, { minmax(xs) })
    pass("int 0..1000", st.chi2_fit(st.count(xs), uniform_cells(0, 1000), N))
  end)

  it("int: a short range around zero", function()
    local xs = sample(bb.int { -5, 5 }, "int", 302)
    pass("int -5..5", st.chi2_fit(st.count(xs), uniform_cells(-5, 5), N))
  end)

  it("int: exact on ranges near 2^64 too (no multiply-shift bias, no wrap)", function()
    -- 1..3*2^61: multiply-shift alone gives offsets divisible by 3 a quarter of the time, not a third
    local text, byte = column(bb.int { 1, 3 * 2 ^ 61 }, "bigint", 313), string.byte
    local counts, sum = { [0] = 0, 0, 0 }, 0
    for i = 1, #text do
      local b = byte(text, i)
      if b == 10 then
        local r = (sum - 1) % 3 -- the offset from min, mod 3 (10 = 1 mod 3: the digit sum will do)
        counts[r] = counts[r] + 1
        sum = 0
      else
        sum = sum + b - 48
      end
    end
    pass("int 1..3*2^61, offset mod 3", st.chi2_fit(counts, uniform_cells(0, 2), N))
    -- the whole int64 range: as many negative values as others
    local neg = 0
    for line in column(bb.int { -2 ^ 63, 2 ^ 63 }, "bigint", 314):gmatch("[^\n]+") do
      if byte(line, 1) == 45 then neg = neg + 1 end
    end
    pass("int over all of int64, sign", st.chi2_fit({ neg = neg, pos = N - neg }, { { "neg", 0.5 }, { "pos", 0.5 } }, N))
  end)

  it("bool: true with probability p", function()
    local xs = sample(bb.bool { p = 0.3 }, "int", 303)
    pass("bool p=0.3", st.chi2_fit(st.count(xs), { { 1, 0.3 }, { 0, 0.7 } }, N))
  end)

  it("choice: in proportion to the weights, a weight of 0 never", function()
    local xs = sample(bb.choice { { "a", 1 }, { "b", 2 }, { "z", 0 }, { "c", 7 }, "d" }, "text", 304,
                      function(s) return s end)
    pass("choice weights 1,2,0,7,(1)", st.chi2_fit(st.count(xs), { { "a", 1 / 11 }, { "b", 2 / 11 }, { "c", 7 / 11 }, { "d", 1 / 11 } }, N))
  end)

  it("null = ratio: NULL with that probability, the other values keep their law", function()
    local nulls, counts = 0, {}
    for line in column(bb.int { 1, 10 }, "int", 305, 0.2):gmatch("[^\n]+") do
      local v = tonumber(line)
      if v then counts[v] = (counts[v] or 0) + 1 else nulls = nulls + 1 end
    end
    pass("null = 0.2", st.chi2_fit({ null = nulls, value = N - nulls }, { { "null", 0.2 }, { "value", 0.8 } }, N))
    pass("int 1..10 beside nulls", st.chi2_fit(counts, uniform_cells(1, 10)))
  end)

  it("decimal: uniform over the steps of its scale, both ends (scale 3)", function()
    local xs = sample(bb.decimal { min = -1, max = 1, scale = 3 }, "decimal(5,3)", 306,
                      function(s) return math.floor(tonumber(s) * 1000 + 0.5) end)
    assert.are.same({ -1000, 1000 }, { minmax(xs) })
    pass("decimal -1..1 scale 3", st.chi2_fit(st.count(xs), uniform_cells(-1000, 1000), N))
  end)

  it("decimal: uniform over the cents, both ends (scale 2)", function()
    local xs = sample(bb.decimal { 0, 99.99 }, "decimal(4,2)", 307,
                      function(s) return math.floor(tonumber(s) * 100 + 0.5) end)
    assert.are.same({ 0, 9999 }, { minmax(xs) })
    pass("decimal 0..99.99 scale 2", st.chi2_fit(st.count(xs), uniform_cells(0, 9999), N))
  end)

  it("timestamp from/to: uniform over the seconds, both ends", function()
    local from = st.epoch("2024-12-31 23:50:00")
    local xs = sample(bb.timestamp { from = "2024-12-31 23:50:00", to = "2025-01-01 00:06:39" }, "timestamp", 308,
                      function(s) return (st.epoch(s)) - from end)
    assert.are.same({ 0, 999 }, { minmax(xs) })
    pass("timestamp 1000 s", st.chi2_fit(st.count(xs), uniform_cells(0, 999), N))
  end)

  it("timestamp from/to with micros: uniform over every microsecond of those seconds", function()
    -- 10 seconds, to's included: 10^7 microseconds. Every line is "2025-03-01 00:00:SS.ffffff",
    -- read by byte offset (LuaJIT interns a string per line slowly when lines differ in few places).
    local text = column(bb.timestamp { from = "2025-03-01 00:00:00", to = "2025-03-01 00:00:09", micros = true },
                        "timestamp", 309)
    assert.are.equal(27 * N, #text)
    local byte, xs = string.byte, {}
    for i = 0, N - 1 do
      local b = 27 * i
      assert(text:sub(b + 1, b + 17) == "2025-03-01 00:00:" or error("outside the minute: " .. text:sub(b + 1, b + 26)))
      local v = 0
      for j = b + 18, b + 26 do if j ~= b + 20 then v = v * 10 + byte(text, j) - 48 end end
      xs[i + 1] = v
    end
    local lo, hi = minmax(xs)
    assert.is_true(lo >= 0 and hi <= 9999999, ("micros from %d to %d"):format(lo, hi))
    local bins, last = {}, {}
    for i, x in ipairs(xs) do bins[i] = math.floor(x / 100000); last[i] = x % 1000 end
    pass("timestamp micros, 0.1 s cells", st.chi2_fit(st.count(bins), uniform_cells(0, 99), N))
    pass("timestamp micros, the last 3 digits", st.chi2_fit(st.count(last), uniform_cells(0, 999), N))
  end)

  it("date from/to: uniform over the days, both ends", function()
    local _, _, d0 = st.epoch("1969-12-20")
    local xs = sample(bb.date { from = "1969-12-20", to = "1970-01-10" }, "date", 310,
                      function(s) local _, _, d = st.epoch(s); return d - d0 end)
    assert.are.same({ 0, 21 }, { minmax(xs) })
    pass("date 22 days", st.chi2_fit(st.count(xs), uniform_cells(0, 21), N))
  end)

  it("date from/to given as instants: the days they fall on, before 1970 too", function()
    local _, _, d0 = st.epoch("1969-12-31")
    local xs = sample(bb.date { from = "1969-12-31 12:00:00", to = "1970-01-02 11:59:59" }, "date", 312,
                      function(s) local _, _, d = st.epoch(s); return d - d0 end)
    pass("date 1969-12-31..1970-01-02", st.chi2_fit(st.count(xs), uniform_cells(0, 2), N))
  end)

  it("string: lengths uniform on [min, max], characters uniform over the charset", function()
    local lens, chars = {}, {}
    local text = column(bb.string { min = 0, max = 12, charset = "abcdefghij" }, "text", 311)
    local i = 0
    for line in text:gmatch("([^\n]*)\n") do
      i = i + 1
      lens[i] = #line
      for ch in line:gmatch(".") do chars[ch] = (chars[ch] or 0) + 1 end
    end
    assert.are.equal(N, i)
    pass("string length 0..12", st.chi2_fit(st.count(lens), uniform_cells(0, 12), N))
    local cells = {}
    for ch in ("abcdefghij"):gmatch(".") do cells[#cells + 1] = { ch, 0.1 } end
    pass("string characters", st.chi2_fit(chars, cells))
  end)
end)

describe("permutation", function()
  it("every value of the range exactly once, positions independent of values", function()
    local xs = sample(bb.permutation { 1, N }, "int", 401)
    local seen, floor = {}, math.floor
    for i = 1, N do seen[i] = false end
    for i = 1, N do
      local x = xs[i]
      if not (x >= 1 and x <= N) or seen[x] then error("value " .. x .. " outside or repeated") end
      seen[x] = true
    end
    -- position decile against value decile, and each value's decile against the next one's
    local pos, serial = {}, {}
    for i = 1, 10 do
      pos[i], serial[i] = {}, {}
      for j = 1, 10 do pos[i][j], serial[i][j] = 0, 0 end
    end
    local prev
    for i = 1, N do
      local d = floor((xs[i] - 1) * 10 / N) + 1
      local row = pos[floor((i - 1) * 10 / N) + 1]
      row[d] = row[d] + 1
      if prev then serial[prev][d] = serial[prev][d] + 1 end
      prev = d
    end
    pass("permutation position x value", st.chi2_independence(pos))
    pass("permutation value x next value", st.chi2_independence(serial))
  end)

  it("a short range: every ordering equally likely across seeds", function()
    -- 24,000 seeds: each of the 24 orders of 4 values, and the first two of 10 values
    local orders, pairs, S = {}, {}, 24000
    -- a table keeps its last few seeds' generators and frees older ones (Table:native)
    local t4 = bb.table "perm4" { { "x", "int", bb.permutation { 1, 4 } } }
    local t10 = bb.table "perm10" { { "x", "int", bb.permutation { 0, 9 } } }
    for seed = 1, S do
      local o = t4:native(seed):encode(0, 4, "copy"):gsub("\n", "")
      orders[o] = (orders[o] or 0) + 1
      local a, b = t10:native(seed):encode(0, 2, "copy"):match("(%d+)\n(%d+)")
      local k = tonumber(a) * 10 + tonumber(b)
      pairs[k] = (pairs[k] or 0) + 1
    end
    local cells = {}
    for a = 1, 4 do for b = 1, 4 do for c = 1, 4 do for d = 1, 4 do
      if a ~= b and a ~= c and a ~= d and b ~= c and b ~= d and c ~= d then cells[#cells + 1] = { a .. b .. c .. d, 1 / 24 } end
    end end end end
    pass("permutation of 4: all 24 orders", st.chi2_fit(orders, cells, S))
    cells = {}
    for a = 0, 9 do for b = 0, 9 do if a ~= b then cells[#cells + 1] = { a * 10 + b, 1 / 90 } end end end
    pass("permutation of 10: first two values", st.chi2_fit(pairs, cells, S))
  end)

  it("a range shorter than the rows repeats it whole", function()
    local xs = sample(bb.permutation { 0, 999 }, "int", 402)
    local counts = st.count(xs)
    for v = 0, 999 do assert.are.equal(N / 1000, counts[v]) end
  end)
end)

-- The kinds `bulkbench new` writes: laws given by a table's statistics and values.
describe("empirical: most common values by weight, then a histogram bucket by weight and a value uniform in it", function()
  it("integers: each most common value its share; a bucket's integers share its weight, those values aside", function()
    -- P(mcv) = 4/8; 5 and 7 by 3:1; buckets [0,10) and [10,20] (the last keeps its end) by 1:3
    local xs = sample(bb.empirical { mcv = { { "5", 3 }, { "7", 1 } }, rest = 4, bounds = { "0", "10", { "20", 3 } } },
                      "int", 501)
    local cells = {}
    for v = 0, 20 do
      local p = 0
      if v == 5 then p = 0.375 elseif v == 7 then p = 0.125 end
      if v < 10 and v ~= 5 and v ~= 7 then p = p + 0.125 / 8 end
      if v >= 10 then p = p + 0.375 / 11 end
      cells[#cells + 1] = { v, p }
    end
    pass("empirical int: mcv + 2 weighted buckets", st.chi2_fit(st.count(xs), cells, N))
  end)

  it("doubles: piecewise uniform, each bucket its weight (Kolmogorov–Smirnov)", function()
    local xs = sample(bb.empirical { bounds = { "0", { "1", 1 }, { "3", 2 } } }, "double", 502)
    ks("empirical double, buckets 1:2", xs, function(x)
      if x <= 1 then return x / 3 end
      return 1 / 3 + (x - 1) / 3
    end)
  end)

  it("decimals: uniform over the steps of the scale within a bucket, the point where the scale says", function()
    local xs = sample(bb.empirical { mcv = { { "1.50", 1 } }, rest = 1, bounds = { "0.00", "0.99" }, scale = 2 },
                      "decimal(6,2)", 503, function(s)
                        assert(s:match("^%d+%.%d%d$"), "not two decimals: " .. s)
                        return math.floor(tonumber(s) * 100 + 0.5)
                      end)
    local cells = { { 150, 0.5 } }
    for v = 0, 99 do cells[#cells + 1] = { v, 0.5 / 100 } end
    pass("empirical decimal scale 2", st.chi2_fit(st.count(xs), cells, N))
  end)

  it("timestamps: whole seconds when the values were, uniform in the bucket", function()
    local from = st.epoch("2024-01-01 00:00:00")
    local xs = sample(bb.empirical { bounds = { "2024-01-01 00:00:00+00", "2024-01-01 00:00:59", "2024-01-01 00:01:39" } },
                      "timestamp", 504, function(s) return (st.epoch(s)) - from end)
    local cells = {}
    for v = 0, 99 do cells[#cells + 1] = { v, v < 59 and 0.5 / 59 or 0.5 / 41 } end
    pass("empirical timestamp [0, 59) and [59, 99] s", st.chi2_fit(st.count(xs), cells, N))
  end)

  it("text: most common values by weight, the rest random text as long as a bound picked at random", function()
    local text = column(bb.empirical { mcv = { { "a,b", 1 }, { "é", 1 } }, rest = 2, bounds = { "xx", "yyyy", "zzzzzz" } },
                        "text", 505)
    local counts = {}
    for line in text:gmatch("([^\n]*)\n") do
      local k = (line == "a,b" or line == "é") and line or ("len" .. #line)
      assert(k ~= "len" .. #line or line:match("^[%w]+$"), "not alphanumeric: " .. line)
      counts[k] = (counts[k] or 0) + 1
    end
    pass("empirical text", st.chi2_fit(counts, { { "a,b", 0.25 }, { "é", 0.25 }, { "len2", 1 / 6 }, { "len4", 1 / 6 },
                                                  { "len6", 1 / 6 } }, N))
  end)

  it("refuses what it cannot draw from, naming the column", function()
    local t = bb.table "bad" { { "x", "int", bb.empirical { mcv = { { "abc", 1 } } } } }
    local ok, err = pcall(t.native, t)
    assert.is_false(ok)
    assert.truthy(tostring(err.bb_usage or err):find("column x: most common value 'abc'", 1, true))
    t = bb.table "bad2" { { "x", "int", bb.empirical { bounds = { "5", "3" } } } }
    ok, err = pcall(t.native, t)
    assert.is_false(ok)
    assert.truthy(tostring(err.bb_usage or err):find("must not decrease", 1, true))
  end)
end)

describe("pick: a row of a value set read once (a parent's keys)", function()
  local core = require "bulkbench.core"

  it("uniform over the set's rows, every column of one set from the same row", function()
    local rows = {}
    for i = 1, 10 do rows[i] = { tostring(100 + i), "v" .. i } end
    core.value_set("dist.keys", rows)
    local t = bb.table "pick" { { "k", "int", bb.pick { set = "dist.keys" } }, { "v", "text", bb.pick { set = "dist.keys", col = 2 } } }
    local text = t:native(601):encode(0, N, "copy")
    local ks_ = {}
    for k, v in text:gmatch("(%d+)\t([^\n]+)\n") do
      assert(v == "v" .. (tonumber(k) - 100), ("row %s with %s: columns from different rows"):format(k, v))
      ks_[#ks_ + 1] = tonumber(k)
    end
    assert.are.equal(N, #ks_)
    pass("pick uniform over 10 rows", st.chi2_fit(st.count(ks_), uniform_cells(101, 110), N))
  end)

  it("weighed: a listed value its weight, every other row an equal share of the rest", function()
    core.value_set("dist.weighed", { "1", "2", "3", "4" }, { weights = { { "2", 0.5 }, { "9", 0.3 } }, rest = 0.2 })
    local xs = sample(bb.pick { set = "dist.weighed" }, "int", 602)
    local share = 0.2 / 3 / 0.7
    pass("pick weighed", st.chi2_fit(st.count(xs), { { 1, share }, { 2, 0.5 / 0.7 }, { 3, share }, { 4, share } }, N))
  end)

  it("unique: every row once per pass over the set", function()
    local rows = {}
    for i = 1, 1000 do rows[i] = tostring(i) end
    core.value_set("dist.unique", rows)
    local xs = sample(bb.pick { set = "dist.unique", unique = true }, "int", 603)
    local counts = st.count(xs)
    for v = 1, 1000 do assert.are.equal(N / 1000, counts[v]) end
  end)

  it("weighed by a histogram: the rest shared by bucket, nothing outside the buckets", function()
    local rows = {}
    for i = 1, 1000 do rows[i] = tostring(i) end
    core.value_set("dist.hist", rows, { weights = { { "7", 0.2 } }, rest = 0.8, bounds = { "100", "300", "500" },
                                        bound_weights = { 3, 1 } })
    local xs = sample(bb.pick { set = "dist.hist" }, "int", 605)
    local lo, hi = minmax(xs)
    assert.is_true(lo >= 7 and hi <= 500, ("values in [%g, %g]"):format(lo, hi))
    local cells = { { "7", 0.2 }, { "low", 0.6 }, { "high", 0.2 } }
    local counts = {}
    for _, x in ipairs(xs) do
      local k = x == 7 and "7" or x < 300 and "low" or "high"
      counts[k] = (counts[k] or 0) + 1
    end
    pass("pick weighed by a histogram", st.chi2_fit(counts, cells, N))
  end)

  it("spread: every row in turn as often as its weight says, a new shuffle each pass", function()
    local rows = {}
    for i = 1, 1000 do rows[i] = tostring(i) end
    core.value_set("dist.spread", rows)
    local xs = sample(bb.pick { set = "dist.spread", spread = true }, "int", 606)
    local seen, inorder = {}, 0
    for i = 1, 2000 do
      local pass_ = math.floor((i - 1) / 1000)
      assert(seen[xs[i]] ~= pass_, "row " .. xs[i] .. " twice in one pass")
      seen[xs[i]] = pass_
      if i <= 1000 and xs[i] == i then inorder = inorder + 1 end
    end
    assert.is_true(inorder < 10, "shuffled: " .. inorder .. " at their own row")
    assert.are_not.same({ xs[1], xs[2], xs[3] }, { xs[1001], xs[1002], xs[1003] }) -- each pass its own order
    -- weighed (the rows of 1..200 and 500 twice as often as the others): counts within one of the weight's share
    core.value_set("dist.spread_w", rows, { weights = { { "500", 2 / 1200 } }, rest = 1198 / 1200,
                                            bounds = { "1", "200", "1000" }, bound_weights = { 2 * 199, 800 } })
    xs = sample(bb.pick { set = "dist.spread_w", spread = true }, "int", 607)
    local counts = st.count(xs)
    local unit = N / 1200 -- row weights 2 (1..199 and 500), 1 (200..1000 but 500): 1200 units
    for v = 1, 1000 do
      local want = (v < 200 or v == 500) and 2 * unit or unit
      assert(math.abs((counts[v] or 0) - want) <= 0.02 * want + 2, ("row %d: %d times, want %.1f"):format(v, counts[v] or 0, want))
    end
  end)

  it("unique with weights: every row once, heavier rows first", function()
    local rows = {}
    for i = 1, 10 do rows[i] = tostring(i) end
    core.value_set("dist.once", rows, { weights = { { "4", 0.4 }, { "9", 0.3 } }, rest = 0.3 })
    local t = bb.table "once" { { "k", "int", bb.pick { set = "dist.once", unique = true } } }
    local text = t:native(608):encode(0, 10, "copy")
    local got = {}
    for v in text:gmatch("(%d+)\n") do got[#got + 1] = tonumber(v) end
    assert.are.same({ 4, 9 }, { got[1], got[2] })
    table.sort(got)
    assert.are.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, got)
  end)

  it("key: each combination of the key's sets once, the first set's rows by weight", function()
    local function pairs_of(a, b, n, seed, weights)
      local ra, rb = {}, {}
      for i = 1, a do ra[i] = tostring(i) end
      for i = 1, b do rb[i] = "b" .. i end
      core.value_set("dist.ka", ra, weights)
      core.value_set("dist.kb", rb)
      local key = { "dist.ka", "dist.kb" }
      local t = bb.table "junction" { { "a", "int", bb.pick { set = "dist.ka", unique = true, key = key } },
                                      { "b", "text", bb.pick { set = "dist.kb", unique = true, key = key } } }
      local seen, per_a, count = {}, {}, 0
      for x, y in t:native(seed):encode(0, n, "copy"):gmatch("(%d+)\t(b%d+)\n") do
        assert(not seen[x .. y], ("pair %s %s twice in %d rows"):format(x, y, n))
        seen[x .. y] = true
        per_a[tonumber(x)] = (per_a[tonumber(x)] or 0) + 1
        count = count + 1
      end
      assert.are.equal(n, count)
      return per_a
    end
    local per_a = pairs_of(4, 6, 24, 609) -- 24 pairs: lcm(4, 6) = 12 rows is not the end
    for a = 1, 4 do assert.are.equal(6, per_a[a]) end
    per_a = pairs_of(200, 1000, 100000, 610)
    for a = 1, 200 do assert.are.equal(500, per_a[a]) end
    -- weighed: row 1 a quarter of the rows, the others an equal share of the rest, until row 1 has every partner
    -- (each row's count within one of its share: the rows go by quota, not by chance)
    per_a = pairs_of(50, 10000, 4900, 611, { weights = { { "1", 0.25 } }, rest = 0.75 })
    assert.is_true(math.abs(per_a[1] - 1225) <= 25, "row 1: " .. per_a[1])
    for a = 2, 50 do assert.is_true(math.abs(per_a[a] - 75) <= 1, ("row %d: %d"):format(a, per_a[a])) end
    per_a = pairs_of(50, 100, 5000, 612, { weights = { { "1", 0.25 } }, rest = 0.75 })
    assert.are.equal(100, per_a[1]) -- every partner once, no more
  end)

  it("without the set: the stand-in range, or an error that says where the set comes from", function()
    local xs = sample(bb.pick { set = "dist.absent", min = 1, max = 6 }, "int", 604)
    pass("pick stand-in 1..6", st.chi2_fit(st.count(xs), uniform_cells(1, 6), N))
    local t = bb.table "nopick" { { "x", "int", bb.pick { set = "dist.absent" } } }
    local ok, err = pcall(t.native, t)
    assert.is_false(ok)
    assert.truthy(tostring(err.bb_usage or err):find("value set 'dist.absent', which this run has not read", 1, true))
  end)
end)

describe("unique: a pattern filled with a different number each row", function()
  it("seq: row n gets start + n, in mixed radix ('#' a digit, '@' a letter)", function()
    local text = column(bb.unique { "K#@#", order = "seq", start = 7 }, "text", 701)
    local i = 0
    for line in text:gmatch("([^\n]*)\n") do
      if i < 2600 then
        local n = (7 + i) % 2600
        local want = ("K%d%s%d"):format(math.floor(n / 260), string.char(97 + math.floor(n / 10) % 26), n % 10)
        assert.are.equal(want, line)
      end
      i = i + 1
      if i > 2600 then break end
    end
  end)

  it("pad = false: the number without its leading zeros, as MC-1 .. MC-3000 were written", function()
    local text = column(bb.unique { "MC-####", order = "seq", start = 1, pad = false }, "text", 703)
    local i = 0
    for line in text:gmatch("([^\n]*)\n") do
      i = i + 1
      assert.are.equal("MC-" .. (i % 10000), line)
      if i == 10500 then break end
    end
  end)

  it("random: every number of the pattern once per pass, in shuffled order", function()
    local text = column(bb.unique { "u-####" }, "text", 702)
    local seen, i, inorder = {}, 0, 0
    for line in text:gmatch("([^\n]*)\n") do
      if i == 10000 then break end
      assert(line:match("^u%-%d%d%d%d$"), line)
      assert(not seen[line], "repeated within a pass: " .. line)
      seen[line] = true
      if line == ("u-%04d"):format(i) then inorder = inorder + 1 end
      i = i + 1
    end
    assert.are.equal(10000, i)
    assert.is_true(inorder < 10, "shuffled: " .. inorder .. " values at their own row")
  end)
end)
