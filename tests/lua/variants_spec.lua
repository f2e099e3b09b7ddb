-- Rules variants: every script in rules-variants/ shown to change the
-- game from a position string (a move allowed or refused, a score that
-- changes), combinations, errors in specs, and user folders holding
-- broken scripts. Rule ids refer to RULES.md.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local variants = diloti.variants

local sorted, fields, has, lit = support.sorted, support.fields, support.has, support.lit

local function game(rules, position, extra)
  local o = { rules = rules, position = position }
  for k, v in pairs(extra or {}) do o[k] = v end
  local g, why = diloti.new(o)
  assert(g, why)
  return g
end

local function legal(g, move)
  local ok, why = g:check(move)
  assert(ok, move .. " should be legal: " .. tostring(why))
end

local function refused(g, move, rule)
  local ok, why = g:check(move)
  assert(not ok, move .. " should be refused")
  assert(why:sub(1, #rule + 1) == rule .. ":", "expected '" .. rule .. ":', got: " .. tostring(why))
  return why
end

local function resolve_error(spec, opts)
  local r, why = diloti.rules(spec, opts)
  assert(r == nil, spec .. " should not resolve")
  return why
end

-- The last two cards of a Diloti round (RULES.md example 12).
local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
-- The same in Kontsina (six deals of four cards, K1).
local K_LAST = "hands=Jc / 10h; table=10s Jd; deal=6; ply=46; pack=-"
-- The end of deal 1; the next deal gives seat 0 five face cards.
local LATE_CLAIM = "dealer=1; turn=0; ply=9; hands=2c / 3d; table=9s; "
  .. "pack=Jc Jd Jh Qc Qd 4c 5c 6c 7c 8c 9c 10c"

local function finish(g)
  assert(g:play("Jc x Jd"))
  assert(g:play("10h x 10s"))
  return g:result()
end

-- Does a new game's table hold three or four cards of one rank? Returns it.
local function table_triple(g)
  local count = {}
  for _, c in ipairs(g:state().table.loose) do
    local rank = c:sub(1, -2)
    count[rank] = (count[rank] or 0) + 1
    if count[rank] >= 3 then return rank end
  end
end

-- The first seed whose Diloti table would hold three numeral cards of a rank.
local function numeral_triple_seed()
  for seed = 1, 5000 do
    local t = table_triple(diloti.new{ seed = seed })
    if t and not t:match("^[JQK]$") then return seed end
  end
  error("no seed deals a numeral triple")
end

-- One effect test per built-in variant, by name. A new script in
-- rules-variants/ without an entry here makes the catalogue spec fail.
local effects = {}

effects["diloti"] = { "captures several parts with one card (D11) and refuses a part that does not add up", function()
  local g = game("diloti", "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c")
  legal(g, "8h x 2c 3h 5s 6d 8c")
  refused(g, "8h x 5s 6d", "D11")
  legal(g, "2d + 6d = 8")
  refused(game("diloti", "hands=Jh 2s / Kd; table=Jc 5s"), "Jh lay", "D10")
end }

effects["kontsina"] = { "takes exactly one combination and has no declarations (K2)", function()
  local p = "hands=8h 2d Kc Qs / 9c 7d 3c 4h; table=8c 6d 5s 3h"
  local g = game("kontsina", p)
  assert.same(sorted{ "2d lay", "8h x 3h 5s", "8h x 8c", "8h lay", "Qs lay", "Kc lay" }, sorted(g:moves()))
  refused(g, "8h x 3h 5s 8c", "K2")
  refused(g, "2d + 6d = 8", "K2")
  legal(game("diloti", p), "8h x 3h 5s 8c")
  -- A face card may be laid beside one of its rank (K2), unlike Diloti (D10).
  legal(game("kontsina", "hands=Jh 2s / Kd; table=Jc 5s"), "Jh lay")
  local r = finish(game("kontsina", K_LAST))
  assert.equals(0, r.round[0].pts_xeri + r.round[1].pts_xeri) -- no xeri in Kontsina
  assert.equals(3, r.round[0].total + r.round[1].total)      -- K4: 3 when the cards split 26-26
  assert.equals(1, r.rounds_won[1])
end }

effects["dealer-peeks"] = { "shows the dealer, and only the dealer, the bottom card of the pack", function()
  local g = game("dealer-peeks", nil, { seed = 3 })
  local s = g:state()
  assert.equals(s.pack[#s.pack], g:view(s.dealer).known_bottom)
  assert.is_nil(g:view(1 - s.dealer).known_bottom)
  assert.is_nil(game("diloti", nil, { seed = 3 }):view(s.dealer).known_bottom)
  -- From a position: the dealer (seat 1) knows the last card of the pack.
  g = game("dealer-peeks", LATE_CLAIM)
  assert.equals("10c", g:view(1).known_bottom)
  assert.is_nil(g:view(0).known_bottom)
  assert.is_nil(game("diloti", LATE_CLAIM):view(1).known_bottom)
end }

effects["face-card-claim"] = { "lets a player dealt five face cards claim a redeal of the round", function()
  local seed, g
  for s = 1, 5000 do
    g = game("face-card-claim", nil, { seed = s, dealer = 1 })
    if g:phase() == "claim" then seed = s break end
  end
  assert.is_number(seed)
  assert.same({ "claim", "keep" }, sorted(g:moves()))
  local hand = g:view(g:turn()).hand
  refused(g, hand[1] .. " lay", "V-face-card-claim")
  assert.truthy(g:play("claim"))
  assert.equals("play", g:phase())
  assert.equals(1, g:state().dealer) -- dealt again by the same dealer
  assert.is_true(g:history()[1].redealt)
  -- Without the variant the same deal is simply played.
  assert.equals("play", game("diloti", nil, { seed = seed, dealer = 1 }):phase())
  -- And only in the first deal of a round.
  g = game("face-card-claim", LATE_CLAIM)
  assert(g:play("2c lay"))
  assert(g:play("3d lay"))
  assert.equals("play", g:phase())
  refused(g, "claim", "V-face-card-claim")
end }

effects["face-card-claim-any-deal"] = { "allows the claim on a later deal too", function()
  local g = game("face-card-claim-any-deal", LATE_CLAIM)
  assert(g:play("2c lay"))
  assert(g:play("3d lay"))
  assert.equals("claim", g:phase())
  assert.same({ "claim", "keep" }, sorted(g:moves()))
  refused(g, "Jc lay", "V-face-card-claim")
  assert.truthy(g:play("claim"))
  local s = g:state()
  assert.equals(1, s.deal)
  assert.equals(0, #s.captured[0] + #s.captured[1]) -- the round is cancelled, captures and all
end }

effects["forced-capture"] = { "makes a card that can capture take a maximal capture (RULES.md example 14, C1)",
  function()
    local p = "hands=9c 2d / 3h; table=Ac 3s 4d 5h 9s"
    local g = game("forced-capture", p)
    assert.same(sorted{ "2d lay", "2d + 3s 4d = 9", "2d + 3s 4d 9s = G9", "9c x Ac 3s 5h 9s", "9c x 4d 5h 9s" },
      sorted(g:moves()))
    refused(g, "9c x Ac 3s 5h", "V-forced-capture")
    refused(g, "9c x 9s", "V-forced-capture")
    refused(g, "9c lay", "V-forced-capture")
    legal(game("diloti", p), "9c x 9s")
    legal(game("diloti", p), "9c lay")
  end }

effects["last-capture"] = { "gives the last capturer's side one more point (a score hook)", function()
  local with, without = finish(game("last-capture", LAST)), finish(game("diloti", LAST))
  assert.equals(13, without.score[1])
  assert.equals(14, with.score[1])
  assert.equals(without.score[0], with.score[0])
end }

effects["liberal-capture"] = { "counts a plain declaration as one card inside a capture (C5)", function()
  local p = "hands=6h 2s / 5c 3d; table=Ac P5@1(3h+2d)"
  legal(game("liberal-capture", p), "6h x Ac P5@1")
  local why = refused(game("diloti", p), "6h x Ac P5@1", "D11")
  assert.matches("V%-liberal%-capture", why)
end }

effects["liberal-group"] = { "lets a plain declaration stand as a card inside a group's component (C3)", function()
  local p = "hands=8h 8d / 7c 2c; table=Ac P7@1(4s+3h)"
  local g = game("liberal-group", p)
  assert.truthy(g:play("8h + Ac P7@1 = G8"))
  local decl = g:state().table.declarations
  assert.equals(1, #decl)
  assert.equals("G8@0", decl[1].ref)
  assert.equals(2, #decl[1].components)
  refused(game("diloti", p), "8h + Ac P7@1 = G8", "D17")
end }

effects["liberal-raise"] = { "lets a raise join loose cards as well as the played card (C4)", function()
  local p = "hands=Ah 10c / 6c 5d; table=3s P6@1(4d+2h)"
  local g = game("liberal-raise", p)
  assert.truthy(g:play("Ah + 3s P6@1 = 10"))
  assert.equals("table=P10@0(Ah+2h+3s+4d)", "table=" .. fields(g:position()).table)
  refused(game("diloti", p), "Ah + 3s P6@1 = 10", "D16")
end }

effects["no-xeri-last-card"] = { "scores no xeri for the round's very last card (D21)", function()
  local r = finish(game("no-xeri-last-card", LAST))
  assert.equals(0, r.round[1].xeris)
  assert.equals(3, r.score[1])
  assert.equals(13, finish(game("diloti", LAST)).score[1])
end }

effects["players"] = { "seats N players; four play Diloti in partnerships (D7, C9)", function()
  local p = "dealer=3; hands=5h 9c / 5d 9d / 4h 4c / 2h 6h; table=8c Kd P4@2(Ac+3s)"
  local g = game("players=4", p)
  assert.equals(4, g:rules().players)
  assert.is_true(g:rules().teams)
  refused(g, "5h + P4@2 = 9", "D16") -- seat 2 is seat 0's partner
  assert.truthy(g:play("9c lay"))
  legal(g, "5d + P4@2 = 9")            -- seat 1 is an opponent of seat 2
  assert.equals(4, game("players", nil, { seed = 1 }):rules().players) -- N defaults to 4
  assert.equals(3, game("kontsina+players=3", nil, { seed = 1 }):rules().players)
  local why = resolve_error("diloti+players=3")
  assert.matches("3 players", why)
end }

effects["points"] = { "plays Kontsina to N points instead of a number of rounds (K5)", function()
  local g = game("kontsina+points=1", K_LAST)
  finish(g)
  assert.equals("match-over", g:phase())
  assert.equals(1, g:result().winner)
  g = game("kontsina+points", K_LAST)
  assert.equals(21, g:rules().target)
  assert.equals("points", g:rules().match)
  finish(g)
  assert.equals("round-over", g:phase())
end }

effects["redeal-any-triple"] = { "deals the table again when three of its cards share any rank", function()
  local seed = numeral_triple_seed()
  assert.is_nil(table_triple(game("redeal-any-triple", nil, { seed = seed })))
  for s = 1, 300 do
    assert.is_nil(table_triple(game("redeal-any-triple", nil, { seed = s })), "seed " .. s)
  end
  assert.equals("any-triple", game("redeal-any-triple", nil, { seed = 1 }):rules().redeal)
end }

effects["rounds"] = { "plays Kontsina over N rounds won (K5)", function()
  local g = game("kontsina+rounds=1", K_LAST)
  finish(g)
  assert.equals("match-over", g:phase())
  assert.equals(1, g:result().winner)
  g = game("kontsina+rounds=5", K_LAST)
  assert.equals(5, g:rules().target)
  finish(g)
  assert.equals("round-over", g:phase())
end }

effects["seed001"] = { "plays seed 001's rules: clockwise, redealing any triple", function()
  local seed = numeral_triple_seed()
  local g = game("seed001", nil, { seed = seed })
  assert.is_nil(table_triple(g))
  assert.is_true(g:rules().clockwise)
  assert.equals("any-triple", g:rules().redeal)
  assert.is_false(game("diloti", nil, { seed = seed }):rules().clockwise)
end }

effects["soy"] = { "forbids adding to a group of two equal single cards (V-soy)", function()
  local p = "hands=8h 9s 6h / 8s 3c; table=2c 5d G8@1(8c,8d)"
  refused(game("soy", p), "6h + 2c G8@1 = G8", "V-soy")
  legal(game("diloti", p), "6h + 2c G8@1 = G8")
  legal(game("soy", "hands=8h 9s 6h / 8s 3c; table=2c 5d 3s G8@1(8c,8d)"), "6h + 2c 3s 5d = G8")
end }

effects["target"] = { "plays the match to N points (V-target)", function()
  local g = game("target=121", LAST .. "; score=60 60")
  finish(g)
  assert.equals("round-over", g:phase())
  assert.equals(121, g:rules().target)
  g = game("diloti", LAST .. "; score=60 60")
  finish(g)
  assert.equals("match-over", g:phase())
  assert.equals(121, game("target", nil, { seed = 1 }):rules().target) -- N defaults to 121
  g = game("target=13", LAST)
  finish(g)
  assert.equals("match-over", g:phase())
end }

effects["teams"] = { "pools four Kontsina players' captures in two partnerships (K8)", function()
  local g = game("kontsina+players=4+teams", nil, { seed = 1 })
  assert.is_true(g:rules().teams)
  assert.equals(2, g:view(0).sides)
  assert.equals("- / -", fields(g:position()).piles)
  local solo = game("kontsina+players=4", nil, { seed = 1 })
  assert.equals(4, solo:view(0).sides)
  assert.equals("- / - / - / -", fields(solo:position()).piles)
end }

effects["three-face-cards"] = { "lets the fourth face card take the three on the table, and only all three (C2)",
  function()
    local p = "hands=Js 5c / 6d; table=Jc Jd Jh 9s"
    local g = game("three-face-cards", p)
    legal(g, "Js x Jc Jd Jh")
    refused(g, "Js x Jc", "V-three-face-cards")
    local d = game("diloti", p)
    refused(d, "Js x Jc Jd Jh", "D12")
    legal(d, "Js x Jc")
  end }

effects["xeri-first-card"] = { "scores a xeri even with the round's first card (D21)", function()
  local p = "ply=0; hands=7h 2s / 9c; table=3c 4d"
  local g = game("xeri-first-card", p)
  assert.truthy(g:play("7h x 3c 4d"))
  assert.equals(1, g:state().xeri[0])
  assert.is_true(g:history()[1].xeri)
  local d = game("diloti", p)
  assert.truthy(d:play("7h x 3c 4d"))
  assert.equals(0, d:state().xeri[0])
end }

describe("rules variants", function()
  it("says a failure without the folders its house rule lies in, for a room's players and creator", function()
    assert.equals("house rule 'x' (x.lua), rules function: line 3: boom (see /etc/x)",
      variants.without_folders("house rule 'x' (/home/a b/.config/diloti/rules-variants/x.lua), rules function: "
        .. "line 3: boom (see /etc/x)"))
    assert.equals("rules: variant 'y' failed: house rule 'y' (y.lua), rules function: no",
      variants.without_folders("rules: variant 'y' failed: house rule 'y' (/srv/rules/y.lua), rules function: no"))
    assert.equals("nothing to do (here.lua)", variants.without_folders("nothing to do (here.lua)"))
  end)

  describe("the built-in catalogue", function()
    local cat = variants.catalogue()

    it("loads every script in rules-variants/ without errors", function()
      assert.same({}, cat.errors)
      assert.is_true(#cat.names >= 21)
      for _, name in ipairs(cat.names) do
        local v = cat.found[name]
        assert.equals(name, v.name)
        -- (one folder per game: rules-variants/NAME/, a house rule's file
        -- named as a spec writes it)
        local folder = v.game or "diloti"
        assert.equals("rules-variants/" .. folder .. "/" .. variants.short_name(v) .. ".lua", v.file)
        assert.is_string(v.description)
        assert.is_nil(v.description:find("\n"))
      end
    end)

    it("marks diloti, kontsina and pilotta as base games and nothing else", function()
      for _, name in ipairs(cat.names) do
        assert.equals(name == "diloti" or name == "kontsina" or name == "pilotta", cat.found[name].base == true, name)
      end
    end)

    it("names a RULES.md rule for every house rule that has one", function()
      for name, rule in pairs{ soy = "V-soy", ["forced-capture"] = "V-forced-capture", target = "V-target",
                               ["three-face-cards"] = "V-three-face-cards", seed001 = "V-seed001" } do
        assert.equals(rule, cat.found[name].rule)
      end
    end)

    it("has an effect test for every script (Pilotta's: pilotta_variants_spec)", function()
      for _, name in ipairs(cat.names) do
        if cat.found[name].game ~= "pilotta" then
          assert.is_table(effects[name], "no effect test for the variant '" .. name .. "'")
        end
      end
    end)
  end)

  describe("each variant's effect", function()
    local names = {}
    for name in pairs(effects) do names[#names + 1] = name end
    table.sort(names)
    for _, name in ipairs(names) do
      it(name .. ": " .. effects[name][1], effects[name][2])
    end
  end)

  describe("combinations", function()
    it("puts the Diloti base first when the spec names only house rules", function()
      local r = assert(diloti.rules("soy"))
      assert.same({ "diloti", "soy" }, r.names)
    end)

    it("applies every variant named, in any order", function()
      local a = assert(diloti.rules("diloti+soy+forced-capture+target=121"))
      local b = assert(diloti.rules("target=121+forced-capture+soy"))
      assert.same(a.rules, b.rules)
      assert.is_true(a.rules.soy)
      assert.is_true(a.rules.forced_capture)
      assert.equals(121, a.rules.target)
    end)

    it("shows each combined variant's effect in one game", function()
      local rules = "forced-capture+soy+last-capture"
      refused(game(rules, "hands=9c 2d / 3h; table=Ac 3s 4d 5h 9s"), "9c lay", "V-forced-capture")
      refused(game(rules, "hands=8h 9s 6h / 8s 3c; table=2c 5d G8@1(8c,8d)"), "6h + 2c G8@1 = G8", "V-soy")
      assert.equals(14, finish(game(rules, LAST)).score[1])
    end)

    it("reads spaces around names and values", function()
      local r = assert(diloti.rules(" diloti + target = 99 "))
      assert.equals(99, r.rules.target)
    end)

    it("resolves its own spec string back to the same rules", function()
      for _, spec in ipairs{ "diloti+soy", "target=200", "kontsina+rounds=7", "kontsina+players=4+teams" } do
        local r = assert(diloti.rules(spec))
        assert.is_string(r.spec)
        local again = assert(diloti.rules(r.spec))
        assert.same(r.rules, again.rules, spec .. " -> " .. r.spec)
      end
    end)
  end)

  describe("errors in a spec", function()
    it("refuses an unknown name and lists the valid ones", function()
      local why = resolve_error("diloti+colour")
      assert.matches("unknown variant 'colour'", why)
      assert.matches("valid names: .*forced%-capture", why)
      assert.matches("^rules: ", why)
    end)

    it("refuses two base games", function()
      assert.matches("'kontsina' and 'diloti' are both base games", resolve_error("kontsina+diloti"))
    end)

    it("refuses conflicting variants, naming both", function()
      assert.matches("'seed001' conflicts with 'redeal%-any%-triple'", resolve_error("seed001+redeal-any-triple"))
      assert.matches("conflicts with 'face%-card%-claim'", resolve_error("face-card-claim+face-card-claim-any-deal"))
      assert.matches("'rounds' conflicts with 'points'", resolve_error("kontsina+points+rounds"))
      assert.matches("conflicts", resolve_error("kontsina+rounds+points"))
    end)

    it("refuses a variant whose requirement is missing", function()
      assert.matches("'points' requires 'kontsina'", resolve_error("points"))
      assert.matches("'soy' requires 'diloti'", resolve_error("kontsina+soy"))
      assert.matches("'liberal%-raise' requires 'diloti'", resolve_error("kontsina+liberal-raise"))
    end)

    it("refuses a name given twice", function()
      assert.matches("'soy' is named twice", resolve_error("soy+soy"))
    end)

    it("refuses an empty name", function()
      assert.matches("empty name", resolve_error(""))
      assert.matches("empty name", resolve_error("diloti++soy"))
    end)

    it("refuses a value for a variant that takes none", function()
      assert.matches("'soy' takes no value", resolve_error("soy=3"))
    end)

    it("refuses a value that is not a whole number", function()
      assert.matches("'target' takes a whole number %(target=N%)", resolve_error("target=abc"))
      assert.matches("whole number", resolve_error("target=1.5"))
    end)

    it("passes on the variant's own refusal of a value", function()
      assert.matches("target: the target must be at least 1", resolve_error("target=0"))
      assert.matches("teams needs four players", resolve_error("teams"))
      assert.matches("play at least one round", resolve_error("kontsina+rounds=0"))
    end)

    it("makes diloti.new return nil and the message", function()
      local g, why = diloti.new{ rules = "seed001+redeal-any-triple" }
      assert.is_nil(g)
      assert.matches("conflicts", why)
    end)
  end)

  describe("user folders (rules_dirs, --rules-dir)", function()
    local dir
    local scripts = {
      ["house-lays.lua"] = [[
-- A house rule as a moves hook: face cards may not be laid.
return {
  name = "house-lays",
  description = "Face cards may never be laid",
  hooks = {
    moves = function(moves)
      local kept, why = {}, {}
      for _, m in ipairs(moves) do
        if m.kind == "lay" and m.card:match("^[JQK]") then
          why[m.text] = "house-lays: face cards may not be laid"
        else
          kept[#kept + 1] = m
        end
      end
      return kept, why
    end,
  },
}
]],
      ["bonus.lua"] = [[
return {
  name = "bonus",
  description = "Side 0 gets 2 more points a round",
  hooks = { score = function(s) s[0].total = s[0].total + 2 return s end },
}
]],
      ["syntax.lua"] = "return {\n  name = \"syntax\",\n  description = \"broken\"\n  rules = {},\n}\n",
      ["runtime.lua"] = "local x\nreturn { name = \"runtime\", description = x.y }\n",
      ["notable.lua"] = "return 42\n",
      ["misnamed.lua"] = "return { name = \"other\", description = \"x\" }\n",
      ["stray.lua"] = "return { name = \"stray\", description = \"x\", colour = \"red\" }\n",
      ["nodesc.lua"] = "return { name = \"nodesc\" }\n",
      ["badhook.lua"] = "return { name = \"badhook\", description = \"x\", hooks = { turn = function() end } }\n",
      ["looper.lua"] = "while true do end\n",
      ["wrongtype.lua"] = "return { name = \"wrongtype\", description = \"x\", rules = { soy = 3 } }\n",
      ["failing.lua"] = "return { name = \"failing\", description = \"x\",\n"
        .. "  rules = function(r) local t\n return t.x end }\n",
      ["says-no.lua"] = "return { name = \"says-no\", description = \"x\",\n"
        .. "  rules = function() return \"never on Sundays\" end }\n",
      ["target.lua"] = "return { name = \"target\", description = \"My target\",\n"
        .. "  arg = { name = \"N\", default = 33 }, rules = function(r, n) r.target = n end }\n",
      ["notes.txt"] = "not a script",
    }
    local found, names, errors

    local function error_for(file)
      for _, e in ipairs(errors) do
        if e.file == dir .. "/" .. file then return e.message end
      end
    end

    lazy_setup(function()
      dir = support.tmpdir()
      for file, text in pairs(scripts) do support.write(dir .. "/" .. file, text) end
      support.write(dir .. "/bytecode.lua", string.dump(function() return { name = "bytecode", description = "x" } end))
      found, names, errors = variants.load_all({ dir })
    end)

    lazy_teardown(function() support.rmdir(dir) end)

    it("loads the good scripts beside the built-in ones", function()
      assert.is_table(found["house-lays"])
      assert.is_table(found.bonus)
      assert.equals(dir .. "/bonus.lua", found.bonus.file)
      assert.is_true(has(names, "house-lays"))
      assert.is_true(has(names, "diloti"))
      assert.is_true(has(names, "forced-capture"))
      assert.is_nil(found.notes)
    end)

    it("lets a user script replace a built-in one of the same name", function()
      assert.equals(dir .. "/target.lua", found.target.file)
      local r = assert(diloti.rules("target", { rules_dirs = { dir } }))
      assert.equals(33, r.rules.target)
      assert.equals(121, assert(diloti.rules("target")).rules.target)
    end)

    it("refuses a script with a syntax error, giving file, line and reason", function()
      local why = error_for("syntax.lua")
      assert.is_string(why)
      assert.matches(lit(dir .. "/syntax.lua:4:"), why)
      assert.matches("'}' expected", why)
    end)

    it("refuses a script that fails while loading, giving file, line and reason", function()
      local why = error_for("runtime.lua")
      assert.is_string(why)
      assert.matches(lit(dir .. "/runtime.lua:2:"), why)
      assert.matches("attempt to index a nil value", why)
    end)

    it("refuses a script that returns something other than a table", function()
      local why = error_for("notable.lua")
      assert.matches(lit(dir .. "/notable.lua"), why)
      assert.matches("must return a table", why)
    end)

    it("refuses a script whose name does not match its file", function()
      assert.matches("name 'other' does not match the file name 'misnamed.lua'", error_for("misnamed.lua"))
    end)

    it("refuses unknown fields, a missing description and unknown hooks", function()
      assert.matches("unknown field 'colour'", error_for("stray.lua"))
      assert.matches("description", error_for("nodesc.lua"))
      assert.matches("unknown hook 'turn'", error_for("badhook.lua"))
    end)

    it("refuses a script that never finishes loading, naming the file (instruction budget)", function()
      local why = error_for("looper.lua")
      assert.is_string(why)
      assert.matches("instruction budget", why)
      assert.matches("looper%.lua", why)
    end)

    it("refuses a compiled (bytecode) script, naming the file: scripts load as text only", function()
      local why = error_for("bytecode.lua")
      assert.is_string(why)
      assert.matches("binary", why)
      assert.matches("bytecode%.lua", why)
      assert.is_nil(found.bytecode)
    end)

    it("still loads the others when some are refused", function()
      assert.is_true(#errors >= 9)
      for _, n in ipairs(variants.catalogue().names) do assert.is_table(found[n], n) end
    end)

    it("reports a folder that cannot be read, naming it", function()
      local missing = dir .. "/no-such-folder"
      local _, _, errs = variants.load_all({ missing })
      assert.equals(1, #errs)
      assert.equals(missing, errs[1].file)
      assert.matches("cannot read", errs[1].message)
    end)

    it("plays a user variant's moves hook through diloti.new{rules_dirs}", function()
      local g = game("diloti+house-lays", "hands=Kh 2d / 9c; table=8c 6d", { rules_dirs = { dir } })
      assert.is_false(has(g:moves(), "Kh lay"))
      local ok, why = g:play("Kh lay")
      assert.is_nil(ok)
      assert.equals("house-lays: face cards may not be laid", why)
      assert.truthy(g:play("2d lay"))
    end)

    it("chains the score hooks of several variants", function()
      local r = finish(game("bonus+last-capture", LAST, { rules_dirs = { dir } }))
      assert.equals(6, r.score[0])
      assert.equals(14, r.score[1])
    end)

    it("chains a user moves hook with a built-in rule", function()
      local g = game("forced-capture+house-lays", "hands=Kh 9c 2d / 3h; table=Ac 3s 4d 5h 9s", { rules_dirs = { dir } })
      assert.is_false(has(g:moves(), "Kh lay"))
      assert.is_false(has(g:moves(), "9c lay"))
      assert.is_true(has(g:moves(), "2d lay"))
    end)

    it("says why when a refused variant is named, not just 'unknown'", function()
      local why = resolve_error("diloti+syntax", { rules_dirs = { dir } })
      assert.matches("syntax%.lua:4", why)
    end)

    it("passes on a variant's rules function error with file and line", function()
      local why = resolve_error("failing", { rules_dirs = { dir } })
      assert.matches("^rules: house rule 'failing' %(" .. lit(dir .. "/failing.lua")
        .. "%), rules function: line 3: ", why)
    end)

    it("passes on a variant's rules function refusal", function()
      assert.matches("says%-no: never on Sundays", resolve_error("says-no", { rules_dirs = { dir } }))
    end)

    it("returns nil and a message naming the variant when its rules table has a wrong type", function()
      local ok, r, why = pcall(diloti.rules, "wrongtype", { rules_dirs = { dir } })
      assert.is_true(ok, "diloti.rules raised: " .. tostring(r))
      assert.is_nil(r)
      assert.matches("wrongtype", why)
      assert.matches("soy", why)
    end)
  end)

  describe("variants.load_source", function()
    it("returns the variant for a good script, with its file", function()
      local v = assert(variants.load_source("return { name = 'x', description = 'an x' }", "x.lua"))
      assert.equals("x", v.name)
      assert.equals("x.lua", v.file)
    end)

    it("returns nil and a message for a bad one", function()
      local v, why = variants.load_source("return { name = 'x' ", "x.lua")
      assert.is_nil(v)
      assert.matches("x%.lua:1:", why)
    end)
  end)
end)
