-- Attacks from the third review of the server (advice, the lobby, the
-- catalogue's tables): a sleeping room woken by its id alone, options no
-- server should start with, a room whose options disagree, an engine's
-- file named to a client. Each test is an attempt that must fail;
-- servers are the tests' own (127.0.0.1, port 0, data in a temporary
-- folder). The advice bucket kept per seat is in protocol_spec.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local S = require "support_server"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local threads = S.threads

-- Waits (bounded) until the server runs n threads.
local function settle(s, n)
  for _ = 1, 100 do
    if threads(s) == n then return true end
    S.sleep(0.1)
  end
  return false
end

local ROOM = { rules = "diloti", players = 2, seats = { "person", "ai" }, pace = 0 }

describe("review 3 attacks: waking stored rooms", function()
  it("a hello with a wrong token wakes no sleeping room, and --max-rooms holds for waking", function()
    local s = S.start { data = tmp .. "/wake", args = "--idle 1 --max-rooms 1" }
    finally(function() S.stop(s) end)
    local base = threads(s)
    local a = S.create(s, ROOM)
    assert.equal("created", a.type)
    assert.is_true(settle(s, base), "room a did not sleep")
    local b = S.create(s, ROOM)
    assert.equal("created", b.type)
    assert.is_true(settle(s, base), "room b did not sleep")
    -- the ids alone, with a token of nothing, twice each
    local zero = ("0"):rep(64)
    for _ = 1, 2 do
      for _, m in ipairs { a, b } do
        local c = S.client(s)
        S.send(c, { type = "hello", room = m.room, token = zero })
        local f = S.wait(c, function(x) return x.type == "error" or x.type == "welcome" end)
        c:close()
        assert.equal("bad-token", f.code)
      end
    end
    assert.equal(base, threads(s), "a wrong token started a room's thread")
    -- a room of one's own still fits, then a second is 'full', woken or made
    local c1, w1 = S.join(s, a.seats[1].link)
    assert.equal("welcome", w1.type)
    local c2, w2 = S.join(s, b.seats[1].link)
    assert.equal("error", w2.type)
    assert.equal("full", w2.code)
    assert.equal("full", S.create(s, ROOM).code)
    c1:close()
    c2:close()
  end)
end)

describe("review 3 attacks: a restart over many stored rooms", function()
  it("starts no more rooms than --max-rooms; the others wake with their tokens", function()
    local data = tmp .. "/restart"
    local s = S.start { data = data, args = "--idle 1 --max-rooms 1" }
    local base = threads(s)
    local made = {}
    for i = 1, 4 do
      made[i] = S.create(s, ROOM)
      assert.equal("created", made[i].type)
      assert.is_true(settle(s, base), "room " .. i .. " did not sleep")
    end
    S.stop(s)
    s = S.start { data = data, args = "--idle 60 --max-rooms 1" }
    finally(function() S.stop(s) end)
    assert.matches("1 rooms resumed", S.read(s.log))
    assert.is_true(settle(s, base + 1), "more rooms than --max-rooms were started")
  end)
end)

describe("review 3 attacks: options no server should start with", function()
  it("a rate of 0, a negative one, one too small to wait for or a bad count is refused at start", function()
    for i, args in ipairs { "--advice-rate 0", "--advice-rate=-12", "--advice-rate=1e-30", "--rate 0",
      "--room-rate=-1", "--idle 0", "--script-cpu 0", "--script-cpu 61", "--advice-rate=1e999", "--max-rooms 0",
      "--per-address 0" } do
      local ok, why = pcall(S.start, { data = tmp .. "/opt" .. i, args = args })
      if ok then S.stop(why) end
      assert.is_false(ok, args)
      assert.truthy(tostring(why):find(args:match("^(%-%-[%a%-]+)"), 1, true), why)
    end
    local s = S.start { data = tmp .. "/opt-fine", args = "--advice-rate 0.01" }
    assert.equal("created", S.create(s, ROOM).type)
    S.stop(s)
  end)
end)

describe("review 3 attacks: a create whose options disagree", function()
  local s
  setup(function() s = S.start { data = tmp .. "/create" } end)
  teardown(function() S.stop(s) end)

  it("house rules that set the players and a players field that says otherwise: refused", function()
    for _, m in ipairs {
      { rules = "kontsina+players=3", players = 4, seats = { "person", "ai", "ai", "ai" } },
      { rules = "diloti+players=2", players = 4, seats = { "person", "ai", "ai", "ai" } },
    } do
      local f = S.create(s, m)
      assert.equal("error", f.type, m.rules)
      assert.equal("bad-room", f.code)
      assert.matches("players", f.message)
    end
    local ok = S.create(s, { rules = "kontsina+players=3", players = 3, seats = { "person", "ai", "ai" } })
    assert.equal("created", ok.type)
  end)

  it("a takeover AI that no catalogue holds: refused, not a room that waits for good", function()
    local f = S.create(s, { rules = "diloti", players = 2, seats = { "person", "ai" }, takeover = 1,
      takeover_ai = "nosuchai" })
    assert.equal("bad-room", f.code)
    assert.matches("takeover_ai", f.message)
    assert.equal("created", S.create(s, { rules = "diloti", players = 2, seats = { "person", "ai" }, takeover = 1,
      takeover_ai = "expert" }).type)
  end)

  it("a house rule's out-of-range setting is named without the engine's file and line", function()
    local f = S.create(s, { rules = "kontsina+points=9223372036854775807", players = 2, seats = { "person", "ai" } })
    assert.equal("bad-room", f.code)
    assert.matches("points", f.message)
    assert.is_nil(f.message:find("%.lua"), f.message)
  end)
end)
