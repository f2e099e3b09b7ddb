-- `diloti replay` (lua/server/replay.lua) through the command line: the
-- finished games of a server's data folder listed, one told move by move
-- with each round's result and the end of the match; names and summaries
-- from the network printed without their terminal controls; wrong ids,
-- unfinished games, damaged records and missing folders refused with a
-- message (and a folder never made by looking at it).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
require "diloti" -- (the compiled-in modules)
local rooms = require "diloti.server.rooms"
local record = require "diloti.match.record"
local room = require "diloti.room"
local lit = support.lit

local DILOTI_ID = ("d1"):rep(32)
local PILOTTA_ID = ("e2"):rep(32)
local OPEN_ID = ("f3"):rep(32)
local TWIN_ID = ("d1"):rep(31) .. "00"

-- An all-AI game played to its end (or `moves` steps): its record's text
-- and its room.
local function played(game, seed, moves)
  local r = assert(room.new { game = game, seed = seed, humans = 0 })
  local n = 0
  while (not moves or n < moves) and r:step() do n = n + 1 end
  return assert(record.encode(r.g, r:meta())), r
end

local function store_game(st, id, game, o)
  local text = played(game, o.seed, o.moves)
  assert(st:create(id, { game = game, names = o.names, created = o.created }))
  assert(st:progress(id, { record = o.record or text, finished = o.moves == nil, summary = o.summary }))
  return text
end

describe("diloti replay", function()
  local dir, data, texts
  setup(function()
    dir = support.tmpdir()
    data = dir .. "/diloti/server" -- (where XDG_STATE_HOME=dir puts it)
    local st = assert(rooms.open(data))
    texts = {}
    texts.diloti = store_game(st, DILOTI_ID, "diloti", { seed = 3, created = 1790000000,
      names = { [0] = "Ann\27[2J\27]0;owned\7" }, summary = "Ann won \27[31m70 - 48" })
    texts.pilotta = store_game(st, PILOTTA_ID, "pilotta", { seed = 4, created = 1790000100,
      names = { [0] = "Ann", [2] = "Bea" }, summary = "Ann and Bea won" })
    store_game(st, OPEN_ID, "diloti", { seed = 5, moves = 10, created = 1790000200 })
    st:close()
  end)
  teardown(function() support.rmdir(dir) end)

  local function replay(args, env)
    local a = { "replay" }
    for _, x in ipairs(args) do a[#a + 1] = x end
    return support.cli(a, env)
  end

  it("lists the finished games, oldest first, without the one still played", function()
    local out, err, code = replay { "--data", data }
    assert.equal(0, code, err)
    local lines = support.lines(out)
    assert.equal(2, #lines, out)
    assert.matches("^" .. DILOTI_ID:sub(1, 12) .. "%s+diloti%s+%d%d%d%d%-%d%d%-%d%d %d%d:%d%d%s+Ann won .-70 %- 48$",
      lines[1])
    assert.matches("^" .. PILOTTA_ID:sub(1, 12) .. "%s+pilotta%s+.-Ann and Bea won$", lines[2])
    assert.is_nil(out:find(OPEN_ID:sub(1, 12), 1, true))
    assert.is_nil(out:find("\27", 1, true), "no terminal controls from a summary")
  end)

  it("tells a game move by move, with each round's result and the end of the match", function()
    local out, err, code = replay { "--data", data, DILOTI_ID:sub(1, 6) }
    assert.equal(0, code, err)
    assert.is_nil(out:find("[\27\7]"), "no terminal controls from a name")
    local lines = support.lines(out)
    assert.matches("^diloti, room " .. DILOTI_ID .. ": started ", lines[1])
    assert.matches("^Seats: 0 Ann.-%(AI %w+%), 1 %S+ %(AI%)$", lines[2])
    -- every move of the record, in order, numbered as in the record
    local rec = assert(record.decode(texts.diloti, "r"))
    local told, rounds = {}, {}
    for _, l in ipairs(lines) do
      local n, text = l:match("^%s*(%d+)  .*%[(.-)%]$")
      if n then told[#told + 1] = math.tointeger(tonumber(n)) .. " " .. text end
      if l:match("^%s+round %d+ over: ") then rounds[#rounds + 1] = l:match("^%s+(.*)$") end
    end
    local want = {}
    for i, m in ipairs(rec.moves) do
      if m.text ~= "next-round" then want[#want + 1] = i .. " " .. m.text end
    end
    assert.same(want, told)
    -- the round lines are the record's own comments
    local recorded = {}
    for l in texts.diloti:gmatch("# (round %d+ over: [^\n]*)") do recorded[#recorded + 1] = l end
    assert.is_true(#recorded >= 2)
    assert.same(recorded, rounds)
    assert.truthy(out:find("\nRound 2\n", 1, true))
    assert.matches("\nMatch over: .+ won, %d+ %- %d+%.\n$", out)
    assert.truthy(out:find("capture", 1, true), "moves are told in words")
  end)

  it("says who took each trick in Pilotta, and names the partners who won", function()
    local out, err, code = replay { "--data", data, PILOTTA_ID:sub(1, 8) }
    assert.equal(0, code, err)
    assert.matches("^pilotta, room " .. PILOTTA_ID, out)
    assert.truthy(out:find("\nSeats: 0 Ann %(AI %w+%), 1 %w+ %(AI, seat 1%), 2 Bea %(AI %w+%), 3 %w+ %(AI, seat 3%)\n"))
    assert.matches("%(the trick goes to [^)]+%)", out)
    assert.matches("bids %w+", out)
    assert.matches("round 1 over: ", out)
    assert.matches("\nMatch over: .- and .- won, %d+ %- %d+%.\n$", out)
  end)

  it("refuses an id shared by two games, an unknown one, one not over and a bad one", function()
    local _
    local st = assert(rooms.open(data))
    store_game(st, TWIN_ID, "diloti", { seed = 6 })
    st:close()
    local out, err, code = replay { "--data", data, "d1d1" }
    assert.equal(1, code)
    assert.equal("", out)
    assert.matches("'d1d1' starts 2 finished games' ids", err)
    out, err, code = replay { "--data", data, DILOTI_ID:sub(1, 62) .. "d1" }
    assert.equal(0, code, err)
    assert.matches("^diloti, room " .. DILOTI_ID, out)
    _, err, code = replay { "--data", data, "abc" }
    assert.equal(1, code)
    assert.matches("no game 'abc' in " .. lit(data), err)
    _, err, code = replay { "--data", data, OPEN_ID:sub(1, 10) }
    assert.equal(1, code)
    assert.matches("the game in room " .. OPEN_ID .. " is not over yet", err)
    _, err, code = replay { "--data", data, "x'; DROP TABLE rooms; --" }
    assert.equal(1, code)
    assert.matches("letters, digits", err)
    assert.equal(0, select(3, replay { "--data", data }), "the store is whole")
  end)

  it("refuses a damaged record with the record's own message", function()
    local st = assert(rooms.open(data))
    local bad = texts.diloti:gsub("\n3 s(%d): [^\n]*", "\n3 s%1: Zz lay", 1)
    store_game(st, ("ab"):rep(32), "diloti", { seed = 3, record = bad })
    st:close()
    local out, err, code = replay { "--data", data, "abab" }
    assert.equal(1, code)
    assert.equal("", out)
    assert.matches("room abab.-:%d+: move 'Zz lay' refused", err)
  end)

  it("finds the default folder under XDG_STATE_HOME, and makes no folder to look in", function()
    local _
    local out, err, code = replay({}, { XDG_STATE_HOME = dir })
    assert.equal(0, code, err)
    assert.truthy(out:find("\n?" .. DILOTI_ID:sub(1, 12) .. " "), out)
    local empty = dir .. "/nothing/here"
    out, _, code = replay { "--data", empty }
    assert.equal(0, code)
    assert.equal("No finished games in " .. empty .. ".\n", out)
    assert.is_nil(require("diloti.core").filekind(dir .. "/nothing"))
    _, err, code = replay { "--data", empty, "abc" }
    assert.equal(1, code)
    assert.matches("no games stored in " .. lit(empty), err)
    assert.is_nil(require("diloti.core").filekind(dir .. "/nothing"))
  end)
end)
