-- The diloti command line. Each command is a function of the parsed
-- arguments returning an exit code; the host runs main() under one
-- protected call.
local argparse = require "argparse"
local diloti = require "diloti"
local clean = require("diloti.core").clean
local untrusted = require "diloti.scripts.untrusted"
local match = require "diloti.match.tournament"
local rulebook = require "diloti.table.rulebook"
local screen = require "diloti.table.screen"
local registry = require "diloti.registry"

local M = {}

-- What the commands print holds text from variant scripts (descriptions,
-- help, rules values, refusals from their hooks), file names and engine
-- messages quoting what was typed: all of it cleaned of terminal controls
-- (core.clean). (`diloti run` leaves the user's own script's print alone.)
local function print(...)
  local parts = table.pack(...)
  for i = 1, parts.n do parts[i] = tostring(parts[i]) end
  io.stdout:write(clean(table.concat(parts, "\t")), "\n")
end

local function err(fmt, ...)
  io.stderr:write("diloti: ", clean(string.format(fmt, ...)), "\n")
  return 1
end

local function opts_of(a)
  return { rules = a.rules, rules_dirs = a.rules_dir, seed = a.seed and math.tointeger(a.seed) }
end

local function game_at(a, position)
  local o = opts_of(a)
  o.position = position
  return diloti.new(o)
end

local commands = {}

function commands.moves(a)
  local g, e = game_at(a, a.position)
  if not g then return err("%s", e) end
  local list, cut = g:moves(a.explain)
  for _, m in ipairs(list) do
    if a.explain then
      local _, why = g:check(m.text)
      print(string.format("%-32s %s", m.text, why))
    else
      print(m)
    end
  end
  if #list == 0 then print("(no moves: " .. g:phase() .. ")") end
  if cut then
    -- The list is bounded (docs/architecture.md, "Bounded move lists"):
    -- say how many moves there are, on stderr so the list stays a list.
    local n, exact = g:count()
    io.stderr:write(string.format("diloti: %s%d legal moves; %s\n", exact and "" or "more than ", n, cut))
  end
  return 0
end

function commands.apply(a)
  local g, e = game_at(a, a.position)
  if not g then return err("%s", e) end
  for i, mv in ipairs(a.move) do
    local ok, why = g:play(mv)
    if not ok then
      return err("move %d '%s' refused: %s", i, mv, why)
    elseif why then
      io.stderr:write("diloti: ", clean(why), "\n")
    end
    if g:phase() == "round-over" and i < #a.move then g:next_round() end
  end
  print(g:position())
  return 0
end

-- How a list is laid out: at the terminal's width (or COLUMNS), with its
-- texts wrapped in their column; nil when the output is not a terminal
-- and COLUMNS is not set, for one line each (for grep and scripts).
local function fit_for_terminal()
  local has_line, line = pcall(require, "diloti.line")
  local terminal = has_line and line.width or nil
  local cols = os.getenv("COLUMNS")
  if not (terminal and terminal()) and not (cols and math.tointeger(tonumber(cols))) then return nil end
  local st = screen.style{ width = screen.width(os.getenv, terminal) }
  return {
    list = function(rows) return screen.deflist(st, rows, { indent = 0 }) end,
    text = function(text) return screen.fit(st, text) end,
  }
end

-- `diloti rules D19`: one entry of the rules reference, wrapped to the
-- terminal.
local function rule_entry(id)
  local e = rulebook.find(id)
  if not e then return err("%s", rulebook.unknown(id)) end
  local text, fit = table.concat(rulebook.lines(e), "\n"), fit_for_terminal()
  print(fit and fit.text(text) or screen.fit(screen.detect(os.getenv), text))
  return 0
end

-- A house rule's own words in its listing and page: one line each.
local line = untrusted.line

function commands.rules(a)
  if a.name and rulebook.is_id(a.name) then return rule_entry(a.name) end
  local cat = diloti.variants.catalogue(a.rules_dir)
  for _, e in ipairs(cat.errors) do
    io.stderr:write(string.format("diloti: variant refused: %s\n", clean(e.message)))
  end
  if not a.name then
    local fit = fit_for_terminal()
    -- one list a game, each house rule by the name a spec gives it
    for gi, pkg in ipairs(registry.list()) do
      local game = pkg.name
      local rows = {}
      for _, n in ipairs(cat.names) do
        local v = cat.found[n]
        if diloti.variants.game_of(v) == game then
          local short = diloti.variants.short_name(v)
          local label = v.arg and (short .. "=" .. line(v.arg.name or "N")) or short
          rows[#rows + 1] = { clean(label), clean((v.base and "[base] " or "") .. v.description) }
        end
      end
      if gi > 1 then print(string.format("\n%s's (%s+NAME):", pkg.title, pkg.name)) end
      if fit then
        print(fit.list(rows))
      else
        for _, r in ipairs(rows) do print(string.format("%-26s %s", r[1], r[2])) end
      end
    end
    local tail = "\ncombine with '+': diloti --rules " .. registry.part(registry.default(), "rules").example_spec
      .. " ..."
    print(fit and fit.text(tail) or tail)
    return 0
  end
  local v = cat.found[a.name]
  for _, pkg in ipairs(registry.list()) do
    -- (a house rule of a game with a prefix, by the name a spec gives it)
    if not v and pkg.rules_prefix then v = cat.found[pkg.rules_prefix .. a.name] end
  end
  if not v then return err("unknown variant '%s'; valid names: %s", a.name, table.concat(cat.names, ", ")) end
  print(v.name .. (v.rule and ("  (" .. v.rule .. ")") or "") .. (v.base and "  [base game]" or ""))
  print(v.description)
  if v.help then print("\n" .. v.help) end
  if v.requires and #v.requires > 0 then print(line("requires: " .. table.concat(v.requires, ", "), 1000)) end
  if v.conflicts and #v.conflicts > 0 then print(line("conflicts with: " .. table.concat(v.conflicts, ", "), 1000)) end
  if v.arg then
    print(line(string.format("value: %s=%s (default %s)", v.name, line(v.arg.name or "N"), line(v.arg.default))))
  end
  if type(v.rules) == "table" then
    local keys = {}
    for k in pairs(v.rules) do keys[#keys + 1] = k end
    table.sort(keys)
    for _, k in ipairs(keys) do
      local val = v.rules[k]
      if type(val) == "table" then
        local parts = {}
        for pk, pv in pairs(val) do parts[#parts + 1] = pk .. "=" .. tostring(pv) end
        table.sort(parts)
        val = "{" .. table.concat(parts, ", ") .. "}"
      end
      print("  " .. line(string.format("%s = %s", tostring(k), tostring(val)), 1000))
    end
  end
  if v.hooks then
    local hs = {}
    for k in pairs(v.hooks) do hs[#hs + 1] = k end
    table.sort(hs)
    print("hooks: " .. table.concat(hs, ", "))
  end
  print("from: " .. v.file)
  -- (a base game: where its house rules' authors read on)
  if v.base then
    local pkg = registry.get(diloti.variants.game_of(v)) or registry.default()
    print(string.format("\nWriting a house rule for %s: docs/house-rules.md%s lists what its hooks receive, "
      .. "with a worked example of each (installed docs: see 'man diloti').", v.name,
      pkg.default and "" or (" (its " .. pkg.title .. " part)")))
  end
  return 0
end

function commands.run(a)
  local chunk, e = loadfile(a.script, "t")
  if not chunk then return err("%s", e) end
  local script_arg = { [0] = a.script }
  for i, v in ipairs(a.args) do script_arg[i] = v end
  _G.arg = script_arg -- as lua5.4 does for the script it runs
  local ok, res = xpcall(chunk, debug.traceback, table.unpack(a.args))
  if not ok then return err("%s", res) end
  return math.type(res) == "integer" and res or 0
end

local function now() return os.clock() end

function commands.bench(a)
  local rounds = math.tointeger(a.rounds) or 2000
  local o = opts_of(a)
  o.seed = o.seed or 1
  local g, e = diloti.new(o)
  if not g then return err("%s", e) end
  local rng = 12345
  local function pick(n)
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng % n + 1
  end
  if a.ai then
    -- The same random play, but every seat an AI script in its sandbox.
    local ai = require "diloti.ai"
    local players = {}
    for seat = 0, g:rules().players - 1 do
      local p, perr = ai.player(a.ai, { seed = seat + 1, dirs = a.ai_dir })
      if not p then return err("%s", perr) end
      players[seat] = p
    end
    local plies, t0 = 0, now()
    for _ = 1, rounds do
      if g:phase() == "match-over" then g = diloti.new(o) end
      if g:phase() == "round-over" then g:next_round() end
      ai.play(g, players, { on_move = function() plies = plies + 1 end })
    end
    local dt = now() - t0
    print(string.format("%s: %d rounds with the '%s' AI script in every seat in %.2f s: %.0f rounds/s, "
      .. "%.0f decisions/s", o.rules or registry.default().name, rounds, a.ai, dt, rounds / dt, plies / dt))
    return 0
  end
  local plies, done, t0 = 0, 0, now()
  while done < rounds do
    local phase = g:phase()
    if phase == "match-over" then
      g = diloti.new(o)
    elseif phase == "round-over" then
      done = done + 1
      g:next_round()
    else
      local moves = g:moves()
      assert(g:play(moves[pick(#moves)]))
      plies = plies + 1
    end
  end
  local dt = now() - t0
  print(string.format("%s: %d rounds through the Lua API in %.2f s: %.0f rounds/s, %.0f plies/s",
    o.rules or registry.default().name, rounds, dt, rounds / dt, plies / dt))
  return 0
end

function commands.ai(a)
  local ai = require "diloti.ai"
  if a.name then return ai.cli_show(a) end
  return ai.cli_list(a, fit_for_terminal())
end

function commands.match(a) return match.run(a) end
function commands.merge(a) return match.merge(a) end

function commands.play(a)
  return require("diloti.table.repl").start(a, { require "diloti.teach.learn", (require "diloti.teach.coach") })
end

function commands.learn(a) return require("diloti.teach.learn").cli(a) end

-- `diloti join LINK` (a seat's link) and `diloti watch LINK` (the watch
-- link): the table at an online room. A seat's link is never used to
-- watch: joining a seat takes it from whoever holds it.
local function online(kind)
  return function(a)
    local l, why = require("diloti.server.link").parse(a.link)
    if not l then return err("not a room's link: %s", why) end
    if l.kind ~= kind then
      return err(kind == "play" and "that is a watch link: 'diloti watch LINK' follows the room with it"
        or "that is a seat's link (.../play#...): 'diloti join LINK' plays the seat; watching needs the "
          .. "room's watch link")
    end
    return require("diloti.table.remote").start(l)
  end
end
commands.join = online("play")
commands.watch = online("watch")

function commands.replay(a) return require("diloti.server.replay").cli(a, print, err) end

-- The games in words: every title ("A, B and C"); the `play --game`
-- choices, with the other bases of each ("a (the default; b is its
-- --rules) or c"); the names joined with "or".
local function titles()
  local t = {}
  for _, pkg in ipairs(registry.list()) do
    for _, title in ipairs(pkg.titles or { pkg.title }) do t[#t + 1] = title end
  end
  local last = table.remove(t)
  return #t > 0 and (table.concat(t, ", ") .. " and " .. last) or last
end

local function play_choices()
  local out = {}
  for _, pkg in ipairs(registry.list()) do
    local notes = {}
    if pkg.default then notes[#notes + 1] = "the default" end
    for _, b in ipairs(pkg.bases) do
      if b ~= pkg.name then notes[#notes + 1] = b .. " is its --rules" end
    end
    out[#out + 1] = pkg.name .. (#notes > 0 and (" (" .. table.concat(notes, "; ") .. ")") or "")
  end
  return table.concat(out, " or ")
end

local function parser()
  local p = argparse("diloti", -- (the program's name)
    titles() .. ": play, learn, check positions, write house rules and AIs.")
    :epilog("Variants and AIs are read from the program, then from "
      .. (diloti.variants.user_dir() or "$XDG_CONFIG_HOME/diloti") .. "/{rules-variants,ai}.")
  p:option("--rules", "Rules: a base game and variants joined by '+'.", registry.default().name)
  p:option("--rules-dir", "Another folder of rules variant scripts."):count("*")
  p:option("--ai-dir", "Another folder of AI scripts."):count("*")
  p:option("--seed", "Seed for the deal and for unplaced cards.")
  p:flag("--version", "Print the version and exit.")
  p:command_target("command")
  p:require_command(false)
  local pl = p:command("play", "Play at the table, the interactive prompt (the default).")
  pl:option("--game", "The game: " .. play_choices() .. ".")
  pl:option("--ai", "The computer players' AI (see 'diloti ai').")
  pl:option("--partner", "Your AI partner with four players.")
  pl:option("--players", registry.part(registry.default(), "rules").players_help .. "."):convert(math.tointeger)
  pl:option("--humans", "People at the keyboard (they take turns; hands hidden between turns)."):convert(math.tointeger)
  pl:option("--target", "Points that end the match (D24)."):convert(math.tointeger)
  pl:option("--practice", "on (undo allowed) or off.", "on"):choices { "on", "off" }
  pl:option("--seat", "One seat's player: N=NAME (an AI) or N=human; repeatable."):count("*")
  local c = p:command("moves", "List the legal moves in a position.")
  c:argument("position", "A position string (see docs/notation.md).")
  c:flag("--explain", "Say what each move does.")
  c = p:command("apply", "Play moves from a position; print the new position.")
  c:argument("position", "A position string.")
  c:argument("move", "Moves in notation, in order."):args("+")
  c = p:command("rules", "List the rules variants, explain one, or show a rule by its id (D19, K2, V-soy).")
  c:argument("name", "A variant name, or a rule id (all of them: docs/rules-reference.md)."):args("?")
  c = p:command("run", "Run a Lua script with the diloti module loaded.")
  c:argument("script", "The script file.")
  c:argument("args", "Its arguments."):args("*")
  c = p:command("bench", "Random play through the Lua API, rounds per second.")
  c:option("--rounds", "How many rounds.", "2000")
  c:option("--ai", "Play every seat with this AI script instead of plain API calls.")
  c = p:command("ai", "List the AI players, or explain one.")
  c:argument("name", "An AI name."):args("?")
  c:option("--game", "Only this game's AIs (the list, or the AI of that name): "
    .. table.concat(registry.names(), " or ") .. ".")
  c = p:command("learn", "Lessons on the rules, one idea at a time; progress is remembered.")
  c:argument("lesson", "A lesson number or name, 'next', or 'list' (with --check: a lesson file)."):args("?")
  c:flag("--check", "Check a lesson file, or every lesson found, without playing: each position set up, "
    .. "each accepted move legal. Exit status 1 on a problem.")
  c:option("--game", "The course: " .. diloti.game_choices() .. ".")
  c = p:command("join", "Play a seat of an online room, at the table, from its invitation link.")
  c:argument("link", "The seat's link: http://HOST:PORT/play#ROOM:TOKEN.")
  c = p:command("watch", "Watch an online room at the table, from its watch link.")
  c:argument("link", "The room's watch link: http://HOST:PORT/watch#ROOM:TOKEN.")
  c = p:command("replay", "List the finished games a server kept, or tell one move by move.")
  c:argument("id", "A game's id, or its first letters (as the list shows them)."):args("?")
  c:option("--data", "The server's data folder (default: $XDG_STATE_HOME/diloti/server, "
    .. "else ~/.local/state/diloti/server).")
  match.setup(p)
  require("diloti.server.cli").setup(p)
  return p
end

function M.main(args)
  local p = parser()
  local argv = {}
  for i = 1, #args do argv[i] = args[i] end
  local ok, a = p:pparse(argv)
  if not ok then
    io.stderr:write(p:get_usage(), "\n\ndiloti: ", clean(a), "\n")
    return 2
  end
  if a.version then
    print("diloti " .. diloti.version)
    return 0
  end
  local cmd = commands[a.command or "play"] or require("diloti.server.cli").commands[a.command]
  -- A house rule's hook that fails (or answers what is not a move) is
  -- raised from the game's calls, where the table catches it: a command
  -- says it in one line, as the script's failure it is, where a bug of
  -- ours keeps its traceback.
  local done, rc = xpcall(cmd, function(e)
    if type(e) == "string" and e:match("^house rule") then return { said = e } end
    return debug.traceback(e, 2)
  end, a)
  if done then return rc end
  if type(rc) == "table" then return err("%s", rc.said) end
  io.stderr:write("diloti: ", clean(tostring(rc)), "\n")
  return 1
end

return M
