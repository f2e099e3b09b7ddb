-- Files read on a script's or a record's behalf: a record names its AIs by
-- name, never by a path, and every file the program reads has a size
-- limit and must be an ordinary file (not /dev/zero, a FIFO, a folder).
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
local diloti = require "diloti"
local record = require "diloti.match.record"
local textfile = require "diloti.scripts.textfile"
local repl = require "diloti.table.repl"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }
local ai = require "diloti.ai"

local MB = 1024 * 1024
local GREEDY = require("diloti.core").embedded("lua/games/diloti/ai/")["lua/games/diloti/ai/greedy.lua"]

-- A sparse file of `size` bytes (nothing written but its last byte).
local function sparse(path, size)
  local f = assert(io.open(path, "wb"))
  f:seek("set", size - 1)
  f:write("x")
  f:close()
  return path
end

local function elapsed(f)
  local t0 = os.time()
  local a, b = f()
  return os.time() - t0, a, b
end

-- A record of one move with seat 1 described as `seat1` (line 4).
local function record_text(seat1)
  local g = assert(diloti.new { seed = 3 })
  return table.concat({ "diloti-record 1", "rules: diloti", "seed: 3", "seat 1: " .. seat1, "moves",
    "1 s0: " .. g:moves()[1], "end 1", "" }, "\n")
end

local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8" }

local function session(extra)
  local out = {}
  local o = {
    write = function(s) out[#out + 1] = s end,
    read = function() return nil end,
    getenv = function(k) return ENV[k] end,
    clock = function() return 1000 end,
    game = { seed = 5, ai = "random" },
  }
  for k, v in pairs(extra or {}) do o[k] = v end
  local s = assert(repl.new(setmetatable({ extensions = EXT }, { __index = o })))
  s:advance() -- as run() does: the computer moves until a person is to move
  -- (the output with the lines the table wrapped joined again)
  return s, function()
    local text = table.concat(out):gsub("\n  +", " ")
    out = {}
    return text
  end
end

describe("a record names its AIs, never files", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() support.rmdir(dir) end)

  for _, case in ipairs {
    { "/dev/zero", "a path" }, { "../../x.lua", "a path" }, { "sub/greedy", "a path" },
    { "greedy.lua", "a script file" }, { "-greedy", "a name" }, { "gr%eedy", "a name" },
  } do
    local desc = "ai " .. case[1]
    it("refuses 'seat 1: " .. desc .. "' naming the line", function()
      local rec, err = record.decode(record_text(desc), "r.dlt")
      assert.is_nil(rec)
      assert.matches("^r%.dlt:4: seat 1: ", err)
      assert.matches("not an AI name", err)
      -- and at the table, where it is refused at once, nothing read
      local path = support.write(dir .. "/r.dlt", record_text(desc))
      local s, output = session()
      local g = s.g
      local secs = elapsed(function() s:handle("load " .. path) end)
      local out = output()
      assert.matches("Not loaded %(your game is unchanged%): .*r%.dlt:4: seat 1: ", out)
      assert.equals(g, s.g)
      assert.is_true(secs <= 1)
      s:handle("replay " .. path)
      assert.matches("Cannot replay: .*r%.dlt:4: seat 1: ", output())
    end)
  end

  it("still reads a seat described with words after the AI's name, and people's names", function()
    local rec = assert(record.decode(record_text("ai master seed=3"), "r"))
    assert.equals("ai master seed=3", rec.seats[1])
    assert.equals("master", record.seat_ai(rec.seats[1]))
    assert(record.decode(record_text("human Maria / Μαρία"), "r"))
    assert.is_nil(record.seat_ai("human"))
    assert.is_nil(record.seat_ai("aimless"))
  end)

  it("saves an AI loaded from a path by its name, and says so in a comment", function()
    local src = GREEDY:gsub('name = "greedy"', 'name = "mine"')
    os.execute("mkdir -p " .. support.q(dir .. "/ais"))
    local file = support.write(dir .. "/ais/mine.lua", src)
    local s, output = session { game = { seed = 5, ai = file } }
    assert.matches("mine", s.names[1])
    s:handle("1")
    s:handle("save " .. dir .. "/g.dlt")
    assert.matches("Saved", output())
    local text = support.read(dir .. "/g.dlt")
    assert.matches("\nseat 1: ai mine\n", text)
    assert.not_matches(support.lit(dir), text)
    assert.matches("\n# [^\n]*mine[^\n]*install", text)
    -- Loading it needs the AI installed under that name.
    local t, tout = session()
    t:handle("load " .. dir .. "/g.dlt")
    assert.matches("Not loaded.*unknown AI 'mine'", tout())
    t.ai_dirs = { dir .. "/ais" }
    t:handle("load " .. dir .. "/g.dlt")
    assert.matches("Loaded", tout())
    assert.equals(s.g:position(), t.g:position())
  end)

  it("lets the user name an AI file at the table and on the command line", function()
    local src = GREEDY:gsub('name = "greedy"', 'name = "mine"')
    local file = support.write(dir .. "/mine.lua", src)
    local s, output = session()
    s:handle("new ai=" .. file)
    assert.matches("New game: .*against " .. support.lit(file), output())
    local out, err, code = support.cli { "play", "--ai", file, "--seed", "2" }
    assert.equals(0, code, err)
    assert.matches(support.lit(file) .. " %(North%)", out)
  end)
end)

describe("size limits and ordinary files", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function()
    support.rmdir(dir)
    ai.refresh()
  end)

  -- textfile.read(path) in a child process (a read of /dev/zero or a FIFO
  -- that went wrong would never end): its message.
  local function read_in_child(path)
    local child = support.spawn(([[
      require "diloti"
      print(select(2, require("diloti.scripts.textfile").read(%q)))]]):format(path), 10)
    local out, status = child.wait()
    assert.equals(0, status, out)
    return out
  end

  it("textfile.read refuses devices, FIFOs and folders, and applies a limit unless told another", function()
    assert.matches("/dev/zero: not an ordinary file", read_in_child("/dev/zero"))
    local text, err = textfile.read(dir)
    assert.is_nil(text)
    assert.matches("a folder", err)
    assert.is_true(os.execute("mkfifo " .. support.q(dir .. "/fifo")))
    assert.matches("fifo: not an ordinary file", read_in_child(dir .. "/fifo"))
    sparse(dir .. "/big", textfile.MAX_SCRIPT + 1)
    text, err = textfile.read(dir .. "/big")
    assert.is_nil(text)
    assert.matches("larger than " .. textfile.MAX_SCRIPT .. " bytes", err)
    assert.equals(textfile.MAX_SCRIPT + 1, #assert(textfile.read(dir .. "/big", textfile.MAX_SCRIPT + 1)))
    -- a link to an ordinary file is followed
    support.write(dir .. "/real", "text")
    os.execute("ln -s " .. support.q(dir .. "/real") .. " " .. support.q(dir .. "/link"))
    assert.equals("text", textfile.read(dir .. "/link"))
    os.execute("ln -s /dev/zero " .. support.q(dir .. "/zero"))
    assert.matches("zero: not an ordinary file", read_in_child(dir .. "/zero"))
  end)

  it("refuses a 100 MB record quickly, and /dev/zero or a FIFO given as one", function()
    local path = sparse(dir .. "/huge.dlt", 100 * MB)
    local secs, g, err = elapsed(function() return record.load(path) end)
    assert.is_nil(g)
    assert.matches("huge%.dlt: larger than " .. record.MAX_BYTES .. " bytes", err)
    assert.is_true(secs <= 1)
    local s, output = session()
    s:handle("load " .. path)
    assert.matches("Not loaded.*larger than", output())
    s:handle("load /dev/zero")
    assert.matches("Not loaded.*not an ordinary file", output())
    os.execute("mkfifo " .. support.q(dir .. "/fifo"))
    -- (a reader that opened the FIFO would wait for a writer for ever)
    local child = support.spawn(([[
      require "diloti"
      print(select(2, require("diloti.match.record").load(%q)))]]):format(dir .. "/fifo"), 10)
    local out, status = child.wait()
    assert.equals(0, status, out)
    assert.matches("not an ordinary file", out)
  end)

  it("diloti ai lists the AIs of a folder holding a huge script, which is refused", function()
    local src = GREEDY:gsub('name = "greedy"', 'name = "mine"')
    support.write(dir .. "/mine.lua", src)
    sparse(dir .. "/huge.lua", 100 * MB)
    os.execute("mkfifo " .. support.q(dir .. "/fifo.lua"))
    local t0 = os.time()
    local out, err, code = support.cli { "--ai-dir", dir, "ai" }
    assert.is_true(os.time() - t0 <= 5)
    assert.equals(0, code)
    assert.matches("\nmine ", "\n" .. out)
    assert.matches("greedy", out)
    assert.matches("AI refused: [^\n]*huge%.lua: larger than " .. textfile.MAX_SCRIPT .. " bytes", err)
    assert.matches("AI refused: [^\n]*fifo%.lua: not an ordinary file", err)
    assert.not_matches(support.lit(dir .. "/huge.lua: " .. dir), err)
  end)

  it("an AI, a variant or a lesson named by path or found in a folder is refused when huge", function()
    sparse(dir .. "/big.lua", 100 * MB)
    local p, err = ai.player(dir .. "/big.lua")
    assert.is_nil(p)
    assert.matches("larger than", err)
    local child = support.spawn([[
      require "diloti"
      print(select(2, require("diloti.ai").player("/dev/zero")))]], 10)
    local out, status = child.wait()
    assert.equals(0, status, out)
    assert.matches("not an ordinary file", out)
    local found, errors = {}, {}
    local listed = textfile.each_script(dir, function(_, path) found[#found + 1] = path end, errors)
    assert.is_true(listed)
    assert.same({}, found)
    assert.matches("big%.lua: larger than", errors[1].message)
    local _, _, verrors = diloti.variants.load_all({ dir })
    assert.matches("larger than", verrors[1].message)
    local code
    out, _, code = support.cli { "learn", "--check", dir .. "/big.lua" }
    assert.equals(1, code)
    assert.matches("larger than", out)
  end)

  it("table.lua and the lesson progress are read with a limit too", function()
    os.execute("mkdir -p " .. support.q(dir .. "/diloti"))
    sparse(dir .. "/diloti/table.lua", 100 * MB)
    local out, err, code = support.cli({ "play", "--seed", "2" }, { XDG_CONFIG_HOME = dir })
    assert.equals(0, code, err)
    assert.matches("table%.lua.-larger than", out)
    local learn = require "diloti.teach.learn"
    sparse(dir .. "/progress", 100 * MB)
    local secs, p = elapsed(function() return learn.load_progress(dir .. "/progress") end)
    assert.same({}, p)
    assert.is_true(secs <= 1)
  end)

  it("merge refuses a result file over its limit", function()
    local path = sparse(dir .. "/r.json", 200 * MB)
    local _, err, code = support.cli { "merge", path }
    assert.equals(1, code)
    assert.matches("r%.json: larger than", err)
  end)
end)
