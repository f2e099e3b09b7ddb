-- Pilotta's bidding evaluation and policy (lua/games/pilotta/ai_helpers.lua, given
-- to AIs as ctx.evaluate, ctx.declarations, ctx.bid, ctx.declare,
-- ctx.careful): the declarations a hand holds (P33, P34), the estimate
-- for each trump suit, the policy's calls in set auctions, every call
-- legal under the house rules, the same answers inside an AI's box, and
-- the calibration tool.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local diloti = require "diloti"
local ai = require "diloti.ai"
local PL = require "diloti.games.pilotta.ai_helpers"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local function hand(s)
  local h = {}
  for c in s:gmatch("%S+") do h[#h + 1] = c end
  return h
end

-- The calls as moves_info entries.
local function infos(list)
  local out = {}
  for _, t in ipairs(list) do
    local kind = (t == "pass" or t == "contra" or t == "recontra") and t or "bid"
    out[#out + 1] = { text = t, kind = kind }
  end
  return out
end

local CTX = { seat = 0, side = 0, partner = 2, rules = { game = "pilotta" } }

-- Every bid above `above` in every suit, capot included, and pass.
local function bids_above(above, extra)
  local list = { "pass" }
  for v = above + 10, 160, 10 do for s in ("cdhs"):gmatch(".") do list[#list + 1] = v .. s end end
  for s in ("cdhs"):gmatch(".") do list[#list + 1] = "capot " .. s end
  for _, e in ipairs(extra or {}) do list[#list + 1] = e end
  return infos(list)
end

describe("Pilotta's bidding evaluation", function()
  it("finds the declarations as P33 and P34 count them (PE16)", function()
    local _, total, best = PL.declarations(hand("7h 8h 9h 10h Jh Qh Kh Ah"))
    assert.equals(100, total)
    assert.equals(100, best)
    _, total = PL.declarations(hand("Jc Jd Jh Js 9h 10h Qh Kh"))
    assert.equals(200, total)
    _, total = PL.declarations(hand("Jc Jd Jh Js 9h 10h Qh Kh"), true)
    assert.equals(300, total)
    _, total = PL.declarations(hand("Qc Qd Qh Qs Jh Kh Ah 7c"))
    assert.equals(100, total)
    _, total = PL.declarations(hand("Qc Qd Qh Qs Jh Kh Ah 7c"), true)
    assert.equals(150, total)
    _, total = PL.declarations(hand("7c 7d 7h 7s 8c 8d 8h 8s"))
    assert.equals(0, total)
    assert.equals(20, PL.declaration_value(hand("9h 10h Jh")))
  end)

  it("values a hand more in its strong suit, with its belote", function()
    local h = hand("Jh 9h Ah Kh Qh Ac 7d 8s")
    local hearts, clubs = PL.evaluate(h, "h"), PL.evaluate(h, "c")
    assert.is_true(hearts.tricks > clubs.tricks + 40)
    assert.equals(20, hearts.belote)
    assert.equals(0, clubs.belote)
    assert.equals(hearts.tricks + hearts.decl_expect + hearts.belote, hearts.total)
    -- an average hand is worth about half the trick points to its team
    local weak = PL.evaluate(hand("7c 8c 7d 8d 9d 7s 8s 9s"), "h")
    assert.is_true(weak.tricks < 70)
  end)

  it("opens with a strong suit, passes with a weak hand, never bids capot without every trick", function()
    local strong = { hand = hand("Jh 9h Ah 10h Kh Ac 7d 8s"), calls = {} }
    local i, note = PL.bid(strong, bids_above(70), CTX)
    local text = bids_above(70)[i].text
    assert.matches("^%d+h$", text, nil, note)
    assert.is_true(tonumber(text:match("%d+")) >= 100, text)
    local weak = { hand = hand("7c 8c 7d 8d 9d 7s 8s Qh"), calls = {} }
    assert.equals("pass", bids_above(70)[PL.bid(weak, bids_above(70), CTX)].text)
    local all = { hand = hand("Jh 9h Ah 10h Kh Qh 8h 7h"), calls = {} }
    assert.equals("capot h", bids_above(70)[PL.bid(all, bids_above(70), CTX)].text)
    local nearly = { hand = hand("Jh 9h Ah 10h Kh Qc 8d 7s"), calls = {} }
    assert.is_nil(bids_above(70)[PL.bid(nearly, bids_above(70), CTX)].text:find("capot"))
  end)

  it("says contra when the opponents' contract is above what our hand leaves them", function()
    local view = { hand = hand("Jh 9h Ah 10c Ac As 10s Ad"), calls = { { seat = 1, kind = "bid", text = "120h" } },
      contract = { value = 120, suit = "h", team = 1, bidder = 1, mult = 1 } }
    local moves = bids_above(120, { "contra" })
    assert.equals("contra", moves[PL.bid(view, moves, CTX)].text)
    view.hand = hand("7h 8c 9c 7s 8s 9d 8d 7d")
    assert.equals("pass", moves[PL.bid(view, moves, CTX)].text)
    -- recontra, symmetrically, when our contract is well within reach
    view = { hand = hand("Jh 9h Ah 10h Kh Qh Ac As"), calls = {},
      contract = { value = 100, suit = "h", team = 0, bidder = 0, mult = 2 } }
    moves = infos{ "pass", "recontra" }
    assert.equals("recontra", moves[PL.bid(view, moves, CTX)].text)
    view.hand = hand("Jh 7h 8h 7c 8c 9c 7s 8s")
    assert.equals("pass", moves[PL.bid(view, moves, CTX)].text)
  end)

  it("raises its partner with support, and never bids over its own bid", function()
    local view = { hand = hand("9h Ah 10h Ac As 10s 7d 8d"), calls = { { seat = 2, kind = "bid", text = "90h" } },
      contract = { value = 90, suit = "h", team = 0, bidder = 2, mult = 1 } }
    local moves = bids_above(90)
    local text = moves[PL.bid(view, moves, CTX)].text
    assert.matches("^%d+h$", text)
    view.contract.bidder = 0
    assert.equals("pass", moves[PL.bid(view, moves, CTX)].text)
  end)

  -- A script bidding with ctx.bid and playing with ctx.careful.
  local SCRIPT = [[
return { name = "NAME", description = "bids with the evaluation", game = "pilotta",
  choose = function(view, moves, ctx)
    if view.phase ~= "play" then
      if ctx.moves_info[1].kind == "trump" then return ctx.name_trumps() end
      return ctx.bid{ margin = 0, read = true }
    end
    return ctx.declare() or ctx.careful()
  end }
]]

  it("calls only legal calls under every house rule of the auction, from inside an AI's box", function()
    local path = support.write(tmp .. "/bidder.lua", (SCRIPT:gsub("NAME", "bidder")))
    for _, rules in ipairs{ "pilotta", "pilotta+pass-final", "pilotta+suit-after-auction",
      "pilotta+contra-after-auction", "pilotta+high-bids", "pilotta+decl-overlap+partner-exempt" } do
      for seed = 1, 6 do
        local g = assert(diloti.new{ rules = rules, seed = seed })
        local ps = {}
        for s = 0, 3 do ps[s] = assert(ai.player(path, { seed = s, game = "pilotta" })) end
        ai.play(g, ps, { on_warning = function(_, w) error(rules .. ": " .. w) end,
          on_move = function(_, _, info) assert.is_nil(info.fallback, info.warning) end })
        assert.is_truthy(g:phase():match("over"), rules)
      end
    end
  end)

  it("answers the same inside the box as on the host", function()
    local path = support.write(tmp .. "/asker.lua", [[
return { name = "asker", description = "x", game = "pilotta",
  choose = function(view, moves, ctx)
    local e = ctx.evaluate("h")
    return 1, string.format("%.4f %d %d", e.tricks, e.decl_total, e.belote)
  end }
]])
    local g = assert(diloti.new{ rules = "pilotta", seed = 12 })
    local p = assert(ai.player(path, { game = "pilotta" }))
    local seat = g:turn()
    local _, info = p:choose(g)
    local e = PL.evaluate(g:view(seat).hand, "h", g:rules())
    assert.equals(string.format("%.4f %d %d", e.tricks, e.decl_total, e.belote), info.note)
  end)

  it("the calibration tool fits the weights and writes its results file", function()
    local out = tmp .. "/cal.txt"
    local _, err, code = support.cli({ "run", "tools/calibrate_bid.lua", "20", "3", out, "playout" })
    assert.equals(0, code, err)
    local text = support.read(out)
    assert.matches("R^2 = ", text, 1, true)
    assert.matches("by predicted band", text, 1, true)
    for _, k in ipairs(PL.FEATURES) do assert.matches("\n  " .. k .. " ", text, 1, true) end
  end)
end)
