-- bulkbench.instant: dates and timestamps as numbers and back, so that CHECK bounds,
-- histogram bounds and the values drawn between them compare as instants, not as text
-- ('2020-01-01 00:00:00+02' is before '2020-01-01 01:00:00'). A date is a day number, a
-- timestamp seconds since 1970-01-01 (UTC when the text carries an offset), both counted
-- on the proleptic Gregorian calendar.
local M = {}

-- Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
local function days(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * (m + (m > 2 and -3 or 9)) + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end

local function civil(z)
  z = z + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp + (mp < 10 and 3 or -9)
  return era * 400 + yoe + (m <= 2 and 1 or 0), m, d
end

-- 'YYYY-MM-DD[ HH:MM:SS[.ffffff]][+HH[:MM]]' as seconds (kind "timestamp") or days ("date"),
-- nil when it is not one.
function M.value(kind, text)
  if type(text) ~= "string" then return nil end
  local y, mo, d, rest = text:match("^%s*(%-?%d%d%d%d+)-(%d%d)-(%d%d)(.*)$")
  if not y then return nil end
  local day = days(tonumber(y), tonumber(mo), tonumber(d))
  if kind == "date" then return day end
  local h, mi, s, tail = rest:match("^[ T](%d%d):(%d%d):?([%d%.]*)(.*)$")
  local secs = day * 86400 + (h and (tonumber(h) * 3600 + tonumber(mi) * 60 + (tonumber(s) or 0)) or 0)
  local sign, oh, om = (tail or rest):match("([+-])(%d%d):?(%d*)%s*$")
  if sign then secs = secs - (sign == "+" and 1 or -1) * (tonumber(oh) * 3600 + (tonumber(om) or 0) * 60) end
  return secs
end

-- A number M.value gave back as text: 'YYYY-MM-DD' for a date, else 'YYYY-MM-DD HH:MM:SS'
-- (with microseconds when it has a fraction), in UTC.
function M.text(kind, x)
  if kind == "date" then
    local y, m, d = civil(math.floor(x))
    return ("%04d-%02d-%02d"):format(y, m, d)
  end
  local whole = math.floor(x)
  local y, m, d = civil(math.floor(whole / 86400))
  local s = whole % 86400
  local out = ("%04d-%02d-%02d %02d:%02d:%02d"):format(y, m, d, math.floor(s / 3600), math.floor(s / 60) % 60, s % 60)
  local us = math.floor((x - whole) * 1e6 + 0.5)
  if us > 0 and us < 1000000 then out = out .. (".%06d"):format(us) end
  return out
end

return M
