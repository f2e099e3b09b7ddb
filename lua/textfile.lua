-- Reading the files the program is given (scripts, lessons, saved games,
-- tournament results) and naming them in messages. One reader, so that
-- each caller handles a folder (which opens but cannot be read), a read
-- error and a size limit alike.
local M = {}

--- The file's text, or nil and why. With max, a longer file is refused.
function M.read(path, max)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  -- Reading one byte more than allowed tells a file too large.
  local text, rerr = f:read(max and (max + 1) or "a")
  f:close()
  if not text and rerr then return nil, path .. ": " .. tostring(rerr) end
  text = text or ""
  if max and #text > max then return nil, string.format("%s: larger than %d bytes", path, max) end
  return text
end

--- The first line of an error message (tracebacks and details dropped).
function M.first_line(msg)
  return (tostring(msg):match("^[^\n]*"))
end

--- The first line of msg, led by the file's name unless it already is.
function M.with_file(msg, file)
  msg = M.first_line(msg)
  if msg:sub(1, #file) ~= file then msg = file .. ": " .. msg end
  return msg
end

return M
