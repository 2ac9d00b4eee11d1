-- Distributions on 1,000,000 samples, with tolerances.
local bb = require "bulkbench"

local N = 1000000

-- the values of one numeric column for rows 0..N-1, parsed back from the TSV encoder
local function sample(gen, sqltype)
  local t = bb.table("dist" .. tostring(math.random(1e9))) { { "x", sqltype or "double", gen } }
  local out, i = {}, 0
  for line in t:encode(0, N, "tsv"):gmatch("[^\n]+") do
    i = i + 1
    out[i] = tonumber(line)
  end
  return out
end

local function mean_sd(xs)
  local s, s2 = 0, 0
  for _, x in ipairs(xs) do s = s + x; s2 = s2 + x * x end
  local m = s / #xs
  return m, math.sqrt(s2 / #xs - m * m)
end

describe("distributions (1M samples)", function()
  it("uniform int: mean, ends and no value outside", function()
    local xs = sample(bb.int { 0, 1000 }, "int")
    local m = mean_sd(xs)
    assert.is_true(math.abs(m - 500) < 1.5, "mean " .. m)
    local lo, hi = math.huge, -math.huge
    for _, x in ipairs(xs) do lo = math.min(lo, x); hi = math.max(hi, x) end
    assert.are.equal(0, lo)
    assert.are.equal(1000, hi)
  end)

  it("uniform double: mean and variance of U(0,1)", function()
    local m, sd = mean_sd(sample(bb.double { 0, 1 }))
    assert.is_true(math.abs(m - 0.5) < 0.002, "mean " .. m)
    assert.is_true(math.abs(sd - math.sqrt(1 / 12)) < 0.002, "sd " .. sd)
  end)

  it("gaussian: mean and standard deviation", function()
    local m, sd = mean_sd(sample(bb.gaussian { mean = 100, stddev = 15 }))
    assert.is_true(math.abs(m - 100) < 0.1, "mean " .. m)
    assert.is_true(math.abs(sd - 15) < 0.1, "sd " .. sd)
  end)

  it("zipf: rank 1 is about twice as common as rank 2 (s = 1)", function()
    local xs = sample(bb.zipf { 1, 1000, s = 1 }, "int")
    local c = {}
    for _, x in ipairs(xs) do c[x] = (c[x] or 0) + 1 end
    local r = c[1] / c[2]
    assert.is_true(r > 1.6 and r < 2.6, "rank1/rank2 " .. r)
    assert.is_true(c[1] > c[10] * 5, "rank 1 vs rank 10")
  end)

  it("pareto: the share above the scale follows (scale/x)^shape", function()
    local xs = sample(bb.pareto { scale = 1, shape = 2 })
    local above = 0
    for _, x in ipairs(xs) do
      assert.is_true(x >= 1)
      if x > 2 then above = above + 1 end
    end
    assert.is_true(math.abs(above / N - 0.25) < 0.003, "P(x>2) " .. above / N)
  end)

  it("bool: the asked share of true", function()
    local m = mean_sd(sample(bb.bool { p = 0.3 }, "int"))
    assert.is_true(math.abs(m - 0.3) < 0.003, "share " .. m)
  end)

  it("permutation: every value of the range exactly once", function()
    local xs = sample(bb.permutation { 1, N }, "int")
    local seen = {}
    for _, x in ipairs(xs) do
      assert.is_nil(seen[x])
      seen[x] = true
    end
  end)
end)
