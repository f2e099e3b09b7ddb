-- The game handle answers once: g:play returns what the move did (its
-- canonical text, number, kind and effect), moves are named by their
-- number in g:moves(), g:parse reads a move without playing it, the moves
-- hook runs once per position, and core.calls() counts the calls made to
-- the engine. Rule ids refer to RULES.md; seats are 0-based.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"

-- RULES.md example 1: seat 0 holds 8h 2d, 14 legal moves.
local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
-- The last two cards of a round (RULES.md example 12, second part).
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"

local function at(position, rules, hooks)
  return assert(diloti.new{ position = position, rules = rules, hooks = hooks })
end

-- Cards in the engine's order (rank, then suit: D1), as the views list them.
local RANK = { A = 0, J = 10, Q = 11, K = 12 }
for v = 2, 10 do RANK[tostring(v)] = v - 1 end
local SUIT = { c = 0, d = 1, h = 2, s = 3 }
local function card_key(c)
  local r, s = c:match("^(%w+)([cdhs])$")
  return RANK[r] * 4 + SUIT[s]
end
local function in_card_order(list)
  local c = {}
  for i, v in ipairs(list) do c[i] = v end
  table.sort(c, function(a, b) return card_key(a) < card_key(b) end)
  return c
end

local function set_of(list)
  local s = {}
  for _, v in ipairs(list or {}) do s[v] = true end
  return s
end

-- The first seed at which a new game of `spec` is in the claim phase.
local function claim_game(spec)
  for seed = 1, 2000 do
    local g = assert(diloti.new{ rules = spec, seed = seed })
    if g:phase() == "claim" then return g end
  end
  error("no claim in 2000 deals of " .. spec)
end

local BOOLEANS = { "xeri", "dealt", "redealt", "round_over", "match_over" }

describe("g:play returns the effect of the move", function()
  -- (issue 29: a loop that shows nothing asks for no more)
  it("brief: the seat, the canonical text, its number and the round's end, the game played alike", function()
    for _, spec in ipairs{ { EX1, "diloti", "2d  LAY" }, { LAST, "diloti", "Jc x Jd" },
      { nil, "pilotta", 1 } } do
      local a = assert(diloti.new{ position = spec[1], rules = spec[2], seed = 3 })
      local b = assert(diloti.new{ position = spec[1], rules = spec[2], seed = 3 })
      local full = assert(a:play(spec[3]))
      local e = assert(b:play(spec[3], "brief"))
      assert.same({ seat = full.seat, text = full.text, index = full.index, round_over = full.round_over,
        match_over = full.match_over }, e)
      assert.equals(a:position(), b:position())
      local none, why = b:play("nonsense", "brief")
      assert.is_nil(none)
      assert.is_string(why)
    end
    local g = at(LAST)
    assert(g:play("Jc x Jd", "brief"))
    local e = assert(g:play("10h x 10s", "brief"))
    assert.is_true(e.round_over)
    assert.equals(1, e.seat)
  end)

  it("for a lay (D10): the move, its number, who, when, and nothing taken", function()
    local g = at(EX1)
    local list = g:moves()
    local s = g:state()
    local e = g:play("2d  LAY")
    assert.is_table(e)
    assert.equals("2d lay", e.text)
    assert.equals("2d lay", list[e.index])
    assert.equals("lay", e.kind)
    assert.equals(0, e.seat)
    assert.equals(0, e.side)
    assert.equals(s.round, e.round)
    assert.equals(s.deal, e.deal)
    assert.equals(s.ply, e.ply)
    assert.equals("2d", e.card)
    assert.is_nil(e.value)
    assert.same({}, e.takes)
    assert.is_nil(e.captured)
    assert.is_nil(e.swept)
    assert.is_nil(e.warning)
    for _, k in ipairs(BOOLEANS) do assert.is_false(e[k], k) end
  end)

  it("for a capture (D11): every card that went to the pile, the played card too, in card order", function()
    local g = at("hands=10h 2c / 9c; table=10s 4c 6d")
    local e = g:play("10h x 6d 10s 4c")
    assert.equals("10h x 4c 6d 10s", e.text)
    assert.equals("capture", e.kind)
    assert.same({ "4c", "6d", "10s" }, e.takes)
    -- card order, not string order ("10h" < "4c" as strings)
    assert.same({ "4c", "6d", "10h", "10s" }, e.captured)
    assert.is_true(e.xeri) -- the table is empty afterwards (D21)
    assert.is_false(e.round_over)
  end)

  it("for a capture that leaves cards on the table: no xeri (D21)", function()
    local e = at(EX1):play("8h x 8c")
    assert.same({ "8c", "8h" }, e.captured)
    assert.same({ "8c" }, e.takes)
    assert.is_false(e.xeri)
  end)

  it("for a xeri (D21): the whole table and the card", function()
    local e = at(EX1):play("8h x 8c, 5s+3h, 6d+2c")
    assert.equals("8h x 2c 3h 5s 6d 8c", e.text)
    assert.same({ "2c", "3h", "5s", "6d", "8c", "8h" }, e.captured)
    assert.is_true(e.xeri)
  end)

  it("for a capture of a declaration (D18): the declaration's cards, named as in moves(true)", function()
    local g = at("hands=8d 2c / 8h 3c; table=P8@1(5c+3s) 4h")
    local e = g:play("8d x P8@1")
    assert.same({ "P8@1" }, e.takes)
    assert.same({ "3s", "5c", "8d" }, e.captured)
    assert.is_false(e.xeri)
  end)

  it("for a plain declaration (D15): its value and the cards joined", function()
    local e = at(EX1):play("2d + 6d = 8")
    assert.equals("plain", e.kind)
    assert.equals(8, e.value)
    assert.equals("2d", e.card)
    assert.same({ "6d" }, e.takes)
    assert.is_nil(e.captured)
  end)

  it("for a group (D17) over a declaration: its value and the references taken", function()
    local g = at("hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)")
    local e = g:play("Ah + P8@1 9s = G9")
    assert.equals("Ah + 9s P8@1 = G9", e.text)
    assert.equals("group", e.kind)
    assert.equals(9, e.value)
    assert.same({ "9s", "P8@1" }, e.takes)
  end)

  it("agrees with the entry of g:moves(true) for every move of a position", function()
    local g = at("hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)")
    for _, m in ipairs(g:moves(true)) do
      local e = g:clone():play(m.text)
      for _, k in ipairs{ "text", "index", "kind", "seat", "card", "value" } do
        assert.equals(m[k], e[k], k)
      end
      assert.same(m.takes, e.takes)
    end
  end)

  it("for a claim and a keep (V-face-card-claim): the kind and whether the round was redealt", function()
    local g = claim_game("diloti+face-card-claim")
    local seat = g:turn()
    local c = g:clone()
    local e = c:play("claim")
    assert.equals("claim", e.kind)
    assert.equals("claim", e.text)
    assert.equals(seat, e.seat)
    assert.is_true(e.redealt)
    assert.is_false(e.dealt)
    assert.is_nil(e.card)
    assert.is_nil(e.takes)
    assert.is_nil(e.captured)
    e = g:play("keep")
    assert.equals("keep", e.kind)
    assert.is_false(e.redealt)
    assert.is_nil(e.card)
  end)

  it("for a move that deals the next hands (D6): dealt", function()
    local g = at("hands=2c / 3d; table=9s; deal=1; ply=9; dealer=1; turn=0")
    assert.is_false(g:play("2c lay").dealt)
    assert.is_true(g:play("3d lay").dealt)
  end)

  it("for the last move of a round (D22): round_over, and nothing swept when the table is empty", function()
    local g = at(LAST)
    local e = g:play("Jc x Jd")
    assert.is_false(e.round_over)
    e = g:play("10h x 10s")
    assert.is_true(e.round_over)
    assert.is_false(e.match_over)
    assert.is_nil(e.swept)
  end)

  it("for the last move of a round (D22): the cards left on the table swept to the last capturer's side", function()
    local g = at("hands=Jc / 10h; table=10s Jd 3c; deal=4; ply=46; pack=-")
    assert.is_nil(g:play("Jc x Jd").swept)
    local e = g:play("10h x 10s")
    assert.is_true(e.round_over)
    assert.same({ "10h", "10s" }, e.captured)
    assert.same({ side = 1, cards = { "3c" } }, e.swept)
  end)

  it("sweeps a last card laid with the table to the last capturer (D22)", function()
    local g = at("hands=Jc / 5h; table=10s Jd 3c; deal=4; ply=46; pack=-")
    g:play("Jc x Jd")
    local e = g:play("5h lay")
    assert.is_true(e.round_over)
    assert.is_nil(e.captured)
    assert.same({ side = 0, cards = { "3c", "5h", "10s" } }, e.swept)
  end)

  it("sweeps nothing when nobody captured in the round (D22)", function()
    local g = at("hands=Jc / 5h; table=10s 3c; deal=4; ply=46; pack=-")
    g:play("Jc lay")
    local e = g:play("5h lay")
    assert.is_true(e.round_over)
    assert.is_nil(e.swept)
  end)

  it("for the last move of a match (D24): match_over", function()
    local g = at(LAST .. "; score=60 60")
    g:play("Jc x Jd")
    local e = g:play("10h x 10s")
    assert.is_true(e.round_over)
    assert.is_true(e.match_over)
    assert.equals("match-over", g:phase())
  end)

  it("follows a match hook that plays on (D24)", function()
    local g = at(LAST .. "; score=60 60", {}, { match = function() return false end })
    g:play("Jc x Jd")
    local e = g:play("10h x 10s")
    assert.is_true(e.round_over)
    assert.is_false(e.match_over)
  end)

  it("gives a failed score hook's warning as the second value and in the effect", function()
    local g = at(LAST, {}, { score = function() error("oops") end })
    g:play("Jc x Jd")
    local e, warn = g:play("10h x 10s")
    assert.is_table(e)
    assert.matches("score hook", warn)
    assert.equals(warn, e.warning)
  end)

  it("names the side of a seat: seat % 2 with teams (D7), else the seat", function()
    for _, opts in ipairs{ { players = 4, seed = 5 }, { rules = "kontsina", players = 3, seed = 5 } } do
      local g = assert(diloti.new(opts))
      local teams = g:rules().teams
      for _ = 1, 8 do
        local e = g:play(1)
        assert.equals(teams and e.seat % 2 or e.seat, e.side)
      end
    end
  end)

  it("still refuses as before: nil and the rule id", function()
    local ok, why = at(EX1):play("8h x 6d 5s")
    assert.is_nil(ok)
    assert.matches("^D11: ", why)
  end)
end)

describe("g:next_round", function()
  it("returns the new round, its dealer and deal (D4)", function()
    local g = at(LAST)
    g:play("Jc x Jd")
    g:play("10h x 10s")
    local dealer = g:state().dealer
    local r = g:next_round()
    assert.same({ round = 2, dealer = 1 - dealer, deal = 1 }, r)
  end)
end)

describe("moves by number", function()
  it("plays, checks and parses the i-th move of g:moves()", function()
    local g = at(EX1)
    local list = g:moves()
    assert.equals(14, #list)
    for i, text in ipairs(list) do
      local ok, what = g:check(i)
      assert.is_true(ok)
      assert.equals(select(2, g:check(text)), what)
      local m = g:parse(i)
      assert.equals(text, m.text)
      assert.equals(i, m.index)
      local e = g:clone():play(i)
      assert.equals(text, e.text)
      assert.equals(i, e.index)
    end
    assert.equals(0, #g:history())
  end)

  it("counts a float with an integer value as that integer", function()
    local g = at(EX1)
    local list = g:moves()
    assert.equals(list[2], g:parse(2.0).text)
    assert.is_true((g:check(2.0)))
    assert.equals(list[2], g:play(2.0).text)
  end)

  it("refuses a number out of range with nil and how many moves there are", function()
    local g = at(EX1)
    for _, n in ipairs{ 0, -1, 15, 1000, math.maxinteger, math.mininteger } do
      local want = string.format("no move number %d here (there are 14 moves)", n)
      local ok, why = g:play(n)
      assert.is_nil(ok)
      assert.equals(want, why)
      ok, why = g:parse(n)
      assert.is_nil(ok)
      assert.equals(want, why)
      ok, why = g:check(n)
      assert.is_false(ok)
      assert.equals(want, why)
    end
    assert.equals(0, #g:history())
  end)

  it("refuses a number that is no whole number: nil and why, not an error", function()
    local g = at(EX1)
    for _, n in ipairs{ 2.5, -0.5, 0 / 0, math.huge, -math.huge } do
      local ok, why = g:play(n)
      assert.is_nil(ok)
      assert.matches("^not a move: ", why)
      assert.matches("whole number", why)
      local pok, pwhy = g:parse(n)
      assert.is_nil(pok)
      assert.equals(why, pwhy)
      local cok, cwhy = g:check(n)
      assert.is_false(cok)
      assert.equals(why, cwhy)
    end
    assert.equals(0, #g:history())
  end)

  it("counts a float past the integers as a number out of range", function()
    local g = at(EX1)
    for n, shown in pairs{ [1e300] = "1e+300", [-1e300] = "-1e+300", [2 ^ 63] = "9.2233720368548e+18" } do
      local want = "no move number " .. shown .. " here (there are 14 moves)"
      assert.same({ nil, want }, { g:play(n) })
      assert.same({ nil, want }, { g:parse(n) })
      assert.same({ false, want }, { g:check(n) })
    end
  end)

  it("says 'there is 1 move' when there is one", function()
    local g = at("hands=Jc / 10h; table=Jd; deal=4; ply=46; pack=-")
    assert.equals(1, #g:moves())
    assert.same({ nil, "no move number 2 here (there is 1 move)" }, { g:play(2) })
  end)

  it("has no numbered moves once the round is over (D22)", function()
    local g = at(LAST)
    g:play(1)
    g:play(1)
    local ok, why = g:play(1)
    assert.is_nil(ok)
    assert.equals("no move number 1 here (there are 0 moves)", why)
  end)

  it("answers a boolean, nil or a table without text as any non-move: nil (false for check), why", function()
    local g = at(EX1)
    local before = g:position()
    for _, f in ipairs{ g.play, g.check, g.parse } do
      for _, bad in ipairs{ true, false, {}, { text = false } } do
        local ok, why = f(g, bad)
        assert.is_falsy(ok)
        assert.matches("^not a move", why)
      end
      local ok, why = f(g)
      assert.is_falsy(ok)
      assert.matches("^not a move", why)
    end
    assert.equals(before, g:position())
  end)

  it("still takes a move table from moves(true), and a string", function()
    local g = at(EX1)
    local m = g:moves(true)[3]
    assert.equals(m.text, g:clone():play(m).text)
    assert.same(m, g:parse(m))
    assert.same(m, g:parse(m.text))
  end)

  it("numbers moves(true) entries as in moves()", function()
    local g = at(EX1)
    local list = g:moves()
    for i, m in ipairs(g:moves(true)) do
      assert.equals(i, m.index)
      assert.equals(list[i], m.text)
    end
  end)
end)

describe("g:parse", function()
  it("gives the canonical move table, as g:moves(true) has it, without playing it", function()
    local g = at(EX1)
    local pos = g:position(true)
    local m = g:parse("8H X 8♣ 6♦ 5♠ 3♥ 2♣")
    local by = {}
    for _, e in ipairs(g:moves(true)) do by[e.text] = e end
    assert.same(by["8h x 2c 3h 5s 6d 8c"], m)
    assert.equals(pos, g:position(true))
    assert.equals(0, #g:history())
  end)

  it("refuses exactly as g:play would: not a move, the rule id (D11, D10), the position's end (D22)", function()
    local cases = {
      { EX1, "zz" }, { EX1, "8h x 6d 5s" }, { EX1, "Kc lay" }, { EX1, "2d + 6d = 9" },
      { EX1, "9c lay" }, { "hands=Kh 2c / 3d; table=Ks", "Kh lay" }, { "over", "10h lay" },
    }
    for _, c in ipairs(cases) do
      local g
      if c[1] == "over" then
        g = at(LAST)
        g:play("Jc x Jd")
        g:play("10h x 10s")
      else
        g = at(c[1])
      end
      local ok, why = g:parse(c[2])
      assert.is_nil(ok)
      assert.is_string(why)
      local pok, pwhy = g:clone():play(c[2])
      assert.is_nil(pok)
      assert.equals(pwhy, why)
    end
  end)

  it("agrees with play on every legal move of many random positions, in several variants", function()
    local specs = { "diloti", "kontsina", "diloti+liberal-capture", "diloti+liberal-raise+liberal-group",
                    "diloti+forced-capture", "diloti+face-card-claim-any-deal" }
    local n = 0
    for k, spec in ipairs(specs) do
      for seed = 1, 4 do
        local g = assert(diloti.new{ rules = spec, seed = seed * 31 + k, players = seed == 4 and 4 or nil })
        local step = 0
        while g:phase() ~= "match-over" and step < 60 do
          step = step + 1
          if g:phase() == "round-over" then
            g:next_round()
          else
            local all = g:moves(true)
            -- every legal move, each ply of a round's first deal, then every 5th ply
            if step < 12 or step % 5 == 0 then
              for _, m in ipairs(all) do
                assert.same(m, g:parse(m.text))
                local e = g:clone():play(m.text)
                assert.equals(m.text, e.text)
                assert.equals(m.index, e.index)
                n = n + 1
              end
            end
            g:play((step * 7919) % #all + 1)
          end
        end
      end
    end
    assert.is_true(n > 1000, n)
  end)
end)

describe("the moves hook", function()
  local function counted(filter)
    local c = { n = 0 }
    c.hook = function(moves, state)
      c.n = c.n + 1
      return filter(moves, state)
    end
    return c
  end

  local function no_lays(moves)
    local kept, why = {}, {}
    for _, m in ipairs(moves) do
      if m.kind == "lay" then why[m.text] = "house rule: no laying here" else kept[#kept + 1] = m end
    end
    return kept, why
  end

  it("runs once per position across moves, moves(true), check, parse and play, and again after undo", function()
    local c = counted(no_lays)
    local g = at(EX1, {}, { moves = c.hook })
    local list = g:moves()
    assert.equals(12, #list)
    g:moves(true)
    g:check("8h x 8c")
    g:check("2d lay")
    g:check(3)
    g:parse("2d lay")
    g:parse(5)
    g:parse("zz")
    g:parse(99)
    g:moves()
    assert.equals(1, c.n)
    local e = g:play(1)
    assert.equals(list[1], e.text)
    assert.equals(1, e.index)
    assert.equals(1, c.n) -- the move was found in the kept verdict
    g:moves()
    g:moves(true)
    g:check(1)
    g:parse(1)
    assert.equals(2, c.n)
    assert.is_true(g:undo())
    assert.same(list, g:moves())
    g:moves(true)
    g:check(2)
    g:parse(list[2])
    g:play(list[2])
    assert.equals(3, c.n)
  end)

  it("keeps a verdict per game: a clone judges its own positions, the original keeps its own", function()
    local c = counted(no_lays)
    local g = at(EX1, {}, { moves = c.hook })
    local list = g:moves()
    assert.equals(1, c.n)
    local k = g:clone()
    assert.same(list, k:moves())
    assert.equals(2, c.n)
    assert.truthy(k:play(1))
    k:moves()
    assert.equals(3, c.n)
    assert.same(list, g:moves())
    assert.equals(3, c.n)
    assert.truthy(g:play(list[2]))
    assert.equals(3, c.n)
  end)

  it("numbers the moves it allows: the i-th of the filtered list", function()
    local g = at(EX1, {}, { moves = no_lays })
    local list = g:moves()
    for i, m in ipairs(g:moves(true)) do
      assert.equals(i, m.index)
      assert.equals(list[i], m.text)
      assert.same(m, g:parse(i))
      assert.equals(i, g:clone():play(m.text).index)
    end
    local ok, why = g:play(13)
    assert.is_nil(ok)
    assert.equals("no move number 13 here (there are 12 moves)", why)
    ok, why = g:parse("8h lay")
    assert.is_nil(ok)
    assert.equals("house rule: no laying here", why)
    assert.equals(why, select(2, g:clone():play("8h lay")))
  end)

  it("gives a clone the same hook and a cache of its own, which starts empty", function()
    local c = counted(no_lays)
    local g = at(EX1, {}, { moves = c.hook })
    local list = g:moves()
    local k = g:clone()
    assert.same(list, k:moves())
    k:moves(true)
    k:parse(2)
    assert.equals(2, c.n) -- the clone asked once for its own position
    k:play(1)
    k:moves()
    assert.equals(3, c.n)
    assert.same(list, g:moves()) -- the original's verdict is still its own
    assert.equals(list[1], g:play(1).text)
    assert.equals(3, c.n)
    -- and a clone of a clone that moved on knows only its own position
    local kk = k:clone()
    kk:check(1)
    kk:parse(1)
    assert.equals(4, c.n)
    assert.same(k:moves(), kk:moves())
    assert.equals(4, c.n)
  end)

  it("is obeyed by a rules variant from a folder of house rules, by text and by number", function()
    local dir = support.tmpdir()
    finally(function() support.rmdir(dir) end)
    support.write(dir .. "/no-ace-lay.lua", [[
return {
  name = "no-ace-lay",
  description = "An ace may not be laid on the table while another move is left (D20)",
  hooks = {
    moves = function(moves)
      local kept, why = {}, {}
      for _, m in ipairs(moves) do
        if m.kind == "lay" and m.card:sub(1, 1) == "A" then
          why[m.text] = "house rule: no laying an ace"
        else
          kept[#kept + 1] = m
        end
      end
      if #kept == 0 then return moves end
      return kept, why
    end,
  },
}
]])
    local g = assert(diloti.new{ rules = "diloti+no-ace-lay", rules_dirs = { dir },
                                 position = "hands=Ah 9d 2c / 8h 3c; table=9s 5c" })
    local list = g:moves()
    assert.is_false(support.has(list, "Ah lay"))
    local ok, why = g:parse("Ah lay")
    assert.is_nil(ok)
    assert.equals("house rule: no laying an ace", why)
    assert.equals(why, select(2, g:clone():play("Ah lay")))
    for i, m in ipairs(g:moves(true)) do
      assert.same(m, g:parse(i))
      assert.equals(m.text, g:clone():play(i).text)
    end
    -- random play under the house rule: every effect is one of the allowed moves
    g = assert(diloti.new{ rules = "diloti+no-ace-lay", rules_dirs = { dir }, seed = 11 })
    for step = 1, 48 do
      local all = g:moves(true)
      local e = g:play((step * 13) % #all + 1)
      assert.equals(all[e.index].text, e.text)
      if e.kind == "lay" and e.card:sub(1, 1) == "A" then
        for _, m in ipairs(all) do assert.equals("lay", m.kind) assert.equals("A", m.card:sub(1, 1)) end
      end
    end
  end)
end)

describe("the effect against the views before and after", function()
  -- What the move did as the old code worked it out: from two full views.
  local function diff(before, after, seat)
    local side = before.teams and seat % 2 or seat
    local got = {}
    for s = 0, before.sides - 1 do
      local had = set_of(before.captured[s])
      local new = {}
      for _, c in ipairs(after.captured[s]) do
        if not had[c] then new[#new + 1] = c end
      end
      got[s] = new
    end
    return {
      side = side,
      new = got,
      xeri = after.xeri[side] > before.xeri[side],
      dealt = after.deal ~= before.deal,
      round_over = after.phase == "round-over" or after.phase == "match-over",
      match_over = after.phase == "match-over",
    }
  end

  local specs = {
    { rules = "diloti" }, { rules = "kontsina" }, { rules = "diloti+liberal-capture" },
    { rules = "diloti+liberal-group+liberal-raise" }, { rules = "diloti+forced-capture" },
    { rules = "diloti+soy" }, { rules = "diloti+xeri-first-card" }, { rules = "diloti+no-xeri-last-card" },
    { rules = "diloti+three-face-cards" }, { rules = "diloti+redeal-any-triple" },
    { rules = "diloti+dealer-peeks" }, { rules = "diloti+face-card-claim" },
    { rules = "diloti+face-card-claim-any-deal" }, { rules = "diloti+last-capture" },
    { rules = "seed001" }, { rules = "diloti", players = 4 }, { rules = "kontsina", players = 3 },
    { rules = "kontsina", players = 4 }, { rules = "kontsina+points" },
  }

  for _, spec in ipairs(specs) do
    local name = spec.rules .. (spec.players and (" with " .. spec.players .. " players") or "")
    it("agrees on captured, swept, xeri, dealt and the round's end for random plies: " .. name, function()
      local plies = 0
      for seed = 1, 3 do
        local g = assert(diloti.new{ rules = spec.rules, players = spec.players, seed = seed })
        while g:phase() ~= "match-over" and plies < 200 * seed do
          if g:phase() == "round-over" then
            local r = g:next_round()
            assert.equals(g:state().round, r.round)
          else
            local before = g:state()
            local seat = g:turn()
            local infos = g:moves(true)
            local pick = infos[(plies * 7919 + seed) % #infos + 1]
            local e = g:play(pick.text)
            local after = g:state()
            local d = diff(before, after, seat)
            plies = plies + 1
            assert.equals(pick.text, e.text)
            assert.equals(pick.index, e.index)
            assert.equals(seat, e.seat)
            assert.equals(d.side, e.side)
            assert.equals(before.round, e.round)
            assert.equals(before.deal, e.deal)
            assert.equals(before.ply, e.ply)
            assert.equals(d.xeri, e.xeri)
            assert.equals(d.round_over, e.round_over)
            assert.equals(d.match_over, e.match_over)
            if not e.redealt then assert.equals(d.dealt, e.dealt) end
            -- every card new in a pile was captured by the move or swept (D22)
            local want = {}
            for s = 0, before.sides - 1 do
              local expect = {}
              if e.captured and s == e.side then
                for _, c in ipairs(e.captured) do expect[#expect + 1] = c end
              end
              if e.swept and s == e.swept.side then
                for _, c in ipairs(e.swept.cards) do expect[#expect + 1] = c end
              end
              want[s] = in_card_order(expect)
            end
            if e.redealt then
              assert.is_nil(e.captured)
            else
              for s = 0, before.sides - 1 do assert.same(want[s], d.new[s]) end
            end
            if e.captured then
              assert.equals("capture", e.kind)
              assert.same(in_card_order(e.captured), e.captured)
              assert.is_true(set_of(e.captured)[e.card])
            else
              assert.is_false(e.xeri)
            end
            if e.swept then
              assert.is_true(e.round_over)
              assert.is_true(#e.swept.cards > 0)
              assert.same(in_card_order(e.swept.cards), e.swept.cards)
            end
          end
        end
      end
      assert.is_true(plies >= 200, plies)
    end)
  end
end)

describe("core.calls", function()
  it("counts every call of a game method and of core.new, one each", function()
    local n = core.calls()
    assert.equals(n, core.calls())
    local g = at(EX1) -- one core.new
    assert.equals(n + 1, core.calls())
    g:moves()
    g:moves(true)
    g:play(1)
    g:undo()
    g:check("zz") -- a refusal is a call too
    g:parse(1)
    g:position()
    g:state()
    assert.equals(n + 9, core.calls())
    local c = g:clone()
    c:view(1)
    c:history()
    assert.equals(n + 12, core.calls())
  end)

  it("shows that one answer replaces the old round trips: a move and its effect in one call", function()
    local g = at(EX1)
    local n = core.calls()
    local e = g:play(7)
    assert.is_table(e)
    assert.equals(n + 1, core.calls())
  end)
end)

describe("view.so_far: the round's points as they stand (issue 15, item 7)", function()
  -- Seat 0's side holds A♣ 2♣ 4♠ 6♠ 10♦ and one xeri, seat 1's A♥ K♦.
  local PILES = "hands=8h 2d / 9c 7c; table=8c 6d 5s 3h 4c; piles=Ac 10d 2c 4s 6s / Ah Kd; xeri=1 0; pack=?36"

  it("scores the capture piles and xeris by D23: most cards, aces, 10d, 2c, xeris; clubs score nothing", function()
    local so_far = at(PILES):view(0).so_far
    assert.same({ cards = 5, clubs = 2, aces = 1, xeris = 1, pts_cards = 4, pts_clubs = 0, pts_aces = 1,
      pts_ten_diamonds = 2, pts_two_clubs = 1, pts_xeri = 10, total = 18 }, so_far[0])
    assert.same({ cards = 2, clubs = 0, aces = 1, xeris = 0, pts_cards = 0, pts_clubs = 0, pts_aces = 1,
      pts_ten_diamonds = 0, pts_two_clubs = 0, pts_xeri = 0, total = 1 }, so_far[1])
  end)

  it("scores by K4 in Kontsina: most cards, most clubs, 10d, 2c; no aces, no xeris", function()
    local so_far = at("hands=8h 2d 9d 4h / 9c 7c 9h 9s; table=8c 6d 5s 3h; piles=Ad 10d 2c 4s 6s / Ah 3c 5c; "
      .. "pack=?32", "kontsina"):view(1).so_far
    assert.same({ cards = 5, clubs = 1, aces = 1, xeris = 0, pts_cards = 2, pts_clubs = 0, pts_aces = 0,
      pts_ten_diamonds = 1, pts_two_clubs = 1, pts_xeri = 0, total = 4 }, so_far[0])
    assert.equals(1, so_far[1].pts_clubs) -- two clubs against one
    assert.equals(1, so_far[1].total)
  end)

  it("gives most cards to nobody on a tie (D23), and counts no card left on the table (D22 comes at the end)",
    function()
      local so_far = at("hands=8h 2d / 9c 7c; table=8c 6d; piles=Ac 10d 2c 4s 6s / Ah Kd 2h 2s 3s; pack=?36")
        :view(0).so_far
      assert.equals(0, so_far[0].pts_cards)
      assert.equals(0, so_far[1].pts_cards)
      assert.equals(5, so_far[1].cards)
    end)

  it("is the same in every seat's view, and is the round's breakdown once it is over", function()
    local g = at(LAST)
    assert.same(g:view(0).so_far, g:view(1).so_far)
    assert(g:play("Jc x Jd"))
    assert(g:play("10h x 10s"))
    local r = g:result().round
    r.winner = nil
    assert.same(r, g:view(0).so_far)
  end)
end)
