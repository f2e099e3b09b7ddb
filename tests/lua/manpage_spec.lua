-- The man page (docs/diloti.6) against the program: every command the
-- command line accepts is in the synopsis and described, with every option
-- its --help lists; every command of the table (with the lessons and the
-- coach) is described; the paths are left for install to fill in; and
-- `diloti --version` prints the version of the file VERSION. (tests/install.sh
-- checks what install writes into the page.)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local root = here .. "../../"
local support = dofile(here .. "support.lua")
require "diloti" -- (sets up the compiled-in modules)
local repl = require "diloti.table.repl"
local EXT = { require "diloti.teach.learn", (require "diloti.teach.coach") }

local source = support.read(root .. "docs/diloti.6")
-- The page's text with man(7)'s escapes for '-' and fonts taken out.
local text = source:gsub("\\%-", "-"):gsub("\\f[BIRP]", "")

local function section(name)
  return "\n" .. assert(text:match("\n%.SH " .. name .. "\n(.-)\n%.SH "), name)
end

-- The commands `diloti --help` lists.
local function cli_commands()
  local out = support.cli { "--help" }
  local list = {}
  for line in (out:match("\nCommands:\n(.-)\n\n") or ""):gmatch("[^\n]+") do
    list[#list + 1] = line:match("^   ([%w%-]+)%s")
  end
  return list
end

-- The long options `diloti CMD --help` lists (--help itself left out).
local function options_of(cmd)
  local out = support.cli { cmd, "--help" }
  local list = {}
  for line in (out:match("\nOptions:\n(.*)$") or ""):gmatch("[^\n]+") do
    local opt = line:match("^   [%-%w, ]-(%-%-[%w%-]+)")
    if opt and opt ~= "--help" then list[#list + 1] = opt end
  end
  return list
end

-- Is `name` the subject of a paragraph (.TP, then .B/.BR/.BI name)?
local function described(body, name)
  return body:find("\n%.TP[^\n]*\n%.[BI][RI]? \"?" .. support.lit(name) .. "[%s\"]") ~= nil
end

describe("the man page", function()
  it("shows and describes every command of the command line", function()
    local cmds = cli_commands()
    assert.is_true(#cmds >= 10, #cmds)
    local synopsis, body = section("SYNOPSIS"), section("COMMANDS")
    for _, c in ipairs(cmds) do
      assert.truthy(synopsis:find("%f[%w%-]" .. c .. "%f[^%w%-]"), c .. " is not in the synopsis")
      assert.is_true(described(body, c), c .. " is not described under COMMANDS")
    end
  end)

  it("names every option each command's --help lists", function()
    local checked = 0
    for _, c in ipairs(cli_commands()) do
      for _, opt in ipairs(options_of(c)) do
        assert.truthy(text:find(opt, 1, true), "diloti " .. c .. " " .. opt .. " is not in the man page")
        checked = checked + 1
      end
    end
    assert.is_true(checked >= 25, checked)
    assert.truthy(section("GLOBAL OPTIONS"):find("--version", 1, true))
  end)

  it("describes every command of the table, the lessons' and the coach's included", function()
    local s = assert(repl.new { write = function() end, read = function() return nil end, extensions = EXT,
      getenv = function() return nil end, game = { seed = 1, ai = "random" } })
    local body = section("THE TABLE")
    local n = 0
    for _, c in ipairs(s.commands.list) do
      assert.is_true(described(body, c.name), "the table's " .. c.name .. " is not in the man page")
      n = n + 1
    end
    for _, name in ipairs { "learn", "coach", "explain", "hint", "rules" } do assert.is_true(described(body, name)) end
    assert.is_true(n >= 20, n)
  end)

  it("writes match's A B [C D] as two words in brackets", function()
    -- (an unquoted "C D" is two arguments to .BI, which runs them together)
    assert.truthy(source:find('\n.BI match " A B" " \\fR[\\fIC D\\fR]"\n', 1, true))
    local out = support.cli { "match", "--help" }
    assert.matches("Usage: diloti match %[options%] A B %[C D%]", out)
    if os.execute("command -v man >/dev/null 2>&1") then
      -- (without a sanitizer's runtime preloaded into man, as SANITIZE=1 runs the tests)
      local p = assert(io.popen("env -u LD_PRELOAD MANWIDTH=100 man -l " .. support.q(root .. "docs/diloti.6")
        .. " 2>/dev/null"))
      local page = p:read("a")
      p:close()
      assert.matches("\n +match A B %[C D%]\n", page)
      assert.not_matches("%[CD%]", page)
    end
  end)

  it("leaves the folders and the version to install, naming no prefix itself", function()
    assert.not_matches("/usr/local", source)
    for _, word in ipairs { "@DOCDIR@", "@DATADIR@", "@LUA_CMOD@", "@VERSION@" } do
      assert.truthy(source:find(word, 1, true), word)
    end
    local words = {}
    for w in source:gmatch("@[%u_]+@") do words[w] = true end
    assert.same({ ["@DOCDIR@"] = true, ["@DATADIR@"] = true, ["@LUA_CMOD@"] = true, ["@VERSION@"] = true }, words)
  end)
end)

describe("diloti --version", function()
  it("prints the version of the file VERSION", function()
    local version = support.read(root .. "VERSION"):match("^(%S+)\n$")
    assert.is_string(version)
    local out, err, code = support.cli { "--version" }
    assert.equals(0, code, err)
    assert.equals("diloti " .. version .. "\n", out)
    assert.equals(version, require("diloti").version)
    assert.matches("%-%-version", (support.cli { "--help" }))
  end)
end)
