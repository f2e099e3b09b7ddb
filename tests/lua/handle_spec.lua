-- The one game handle over each game's operations (src/lua/handle.c,
-- src/lua/gameops.h; issue 26): the same checks run over every C game
-- core.games() names, so a game whose handle answers differently fails
-- here. Then what g:public and the spectator's view hide, game by game,
-- and the generic binding files naming no game.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"

-- Methods only one game has (declared here: anything else must be shared).
local ONLY = { pilotta = { solve = true } }

local function open(name, opts)
  return assert(core.open(name, opts or { seed = 3 }))
end

-- Plays the first legal move n times (or until the round ends).
local function advance(g, n)
  for _ = 1, n do
    if not g:turn() then return end
    assert(g:play(1))
  end
end

local function methods(g)
  local mt = debug.getmetatable(g)
  local out = {}
  for k in pairs(mt.__index) do out[k] = true end
  return out
end

describe("the game handle of every game", function()
  it("lists the C games, the default first", function()
    local games = core.games()
    assert.is_table(games)
    assert.equals("diloti", games[1])
    assert.is_true(support.has(games, "pilotta"))
  end)

  for _, name in ipairs(core.games and core.games() or {}) do
    describe(name, function()
      it("answers its name to g:game()", function()
        assert.equals(name, open(name):game())
      end)

      it("answers nil, why to a move argument of any bad type, and leaves the game as it was", function()
        local g = open(name)
        local before = g:position()
        local seat = g:turn()
        local bad = { true, false, {}, { text = 1 }, { text = true }, { text = {} }, function() end, io.stdout, g,
          0, -1, 1.5, 2 ^ 70, 0 / 0, "", "zz", "\0" }
        for i, b in ipairs(bad) do
          local ok, why = g:play(b)
          assert.is_nil(ok, "play #" .. i)
          assert.is_string(why, "play #" .. i)
          ok, why = g:parse(b)
          assert.is_nil(ok, "parse #" .. i)
          assert.is_string(why, "parse #" .. i)
          ok, why = g:check(b)
          assert.is_false(ok, "check #" .. i)
          assert.is_string(why, "check #" .. i)
          ok, why = g:simulate(seat, b)
          assert.is_nil(ok, "simulate #" .. i)
          assert.is_string(why, "simulate #" .. i)
        end
        local ok, why = g:play()
        assert.is_nil(ok)
        assert.matches("not a move", why)
        assert.equals(before, g:position())
      end)

      it("has the methods every game has, and only its declared own besides", function()
        local mine = methods(open(name))
        for _, other in ipairs(core.games()) do
          local theirs = methods(open(other))
          for k in pairs(mine) do
            if not (ONLY[name] or {})[k] then assert.is_true(theirs[k] or false, other .. " lacks " .. k) end
          end
          for k in pairs(theirs) do
            if not (ONLY[other] or {})[k] then assert.is_true(mine[k] or false, name .. " lacks " .. k) end
          end
        end
        for _, k in ipairs{ "public", "view", "moves", "count", "play", "check", "parse", "undo", "clone",
                            "close", "simulate", "sealed", "game" } do
          assert.is_true(mine[k] or false, k)
        end
      end)

      it("refuses a method called on anything but its own handle, naming the type it wants", function()
        -- (the methods compare the handle's metatable with their own, not
        -- the type's name: a handle of another game, a table dressed as
        -- one, a closed game)
        local g = open(name)
        local others = { nil, true, 1, "x", {}, setmetatable({}, { __index = g }), io.stdout, function() end }
        for _, other in ipairs(core.games()) do
          if other ~= name then others[#others + 1] = open(other) end
        end
        for i = 1, #others + 1 do
          for _, m in ipairs{ "moves", "play", "turn", "clone", "view" } do
            local ok, err = pcall(g[m], others[i])
            assert.is_false(ok, m .. " #" .. i)
            assert.matches("expected", err, m .. " #" .. i)
          end
        end
        local closed = open(name)
        closed:close()
        local ok, err = pcall(closed.moves, closed)
        assert.is_false(ok)
        assert.matches("freed", err)
        assert.is_table(g:moves()) -- (and its own still works)
      end)

      it("plays by the hooks it was made with: changing that table later changes nothing", function()
        local calls = 0
        local hooks = {}
        local g = open(name, { seed = 3, hooks = hooks })
        hooks.moves = function(list) calls = calls + 1 return { list[1] } end
        assert.is_true(#g:moves() > 1)
        assert.equals(0, calls)
        local kept = { moves = function(list) calls = calls + 1 return { list[1] } end }
        local h = open(name, { seed = 3, hooks = kept })
        kept.moves = nil
        assert.equals(1, #h:moves())
        assert.equals(1, #h:clone():moves()) -- (a clone keeps them)
        assert.is_true(calls >= 2)
      end)

      it("hands a moves hook the moves as g:moves(true) lists them, without their numbers", function()
        local seen
        local g = open(name, { seed = 5, hooks = { moves = function(list) seen = list return list end } })
        local spoken = 0 -- (moves whose text says more than their card: a belote said or not)
        for _ = 1, 300 do
          if not g:turn() then
            if g:phase() ~= "round-over" then break end
            assert(g:next_round())
          end
          local listed = g:moves(true)
          for _, m in ipairs(listed) do
            if m.card and m.text ~= m.card then spoken = spoken + 1 end
          end
          assert.equals(#listed, #seen)
          for i, m in ipairs(listed) do
            assert.equals(i, m.index)
            m.index = nil
            assert.same(m, seen[i])
          end
          assert(g:play(#listed))
        end
        if name == "pilotta" then assert.is_true(spoken > 0) end
      end)

      it("keeps its metatable locked", function()
        local g = open(name)
        assert.is_false(getmetatable(g))
        assert.has_error(function() setmetatable(g, {}) end)
        assert.has_error(function() g.play = print end)
      end)

      it("shows a spectator no hand: g:view(nil)", function()
        local g = open(name)
        advance(g, 3)
        for _, v in ipairs{ g:view(), g:view(nil) } do
          assert.is_nil(v.hand)
          assert.is_nil(v.hands)
          assert.is_nil(v.seat)
          assert.equals(g:phase(), v.phase)
          assert.equals(g:view(0).round, v.round)
        end
        assert.is_table(g:view(0).hand)
      end)

      it("gives the mover the whole effect and the others no move number", function()
        local g = open(name)
        local players = g:rules().players
        for _ = 1, 6 do
          local seat = g:turn()
          if not seat then break end
          local e = assert(g:play(1, true))
          local mine = g:public(e, seat)
          assert.same(e, mine)
          assert.are_not.equal(e, mine) -- (a copy: the caller may change it)
          for v = 0, players - 1 do
            if v ~= seat then
              local p = g:public(e, v)
              assert.is_table(p)
              assert.is_nil(p.index)
              assert.equals(e.seat, p.seat)
              assert.equals(e.kind, p.kind)
            end
          end
          assert.is_nil(g:public(e, nil).index)
          assert.is_nil(g:public(e).index)
        end
        assert.has_error(function() g:public("x", 0) end)
      end)
    end)
  end
end)

describe("g:public hides what the game keeps private", function()
  it("Diloti: another seat's keep (V-face-card-claim), from the others and a spectator", function()
    local g
    for seed = 1, 2000 do
      g = assert(diloti.new{ rules = "diloti+face-card-claim", seed = seed })
      if g:phase() == "claim" then break end
    end
    assert.equals("claim", g:phase())
    local seat = g:turn()
    local e = assert(g:play("keep"))
    assert.same(e, g:public(e, seat))
    assert.is_nil(g:public(e, 1 - seat))
    assert.is_nil(g:public(e))
  end)

  it("Pilotta: an announcement's cards by kind and value only (P50)", function()
    local g = assert(diloti.new{ game = "pilotta", seed = 5,
      position = "dealer=3; calls=80c, pass, pass, pass; hands=7h 8h 9h 10h Jh Qs Ks As / 7c 8c 9c ?5 / ?8 / ?8" })
    g:play("As")
    local ann
    for _, m in ipairs(g:moves(true)) do if m.kind == "announce" then ann = ann or m end end
    local e = assert(g:play(ann, true))
    assert.same(e, g:public(e, 1))
    for _, v in ipairs{ 0, 2, 3 } do
      local p = g:public(e, v)
      assert.equals("announce", p.text)
      assert.is_nil(p.cards)
      assert.equals(e.value, p.value)
      assert.equals(1, p.seat)
    end
    assert.is_nil(g:public(e).cards)
    assert.equals("announce", g:public(e).text)
  end)

  it("Pilotta: a card played without the belote is the card alone for the others (P50)", function()
    local g = assert(diloti.new{ game = "pilotta", seed = 4,
      position = "dealer=3; calls=80h, pass, pass, pass; hands=Kh Qh 7d 8c ?4 / ?8 / ?8 / ?8" })
    local e = assert(g:play("Qh nobelote"))
    e.move = e.text -- (as the driver's move event carries it)
    assert.equals("Qh nobelote", g:public(e, 0).text)
    for _, v in ipairs{ 1, 2, 3 } do
      assert.equals("Qh", g:public(e, v).text)
      assert.equals("Qh", g:public(e, v).move)
    end
    assert.equals("Qh", g:public(e).text)
  end)

  it("Pilotta: a spectator's view holds no announced card that was not shown", function()
    local g = assert(diloti.new{ game = "pilotta", seed = 5,
      position = "dealer=3; calls=80c, pass, pass, pass; hands=7h 8h 9h 10h Jh Qs Ks As / 7c 8c 9c ?5 / ?8 / ?8"
        .. "; decls=1:7c 8c 9c" })
    assert.same({ "7c", "8c", "9c" }, g:view(1).announcements[1].cards)
    assert.is_nil(g:view().announcements[1].cards)
  end)
end)

describe("core.natives(name): the box natives of the game that owns them", function()
  it("gives Diloti's AIs best_capture and points, which work inside a box", function()
    local n = core.natives("diloti")
    assert.is_function(n.best_capture)
    assert.is_function(n.points)
    assert.same({}, core.natives("pilotta"))
    local box = core.box.new{ label = "natives" }
    -- (kept by the script and called in a later call: the box's own, no
    -- service of one call)
    local ok, t = box:run("local bc, pts; return { set = function(a, b) bc, pts = a, b end, "
      .. "use = function() return bc('8h', { loose = { '8c', '5s' }, declarations = {} }).count, "
      .. "pts({ 'Ac', '10d' }) end }")
    assert.is_true(ok)
    t.set(n.best_capture, n.points)
    local count, points = t.use()
    assert.equals(1, count)
    assert.equals(3, points)
    box:close()
    assert.has_error(function() core.natives("x") end)
  end)

  it("has no entry of one game's: a game is reached by its name", function()
    for _, k in ipairs{ "new", "rules", "best_capture", "points", "pilotta_new", "pilotta_rules",
      "pilotta_check_rules" } do
      assert.is_nil(rawget(core, k), k)
    end
    assert.is_nil(rawget(core.box, "best_capture"))
    assert.is_nil(rawget(core.box, "points"))
    assert.equals("pilotta", core.open("pilotta", { seed = 1 }):game())
    assert.equals("diloti", core.open("diloti", { seed = 1 }):game())
    assert.is_true(core.check_rules("pilotta", core.base_rules("pilotta")))
    assert.equals("diloti", core.base_rules("diloti", "kontsina").game)
  end)
end)

describe("the generic binding (src/lua/)", function()
  local root = here .. "../../"
  local WORDS = { "pilotta", "kontsina", '"diloti"', "best_capture", "dl_capture", "dl_game_", "pl_game_",
    "pl_lua", "dl_ops_" }

  it("names no game in any file", function()
    local files = assert(core.listdir(root .. "src/lua"))
    local seen = 0
    for _, f in ipairs(files) do
      if f:match("%.[ch]$") then
        seen = seen + 1
        for line in support.read(root .. "src/lua/" .. f):lower():gmatch("[^\n]+") do
          -- (the program's own name is no game's: readline's name for it)
          if not line:find("rl_readline_name", 1, true) then
            for _, w in ipairs(WORDS) do
              assert.is_nil(line:find(w, 1, true), "src/lua/" .. f .. " names " .. w .. ": " .. line)
            end
          end
        end
      end
    end
    assert.is_true(seen > 5)
  end)
end)
