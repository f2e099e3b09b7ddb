-- The house rules that change only declarations or scoring, played out at
-- the Lua level (pilotta_variants_spec checks that their flags reach the
-- engine; the C tests check the arithmetic): each is shown to change a
-- real round, from a position and whole plays, against the base rules.
local diloti = require "diloti"

local function game(spec, position)
  return assert(diloti.new { rules = spec, position = position })
end

local function plays(g, list)
  for a in list:gmatch("[^,]+") do
    local ok, why = g:play((a:gsub("^%s+", ""):gsub("%s+$", "")))
    assert(ok, a .. ": " .. tostring(why))
  end
end

local function finish(g)
  while g:turn() do assert(g:play(1)) end
  return g:result().round
end

-- PE1's deal and PE18's play (PILOTTA.md): team A stands with a run of 50,
-- seat 3 of team B has the belote; A takes 102 trick points, B 60.
local PE1 = "dealer=3; calls=%s; hands=7h 10c 7s 7c 8h 9c 8c 9d / Qd As 10d Kh 9s Kd Ad 8s"
  .. " / 10s Ks Qs Qh Jd Ac 7d Jc / Ah Jh Kc Js Qc 9h 8d 10h"
local PE18 = "announce 7c 8c 9c 10c, 9c, announce Qd Kd Ad, 8s, Jc, announce 9h 10h Jh, Qc belote, "
  .. "Ac, Kc, show, 10c, 9s, 10s, Js, 7s, As, Ad, 7d, 8d, 9d, 10d, Jd, Ah, 7c, "
  .. "8h, Kh, Qh, 10h, Jh, 7h, Kd, Qs, 9h, 8c, Qd, Ks"

local function pe18(spec, calls)
  local g = game(spec, PE1:format(calls))
  plays(g, PE18)
  return g:result().round
end

local function raw(r) return { r[0].raw, r[1].raw } end
local function pts(r) return { r[0].game, r[1].game } end

describe("Pilotta house rules in play", function()
  it("PE18 itself, as the base of the comparisons", function()
    local r = pe18("pilotta", "80c, 90d, pass, pass, 110c, pass, pass, pass")
    assert.same({ 262, 80 }, raw(r))
    assert.same({ 26, 8 }, pts(r))
  end)

  it("PV-fail-keeps-declarations: a failed bidding team keeps its own declarations", function()
    local calls = "80c, 90d, pass, pass, 160c, pass, pass, pass"
    local base = pe18("pilotta", calls)
    assert.is_false(base.made)
    assert.same({ 0, 392 }, raw(base))
    local keep = pe18("pilotta+fail-keeps-declarations", calls)
    -- A keeps its 50; B takes 162 + 160 and its own belote 20
    assert.same({ 50, 342 }, raw(keep))
    assert.same({ 5, 34 }, pts(keep))
  end)

  it("PV-belote-transfers: under contra the losing side's belote goes to the winner", function()
    local calls = "80c, 90d, pass, pass, 110c, contra, pass, pass, pass"
    assert.same({ 432, 20 }, raw(pe18("pilotta", calls)))
    local moved = pe18("pilotta+belote-transfers", calls)
    assert.same({ 452, 0 }, raw(moved))
    assert.same({ 45, 0 }, pts(moved))
  end)

  it("PV-decl-overlap: a Jack serves in a four and a run (PE16)", function()
    local pos = "dealer=3; calls=80c, pass, pass, pass; hands=Jc Jd Jh Js 9h 10h Qh Kh"
      .. " / 7c 8c 9c 10c Qc Kc Ac 7d / 8d 9d 10d Qd Kd Ad 7h 8h / Ah 7s 8s 9s 10s Qs Ks As"
    local base = game("pilotta", pos)
    plays(base, "announce Jc Jd Jh Js")
    local ok, why = base:play("announce 9h 10h Jh Qh Kh")
    assert.is_nil(ok)
    assert.matches("^P3[45]", why)
    local over = game("pilotta+decl-overlap", pos)
    plays(over, "announce Jc Jd Jh Js, announce 9h 10h Jh Qh Kh")
    local mine = over:view(0).announcements
    assert.equals(2, #mine)
    assert.same({ "four", "run" }, { mine[1].kind, mine[2].kind })
  end)

  -- PE17: seat 1's run of five clubs (100) against seat 2's four Queens (100).
  local TIE = "dealer=3; calls=80d, pass, pass, pass; hands=7d 8d 9d 10d Jd Kd Ad Kh"
    .. " / 7c 8c 9c 10c Jc 7h 8h 10h / Qc Qd Qh Qs Kc Ac 9h Jh / 7s 8s 9s 10s Js Ks As Ah"
  local function standing(spec)
    local g = game(spec, TIE)
    plays(g, "7d, announce 7c 8c 9c 10c Jc")
    assert(g:play(1))
    plays(g, "announce Qc Qd Qh Qs")
    assert(g:play(1))
    plays(g, "7s") -- seat 3 holds a run it does not announce
    return g:view(0).standing
  end

  it("PV-decl-100-tie: a four of 100 and a run of 100 are equal (PE17)", function()
    assert.equals(0, standing("pilotta"))
    assert.equals("equal", standing("pilotta+decl-100-tie"))
  end)

  -- Seat 0 holds every heart (the belote too) and bids 80h; seat 1's run
  -- of five diamonds stands and is shown, and team A still takes every
  -- trick: 250 + 20 + 80.
  local SWEEP = "dealer=3; calls=80h, pass, pass, pass; hands=7h 8h 9h 10h Jh Qh Kh Ah"
    .. " / 7d 8d 9d 10d Jd 7c 8c 9c / Qd Kd Ad 10c Jc Qc Kc Ac / 7s 8s 9s 10s Js Qs Ks As"
  local function swept(spec)
    local g = game(spec, SWEEP)
    plays(g, "Ah, announce 7d 8d 9d 10d Jd, 7c, Ac, As, Kh, show")
    return finish(g)
  end

  it("PV-swept-keeps-declarations: swept defenders keep their standing declarations", function()
    local base = swept("pilotta")
    assert.is_true(base.made)
    assert.same({ 350, 0 }, raw(base))
    local keep = swept("pilotta+swept-keeps-declarations")
    assert.same({ 350, 100 }, raw(keep))
    assert.same({ 35, 10 }, pts(keep))
  end)

  -- The roundings: the same seeded rounds (rounding never changes the
  -- play) read under each rule; a remainder of 6 and one of 5 both occur.
  local function rounds(spec, n)
    local out = {}
    for seed = 1, n do
      local g = assert(diloti.new { rules = spec, seed = seed, dealer = 3 })
      plays(g, "80h, pass, pass, pass")
      out[seed] = finish(g)
    end
    return out
  end

  it("PV-round-7 and PV-round-5: the remainders 6 and 5 round as the rule says", function()
    local base, r7, r5 = rounds("pilotta", 40), rounds("pilotta+round-7", 40), rounds("pilotta+round-5", 40)
    local seen6, seen5 = false, false
    for i = 1, 40 do
      for t = 0, 1 do
        local x = base[i][t].raw
        assert.equals(x, r7[i][t].raw)
        if x % 10 == 6 then
          seen6 = true
          assert.equals(x // 10, r7[i][t].game, "PV-round-7 rounds 6 down")
        elseif x % 10 == 5 then
          seen5 = true
          assert.equals(x // 10, base[i][t].game, "P46 rounds 5 down")
          -- both remainders 5 or more: only the team with more trick points
          -- rounds up (the other's is then 7)
          local o = base[i][1 - t]
          local alone = o.raw % 10 < 5 or base[i][t].trick_points > o.trick_points
          assert.equals(x // 10 + (alone and 1 or 0), r5[i][t].game, "PV-round-5 rounds 5 up")
        end
      end
    end
    assert.is_true(seen6 and seen5)
  end)
end)

describe("a long Pilotta match", function()
  it("counts rounds past 32767 (P19: every round thrown in)", function()
    local g = assert(diloti.new { game = "pilotta", seed = 1 })
    for _ = 1, 33000 do
      for _ = 1, 4 do assert(g:play("pass")) end
      assert(g:next_round())
    end
    assert.equals(33001, g:view(0).round)
    local p = g:position()
    assert.matches("round=33001", p)
    assert.equals(33001, assert(diloti.new { game = "pilotta", position = p }):view(0).round)
  end)
end)
