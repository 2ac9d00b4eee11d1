-- The rest of the report's statistics: stalls of --timeline and the exact merge of --cdf.
local timeline = require "bulkbench.report.timeline"
local cdf = require "bulkbench.report.cdf"

describe("stalls", function()
  it("are intervals under half the run's median rate, with their time", function()
    local run = { intervals = {} }
    for i = 1, 10 do run.intervals[i] = { t = i * 0.5, rows_per_s = i == 7 and 1000 or 10000 + i } end
    run.intervals[1].rows_per_s = 10 -- start-up
    local found = timeline.stalls(run)
    assert.are.equal(1, #found)
    assert.are.equal(3.5, found[1].t)
    assert.are.equal(1000, found[1].rows_per_s)
  end)

  it("are judged against the run's batch cadence: a batch of 10000 committing every 0.7 s leaves empty intervals", function()
    -- pg multirow at batch 10000, 14,000 rows/s, sampled every 0.5 s: an interval sees 0, 1 or 2 batches
    local run = { result = { batch = 10000, threads = 1 }, intervals = {} }
    local t, rows = 0, { 0, 10000, 0, 10000, 10000, 0, 10000, 0, 10000, 10000, 0, 10000 }
    for i, r in ipairs(rows) do
      t = t + 0.5
      run.intervals[i] = { t = t, rows = r, rows_per_s = r / 0.5 }
    end
    assert.are.equal(0, #timeline.stalls(run))
    run.result = { batch = 100, threads = 1 } -- batches of 100: an empty half second is a stall
    assert.are.equal(4, #timeline.stalls(run)) -- not the first interval: start-up is no stall
  end)
end)

describe("latency histograms", function()
  it("merge exactly, bucket by bucket", function()
    local acc = cdf.merge({}, { unit = "ns", buckets = { { 1000, 1008, 3 }, { 2000000, 2016384, 1 } } })
    cdf.merge(acc, { unit = "ns", buckets = { { 1000, 1008, 2 }, { 5000, 5032, 4 } } })
    local bs, total = cdf.sorted(acc)
    assert.are.equal(10, total)
    assert.are.same({ 5, 9, 10 }, { bs[1][4], bs[2][4], bs[3][4] })
    assert.is_true(math.abs(cdf.quantile(bs, total, 0.5) - 0.001004) < 1e-12)
    assert.are.equal((2 + 2.016384) / 2, cdf.quantile(bs, total, 0.99))
  end)
end)
