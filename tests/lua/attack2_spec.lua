-- Second attack round on the new surface: the lazy view and ctx of an AI's
-- decision (lua/ai/box_helpers.lua, lua/ai/ctx.lua), the capture natives
-- (src/lua/lcapture.c), the game handle's new methods and the one driver
-- telling every AI every move (lua/driver.lua, Player:notify).
--
-- The tests marked FINDING fail on the code as reviewed; the others are
-- attacks that held, kept as regressions.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local core = require "diloti.core"

local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
local CROWDED = "hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d 4d 5d; pack=-"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local n_written = 0
--- A player from a script body. `NAME` is defined for the body.
local function player_of(body, opts)
  n_written = n_written + 1
  local name = "b" .. n_written
  local path = support.write(tmp .. "/" .. name .. ".lua", "local NAME = '" .. name .. "'\n" .. body)
  return ai.player(path, opts)
end

describe("attack 2: the lazy view and ctx", function()
  -- FINDING (low): the helpers run in the AI's own _ENV and look up
  -- `pairs`, `next` and `ipairs` there at call time. CTX.__pairs calls
  -- pairs(LAZY): a script that replaced the global pairs is handed the
  -- helpers' private LAZY table, can add any key to it, and from then on
  -- every read of that key on a ctx sends host("more", key) -- a request
  -- the helpers never make (here it fetches the whole view as ctx.view,
  -- any other key makes the host build the view and answer nil). The
  -- change outlives the decision (LAZY is the module's). Likewise
  -- replacing ipairs before the first decision keeps guard_globals from
  -- wrapping setmetatable/next at all, and a raw next captured in the
  -- main chunk tells an unfilled view from a plain table (docs/security.md
  -- says a script cannot). Nothing of the host is reached, but the
  -- helpers' invariants are the script's to break.
  -- Fix: capture what the helpers call as locals when the prelude loads
  -- (local pairs, next, ipairs, type, error = pairs, next, ipairs, type,
  -- error), and run guard_globals in the prelude itself, not at the first
  -- decide.
  it("a script cannot reach the helpers' private LAZY table through a global pairs", function()
    local p = assert(player_of([[
      local real_pairs, grabbed = pairs, nil
      pairs = function(t, ...)
        if type(t) == "table" and rawget(t, "moves_info") == true then grabbed = t end
        return real_pairs(t, ...)
      end
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        for _ in pairs(ctx) do end
        if not grabbed then return moves[1], "no" end
        grabbed.view = true -- from now on ctx.view is host("more", "view")
        local v = ctx.view
        return moves[1], "lazy:" .. type(v) .. ":" .. tostring(type(v) == "table" and #v.hand)
      end }]]))
    local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
    assert.is_nil(info.fallback, info.warning)
    assert.equals("no", info.note)
  end)

  it("an unfilled view cannot be told from a plain table (next kept from the main chunk)", function()
    local p = assert(player_of([[
      local raw_next = next
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        return moves[1], tostring(raw_next(view) ~= nil)
      end }]]))
    local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
    assert.is_nil(info.fallback, info.warning)
    assert.equals("true", info.note)
  end)

  -- What held.
  it("held: ctx.rules is the box's own copy; changing it changes nothing of the host's", function()
    local p = assert(player_of([[
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        ctx.rules.xeri = false; ctx.rules.points.ace = 1000
        return moves[1], tostring(ctx.points({ "Ac" }))
      end }]]))
    local g = assert(diloti.new{ position = EX1 })
    local before = g:rules()
    local _, info = p:choose(g, 0)
    assert.is_nil(info.fallback, info.warning)
    assert.equals("1000", info.note) -- the script's own copy, its own business
    assert.same(before, g:rules())
    assert.same(before, p._rules)
  end)

  it("held: a view kept from an earlier decision cannot call the host later", function()
    local p = assert(player_of([[
      local kept
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        if not kept then kept = view return moves[1] end
        local ok, why = pcall(function() return kept.hand end)
        return moves[1], tostring(ok) .. ":" .. tostring(why)
      end }]]))
    local g = assert(diloti.new{ position = EX1 })
    p:choose(g, 0)
    local _, info = p:choose(g, 0)
    assert.matches("^false:.*works only during the call", info.note)
  end)

  it("held: refetching moves_info of a crowded table in a loop is stopped by the time limit", function()
    local p = assert(player_of([[
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        while true do ctx.moves_info = nil; local _ = ctx.moves_info end
      end }]], { time = 0.5 }))
    local t0 = core.clock()
    local _, info = p:choose(assert(diloti.new{ position = CROWDED }), 0)
    assert.is_true(info.fallback)
    assert.matches("time limit exceeded", info.warning)
    assert.is_true(core.clock() - t0 < 1.0)
  end)

  it("held: no __gc through the metatables the helpers set (the box's setmetatable is theirs)", function()
    local p = assert(player_of([[
      local sm = setmetatable
      return { name = NAME, description = "x", choose = function(view, moves, ctx)
        local ok1 = pcall(sm, {}, { __gc = false })
        local ok2 = pcall(setmetatable, view, { __gc = true })
        return moves[1], tostring(ok1) .. tostring(ok2)
      end }]]))
    local _, info = p:choose(assert(diloti.new{ position = EX1 }), 0)
    assert.equals("falsefalse", info.note)
  end)
end)

describe("attack 2: on_event at the table", function()
  -- FINDING (medium): HOOK_FAILURES turns a failing hook off after 3
  -- failures in a row, but only for plain errors. A hook stopped by a
  -- limit (time, budget, memory) breaks the box; Player:_call then
  -- reloads the script and resets self._off and self._failures, so the
  -- count restarts at 1 every time and the hook is never turned off.
  -- `on_event = function() while true do end end` therefore costs the
  -- full decision limit (5 s by default) plus a reload of the main chunk
  -- (up to 2 s) on every move of every seat, for the whole game: the
  -- table is frozen ~5-7 s after each move, the human's own included. A
  -- limit trip in choose also re-enables hooks already turned off.
  -- Fix: keep _failures and _off across a reload (drop the reset in
  -- Player:_call; the reloaded script is the same source), so a hook that
  -- trips a limit three times in a row is turned off like one that errors.
  it("an on_event that always runs out of time is turned off after 3 failures", function()
    local p = assert(player_of([[
      return { name = NAME, description = "x", choose = function(v, m) return m[1] end,
        on_event = function(e) while true do end end }]], { time = 0.1 }))
    p.seat = 1
    local msgs = {}
    for i = 1, 3 do
      local ok, msg = p:notify({ type = "move", text = "x" })
      assert.is_false(ok)
      msgs[i] = msg
    end
    assert.matches("turned off after 3 failures", msgs[3])
    local t0 = core.clock()
    assert.is_true((p:notify({ type = "move", text = "x" })))
    assert.is_true(core.clock() - t0 < 0.05)
  end)

  it("held: an on_event that errors is turned off after 3 failures; the driver goes on", function()
    local p = assert(player_of([[
      return { name = NAME, description = "x", choose = function(v, m) return m[1] end,
        on_event = function(e) error("boom") end }]]))
    p.seat = 1
    for _ = 1, 3 do assert.is_false((p:notify({ type = "move", text = "x" }))) end
    assert.is_true((p:notify({ type = "move", text = "x" })))
  end)

  it("held: a move event holds only public things (no hands, no pack)", function()
    local driver = require "diloti.driver"
    local seen = {}
    local p = assert(player_of([[
      local keys = {}
      return { name = NAME, description = "x", choose = function(v, m) return m[1] end,
        on_event = function(e)
          for k in pairs(e) do keys[k] = true end
        end,
        on_round_end = function() end }]]))
    local g = assert(diloti.new{ seed = 7 })
    local d = driver.new(g, { [0] = p, [1] = p })
    d:listen(function(e) if e.type == "move" then for k in pairs(e) do seen[k] = true end end end)
    d:start()
    for _ = 1, 20 do if not d:step() then break end end
    for _, k in ipairs{ "hand", "hands", "pack", "piles", "unseen" } do assert.is_nil(seen[k], k) end
  end)
end)

describe("attack 2: the capture natives", function()
  -- Held: the hardest liberal-capture table a hill-climb found (sets
  -- just under the 50,000 guard, many parts) answers in ~8-13 ms, the
  -- documented ~10 ms; random fuzzing over rules and tables (6,000 tables
  -- x 10 values) stayed under ~30 ms on a loaded machine.
  it("held: best_capture on the costliest liberal-capture table found stays near its ~10 ms bound", function()
    local tbl = {
      loose = { "2s", "3c", "3d", "4c", "4d", "4h", "5c", "5d", "5h", "5s", "6h", "6s", "7s", "8s", "9c", "9d",
                "9s", "Ac" },
      declarations = { { kind = "plain", value = 3, owner = 1, cards = { "Ah", "2h" } } },
    }
    local rules = { liberal_capture = true }
    local best = math.huge
    for _ = 1, 5 do
      local t0 = core.clock()
      local r, why = core.natives("diloti").best_capture(10, tbl, rules)
      best = math.min(best, core.clock() - t0)
      assert(r or not why, why) -- answered, not refused
    end
    assert.is_true(best < 0.05, string.format("%.1f ms", best * 1000))
  end)

  it("held: game handle move lookups by odd numbers are refused cleanly", function()
    local g = assert(diloti.new{ position = EX1 })
    for _, m in ipairs{ 0, -1, math.maxinteger, math.mininteger, 2 ^ 53, 0 / 0, 1 / 0, 1.5 } do
      local r, why = g:parse(m)
      assert.is_nil(r)
      assert.is_string(why)
    end
  end)
end)
