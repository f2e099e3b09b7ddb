-- diloti.store (src/net/store.c), the SQLite binding under the rooms'
-- records, tried as an attacker would: every argument of the wrong type,
-- strings too big, NUL bytes, SQL smuggled after a statement or inside a
-- value, paths that are not ordinary files, a closed database, errors
-- inside a transaction. A refusal is a clear message (or, for a caller's
-- programming error, a raised one), never a crash, and the database
-- stays usable after it.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local support = dofile(here .. "support.lua")
require "diloti" -- (the compiled-in modules)
local store = require "diloti.store"

local function raised(pattern, fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.truthy(tostring(err):find(pattern), tostring(err))
end

local function refused(pattern, v, msg)
  assert.is_nil(v, "expected a refusal matching " .. pattern)
  assert.truthy(tostring(msg):find(pattern), tostring(msg))
end

describe("diloti.store", function()
  local dir, db
  before_each(function()
    dir = support.tmpdir()
    db = assert(store.open(dir .. "/t.sqlite"))
    assert(db:exec("CREATE TABLE t(k INTEGER PRIMARY KEY, v)"))
  end)
  after_each(function()
    if db then db:close() end
    support.rmdir(dir)
  end)

  describe("open", function()
    it("makes the file with mode 0600, in WAL with synchronous=NORMAL and a busy timeout", function()
      local p = io.popen("stat -c %a " .. support.q(dir .. "/t.sqlite"))
      local mode = p:read("l")
      p:close()
      assert.equal("600", mode)
      assert.equal("wal", db:rows("PRAGMA journal_mode")[1].journal_mode)
      assert.equal(1, db:rows("PRAGMA synchronous")[1].synchronous) -- NORMAL
      assert.equal(5000, db:rows("PRAGMA busy_timeout")[1].timeout)
    end)

    it("raises for a name that is not a string (a number is not made a file name)", function()
      for _, v in ipairs { 1.5, 7, true, {}, print, io.stdout } do raised("bad argument #1", store.open, v) end
      assert.is_nil(io.open("1.5"))
      assert.is_nil(io.open("7"))
      raised("bad argument #1", store.open)
    end)

    it("refuses an empty name, a NUL byte, a folder, a link, a FIFO and a missing folder", function()
      refused("expected a file name", store.open(""))
      refused("NUL byte", store.open(dir .. "/a\0b"))
      assert.is_nil(io.open(dir .. "/a"), "nothing made for the name cut at the NUL")
      refused("not an ordinary file", store.open(dir))
      os.execute("ln -s t.sqlite " .. support.q(dir .. "/link"))
      refused("not an ordinary file", store.open(dir .. "/link"))
      os.execute("ln -s nowhere " .. support.q(dir .. "/dangling"))
      refused("not an ordinary file", store.open(dir .. "/dangling"))
      assert.is_nil(io.open(dir .. "/nowhere"), "a dangling link's target is not made")
      os.execute("mkfifo " .. support.q(dir .. "/fifo"))
      refused("not an ordinary file", store.open(dir .. "/fifo"))
      refused("cannot open .*No such file", store.open(dir .. "/no/such/t.sqlite"))
    end)

    it("refuses a file that is not a database, and leaves it alone", function()
      support.write(dir .. "/junk", ("not sqlite\n"):rep(1000))
      local d, err = store.open(dir .. "/junk")
      if d then -- (SQLite may only notice at the first statement)
        refused("not a database", d:rows("SELECT * FROM sqlite_master"))
        d:close()
      else
        refused("not a database", d, err)
      end
      assert.equal(("not sqlite\n"):rep(1000), support.read(dir .. "/junk"))
    end)

    it("opens an in-memory database for tests", function()
      local m = assert(store.open(":memory:"))
      assert(m:exec("CREATE TABLE x(a)"))
      m:close()
      assert.is_nil(io.open(":memory:"), "no file named :memory:")
    end)
  end)

  describe("exec and rows", function()
    it("round-trips every kind of value by position", function()
      local values = { math.maxinteger, math.mininteger, 0, -1, 2.5, -0.25, 1e300, "", "text", "a\0b\0",
        "\255\254 not utf-8", true, false }
      for i, v in ipairs(values) do assert(db:exec("INSERT INTO t VALUES (?, ?)", i, v)) end
      assert(db:exec("INSERT INTO t VALUES (?, ?)", 100, nil))
      local rows = assert(db:rows("SELECT k, v FROM t ORDER BY k"))
      assert.equal(#values + 1, #rows)
      for i, v in ipairs(values) do
        local want = v == true and 1 or v == false and 0 or v
        assert.equal(want, rows[i].v)
        assert.equal(math.type(want), math.type(rows[i].v))
      end
      assert.is_nil(rows[#rows].v)
      assert.equal(100, rows[#rows].k)
    end)

    it("answers how many rows changed, and rows keyed by column name", function()
      for i = 1, 5 do assert(db:exec("INSERT INTO t VALUES (?, ?)", i, i * i)) end
      local ok, n = db:exec("UPDATE t SET v = v + 1 WHERE k > ?", 2)
      assert.is_true(ok)
      assert.equal(3, n)
      local _, zero = db:exec("SELECT * FROM t")
      assert.equal(0, zero)
      local rows = db:rows("SELECT k AS key, v AS value FROM t WHERE k = ?", 4)
      assert.same({ { key = 4, value = 17 } }, rows)
      assert.same({}, db:rows("SELECT * FROM t WHERE k > 99"))
    end)

    it("keeps a value a value: SQL inside it is never run", function()
      local evil = "x'); DROP TABLE t; --"
      assert(db:exec("INSERT INTO t VALUES (1, ?)", evil))
      assert.equal(evil, db:rows("SELECT v FROM t")[1].v)
    end)

    it("refuses a second statement after the first, whatever it is", function()
      refused("one statement per call", db:exec("INSERT INTO t VALUES (1, 1); DROP TABLE t"))
      refused("one statement per call", db:rows("SELECT 1; SELECT 2"))
      refused("one statement per call", db:exec("SELECT 1; -- a comment"))
      refused("no SQL statement", db:exec(""))
      refused("no SQL statement", db:exec("  ;  "))
      refused("no SQL statement", db:exec("-- only a comment"))
      assert(db:exec("INSERT INTO t VALUES (1, 1);  \n"))
      assert.equal(1, #db:rows("SELECT * FROM t"), "the table is still there, with the one row")
    end)

    it("refuses SQL with a NUL byte, and SQL or values too big", function()
      refused("NUL byte", db:exec("SELECT 1\0; DROP TABLE t"))
      refused("NUL byte", db:rows("\0"))
      refused("too long", db:exec("SELECT '" .. ("x"):rep(2 * 1024 * 1024) .. "'"))
      refused("too big", db:exec("INSERT INTO t VALUES (1, ?)", ("x"):rep(65 * 1024 * 1024)))
      local big = ("0123456789abcdef"):rep(1024 * 1024) -- 16 MiB: stored and read back whole
      assert(db:exec("INSERT INTO t VALUES (2, ?)", big))
      assert.equal(#big, #db:rows("SELECT v FROM t WHERE k = 2")[1].v)
      refused("too big", db:rows("SELECT zeroblob(100000000)"))
      assert.same({ { n = 1 } }, db:rows("SELECT count(*) AS n FROM t"))
    end)

    it("checks the number of values against the statement's", function()
      refused("takes 2 value%(s%), 1 given", db:exec("INSERT INTO t VALUES (?, ?)", 1))
      refused("takes 2 value%(s%), 3 given", db:exec("INSERT INTO t VALUES (?, ?)", 1, 2, 3))
      refused("takes 0 value%(s%), 1 given", db:rows("SELECT 1", nil))
      local many = {}
      for i = 1, 300 do many[i] = "?" end
      refused("too many SQL variables", db:rows("SELECT " .. table.concat(many, ","), table.unpack(many)))
      assert.same({}, db:rows("SELECT * FROM t"))
    end)

    it("raises for arguments of the wrong type", function()
      for _, name in ipairs { "exec", "rows" } do
        local m = db[name]
        for _, v in ipairs { {}, print, io.stdout, coroutine.create(print) } do
          raised("value #2 is a", m, db, "SELECT ?, ?", 1, v)
        end
        raised("bad argument #2", m, db, {})
      raised("bad argument #2", m, db, 1) -- (a number is not taken for SQL)
        raised("bad argument #2", m, db)
        raised("bad argument #1", m, io.stdout, "SELECT 1")
        raised("bad argument #1", m, {}, "SELECT 1")
        raised("bad argument #1", m, nil, "SELECT 1")
      end
    end)

    it("answers SQLite's refusals with a message, and stays usable", function()
      refused("syntax error", db:exec("SELEC 1"))
      refused("no such table", db:rows("SELECT * FROM missing"))
      assert(db:exec("INSERT INTO t VALUES (1, 1)"))
      refused("UNIQUE constraint failed", db:exec("INSERT INTO t VALUES (1, 2)"))
      refused("too many attached databases", db:exec("ATTACH DATABASE ? AS other", dir .. "/other.sqlite"))
      assert.is_nil(io.open(dir .. "/other.sqlite"))
      assert.same({ { v = 1 } }, db:rows("SELECT v FROM t"))
    end)
  end)

  describe("tx", function()
    it("commits what the function did and answers its results", function()
      local ok, a, b = db:tx(function(d)
        assert(d:exec("INSERT INTO t VALUES (1, 'a')"))
        assert(d:exec("INSERT INTO t VALUES (2, 'b')"))
        return "done", 2
      end)
      assert.same({ true, "done", 2 }, { ok, a, b })
      assert.equal(2, #db:rows("SELECT * FROM t"))
    end)

    it("rolls back on an error and raises that same error", function()
      local token = {}
      local ok, err = pcall(db.tx, db, function(d)
        assert(d:exec("INSERT INTO t VALUES (1, 'a')"))
        error(token)
      end)
      assert.is_false(ok)
      assert.equal(token, err)
      assert.same({}, db:rows("SELECT * FROM t"))
      raised("boom", db.tx, db, function() error("boom") end)
      assert(db:exec("INSERT INTO t VALUES (1, 'a')"), "no transaction left open")
    end)

    it("refuses a transaction inside another, a yield, and one ended by hand", function()
      local inner
      assert(db:tx(function(d) inner = { d:tx(function() end) } end))
      refused("within a transaction", inner[1], inner[2])
      local co = coroutine.wrap(function()
        return pcall(db.tx, db, function(d)
          assert(d:exec("INSERT INTO t VALUES (5, 5)"))
          coroutine.yield("yielded")
        end)
      end)
      local ok, err = co()
      assert.is_false(ok)
      assert.truthy(tostring(err):find("yield"), tostring(err))
      refused("ended inside the function", db:tx(function(d) assert(d:exec("COMMIT")) end))
      assert.same({}, db:rows("SELECT * FROM t WHERE k = 5"))
    end)

    it("copes with the database closed inside the function", function()
      refused("closed inside the transaction", db:tx(function(d) d:close() end))
      raised("the database is closed", db.exec, db, "SELECT 1")
      db = assert(store.open(dir .. "/t.sqlite"))
      raised("later", db.tx, db, function(d) d:close() error("later") end)
      db = nil
    end)

    it("raises for a function that is not one", function()
      for _, v in ipairs { 1, "SELECT 1", {}, true } do raised("bad argument #2", db.tx, db, v) end
      raised("bad argument #2", db.tx, db)
    end)
  end)

  describe("closing", function()
    it("closes once, answers a clear error after, and closes on scope exit and collection", function()
      assert.is_true(db:close())
      assert.is_true(db:close())
      assert.equal("diloti.store db (closed)", tostring(db))
      raised("exec: the database is closed", db.exec, db, "SELECT 1")
      raised("rows: the database is closed", db.rows, db, "SELECT 1")
      raised("tx: the database is closed", db.tx, db, function() end)
      do
        local d <close> = assert(store.open(dir .. "/t.sqlite"))
        db = d
      end
      raised("the database is closed", db.exec, db, "SELECT 1")
      db = nil
      local x = assert(store.open(dir .. "/t.sqlite"))
      assert(x:exec("INSERT INTO t VALUES (7, 7)"))
      local wal = dir .. "/t.sqlite-wal"
      assert.equal("file", require("diloti.core").filekind(wal), "the WAL file is there while x is open")
      x = nil -- luacheck: ignore 311
      collectgarbage()
      collectgarbage()
      -- (the last connection closed removes the WAL file: x was closed by
      -- the collector)
      assert.is_nil(require("diloti.core").filekind(wal))
      local y = assert(store.open(dir .. "/t.sqlite"))
      assert(y:exec("PRAGMA busy_timeout = 0"))
      assert(y:tx(function(d) assert(d:exec("INSERT INTO t VALUES (8, 8)")) end))
      assert.equal(2, #y:rows("SELECT * FROM t"))
      y:close()
    end)

    it("locks the metatable: no method can be swapped or reached for another object", function()
      assert.equal("locked", getmetatable(db))
      raised("index", function() db.exec = print end)
      raised("bad argument #1", db.close, "not a db")
    end)
  end)

  it("keeps two connections to one file apart, each seeing what the other committed", function()
    local other = assert(store.open(dir .. "/t.sqlite"))
    assert(db:exec("INSERT INTO t VALUES (1, 'one')"))
    assert.same({ { v = "one" } }, other:rows("SELECT v FROM t"))
    assert(other:exec("PRAGMA busy_timeout = 0"))
    local ok, busy
    db:tx(function(d)
      assert(d:exec("INSERT INTO t VALUES (2, 'two')"))
      ok, busy = other:exec("INSERT INTO t VALUES (3, 'three')")
    end)
    refused("locked", ok, busy)
    assert.equal(2, #other:rows("SELECT * FROM t"))
    other:close()
  end)
end)
