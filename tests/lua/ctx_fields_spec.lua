-- What an AI's ctx holds in each game (docs/ai.md §3.3, §5, §11.2): the
-- box's prelude is every package's helpers and a generic dispatcher
-- (lua/ai/player.lua, lua/ai/box_helpers.lua), and a decision's ctx gets
-- the helpers of the game it is for. These are the fields as they stand:
-- a Pilotta decision has Pilotta's own (evaluate, bid, decide, ...), a
-- Diloti decision has none of them; the card helpers of both games
-- (value, rank, points, best_capture, chance; suit, card_points, strength,
-- winning) are every AI's, in either game (a Pilotta AI reads ctx.rank).
-- A script of game "any" sees what the game it plays gives.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- A script that tells its ctx's fields (name:type, sorted) by failing:
-- its decision is lost and the warning holds them (a note holds only 200
-- characters). The hooks' ctx, heard before, comes first.
local SPY = [[
local function fields(ctx)
  local out = {}
  for k, v in pairs(ctx) do out[#out + 1] = k .. ":" .. type(v) end
  table.sort(out)
  return table.concat(out, " ")
end
local heard = "none"
return { name = NAME, description = "x", game = GAME,
  on_event = function(_, ctx) heard = fields(ctx) end,
  choose = function(_, _, ctx) error("HOOK " .. heard .. " CHOOSE " .. fields(ctx) .. " END", 0) end }
]]

local written = 0
local function spy(game)
  written = written + 1
  local name = "spy" .. written
  local path = support.write(tmp .. "/" .. name .. ".lua",
    "local NAME, GAME = '" .. name .. "', " .. (game and ("'" .. game .. "'") or "nil") .. "\n" .. SPY)
  return assert(ai.player(path))
end

-- The fields a spy saw: {hook = set, choose = set}. (As in a game, the
-- player knows the rules once it has decided, and its hooks get no seat.)
local function seen(p, g)
  p:choose(g, g:turn())
  assert(p:notify({ type = "round_start" }))
  local _, info = p:choose(g, g:turn())
  assert.is_true(info.fallback)
  local hook, choose = info.warning:match("HOOK (.-) CHOOSE (.-) END")
  assert.is_string(choose, info.warning)
  local function set(s)
    local out = {}
    for f in s:gmatch("%S+") do out[f] = true end
    return out
  end
  return { hook = set(hook), choose = set(choose) }
end

local function with(list, more)
  local out = {}
  for _, f in ipairs(list) do out[f] = true end
  for _, f in ipairs(more or {}) do out[f] = true end
  return out
end

-- Every AI's card helpers, in either game.
local CARDS = {
  "value:function", "rank:function", "points:function", "best_capture:function",
  "suit:function", "card_points:function", "strength:function", "winning:function",
}
-- A decision's own services and lazy fields.
local DECISION = {
  "chance:function", "simulate:function", "search:function", "rng:function", "time_left:function",
  "rules:table", "moves_info:table", "unseen:table",
}
-- Pilotta's own, in a Pilotta decision only.
local PILOTTA = {
  "game:string", "evaluate:function", "declarations:function", "bid:function", "declare:function",
  "name_trumps:function", "careful:function", "decide:function",
}

local function diloti_game()
  return assert(diloti.new{ seed = 3 })
end

local function pilotta_game()
  return assert(diloti.new{ rules = "pilotta", seed = 3 })
end

describe("an AI's ctx", function()
  local two = { "seat:number", "players:number", "teams:boolean", "sides:number", "side:number" }
  local four = { "seat:number", "players:number", "teams:boolean", "sides:number", "side:number",
    "partner:number" }
  local hook_two = { "players:number", "teams:boolean", "rules:table" }
  local hook_four = { "players:number", "teams:boolean", "sides:number", "rules:table" }

  it("in Diloti: the card helpers and the decision's services, none of Pilotta's own", function()
    local f = seen(spy(nil), diloti_game())
    assert.same(with(hook_two, CARDS), f.hook)
    local want = with(two, CARDS)
    for k in pairs(with(DECISION)) do want[k] = true end
    assert.same(want, f.choose)
    for _, k in ipairs(PILOTTA) do assert.is_nil(f.choose[k], k) end
  end)

  it("in Pilotta: the same, and Pilotta's own in a decision", function()
    local g = pilotta_game()
    local f = seen(spy("pilotta"), g)
    assert.same(with(hook_four, CARDS), f.hook)
    local want = with(four, CARDS)
    for k in pairs(with(DECISION, PILOTTA)) do want[k] = true end
    assert.same(want, f.choose)
  end)

  it("of a script of any game: what the game it plays gives", function()
    assert.same(seen(spy(nil), diloti_game()), seen(spy("any"), diloti_game()))
    assert.same(seen(spy("pilotta"), pilotta_game()), seen(spy("any"), pilotta_game()))
  end)

  it("in Pilotta: its helpers answer from the view (a whole decision)", function()
    local p = assert(ai.player(support.write(tmp .. "/decider.lua", [[
      return { name = "decider", description = "x", game = "pilotta",
        choose = function(view, moves, ctx)
          local e = ctx.evaluate("h")
          assert(type(e.total) == "number" and e.trumps == "h")
          assert(ctx.rank(view.hand[1]) and ctx.suit(view.hand[1]))
          local i, note = ctx.decide()
          return i, note
        end }]])))
    local g = pilotta_game()
    local _, info = p:choose(g, g:turn())
    assert.is_nil(info.fallback, info.warning)
  end)

  describe("from the box's driver (lua/ai/box_helpers.lua), over any games", function()
    local box_helpers = require "diloti.ai.box_helpers"
    local calls
    -- A game's helpers that log what is asked of them.
    local function game(name)
      return { name = name, helpers = {
        shared = function(ctx, view) ctx["shared_" .. name] = view and "decision" or "hook" end,
        own = function(ctx) ctx["own_" .. name] = true end,
        bind = function(t) calls[#calls + 1] = name .. ":" .. t.f end,
      } }
    end
    local B = box_helpers.new({ game("a"), game("b"), { name = "c", helpers = {} } }, "a")
    local function host(what, arg) return what == "more" and arg == "view" and {} or nil end
    -- (the host sends a seat's static fields under a key, its service
    -- beside them)
    local function fields(data)
      local out, service = {}, data.host
      data.host = nil
      B.decide(function(_, _, ctx) for k, v in pairs(ctx) do out[k] = type(v) end end, 0, {}, service, data)
      return out
    end
    local SERVICES = { simulate = "function", search = "function" }
    local function with_services(t)
      for k, v in pairs(SERVICES) do t[k] = v end
      return t
    end

    it("gives a decision every game's shared helpers and its own game's", function()
      assert.same(with_services{ shared_a = "string", shared_b = "string", own_b = "boolean", game = "string" },
        fields{ game = "b", host = host })
      assert.same(with_services{ shared_a = "string", shared_b = "string", own_a = "boolean" },
        fields{ host = host })
      -- (a game without helpers of its own: the shared ones only)
      assert.same(with_services{ shared_a = "string", shared_b = "string", game = "string" },
        fields{ game = "c", host = host })
    end)

    it("gives a hook the shared helpers only", function()
      local got
      B.notify(function(_, ctx) got = ctx end, { game = "b" })
      assert.equals("hook", got.shared_a)
      assert.equals("hook", got.shared_b)
      assert.is_nil(got.own_b)
      assert.is_nil(got.simulate)
    end)

    it("binds each game's natives to that game's helpers", function()
      calls = {}
      B.bind{ b = { f = "fb" }, a = { f = "fa" }, c = { f = "fc" }, z = { f = "fz" } }
      table.sort(calls)
      assert.same({ "a:fa", "b:fb" }, calls)
    end)
  end)
end)

-- The box keeps a seat's static fields and is sent them only when they
-- change (lua/ai/player.lua, _decide): a new box (a script a limit
-- stopped, loaded afresh), a decision that failed and new rules each get
-- them whole.
describe("a seat's static fields, kept in the AI's box", function()
  local TELL = [[
local calls = 0
return { name = NAME, description = "x", choose = function(_, moves, ctx)
  calls = calls + 1
  if calls == 2 and ctx.players == 2 then BAD end
  return moves[1], table.concat({ tostring(ctx.seat), tostring(ctx.players), tostring(ctx.sides),
    tostring(ctx.side), tostring(ctx.partner), tostring(ctx.teams), type(ctx.rng) }, " ")
end }]]
  local function teller(bad)
    written = written + 1
    local name = "tell" .. written
    local path = support.write(tmp .. "/" .. name .. ".lua",
      "local NAME = '" .. name .. "'\n" .. TELL:gsub("BAD", bad))
    return assert(ai.player(path, { budget = 100000 }))
  end
  local function decide(p, g)
    local _, info = p:choose(g, g:turn())
    return info
  end

  local BAD = { ["a script loaded afresh"] = "while true do end", ["a failed decision"] = "error('no', 0)" }
  for what, bad in pairs(BAD) do
    it("after " .. what .. ", and for new rules", function()
      local p = teller(bad)
      local g = assert(diloti.new{})
      local seat = g:turn()
      local want = string.format("%d 2 2 %d nil false function", seat, seat)
      assert.equals(want, decide(p, g).note)
      assert.is_true(decide(p, g).fallback)
      local info = decide(p, g)
      assert.is_nil(info.fallback, info.warning)
      assert.equals(want, info.note)
      local g4 = assert(diloti.new{ players = 4 })
      seat = g4:turn()
      info = decide(p, g4)
      assert.is_nil(info.fallback, info.warning)
      assert.equals(string.format("%d 4 2 %d %d true function", seat, seat % 2, (seat + 2) % 4), info.note)
    end)
  end

  -- The host's end of a seat's decisions is made once per player, game
  -- and seat (lua/ai/ctx.lua): each decision must still read its own
  -- position, never the view the last one read.
  it("gives each decision the view of its own position, the same player at the same seat", function()
    local path = support.write(tmp .. "/hand_reader.lua", [[
return { name = "hand_reader", description = "x",
  choose = function(view, moves, ctx)
    local _ = ctx.unseen -- (read through the same service as the view)
    return moves[1], table.concat(view.hand, " ") .. "|" .. #ctx.unseen
  end }
]])
    local p = assert(ai.player(path))
    local g = assert(diloti.new{ seed = 3 })
    local seat = g:turn()
    local notes = {}
    for _ = 1, 3 do
      while g:turn() ~= seat do assert(g:play(g:moves()[1])) end
      local text, info = p:choose(g, seat)
      assert.is_nil(info.fallback, info.warning)
      local v = g:view(seat)
      assert.equals(table.concat(v.hand, " ") .. "|" .. #v.unseen, info.note)
      notes[#notes + 1] = info.note
      assert(g:play(text))
    end
    assert.are_not.equal(notes[1], notes[2])
    assert.are_not.equal(notes[2], notes[3])
  end)
end)
