-- The rooms of a server in SQLite (lua/server/rooms.lua): the folder and
-- file it makes, the schema and its version, rooms made and their
-- progress after every move, what a restart resumes and what replay
-- lists; bad values refused with the store untouched; and a server
-- killed with SIGKILL in the middle of its writes: on reopening, every
-- progress it had reported committed is there, and each record replays.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
require "diloti" -- (the compiled-in modules)
local rooms = require "diloti.server.rooms"
local store = require "diloti.store"
local record = require "diloti.match.record"
local room = require "diloti.room"

local function mode_of(path)
  local p = io.popen("stat -c %a " .. support.q(path))
  local m = p:read("l")
  p:close()
  return m
end

local function refused(pattern, v, msg)
  assert.is_nil(v, "expected a refusal matching " .. pattern)
  assert.truthy(tostring(msg):find(pattern), tostring(msg))
end

-- The record of an all-AI game after `moves` steps (all of them: nil).
local function game_record(seed, moves)
  local r = assert(room.new { game = "diloti", seed = seed, humans = 0, ai = "greedy" })
  local n = 0
  while not moves or n < moves do
    if not r:step() then break end
    n = n + 1
  end
  return assert(record.encode(r.g, r:meta())), r
end

local INFO = {
  game = "diloti", options = { players = 2, seed = 5, seats = { [1] = "greedy" } },
  tokens = { seats = { [0] = ("a"):rep(64) }, watch = ("b"):rep(64) }, names = { [0] = "Ann", [1] = "greedy" },
  created = 1790000000,
}

describe("rooms", function()
  local dir, st
  before_each(function()
    dir = support.tmpdir()
    st = assert(rooms.open(dir .. "/data/server"))
  end)
  after_each(function()
    if st then st:close() end
    support.rmdir(dir)
  end)

  describe("default_dir", function()
    local function env(t) return function(k) return t[k] end end
    it("is $XDG_STATE_HOME/diloti/server, else ~/.local/state/diloti/server", function()
      assert.equal("/s/diloti/server", rooms.default_dir(env { XDG_STATE_HOME = "/s", HOME = "/h" }))
      assert.equal("/h/.local/state/diloti/server", rooms.default_dir(env { HOME = "/h" }))
      -- (a relative XDG_STATE_HOME is to be ignored)
      assert.equal("/h/.local/state/diloti/server", rooms.default_dir(env { XDG_STATE_HOME = "s", HOME = "/h" }))
      refused("set HOME or XDG_STATE_HOME", rooms.default_dir(env {}))
      assert.is_string(rooms.default_dir())
    end)
  end)

  describe("open", function()
    it("makes the folder (0700) and the file (0600) with the schema and its version", function()
      assert.equal("700", mode_of(dir .. "/data/server"))
      assert.equal("600", mode_of(dir .. "/data/server/rooms.sqlite"))
      local db = assert(store.open(dir .. "/data/server/rooms.sqlite"))
      assert.equal(rooms.SCHEMA, db:rows("PRAGMA user_version")[1].user_version)
      assert.equal(1, #db:rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'rooms'"))
      db:close()
    end)

    it("opens the same file again, and from several connections at once", function()
      assert(st:create("r1", INFO))
      local other = assert(rooms.open(dir .. "/data/server"))
      assert.equal("Ann", other:get("r1").info.names[0])
      assert(other:create("r2", INFO))
      assert(st:get("r2"))
      other:close()
    end)

    it("refuses a file of another schema, a folder that is a file, and bad names", function()
      st:close()
      local db = assert(store.open(dir .. "/data/server/rooms.sqlite"))
      assert(db:exec("PRAGMA user_version = 7"))
      db:close()
      local s, err = rooms.open(dir .. "/data/server")
      refused("schema 7; this diloti knows schema 1 %(it was written by a newer diloti%)", s, err)
      st = nil
      support.write(dir .. "/file", "x")
      refused("is not a folder", rooms.open(dir .. "/file"))
      refused("expected a folder name", rooms.open(""))
      refused("expected a folder name", rooms.open(42))
      refused("NUL byte", rooms.open(dir .. "/a\0b"))
    end)

    it("refuses a database of someone else's with a table of that name, and says why", function()
      os.execute("mkdir " .. support.q(dir .. "/other"))
      local db = assert(store.open(dir .. "/other/rooms.sqlite"))
      assert(db:exec("CREATE TABLE rooms (x)"))
      db:close()
      refused("rooms: .*other/rooms.sqlite: .*table rooms already exists", rooms.open(dir .. "/other"))
    end)

    it("refuses a rooms file that is not a database", function()
      os.execute("mkdir " .. support.q(dir .. "/junk"))
      support.write(dir .. "/junk/rooms.sqlite", ("junk"):rep(2000))
      refused("not a database", rooms.open(dir .. "/junk"))
    end)
  end)

  describe("a room", function()
    it("keeps its info as given, seat numbers included", function()
      assert(st:create("r1", INFO))
      local r = assert(st:get("r1"))
      assert.same(INFO, r.info)
      assert.equal("diloti", r.game)
      assert.equal(INFO.created, r.created)
      assert.is_nil(r.record)
      assert.same({}, r.seqs)
      assert.is_false(r.finished)
    end)

    it("dates a room made without a date now", function()
      local info = { game = "pilotta" }
      local t0 = os.time()
      assert(st:create("r2", info))
      assert.is_true(st:get("r2").created >= t0)
      assert.is_nil(info.created, "the caller's table is left alone")
    end)

    it("refuses bad ids and bad info, and an id made twice, storing nothing", function()
      for _, id in ipairs { "", ("x"):rep(129), "a b", "x'; DROP TABLE rooms; --", "a\0b", 5, {} } do
        refused("a room id is", st:create(id, INFO))
      end
      refused("info must be a table", st:create("r", "diloti"))
      refused("info.game", st:create("r", { options = {} }))
      refused("info.created", st:create("r", { game = "diloti", created = 1.5 }))
      refused("info.tokens must be a table", st:create("r", { game = "diloti", tokens = "t" }))
      refused("cannot be stored", st:create("r", { game = "diloti", options = { f = print } }))
      local loop = {}
      loop.loop = loop
      refused("cannot be stored", st:create("r", { game = "diloti", options = loop }))
      refused("too big", st:create("r", { game = "diloti", names = { ("n"):rep(70000) } }))
      assert.same({}, st:unfinished())
      assert(st:create("r", INFO))
      refused("room r exists already", st:create("r", { game = "pilotta" }))
      assert.equal("diloti", st:get("r").game)
      refused("there is no room nope", st:get("nope"))
    end)
  end)

  describe("progress", function()
    before_each(function() assert(st:create("r1", INFO)) end)

    it("keeps the latest record and stream numbers after every move", function()
      for moves = 1, 5 do
        local text = game_record(5, moves)
        assert(st:progress("r1", { record = text, seqs = { [0] = moves, [1] = moves + 1, watch = 2 * moves } }))
        local r = st:get("r1")
        assert.equal(text, r.record)
        assert.same({ [0] = moves, [1] = moves + 1, watch = 2 * moves }, r.seqs)
        assert.is_false(r.finished)
      end
      local text = st:get("r1").record
      local g = assert(record.load(text, { text = true }))
      assert.equal(5, #g:history())
    end)

    it("marks a finished game once, with its summary, for the replay list", function()
      local text = game_record(5)
      assert(st:progress("r1", { record = text, finished = true, summary = "seat 0 wins, 61 - 40" }))
      local at = st:get("r1").finished_at
      assert.equal("integer", math.type(at))
      assert(st:progress("r1", { record = text, finished = true, summary = "seat 0 wins, 61 - 40" }))
      assert.equal(at, st:get("r1").finished_at)
      assert.same({}, st:unfinished())
      local list = st:finished()
      assert.same({ { id = "r1", game = "diloti", created = INFO.created, finished_at = at,
        summary = "seat 0 wins, 61 - 40" } }, list)
    end)

    it("refuses bad progress and unknown rooms with the stored progress untouched", function()
      local text = game_record(5, 3)
      assert(st:progress("r1", { record = text, seqs = { [0] = 3 } }))
      refused("there is no room r2", st:progress("r2", { record = text }))
      refused("a room id", st:progress("r1'--", { record = text }))
      refused("progress must be a table", st:progress("r1", text))
      refused("progress.record", st:progress("r1", { seqs = {} }))
      refused("progress.record", st:progress("r1", { record = 5 }))
      refused("progress.seqs must be a table", st:progress("r1", { record = text, seqs = 3 }))
      refused("progress.seqs%[0%] must be a whole number", st:progress("r1", { record = text, seqs = { [0] = -1 } }))
      refused("progress.seqs%[watch%]", st:progress("r1", { record = text, seqs = { watch = 1.5 } }))
      refused("progress.finished", st:progress("r1", { record = text, finished = "yes" }))
      refused("progress.summary", st:progress("r1", { record = text, summary = ("s"):rep(201) }))
      refused("progress.summary", st:progress("r1", { record = text, summary = {} }))
      refused("too big", st:progress("r1", { record = text, seqs = { [("k"):rep(70000)] = 1 } }))
      local r = st:get("r1")
      assert.equal(text, r.record)
      assert.same({ [0] = 3 }, r.seqs)
    end)

    it("resumes the unfinished rooms, oldest first, and reports damaged ones", function()
      local later = {}
      for k, v in pairs(INFO) do later[k] = v end
      later.created = INFO.created + 10
      assert(st:create("r0", later))
      local text = game_record(5, 2)
      assert(st:progress("r0", { record = text, seqs = { [0] = 2 } }))
      local list, damaged = st:unfinished()
      assert.same({}, damaged)
      assert.same({ "r1", "r0" }, { list[1].id, list[2].id })
      assert.same({ id = "r0", info = later, record = text, seqs = { [0] = 2 } }, list[2])
      -- a row damaged behind the store's back: left out, with a message
      local db = assert(store.open(st.path))
      assert(db:exec("UPDATE rooms SET info = '{not json' WHERE id = 'r1'"))
      db:close()
      list, damaged = st:unfinished()
      assert.equal(1, #list)
      assert.equal(1, #damaged)
      assert.truthy(damaged[1]:find("room r1: its info is damaged"), damaged[1])
      refused("damaged", st:get("r1"))
    end)
  end)

  it("changes fields of a room's info and keeps the others (update_info)", function()
    assert(st:create("u1", { game = "diloti", options = { rules = "diloti" }, names = { "Ann" } }))
    assert.is_true(st:update_info("u1", { demoted = { 1, 3 } }))
    local row = assert(st:get("u1"))
    assert.same({ 1, 3 }, row.info.demoted)
    assert.same({ rules = "diloti" }, row.info.options)
    assert.equal("diloti", row.info.game)
    refused("there is no room", st:update_info("nobody", { demoted = {} }))
    refused("changes must be a table", st:update_info("u1", 7))
    refused("info.options must be a table", st:update_info("u1", { options = "x" }))
    refused("info.game must name the game", st:update_info("u1", { game = "" }))
    assert.same({ rules = "diloti" }, assert(st:get("u1")).info.options)
  end)

  it("raises for a store used after close", function()
    st:close()
    assert.is_true(st:close())
    assert.has_error(function() st:get("r1") end, "rooms: the store is closed")
    st = nil
  end)

  -- Rooms in threads of their own, each with its connection: here
  -- processes, started together on a folder that does not exist yet, so
  -- that they race to make the folder, the file and the schema, then
  -- write at the same time.
  it("lets several writers start on a fresh folder and write at once", function()
    local fresh = dir .. "/fresh/server"
    local writers = {}
    for k = 1, 3 do
      writers[k] = support.spawn(string.format([[
        require "diloti"
        local rooms = require "diloti.server.rooms"
        local st = assert(rooms.open(%q))
        local id = "w%d"
        assert(st:create(id, { game = "diloti" }))
        for i = 1, 200 do
          assert(st:progress(id, { record = ("r"):rep(1000) .. i, seqs = { watch = i } }))
        end
        print("done")
      ]], fresh, k), 60)
    end
    for k = 1, 3 do
      local out, code = writers[k].wait()
      assert.equal(0, code, out)
      assert.equal("done\n", out)
    end
    local s = assert(rooms.open(fresh))
    for k = 1, 3 do
      local r = assert(s:get("w" .. k))
      assert.equal(200, r.seqs.watch)
      assert.equal(("r"):rep(1000) .. 200, r.record)
    end
    s:close()
  end)

  -- A server killed in the middle of its writes: a child diloti plays
  -- all-AI games, stores each room's progress after every move and says
  -- so on stdout after the store answered; it is killed with SIGKILL as
  -- soon as enough has been said.
  it("finds every reported progress again after the writer is killed with SIGKILL", function()
    st:close()
    st = nil
    local script = support.write(dir .. "/writer.lua", [[
      require "diloti"
      local rooms = require "diloti.server.rooms"
      local room = require "diloti.room"
      local record = require "diloti.match.record"
      local st = assert(rooms.open(arg[1]))
      for k = 1, 500 do
        local id = "room-" .. k
        assert(st:create(id, { game = "diloti", options = { seed = k } }))
        local r = assert(room.new { game = "diloti", seed = k, humans = 0, ai = "greedy" })
        local n = 0
        while r:step() do
          n = n + 1
          local over = r.g:phase() == "match-over"
          assert(st:progress(id, { record = assert(record.encode(r.g, r:meta())), seqs = { watch = n },
            finished = over, summary = over and "over" or nil }))
          io.stdout:write(id, " ", n, over and " over" or "", "\n")
          io.stdout:flush()
        end
      end
    ]])
    local cmd = string.format("sh -c 'echo $$; exec \"$0\" run \"$1\" \"$2\"' %s %s %s 2>&1",
      support.q(support.bin), support.q(script), support.q(dir .. "/data/server"))
    local p = assert(io.popen(cmd, "r"))
    local pid = assert(math.tointeger(tonumber(p:read("l"))), "the writer's pid")
    local said, lines = {}, 0
    -- enough to finish a game or two and be in the middle of another
    while lines < 600 do
      local line = p:read("l")
      assert(line, "the writer stopped early")
      local id, n, over = line:match("^(%S+) (%d+)( ?o?v?e?r?)$")
      assert(id, line)
      said[id] = { n = math.tointeger(tonumber(n)), over = over ~= "" }
      lines = lines + 1
    end
    assert.is_true(os.execute("kill -KILL " .. pid))
    p:close()
    st = assert(rooms.open(dir .. "/data/server"))
    local db = assert(store.open(st.path))
    assert.equal("ok", db:rows("PRAGMA integrity_check")[1].integrity_check)
    db:close()
    local finished = 0
    for id, s in pairs(said) do
      local r = assert(st:get(id))
      -- (the writer runs ahead of the reader: what it stored after the
      -- last line read is there too)
      assert.is_true(r.seqs.watch >= s.n, id)
      local g = assert(record.load(r.record, { text = true, name = id }))
      assert.equal(r.seqs.watch, #g:history())
      if s.over then
        finished = finished + 1
        assert.is_true(r.finished, id)
        assert.equal("match-over", g:phase())
      end
    end
    assert.is_true(finished >= 1, "a game was finished before the kill")
    assert.is_true(#st:finished() >= finished)
    assert.is_true(#st:unfinished() >= 1)
    -- and the file takes writes again
    assert(st:create("after", { game = "diloti" }))
  end)
end)
