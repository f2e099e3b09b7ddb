-- Pilotta's AIs (lua/games/diloti/ai/random.lua and follower.lua) in the
-- same sandboxed choose(view, moves, ctx) API as Diloti's: the catalogue
-- knows which game each AI plays, both AIs stay legal over many deals
-- and are deterministic by seed, the follower keeps its few rules, and
-- nothing an AI reads depends on cards its seat may not see (P50).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"
local driver = require "diloti.driver"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local written = 0
-- A player from a script's body (its name is filled in as NAME).
local function player_of(body, opts)
  written = written + 1
  local name = "pl" .. written
  local dir = tmp .. "/d" .. written
  os.execute("mkdir -p " .. support.q(dir))
  local path = support.write(dir .. "/" .. name .. ".lua", "local NAME = '" .. name .. "'\n" .. body)
  return assert(ai.player(path, opts))
end

local function pilotta(o)
  o = o or {}
  o.rules = o.rules or "pilotta"
  return assert(diloti.new(o))
end

-- Four players of the named AIs (one name for every seat, or a list).
local function seats(names, seed)
  local ps = {}
  for s = 0, 3 do
    local n = type(names) == "table" and names[s + 1] or names
    ps[s] = assert(ai.player(n, { seed = (seed or 0) * 10 + s, game = "pilotta" }))
  end
  return ps
end

-- Plays a whole round; returns the result and the log of moves (seat,
-- move, info).
local function round(g, ps)
  local log = {}
  local r = ai.play(g, ps, { on_move = function(seat, move, info)
    log[#log + 1] = { seat = seat, move = move, info = info }
  end })
  return r, log
end

describe("Pilotta AIs", function()
  describe("the catalogue", function()
    it("knows the game each AI plays", function()
      local found = ai.catalogue()
      assert.equals("pilotta", found.follower.game)
      assert.equals("any", found.random.game)
      assert.equals("diloti", found.greedy.game)
      assert.equals("diloti", found.master.game)
    end)

    it("refuses an AI of another game, and a script naming no known game", function()
      local p, why = ai.player("greedy", { game = "pilotta" })
      assert.is_nil(p)
      assert.equals("AI 'greedy' plays diloti, not pilotta (see 'diloti ai')", why)
      p, why = ai.player("follower", { game = "kontsina" })
      assert.is_nil(p)
      assert.matches("AI 'follower' plays pilotta, not diloti", why, 1, true)
      assert.is_table(ai.player("random", { game = "pilotta" }))
      assert.is_table(ai.player("random", { game = "diloti" }))
      local dir = tmp .. "/badgame"
      os.execute("mkdir -p " .. support.q(dir))
      support.write(dir .. "/chess.lua", "return { name = 'chess', description = 'x', game = 'chess', "
        .. "choose = function(_, m) return m[1] end }")
      p, why = ai.player(dir .. "/chess.lua")
      assert.is_nil(p)
      assert.matches("field 'game' must be 'diloti', 'pilotta' or 'any', not 'chess'", why, 1, true)
    end)

    it("never calls an AI at a game it does not play: the decision is lost with a warning", function()
      local g = pilotta{ seed = 3 }
      local p = assert(ai.player("greedy"))
      local move, info = p:choose(g, g:turn())
      assert.is_true(info.fallback)
      assert.matches("it plays diloti, not pilotta", info.warning, 1, true)
      assert.is_truthy(g:check(move))
    end)

    it("lists the AIs per game for `diloti ai`", function()
      local out, saved = {}, _G.print
      _G.print = function(s) out[#out + 1] = s end
      local ok, err = pcall(ai.cli_list, {})
      _G.print = saved
      assert.is_true(ok, err)
      local text = table.concat(out, "\n")
      local d, p = text:find("Diloti and Kontsina:", 1, true), text:find("\nPilotta:", 1, true)
      assert.is_truthy(d)
      assert.is_truthy(p)
      local diloti_part, pilotta_part = text:sub(d, p), text:sub(p)
      assert.matches("\ngreedy ", diloti_part, 1, true)
      assert.matches("\nrandom ", diloti_part, 1, true)
      assert.is_nil(diloti_part:find("\nfollower ", 1, true))
      assert.matches("\nfollower +Plays its highest winner", pilotta_part)
      assert.matches("\nrandom ", pilotta_part, 1, true)
      assert.is_nil(pilotta_part:find("\ngreedy ", 1, true))
      assert.matches("'easy'; 2 of %d+ on the ladder", pilotta_part) -- (Pilotta's own ladder)
    end)
  end)

  describe("play", function()
    for _, pairing in ipairs{ { "random" }, { "follower" }, { "follower", "random", "follower", "random" } } do
      local label = table.concat(pairing, "+")
      it(label .. " plays only legal moves through many rounds, house rules too", function()
        local n = 0
        for seed = 1, 24 do
          local rules = ({ "pilotta", "pilotta+partner-exempt", "pilotta+suit-after-auction",
            "pilotta+contra-after-auction" })[seed % 4 + 1]
          local g = diloti.new{ rules = rules, seed = seed }
          if not g then g = pilotta{ seed = seed } end -- (a house rule not there: the base game)
          local names = #pairing == 1 and pairing[1] or pairing
          local r, log = round(g, seats(names, seed))
          assert.same({}, r.warnings)
          for _, l in ipairs(log) do assert.is_nil(l.info.fallback, l.info.warning) end
          assert.equals("round-over", g:phase())
          n = n + #log
        end
        assert.is_true(n > 24 * 4)
      end)
    end

    it("is deterministic by seed", function()
      local function history(seed, names)
        local _, log = round(pilotta{ seed = 9 }, seats(names, seed))
        local t = {}
        for i, l in ipairs(log) do t[i] = l.move end
        assert.is_true(#t >= 4)
        return table.concat(t, ",")
      end
      for _, names in ipairs{ "random", "follower" } do
        assert.equals(history(1, names), history(1, names))
      end
      assert.are_not.equal(history(1, "random"), history(2, "random"))
      -- the follower draws nothing at random: the seed changes nothing
      assert.equals(history(1, "follower"), history(2, "follower"))
    end)
  end)

  describe("the follower", function()
    local function choice(position, seat)
      local g = pilotta{ position = position, seed = 1 }
      local p = assert(ai.player("follower", { game = "pilotta" }))
      local move, info = p:choose(g, seat or g:turn())
      assert.is_nil(info.fallback, info.warning)
      return move
    end

    it("bids only on long strong trumps, at the lowest value, and otherwise passes", function()
      -- Jack and four more hearts: 90 at most, opening at 80
      assert.equals("80h", choice("dealer=3; hands=Jh 7h 8h Kh Qh 7c 8c 9d / ?8 / ?8 / ?8", 0))
      -- Jack, Nine and two more: 80 over nothing; nothing over 80
      assert.equals("80s", choice("dealer=3; hands=Js 9s 7s 8s Ac Ad Ah 7c / ?8 / ?8 / ?8", 0))
      assert.equals("pass", choice("dealer=2; calls=80d; hands=Js 9s 7s 8s Ac Ad Ah 7c / ?8 / ?8 / ?8", 0))
      -- Aces and no long suit: pass
      assert.equals("pass", choice("dealer=3; hands=Ac Ad Ah As Kc Kd Kh Ks / ?8 / ?8 / ?8", 0))
      -- five hearts with Jack and Nine are worth 100: over 90 it bids 100
      assert.equals("100h", choice("dealer=2; calls=90d; hands=Jh 9h 7h 8h Qh 7c 8c 9d / ?8 / ?8 / ?8", 0))
    end)

    it("never bids over its partner and never says contra", function()
      -- seat 2 (its partner) holds 80h; an opponent's 90d stands and contra is open
      assert.equals("pass", choice("dealer=3; calls=80c, pass; hands=?8 / ?8 / Jc 9c 7c 8c Qc 7d 8d 9d / ?8", 2))
      assert.equals("pass", choice("dealer=3; calls=80c; hands=?8 / Ah Ad As Kh Kd Ks 7c 8c / ?8 / ?8", 1))
    end)

    it("plays its highest winner, else its lowest card", function()
      local deal = "dealer=3; calls=80h, pass, pass, pass; "
      -- seat 1 after 0:Kd: Ad wins (the highest winner), 10d would too
      assert.equals("Ad", choice(deal .. "hands=?7 / Ad 10d 7d 8c 10c 7s 9s Js / ?8 / ?8; tricks=Kd", 1))
      -- seat 1 after 0:Ad: nothing wins; its lowest diamond
      assert.equals("7d", choice(deal .. "hands=?7 / Kd 10d 7d 8c 10c 7s 9s Js / ?8 / ?8; tricks=Ad", 1))
    end)
  end)

  describe("what a Pilotta AI can know (P50)", function()
    -- Everything an AI reads in a decision, as text with sorted keys: the
    -- view, the moves, ctx's fields (the lazy ones too) and ctx.simulate
    -- of every move; its digest comes back as the AI's note.
    local SPY = [[
      local function dump(v, out)
        local t = type(v)
        if t == "table" then
          local keys = {}
          for k in pairs(v) do keys[#keys + 1] = k end
          table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
          out[#out + 1] = "{"
          for _, k in ipairs(keys) do
            out[#out + 1] = tostring(k) .. "="
            dump(v[k], out)
          end
          out[#out + 1] = "}"
        elseif t ~= "function" then
          out[#out + 1] = tostring(v) .. ";"
        end
      end
      local function digest(s)
        local h = 0xcbf29ce484222325
        for i = 1, #s do h = (h ~ s:byte(i)) * 0x100000001b3 end
        return string.format("%x", h)
      end
      return { name = NAME, description = "spy", game = "pilotta", choose = function(view, moves, ctx)
        local out = {}
        dump(view, out) dump(moves, out) dump(ctx, out)
        for _, m in ipairs(moves) do dump({ ctx.simulate(m) }, out) end
        local text = table.concat(out, "")
        return moves[1], digest(text) .. " " .. #text
      end }]]

    -- The digest of what the spy reads at `seat` in a position whose
    -- hidden hands (?N) are dealt from `seed`; and the game.
    local function spy(position, seed, seat)
      local g = pilotta{ position = position, seed = seed }
      local p = player_of(SPY, { seed = 1 })
      local _, info = p:choose(g, seat)
      assert.is_nil(info.fallback, info.warning)
      return info.note, g
    end

    -- The same, read by the host: the view, the moves and every field
    -- the ctx of a decision is built from.
    local function host_reads(g, seat)
      local ctx = require "diloti.ai.ctx"
      local p = { _rules = g:rules(), _box = { random = function() return 0 end, time_left = function() end } }
      local data = ctx.decision_data(p, g, seat)
      local got = { moves = g:moves() }
      for _, k in ipairs{ "view", "unseen", "moves_info", "rules" } do got[k] = data.host("more", k) end
      got.simulated = {}
      for i, m in ipairs(got.moves) do got.simulated[i] = { data.host("simulate", m) } end
      data.host, data.rng, data.time_left = nil, nil, nil
      got.ctx = data
      return got
    end

    local function same_for(position, seat)
      local a, ga = spy(position, 1, seat)
      local b, gb = spy(position, 2, seat)
      assert.are_not.equal(ga:position(), gb:position()) -- the hidden hands differ
      assert.same(host_reads(ga, seat), host_reads(gb, seat))
      assert.equals(a, b)
      return a
    end

    it("reads the same in the auction whatever the other hands hold", function()
      local mine = "dealer=3; calls=80c, 90d; hands=?8 / ?8 / Jh 9h 7h 8h Qh 7c 8c 9d / ?8"
      local a = same_for(mine, 2)
      -- and the test can fail: another hand of its own reads differently
      local other = same_for("dealer=3; calls=80c, 90d; hands=?8 / ?8 / Jh 9h 7h 8h Kh 7c 8c 9d / ?8", 2)
      assert.are_not.equal(a, other)
    end)

    it("reads the same in the play: hidden hands and unshown announcements' cards", function()
      -- Seat 1 announced a run of three in diamonds (P35), not shown
      -- yet: its cards are 7d 8d 9d in one deal and 8d 9d 10d in the
      -- other; seat 3 sees only "a run of three, 20" (P50).
      local base = "dealer=3; calls=80c, pass, pass, pass; tricks=7c %s Kc; hands=%s; decls=1:%s"
      local p1 = base:format("7h", "?7 / ?7 / ?7 / 8c 9c Ac Ah Kh 10s 9s 8s", "7d 8d 9d")
      local p2 = base:format("7h", "?7 / ?7 / ?7 / 8c 9c Ac Ah Kh 10s 9s 8s", "8d 9d 10d")
      local a, ga = spy(p1, 1, 3)
      local b, gb = spy(p2, 1, 3)
      assert.are_not.equal(ga:position(), gb:position())
      assert.same(host_reads(ga, 3), host_reads(gb, 3))
      assert.equals(a, b)
      -- and the hands hidden by seeds
      same_for(p1, 3)
    end)

    it("hears another seat's announcement by its kind and value only", function()
      local g = pilotta{ position = "dealer=3; calls=80c, pass, pass, pass; hands=7d 8d 9d ?5 / ?8 / ?8 / ?8",
        seed = 4 }
      local heard = {}
      local listener = { choose = function(_, game) return game:moves()[1], {} end }
      local d = driver.new(g, { [1] = { choose = listener.choose, notify = function(_, e)
        heard[#heard + 1] = e
        return true
      end } })
      local e = assert(d:play("announce 7d 8d 9d"))
      assert.equals("announce", e.kind)
      assert.matches("7d", e.text, 1, true) -- (the table and the mover see the cards)
      local told = heard[#heard]
      assert.equals("announce", told.move)
      for _, v in pairs(told) do
        if type(v) == "string" then assert.is_nil(v:find("%d[cdhs]")) end
      end
      assert.is_nil(told.cards)
    end)

    it("hears the same of another seat's card whatever else that seat holds (no move number)", function()
      -- seat 0 leads Ah in both deals; in the first it also holds a run it
      -- has not announced, which puts an announcement first in its list
      local function heard(hand)
        local g = pilotta{ position = "dealer=3; calls=80h, pass, pass, pass; hands=" .. hand .. " / ?8 / ?8 / ?8",
          seed = 4 }
        local got
        local listener = { choose = function(_, game) return game:moves()[1], {} end, notify = function(_, e)
          got = e
          return true
        end }
        local mover = { choose = listener.choose, notify = function() return true end }
        assert(driver.new(g, { [0] = mover, [1] = listener }):play("Ah"))
        got.table = nil
        return got
      end
      local a, b = heard("Ah 7c 8c 9c Jd Qd 7s 8s"), heard("Ah 7c 8c 10c Jd Qd 7s 8s")
      assert.equals("Ah", a.move)
      assert.same(a, b)
    end)

    it("hears another seat's card, not whether it declined its belote (P50: it holds the other card)", function()
      local g = pilotta{ position = "dealer=3; calls=80h, pass, pass, pass; hands=Kh Qh 7d 8c ?4 / ?8 / ?8 / ?8",
        seed = 4 }
      local heard = {}
      local listener = { choose = function(_, game) return game:moves()[1], {} end, notify = function(_, e)
        heard[#heard + 1] = e
        return true
      end }
      local mover = { choose = listener.choose, notify = function() return true end }
      local d = driver.new(g, { [0] = mover, [1] = listener })
      local e = assert(d:play("Qh nobelote"))
      assert.equals("Qh nobelote", e.move) -- (the record and the mover keep it)
      local told = heard[#heard]
      assert.equals("Qh", told.move)
      assert.equals("Qh", told.text)
      assert.equals("Qh", told.card)
      for _, v in pairs(told) do
        if type(v) == "string" then assert.is_nil(v:find("belote", 1, true)) end
      end
    end)
  end)

  it("the driver announces the first round of a Pilotta game, which opens with the auction", function()
    local g = assert(diloti.new { game = "pilotta", seed = 3 })
    assert.equals("auction", g:phase())
    local seen = {}
    local d = driver.new(g, {}, { listeners = { function(e) seen[#seen + 1] = e end } })
    d:start()
    assert.equals("round_start", seen[1] and seen[1].type)
    assert.equals(1, seen[1].round)
  end)
end)
