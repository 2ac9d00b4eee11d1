-- bulkbench.report.htmlpage: the frame of the HTML report: its sections with a table of contents,
-- the inline style and script, and a Content-Security-Policy that lets nothing be fetched.
local chart = require "bulkbench.report.chart"
local M = {}

local esc = chart.esc

-- Narrow screens: each chart is drawn twice and the page shows the size that fits (its text
-- stays at 10 px or more on a phone); a table is as wide as its cells' text, each cell one
-- line (never a word or a number broken), and scrolls in its own box with its first columns
-- pinned (the first by the style, those after it that fit by the script); the page itself
-- never scrolls sideways. Prose wraps anywhere it must.
M.CSS = [[
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d1d1d;
  background:#fff;max-width:1100px;margin:0 auto;padding:0 16px 48px;overflow-wrap:anywhere}
h1{font-size:1.6em;margin:.8em 0 .2em}
h2{font-size:1.3em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin:2em 0 .5em}
h3{font-size:1.05em;margin:1.2em 0 .4em}
nav ol{columns:2 14em;padding-left:1.4em}
.lead,.what,figcaption,.note{color:#555}
.top{border:1px solid #cfd8e3;background:#f5f8fb;padding:.2em .9em;margin:1em 0;border-radius:4px}
.verdict{margin:.6em 0}
.warn,.fail{border-left:4px solid #e0a800;background:#fff8e1;padding:.1em .8em;margin:.6em 0}
.fail{border-color:#c62828;background:#fdecea}
.warn ul,.fail ul{margin:.2em 0;padding-left:1.2em}
figure{margin:1em 0}
figure svg{display:block;width:100%;max-width:1000px;height:auto}
figure svg.narrow{display:none;max-width:480px}
@media (max-width:800px){figure svg.wide{display:none}figure svg.narrow{display:block}}
figcaption{font-size:.9em;margin-top:.3em}
ul.legend{list-style:none;padding:0;margin:.4em 0;display:flex;flex-wrap:wrap;gap:.2em .9em;font-size:.88em}
ul.legend button{font:inherit;background:none;border:0;padding:.1em 0;cursor:pointer;color:inherit;text-align:left}
ul.legend button.off{opacity:.4;text-decoration:line-through}
ul.legend .key{display:inline-block;width:22px;margin:0 .4em .25em 0;vertical-align:middle}
.scroll{overflow-x:auto;max-width:100%;margin:.5em 0}
table{border-collapse:separate;border-spacing:0;font-size:.88em;font-variant-numeric:tabular-nums;
  overflow-wrap:normal;word-break:normal}
th,td{padding:.25em .6em;border-bottom:1px solid #e6e6e6;text-align:left;white-space:nowrap;background:#fff}
th:first-child,td:first-child,th.pin,td.pin{position:sticky;left:0;z-index:1}
th:first-child,td:first-child,th.pin-last,td.pin-last{box-shadow:1px 0 0 #ddd}
table.pinned th:first-child,table.pinned td:first-child{box-shadow:none}
table.pinned th.pin-last,table.pinned td.pin-last{box-shadow:1px 0 0 #ddd}
.wbar{display:flex;width:18em;height:14px;background:#eee}
.wbar span{display:block;height:100%}
th{background:#f3f3f3;cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" \25B2"}
th[aria-sort=descending]::after{content:" \25BC"}
td.num{text-align:right}
td.v{font-weight:600}
td.v-faster{background:#dff3df;color:#135c13}
td.v-slower{background:#fbe0e0;color:#8c1515}
td.v-no-difference{background:#eee;color:#333}
td.v-n-a{background:#fdf0dc;color:#7a4a00}
pre{background:#f6f6f6;padding:.5em .7em;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85em}
]]

-- Sorting by a click on a header (numbers before text), and a click on a legend entry
-- hiding its series in both sizes of its chart. The page says everything without it.
M.SCRIPT = [[
(function () {
  function key(td) {
    var t = td.textContent.trim(), n = parseFloat(t);
    return isNaN(n) ? t.toLowerCase() : n;
  }
  function sorter(table, th, i) {
    return function () {
      var asc = th.getAttribute("aria-sort") !== "ascending", body = table.tBodies[0];
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (o) { o.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      Array.prototype.slice.call(body.rows).sort(function (a, b) {
        var x = key(a.cells[i]), y = key(b.cells[i]);
        if (typeof x !== typeof y) { x = typeof x; y = typeof y; }
        return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
      }).forEach(function (r) { body.appendChild(r); });
    };
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      var sort = sorter(table, th, i);
      th.tabIndex = 0;
      th.title = "sort by " + th.textContent;
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
  });
  // the columns after the first that fit in PIN_SHARE of the box, pinned beside it
  var PIN_SHARE = 0.45;
  document.querySelectorAll(".scroll > table").forEach(function (table) {
    var head = table.tHead && table.tHead.rows[0], room = table.parentElement.clientWidth * PIN_SHARE;
    if (!head || table.scrollWidth <= table.parentElement.clientWidth) return;
    var at = head.cells[0].offsetWidth, last = 0;
    for (var i = 1; i < head.cells.length - 1 && at + head.cells[i].offsetWidth <= room; i++) {
      Array.prototype.forEach.call(table.rows, function (row) {
        if (row.cells[i]) { row.cells[i].classList.add("pin"); row.cells[i].style.left = at + "px"; }
      });
      at += head.cells[i].offsetWidth;
      last = i;
    }
    if (!last) return;
    table.classList.add("pinned");
    Array.prototype.forEach.call(table.rows, function (row) {
      if (row.cells[last]) row.cells[last].classList.add("pin-last");
    });
  });
  // a legend entry hides (and shows again) its series: lines, their names, bar segments
  document.querySelectorAll("ul.legend button").forEach(function (b) {
    b.addEventListener("click", function () {
      var off = !b.classList.contains("off"), name = b.getAttribute("data-name"), fig = b.closest("figure");
      b.classList.toggle("off", off);
      b.setAttribute("aria-pressed", off ? "true" : "false");
      if (!fig) return;
      fig.querySelectorAll("g.series, g.endlabel, span.seg").forEach(function (g) {
        if (g.getAttribute("data-name") !== name) return;
        if (g.tagName === "SPAN") g.style.visibility = off ? "hidden" : "";
        else g.style.display = off ? "none" : "";
      });
    });
  });
})();
]]

M.CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

local Page = {}
Page.__index = Page

function M.new() return setmetatable({ sections = {}, ids = {} }, Page) end

-- an id for a heading, unique in the page
function Page:id(title)
  local base = title:lower():gsub("[^%w]+", "-"):gsub("^%-+", ""):gsub("%-+$", "")
  if base == "" then base = "section" end
  local id, n = base, 1
  while self.ids[id] do n = n + 1; id = base .. "-" .. n end
  self.ids[id] = true
  return id
end

-- Adds a section: its heading and its parts (HTML texts), in order.
function Page:section(title, parts)
  self.sections[#self.sections + 1] = { id = self:id(title), title = title, parts = parts }
end

-- The whole document; head = { title, lead, top = the answer's parts, above the contents }.
function Page:render(head)
  local out = {
    "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
    ('<meta http-equiv="Content-Security-Policy" content="%s">'):format(M.CSP),
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>" .. esc(head.title) .. "</title>", "<style>", M.CSS, "</style>", "</head>", "<body>",
    "<header><h1>" .. esc(head.title) .. "</h1>", '<p class="lead">' .. esc(head.lead) .. "</p></header>",
  }
  if head.top and #head.top > 0 then
    out[#out + 1] = '<div class="top" role="region" aria-label="the answer">' .. table.concat(head.top) .. "</div>"
  end
  out[#out + 1] = '<nav aria-label="contents"><ol>'
  for _, s in ipairs(self.sections) do
    out[#out + 1] = ('<li><a href="#%s">%s</a></li>'):format(s.id, esc(s.title))
  end
  out[#out + 1] = "</ol></nav>"
  for _, s in ipairs(self.sections) do
    out[#out + 1] = ('<section aria-labelledby="%s"><h2 id="%s">%s</h2>'):format(s.id, s.id, esc(s.title))
    for _, part in ipairs(s.parts) do out[#out + 1] = part end
    out[#out + 1] = "</section>"
  end
  out[#out + 1] = "<script>" .. M.SCRIPT .. "</script>"
  out[#out + 1] = "</body>\n</html>\n"
  return table.concat(out, "\n")
end

return M
