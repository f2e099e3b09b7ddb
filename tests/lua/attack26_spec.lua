-- Issue 26 seen by an attacker: the one game handle (g:public, g:view,
-- g:history), the natives a game hands to boxes, pools and pattern
-- budgets per box. Each finding is written to fail on the code before.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"
local room = require "diloti.room"

local MiB = 1 << 20
local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

--- The first seed (from 1) of a face-card-claim game that opens with a
-- claim decision.
local function claim_seed()
  for seed = 1, 5000 do
    local g = assert(diloti.new{ rules = "diloti+face-card-claim", seed = seed })
    if g:phase() == "claim" then return seed end
  end
  error("no claim in 5000 seeds")
end

describe("issue 26 attacks: g:public", function()
  -- Finding 1: a private keep (V-face-card-claim) was told by the number
  -- of the mover's next move: its place in g:history() counts the keep,
  -- so a public move numbered 2 at ply 0 said that its seat had been
  -- dealt five or six face cards.
  it("a private keep is not counted in the number another seat hears", function()
    local seed = claim_seed()
    local g = assert(diloti.new{ rules = "diloti+face-card-claim", seed = seed })
    local same = assert(diloti.new{ rules = "diloti+face-card-claim", seed = seed })
    assert(g:play("keep"))
    -- the same first move, with and without a keep before it
    local move = g:moves()[1]
    assert(same:play("keep"))
    local e = assert(g:play(move, true))
    local other = (e.seat + 1) % 2
    for _, viewer in ipairs{ other, "spectator" } do
      local p = assert(g:public(e, viewer ~= "spectator" and viewer or nil))
      assert.is_nil(p.index)
      -- what the viewer hears is what it would hear had no keep been made
      local fresh = assert(diloti.new{ rules = "diloti", seed = seed })
      if fresh:turn() == e.seat and fresh:parse(move) then
        local e2 = assert(fresh:play(move, true))
        local p2 = assert(fresh:public(e2, viewer ~= "spectator" and viewer or nil))
        assert.same(p2.number, p.number)
      end
      assert.is_true(p.number == nil or p.number == #g:history(viewer ~= "spectator" and viewer or nil),
        "the public number counts the keep: " .. tostring(p.number))
    end
  end)

  -- Finding 2: g:public read the effect with metamethods (an __index of
  -- a hostile table ran in the host) and took a seat of 0.5 or "0" for
  -- the mover 0, who hears the whole effect: an announcement's cards.
  it("reads the effect raw and knows the mover only by a whole seat", function()
    local g = assert(diloti.new{ rules = "pilotta", seed = 7 })
    local ran = 0
    local hostile = setmetatable({}, { __index = function(_, k)
      ran = ran + 1
      if k == "kind" then return "announce" end
      if k == "seat" then return 0 end
    end })
    g:public(hostile, 1)
    g:public(setmetatable({ kind = "announce", declaration = {} }, getmetatable(hostile)), 1)
    g:public(setmetatable({ kind = "play", text = "Qh nobelote" }, getmetatable(hostile)), 1)
    assert.equals(0, ran)
    for _, seat in ipairs{ 0.5, "0", -0.25 } do
      local e = { seat = seat, kind = "announce", cards = { "Qh", "Kh", "Ah" }, text = "announce Qh Kh Ah", value = 20 }
      local p = assert(g:public(e, 0))
      assert.is_nil(p.cards, tostring(seat))
      assert.equals("announce", p.text)
    end
    -- the mover itself still hears it whole
    local e = { seat = 0, kind = "announce", cards = { "Qh", "Kh", "Ah" }, text = "announce Qh Kh Ah" }
    assert.same(e.cards, g:public(e, 0).cards)
  end)

  -- Finding 2b: a move table's text was read with its metamethods: an
  -- __index ran in the host, and one that raised made g:play raise
  -- instead of answering nil, why as for any other bad move argument.
  it("a move table is read raw, in every game and every method that takes a move", function()
    for _, game in ipairs{ "diloti", "pilotta" } do
      local g = assert(diloti.new{ rules = game, seed = 3 })
      local ran = 0
      local mt = { __index = function() ran = ran + 1; error("a metamethod ran") end }
      for _, m in ipairs{ "play", "check", "parse" } do
        local ok, a, why = pcall(g[m], g, setmetatable({}, mt))
        assert.is_true(ok, a)
        assert.is_falsy(a)
        assert.matches("not a move", why)
      end
      local ok, a, why = pcall(g.simulate, g, g:turn(), setmetatable({}, mt))
      assert.is_true(ok, a)
      assert.is_nil(a)
      assert.matches("not a move", why)
      assert.equals(0, ran, game)
    end
  end)

  -- Finding 2c: Pilotta's public part cut a declined belote from an
  -- event's text only: a history entry (g:history() names it `move`, with
  -- no text) kept "Qh nobelote", which tells that the seat holds Kh.
  it("a declined belote is cut from a history entry's move too", function()
    local g = assert(diloti.new{ rules = "pilotta", seed = 3 })
    local p = assert(g:public({ kind = "play", seat = 0, move = "Qh nobelote", round = 1 }, 1))
    assert.equals("Qh", p.move)
    p = assert(g:public({ kind = "play", seat = 0, text = "Qh nobelote", move = "Qh nobelote", card = "Qh",
      belote = false }, nil))
    assert.same({ "Qh", "Qh" }, { p.text, p.move })
    -- a belote said is public (P50)
    p = assert(g:public({ kind = "play", seat = 0, move = "Qh belote", belote = true }, 1))
    assert.equals("Qh belote", p.move)
  end)

  it("Diloti's public part reads raw too", function()
    local g = assert(diloti.new{ rules = "diloti", seed = 7 })
    local ran = 0
    local p = g:public(setmetatable({ seat = 0, text = "7h lay" }, { __index = function(_, k)
      ran = ran + 1
      if k == "kind" then return "keep" end
    end }), 1)
    assert.equals(0, ran)
    assert.is_table(p)
  end)

  -- Finding 3: Diloti's g:history(seat) took any integer: -2 or 99 gave
  -- every record (a private keep's included) and 2^32 was cut to seat 0.
  it("Diloti's history refuses a seat it does not have, as Pilotta's does", function()
    local seed = claim_seed()
    local g = assert(diloti.new{ rules = "diloti+face-card-claim", seed = seed })
    assert(g:play("keep"))
    for _, seat in ipairs{ -2, 2, 99, 4294967296, 4294967297, math.mininteger, math.maxinteger } do
      assert.has_error(function() g:history(seat) end, nil, tostring(seat))
    end
    assert.equals(1, #g:history())
    assert.equals(1, #g:history(-1))
    assert.equals(0, #g:history((g:turn() + 1) % 2))
  end)
end)

-- Finding 4: every room's boxes (its AIs, its house rules) counted in
-- the host state's one pool: the rooms of one process shared 512 MiB, so
-- one room's scripts holding their caps made the AIs of every other room
-- fail ("all scripts together may hold 512 MiB"), against "two rooms
-- never share a count" (docs/security.md).
-- Finding 5: a spectator had no history of its own: g:history() is the
-- whole (every private keep, every "nobelote", every announced card) and
-- g:history(seat) a seat's, so a front end showing a spectator the game so
-- far could only show too much.
describe("issue 26 attacks: a spectator's history", function()
  it("g:history('spectator') holds nothing private of any seat", function()
    local seed = claim_seed()
    local g = assert(diloti.new{ rules = "diloti+face-card-claim", seed = seed })
    assert(g:play("keep"))
    assert(g:play(1))
    local h = g:history("spectator")
    assert.equals(1, #h)
    assert.are_not.equal("keep", h[1].kind)
    -- Pilotta: rounds where someone announced and someone declined a belote
    local met = {}
    for pseed = 1, 200 do
      local p = assert(diloti.new{ rules = "pilotta", seed = pseed })
      local secret = {}
      while p:turn() do
        local moves, pick = p:moves(), nil
        for _, m in ipairs(moves) do
          if m:find("^announce") or m:find("nobelote", 1, true) then pick = m end
        end
        pick = pick or moves[#moves]
        local e = assert(p:play(pick))
        if e.kind == "announce" then
          met.announce = true
          for _, c in ipairs(e.cards) do secret[#secret + 1] = c end
        end
        if pick:find("nobelote", 1, true) then met.nobelote = true end
      end
      for _, e in ipairs(p:history("spectator")) do
        assert.is_nil(tostring(e.move):find("nobelote", 1, true), e.move)
        if e.kind == "announce" then
          for _, c in ipairs(secret) do assert.is_nil(tostring(e.move):find(c, 1, true), e.move) end
        end
      end
      if met.announce and met.nobelote then break end
    end
    assert.is_true(met.announce and met.nobelote)
    assert.has_error(function() g:history("nobody") end)
  end)

  it("a game written in Lua gives a spectator its history cut too", function()
    local kit = require "diloti.gamekit"
    local g = kit.game{
      name = "peekgame", rules = { players = 2, teams = false, target = 3 },
      messages = { round_over = "T: the round is over" },
      deal = function(_, dealer)
        return { hands = { [0] = { "1c" }, [1] = { "2c" } }, turn = 1 - dealer, peeked = {}, n = 0 }
      end,
      moves = function(s)
        local out = { { text = s.hands[s.turn][1], kind = "play" } }
        if not s.peeked[s.turn] then out[2] = { text = "peek", kind = "peek" } end
        return out
      end,
      apply = function(s, m)
        if m.kind == "peek" then
          s.peeked[m.seat] = true
          return {}
        end
        s.n, s.turn = s.n + 1, 1 - s.turn
        return {}
      end,
      over = function(s) return s.n == 2 end,
      score = function() return { [0] = { total = 0 }, [1] = { total = 0 }, winner = 0 } end,
      -- (a peek is its seat's own: the others hear nothing of it)
      public = function(e) if e.kind ~= "peek" then return e end end,
    }.new{ seed = 1 }
    assert.is_nil(g:public(assert(g:play("peek")), nil))
    assert.equals("peek", g:history()[1].move)
    assert.are_not.equal("peek", g:history("spectator")[1].move)
    assert.are_not.equal("peek", g:history(1 - g:history()[1].seat)[1].move)
  end)
end)

describe("issue 26 attacks: a room's boxes", function()
  -- An AI and a house rule that each keep `mib` MiB from their main chunk.
  local HOARD = [[
    keep = {}
    for i = 1, %d do keep[i] = ("x"):rep((1 << 20) - 64) .. i end
  ]]
  local ai_dir, rules_dir = tmp .. "/ai", tmp .. "/rules"
  os.execute("mkdir -p " .. support.q(ai_dir) .. " " .. support.q(rules_dir))
  support.write(ai_dir .. "/hoarder.lua", HOARD:format(12) .. [[
    return { name = "hoarder", description = "keeps memory", game = "any",
      choose = function(_, moves) return moves[1] end }]])
  support.write(rules_dir .. "/hoard.lua", HOARD:format(12) .. [[
    return { name = "hoard", description = "keeps memory", rule = "V-test",
      hooks = { score = function(b) return b end } }]])

  it("count in the room's own pool, not in another room's", function()
    local a = assert(room.new{ game = "diloti", seats = { [0] = "human", [1] = "random" } })
    local b = assert(room.new{ game = "diloti", rules = "diloti+hoard", rules_dirs = { rules_dir },
      ai_dirs = { ai_dir }, seats = { [0] = "human", [1] = "hoarder" } })
    assert.is_not_nil(a.pool, "a room has no pool of its own")
    assert.is_not_nil(b.pool)
    local a_used = a.pool:memory()
    local b_used = b.pool:memory()
    -- b's AI and b's house rule, both in b's pool; nothing of them in a's
    assert.is_true(b_used > 24 * MiB, tostring(b_used))
    assert.equals(a_used, (a.pool:memory()))
    assert.is_true(a_used < 8 * MiB, tostring(a_used))
    -- a room keeps its pool when an AI takes a seat later
    assert(b:seat(0, { kind = "ai", name = "hoarder" }))
    assert.is_true(b.pool:memory() > b_used + 10 * MiB)
    assert.equals(a_used, (a.pool:memory()))
  end)
end)

describe("issue 26 attacks: what held", function()
  -- Whole rounds by random AIs, a subscriber at every seat and a
  -- spectator: nobody hears another seat's keep, a move's index or
  -- (Diloti) its number, an announcement's cards or a declined belote; no
  -- event holds a hand; a spectator's view holds no hand, pack or peeked
  -- card, a seat's the peeked card only when it dealt.
  it("no event or view of a whole round tells a viewer what it may not know", function()
    local seen, problems = {}, {}
    local function bad(...) problems[#problems + 1] = string.format(...) end
    local function walk(t, f, done)
      done = done or {}
      if done[t] then return end
      done[t] = true
      for k, v in pairs(t) do
        f(k)
        if type(v) == "table" then walk(v, f, done) end
      end
    end
    local configs = {
      { game = "diloti", rules = "diloti+face-card-claim", players = 2 },
      { game = "diloti", rules = "diloti+face-card-claim-any-deal+dealer-peeks", players = 4 },
      { game = "diloti", rules = "kontsina+dealer-peeks", players = 3 },
      { game = "pilotta", rules = "pilotta" },
    }
    for _, c in ipairs(configs) do
      for seed = 1, 40 do
        local r = assert(room.new{ game = c.game, rules = c.rules, players = c.players, seed = seed, humans = 0,
          ai = "random", match = false })
        r:listen(function(e)
          if e.type ~= "move" then return end
          local k = (e.kind == "keep" or e.kind == "announce") and e.kind
            or tostring(e.text):find("nobelote", 1, true) and "nobelote"
          if k then seen[k] = (seen[k] or 0) + 1 end
        end)
        for v = -1, r.players_n - 1 do
          local viewer = v >= 0 and v or nil
          r:subscribe(viewer, function(e)
            local what = c.rules .. " seed " .. seed .. " viewer " .. tostring(viewer)
            if e.type == "move" and e.seat ~= viewer then
              if e.kind == "keep" then bad("%s: a keep", what) end
              if e.index or (c.game == "diloti" and e.number) then bad("%s: index or number", what) end
              if e.kind == "announce" and (e.cards or e.text ~= "announce") then bad("%s: announced cards", what) end
              if tostring(e.move):find("nobelote", 1, true) then bad("%s: a declined belote", what) end
            end
            walk(e, function(k) if k == "hand" or k == "known_bottom" then bad("%s: %s in an event", what, k) end end)
          end)
        end
        for _ = 1, 500 do
          if not r:step() then break end
          walk(r:view(nil), function(k)
            if k == "hand" or k == "known_bottom" or k == "pack" then bad("%s: the spectator sees %s", c.rules, k) end
          end)
          for s = 0, r.players_n - 1 do
            local v = r:view(s)
            if v.known_bottom and v.known_bottom ~= -1 and s ~= v.dealer then bad("%s: seat %d peeks", c.rules, s) end
          end
        end
      end
    end
    assert.same({}, problems)
    -- (the cases were met)
    assert.is_true((seen.keep or 0) > 0 and (seen.announce or 0) > 0 and (seen.nobelote or 0) > 0)
  end)

  it("a game's natives answer nonsense of every type inside a box", function()
    local nat = core.natives("diloti")
    local b = core.box.new{ label = "natives" }
    local ok, t = b:run([[
      local vals = { true, 1.5, -1, math.maxinteger, math.mininteger, 0/0, 1/0, "", ("7h"):rep(5000),
        {}, { "7h", "8h" }, { { "7h" } }, string.rep, { n = 1 }, "7h 8h",
        setmetatable({}, { __index = function() error("x") end, __len = function() return 1e9 end }) }
      return { f = function(nat)
        local n = 0
        for _, f in pairs(nat) do
          for i = 1, #vals + 1 do for j = 1, #vals + 1 do
            pcall(f, vals[i], vals[j]); pcall(f, vals[i], vals[j], vals[i])
            n = n + 2
          end end
        end
        return n
      end }]], "=fuzz")
    assert.is_true(ok, t)
    b:limits{ budget = 1000000000, time = 60 }
    assert.is_true(t.f(nat) > 0)
    b:close()
  end)

  it("g:view(nil) holds no hand in either game, whatever the viewer's spelling", function()
    for _, game in ipairs{ "diloti", "pilotta" } do
      local g = assert(diloti.new{ rules = game, seed = 3 })
      assert.is_nil(g:view(nil).hand)
      assert.is_nil(g:view("spectator").hand)
      for _, v in ipairs{ 0.5, "x", -1, 99, 0 / 0, {}, true } do
        assert.has_error(function() g:view(v) end)
      end
    end
  end)

  it("a pool refuses totals it could not count", function()
    for _, total in ipairs{ 0, -1, (1 << 20) - 1, (1 << 40) + 1, math.maxinteger, 1.5, 0 / 0, "x", {} } do
      assert.has_error(function() core.box.pool{ total = total } end, nil, tostring(total))
    end
  end)
end)
