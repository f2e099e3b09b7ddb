-- `diloti ai` and `diloti ai NAME`: the AIs listed and explained.
local core = require "diloti.core"
local player = require "diloti.ai.player"
local registry = require "diloti.registry"

local M = {}

-- The heading of a game's list in `diloti ai`: the titles of the games
-- its package brings ("A and B"), or nil.
local function heading(game)
  local pkg = registry.get(game)
  if not pkg or pkg.name ~= game then return nil end
  return table.concat(pkg.titles or { pkg.title }, " and ")
end

local function errors_to_stderr(errors)
  for _, e in ipairs(errors) do io.stderr:write("diloti: AI refused: ", e.message, "\n") end
end

-- The players a game's ai part brings itself (player(name, opts), its
-- `levels` their names): they come first for their names (ai.player asks
-- them before the scripts), so they replace scripts of the same name.
local function own_rows(rows, game)
  local part = registry.part(game, "ai")
  if not (part and part.player and part.levels) then return rows end
  local mine, out = {}, {}
  for _, n in ipairs(part.levels) do mine[n] = true end
  for _, r in ipairs(rows) do
    if not mine[r[1]] then out[#out + 1] = r end
  end
  local about = part.descriptions or {}
  for _, n in ipairs(part.levels) do
    out[#out + 1] = { n, about[n] or "one of the game's own players (written in Lua with its rules)" }
  end
  return out
end

--- The AIs of a game's catalogue (player.catalogue(dirs, game)) as
-- {name, text} rows: the game's ladder weakest first, so that the
-- strongest is read last, each with its rung and level; the others
-- (partner, the user's own, with their file) before them. Texts as the
-- scripts wrote them: clean them before printing. game nil: the default game's.
function M.list_rows(found, names, game)
  game = game or registry.default().name
  local ladder, levels = player.LADDERS[game] or {}, player.LEVELS[game] or {}
  local rung, level = {}, {}
  for k, n in ipairs(ladder) do rung[n] = k end
  for _, l in ipairs(player.LEVEL_ORDER) do
    local n = levels[l]
    if n then level[n] = level[n] and (level[n] .. "', '" .. l) or l end
  end
  local order = {}
  for _, n in ipairs(names) do order[#order + 1] = n end
  table.sort(order, function(x, y)
    local rx, ry = found[x].builtin and rung[x] or 0, found[y].builtin and rung[y] or 0
    if rx ~= ry then return rx < ry end
    return x < y
  end)
  local rows = {}
  for _, n in ipairs(order) do
    local i = found[n]
    local where = ""
    if i.builtin and rung[n] then
      where = string.format("  (%s%d of %d on the ladder%s)", level[n] and ("'" .. level[n] .. "'; ") or "",
        rung[n], #ladder, i.strength and (": " .. i.strength) or "")
    elseif not i.builtin then
      where = "  [" .. i.file .. "]"
    end
    rows[#rows + 1] = { n, i.description .. where }
  end
  return own_rows(rows, game)
end

--- `diloti ai`: every AI with its one-line description. a.ai_dir: more
-- folders; fit: {list = f(rows), text = f(text)} laying them out for the
-- terminal (without it, one line each). Returns an exit code.
function M.cli_list(a, fit)
  local views, errors = player.catalogues(a and a.ai_dir)
  -- Descriptions, file names and refusals come from strangers' scripts
  -- and folders: printed with their terminal controls shown (core.clean).
  local clean = core.clean
  local shown = {}
  for k, e in ipairs(errors) do shown[k] = { file = e.file, message = clean(e.message) } end
  errors_to_stderr(shown)
  local function say(text) print(fit and fit.text(clean(text)) or clean(text)) end
  -- (--game: that game's list only)
  local want = a and a.game and player.game_of{ game = a.game }
  local k = 0
  for _, game in ipairs(player.GAMES) do
    if want and want ~= game then goto next_game end
    k = k + 1
    say((k > 1 and "\n" or "") .. (heading(game) or game) .. ":")
    local found, names = views(game)
    local rows = M.list_rows(found, names, game)
    for _, r in ipairs(rows) do r[1], r[2] = clean(r[1]), clean(r[2]) end
    if fit then
      print(fit.list(rows))
    else
      for _, r in ipairs(rows) do print(string.format("%-10s %s", r[1], r[2])) end
    end
    ::next_game::
  end
  say("\nLevels for 'new ai=LEVEL' and --ai, in the game played: easy, normal (the table's default), hard, "
    .. "expert.")
  local where = player.user_dir() or "$XDG_CONFIG_HOME/diloti/ai"
  say("\n'diloti ai NAME' explains one; your own AIs go in " .. where .. " (see docs/ai.md).")
  return 0
end

--- `diloti ai NAME`: one AI explained; a name several games use, each
-- game's (a.game: that game's only). Returns an exit code.
function M.cli_show(a)
  local name = a and a.name
  local want = a and a.game and player.game_of{ game = a.game }
  local views, errors = player.catalogues(a and a.ai_dir)
  local _, names = views(want)
  -- (as cli_list: what a script or a folder supplied is cleaned)
  local clean = core.clean
  local function say(text) print(clean(text)) end
  local shown, count = {}, 0
  for _, game in ipairs(player.GAMES) do
    local found = views(game)
    local i = (not want or want == game) and found[player.real_name(name, game)]
    if i and not shown[i] then
      shown[i] = true
      if count > 0 then say("") end
      count = count + 1
      say(i.name .. (i.author and ("  by " .. i.author) or ""))
      say(i.description)
      if i.strength then say(i.strength) end
      say("plays: " .. (i.game == "any" and "every game" or (heading(i.game) or i.game)))
      if i.help then say("\n" .. i.help) end
      if #i.hooks > 0 then say("\nfollows the game with: " .. table.concat(i.hooks, ", ")) end
      say("from: " .. i.file)
    end
  end
  if count > 0 then return 0 end
  for _, e in ipairs(errors) do
    if e.file:match("([^/]+)%.lua$") == name then
      io.stderr:write(clean("diloti: AI '" .. name .. "' was refused when loading: " .. e.message), "\n")
      return 1
    end
  end
  local other = want and views(nil)[name]
  if other then
    io.stderr:write(clean(string.format("diloti: AI '%s' plays %s, not %s", name, other.game, want)), "\n")
    return 1
  end
  io.stderr:write(clean(string.format("diloti: unknown AI '%s'; valid names: %s", tostring(name),
    table.concat(names, ", "))), "\n")
  return 1
end

return M
