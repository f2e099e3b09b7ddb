-- Reading the files the program is given (scripts, lessons, saved games,
-- tournament results) and naming them in messages. One reader, so that
-- each caller handles a folder (which opens but cannot be read), a read
-- error and a size limit alike.
local core = require "diloti.core"

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

--- Every *.lua script in a folder, in name order: add(src, path) for
-- each one read, and {file, message} appended to errors for each one that
-- cannot be. Returns false when the folder itself cannot be listed.
function M.each_script(dir, add, errors)
  local names = core.listdir(dir)
  for _, n in ipairs(names or {}) do
    if n:match("%.lua$") then
      local path = dir .. "/" .. n
      local src, err = M.read(path)
      if src then add(src, path) else errors[#errors + 1] = { file = path, message = path .. ": " .. err } end
    end
  end
  return names ~= nil
end

return M
