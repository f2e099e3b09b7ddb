-- Loading an untrusted script (an AI, a house rule, a lesson) into a box:
-- a Lua state of its own with its own memory cap, instruction budget and
-- clock (src/lua/box.c, docs/security.md). What the script's main chunk
-- returns comes back as plain data, its functions as stubs that call into
-- the box under its limits and raise on failure.
local core = require "diloti.core"
local textfile = require "diloti.scripts.textfile"

local M = {}

--- The chunk name a script runs under: "@file" (its errors name its
-- file). A front end that must not tell a script where it lies (the
-- server: an uploaded script may hand its errors back in its own words)
-- sets this to one without the folder.
function M.chunk_name(file) return "@" .. file end

--- What a loader says of a script's fields, as one line of at most max
-- bytes (300 by default): a name or a key the script chose may be a
-- megabyte long.
function M.said(why, max) return core.plain(tostring(why), max or 300) end

--- A script's own words shown in listings: its one-line fields (a
-- description, a title) at most max bytes (200 unless said), its help
-- at most 4 KiB.
function M.line(text, max) return core.plain(tostring(text), max or 200) end
function M.help(text)
  if #text <= 4096 then return text end
  return text:sub(1, 4096) .. "..."
end

--- untrusted.load(src, file, opts) -> box, value, prelude value | nil, message.
-- src is run as text under M.chunk_name(file). opts: label (names the
-- script in limit messages), memory (the box's cap), budget and time
-- (each later call), load ({budget =, time =}: the main chunk), seed
-- (the script's math.random), prelude and prelude_name (our own text run
-- first in the same box, given prelude_args, a list, as its ...; what it
-- returns comes third), pool (a room's
-- core.box.pool: what its boxes hold together; the host's when absent).
function M.load(src, file, opts)
  local box = core.box.new{
    label = opts.label or file, memory = opts.memory, budget = opts.budget, time = opts.time, pool = opts.pool,
  }
  if opts.seed then box:seed(opts.seed) end
  local pre
  if opts.prelude then
    local ok, v = box:run(opts.prelude, opts.prelude_name or "=prelude", opts.load,
      table.unpack(opts.prelude_args or {}))
    if not ok then error("the prelude of " .. file .. " failed: " .. v) end -- a bug of ours
    pre = v
  end
  local ok, v = box:run(src, M.chunk_name(file), opts.load)
  if not ok then
    box:close()
    return nil, textfile.with_file(v, file)
  end
  return box, v, pre
end

return M
