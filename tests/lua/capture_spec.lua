-- best_capture and points (src/lua/lcapture.c, lua/games/diloti/ai_helpers.lua): what a
-- card of a rank would capture from a table, worked out by the engine's
-- own move generator under the rules in force, variants included. Checked
-- against the legal moves of thousands of positions from random games
-- under every rules variant, then called from inside a box with arguments
-- of every type and size, as an untrusted AI may call them.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"
-- (Diloti's box natives, core.natives: the engine's capture answers)
local native = core.natives("diloti")
local ai = require "diloti.ai"

local RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }
local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"
-- Positions per rules spec in the random sweep (a tenth under the
-- sanitizers, as the C sweeps).
local SWEEP = tonumber(os.getenv("DL_CAPTURE_N")) or
  ((os.getenv("LD_PRELOAD") or ""):find("asan", 1, true) and 60 or 400)

local function rank_of(card) return card:sub(1, -2) end

local function card_points(c, p)
  if c:sub(1, 1) == "A" then return p.ace end
  if c == "10d" then return p.ten_diamonds end
  if c == "2c" then return p.two_clubs end
  return 0
end

local function clubs_of(cards)
  local n = 0
  for _, c in ipairs(cards) do if c:sub(-1) == "c" then n = n + 1 end end
  return n
end

local function table_cards(tbl)
  local all = {}
  for _, c in ipairs(tbl.loose) do all[#all + 1] = c end
  for _, d in ipairs(tbl.declarations) do
    for _, c in ipairs(d.cards) do all[#all + 1] = c end
  end
  return all
end

-- The best capture of a card of `rank` among the legal moves (most
-- cards, then points, then clubs when clubs score), as {count, points,
-- clubs, sweep}; nil when there is none. Only meaningful when the seat to
-- move holds that rank.
local function best_of_moves(moves, tbl, rules, rank)
  local decl = {}
  for _, d in ipairs(tbl.declarations) do decl[d.ref] = d.cards end
  local total = #table_cards(tbl)
  local clubs_score = rules.points.clubs > 0
  local best
  for _, m in ipairs(moves) do
    if m.kind == "capture" and rank_of(m.card) == rank then
      local cards = {}
      for _, item in ipairs(m.takes) do
        for _, c in ipairs(decl[item] or { item }) do cards[#cards + 1] = c end
      end
      local p = 0
      for _, c in ipairs(cards) do p = p + card_points(c, rules.points) end
      local mine = { count = #cards, points = p, clubs = clubs_score and clubs_of(cards) or 0 }
      if not best or mine.count > best.count or (mine.count == best.count and (mine.points > best.points
          or (mine.points == best.points and mine.clubs > best.clubs))) then
        best = mine
      end
    end
  end
  if best then best.sweep = best.count == total end
  return best
end

local function holds(hand, rank)
  for _, c in ipairs(hand) do if rank_of(c) == rank then return true end end
  return false
end

-- What a best_capture answer must be whatever the hand: its own cards
-- counted and scored, all of them on the table, sorted in card order.
local ORDER = {}
for i, r in ipairs(RANKS) do
  for j, s in ipairs{ "c", "d", "h", "s" } do ORDER[r .. s] = i * 4 + j end
end
local function consistent(cap, tbl, rules, where)
  local on = {}
  for _, c in ipairs(table_cards(tbl)) do on[c] = true end
  assert.equals(#cap.cards, cap.count, where)
  local p = 0
  for i, c in ipairs(cap.cards) do
    assert(on[c], where .. ": " .. c .. " is not on the table")
    if i > 1 then assert(ORDER[cap.cards[i - 1]] < ORDER[c], where .. ": cards out of order") end
    p = p + card_points(c, rules.points)
  end
  assert.equals(p, cap.points, where)
  assert.equals(#table_cards(tbl) == cap.count, cap.sweep, where)
end

-- Plays random legal moves from a seeded game and calls fn(g) in every
-- position where a card is to be played, n times in all.
local function random_positions(spec, seed, n, fn)
  local g = assert(diloti.new{ rules = spec, seed = seed })
  local rng = ai.rng(seed)
  local seen = 0
  while seen < n do
    local phase = g:phase()
    if phase == "match-over" then
      seed = seed + 1
      g = assert(diloti.new{ rules = spec, seed = seed })
    elseif phase == "round-over" then
      g:next_round()
    else
      if phase == "play" then
        fn(g)
        seen = seen + 1
      end
      local moves = g:moves()
      assert(g:play(moves[rng(#moves)]))
    end
  end
end

-- Every variant shipped, each on the base game it goes with, and the
-- combinations that bear on captures.
local function specs()
  local out = { "diloti", "kontsina", "diloti+players=4", "kontsina+players=3", "kontsina+players=4",
                "diloti+liberal-capture+forced-capture", "diloti+liberal-capture+liberal-group+liberal-raise+soy",
                "diloti+three-face-cards+forced-capture", "diloti+players=4+liberal-capture+three-face-cards",
                "kontsina+players=4+forced-capture", "kontsina+players=4+teams", "diloti+players=4+soy+forced-capture" }
  local names = {}
  -- (Diloti's house rules only: Pilotta's are for a game without captures)
  for file in pairs(core.embedded("rules-variants/diloti/")) do
    local name = file:match("([^/]+)%.lua$")
    if name and name ~= "diloti" and name ~= "kontsina" then
      names[#names + 1] = name
    end
  end
  table.sort(names)
  for _, name in ipairs(names) do
    local found
    for _, spec in ipairs{ "diloti+" .. name, "kontsina+" .. name, "diloti+players=4+" .. name } do
      if not found and diloti.new{ rules = spec, seed = 1 } then found = spec end
    end
    out[#out + 1] = assert(found, "no base game takes " .. name)
  end
  return out
end

describe("best_capture", function()
  describe("agrees with the legal moves", function()
    local checked = { positions = 0, held = 0, captures = 0, liberal = 0 }

    local function sweep(spec, seed)
      random_positions(spec, seed, SWEEP, function(g)
        local seat = g:turn()
        local view, rules, moves = g:view(seat), g:rules(), g:moves(true)
        checked.positions = checked.positions + 1
        for _, rank in ipairs(RANKS) do
          local where = string.format("%s, %s, %s with %s", spec, g:position(), rank, table.concat(view.hand, " "))
          local cap, why = ai.best_capture(rank, view.table, rules)
          assert(cap ~= nil or why == nil, where .. ": " .. tostring(why))
          if cap then consistent(cap, view.table, rules, where) end
          if holds(view.hand, rank) then
            checked.held = checked.held + 1
            local want = best_of_moves(moves, view.table, rules, rank)
            if want then
              checked.captures = checked.captures + 1
              assert(cap, where .. ": a capture was missed")
              assert.same({ want.count, want.points, want.sweep }, { cap.count, cap.points, cap.sweep }, where)
              if rules.points.clubs > 0 then assert.equals(want.clubs, clubs_of(cap.cards), where) end
              if rules.liberal_capture then
                for _, c in ipairs(cap.cards) do
                  for _, d in ipairs(view.table.declarations) do
                    if d.kind == "plain" and d.value ~= (tonumber(rank) or 1) and d.cards[1] == c then
                      checked.liberal = checked.liberal + 1
                    end
                  end
                end
              end
            else
              assert(cap == nil, where .. ": no legal capture, but best_capture took " ..
                table.concat(cap and cap.cards or {}, " "))
            end
          end
        end
      end)
    end

    for i, spec in ipairs(specs()) do
      it("under " .. spec, function() sweep(spec, 1000 + i) end)
    end

    it("over thousands of positions, held ranks and captures among them", function()
      assert.is_true(checked.positions >= 20 * SWEEP, "positions: " .. checked.positions)
      assert.is_true(checked.captures > checked.positions, "captures: " .. checked.captures)
      -- Plain declarations taken as single cards did come up (C5).
      assert.is_true(checked.liberal > 0, "liberal captures: " .. checked.liberal)
    end)
  end)

  describe("follows the rules in force", function()
    -- Seat 1 owns a plain 5 (2c+3d); a 9 takes it with the 4 only when a
    -- plain declaration counts as a single card of its value (C5).
    local POS = "hands=9s / 5c; table=4h P5@1(2c+3d)"

    it("V-liberal-capture: a plain declaration counts as a card of its value", function()
      local g = assert(diloti.new{ rules = "diloti+liberal-capture", position = POS })
      assert.same({ "9s x 4h P5@1", "9s lay" }, g:moves())
      local cap = ai.best_capture("9", g:view(0).table, g:rules())
      assert.same({ cards = { "2c", "3d", "4h" }, count = 3, points = 1, sweep = true }, cap)
      local plain = assert(diloti.new{ position = POS })
      assert.is_nil(ai.best_capture("9", plain:view(0).table, plain:rules()))
    end)

    it("an AI's ctx.best_capture, inside its box, follows the game's variants too", function()
      local dir = support.tmpdir()
      local path = support.write(dir .. "/peek.lua", [[return { name = "peek", description = "peek",
        choose = function(view, moves, ctx)
          local c = ctx.best_capture("9")
          return moves[1], tostring(c and c.count) .. " " .. ctx.points({ "Ah", "2c" })
        end }]])
      local p = assert(ai.player(path))
      support.rmdir(dir)
      local _, info = p:choose(assert(diloti.new{ rules = "diloti+liberal-capture", position = POS }), 0)
      assert.equals("3 2", info.note)
      _, info = p:choose(assert(diloti.new{ position = POS }), 0)
      assert.equals("nil 2", info.note)
    end)

    it("Kontsina (K2): one combination, the best of them", function()
      local g = assert(diloti.new{ rules = "kontsina", position = "hands=8h / 9c; table=8c 6d 2c 5s 3h" })
      local cap = ai.best_capture("8h", g:view(0).table, g:rules())
      -- 8c alone, 6d+2c or 5s+3h, never two at once; the 2 of clubs
      -- decides between the pairs.
      assert.same({ cards = { "2c", "6d" }, count = 2, points = 1, sweep = false }, cap)
    end)

    it("V-three-face-cards: the fourth takes all three", function()
      local pos = "hands=Kh / 9c; table=Kc Kd Ks 5h"
      local three = assert(diloti.new{ rules = "diloti+three-face-cards", position = pos })
      assert.same({ cards = { "Kc", "Kd", "Ks" }, count = 3, points = 0, sweep = false },
        ai.best_capture("K", three:view(0).table, three:rules()))
      local plain = assert(diloti.new{ position = "hands=Kh / 9c; table=Kc 5h" })
      assert.same({ cards = { "Kc" }, count = 1, points = 0, sweep = false },
        ai.best_capture("K", plain:view(0).table, plain:rules()))
    end)

    it("a sweep takes every loose card and every declaration", function()
      local g = assert(diloti.new{ position = EX1 })
      local cap = ai.best_capture("8", g:view(0).table, g:rules())
      assert.same({ cards = { "2c", "3h", "5s", "6d", "8c" }, count = 5, points = 1, sweep = true }, cap)
    end)
  end)

  describe("reads what it is given", function()
    local rules = core.base_rules("diloti", "diloti")
    local tbl = { loose = { "8c", "6d", "5s", "3h", "2c" }, declarations = {} }

    it("a card in any spelling, a value or a rank", function()
      local want = native.best_capture("8", tbl, rules)
      assert.equals(5, want.count)
      for _, what in ipairs{ "8h", "8H", "8\u{2665}", "8\u{2661}", 8, 8.0, "8c" } do
        assert.same(want, native.best_capture(what, tbl, rules), tostring(what))
      end
      assert.same(native.best_capture("10", { loose = { "Ad", "9s" }, declarations = {} }, rules),
        native.best_capture("T\u{2666}\u{FE0F}", { loose = { "Ad", "9s" }, declarations = {} }, rules))
    end)

    it("nil when a card of the rank takes nothing, or all four are on the table", function()
      assert.is_nil(native.best_capture("J", tbl, rules))
      assert.is_nil(native.best_capture(1, tbl, rules))
      assert.is_nil(native.best_capture("7", { loose = { "7c", "7d", "7h", "7s" }, declarations = {} }, rules))
      -- (7c itself is on the table: the 7 left plays)
      assert.same({ cards = { "7c", "7d", "7h" }, count = 3, points = 0, sweep = true },
        native.best_capture("7c", { loose = { "7c", "7d", "7h" }, declarations = {} }, rules))
    end)

    it("rules default to Diloti's; a partial rules table builds on the base game its capture names", function()
      assert.same(native.best_capture("8", tbl, rules), native.best_capture("8", tbl))
      assert.same({ cards = { "2c", "6d" }, count = 2, points = 1, sweep = false },
        native.best_capture("8", tbl, { capture = "one" }))
    end)

    it("host and box share the C function; points follow the rules", function()
      assert.equals(native.best_capture, native.best_capture)
      assert.equals(4, native.points({ "Ah", "10d", "2c", "5s" }))
      assert.equals(2, native.points({ "Ah", "10d", "2c", "5s" }, core.base_rules("diloti", "kontsina")))
      assert.equals(0, native.points({}, rules))
      assert.equals(ai.points({ "Ad", "As" }, rules), native.points({ "Ad", "As" }, rules))
    end)

    it("refuses nonsense with a reason", function()
      local function refused(pattern, ...)
        local cap, why = native.best_capture(...)
        assert.is_nil(cap)
        assert.is_string(why)
        assert.matches(pattern, why)
      end
      refused("twice", "8", { loose = { "8c", "8c" } }, rules)
      refused("not a card", "8", { loose = { "8c", "8x" } }, rules)
      refused("not a card", "8", { loose = { "8c", 8 } }, rules)
      local long = {}
      for i = 1, 53 do long[i] = "8c" end
      refused("more than 52", "8", { loose = long }, rules)
      refused("twice", "8", { loose = { "2c" }, declarations = { { kind = "plain", value = 8, owner = 1,
        cards = { "2c", "6d" } } } }, rules)
      refused("value", "8", { loose = {}, declarations = { { kind = "plain", value = 264, owner = 1,
        cards = { "2c", "6d" } } } }, rules)
      refused("sum", "8", { loose = {}, declarations = { { kind = "plain", value = 7, owner = 1,
        cards = { "2c", "6d" } } } }, rules)
      refused("owner", "8", { loose = {}, declarations = { { kind = "plain", value = 8, owner = 2,
        cards = { "2c", "6d" } } } }, rules)
      refused("declarations", "8", { loose = {}, declarations = { {}, {}, {}, {}, {} } }, rules)
      refused("K2", "8", { loose = {}, declarations = { { kind = "plain", value = 8, owner = 1,
        cards = { "2c", "6d" } } } }, core.base_rules("diloti", "kontsina"))
      refused("rules", "8", tbl, { players = 3 })
      assert.has_error(function() native.best_capture("8", tbl, { capture = 1 }) end)
      assert.has_error(function() native.best_capture("Z", tbl, rules) end)
      assert.has_error(function() native.best_capture("8", "table", rules) end)
    end)
  end)

  describe("inside a box, every argument hostile", function()
    -- The script gets the box's own best_capture and points, calls them
    -- with every kind of nonsense, and reports what each call gave: a
    -- table, an integer, nil (and a reason), or an error caught by pcall.
    local ATTACK = [==[
      local bc, pts, rules = ...
      local out = {}
      local function try(name, f, ...)
        local ok, a, b = pcall(f, ...)
        local what
        if not ok then what = type(a) == "string" and "error" or "odd-error"
        elseif type(a) == "table" then what = "table"
        elseif a == nil and type(b) == "string" then what = "refused"
        elseif a == nil and b == nil then what = "nil"
        elseif math.type(a) == "integer" then what = "integer"
        else what = "odd-" .. type(a) end
        out[#out + 1] = name .. "=" .. what
      end
      local big = {}
      for i = 1, 1000000 do big[i] = "7h" end
      local huge_string = ("x"):rep(1 << 20)
      local evil = setmetatable({}, { __index = function() error("index ran") end,
        __len = function() error("len ran") end, __pairs = function() error("pairs ran") end })
      local loops = setmetatable({}, { __index = function(t, k) return t[k] end })
      local cyclic = {}
      cyclic.loose, cyclic.declarations = cyclic, { cyclic }
      local T = { loose = { "3c", "4d" } }
      -- what: the card, value or rank
      for name, w in pairs{ yes = true, zero = 0, eleven = 11, minus = -1, maxint = math.maxinteger,
          minint = math.mininteger, nan = 0 / 0, inf = 1 / 0, ninf = -1 / 0, half = 7.5, empty = "", Z = "Z",
          ["7x"] = "7x", ["11c"] = "11c", one = "1", huge = huge_string, tbl = {}, evil = evil,
          fn = function() end, big = big, nul = "7h\0", rank_nul = "A\0" } do
        try("what:" .. name, bc, w, T, rules)
      end
      try("what:nil", bc, nil, T, rules)
      for name, w in pairs{ ["10"] = "10", A = "A", J = "J", ["7h"] = "7h", ["7H"] = "7H", seven = 7,
          sevenf = 7.0, ["10d"] = "10\u{2666}", Qs = "Q\u{2660}\u{FE0F}" } do
        try("ok:" .. name, bc, w, T, rules)
      end
      -- tbl: the table
      for name, t in pairs{ one = 1, x = "x", fn = function() end } do try("badtbl:" .. name, bc, "5", t, rules) end
      try("badtbl:nil", bc, "5", nil, rules)
      for name, t in pairs{ empty = {}, evil = evil, loops = loops, evil_loose = { loose = evil },
          meta = setmetatable({ loose = { "5c" } }, { __index = function() error("index ran") end }) } do
        try("tbl:" .. name, bc, "5", t, rules)
      end
      local function decl(t) return { loose = { "Ac" }, declarations = { t } } end
      local BAD = {
        cyclic = cyclic, loose_string = { loose = "7h" }, loose_numbers = { loose = { 1, 2 } },
        twice = { loose = { "7h", "7h" } }, big = { loose = big }, huge = { loose = { huge_string } },
        nul = { loose = { "7h\0" } }, decls_big = { declarations = big }, five = { declarations = { 1, 2, 3, 4, 5 } },
        decl_number = { declarations = { 7 } }, decls_string = { declarations = "P5@1" },
        d_empty = decl{}, d_kindless = decl{ value = 5, owner = 1, cards = { "2c", "3d" } },
        d_kind = decl{ kind = "x", value = 5, owner = 1, cards = { "2c", "3d" } },
        d_kind_nul = decl{ kind = "plain\0", value = 5, owner = 1, cards = { "2c", "3d" } },
        d_v0 = decl{ kind = "plain", value = 0, owner = 1, cards = { "2c", "3d" } },
        d_v261 = decl{ kind = "plain", value = 261, owner = 1, cards = { "2c", "3d" } },
        d_vmax = decl{ kind = "plain", value = math.maxinteger, owner = 1, cards = { "2c", "3d" } },
        d_vnan = decl{ kind = "plain", value = 0 / 0, owner = 1, cards = { "2c", "3d" } },
        d_vhalf = decl{ kind = "plain", value = 5.5, owner = 1, cards = { "2c", "3d" } },
        d_vstring = decl{ kind = "plain", value = "5", owner = 1, cards = { "2c", "3d" } },
        d_oneg = decl{ kind = "plain", value = 5, owner = -1, cards = { "2c", "3d" } },
        d_o256 = decl{ kind = "plain", value = 5, owner = 256, cards = { "2c", "3d" } },
        d_obig = decl{ kind = "plain", value = 5, owner = 1 << 40, cards = { "2c", "3d" } },
        d_o2 = decl{ kind = "plain", value = 5, owner = 2, cards = { "2c", "3d" } },
        d_sum = decl{ kind = "plain", value = 5, owner = 1, cards = { "2c", "4d" } },
        d_single = decl{ kind = "plain", value = 5, owner = 1, cards = { "5c" } },
        d_loose_too = decl{ kind = "plain", value = 5, owner = 1, cards = { "Ac", "4d" } },
        d_face = decl{ kind = "plain", value = 5, owner = 1, cards = { "2c", "3d", "Kc" } },
        d_cards_big = decl{ kind = "plain", value = 5, owner = 1, cards = big },
        d_cards_evil = decl{ kind = "plain", value = 5, owner = 1, cards = evil },
        d_cards_cyclic = decl(cyclic),
        g_no_comp = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" } },
        g_one_comp = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { { "2c", "3d" } } },
        g_bad_sum = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { { "2c" }, { "3d", "5h" } } },
        g_twice = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { { "2c", "3d" }, { "5h" }, { "5h" } } },
        g_other = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { { "2c", "3d" }, { "5s" } } },
        g_comp_big = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" }, components = big },
        g_comp_of_big = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { big, { "5h" } } },
        g_comp_strings = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { "2c", "5h" } },
        g_missing = decl{ kind = "group", value = 5, owner = 1, cards = { "2c", "3d", "5h" },
          components = { { "2c", "3d" } , {} } },
        p_two_comps = decl{ kind = "plain", value = 5, owner = 1, cards = { "2c", "3d" },
          components = { { "2c" }, { "3d" } } },
        two_owned = { declarations = {
          { kind = "plain", value = 5, owner = 1, cards = { "2c", "3d" } },
          { kind = "plain", value = 7, owner = 1, cards = { "2d", "5d" } } } },
      }
      for name, t in pairs(BAD) do
        try("bad:" .. name, bc, "5", t, rules)
        try("bad:" .. name, bc, "Ac", t, rules) -- (the same word twice: both must refuse)
      end
      -- rules
      for name, r in pairs{ one = 1, x = "x", capture1 = { capture = 1 }, capture2 = { capture = "two" },
          points_x = { points = "x" }, points_big = { points = { ace = 1 << 40 } },
          points_key = { points = { [1] = 2 } },
          players_half = { players = 2.5 }, key1 = { [1] = true }, key_huge = { [huge_string] = true },
          key_long = { [("k"):rep(40)] = true }, big = big, unknown = { foo = 1 } } do
        try("badrules:" .. name, bc, "5", T, r)
      end
      for name, r in pairs{ players5 = { players = 5 }, liberal_one = { liberal_capture = true, capture = "one" },
          hand0 = { hand_size = 0 } } do
        try("wrongrules:" .. name, bc, "5", T, r)
      end
      for name, r in pairs{ empty = {}, evil = evil, points_evil = { points = evil },
          nodecl = { declarations = false } } do
        try("okrules:" .. name, bc, "7", T, r)
      end
      try("okrules:nil", bc, "7", T, nil)
      -- points
      for name, c in pairs{ one = 1, x = "x", fn = function() end } do try("badpoints:" .. name, pts, c, rules) end
      try("badpoints:nil", pts, nil, rules)
      for name, c in pairs{ big = big, twice = { "Ah", "Ah" }, number = { 1 }, huge = { huge_string },
          nested = { { "Ah" } }, bool = { true } } do
        try("refpoints:" .. name, pts, c, rules)
      end
      for name, c in pairs{ empty = {}, evil = evil, loops = loops, two = { "Ah", "10\u{2666}" } } do
        try("okpoints:" .. name, pts, c, rules)
      end
      for name, r in pairs{ one = 1, capture1 = { capture = 1 }, big = big } do
        try("badpointsrules:" .. name, pts, { "Ah" }, r)
      end
      return table.concat(out, " ")
    ]==]

    local function attack(rules)
      local b = core.box.new{ label = "capture attacker", time = 20, budget = 1e9 }
      local ok, f = b:run("return function(...) " .. ATTACK .. " end", "=attack")
      assert(ok, f)
      local report = f(native.best_capture, native.points, rules)
      b:close()
      local by, n = {}, 0
      for name, what in report:gmatch("(%S+)=(%S+)") do
        assert(by[name] == nil or by[name] == what, name .. ": " .. tostring(by[name]) .. " and " .. what)
        by[name] = what
        n = n + 1
      end
      return by, n
    end

    it("never crashes, and refuses or raises on every piece of nonsense", function()
      for _, rules in ipairs{ core.base_rules("diloti", "diloti"), core.base_rules("diloti", "kontsina") } do
        local by, n = attack(rules)
        assert.is_true(n > 150, "calls: " .. n)
        for name, what in pairs(by) do
          local kind = name:match("^(%w+):")
          local want = ({ what = "error", badtbl = "error", badrules = "error", badpoints = "error",
            badpointsrules = "error", bad = "refused", wrongrules = "refused", refpoints = "refused",
            okpoints = "integer" })[kind]
          if want then
            assert.equals(want, what, name)
          else
            assert(what == "table" or what == "nil", name .. " gave " .. what)
          end
        end
        assert.equals("table", by["ok:7h"])
        assert.equals("table", by["ok:seven"])
        assert.equals("table", by["okrules:evil"])
        assert.equals("nil", by["ok:J"])
      end
    end)

    it("is the box's own function: it works in a later call, not passed again", function()
      local b = core.box.new{ label = "keeper" }
      local ok, keep, use = b:run([[
        local kept
        return function(f) kept = f end,
          function() return kept("8", { loose = { "8c", "2d", "6s" } }).count end]], "=k")
      assert(ok, keep)
      keep(native.best_capture)
      assert.equals(3, use())
      b:close()
    end)

    it("stops at once on a table too crowded to work out, in a box and on the host", function()
      -- 36 numerals up to 9 on the table: the ways a 10 could take them
      -- run to millions of millions. Refused in a few ms, never left to run.
      local child = support.spawn([[
        local diloti = require "diloti"
        local core = require "diloti.core"
        local native = core.natives("diloti")
        local loose = {}
        for _, r in ipairs{ "A", "2", "3", "4", "5", "6", "7", "8", "9" } do
          for s in ("cdhs"):gmatch(".") do loose[#loose + 1] = r .. s end
        end
        local t0 = os.clock()
        local cap, why = native.best_capture("10", { loose = loose, declarations = {} })
        local b = core.box.new{ time = 1 }
        local ok, f = b:run("return function(bc, t) return bc('10h', t) end")
        local ok2, cap2, why2 = pcall(f, native.best_capture, { loose = loose, declarations = {} })
        print(tostring(cap), why, ok2, tostring(cap2), why2, os.clock() - t0 < 2)
      ]], 20)
      local out, code = child.wait()
      assert.equals(0, code, out)
      assert.matches("^nil\t[^\n]*crowded[^\n]*\ttrue\tnil\t[^\n]*crowded[^\n]*\ttrue", out)
    end)
  end)
end)
