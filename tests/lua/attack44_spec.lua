-- Attack 44: a hostile script author against 9f1103d (issue 29, cheaper
-- AI decisions): the host's end of a decision (lua/ai/ctx.lua: the one
-- service behind ctx.simulate, ctx.search and the fields sent when first
-- read) made once per player, game and seat and kept in
-- p._decision_hosts, its view cache emptied before each decision; the
-- driver's emit and _ai_listens, and resolve, without ipairs.
--
-- Findings: none. What was tried, and holds (tested here):
-- - what each decision reads (the view, ctx.unseen, ctx.moves_info and
--   ctx.simulate, whose Diloti answer is filtered through the view, so a
--   stale view shows there; read in every order, each of them first) is
--   what a host made afresh for that decision reads (the service before
--   the change): one player at every seat of Diloti (2, 3 and 4 players,
--   the dealer's peek, new deals and rounds, a claim and a keep at the
--   start) and of Pilotta (auction and play); one player of "any" game
--   deciding in three games by turns; a position taken back with g:undo
--   on the same handle; a new handle of the same position by turns with
--   the old one. (Fails, 4 tests, with the view not emptied before a
--   decision.)
-- - a decision that reads everything and then fails (an error, the
--   instruction limit, the memory cap: the last two reload the script):
--   the next decision at that seat reads its own position;
-- - simulate, search, the view and ctx (unread, or with their helpers
--   made) kept from a decision and tried in on_event, on_round_end and
--   later decisions at any seat are refused: the box's generation check
--   is what refuses them (without it a kept service answers, through the
--   host of the call it is used in, and the test fails);
-- - emit calls the listeners that a listener adds or removes (itself,
--   the next, one before, the last) and stops at a hole as ipairs did
--   (a loop over the length taken once fails it); _ai_listens answers
--   as hears_moves for every kind of player.
-- Noticed, left: a listener list holding `false` now ends the loop
-- there, where ipairs raised "attempt to call a boolean value" (trusted
-- code only builds the list). The host is keyed by game as well as by
-- the game's ai part, but a player's rules, and so its ai part, change
-- with each game (Player:choose asks game:rules() for a new game), so
-- the game key is a second guard no test here can tell from the first.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local context = require "diloti.ai.ctx"
local driver = require "diloti.driver"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- A digest of plain data, the same text run in the test and in the box
-- (a note holds 200 characters: what was read is told by its digest).
local DIGEST = [[
local function ser(v, out)
  if type(v) ~= "table" then
    out[#out + 1] = (math.type(v) or type(v)) .. ":" .. tostring(v)
    return
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = math.type(a) or type(a), math.type(b) or type(b)
    if ta ~= tb then return ta < tb end
    if ta == "boolean" then return tostring(a) < tostring(b) end
    return a < b
  end)
  out[#out + 1] = "{"
  for _, k in ipairs(keys) do
    ser(k, out)
    out[#out + 1] = "="
    ser(v[k], out)
    out[#out + 1] = ","
  end
  out[#out + 1] = "}"
end
local function digest(...)
  local out = {}
  ser(table.pack(...), out)
  local s, h = table.concat(out), 5381
  for i = 1, #s do h = (h * 33 + s:byte(i)) & 0xFFFFFFFF end
  return string.format("%08x/%d", h, #s)
end
]]
local digest = assert(load(DIGEST .. "return digest", "=digest"))()

local written = 0
local function player_of(body, opts, game)
  written = written + 1
  local name = "a" .. written
  local dir = tmp .. "/ai" .. written
  os.execute("mkdir -p " .. support.q(dir))
  local head = string.format("local NAME, GAME = %q, %s\n", name, game and string.format("%q", game) or "nil")
  local path = support.write(dir .. "/" .. name .. ".lua", head .. DIGEST .. body)
  return assert(ai.player(path, opts))
end

-- Reads the four services in an order that turns with each decision
-- (each of them first in turn), and tells their digests in one order.
local READS = [[
local ORDERS = {
  { "sim", "view", "unseen", "info" },
  { "unseen", "view", "sim", "info" },
  { "view", "info", "sim", "unseen" },
  { "info", "sim", "unseen", "view" },
  { "sim", "info", "unseen", "view" },
}
local turn = 0
local function reads(view, moves, ctx)
  turn = turn + 1
  local got = {}
  for _, what in ipairs(ORDERS[turn % #ORDERS + 1]) do
    if what == "sim" then got.sim = digest(ctx.simulate(moves[1]))
    elseif what == "view" then got.view = digest(view)
    elseif what == "unseen" then got.unseen = digest(ctx.unseen)
    else got.info = digest(ctx.moves_info) end
  end
  return table.concat({ got.sim, got.view, got.unseen, got.info }, " ")
end
]]

local SPY = READS .. [[
return { name = NAME, description = "x", game = GAME, choose = function(view, moves, ctx)
  return moves[ctx.rng(#moves)], reads(view, moves, ctx)
end }
]]

-- What a host made for this decision alone answers (the service before
-- 9f1103d: a closure of its own per decision): the spy's note.
local function fresh_reads(g, seat)
  local p = { _rules = g:rules(), time = 5, memory = 32 << 20,
    _box = { random = function() return 0 end, time_left = function() return 5 end } }
  local host = context.decision_data(p, g, seat).host
  local moves = g:moves()
  return table.concat({ digest(host("simulate", moves[1])), digest(host("more", "view")),
    digest(host("more", "unseen")), digest(host("more", "moves_info")) }, " ")
end

-- One decision of p at the seat to move, checked against a fresh host;
-- the move is played and returned. Returns false once the match is over.
local function decide_checked(p, g, what)
  local seat = g:turn()
  if seat == nil then
    if g:phase() == "match-over" then return false end
    assert(g:next_round())
    seat = g:turn()
  end
  local want = fresh_reads(g, seat)
  local mv, info = p:choose(g, seat)
  assert.is_nil(info.fallback, info.warning)
  assert.equals(want, info.note, what .. " seat " .. seat .. " " .. g:position())
  assert(g:play(mv))
  return mv
end

describe("attack 44: each decision reads its own position through the kept host", function()
  it("one player at every seat of Diloti, over new deals and rounds", function()
    local kinds = {}
    for _, o in ipairs{
      { rules = "diloti+face-card-claim-any-deal+dealer-peeks", players = 4 },
      { rules = "diloti+face-card-claim", players = 2 },
      { rules = "kontsina+dealer-peeks", players = 3 },
    } do
      for seed = 1, 3 do
        local p = player_of(SPY, { seed = seed })
        local g = assert(diloti.new{ rules = o.rules, players = o.players, seed = seed })
        for _ = 1, 120 do
          if not decide_checked(p, g, o.rules) then break end
          local _, _, round, deal = g:where()
          kinds["round " .. round] = true
          kinds["deal " .. deal] = true
        end
      end
    end
    assert.is_true(kinds["round 3"])
    assert.is_true(kinds["deal 4"])
  end)

  it("one player at every seat of Diloti, a claim or a keep at the start (V-face-card-claim)", function()
    local seen = {}
    for _, o in ipairs{
      { rules = "diloti+face-card-claim", players = 2 },
      { rules = "diloti+face-card-claim-any-deal+dealer-peeks", players = 4 },
    } do
      local found = 0
      for seed = 1, 3000 do
        local g = assert(diloti.new{ rules = o.rules, players = o.players, seed = seed })
        if g:phase() == "claim" then
          found = found + 1
          for pseed = 1, 2 do
            g = assert(diloti.new{ rules = o.rules, players = o.players, seed = seed })
            local p = player_of(SPY, { seed = pseed })
            for _ = 1, 12 do
              if g:phase() == "claim" then
                seen[decide_checked(p, g, o.rules .. " claim")] = true
              else
                decide_checked(p, g, o.rules)
              end
            end
          end
          if found == 3 then break end
        end
      end
      assert.equals(3, found)
    end
    assert.is_true(seen.claim)
    assert.is_true(seen.keep)
  end)

  it("one player at every seat of Pilotta, the auction and the play", function()
    for seed = 1, 3 do
      local p = player_of(SPY, { seed = seed }, "pilotta")
      local g = assert(diloti.new{ game = "pilotta", seed = seed })
      for _ = 1, 60 do
        if not decide_checked(p, g, "pilotta") then break end
      end
    end
  end)

  it("one player of any game, its decisions in two games by turns", function()
    local p = player_of(SPY, { seed = 1 }, "any")
    local games = {
      assert(diloti.new{ rules = "diloti", players = 4, seed = 8 }),
      assert(diloti.new{ game = "pilotta", seed = 8 }),
      assert(diloti.new{ rules = "diloti", players = 2, seed = 9 }),
    }
    for i = 1, 60 do
      local g = games[i % #games + 1]
      decide_checked(p, g, g:game())
    end
  end)

  it("a position taken back (g:undo) on the same handle, and a new handle of the game", function()
    local p = player_of(SPY, { seed = 2 })
    local g = assert(diloti.new{ rules = "diloti", players = 2, seed = 4 })
    for i = 1, 30 do
      decide_checked(p, g, "undo " .. i)
      if i % 4 == 0 then
        assert(g:undo())
        assert(g:undo())
        assert(g:undo())
      end
    end
    -- the same position again in a new handle: its own view, not the last
    local again = assert(diloti.new{ position = g:position() })
    for _ = 1, 4 do
      decide_checked(p, again, "new handle")
      decide_checked(p, g, "old handle")
    end
  end)
end)

describe("attack 44: a decision that fails half way, then the next one", function()
  -- Fails on every third ply after reading everything (an error, the
  -- instruction limit, the memory cap by turns: the last two reload the
  -- script); every other decision is the spy's.
  local FAILS = READS .. [[
return { name = NAME, description = "x", choose = function(view, moves, ctx)
  local note = reads(view, moves, ctx)
  if view.ply % 3 == 1 then
    local kind = (view.ply // 3) % 3
    if kind == 0 then error("failed on purpose", 0) end
    if kind == 1 then while true do end end
    local t = {}
    for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end
  end
  return moves[#moves], note
end }
]]

  it("reads its own position after an error, the instruction limit or the memory cap", function()
    local p = player_of(FAILS, { budget = 5000000, memory = 8 << 20 })
    local failed, reloaded = 0, 0
    for _, players in ipairs{ 2, 4 } do
      local g = assert(diloti.new{ rules = "diloti", players = players, seed = players })
      for _ = 1, 48 do
        local seat = g:turn()
        if seat == nil then break end
        local want = fresh_reads(g, seat)
        local ply = g:view(seat).ply
        local mv, info = p:choose(g, seat)
        if ply % 3 == 1 then
          assert.is_true(info.fallback)
          failed = failed + 1
          if info.warning:find("loaded afresh", 1, true) then reloaded = reloaded + 1 end
        else
          assert.is_nil(info.fallback, info.warning)
          assert.equals(want, info.note)
        end
        assert(g:play(mv))
      end
    end
    assert.is_true(failed >= 10)
    assert.is_true(reloaded >= 6)
  end)
end)

describe("attack 44: services, views and ctx kept for later", function()
  -- What the two scripts below share: each try of a kept handle counted
  -- as ok (a leak), stale (refused) or other, and told as a note.
  local TALLY = [[
local tally = { ok = 0, stale = 0, other = 0 }
local function try(f, ...)
  local ok, why = pcall(f, ...)
  if ok then tally.ok = tally.ok + 1
  elseif tostring(why):find("works only during the call", 1, true) then tally.stale = tally.stale + 1
  else tally.other = tally.other + 1; tally.why = tostring(why) end
end
local function told()
  return string.format("ok=%d stale=%d other=%d %s", tally.ok, tally.stale, tally.other, tally.why or "")
end
]]

  -- Keeps every handle a decision gives (its simulate and search, its
  -- view and ctx unread, a ctx whose helpers were made, one whose were
  -- not) and tries them all in its hooks and its next decisions. What
  -- each try did is counted: ok (a leak), stale (refused), other.
  local KEEPER = TALLY .. [[
local kept = {}
local function try_all()
  for _, k in ipairs(kept) do
    try(k.simulate, k.move)
    try(k.search, { iterations = 10 })
    -- (the view unread, read by each way in turn)
    if k.how == 1 then try(function() return k.view.hand[1] end)
    elseif k.how == 2 then try(function() return next(k.view) end)
    elseif k.how == 3 then try(function() return #k.view end)
    else try(function() for _ in pairs(k.view) do end end) end
    try(function() return k.ctx.unseen end)
    try(function() return k.ctx.moves_info end)
    try(function() return k.ctx.rules end)
    try(function() return k.ctx.simulate(k.move) end)
    try(function() return k.made.simulate(k.move) end)
    try(function() return k.made.search() end)
  end
  kept = {}
end
local events = 0
return { name = NAME, description = "x", game = GAME,
  -- (every other event: what the others keep is tried at the next choose)
  on_event = function()
    events = events + 1
    if events % 2 == 0 then try_all() end
  end,
  on_round_end = function() try_all() end,
  choose = function(view, moves, ctx)
    try_all()
    local note = told()
    local _ = ctx.best_capture -- (the helpers made: simulate is the call's)
    kept[#kept + 1] = { simulate = ctx.simulate, search = ctx.search, view = view, move = moves[1],
      ctx = ctx, made = { simulate = ctx.simulate, search = ctx.search }, how = #moves % 4 + 1 }
    -- the next ones come unread from a decision of their own
    return moves[#moves], note
  end }
]]

  -- A second player keeps unread views and ctx (its choose reads
  -- nothing) and tries them at its next decision and at the round's end.
  local UNREAD = TALLY .. [[
local held = {}
local function try_all()
  for _, h in ipairs(held) do
    try(function() return h.view.hand[1] end)
    try(function() return h.ctx.unseen end)
    try(function() return h.ctx.moves_info end)
    try(function() return h.ctx.simulate(h.move) end)
  end
  held = {}
end
return { name = NAME, description = "x", game = GAME,
  on_round_end = function() try_all() end,
  choose = function(view, moves, ctx)
    try_all()
    local note = told()
    held[#held + 1] = { view = view, ctx = ctx, move = moves[1] }
    return moves[#moves], note
  end }
]]

  for _, game in ipairs{ "diloti", "pilotta" } do
    it("in " .. game .. ": refused in on_event, on_round_end and later decisions, at every seat", function()
      for _, body in ipairs{ KEEPER, UNREAD } do
        local p = player_of(body, { seed = 3 }, game)
        local g = game == "pilotta" and assert(diloti.new{ game = "pilotta", seed = 3 })
          or assert(diloti.new{ rules = "diloti+face-card-claim-any-deal", players = 4, seed = 3 })
        local last, warnings = nil, {}
        driver.play(g, { [0] = p, [1] = p, [2] = p, [3] = p }, {
          on_move = function(_, _, info)
            assert.is_nil(info.fallback, info.warning)
            last = info.note
          end,
          on_warning = function(_, message) warnings[#warnings + 1] = message end,
        })
        assert.same({}, warnings)
        local ok, stale, other = last:match("^ok=(%d+) stale=(%d+) other=(%d+)")
        assert.equals("0", ok, last)
        assert.equals("0", other, last)
        assert.is_true(tonumber(stale) > 20, last)
      end
    end)
  end
end)

describe("attack 44: the driver's loops without ipairs", function()
  -- The old emit, for comparison: ipairs over the listeners.
  local function old_emit(listeners, e, d)
    for _, fn in ipairs(listeners) do fn(e, d) end
  end

  -- Listeners that add and remove listeners (themselves, the next, the
  -- one before, one at the end) while an event is sent, and a list with a
  -- hole: the new loop calls the same ones in the same order as ipairs.
  local SCENARIOS = {
    { "a", "b+", "c" },           -- adds one at the end
    { "a", "b-self", "c", "d" },  -- removes itself (ipairs skips the next)
    { "a", "b-next", "c", "d" },  -- removes the next
    { "a", "b", "c-first", "d" }, -- removes one before it
    { "a", "b+", "c-self", "d" }, -- both
    { "a", "b-last", "c" },       -- removes the last
    { "a", "hole", "c" },         -- a hole: nothing after it is called
  }
  local function scenario(names, emit)
    local calls, list = {}, {}
    local function listener(name)
      local me
      me = function()
        calls[#calls + 1] = name
        if name:find("+", 1, true) then list[#list + 1] = listener("late") end
        local at
        for i = 1, #list do if list[i] == me then at = i break end end
        if name:find("-self", 1, true) then table.remove(list, at) end
        if name:find("-next", 1, true) then table.remove(list, at + 1) end
        if name:find("-first", 1, true) then table.remove(list, 1) end
        if name:find("-last", 1, true) then table.remove(list, #list) end
      end
      return me
    end
    for i, name in ipairs(names) do
      if name ~= "hole" then list[i] = listener(name) end
    end
    for _ = 1, 2 do
      emit(list)
      calls[#calls + 1] = "|"
    end
    return table.concat(calls, " ")
  end

  it("calls the listeners a listener adds or removes as ipairs did", function()
    local g = assert(diloti.new{ players = 2 })
    for _, names in ipairs(SCENARIOS) do
      local want = scenario(names, function(list) old_emit(list, { type = "warning" }, nil) end)
      local got = scenario(names, function(list)
        local d = driver.new(g, {}, { listeners = list })
        d:emit({ type = "warning" })
      end)
      assert.equals(want, got, table.concat(names, " "))
    end
  end)

  it("asks each player whether it listens as hears_moves did", function()
    local g = assert(diloti.new{ players = 2 })
    local function chooser(extra)
      local p = { choose = function() end }
      for k, v in pairs(extra) do p[k] = v end
      return p
    end
    local cases = {
      { false, chooser{} },
      { true, chooser{ notify = function() end } },
      { true, chooser{ notify = function() end, listens = function() return true end } },
      { false, chooser{ notify = function() end, listens = function() return false end } },
      { false, chooser{ listens = function() return true end } },
    }
    for i, c in ipairs(cases) do
      local d = driver.new(g, { [0] = c[2] })
      assert.equals(c[1], d:_ai_listens(), "case " .. i)
      local both = driver.new(g, { [0] = cases[1][2], [1] = c[2] })
      assert.equals(c[1], both:_ai_listens(), "case " .. i .. " second")
    end
  end)
end)
