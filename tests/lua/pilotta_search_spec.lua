-- Pilotta's solver and search through the game handle (g:solve, g:search,
-- src/lua/lplsearch.c) and through an AI's ctx.search (lua/ai/ctx.lua):
-- the answers' shapes, their agreement with the engine, and every
-- argument of every type refused with a message or ignored, never a crash.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

-- A round in the play phase: 80 hearts by seat 0, seat 0 to lead.
local function playing(seed)
  local g = assert(diloti.new{ game = "pilotta", seed = seed or 5, dealer = 3 })
  for _, c in ipairs{ "80h", "pass", "pass", "pass" } do assert(g:play(c)) end
  return g
end

local function card_moves(g)
  local set = {}
  for _, m in ipairs(g:moves()) do
    if not m:match("^announce") and not m:match("^show") then set[m] = true end
  end
  return set
end

describe("g:solve", function()
  it("values every card for the seat to move, best first, with the round's game points", function()
    local g = playing()
    local r = assert(g:solve())
    assert.equals(0, r.team)
    assert.is_true(r.nodes > 0)
    local legal = card_moves(g)
    assert.equals(r.points, r.moves[1].points)
    for i, m in ipairs(r.moves) do
      assert.is_true(legal[m.move], m.move)
      if i > 1 then assert.is_true(m.points <= r.moves[i - 1].points) end
      assert.equals(2, #m.game)
    end
    assert.same(r.game, r.moves[1].game)
  end)

  it("keeps its value along its own line, and the engine scores the round as it says", function()
    local g = playing(11)
    local first = assert(g:solve())
    while g:phase() == "play" do
      local r = assert(g:solve())
      local mine = r.team == first.team and r.points or nil
      if mine then assert.equals(first.points, mine) end
      -- shows are due before the card (P38): the conversion counts them
      local ms = g:moves()
      if ms[1]:match("^show") then assert(g:play(ms[1])) end
      assert(g:play(r.moves[1].move))
    end
    local round = g:result().round
    assert.equals(first.points, round[first.team].trick_points)
    assert.same(first.game, { round[0].game, round[1].game })
  end)

  it("answers nil and why outside the play", function()
    local g = assert(diloti.new{ game = "pilotta", seed = 1 })
    local r, why = g:solve()
    assert.is_nil(r)
    assert.matches("not being played", why)
  end)
end)

describe("g:search", function()
  it("ranks the seat's cards by the mean game-point margin over sampled deals", function()
    local g = playing()
    local r = assert(g:search{ deals = 8, seed = 3 })
    assert.equals(8, r.deals)
    assert.is_false(r.exact)
    local legal = card_moves(g)
    assert.is_true(legal[r.best])
    assert.equals(r.best, r.moves[1].move)
    assert.equals(r.value, r.moves[1].value)
    for i, m in ipairs(r.moves) do
      assert.is_true(legal[m.move])
      assert.is_true(m.made >= 0 and m.made <= 1)
      assert.is_true(m.points >= 0 and m.points <= 250)
      if i > 1 then assert.is_true(m.value <= r.moves[i - 1].value) end
    end
    assert.same(r, assert(g:search{ deals = 8, seed = 3 }))
    assert.is_true(assert(g:search{ deals = 4, seed = 3, infer = true }).deals == 4)
  end)

  it("stops at its time limit", function()
    local g = playing()
    local t0 = os.clock()
    local r = assert(g:search{ deals = 10000, time = 0.05, seed = 1 })
    assert.is_true(os.clock() - t0 < 0.5)
    assert.is_true(r.deals < 10000)
  end)

  it("answers nil and why in the auction or for a seat not to play", function()
    local g = assert(diloti.new{ game = "pilotta", seed = 1 })
    local r, why = g:search{}
    assert.is_nil(r)
    assert.matches("not being played", why)
    g = playing()
    r, why = g:search{ seat = 2 }
    assert.is_nil(r)
    assert.matches("seat 2 is not to play", why)
  end)

  it("refuses every bad option with a message naming it, and ignores unknown ones", function()
    local g = playing()
    local before = g:position()
    for _, bad in ipairs{ "x", 5, true, function() end, io.stdout } do
      local ok, err = pcall(g.search, g, bad)
      assert.is_false(ok)
      assert.matches("a table of options", err)
    end
    local odd = { "x", {}, true, 1.5, -1, math.huge, -math.huge, 0 / 0, 2 ^ 63, math.mininteger,
                  function() end, io.stdout, string.rep("9", 100000) }
    for _, k in ipairs{ "seat", "deals", "time", "seed", "memory", "infer" } do
      for _, v in ipairs(odd) do
        local ok, r = pcall(g.search, g, { [k] = v, deals = k == "deals" and v or 1 })
        if not ok then
          assert.matches("search: " .. k, r)
        else
          assert.is_table(r)
        end
      end
    end
    assert.is_table(g:search{ deals = 1, iterations = "x", weights = 7, [1] = 2 })
    assert.is_table(g:search{ deals = 1, memory = 0 })
    assert.has_error(function() g.search(nil) end)
    assert.has_error(function() g.solve({}) end)
    assert.has_error(function() g.search(io.stdout, {}) end)
    assert.equals(before, g:position())
  end)
end)

describe("what the search knows", function()
  -- Two deals alike for South's partner North (seat 2): East (seat 1)
  -- announced a run of three, unshown, in hearts either way, and East and
  -- West hold different cards. North's search must not tell them apart.
  local HEAD = "dealer=3; round=1; score=0 0; calls=80h, pass, pass, pass; hands=10c Qc Kc 7s 9s Js Qs As / "
  local NORTH = " / 9d Kd Ad Qh Kh Ah 8s Ks / "
  local function dealt(east, west, run)
    local g = assert(diloti.new{ game = "pilotta", position = HEAD .. east .. NORTH .. west })
    for _, m in ipairs{ "10c", "announce " .. run, "8c" } do assert(g:play(m)) end
    assert.equals(2, g:turn())
    return g
  end

  it("answers the same for two deals that differ only in cards the seat cannot see", function()
    local a = dealt("8c 9c 7d Jd Qd 7h 8h 9h", "7c Jc Ac 8d 10d Jh 10h 10s", "7h 8h 9h")
    local b = dealt("8c 9c 7d Jd Qd 8h 9h 10h", "7c Jc Ac 8d 10d 7h Jh 10s", "8h 9h 10h")
    for _, infer in ipairs{ false, true } do
      local ra = assert(a:search{ deals = 3, seed = 9, infer = infer })
      local rb = assert(b:search{ deals = 3, seed = 9, infer = infer })
      assert.same(ra, rb)
    end
  end)
end)

describe("ctx.search in a Pilotta AI", function()
  local written = 0
  local function player_of(body, opts)
    written = written + 1
    local name = "pls" .. written
    local dir = tmp .. "/d" .. written
    os.execute("mkdir -p " .. support.q(dir))
    local path = support.write(dir .. "/" .. name .. ".lua", "local NAME = '" .. name .. "'\n" .. body)
    return assert(ai.player(path, opts))
  end

  it("gives the same answer as g:search, for the AI's own seat, within its time", function()
    local g = playing()
    local p = player_of([[return { name = NAME, description = "searches", game = "pilotta",
      choose = function(_, moves, ctx)
        local r = assert(ctx.search{ deals = 6, seed = 2 })
        return r.best, r.deals .. " " .. tostring(r.exact) .. " " .. #r.moves
      end }]], { game = "pilotta" })
    local move, info = p:choose(g, g:turn())
    assert.is_nil(info.fallback, info.warning)
    assert.equals(assert(g:search{ deals = 6, seed = 2 }).best, move)
    assert.matches("^6 false %d+$", info.note)
    assert.equals(6, info.search.deals)
  end)

  it("checks its options", function()
    local g = playing()
    for _, opts in ipairs{ "deals = -3", "deals = 1.5", "seed = 'x'", "infer = 1", "time = 'x'", "7" } do
      local p = player_of([[return { name = NAME, description = "bad", game = "pilotta",
        choose = function(_, _, ctx) return ctx.search(]] .. (opts == "7" and "7" or "{ " .. opts .. " }")
        .. [[).best end }]], { game = "pilotta" })
      local _, info = p:choose(g, g:turn())
      assert.is_true(info.fallback, opts)
      assert.matches("ctx.search", info.warning)
    end
  end)

  it("is held to a short time limit whatever it asks for", function()
    local g = playing()
    local p = player_of([[return { name = NAME, description = "greedy", game = "pilotta",
      choose = function(_, _, ctx) return ctx.search{ deals = 100000, time = 1000 }.best end }]],
      { game = "pilotta", time = 0.1 })
    local move, info = p:choose(g, g:turn())
    assert.is_nil(info.fallback, info.warning)
    assert.is_true(g:check(move))
    assert.is_true(info.seconds < 0.15, info.seconds)
  end)
end)
