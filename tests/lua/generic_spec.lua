-- The generic Lua modules never name a game (issue 26): the driver,
-- matches, records, the catalogue and the scripts' loaders, the AI
-- player and its ctx, the registry, the game module, the table's core and
-- the program ask the registry (lua/registry.lua) for what differs from
-- game to game. A game's name in one of them, in code or in a comment,
-- fails here: `pilotta`, `kontsina`, `highcard` (the test-only game of
-- tests/games), a quoted "diloti" used as a game
-- (the program's and the modules' name `diloti`, `diloti.x.y`, are fine)
-- and the game's title Diloti in prose.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"

local ROOT = here .. "../../"

local GENERIC = {
  "lua/diloti.lua", "lua/registry.lua", "lua/gamekit.lua", "lua/cli.lua",
  "lua/ai/init.lua", "lua/ai/player.lua", "lua/ai/ctx.lua", "lua/ai/cli.lua", "lua/ai/box_helpers.lua",
  "lua/match/json.lua", "lua/match/record.lua", "lua/match/stats.lua", "lua/match/tournament.lua",
  "lua/scripts/catalogue.lua", "lua/scripts/textfile.lua", "lua/scripts/untrusted.lua",
  "lua/scripts/variants.lua",
  "lua/table/screen.lua", "lua/table/rulebook.lua", "lua/table/games.lua",
  "lua/teach/coach.lua", "lua/teach/learn.lua",
  "lua/driver.lua", "lua/room.lua", "lua/table/repl.lua", "lua/table/commands.lua",
  "lua/server/protocol.lua", "lua/server/serve.lua", "lua/server/roomhost.lua", "lua/server/options.lua",
  "lua/server/cli.lua", "lua/server/rooms.lua", "lua/server/replay.lua",
  "lua/server/advice.lua", "lua/server/link.lua", "lua/table/remote.lua",
  -- (the browser's shell: the games are named in web/js/boards/index.js only)
  "web/js/table.js", "web/js/wire.js", "web/js/cards.js",
}

-- The game names a line holds, as a list of what matched.
local function names_in(line)
  local found = {}
  local low = line:lower()
  -- (highcard: the test-only game of tests/games, which registers alone)
  for _, w in ipairs{ "pilotta", "kontsina", "highcard" } do
    if low:find(w, 1, true) then found[#found + 1] = w end
  end
  -- a quoted "diloti" that is not a module's name in a require, nor the
  -- program's name (a line whose comment says so)
  local code = line:gsub("require%s*%(?%s*[\"']diloti[\"']", "")
  if not line:find("%-%- %(the program's name%)") and code:find("[\"']diloti[\"']") then
    found[#found + 1] = '"diloti"'
  end
  if line:find("%f[%a]Diloti%f[%A]") then found[#found + 1] = "Diloti" end
  return found
end

local function offences(file)
  local out = {}
  local n = 0
  for line in (support.read(ROOT .. file) .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local found = names_in(line)
    if #found > 0 then out[#out + 1] = string.format("%s:%d: %s", file, n, table.concat(found, ", ")) end
  end
  return out
end

-- ---- a game's package names no other game ---------------------------------

local PROGRAM = "diloti" -- (the program's name, also the default game's)

-- The words that name a game (its name, titles and bases), added to a
-- list in lower case, each once.
local function add_words(pkg, out)
  local all = { pkg.name, pkg.title, table.unpack(pkg.titles or {}) }
  for _, b in ipairs(pkg.bases) do all[#all + 1] = b end
  for _, w in ipairs(all) do
    w = w:lower()
    local dup = false
    for _, had in ipairs(out) do dup = dup or had == w end
    if not dup then out[#out + 1] = w end
  end
  return out
end

-- What of another game's words a line holds. A word that is also the
-- program's name counts as that game's where names_in finds it, or as
-- the folder or the modules of its package (games/NAME, games.NAME).
local function other_names_in(line, words)
  local found, low = {}, line:lower()
  for _, w in ipairs(words) do
    local lw = w:lower()
    if lw ~= PROGRAM then
      if low:find("%f[%w]" .. lw .. "%f[%W]") then found[#found + 1] = lw end
    elseif low:find("games[/.]" .. lw .. "%f[%W]") then
      found[#found + 1] = "games/" .. lw
    else
      for _, f in ipairs(names_in(line)) do
        if f:lower():find(lw, 1, true) then found[#found + 1] = f end
      end
    end
  end
  return found
end

-- The Lua files of a package's folder, below it too (its AIs, lessons).
local function files_under(dir)
  local p = assert(io.popen("find " .. support.q(dir) .. " -name '*.lua' | sort"))
  local out = {}
  for f in p:lines() do out[#out + 1] = f end
  p:close()
  return out
end

-- Every game: the registered packages (lua/games/NAME/) and the test games
-- of tests/games (read here, not registered: other specs may share this state).
local function all_games()
  require "diloti" -- (sets up the compiled-in modules)
  local registry = require "diloti.registry"
  local out = {}
  for _, pkg in ipairs(registry.list()) do
    out[#out + 1] = { pkg = pkg, dir = ROOT .. "lua/games/" .. pkg.name }
  end
  local p = assert(io.popen("ls " .. support.q(ROOT .. "tests/games")))
  for name in p:lines() do
    local chunk = loadfile(ROOT .. "tests/games/" .. name .. "/init.lua")
    if chunk then out[#out + 1] = { pkg = chunk(), dir = ROOT .. "tests/games/" .. name } end
  end
  p:close()
  return out
end

describe("a game's package", function()
  it("finds another game's names where they are (the check can fail)", function()
    local other = add_words({ name = "pilotta", title = "Pilotta", bases = { "pilotta" } }, {})
    assert.same({ "pilotta" }, other_names_in("local PL = require 'diloti.games.pilotta.x'", other))
    assert.same({}, other_names_in("local core = require 'diloti.core'", { "diloti", "kontsina" }))
    assert.same({ "games/diloti" }, other_names_in("-- lua/games/diloti/ai_helpers.lua", { "diloti" }))
    assert.same({ "Diloti" }, other_names_in("-- as Diloti's is", { "diloti" }))
    assert.same({ "kontsina" }, other_names_in("-- (3 in Kontsina)", { "kontsina" }))
  end)

  local games = all_games()
  for _, g in ipairs(games) do
    it("names no other game: " .. g.pkg.name, function()
      local words = {}
      for _, o in ipairs(games) do
        if o.pkg.name ~= g.pkg.name then add_words(o.pkg, words) end
      end
      local out = {}
      local files = files_under(g.dir)
      assert.is_true(#files > 0, g.dir)
      for _, file in ipairs(files) do
        local n = 0
        for line in (support.read(file) .. "\n"):gmatch("(.-)\n") do
          n = n + 1
          local found = other_names_in(line, words)
          if #found > 0 then
            out[#out + 1] = string.format("%s:%d: %s", file:sub(#ROOT + 1), n, table.concat(found, ", "))
          end
        end
      end
      assert.same({}, out)
    end)
  end
end)

describe("the generic Lua modules", function()
  it("find game names where they are (the check can fail)", function()
    assert.same({ "pilotta" }, names_in("if game == 'pilotta' then"))
    assert.same({ '"diloti"' }, names_in('local g = rules.game or "diloti"'))
    assert.same({ "Diloti" }, names_in("-- Diloti's moves"))
    assert.same({ "kontsina" }, names_in("-- (or 3 in Kontsina)"))
    assert.same({ "highcard" }, names_in('if pkg.name == "highcard" then'))
    assert.same({}, names_in('local diloti = require "diloti"'))
    assert.same({}, names_in('local core = require "diloti.core" -- diloti.x.y'))
    assert.same({}, names_in('return os.getenv("DILOTI_BIN") or "diloti" -- (the program\'s name)'))
    assert.is_true(#offences("lua/games/pilotta/table.lua") > 0)
  end)

  for _, file in ipairs(GENERIC) do
    it("name no game: " .. file, function()
      assert.same({}, offences(file))
    end)
  end

end)
