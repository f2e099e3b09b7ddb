-- The table's auction advice (lua/games/pilotta/bid.lua) against the AIs'
-- own bidding (lua/games/pilotta/ai_helpers.lua, with expert's options): the call a
-- person is advised is the call expert would make in the same seat, over
-- a few hundred auction positions of seeded games under the auction's
-- house rules; the reasons come in the game's words, with rule ids, and
-- name no card hidden in another hand.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local diloti = require "diloti"
local ai = require "diloti.ai"
local PL = require "diloti.games.pilotta.ai_helpers"
local bid = require "diloti.games.pilotta.bid"

local EXPERT = { margin = 20, contra = 50, recontra = 20 }
-- Other bidders, to walk the auction into varied positions: an eager one
-- (contras and overcalls to answer), a cautious one.
local EAGER = { margin = 0, contra = 10, recontra = 0 }
local CAUTIOUS = { margin = 30, contra = 50, recontra = 30 }

local RULES = { "pilotta", "pilotta+pass-final", "pilotta+suit-after-auction", "pilotta+contra-after-auction",
  "pilotta+high-bids", "pilotta+decl-overlap" }

local function ctx_of(seat, rules)
  return { seat = seat, side = seat % 2, partner = (seat + 2) % 4, rules = rules }
end

-- Expert's call in g's position: its text.
local function expert_call(g)
  local seat, infos = g:turn(), g:moves(true)
  local ctx = ctx_of(seat, g:rules())
  local i
  if infos[1].kind == "trump" then i = PL.name_trumps(g:view(seat), infos, ctx)
  else i = PL.bid(g:view(seat), infos, ctx, EXPERT) end
  return infos[i].text
end

local function lcg(seed)
  local x = seed
  return function(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return (x >> 8) % n + 1
  end
end

-- The next call of the walk: mostly expert's, else another bidder's, a
-- pass or any legal call.
local function walk_call(g, rng)
  local seat, infos = g:turn(), g:moves(true)
  if infos[1].kind == "trump" then return infos[rng(#infos)].text end
  local r = rng(20)
  local ctx = ctx_of(seat, g:rules())
  if r <= 10 then return expert_call(g) end
  if r <= 13 then return infos[PL.bid(g:view(seat), infos, ctx, EAGER)].text end
  if r <= 15 then return infos[PL.bid(g:view(seat), infos, ctx, CAUTIOUS)].text end
  if r <= 18 then return "pass" end
  return infos[rng(#infos)].text
end

-- Every card in another seat's hand.
local function others(g, seat)
  local st = g:state()
  local out = {}
  for s = 0, 3 do
    if s ~= seat then for _, c in ipairs(st.hands[s]) do out[#out + 1] = c end end
  end
  return out
end

-- The figures of a reason agree with its call: a bid at or under what
-- the hand covers, a pass's cover under the bid it would need.
local function consistent(call, why)
  local cover = tonumber(why:match("covers about (%d+)") or why:match("covers (%d+)"))
  local v = tonumber(call:match("^(%d+)"))
  if v then
    assert(cover and cover >= v, call .. ": " .. why)
    assert.matches(v .. " is the highest bid under it", why, 1, true)
  end
  local need = why:match("under the lowest open bid, (%d+)") or why:match("under (%d+), the lowest raise")
  if call == "pass" and need then assert(cover < tonumber(need), why) end
  local above = tonumber(why:match("(%d+) above the bid, and a recontra wants"))
  if above then assert(call == "recontra" and above >= 20, why) end
end

-- Calls each auction position of seeded games (every rules set in turn)
-- with f(g), until `want` positions were seen.
local function positions(want, f)
  local n, seed = 0, 0
  while n < want do
    seed = seed + 1
    local g = assert(diloti.new { rules = RULES[seed % #RULES + 1], seed = seed, dealer = seed % 4 })
    local rng = lcg(seed)
    while n < want do
      local ph = g:phase()
      if ph ~= "auction" and ph ~= "contra" and ph ~= "trump" then break end
      n = n + 1
      f(g)
      assert(g:play(walk_call(g, rng)))
    end
  end
  return n
end

describe("the table's auction advice", function()
  it("is expert's call in every one of 400 auction positions, in words naming no hidden card", function()
    local kinds = {}
    positions(400, function(g)
      local seat = g:turn()
      local want = expert_call(g)
      local call, why = bid.advise(g:view(seat), g:moves(true), g:rules())
      assert.equals(want, call, string.format("%s, seat %d, calls %s", g:rules().game, seat, why))
      assert.is_string(why)
      assert.matches("P%d", why)
      consistent(call, why)
      for _, c in ipairs(others(g, seat)) do
        assert.is_nil(why:find("%f[%w]" .. c .. "%f[%W]"), string.format("'%s' names %s", why, c))
      end
      local k = call:match("^(%a+)") or "bid"
      if k == "capot" or k == "trump" then k = "bid" end
      if k == "bid" and g:view(seat).contract and g:view(seat).contract.team == seat % 2 then k = "raise" end
      kinds[k] = (kinds[k] or 0) + 1
    end)
    -- (the walk reaches every kind of advice)
    for _, k in ipairs { "pass", "bid", "raise", "contra", "recontra" } do
      assert.is_true((kinds[k] or 0) >= 1, k .. " never advised")
    end
  end)

  it("is what the expert AI itself calls, through its box", function()
    local p = assert(ai.player("expert", { game = "pilotta" }))
    positions(60, function(g)
      local seat = g:turn()
      local text = p:choose(g)
      assert.equals(text, (bid.advise(g:view(seat), g:moves(true), g:rules())))
    end)
  end)

  it("takes expert's bidding options", function()
    local src = support.read("lua/games/pilotta/ai/expert.lua")
    assert.matches("local BID = { margin = 20, contra = 50, recontra = 20 }", src, 1, true)
    assert.same(EXPERT, bid.OPTS)
  end)

  it("the coach's noise tool: expert's own calls are never flagged at the coach's thresholds", function()
    local out, err, code = support.cli({ "run", "tools/pl_coach_bid_noise.lua", "150", "5" })
    assert.equals(0, code, err)
    assert.matches("150 auction positions", out, 1, true)
    -- (the starred column is the coach's threshold)
    for _, what in ipairs { "over", "missed" } do
      local head = out:match("\n" .. what .. " [^\n]*")
      local col, k = nil, 0
      for cell in head:gmatch("%S+") do
        if cell:find("*", 1, true) then col = k end
        k = k + 1
      end
      assert.is_truthy(col, what)
      local row = out:match("\n" .. what .. " [^\n]*\nexpert[^\n]*"):match("expert[^\n]*")
      local cells = {}
      for cell in row:gmatch("%S+") do cells[#cells + 1] = cell end
      assert.equals("0.0%", cells[col + 1], row)
    end
  end)

  local function view(hand, calls, seat)
    local v = { seat = seat or 0, hand = {}, calls = {} }
    for c in hand:gmatch("%S+") do v.hand[#v.hand + 1] = c end
    local high
    for i, t in ipairs(calls or {}) do
      local s = (v.seat - #calls + i - 1) % 4
      local kind = (t == "pass" or t == "contra") and t or "bid"
      v.calls[i] = { seat = s, text = t, kind = kind }
      if kind == "bid" then high = { seat = s, text = t } end
    end
    if high then
      local val, su = high.text:match("^(%d+)(%a)$")
      v.contract = { bidder = high.seat, team = high.seat % 2, value = tonumber(val), suit = su, capot = false }
    end
    return v
  end

  local function moves_above(value, extra)
    local out = { "pass" }
    for x = value + 10, 160, 10 do for s in ("cdhs"):gmatch(".") do out[#out + 1] = x .. s end end
    for _, e in ipairs(extra or {}) do out[#out + 1] = e end
    return out
  end

  it("names the evaluation's parts: trumps, side aces, declarations, belote, the margin kept", function()
    local call, why = bid.advise(view("Jh 9h Ah Kh Qh As 7h 8d"), moves_above(70), { game = "pilotta" })
    assert.matches("^%d+h$", call)
    assert.matches("with hearts as trumps", why, 1, true)
    assert.matches("6 trumps with the Jack, the Nine and the Ace", why, 1, true)
    assert.matches("1 side Ace", why, 1, true)
    assert.matches("the belote 20", why, 1, true)
    assert.matches("a run of 4", why, 1, true)
    assert.matches("keeping 20 in hand", why, 1, true)
    assert.matches("P14", why, 1, true)
  end)

  it("passes a weak hand, saying what it covers against the lowest bid", function()
    local call, why = bid.advise(view("7h 8h 7c 8c 9d 7s 8s 9s"), moves_above(70), { game = "pilotta" })
    assert.equals("pass", call)
    assert.matches("under the lowest open bid, 80", why, 1, true)
  end)

  it("for contra: what the bidders need against what our hand leaves them", function()
    -- West bid 150 in clubs; our hand holds their Jack and Nine and two aces
    local v = view("Jc 9c 10c Ad As 10s Ah 7d", { "150c" })
    local call, why = bid.advise(v, moves_above(150, { "contra" }), { game = "pilotta" })
    assert.equals("contra", call)
    assert.matches("at least 100 from tricks", why, 1, true)
    assert.matches("leaving them about %d+", why)
    assert.matches("P16", why, 1, true)
  end)

  it("no contra: what our hand leaves the bidders, against how short a contra wants them (P16)", function()
    -- West bid 100 in hearts; our hand holds no heart of theirs worth a trick
    local v = view("7c 9c 10c 7d 9d 7h 7s Ks", { "100h" })
    local call, why = bid.advise(v, moves_above(100, { "contra" }), { game = "pilotta" })
    assert.equals("pass", call)
    local left = tonumber(why:match("leaving them about (%d+)"))
    assert.is_truthy(left, why)
    assert.is_true(left >= 100, why)
    assert.matches("leaving them about " .. left .. ", enough for the 100 they need from tricks; a contra wants "
      .. "them 50 short (P16)", why, 1, true)
  end)

  it("no contra on a hand that leaves them short, but not short enough", function()
    -- West bid 160 in hearts: 100 from tricks; our aces and tens take some of it
    local v = view("Ac 10c Ad 10d As 10s Kc Kd", { "160h" })
    local call, why = bid.advise(v, moves_above(160, { "contra" }), { game = "pilotta" })
    assert.equals("pass", call, why)
    local left, short = why:match("leaving them about (%d+) of the 100 they need from tricks, (%d+) short; a contra "
      .. "wants them 50 short %(P16%)")
    assert.is_truthy(left, why)
    assert.equals(100, tonumber(left) + tonumber(short))
  end)

  it("over a partner's bid: what the hand adds to an average partner", function()
    -- partner North bid 80h, East passed
    local v = view("Jh 9h Ac As 10s Ad Kd 7c", { "80h", "pass" })
    local call, why = bid.advise(v, moves_above(80, { "contra" }), { game = "pilotta" })
    assert.matches("^%d+h$", call)
    assert.matches("your partner's 80 in hearts", why, 1, true)
    assert.matches("an average partner", why, 1, true)
  end)

  it("says why no bid is open to a strong hand: PV-pass-final after its pass, the contra window", function()
    local strong = "hands=Jc 9c Ac 10c Kc Qc Ad 10d / ?8 / ?8 / ?8"
    local g = assert(diloti.new { game = "pilotta", rules = "pilotta+pass-final",
      position = "dealer=3; calls=pass, 80h, pass, pass; " .. strong })
    local call, why = bid.advise(g:view(0), g:moves(true), g:rules())
    assert.equals("pass", call)
    assert.matches("PV-pass-final", why, 1, true)
    assert.is_nil(why:find("no bid is open", 1, true))
    g = assert(diloti.new { game = "pilotta", rules = "pilotta+contra-after-auction",
      position = "dealer=0; calls=80h, pass, pass, pass, pass; " .. strong })
    assert.equals("contra", g:phase())
    assert.equals(0, g:turn())
    call, why = bid.advise(g:view(0), g:moves(true), g:rules())
    assert.equals("pass", call)
    assert.matches("PV-contra-after-auction", why, 1, true)
    assert.is_nil(why:find("no bid is open", 1, true))
  end)

  it("gives the highest bid each suit covers, and the sure tricks for capot", function()
    local ev = bid.evaluate({ "Jh", "9h", "Ah", "10h", "Kh", "As", "7c", "8d" }, { game = "pilotta" })
    assert.is_true(ev.h.cover >= 120, ev.h.cover)
    assert.is_true(ev.c.cover < 80, ev.c.cover)
    assert.equals(ev.h.total - EXPERT.margin, ev.h.cover)
    assert.equals(PL.evaluate({ "Jh", "9h", "Ah", "10h", "Kh", "As", "7c", "8d" }, "h", {}).winners, ev.h.winners)
  end)
end)
