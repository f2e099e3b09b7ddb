-- Reading the files the program is given (scripts, lessons, saved games,
-- tournament results) and naming them in messages. One reader, so that
-- each caller handles a folder, a device, a read error and a size limit
-- alike. Records and scripts come from strangers: a line `seat 1: ai
-- /dev/zero` once made the table read without end, so every read has a
-- limit (the caller's, or MAX_SCRIPT) and only ordinary files are read.
local core = require "diloti.core"

local M = {}

-- The limits, each far above any real file of its kind and far below
-- what would hurt: a file over its limit is refused before it is read.
-- Scripts (an AI, a house rule, a lesson, table.lua): the largest shipped
-- one is under 10 KiB, and a script loads under a 16 MiB memory cap.
M.MAX_SCRIPT = 1024 * 1024
-- Lesson progress: one short line per lesson.
M.MAX_PROGRESS = 256 * 1024
-- `diloti match --json` results, for `diloti merge`: about 800 bytes a
-- deal, so some 80,000 deals a file (larger runs are split in shards).
M.MAX_RESULTS = 64 * 1024 * 1024
-- (game records: record.MAX_BYTES, 4 MiB)

local KIND = { directory = "a folder", link = "a link", other = "a device, FIFO or socket" }

--- The file's text, or nil and why. A file longer than max bytes (by
-- default MAX_SCRIPT) is refused, and so is anything but an ordinary file
-- (a link to one is followed): /dev/zero would read for ever, a FIFO
-- would wait for a writer.
function M.read(path, max)
  max = max or M.MAX_SCRIPT
  local kind, kerr = core.filekind(path, true)
  if not kind then return nil, kerr end
  if kind ~= "file" then
    return nil, string.format("%s: not an ordinary file (%s)", path, KIND[kind] or kind)
  end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local function too_large()
    f:close()
    return nil, string.format("%s: larger than %d bytes", path, max)
  end
  -- The size first, so that a huge file is refused without reading it.
  local size = f:seek("end")
  if size and size > max then return too_large() end
  f:seek("set")
  -- Reading one byte more than allowed tells a file that grew meanwhile.
  local text, rerr = f:read(max + 1)
  if text and #text > max then return too_large() end
  f:close()
  if not text and rerr then return nil, path .. ": " .. tostring(rerr) end
  return text or ""
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
-- cannot be (too large, not an ordinary file, unreadable). Returns false
-- when the folder itself cannot be listed.
function M.each_script(dir, add, errors)
  local names = core.listdir(dir)
  for _, n in ipairs(names or {}) do
    if n:match("%.lua$") then
      local path = dir .. "/" .. n
      local src, err = M.read(path, M.MAX_SCRIPT)
      if src then add(src, path) else errors[#errors + 1] = { file = path, message = M.with_file(err, path) } end
    end
  end
  return names ~= nil
end

return M
