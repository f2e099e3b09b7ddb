-- Robustness of the table (issue 7): every command with every kind of
-- bad argument, a save file cut at every byte offset, a save from other
-- rules, a directory given as a file, a replay fed bad lines. Nothing may
-- crash a command (the table would report "the 'x' command failed"), and
-- the current game is never lost: the same position afterwards, unless
-- the command did what was asked.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
require "diloti" -- (makes the built-in modules, diloti.repl and the rest, available)
local repl = require "diloti.table.repl"
-- The table as the program builds it: with the lessons and the coach.
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }
local commands = require "diloti.table.commands"

local dir = support.tmpdir()
teardown(function() support.rmdir(dir) end)

-- Everything a command might write (saves, a lesson's progress) stays in
-- the test's own folder.
local ENV = { NO_COLOR = "1", TERM = "xterm", LANG = "C.UTF-8", HOME = dir .. "/home",
  XDG_CONFIG_HOME = dir .. "/config", XDG_STATE_HOME = dir .. "/state" }
local function getenv(k) return ENV[k] end

local POS = "hands=8h 2d 7c / 9c 3s; table=8c 6d 5s 3h 2c"

--- A session whose input lines come from `lines` (nil after them).
local function session(game, lines)
  local i = 0
  local s = assert(repl.new { extensions = EXT,
    write = function() end,
    read = function()
      i = i + 1
      return lines and lines[i]
    end,
    getenv = getenv, clock = function() return 1000 end,
    game = game or { position = POS, ai = "random", seed = 3 },
  })
  s:advance()
  return s
end

--- Handles one line; returns its output.
local function say(s, line)
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  return table.concat(out)
end

-- Bad arguments of every kind.
local BAD = {
  empty = "",
  spaces = "   \t ",
  garbage = "%%$#@!&*()[]{}<>|\\",
  huge = string.rep("x", 100 * 1024),
  huge_words = string.rep("ab ", 35 * 1024),
  binary = "\0\1\2\255\254\27[2J\127",
  unicode = "δηλωτή ♣♦♥♠ 🂡 \u{202E}evil",
  bad_utf8 = "\xC3\x28\xA0\xA1\xF0\x28\x8C\x28",
  negative = "-1",
  zero = "0",
  big_number = "99999999999999999999999999",
  float = "1e308",
  nan = "nan",
  minint = "-9223372036854775808",
  directory = dir,
  root = "/",
  unreadable = "/proc/1/mem",
  missing = dir .. "/no/such/file.dlt",
  dev_null = "/dev/null",
  format = "%s%s%s%n%d",
  newline = "a\nb\rc",
  option_garbage = "players=x ai= rules=+ seed=1.5 target=-1 practice=maybe",
  option_range = "players=99 humans=99 dealer=99 target=0",
  lua_code = "error(setmetatable({}, { __tostring = function() return 'odd' end }))",
}
local BAD_NAMES = {}
for k in pairs(BAD) do BAD_NAMES[#BAD_NAMES + 1] = k end
table.sort(BAD_NAMES)

-- Commands that would legitimately leave or change the game with some
-- arguments: quit ends the session; new may start a game.
local CHANGES = { quit = true, new = true }

describe("the table, robust", function()
  describe("every command with every kind of bad argument", function()
    for _, c in ipairs(commands.list) do
      it(c.name, function()
        for _, kind in ipairs(BAD_NAMES) do
          local s = session()
          local before = s.g:position()
          local arg = BAD[kind]
          -- What save writes must land in the test's own folder: never in
          -- the checkout, and never over a system file (the tests may run
          -- as root, where saving over /dev/null would replace it).
          if c.name == "save" and arg:match("%S") and arg:sub(1, #dir) ~= dir then
            arg = arg:match("^%s*/") and (dir .. "/abs" .. arg:gsub("/", "_")) or (dir .. "/" .. arg)
          end
          local ok, out = pcall(say, s, c.name .. " " .. arg)
          assert(ok, c.name .. " with " .. kind .. " raised: " .. tostring(out))
          assert.is_nil(out:find("command failed", 1, true), c.name .. " with " .. kind .. " crashed: "
            .. out:sub(1, 400))
          if not CHANGES[c.name] then
            assert.equals(before, s.g:position(), c.name .. " with " .. kind .. " changed the game")
          end
          -- the session still works after it
          if not s.done then
            local after = say(s, "moves")
            assert.is_nil(after:find("command failed", 1, true))
          end
        end
      end)
    end

    it("new refuses out-of-range options and keeps the game", function()
      for _, rest in ipairs{ "players=99", "players=1", "humans=9", "dealer=99", "dealer=-1", "seed=x",
                             "target=abc", "rules=nonsense", "rules=diloti+diloti", "ai=nobody",
                             "partner=nobody", "practice=maybe", "color=red", BAD.huge, BAD.binary } do
        local s = session()
        local before = s.g:position()
        local out = say(s, "new " .. rest)
        assert.is_nil(out:find("command failed", 1, true), "new " .. rest:sub(1, 40) .. ": " .. out:sub(1, 300))
        if not out:find("New game", 1, true) then
          assert.equals(before, s.g:position(), "new " .. rest:sub(1, 40))
        end
      end
    end)

    it("a huge, binary or unicode line that is neither command nor move keeps the game", function()
      for _, kind in ipairs(BAD_NAMES) do
        local s = session()
        local before = s.g:position()
        local ok, out = pcall(say, s, BAD[kind])
        assert(ok, kind .. " raised: " .. tostring(out))
        assert.equals(before, s.g:position(), kind)
      end
    end)
  end)

  describe("loading saves", function()
    local path, text, saved_pos

    lazy_setup(function()
      local s = session({ seed = 9, ai = "random" })
      for _ = 1, 6 do say(s, "1") end
      path = dir .. "/full.dlt"
      assert.matches("Saved", say(s, "save " .. path))
      text = support.read(path)
      saved_pos = s.g:position()
    end)

    it("a save cut at every byte offset never loses the current game", function()
      local s = session()
      local cut = dir .. "/cut.dlt"
      local loaded, refused = 0, 0
      for n = 0, #text - 1 do
        local before = s.g:position()
        support.write(cut, text:sub(1, n))
        local out = say(s, "load " .. cut)
        assert.is_nil(out:find("command failed", 1, true), "at " .. n .. ": " .. out:sub(1, 300))
        if out:find("^Loaded") then
          -- only a cut inside the final newline can still be whole
          assert.is_true(n >= #text - 2, "a file cut at byte " .. n .. " of " .. #text .. " loaded")
          assert.equals(saved_pos, s.g:position())
          loaded = loaded + 1
          s = session()
        else
          assert.matches("Not loaded %(your game is unchanged%)", out)
          assert.equals(before, s.g:position(), "the game changed after a cut at " .. n)
          refused = refused + 1
        end
      end
      assert.is_true(refused >= #text - 2)
    end)

    it("the whole save loads and gives the same game", function()
      local s = session()
      assert.matches("^Loaded", say(s, "load " .. path))
      assert.equals(saved_pos, s.g:position())
    end)

    it("a save made under other rules loads under them, or is refused with the game kept", function()
      for _, rules in ipairs{ "kontsina", "diloti+soy+forced-capture", "diloti+players=4" } do
        local src = session({ rules = rules, seed = 4, ai = "random" })
        say(src, "1")
        local p = dir .. "/other.dlt"
        assert.matches("Saved", say(src, "save " .. p))
        local s = session()
        local before = s.g:position()
        local out = say(s, "load " .. p)
        assert.is_nil(out:find("command failed", 1, true), out)
        if out:find("^Loaded") then
          assert.equals(src.g:position(), s.g:position())
          assert.equals(src.g:rules().players, s.g:rules().players)
        else
          assert.matches("Not loaded", out)
          assert.equals(before, s.g:position())
        end
      end
    end)

    it("a save naming rules this program does not know is refused clearly", function()
      local p = dir .. "/unknown-rules.dlt"
      support.write(p, (text:gsub("rules[^\n]*", "rules diloti+no-such-variant", 1)))
      local s = session()
      local before = s.g:position()
      local out = say(s, "load " .. p)
      assert.matches("Not loaded", out)
      assert.equals(before, s.g:position())
    end)

    it("a directory, /dev/null, a missing or an unreadable file is refused clearly (load and replay)", function()
      -- (reading only: nothing here is ever saved to)
      for _, p in ipairs{ dir, "/", "/etc", "/dev/null", dir .. "/missing.dlt", "/proc/1/mem" } do
        local s = session()
        local before = s.g:position()
        local out = say(s, "load " .. p)
        assert.matches("Not loaded", out)
        assert.equals(before, s.g:position())
        out = say(s, "replay " .. p)
        assert.matches("Cannot replay", out)
        assert.equals(before, s.g:position())
      end
    end)

    it("save over a folder, or under a file or a missing folder, is refused and the game is kept", function()
      local s = session()
      local before = s.g:position()
      os.execute("mkdir -p " .. support.q(dir .. "/folder"))
      support.write(dir .. "/plain", "x")
      for _, p in ipairs{ dir .. "/folder", dir .. "/plain/x.dlt", dir .. "/missing/x.dlt" } do
        local out = say(s, "save " .. p)
        assert.matches("Not saved", out)
        assert.equals(before, s.g:position())
      end
      assert.is_true(os.rename(dir .. "/folder", dir .. "/folder")) -- still there
      assert.equals("x", support.read(dir .. "/plain"))
    end)
  end)

  describe("replay with bad input lines", function()
    it("answers every bad line with help, and leaves at the end of input", function()
      local p = dir .. "/replay.dlt"
      local src = session({ seed = 2, ai = "random" })
      for _ = 1, 4 do say(src, "1") end
      assert.matches("Saved", say(src, "save " .. p))
      local lines = { "goto", "goto x", "goto -5", "goto 99999999999999999999", "goto 1e308", "b", "b", "b",
                      "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", "n", BAD.huge, BAD.binary,
                      BAD.unicode, "goto 0", "goto 3", "", "q" }
      local s = session(nil, lines)
      local before = s.g:position()
      local out = say(s, "replay " .. p)
      assert.is_nil(out:find("command failed", 1, true), out:sub(-500))
      assert.matches("Back at your game", out)
      assert.matches("In a replay:", out)
      assert.equals(before, s.g:position())
      -- and at the end of input without 'q'
      s = session(nil, { "n", "b" })
      out = say(s, "replay " .. p)
      assert.matches("Back at your game", out)
      assert.equals(before, s.g:position())
    end)
  end)
end)
