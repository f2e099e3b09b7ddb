-- Pilotta's house rules as scripts (rules-variants/pilotta-*.lua): each
-- one switched on through a rules spec changes what PILOTTA.md's PV- id
-- says; they combine, conflicts are refused with the valid names.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"
local variants = require "diloti.scripts.variants"

local function game(spec, opts)
  opts = opts or {}
  opts.rules = spec
  return assert(diloti.new(opts))
end

local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- Plays the whole round with the first legal action after the calls;
-- returns the round's breakdown.
local function round_after(g, calls)
  for _, c in ipairs(calls) do assert(g:play(c)) end
  while g:turn() do assert(g:play(1)) end
  return g:result().round
end

-- P = a position at the start of play: seat 0 leads, contract 80c by 0.
local LEAD = "dealer=3; calls=80c, pass, pass, pass; hands=%s; tricks=%s"

local effects = {
  ["deal-left"] = { "PV-deal-left: the deal passes to the dealer's left", function()
    local g = game("pilotta+deal-left", { seed = 1, dealer = 2 })
    for _ = 1, 4 do g:play("pass") end
    assert.equals(1, assert(g:next_round()).dealer)
  end },
  ["suit-after-auction"] = { "PV-suit-after-auction: bids are numbers, then trumps are named", function()
    local g = game("pilotta+suit-after-auction", { seed = 1, dealer = 3 })
    assert.is_true(has(g:moves(), "90"))
    assert.is_false(has(g:moves(), "90h"))
    g:play("90")
    for _ = 1, 3 do g:play("pass") end
    assert.equals("trump", g:phase())
    g:play("trump s")
    assert.equals("s", g:view(0).trumps)
  end },
  ["pass-final"] = { "PV-pass-final: who passed may not bid again", function()
    local g = game("pilotta+pass-final", { seed = 1, dealer = 3 })
    g:play("pass")
    g:play("80h")
    g:play("pass")
    g:play("pass")
    assert.equals(0, g:turn())
    local ok, why = g:play("90s")
    assert.is_nil(ok)
    assert.matches("^PV%-pass%-final", why)
  end },
  ["high-bids"] = { "PV-high-bids: bids go on to 240", function()
    assert.is_false(has(game("pilotta", { seed = 1 }):moves(), "170h"))
    local m = game("pilotta+high-bids", { seed = 1 }):moves()
    assert.is_true(has(m, "170h"))
    assert.is_true(has(m, "240s"))
    assert.is_false(has(m, "250s"))
  end },
  ["contra-after-auction"] = { "PV-contra-after-auction: contra only once the auction ends", function()
    local g = game("pilotta+contra-after-auction", { seed = 1, dealer = 3 })
    g:play("80h")
    assert.is_false(has(g:moves(), "contra"))
    for _ = 1, 3 do g:play("pass") end
    assert.equals("contra", g:phase())
    assert.is_true(has(g:moves(), "contra"))
  end },
  ["declarer-leads"] = { "PV-declarer-leads: the contract holder leads", function()
    local g = game("pilotta+declarer-leads", { seed = 1, dealer = 3 })
    g:play("pass")
    g:play("80h")
    for _ = 1, 3 do g:play("pass") end
    assert.equals(1, g:turn())
    g = game("pilotta", { seed = 1, dealer = 3 })
    g:play("pass")
    g:play("80h")
    for _ = 1, 3 do g:play("pass") end
    assert.equals(0, g:turn())
  end },
  ["partner-exempt"] = { "PV-partner-exempt: no duty to trump over a winning partner", function()
    -- clubs trump; seat 0 leads As and wins, seat 2 (its partner) has no spade
    local pos = LEAD:format("8d 9d 10d Jd Qd Kd Ad / 8h 9h 10h Jh Qh Kh Ah / 7c 8c 9c 10c Jc Qc Kc 7d"
      .. " / 7s 8s 9s 10s Js Qs Ks Ac", "As 7h")
    local strict = game("pilotta", { position = pos }):moves()
    local free = game("pilotta+partner-exempt", { position = pos }):moves()
    assert.is_false(has(strict, "7d"))
    assert.is_true(has(free, "7d"))
  end },
  ["must-head"] = { "PV-must-head: beat the best card of the led plain suit if you can", function()
    -- clubs trump; seat 0 leads 10s, seat 1 holds As and 7s
    local pos = LEAD:format("7d 8d 9d 10d Jd Qd Kd / As 7s Ad 7h 8h 9h 10h Jh / Qh Kh Ah 7c 8c 9c 10c Jc"
      .. " / Qc Kc Ac 8s 9s Js Qs Ks", "10s")
    local base = game("pilotta", { position = pos }):moves()
    local head = game("pilotta+must-head", { position = pos }):moves()
    assert.is_true(has(base, "7s"))
    assert.is_false(has(head, "7s"))
    assert.is_true(has(head, "As"))
  end },
  ["decl-overlap"] = { "PV-decl-overlap: a card counts in a four and a run (PE16)", function()
    assert.is_true(core.base_rules("pilotta").decl_overlap == false)
    assert.is_true(game("pilotta+decl-overlap"):rules().decl_overlap)
  end },
  ["decl-100-tie"] = { "PV-decl-100-tie: the switch reaches the engine", function()
    assert.is_true(game("pilotta+decl-100-tie"):rules().decl_100_tie)
  end },
  ["no-contract-bonus"] = { "PV-no-contract-bonus: the contract value is never added", function()
    local a = round_after(game("pilotta", { seed = 5, dealer = 3 }), { "80h", "pass", "pass", "pass" })
    local b = round_after(game("pilotta+no-contract-bonus", { seed = 5, dealer = 3 }),
      { "80h", "pass", "pass", "pass" })
    local winner = a.made and a.bidders or 1 - a.bidders
    assert.equals(a[winner].raw - 80, b[winner].raw)
  end },
  ["fail-keeps-declarations"] = { "PV-fail-keeps-declarations: the switch reaches the engine", function()
    assert.is_true(game("pilotta+fail-keeps-declarations"):rules().fail_keeps_declarations)
  end },
  ["belote-transfers"] = { "PV-belote-transfers: the switch reaches the engine", function()
    assert.is_true(game("pilotta+belote-transfers"):rules().belote_transfers)
  end },
  ["double-all"] = { "PV-double-all: under contra the winner's whole score is doubled", function()
    local calls = { "80h", "contra", "pass", "pass" }
    local a = round_after(game("pilotta", { seed = 5, dealer = 3 }), calls)
    local b = round_after(game("pilotta+double-all", { seed = 5, dealer = 3 }), calls)
    assert.equals(2, a.mult)
    local w = a.made and a.bidders or 1 - a.bidders
    assert.are_not.equals(a[w].raw, b[w].raw)
    assert.equals(0, b[w].raw % 2)
  end },
  ["swept-keeps-declarations"] = { "PV-swept-keeps-declarations: the switch reaches the engine", function()
    assert.is_true(game("pilotta+swept-keeps-declarations"):rules().swept_keeps_declarations)
  end },
  ["round-7"] = { "PV-round-7: rounding from 7", function()
    assert.equals("7", game("pilotta+round-7"):rules().rounding)
  end },
  ["round-5"] = { "PV-round-5: rounding from 5", function()
    assert.equals("5", game("pilotta+round-5"):rules().rounding)
  end },
  ["raw-points"] = { "PV-raw-points: the sheet keeps raw points", function()
    local calls = { "80h", "pass", "pass", "pass" }
    local a = round_after(game("pilotta", { seed = 5, dealer = 3 }), calls)
    local b = round_after(game("pilotta+raw-points", { seed = 5, dealer = 3 }), calls)
    assert.equals(a[0].raw, b[0].game)
    assert.equals(a[1].raw, b[1].game)
  end },
  target = { "PV-target=N: the match goes to N", function()
    assert.equals(151, game("pilotta+target"):rules().target)
    assert.equals(501, game("pilotta+target=501"):rules().target)
    local g, why = diloti.new{ rules = "pilotta+target=0" }
    assert.is_nil(g)
    assert.matches("target", why)
    g, why = diloti.new{ rules = "pilotta+target=x" }
    assert.is_nil(g)
    assert.matches("whole number", why)
  end },
  ["no-contra"] = { "a hook no field covers: contra and recontra are left out", function()
    local g = game("pilotta+no-contra", { seed = 1, dealer = 3 })
    g:play("80h")
    assert.is_false(has(g:moves(), "contra"))
  end },
}

local function catalogue_refusal(errors, name)
  return require("diloti.scripts.catalogue").refusal(errors, name)
end

describe("Pilotta's house rules", function()
  local cat = variants.catalogue()

  it("has a script and an effect test for every PV- rule of the engine", function()
    local names = variants.names_for(cat, "pilotta")
    for _, n in ipairs(names) do
      if n ~= "pilotta" then assert.is_table(effects[n], "no effect test for '" .. n .. "'") end
    end
    for n in pairs(effects) do assert.is_true(has(names, n), n) end
    for _, v in pairs(cat.found) do
      if v.game == "pilotta" and v.rule then assert.matches("^PV%-", v.rule) end
    end
  end)

  it("combines several house rules in one spec, the full name working too", function()
    local r = assert(diloti.rules("pilotta+partner-exempt+pilotta-must-head+target=151+deal-left"))
    assert.is_true(r.rules.partner_exempt and r.rules.must_head and r.rules.deal_left)
    assert.equals(151, r.rules.target)
    assert.equals("pilotta", r.game)
    assert.equals("pilotta+partner-exempt+must-head+target=151+deal-left", r.spec)
  end)

  it("refuses conflicting roundings and names of the other game, listing the valid names", function()
    local r, why = diloti.rules("pilotta+round-7+raw-points")
    assert.is_nil(r)
    assert.matches("conflicts", why)
    r, why = diloti.rules("pilotta+soy")
    assert.is_nil(r)
    assert.matches("valid names: .*partner%-exempt", why)
    r, why = diloti.rules("diloti+partner-exempt")
    assert.is_nil(r)
    assert.matches("house rule of pilotta", why)
    r = diloti.rules("pilotta+diloti")
    assert.is_nil(r)
  end)

  it("refuses a house rule that would move its game to the other one (rules.game), with a message", function()
    local dir = support.tmpdir()
    support.write(dir .. "/swap.lua", 'return { name = "swap", description = "x", rules = { game = "pilotta" } }')
    support.write(dir .. "/pilotta-swap.lua", 'return { name = "pilotta-swap", game = "pilotta", description = "x",'
      .. ' rules = function(r) r.game = "diloti" end }')
    support.write(dir .. "/pilotta-odd.lua", 'return { name = "pilotta-odd", game = "pilotta", description = "x",'
      .. ' rules = { game = "chess" } }')
    for _, spec in ipairs{ "diloti+swap", "pilotta+swap", "pilotta+odd" } do
      local ok, g, why = pcall(diloti.new, { rules = spec, rules_dirs = { dir }, seed = 1 })
      assert.is_true(ok, tostring(g))
      assert.is_nil(g)
      assert.matches("game", why)
    end
    -- a rules table of one game with the other's fields: nil and why, no error
    local ok, g, why = pcall(diloti.new, { rules = { game = "pilotta", soy = true } })
    assert.is_true(ok, tostring(g))
    assert.is_nil(g)
    assert.matches("soy", why)
    support.rmdir(dir)
  end)

  it("reads a folder's game subfolders: a rule there is that game's, named as a spec writes it", function()
    local dir = support.tmpdir()
    os.execute("mkdir -p " .. support.q(dir .. "/pilotta") .. " " .. support.q(dir .. "/diloti"))
    support.write(dir .. "/pilotta/short.lua", 'return { name = "short", description = "x", rules = { target = 151 } }')
    support.write(dir .. "/diloti/short.lua", 'return { name = "short", description = "y", rules = { target = 31 } }')
    -- (a rule in another game's folder is refused, naming the folder)
    support.write(dir .. "/pilotta/lost.lua", 'return { name = "lost", game = "diloti", description = "z" }')
    local mine = variants.catalogue{ dir }
    assert.equals("pilotta", mine.found["pilotta-short"].game)
    assert.equals("short", variants.short_name(mine.found["pilotta-short"]))
    assert.equals("diloti", mine.found["short"].game)
    assert.equals(151, assert(diloti.new{ rules = "pilotta+short", rules_dirs = { dir }, seed = 1 }):rules().target)
    assert.equals(31, assert(diloti.new{ rules = "diloti+short", rules_dirs = { dir }, seed = 1 }):rules().target)
    local refused = catalogue_refusal(mine.errors, "lost")
    assert.matches("lies in the folder of pilotta's house rules", refused)
    support.rmdir(dir)
  end)

  it("finds house rules by their short names with opts.game", function()
    local r = assert(diloti.rules("partner-exempt", { game = "pilotta" }))
    assert.same({ "pilotta", "pilotta-partner-exempt" }, r.names)
  end)

  describe("each house rule's effect", function()
    local names = {}
    for n in pairs(effects) do names[#names + 1] = n end
    table.sort(names)
    for _, n in ipairs(names) do it(n .. ": " .. effects[n][1], effects[n][2]) end
  end)
end)
