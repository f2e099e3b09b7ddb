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
  "lua/ai/init.lua", "lua/ai/player.lua", "lua/ai/ctx.lua", "lua/ai/cli.lua",
  "lua/match/json.lua", "lua/match/record.lua", "lua/match/stats.lua", "lua/match/tournament.lua",
  "lua/scripts/catalogue.lua", "lua/scripts/textfile.lua", "lua/scripts/untrusted.lua",
  "lua/scripts/variants.lua",
  "lua/table/screen.lua", "lua/table/rulebook.lua", "lua/table/games.lua",
  "lua/teach/coach.lua", "lua/teach/learn.lua",
  "lua/driver.lua", "lua/room.lua", "lua/table/repl.lua", "lua/table/commands.lua",
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
