-- Pilotta's personalities (lua/games/pilotta/ai/): cautious' card
-- play on set positions (ctx.careful: trumps drawn, the partner's suit
-- returned, no points wasted, points fed to the partner's sure trick),
-- every AI announcing, showing when it must (P38) and saying the belote,
-- expert playing the search's card and falling back without it, the
-- levels and the table's default.
local diloti = require "diloti"
local ai = require "diloti.ai"
local PL = require "diloti.games.pilotta.ai_helpers"

local function list(s)
  local h = {}
  for c in s:gmatch("%S+") do h[#h + 1] = c end
  return h
end

-- The play moves for a list of cards.
local function plays(cards)
  local out = {}
  for _, c in ipairs(list(cards)) do out[#out + 1] = { text = c, kind = "play" } end
  return out
end

local CTX = { seat = 0, side = 0, partner = 2, rules = { game = "pilotta" } }

-- The card careful() picks.
local function careful(view, legal)
  local moves = plays(legal)
  local i, note = PL.careful(view, moves, CTX)
  return moves[i].text, note
end

describe("Pilotta's cautious play (ctx.careful)", function()
  it("draws trumps while it holds the best one and its team holds the contract", function()
    local view = { hand = list("Jh 7h Ac 8c 7d 8d 9s 7s"), trumps = "h", trick = {}, tricks = {},
      unseen = list("9h Ah 10h Kh Qh 8h 7c 9c"), contract = { team = 0, value = 80, suit = "h" } }
    assert.equals("Jh", careful(view, "Jh 7h Ac 8c 7d 8d 9s 7s"))
    -- a defender does not lead trumps: it leads its Ace
    view.contract.team = 1
    assert.equals("Ac", careful(view, "Jh 7h Ac 8c 7d 8d 9s 7s"))
  end)

  it("returns the partner's suit", function()
    local view = { hand = list("7h Kd 8d 9s 7s"), trumps = "h", trick = {},
      tricks = { { leader = 2, cards = list("Ad 7d 8h 9d"), winner = 3, points = 11 } },
      unseen = list("Jh 9h Ah Ac 10c 10d Qd As"), contract = { team = 1, value = 80, suit = "h" } }
    local card, note = careful(view, "7h Kd 8d 9s 7s")
    assert.equals("8d", card)
    assert.matches("partner", note)
  end)

  it("gives the least to a trick it cannot win, and feeds points to its partner's sure trick", function()
    -- the opponent's Ace of clubs holds; nothing of ours beats it
    local view = { hand = list("10c 7c Kd"), trumps = "h", leader = 1, winning = 1, trick = list("Ac"),
      tricks = {}, unseen = list("8c 9c Jh"), contract = { team = 1, value = 80, suit = "h" } }
    assert.equals("7c", careful(view, "10c 7c"))
    -- last to play, the partner's Ace holds: the Ten goes on it
    view = { hand = list("10c 7c Kd"), trumps = "h", leader = 1, winning = 2, trick = list("8c Ac 9c"),
      tricks = {}, unseen = list("Jh"), contract = { team = 1, value = 80, suit = "h" } }
    local card, note = careful(view, "10c 7c")
    assert.equals("10c", card)
    assert.matches("feeds", note)
    -- the partner's card is not sure (a higher one is out): play low
    view = { hand = list("10c 7c"), trumps = "h", leader = 2, winning = 2, trick = list("Kc 8c"),
      tricks = {}, unseen = list("Ac Jh"), contract = { team = 1, value = 80, suit = "h" } }
    view.leader, view.trick = 2, list("Kc 8c") -- (partner led, the opponent followed; seat 0 third)
    assert.equals("7c", careful(view, "10c 7c"))
  end)

  it("wins a trick as cheaply as it surely can", function()
    local view = { hand = list("Ac 10c 7c"), trumps = "h", leader = 3, winning = 3, trick = list("Kc"),
      tricks = {}, unseen = list("8c 9c Qc Jh 9h"), contract = { team = 1, value = 80, suit = "h" } }
    -- (the Ten is as sure as the Ace: no higher club is out)
    assert.equals("10c", careful(view, "Ac 10c 7c"))
    view.unseen = list("8c 9c Qc Jh 9h Ac")
    view.hand = list("10c Kc 7c")
    assert.equals("7c", careful(view, "10c 7c"))
  end)
end)

-- Plays whole rounds with one AI at every seat; the log of {seat, move}
-- and each round's hands at the start.
local function rounds(name, n, seed)
  local out = {}
  for k = 1, n do
    local g = assert(diloti.new{ rules = "pilotta", seed = seed + k })
    local ps = {}
    for s = 0, 3 do ps[s] = assert(ai.player(name, { seed = s, game = "pilotta" })) end
    local hands = {}
    for s = 0, 3 do hands[s] = g:view(s).hand end
    local log, standing = {}, nil
    ai.play(g, ps, {
      on_move = function(seat, move, info)
        assert.is_nil(info.fallback, info.warning)
        log[#log + 1] = { seat = seat, move = move }
        local v = g:view(0)
        if v.standing ~= nil then standing = v.standing end
      end,
      on_warning = function(_, w) error(name .. ": " .. w) end,
    })
    out[#out + 1] = { log = log, hands = hands, standing = standing, game = g }
  end
  return out
end

describe("Pilotta's personalities", function()
  for _, name in ipairs{ "follower", "cautious", "expert", "master" } do
    it(name .. " announces its declarations, shows when its team stands (P38) and says the belote", function()
      local announced, showed, held = 0, 0, 0
      -- (master searches each card for up to 0.8 s: 4 rounds, 10 s, with
      -- 5 declarations held, 5 announced, 4 shown; 12 rounds took 40 s)
      for _, r in ipairs(rounds(name, name == "master" and 4 or 12, 40)) do
        local played, ann, shown = {}, {}, {}
        for _, e in ipairs(r.log) do
          assert.is_nil(e.move:find("nobelote", 1, true), e.move)
          if e.move:match("^announce") then ann[e.seat] = true end
          if e.move:match("^show") then shown[e.seat] = true end
          if e.move:match("^[0-9JQKA]+[cdhs]$") or e.move:match("^[0-9JQKA]+[cdhs] ") then played[e.seat] = true end
        end
        for s = 0, 3 do
          local _, total = PL.declarations(r.hands[s])
          if total > 0 and played[s] then
            held = held + 1
            assert.is_true(ann[s] == true, name .. ": seat " .. s .. " held a declaration and did not announce")
          end
          if ann[s] then
            announced = announced + 1
            if r.standing == s % 2 then
              assert.is_true(shown[s] == true, name .. ": seat " .. s .. " stood and did not show")
              showed = showed + 1
            end
          end
        end
      end
      assert.is_true(held > 0 and announced > 0 and showed > 0, string.format("%d %d %d", held, announced, showed))
    end)
  end

  it("expert plays the search's card, and plays carefully without a search", function()
    local g = assert(diloti.new{ rules = "pilotta", seed = 5 })
    assert(g:play("80h"))
    for _ = 1, 3 do assert(g:play("pass")) end
    local p = assert(ai.player("expert", { game = "pilotta" }))
    -- a game handle whose search answers the last legal card
    local asked
    local proxy = setmetatable({
      search = function(_, args)
        asked = args
        local moves = g:moves()
        return { best = moves[#moves], value = 1.5, deals = 20, moves = {} }
      end,
    }, { __index = function(_, k)
      local v = g[k]
      if type(v) == "function" then return function(_, ...) return v(g, ...) end end
      return v
    end })
    local moves = g:moves()
    local plain = {}
    for _, m in ipairs(moves) do if not m:match("^announce") then plain[#plain + 1] = m end end
    if #plain == #moves then
      local move, info = p:choose(proxy)
      assert.equals(moves[#moves], move)
      assert.matches("20 deals", info.note)
      assert.equals(g:turn(), asked.seat)
    end
    local move, info = p:choose(g)
    assert.is_truthy(g:check(move))
    assert.is_nil(info.fallback)
  end)

  it("levels stand for Pilotta's AIs, and the table seats the normal level by default", function()
    assert.equals("cautious", ai.real_name("normal", "pilotta"))
    assert.equals("follower", ai.real_name("easy", "pilotta"))
    assert.equals("expert", ai.real_name("hard", "pilotta"))
    assert.equals("expert", ai.real_name("expert", "pilotta"))
    assert.equals("master", assert(ai.player("master", { game = "pilotta" })).name)
    local repl = require "diloti.table.repl"
    local s = assert(repl.new{ write = function() end, read = function() return nil end,
      clock = function() return 1000 end, getenv = function() return nil end,
      game = { game = "pilotta", seed = 8 } })
    for seat = 1, 3 do
      assert.equals("cautious", s.players[seat].name)
      assert.equals("pilotta", s.players[seat].game)
    end
  end)
end)

describe("docs/ai.md's Pilotta example (docs/examples/pilotta_example.lua)", function()
  local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
  local path = here .. "../../docs/examples/pilotta_example.lua"

  it("is the file docs/ai.md shows", function()
    local doc = assert(io.open(here .. "../../docs/ai.md")):read("a")
    local file = assert(io.open(path)):read("a")
    local shown = doc:match("<!%-%- example: pilotta_example%.lua %-%->%s*```lua\n(.-)```")
    assert.is_string(shown)
    assert.equals(file, shown)
  end)

  it("plays whole rounds at every seat, and beside cautious, without losing a decision", function()
    for k, names in ipairs{ { path, path, path, path }, { path, "cautious", path, "cautious" } } do
      local g = assert(diloti.new{ rules = "pilotta", seed = 20 + k })
      local ps, notes = {}, 0
      for s = 0, 3 do ps[s] = assert(ai.player(names[s + 1], { seed = s, game = "pilotta" })) end
      for _ = 1, 3 do
        ai.play(g, ps, {
          on_move = function(_, _, info)
            assert.is_nil(info.fallback, info.warning)
            if info.note and info.note:match("bids heard") then notes = notes + 1 end
          end,
          on_warning = function(_, w) error(w) end,
        })
        if g:phase() == "match-over" then break end
        assert(g:next_round())
      end
      assert.is_true(notes > 0)
    end
  end)
end)
