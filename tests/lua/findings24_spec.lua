-- Findings 3 to 6 of issue 24, each tried the way the attacker did and
-- written to fail on the code before: a house rule's hook breaking a
-- crossing limit took the match down; cleaning a script's text and
-- listing a folder of scripts held host memory outside every cap; cards
-- left in sight in Pilotta's hidden position and in the hot-seat
-- scrollback. (Finding 5's JSON depth is in match_spec.lua, finding 4's
-- error text in tests/c/test_oom.c.)
--
-- What could take the program down, or measures its memory, runs in a
-- child process.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local ASAN = (os.getenv("LD_PRELOAD") or ""):find("asan", 1, true) ~= nil

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local n = 0
--- Writes a file into this spec's folder (a subfolder per call when `dir`).
local function file(name, text, dir)
  n = n + 1
  local d = tmp .. "/" .. (dir or ("d" .. n))
  os.execute("mkdir -p " .. support.q(d))
  return support.write(d .. "/" .. name, text), d
end

--- Runs Lua code in a child process that loads the module like this one;
-- returns its output and exit status (124: killed after `seconds`).
-- Under AddressSanitizer the child keeps no freed memory in quarantine,
-- so that what it measures of its memory is the program's.
local function child(code, seconds)
  n = n + 1
  local script = support.write(tmp .. "/child" .. n .. ".lua",
    "local diloti = require 'diloti'\nlocal ai = require 'diloti.ai'\n"
    .. "local function peak() local f = io.open('/proc/self/status') local s = f:read('a') f:close() "
    .. "return tonumber(s:match('VmHWM:%s*(%d+)')) // 1024 end\n" .. code)
  local asan = os.getenv("ASAN_OPTIONS")
  local cmd = string.format("%sLUA_CPATH=%s timeout %d %s %s 2>&1",
    asan and ("ASAN_OPTIONS=" .. support.q(asan .. ":quarantine_size_mb=0") .. " ") or "",
    support.q(package.cpath), seconds or 60, support.q(support.lua), support.q(script))
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  local _, _, status = p:close()
  return out, status
end

describe("finding 5: host memory is counted", function()
  -- 63 references to one 1 MiB string of byte 0x80: 63 MiB counted, but
  -- cleaned into 189 MiB of U+FFFD, and the host peaked at 391 MiB.
  local NOTE = "local s = string.rep('\\x80', 1 << 20) local t = {} for i = 1, 63 do t[i] = s end "

  it("text cleaned on its way out of a box is counted as it is written, not as it was", function()
    local b = core.box.new{}
    local ok, why = b:run(NOTE .. "return t", "=note")
    assert.is_false(ok)
    assert.matches("too much text to pass between a script and the host (more than 64 MiB)", why, 1, true)
    -- (plain text of the same size still crosses)
    local fine, t = b:run("local s = string.rep('x', 1 << 20) local t = {} for i = 1, 63 do t[i] = s end "
      .. "return t", "=plain")
    assert.is_true(fine, t)
    assert.equals(63, #t)
    b:close()
  end)

  it("an AI's note of 63 references to a 1 MiB string of 0x80: the host stays within the crossing limit",
    function()
      local path = file("note.lua", "return { name = 'note', description = 'x', choose = function(view, moves)\n"
        .. NOTE .. "return moves[1], t end }")
      local out, code = child(string.format([[
local p = assert(ai.player(%q))
local g = assert(diloti.new{ position = %q })
collectgarbage()
local before = peak()
local move, info = p:choose(g, 0)
print("MOVE", move, "FALLBACK", tostring(info.fallback))
print("GREW", peak() - before)
]], path, EX1))
      assert.equals(0, code, out)
      local grew = tonumber(out:match("GREW\t(%d+)"))
      -- (before: 195 MiB in lua5.4, 391 in diloti; now the crossing stops at 64 MiB of cleaned text)
      assert(grew and grew < 120, "the host grew by " .. tostring(grew) .. " MiB: " .. out)
    end)
end)
