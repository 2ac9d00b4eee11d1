-- scale_chart.lua — the chart of docs/scale.md: rows/s against the rows in the table of each
-- result with growth in a results file, the server's memory marked (lua/report/growth.lua's),
-- as one SVG. make bench's scale section runs it: bulkbench lua contrib/scale_chart.lua RESULTS.jsonl OUT.svg
local results = require "bulkbench.report.results"
local chart = require "bulkbench.report.chart"
local growth = require "bulkbench.report.growth"

local input, out = arg[1], arg[2]
if not input or not out then error("usage: bulkbench lua contrib/scale_chart.lua RESULTS.jsonl OUT.svg", 0) end
local runs = growth.runs((results.read({ input }, "bulkbench lua contrib/scale_chart.lua RESULTS.jsonl OUT.svg")))
if #runs == 0 then error(input .. ": no result has growth", 0) end
chart.write(out, (growth.svg(runs, chart.WIDE, nil, true)))
print(("%s: %d runs"):format(out, #runs))
