-- `diloti join` against a real `diloti serve` (tests/lua/support_server.lua):
-- the table at a room over a WebSocket (diloti.wsclient), a round of
-- 2-player Diloti against the server's AI played at its prompt, a
-- refusal with its rule id, a spectator that follows the same room, and
-- the program's own `diloti join` and `diloti watch` on its links.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local S = require "support_server"
local link = require "diloti.server.link"
local remote = require "diloti.table.remote"
local repl = require "diloti.table.repl"
local screen = require "diloti.table.screen"

local function open(text)
  local l = assert(link.parse(text))
  return assert(remote.open { connect = remote.websocket(l.ws), room = l.room, token = l.token, url = l.base,
    sleep = function() end })
end

-- The table at rr, reading lines from answer(prompt, session).
local function play(rr, answer)
  local out, s = {}, nil
  s = assert(repl.new {
    write = function(text) out[#out + 1] = text end,
    read = function(prompt)
      out[#out + 1] = prompt
      return answer(prompt, s)
    end,
    getenv = function(k) return ({ NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" })[k] end,
    style = screen.style { width = 100 }, room = rr, extensions = { remote.extension },
  })
  s:run()
  return s, table.concat(out)
end

describe("the table at a room of diloti serve", function()
  local srv
  setup(function() srv = S.start() end)
  teardown(function() S.stop(srv) end)

  it("plays the first round at the prompt, a refusal with its rule id among the moves", function()
    local made = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "ai:random" }, pace = 0 })
    assert.equal("created", made.type, made.message)
    local rr = open(made.seats[1].link)
    local n, refused = 0, false
    local s, out = play(rr, function(prompt, sess)
      if prompt ~= "diloti> " then return "" end
      -- (the first round over: the end of input)
      for _, e in ipairs(sess.log) do if e.round and e.round > 1 then return nil end end
      n = n + 1
      if n > 200 then return nil end
      local v = sess.g:view()
      if not refused and v.hand and v.table then
        for _, c in ipairs(v.hand) do
          for _, l in ipairs(v.table.loose) do
            if c:sub(1, -2) ~= l:sub(1, -2) then
              refused = true
              return c .. " x " .. l
            end
          end
        end
      end
      return "1"
    end)
    rr:close()
    assert.truthy(out:match("Refused: D%d+: "), out:sub(1, 3000))
    assert.truthy(out:find("Round 1 is over", 1, true) or out:lower():find("round 1[^\n]*over"), out:sub(-3000))
    assert.is_true(#s.log >= 48, #s.log)
  end)

  it("diloti join and diloti watch, the program itself, on a room's links", function()
    local made = S.create(srv, { rules = "pilotta", players = 4, seats = { "person", "ai:random", "ai:random",
      "ai:random" }, pace = 0 })
    assert.equal("created", made.type, made.message)
    local dir = support.tmpdir()
    local input = dir .. "/in"
    local f = assert(io.open(input, "w"))
    f:write("moves\nundo\nquit\n")
    f:close()
    local cmd = string.format("%s join %s <%s 2>&1", support.q(support.bin), support.q(made.seats[1].link),
      support.q(input))
    local p = io.popen(cmd)
    local out = p:read("a")
    local ok, _, code = p:close()
    assert.is_true(ok, out)
    assert.equal(0, code)
    assert.truthy(out:find("playing seat 0", 1, true), out)
    assert.truthy(out:find("Your hand: ", 1, true), out)
    assert.truthy(out:find("Not in an online room: moves played stand", 1, true), out)
    -- a room of AIs, watched to the end of its match
    local ais = S.create(srv, { rules = "diloti", players = 2, seats = { "ai:random", "ai:random" }, pace = 0 })
    assert.equal("created", ais.type, ais.message)
    p = io.popen(string.format("timeout 120 %s watch %s </dev/null 2>&1", support.q(support.bin),
      support.q(ais.watch)))
    out = p:read("a")
    ok, _, code = p:close()
    assert.is_true(ok, out)
    assert.equal(0, code)
    assert.truthy(out:find("watching", 1, true), out)
    assert.truthy(out:find("The match is over: 'quit' leaves the room.", 1, true), out:sub(-1500))
    assert.falsy(out:find("Your hand", 1, true))
    -- a watch link given to join: refused, nothing joined
    p = io.popen(string.format("%s join %s 2>&1", support.q(support.bin), support.q(made.watch)))
    out = p:read("a")
    ok = p:close()
    assert.falsy(ok)
    assert.truthy(out:find("that is a watch link", 1, true), out)
  end)
end)

-- A server on a given port (the one a killed server had: the links name it).
local function start_at(port, data)
  local log = data .. ".again.log"
  local p = io.popen(string.format("%s serve --port %d --room-rate 6000 --rate 1000 --data %s >%s 2>&1 & echo $!",
    support.q(support.bin), port, support.q(data), support.q(log)))
  local srv = { pid = p:read("l"), data = data, log = log, port = port }
  p:close()
  for _ = 1, 200 do
    if (S.read(log) or ""):find("listening on", 1, true) then return srv end
    S.sleep(0.05)
  end
  error("the server did not start again: " .. (S.read(log) or "(no log)"))
end

describe("the table at a room of a server killed and started again", function()
  local srv
  teardown(function() if srv then S.stop(srv) end end)

  it("makes the connection again and plays on, nothing shown twice", function()
    srv = S.start()
    local made = S.create(srv, { rules = "diloti", players = 2, seats = { "person", "ai:random" }, pace = 0 })
    assert.equal("created", made.type, made.message)
    local rr = open(made.seats[1].link)
    local n = 0
    local s, out = play(rr, function(prompt, sess)
      if prompt ~= "diloti> " then return "" end
      for _, e in ipairs(sess.log) do if e.round and e.round > 1 then return nil end end
      n = n + 1
      if n > 200 then return nil end
      if n == 4 then
        S.stop(srv, "KILL")
        srv = start_at(srv.port, srv.data)
      end
      return "1"
    end)
    rr:close()
    assert.truthy(out:find("connection lost and made again", 1, true), out:sub(-3000))
    assert.falsy(out:find("Refused", 1, true), out:match("Refused[^\n]*"))
    assert.is_true(#s.log >= 48, #s.log)
    -- every move of the round once: the log's plies run 0, 1, 2, ... within each deal
    local seen = {}
    for _, e in ipairs(s.log) do
      local k = string.format("%s/%s/%s", tostring(e.round), tostring(e.deal), tostring(e.event.ply))
      assert.is_nil(seen[k], "shown twice: " .. k)
      seen[k] = true
    end
  end)
end)
