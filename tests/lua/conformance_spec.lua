-- Conformance: every registered game (require "diloti.registry",
-- registry.list(), plus the test-only games of tests/games read through
-- registry.add_dir) goes through the same checks of the game handle
-- (docs/architecture.md, "The game handle"; issue 26):
--   * random playouts (several seeds, whole rounds and a match) in which
--     undo, clone and a replay of the history give identical states
--     (g:position(), g:state(), g:history());
--   * every legal move of many positions parses back to itself (same
--     canonical text and kind) and is allowed by g:check;
--   * a refused move (another position's moves, malformed text, wrong
--     types) leaves the game untouched, answered nil, why;
--   * no view (each seat's, the spectator's) and no event cut for a
--     viewer (g:public) carries a card that viewer may not see, judged
--     against g:state(): the other hands and the undealt cards;
--   * end to end: records written and loaded (lua/match/record.lua), the
--     driver (lua/driver.lua) and its per-viewer events, a match
--     (lua/match/tournament.lua, `diloti match`), the terminal table
--     (lua/table/repl.lua with scripted input).
-- Nothing here names a game: a new game is covered by registering it.
-- (busted looks globals up through its contexts, slowly: the hot loops
-- below use locals)
local type, pairs, ipairs, tostring, assert, pcall = type, pairs, ipairs, tostring, assert, pcall
local string, table, math = string, table, math
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
local diloti = require "diloti"
local record = require "diloti.match.record"
local driver = require "diloti.driver"
local tournament = require "diloti.match.tournament"

local GAMES_DIR = here .. "../games" -- tests/games: the games that exist only for the tests

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local registry = require "diloti.registry"
assert(registry.add_dir(GAMES_DIR))

-- A new game of a package, through the front door (diloti.new).
local function new_game(pkg, opts)
  local o = copy(opts or {})
  o.game = pkg.name
  return diloti.new(o)
end

-- ---------------------------------------------------------------------
-- Helpers

-- A small repeatable random source (Park-Miller).
local function rng(seed)
  local x = seed % 2147483646 + 1
  return function(n)
    x = x * 48271 % 2147483647
    return x % n + 1
  end
end

-- A plain value as canonical text (sorted keys), to compare states.
local function ser(v)
  if type(v) ~= "table" then return type(v) == "string" and string.format("%q", v) or tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    return a < b
  end)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = tostring(k) .. "=" .. ser(v[k]) end
  return "{" .. table.concat(out, ",") .. "}"
end

local function snapshot(g)
  return { position = g:position(), state = ser(g:state()), history = ser(g:history()) }
end

local function same_snapshot(a, b, what)
  assert.equals(a.position, b.position, what .. ": position")
  assert.equals(a.state, b.state, what .. ": state")
  assert.equals(a.history, b.history, what .. ": history")
end

-- What a viewer may not know, and where a value names it: shared with
-- the wire's specs (tests/lua/support.lua). A word of any string counts
-- ("announce 7c 8c 9c"); `unseen` and `known_...` fields are the game's
-- word on what a seat knows, not a leak.
local hidden, leaks = support.hidden, support.leaks

local function has_public(g) return type(g.public) == "function" end
local function has_spectator(g) return (pcall(g.view, g, nil)) end

-- Every view (each seat's and, where the game offers it, the
-- spectator's) holds only what its viewer may see.
local function check_views(g, where)
  local n = g:rules().players
  for seat = 0, n - 1 do
    local bad = leaks(g:view(seat), hidden(g, seat), "view(" .. seat .. ")")
    assert(not bad, where .. ": " .. tostring(bad))
  end
  if has_spectator(g) then
    local bad = leaks(g:view(nil), hidden(g, nil), "view(nil)")
    assert(not bad, where .. ": " .. tostring(bad))
  end
end

-- What a viewer hears of another seat's move says no more than that
-- move's line in the viewer's own history(viewer): every word of its text
-- is a word of that line ("Kd nobelote" where history says "Kd" would tell
-- of a card still held). nil, or what is wrong.
local function says_more(g, e, viewer)
  local text = e.text or e.move
  local h = type(e.number) == "number" and g:history(viewer)[e.number]
  if type(text) ~= "string" or not h then return nil end
  local known = {}
  for w in tostring(h.move):gmatch("[%w]+") do known[w] = true end
  for w in text:gmatch("[%w]+") do
    if not known[w] then
      return string.format("seat %s hears '%s' of move %d, its history says '%s'", tostring(viewer), text, e.number,
        tostring(h.move))
    end
  end
end

-- The effect of a move just played as each viewer may see it: no hidden
-- card, no word its history does not show, and no number in the mover's
-- list for the others.
local function check_public(g, effect, where)
  if not has_public(g) then return end
  local n = g:rules().players
  for viewer = -1, n - 1 do
    local v = viewer >= 0 and viewer or nil
    local e = g:public(copy(effect), v)
    -- (nil: the viewer hears nothing of it, as of another seat's private keep)
    if v ~= effect.seat and e ~= nil then
      local bad = leaks(e, hidden(g, v), "public(effect, " .. tostring(v) .. ")")
      assert(not bad, where .. ": " .. tostring(bad))
      if v ~= nil then
        local more = says_more(g, e, v)
        assert(not more, where .. ": " .. tostring(more))
      end
      assert.is_nil(e.index, where .. ": another viewer hears the mover's move number")
    end
  end
end

-- Another seat's history reads as it may: no hidden card in the steps
-- of the round under way in history(seat) (an earlier round's cards are
-- dealt again).
local function check_history_views(g, where)
  local _, _, round = g:where()
  for seat = 0, g:rules().players - 1 do
    local now = {}
    for i, h in ipairs(g:history(seat)) do
      if h.round == round and h.kind ~= "next-round" then now[i] = h end
    end
    local bad = leaks(now, hidden(g, seat), "history(" .. seat .. ")")
    assert(not bad, where .. ": " .. tostring(bad))
  end
end

-- Every legal move parses back to itself, and check allows it; nothing
-- changes the game.
local function check_parse(g, where)
  local before = g:position()
  local list = g:moves(true)
  for i, m in ipairs(list) do
    local p, why = g:parse(m.text)
    assert(p, string.format("%s: parse('%s'): %s", where, m.text, tostring(why)))
    assert.equals(m.text, p.text, where .. ": canonical text")
    assert.equals(m.kind, p.kind, where .. ": kind of " .. m.text)
    local q = g:parse(i)
    assert.equals(m.text, q and q.text, where .. ": move number " .. i)
    assert.is_true((g:check(m.text)), where .. ": check('" .. m.text .. "')")
  end
  -- the count without listing is never below the list (a house rule's
  -- moves hook may only take moves away), and where() agrees
  local n = g:count()
  assert(math.type(n) == "integer" and n >= #list, where .. ": count() below the list")
  local phase, turn = g:where()
  assert.equals(g:phase(), phase, where .. ": where()'s phase")
  assert.equals(g:turn(), turn, where .. ": where()'s turn")
  assert.equals(before, g:position(), where .. ": parse changed the game")
end

-- Things that are no move: malformed text, move numbers out of range.
local BAD = { "", " ", "zz", "\0", string.rep("9", 300), "x x x", "lay lay", "-1", "1.5", "🂡", 0, -1, 1 << 40,
  { text = "zz" } }
-- Move arguments of the wrong type: answered nil, why like any refusal
-- (issue 26: "g:play{text = 1} and other bad move arguments").
local WRONG_TYPES = { true, false, 1.5, {}, { text = 1 }, { text = {} }, function() end }

-- A refused move: nil and a reason (not an error), the game untouched.
local function check_refusals(g, foreign, where, bad_list)
  local before = snapshot(g)
  local legal = {}
  for _, m in ipairs(g:moves()) do legal[m] = true end
  local tries = {}
  for _, b in ipairs(bad_list or BAD) do tries[#tries + 1] = b end
  -- (another position's move that this one reads as a legal move, in a
  -- short form, is no refusal to test)
  for _, f in ipairs(foreign or {}) do
    if not legal[f] and not g:parse(f) and #tries < #BAD + 12 then tries[#tries + 1] = f end
  end
  for _, bad in ipairs(tries) do
    local what = string.format("%s: play(%s)", where, type(bad) == "string" and string.format("%q", bad) or ser(bad))
    local ok, e, why = pcall(g.play, g, bad)
    assert(ok, what .. " raised " .. tostring(e))
    assert(e == nil and type(why) == "string" and why ~= "", what .. " was not refused with a reason")
    local pok, p, pwhy = pcall(g.parse, g, bad)
    assert(pok, what:gsub("play", "parse") .. " raised " .. tostring(p))
    assert(p == nil and type(pwhy) == "string", what:gsub("play", "parse") .. " gave a move")
    local cok, c = pcall(g.check, g, bad)
    assert(cok and c == false, what:gsub("play", "check") .. " did not answer false")
  end
  same_snapshot(before, snapshot(g), where .. ": after refused moves")
end

-- ---------------------------------------------------------------------
-- Playouts

-- Plays random moves from g: the whole round (opts.match: the whole
-- match). Every `opts.every` plies (1: each ply) it checks parse, check,
-- refusals, clone, undo, the views, the viewers' part of the move and
-- the history each seat reads; opts.light: no checks (records). opts:
-- name, seed, foreign (move texts of other positions, grows), limit.
local function playout(g, opts)
  local pick, foreign = rng(opts.seed), opts.foreign or {}
  local plies, limit, every = 0, opts.limit or 5000, opts.every or 9
  while plies < limit do
    local phase = g:phase()
    if phase == "match-over" or (phase == "round-over" and not opts.match) then break end
    local full = not opts.light and plies % every == 0
    local where = full and string.format("%s seed %d ply %d (%s)", opts.name, opts.seed, plies, g:position())
    if phase == "round-over" then
      local c = full and g:clone()
      assert(g:next_round())
      if c then
        assert(c:next_round())
        same_snapshot(snapshot(g), snapshot(c), where .. ": next_round on a clone")
      end
    else
      local moves = g:moves()
      assert(#moves > 0, "a seat to move and no legal move")
      local move = moves[pick(#moves)]
      local before, c
      if full then
        check_parse(g, where)
        check_refusals(g, foreign, where)
        check_views(g, where)
        before, c = snapshot(g), g:clone()
        same_snapshot(before, snapshot(c), where .. ": clone")
        -- undo takes the move back exactly
        assert(g:play(move))
        assert(g:undo())
        same_snapshot(before, snapshot(g), where .. ": play then undo")
      end
      local e = assert(g:play(move, true))
      assert.equals(move, e.text, "effect text")
      if full then
        assert(c:play(move, true))
        same_snapshot(snapshot(g), snapshot(c), where .. ": the same move on a clone")
        check_public(g, e, where)
        check_history_views(g, where)
      end
      foreign[#foreign + 1] = move
      if #foreign > 64 then table.remove(foreign, 1) end
    end
    plies = plies + 1
  end
  if not opts.light then check_views(g, opts.name .. " at the end") end
  return plies
end

-- A new game with the same options replays g's history to g's state.
local function check_replay(pkg, g, opts, where)
  local r = assert(new_game(pkg, opts))
  for i, h in ipairs(g:history()) do
    if h.kind == "next-round" then
      assert(r:next_round(), where .. ": next-round " .. i)
    else
      assert(r:play(h.move), where .. ": replaying " .. tostring(h.move))
    end
  end
  same_snapshot(snapshot(g), snapshot(r), where .. ": replayed")
end

-- A random player for the driver and matches, with a spy on what it hears.
local function random_player(seed, spy)
  local pick = rng(seed)
  return {
    choose = function(_, game) local m = game:moves() return m[pick(#m)], {} end,
    notify = spy and function(self, e) spy(self, e) return true end or nil,
  }
end

-- ---------------------------------------------------------------------
-- The suite

local SEEDS = { 1, 2, 3, 4, 5 }
local packages = registry.list()

describe("conformance", function()
  it("lists the games from the registry, the default first, tests/games among them", function()
    assert.is_true(#packages >= 3)
    assert.is_true(packages[1].default == true)
    assert.equals(packages[1], registry.default())
    for _, p in ipairs(packages) do
      assert.equals(p, registry.get(p.name))
      for _, b in ipairs(p.bases) do assert.equals(p, registry.of_base(b)) end
      assert.is_table(registry.part(p, "rules"))
    end
    local none, why = registry.get("no-such-game")
    assert.is_nil(none)
    assert.matches("no game 'no%-such%-game'", why)
  end)

  for _, pkg in ipairs(packages) do
    describe(pkg.name, function()
      for _, base in ipairs(pkg.bases) do
        it(base .. ": random rounds with undo, clone, parse, refusals and views at every ply", function()
          local foreign = {}
          for _, seed in ipairs(SEEDS) do
            local opts = { rules = base, seed = seed }
            local g = assert(new_game(pkg, opts))
            local name = base .. " round"
            playout(g, { name = name, seed = seed, every = seed == 1 and 1 or 5, foreign = foreign })
            assert.is_true(g:phase() == "round-over" or g:phase() == "match-over", name)
            -- what matches and records read of a finished round
            local r = g:result()
            assert.is_boolean(r.over)
            assert.is_number(r.round[0].total)
            assert.is_number(r.score[0])
            check_replay(pkg, g, opts, name .. " seed " .. seed)
          end
        end)
      end

      it("every house rule of the game: a round with the views, parse and refusals checked", function()
        local variants = diloti.variants
        if not (variants and variants.names_for and variants.catalogue) then
          pending("no catalogue of house rules here")
          return
        end
        -- The kinds of move the base rules offer first; a house rule's deal
        -- that offers another (a claim of a redeal, say) is played too.
        local usual = {}
        for seed = 1, 20 do
          for _, m in ipairs(assert(new_game(pkg, { rules = pkg.bases[1], seed = seed })):moves(true)) do
            usual[m.kind] = true
          end
        end
        local played = 0
        for i, name in ipairs(variants.names_for(variants.catalogue(), pkg.name)) do
          local spec = pkg.bases[1] .. "+" .. name
          -- (a house rule that needs a value, "target=N", makes no game alone)
          local g = not registry.of_base(name) and new_game(pkg, { rules = spec, seed = i })
          if g then
            playout(g, { name = spec, seed = i, every = 2 })
            played = played + 1
            for seed = 100, 400 do
              local u = assert(new_game(pkg, { rules = spec, seed = seed }))
              local odd = false
              for _, m in ipairs(u:moves(true)) do odd = odd or not usual[m.kind] end
              if odd then
                playout(u, { name = spec .. " (unusual deal)", seed = seed, every = 1 })
                break
              end
            end
          end
        end
        if played == 0 then pending(pkg.name .. " has no house rules") end
      end)

      it("names its game: g:game(), its rules' game field, registry.of and of_rules", function()
        for _, base in ipairs(pkg.bases) do
          local g = assert(new_game(pkg, { rules = base, seed = 1 }))
          assert.equals(pkg.name, g:game())
          assert.equals(pkg, registry.of(g))
          assert.equals(pkg.name, g:rules().game, base .. ": every rules table carries game (issue 26)")
          assert.equals(pkg, registry.of_rules(g:rules()))
        end
      end)

      it("answers a move argument of the wrong type nil, why, the game untouched (issue 26)", function()
        local g = assert(new_game(pkg, { rules = pkg.bases[1], seed = 2 }))
        check_refusals(g, nil, pkg.name .. " wrong types", WRONG_TYPES)
      end)

      it("a whole match: undo, clone and replay agree to the end", function()
        local opts = { rules = pkg.bases[1], seed = 11 }
        local g = assert(new_game(pkg, opts))
        playout(g, { name = pkg.name .. " match", seed = 11, match = true, every = 5 })
        assert.equals("match-over", g:phase())
        assert.is_true(g:result().over)
        check_replay(pkg, g, opts, pkg.name .. " match")
      end)

      it("offers the spectator's view and each viewer's part of a move (g:public, g:view(nil))", function()
        local g = assert(new_game(pkg, { rules = pkg.bases[1], seed = 5 }))
        if not has_public(g) or not has_spectator(g) then
          -- For the lead: g:public(effect, viewer) and g:view(nil) come with
          -- the C handle over ops (another branch); the playouts above check
          -- them at every ply as soon as they exist.
          pending("g:public / g:view(nil) are not in this build yet")
          return
        end
        local v = g:view(nil)
        assert.is_nil(v.hand, "the spectator holds no hand")
        local e = assert(g:play(g:moves()[1], true))
        assert.same(e, g:public(copy(e), e.seat))
      end)

      it("driver: AIs at every seat play a match; each hears no card it may not see", function()
        local g = assert(new_game(pkg, { rules = pkg.bases[1], seed = 21 }))
        local n, heard = g:rules().players, 0
        local players = {}
        for seat = 0, n - 1 do
          players[seat] = random_player(100 + seat, function(self, e)
            heard = heard + 1
            local bad = leaks(e, hidden(self._game, self.seat), "event to seat " .. self.seat)
            assert(not bad, bad)
            if e.type == "move" and e.seat ~= self.seat then
              assert.is_nil(e.index, "another seat's move number")
              local more = says_more(self._game, e, self.seat)
              assert(not more, more)
            end
          end)
        end
        local r = driver.play(g, players, { match = true })
        assert.is_true(r.over)
        assert.is_true(heard > 0)
        check_replay(pkg, g, { rules = pkg.bases[1], seed = 21 }, pkg.name .. " driver")
      end)

      it("records: saved as the table saves them, loaded to the same position", function()
        local dir = support.tmpdir()
        finally(function() support.rmdir(dir) end)
        for _, seed in ipairs({ 4, 7 }) do
          local opts = { rules = pkg.bases[1], seed = seed }
          local g = assert(new_game(pkg, opts))
          playout(g, { name = pkg.name .. " record", seed = seed, match = seed == 7, limit = 400, light = true })
          local path = dir .. "/game" .. seed .. ".dlt"
          assert(record.save(path, g, { rules = pkg.bases[1], seed = seed, date = false,
            seats = { [0] = "human" } }))
          local loaded, rec = record.load(path)
          assert(loaded, rec)
          assert.equals(g:position(), loaded:position())
          assert.equals(ser(g:history()), ser(loaded:history()))
          assert.equals(pkg.name, loaded:game())
          local text = assert(record.encode(g, { rules = pkg.bases[1], seed = seed, date = false }))
          assert.is_true(record.verify(g, text))
        end
      end)

      it("a boxed script that plays any game (game = \"any\") plays a round of it", function()
        local ai = require "diloti.ai.player"
        local dir = support.tmpdir()
        finally(function() support.rmdir(dir) end)
        local path = dir .. "/anyone.lua"
        -- (ctx's static fields, simulate and search answer in every game:
        -- a service the game lacks is nil, why, never an error)
        support.write(path, [[
return { name = "anyone", description = "any game: a move at random, after asking ctx", game = "any",
  choose = function(view, moves, ctx)
    assert(math.type(ctx.seat) == "integer" and math.type(ctx.side) == "integer" and type(view) == "table")
    assert(type(ctx.rules.game) == "string")
    local sim, why = ctx.simulate(moves[1])
    assert(sim or type(why) == "string")
    return moves[ctx.rng(#moves)]
  end }
]])
        local g = assert(new_game(pkg, { rules = pkg.bases[1], seed = 31 }))
        local players = {}
        for seat = 0, g:rules().players - 1 do
          players[seat] = assert(ai.player(path, { game = pkg.name, seed = seat }))
        end
        local r = driver.play(g, players, {})
        assert.same({}, r.warnings)
        assert.is_true(g:phase() == "round-over" or g:phase() == "match-over")
      end)

      it("a match of the tournament runner (duplicate deals, both legs)", function()
        local n = assert(new_game(pkg, { rules = pkg.bases[1], seed = 1 })):rules().players
        local cfg = { names = { "a", "b" }, nplayers = n, rules = pkg.bases[1], rounds_only = false, ai_dirs = {},
          game = pkg.name, seed = 9,
          factory = function(_, o) return random_player(o.seed) end, play = driver.play }
        local pair = tournament.play_pair(cfg, 1)
        assert.equals(2, #pair.legs)
        for _, leg in ipairs(pair.legs) do
          assert.is_true(leg.rounds >= 1)
          assert.is_truthy(leg.result == 0 or leg.result == 0.5 or leg.result == 1)
        end
      end)

      it("`diloti match` with its own AIs (the ai part's levels)", function()
        local ai = registry.part(pkg, "ai")
        if not ai or not ai.levels then
          pending(pkg.name .. "'s ai part gives no levels here (the built-in games' matches: match_spec)")
          return
        end
        local out, err, code = support.cli({ "match", ai.levels[1], ai.levels[#ai.levels], "--game", pkg.name,
          "--games", "2", "--seed", "3" }, { DILOTI_GAMES_PATH = GAMES_DIR })
        assert.equals(0, code, err)
        assert.truthy(out:find(pkg.name, 1, true), out)
        assert.matches("2 deals played twice with seats swapped: 4 matches", out, 1, true)
        -- (a field the game's parts leave out reads as a default, never as "nil")
        assert.is_nil(out:find("%f[%w]nil%f[%W]"), out)
        -- `diloti ai --game NAME` lists the players a match may name
        local list = assert(support.cli({ "ai", "--game", pkg.name }, { DILOTI_GAMES_PATH = GAMES_DIR }))
        for _, level in ipairs(ai.levels) do
          assert.truthy(("\n" .. list):find("\n" .. level .. " ", 1, true), list)
        end
      end)

      it("sits at the terminal table: plays a round by typed moves, saves and loads it", function()
        local repl = require "diloti.table.repl"
        local out = {}
        local s = assert(repl.new {
          write = function(t) out[#out + 1] = t end, read = function() return "" end,
          getenv = function(k) return ({ NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" })[k] end,
          clock = function() return 1000 end,
          extensions = { require "diloti.teach.learn", (require "diloti.teach.coach") },
          game = { game = pkg.name, seed = 8 },
        })
        s:advance()
        s:show()
        local typed = 0
        while s.g:turn() and typed < 400 do
          assert.equals(s:first_human(), s.g:turn(), "the table stops at the person's turn")
          s:handle(s.g:moves()[1])
          typed = typed + 1
        end
        assert.is_true(typed > 0)
        local phase = s.g:phase()
        assert.is_true(phase == "round-over" or phase == "match-over", phase)
        local dir = support.tmpdir()
        finally(function() support.rmdir(dir) end)
        local position = s.g:position()
        s:handle("save " .. dir .. "/t.dlt")
        assert.matches("Saved to", table.concat(out))
        s:handle("new")
        s:handle("load " .. dir .. "/t.dlt")
        assert.matches("Loaded", table.concat(out))
        assert.equals(position, s.g:position())
      end)
    end)
  end
end)
