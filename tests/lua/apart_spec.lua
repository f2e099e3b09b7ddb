-- Many rooms in one process (issue 26): the budgets and counters of the
-- sandbox belong to a box or to a pool of boxes, never to the process.
-- A pool is what all the boxes of one room hold together (512 MiB by
-- default, docs/security.md); the pattern step budget is each box's own.
require "diloti"
local core = require "diloti.core"
local box = core.box

local MiB = 1 << 20

--- Makes the script in b keep about `mib` MiB; true, or false and why.
local function hold(b, mib)
  return b:run(string.format([[
    keep = {}
    for i = 1, %d do keep[i] = ("x"):rep(64 * 1024 - 32) .. i end
    return true]], mib * 16), "=hold", { budget = 50000000, time = 10 })
end

describe("box memory accounting", function()
  it("is per pool: two pools never share a counter", function()
    local p1, p2 = box.pool{ total = 8 * MiB }, box.pool{ total = 8 * MiB }
    assert.same({ 0, 8 * MiB }, { p1:memory() })
    local a = box.new{ pool = p1, label = "a" }
    local b = box.new{ pool = p2, label = "b" }
    assert.is_true((hold(a, 5)))
    assert.is_true((hold(b, 5)))
    local used1, used2 = p1:memory(), p2:memory()
    assert.equals(a:memory(), used1)
    assert.equals(b:memory(), used2)
    assert.is_true(used1 > 5 * MiB and used2 > 5 * MiB, used1 .. " " .. used2)
    -- a second box of p1 meets p1's total; p2's boxes are not in it
    local a2 = box.new{ pool = p1, label = "a2" }
    local ok, why = hold(a2, 5)
    assert.is_false(ok)
    assert.matches("memory cap exceeded in a2 (all scripts together may hold 8 MiB)", why, 1, true)
    assert.is_true(p1:memory() <= 8 * MiB)
    assert.equals(used2, p2:memory())
    -- closing gives the bytes back to its own pool only
    a:close()
    a2:close()
    assert.equals(0, p1:memory())
    assert.equals(used2, p2:memory())
    b:close()
    assert.equals(0, p2:memory())
  end)

  it("a box without a pool counts in its host's pool, not in another's", function()
    local p = box.pool{ total = 8 * MiB }
    local d = box.new{ label = "d" }
    assert.is_true((hold(d, 2)))
    assert.equals(0, p:memory())
    d:close()
  end)

  it("refuses a bad pool or total", function()
    assert.has_error(function() box.new{ pool = {} } end)
    assert.has_error(function() box.new{ pool = 42 } end)
    assert.has_error(function() box.pool{ total = 10 } end)
    assert.has_error(function() box.pool{ total = "lots" } end)
    assert.has_error(function() box.pool{ total = 1 << 50 } end)
    assert.has_error(function() box.pool(42) end)
    local _, total = box.pool():memory()
    assert.equals(box.total, total)
    assert.equals(512 * MiB, total)
  end)
end)

describe("the pattern step budget", function()
  local P = core.pattern
  local COSTLY = "string%.find: pattern too costly %(more than (%d+) steps%)"

  it("is each box's own: the host's setting reaches no box", function()
    local default = P.set_steps(1000)
    finally(function() P.set_steps(default) end)
    assert.has_error(function() P.find(("a"):rep(2000), "[b]") end)
    local b = box.new{}
    assert.same({ true }, { b:run('return (("a"):rep(2000)):find("[b]")', "=find") })
    b:close()
  end)

  it("two boxes with different budgets do not meet", function()
    local small, big = box.new{ pattern_steps = 1000 }, box.new{}
    local src = 'return (("a"):rep(2000)):find("[b]")'
    local ok, why = small:run(src, "=small")
    assert.is_false(ok)
    assert.equals("1000", why:match(COSTLY))
    assert.same({ true }, { big:run(src, "=big") })
    -- every call has the whole budget again
    for _ = 1, 3 do assert.same({ true }, { small:run('return (("a"):rep(100)):find("[b]")', "=again") }) end
    small:limits{ pattern_steps = 100000 }
    assert.same({ true }, { small:run(src, "=small") })
    small:close()
    big:close()
  end)

  it("refuses a bad budget", function()
    assert.has_error(function() box.new{ pattern_steps = 0 } end)
    assert.has_error(function() box.new{ pattern_steps = "x" } end)
  end)
end)

-- The state of the process itself: what the compiled objects keep in
-- writable static storage (.data, .bss). The games' cores keep none; the
-- binding keeps only what is one per process by nature, each named here
-- with why. Anything new must be a room's, a box's or a call's instead.
describe("static state", function()
  local ALLOWED = {
    ["box.o:interrupt_flag"] = "Ctrl-C: the process's one signal, for whatever script runs now",
    ["lline.o:*"] = "the terminal's line reader: one terminal a process, libedit's callbacks carry no data",
    ["lpattern.o:host_limits"] = "core.pattern's own budget (tests and tools); no box reads it",
    ["handle.o:calls"] = "core.calls(): a count of engine calls, for the bench",
    ["lview.o:NAMES"] = "the card names, written once the same by any caller (a cache of constants)",
    ["client.o:cl_log_once"] = "lws's log level is the process's: diloti.wsclient switches it off once",
    ["lview.o:names_once"] = "the pthread_once that writes NAMES once for every room's thread",
    ["server.o:stop_flag"] = "SIGINT/SIGTERM: the process's one signal, that stops diloti serve",
    ["think.o:spent_key"] = "the key of each room thread's own count of its scripts' CPU (pthread-specific)",
    ["think.o:spent_once"] = "the pthread_once that makes that key once",
    ["store.o:write_mu"] = "the process's one queue of SQLite writers (the rooms' threads)",
  }
  local bin = os.getenv("DILOTI_BIN") or "build/diloti"
  local build = bin:match("^(.*)/[^/]*$") or "."

  it("is none in the cores, and only what is one per process in the binding", function()
    -- (the program's objects: not the module's copies, nor the tests')
    local p = io.popen("find " .. build .. " -name '*.o' -not -path '*/pic/*' -not -path '*/test-core/*' "
      .. "-not -path '*/tests/*' 2>/dev/null | sort")
    local objects = {}
    for line in p:lines() do objects[#objects + 1] = line end
    p:close()
    if #objects < 40 or os.execute("command -v objdump >/dev/null") ~= true then
      pending("no objects under " .. build .. " (or no objdump): build first")
      return
    end
    -- (an object whose source is gone is a stale one of an older build:
    -- build/lua/box.o from src/lua/box.c, build/glua/diloti/lua/ops.o from
    -- src/diloti/lua/ops.c, build/core/diloti/moves.o from src/diloti/...)
    local root = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../../"
    local function current(o)
      local rel = o:sub(#build + 2):gsub("%.o$", ".c")
      for _, c in ipairs{ rel, rel:match("^[^/]+/(.*)$") or rel } do
        local f = io.open(root .. "src/" .. c)
        if f then f:close() return true end
      end
      return false
    end
    local found = {}
    for _, o in ipairs(objects) do
      if not current(o) then goto next end
      local t = io.popen("objdump -t " .. o)
      for line in t:lines() do
        local section, name = line:match("%sO%s+(%S+)%s+%x+%s+(%S+)$")
        -- (names from "__" on are the compiler's: the sanitizers' markers)
        if (section == ".data" or section == ".bss" or section == "*COM*") and not name:match("^__") then
          local short = o:match("[^/]*$")
          if not ALLOWED[short .. ":" .. name] and not ALLOWED[short .. ":*"] then
            found[#found + 1] = short .. ": " .. name .. " (" .. section .. ")"
          end
        end
      end
      t:close()
      ::next::
    end
    table.sort(found)
    assert.same({}, found)
  end)
end)
