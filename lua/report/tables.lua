-- bulkbench.report.tables: the reports' tables as text, markdown or CSV, with their titles. A cell
-- may be any length (a build tag of a hundred characters): columns are padded by hand, never
-- through a format width.
local points = require "bulkbench.report.points"
local M = {}

-- The display width of s: UTF-8 continuation bytes take no column.
local function width(s) return #s - select(2, s:gsub("[\128-\191]", "")) end

local function pad(s, w, left)
  local fill = (" "):rep(math.max(0, w - width(s)))
  return left and (s .. fill) or (fill .. s)
end

-- whether a column's cells (below its header) are all figures: those align right in text
local function numeric(grid, i)
  for n = 2, #grid do
    local v = grid[n][i]
    if not (tonumber(v) or v == "null" or v == "-" or v == "FAILED") then return false end
  end
  return true
end

-- rows as a table in fmt (text, markdown or csv): cols = { { header, function(row) -> text } };
-- in text a column of figures is right-aligned, one of words left-aligned
function M.render(cols, rows, fmt)
  local grid = { {} }
  for i, c in ipairs(cols) do grid[1][i] = c[1] end
  for _, r in ipairs(rows) do
    local row = {}
    for i, c in ipairs(cols) do row[i] = tostring(c[2](r)) end
    grid[#grid + 1] = row
  end
  local out = {}
  if fmt == "markdown" then
    for n, row in ipairs(grid) do
      local cells = {}
      for i, v in ipairs(row) do cells[i] = (v:gsub("|", "\\|")) end
      out[#out + 1] = "| " .. table.concat(cells, " | ") .. " |"
      if n == 1 then
        local sep = {}
        for i = 1, #row do sep[i] = i <= 1 and "---" or "---:" end
        out[#out + 1] = "|" .. table.concat(sep, "|") .. "|"
      end
    end
  elseif fmt == "csv" then
    for _, row in ipairs(grid) do
      local cells = {}
      for i, v in ipairs(row) do cells[i] = v:find('[,"\r\n]') and ('"' .. v:gsub('"', '""') .. '"') or v end
      out[#out + 1] = table.concat(cells, ",")
    end
  else
    local w = {}
    for _, row in ipairs(grid) do
      for i, v in ipairs(row) do w[i] = math.max(w[i] or 0, width(v)) end
    end
    local left = {}
    for i = 1, #grid[1] do left[i] = not numeric(grid, i) end
    for _, row in ipairs(grid) do
      local cells = {}
      for i, v in ipairs(row) do cells[i] = pad(v, w[i], left[i]) end
      out[#out + 1] = (table.concat(cells, "  "):gsub("%s+$", ""))
    end
  end
  return table.concat(out, "\n")
end

-- A table's title line in fmt (CSV has none: its callers leave it out).
function M.heading(title, fmt) return fmt == "markdown" and ("### " .. title .. "\n") or title end

-- Appends to out a titled table (CSV: the table alone, even empty) and a blank line.
function M.section(out, head, cols, rows, fmt)
  if fmt ~= "csv" then out[#out + 1] = M.heading(head, fmt) end
  if #rows > 0 or fmt == "csv" then out[#out + 1] = M.render(cols, rows, fmt) end
  out[#out + 1] = ""
end

-- Appends "skipped WHY" lines for the items a report could not use (none in CSV).
function M.skipped(out, items, line_of, fmt)
  if fmt == "csv" or #items == 0 then return end
  for _, it in ipairs(items) do out[#out + 1] = "skipped " .. line_of(it) end
  out[#out + 1] = ""
end

-- What a group's results are and share: "4 points, 12 runs (engine=sqlite, threads=1)";
-- rs: a result of each (noun: what one is), runs: how many runs they hold, when they differ;
-- skip: { dim = true } not to name (what a comparison changes).
function M.group_title(rs, noun, runs, skip)
  local _, fixed = points.split_dims(rs)
  local same = {}
  for _, d in ipairs(fixed) do
    if not (skip and skip[d]) then
      same[#same + 1] = points.dim_label(d) .. "=" .. tostring(points.dim_value(rs[1], d))
    end
  end
  local count = ("%d %s%s"):format(#rs, noun, #rs == 1 and "" or "s")
  if runs and runs ~= #rs then count = count .. (", %d run%s"):format(runs, runs == 1 and "" or "s") end
  return count .. (#same > 0 and (" (" .. table.concat(same, ", ") .. ")") or "")
end

-- The columns that name items among each other on a page, one per thing that varies
-- between their results (result_of(item)): the scenario when there are several, then the
-- dimensions (engine, method, threads, batch, --set values, script options); when nothing
-- varies, one column `fallback` = { header, function(item) -> text }. Each cell one word or
-- two, so a table's first columns stay narrow enough to hold while it scrolls.
function M.label_columns(items, result_of, fallback)
  local rs = {}
  for i, it in ipairs(items) do rs[i] = result_of(it) end
  local cols = {}
  if #points.by_scenario(rs) > 1 then
    cols[1] = { "scenario", function(it) return tostring(result_of(it).scenario or "?") end }
  end
  for _, d in ipairs(points.split_dims(rs)) do
    cols[#cols + 1] = { points.dim_label(d), function(it) return tostring(points.dim_value(result_of(it), d) or "-") end }
  end
  if #cols == 0 and fallback then cols[1] = fallback end
  return cols
end

-- 1234567 -> "1,234,567": figures in sentences
function M.thousands(v)
  local s = ("%.0f"):format(v)
  local sign, digits = s:match("^(-?)(%d+)$")
  if not digits then return s end
  return sign .. digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
end

return M
