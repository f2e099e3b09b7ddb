-- House-rule authors (issue 15, item 15): the guide in docs/house-rules.md
-- against what the hooks really receive, a failing hook reported in one
-- line, a house rule's warnings counted as its own, a bonus named by its
-- hook, and variants added, changed or removed while the table is open.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local record = require "diloti.match.record"
local pilotta_table = require "diloti.games.pilotta.table"

local lit = support.lit
local GUIDE = here .. "../../docs/house-rules.md"

-- The field names of the table after `<!-- fields: NAME -->` in the
-- guide: the first cell of each row, `[anything]` written `[]`.
local function documented(doc, name)
  local block = doc:match("<!%-%- fields: " .. name .. " %-%->\n(.-)\n\n")
  assert(block, "docs/house-rules.md has no table marked 'fields: " .. name .. "'")
  local set = {}
  for line in block:gmatch("[^\n]+") do
    local field = line:match("^|%s*`([^`]+)`%s*|")
    if field then set[(field:gsub("%[[^%]]*%]", "[]"))] = true end
  end
  -- a field listed with its own fields is those fields, as parse_report reads what a hook saw
  for f in pairs(set) do
    for other in pairs(set) do
      if other ~= f and (other:sub(1, #f + 1) == f .. "." or other:sub(1, #f + 1) == f .. "[") then
        set[f] = nil
      end
    end
  end
  return set
end

local function keys(set)
  local t = {}
  for k in pairs(set) do t[#t + 1] = k end
  table.sort(t)
  return t
end

-- A house rule that notes every field its hooks receive (a path per
-- value: list items as [], lists of plain values as one field) and
-- reports them in the reason it gives for refusing a move.
local RECORDER = [[
local seen = { state = {}, move = {}, breakdown = {} }
local function leaf_list(v)
  for k, x in pairs(v) do
    if math.type(k) ~= "integer" or type(x) == "table" then return false end
  end
  return true
end
local function walk(t, prefix, out)
  for k, v in pairs(t) do
    local p = math.type(k) == "integer" and prefix .. "[]" or (prefix == "" and k or prefix .. "." .. k)
    if type(v) == "table" and not leaf_list(v) then walk(v, p, out) else out[p] = true end
  end
end
local function report()
  local parts = {}
  for what, set in pairs(seen) do
    local names = {}
    for k in pairs(set) do names[#names + 1] = k end
    parts[#parts + 1] = what .. "=" .. table.concat(names, ",")
  end
  return table.concat(parts, ";")
end
return {
  name = "recorder",
  description = "Notes what its hooks receive",
  hooks = {
    moves = function(moves, state)
      walk(state, "", seen.state)
      for _, m in ipairs(moves) do walk(m, "", seen.move) end
      if #moves < 2 then return moves end
      local kept, why = {}, {}
      for i = 1, #moves - 1 do kept[i] = moves[i] end
      why[moves[#moves].text] = report()
      return kept, why
    end,
    score = function(score, state)
      walk(score, "", seen.breakdown)
      walk(state, "", seen.state)
    end,
    match = function(state) walk(state, "", seen.state) end,
  },
}
]]

local function parse_report(text)
  local out = {}
  for what, list in text:gmatch("(%w+)=([^;]*)") do
    local set = {}
    for name in list:gmatch("[^,]+") do set[name] = true end
    -- a field seen both empty and holding items is the items' fields
    for name in pairs(set) do
      for other in pairs(set) do
        if other ~= name and (other:sub(1, #name + 1) == name .. "." or other:sub(1, #name + 1) == name .. "[") then
          set[name] = nil
        end
      end
    end
    out[what] = set
  end
  return out
end

-- The move g refuses because of its house rules, not the engine.
local function vetoed(g)
  local plain = assert(diloti.new{ position = g:position() })
  local kept = {}
  for _, m in ipairs(g:moves()) do kept[m] = true end
  for _, m in ipairs(plain:moves()) do
    if not kept[m] then return m end
  end
end

local function write_variant(dir, name, src)
  return support.write(dir .. "/" .. name .. ".lua", src)
end

describe("house rules for their authors", function()
  local dir
  lazy_setup(function() dir = support.tmpdir() end)
  lazy_teardown(function() support.rmdir(dir) end)

  describe("the guide (docs/house-rules.md)", function()
    local doc
    lazy_setup(function() doc = support.read(GUIDE) end)

    it("is linked from the README", function()
      assert.matches("docs/house%-rules%.md", support.read(here .. "../../README.md"))
    end)

    it("lists exactly the fields the hooks receive: the state, a move, the breakdown", function()
      write_variant(dir, "recorder", RECORDER)
      local g = assert(diloti.new{ rules = "diloti+recorder", rules_dirs = { dir }, seed = 11 })
      -- Declarations whenever there are some, so that the table holds them.
      while g:phase() == "play" or g:phase() == "claim" do
        local pick
        for _, m in ipairs(g:moves(true)) do
          if m.kind ~= "capture" and m.kind ~= "lay" then pick = pick or m.text end
        end
        assert(g:play(pick or g:moves()[1]))
      end
      assert(g:next_round())
      local m = vetoed(g)
      assert.is_string(m)
      local ok, why = g:check(m)
      assert.is_false(ok)
      local seen = parse_report(why)
      assert.is_true(seen.state["table.declarations[].components[]"] ~= nil, "no declaration was ever on the table")
      assert.same(keys(documented(doc, "state")), keys(seen.state))
      assert.same(keys(documented(doc, "move")), keys(seen.move))
      assert.same(keys(documented(doc, "breakdown")), keys(seen.breakdown))
    end)

    it("names every hook, and every field of a variant's table", function()
      for _, hook in ipairs{ "moves", "score", "match" } do
        assert.matches("`" .. hook .. "%(", doc)
      end
      for _, field in ipairs{ "name", "description", "rule", "base", "game", "requires", "conflicts", "rules", "arg",
        "hooks", "help" } do
        assert.matches("| `" .. field .. "`", doc, 1, true)
      end
    end)

    it("has a complete worked example that loads and plays", function()
      local name, code = doc:match("<!%-%- example: ([%w%-]+)%.lua %-%->%s*```lua\n(.-)```")
      assert.is_string(code)
      write_variant(dir, name, code)
      local g = assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { dir }, seed = 4 })
      local warnings, labels = {}, {}
      for _ = 1, 4 do
        while g:phase() == "play" or g:phase() == "claim" do
          local _, warn = assert(g:play(g:moves()[1]))
          warnings[#warnings + 1] = warn
        end
        labels[#labels + 1] = g:result().round.label
        if g:phase() ~= "round-over" then break end
        assert(g:next_round())
      end
      assert.same({}, warnings)
      assert.is_true(#labels > 0, "no round of the example named its points")
    end)
  end)

  describe("the guide's Pilotta part (issue 25, item 2)", function()
    local doc
    lazy_setup(function() doc = support.read(GUIDE) end)

    -- Pilotta's recorder: the same, for Pilotta, refusing a card only in
    -- the play (so that every call, contra included, stays possible), and
    -- playing on at the match's end (so that its state is seen too).
    local PL_RECORDER = RECORDER:gsub('name = "recorder",', 'name = "pilotta-recorder", game = "pilotta",')
      :gsub("if #moves < 2 then", 'if #moves < 2 or state.phase ~= "play" then')
      :gsub('match = function%(state%) walk%(state, "", seen.state%) end',
        'match = function(state) walk(state, "", seen.state) return false end')

    -- A contra and a recontra whenever they are legal, else the first bid
    -- and then passes; in the play, announcements, shows and the belote.
    local function pick(g)
      local by = {}
      for _, m in ipairs(g:moves(true)) do
        by[m.kind] = by[m.kind] or m
        if m.belote then by.belote = m end
      end
      if g:phase() ~= "play" then
        return (by.recontra or by.contra or (not g:state().contract and by.bid) or by.pass or by.trump).text
      end
      return (by.announce or by.show or by.belote or by.play).text
    end

    -- Four Jacks for seat 0 (a four, and the target of 40 reached in
    -- round 1), then three more rounds.
    local FOUR = "dealer=3; hands=Jc Jd Jh Js 7s 8s 10s Ks / 10d Qd Kd 7h 9s As 8h Ac"
      .. " / Kc 7c 9h 10h Qs 9d Ad 7d / 10c 8c Qc 8d 9c Ah Qh Kh"

    it("lists exactly the fields a Pilotta rule's hooks receive: the state, a move, the breakdown", function()
      assert.equals(PL_RECORDER:find("pilotta-recorder", 1, true) ~= nil, true)
      write_variant(dir, "pilotta-recorder", PL_RECORDER)
      local g = assert(diloti.new{ game = "pilotta", rules = "pilotta+recorder+target=40", rules_dirs = { dir },
        position = FOUR })
      for _ = 1, 4 do
        while g:phase() ~= "round-over" and g:phase() ~= "match-over" do assert(g:play(pick(g))) end
        assert(g:next_round())
      end
      while g:phase() ~= "play" do assert(g:play(pick(g))) end
      local plain = assert(diloti.new{ game = "pilotta", position = g:position() })
      local kept, m = {}, nil
      for _, t in ipairs(g:moves()) do kept[t] = true end
      for _, t in ipairs(plain:moves()) do m = m or (not kept[t] and t) or nil end
      assert.is_string(m)
      local ok, why = g:check(m)
      assert.is_false(ok)
      local seen = parse_report(why)
      for _, f in ipairs { "contract.contra_by", "announcements[].rank", "belote", "winner", "last.made" } do
        assert.is_true(seen.state[f] ~= nil, "the game never showed " .. f)
      end
      assert.same(keys(documented(doc, "pilotta%-state")), keys(seen.state))
      assert.same(keys(documented(doc, "pilotta%-move")), keys(seen.move))
      assert.same(keys(documented(doc, "pilotta%-breakdown")), keys(seen.breakdown))
    end)

    -- The worked examples, by name.
    local function example(name)
      local code = doc:match("<!%-%- example: " .. lit(name) .. "%.lua %-%->%s*```lua\n(.-)```")
      assert(code, "no worked example " .. name)
      write_variant(dir, name, code)
    end

    local function play_round(g)
      while g:phase() ~= "round-over" and g:phase() ~= "match-over" do assert(g:play(pick(g))) end
    end

    it("has a worked moves hook: no trump leads the first trick", function()
      example("pilotta-no-trump-lead")
      local pos = "dealer=3; calls=80h, pass, pass, pass; hands=7c 8c 9c Ah 7s 8s 10s Ks"
        .. " / 10d Jd Qd 7h 9s Js 8h As / Kc Ac 9h 10h Qs Kd Ad 7d / 10c Jc Qc 8d 9d Jh Qh Kh"
      local g = assert(diloti.new{ game = "pilotta", rules = "pilotta+no-trump-lead", rules_dirs = { dir },
        position = pos })
      local ok, why = g:check("Ah")
      assert.is_false(ok)
      assert.matches("no-trump-lead: the first trick may not be led with a trump", why, 1, true)
      assert.is_true(g:check("7s"))
      assert.is_true(g:check("announce 7c 8c 9c"))
      assert(g:play("7s"))
      assert(g:play("9s"))
      assert(g:play("Qs"))
      assert(g:play("Jh")) -- (a trump played later in trick 1 is not a lead)
      assert.is_true(g:check("Kh"))
    end)

    it("has a worked score hook: a game point for the last trick, named", function()
      example("pilotta-last-trick")
      local g = assert(diloti.new{ game = "pilotta", rules = "pilotta+last-trick", rules_dirs = { dir }, seed = 4 })
      local plain = assert(diloti.new{ game = "pilotta", seed = 4 })
      for _ = 1, 3 do
        play_round(g)
        play_round(plain)
        local r, p = g:result().round, plain:result().round
        assert.is_false(r.thrown_in)
        do
          local last = g:state().tricks[8].winner % 2
          assert.equals(p[last].game + 1, r[last].game)
          assert.equals(p[1 - last].game, r[1 - last].game)
          assert.equals("Last trick", r.label)
          local st = { width = 80, unicode = false, colour = false }
          assert.matches("include the house rules': Last trick", pilotta_table.round_summary(st, g:result(), {}),
            1, true)
        end
        if g:phase() == "match-over" then break end
        assert(g:next_round())
        assert(plain:next_round())
      end
    end)

    it("has a worked match hook: the team ahead after eight rounds wins", function()
      example("pilotta-eight-rounds")
      local g = assert(diloti.new{ game = "pilotta", rules = "pilotta+eight-rounds", rules_dirs = { dir }, seed = 6 })
      for _ = 1, 30 do
        play_round(g)
        if g:phase() == "match-over" then break end
        assert(g:next_round())
      end
      local s = g:state()
      assert.equals("match-over", g:phase())
      assert.is_true(s.round <= 8 or s.score[0] == s.score[1], "round " .. s.round)
    end)

    it("is where 'diloti rules pilotta' sends an author", function()
      local out = support.cli { "rules", "pilotta" }
      assert.matches("house%-rules%.md", out)
    end)
  end)

  describe("a failing hook", function()
    local BAD_MOVES = [[
return {
  name = "bad-moves",
  description = "Fails after a few cards",
  hooks = {
    moves = function(moves, state)
      if state.ply > 3 then error("boom at ply " .. state.ply) end
      return moves
    end,
  },
}
]]
    local BAD_SCORE = [[
return {
  name = "bad-score",
  description = "Fails at the end of every round",
  hooks = {
    score = function(score)
      local missing
      return missing.points
    end,
  },
}
]]
    lazy_setup(function()
      write_variant(dir, "bad-moves", BAD_MOVES)
      write_variant(dir, "bad-score", BAD_SCORE)
    end)

    local function one_line(msg)
      assert.is_nil(msg:find("\n"), "more than one line: " .. msg)
      assert.is_nil(msg:find("traceback"), msg)
      assert.is_nil(msg:find("lua/ai/"), msg)
      assert.is_nil(msg:find("lua/table/"), msg)
      assert.is_nil(msg:find("lua/match/"), msg)
      assert.is_nil(msg:find("%[C%]"), msg)
    end

    it("raises one line naming the variant, its file, the hook and the script's line", function()
      local g = assert(diloti.new{ rules = "diloti+bad-moves", rules_dirs = { dir }, seed = 3 })
      for _ = 1, 4 do assert(g:play(g:moves()[1])) end
      local ok, err = pcall(g.moves, g)
      assert.is_false(ok)
      one_line(err)
      assert.equals(string.format("house rule 'bad-moves' (%s/bad-moves.lua), moves hook: line 6: boom at ply 4", dir),
        err)
    end)

    it("in diloti match: one line on stderr, no stack trace", function()
      local out, err, code = support.cli({ "--rules-dir", dir, "match", "random", "random", "--games", "1",
        "--seed", "5", "--rules", "diloti+bad-moves" })
      assert.equals(1, code)
      assert.equals("", out)
      err = err:gsub("\n$", "")
      one_line(err)
      assert.matches("^diloti: deal 1 %(seed %d+%): house rule 'bad%-moves' %(" .. lit(dir)
        .. "/bad%-moves%.lua%), moves hook: line 6: boom at ply 4$", err)
    end)

    it("at the table: one line, no stack trace", function()
      write_variant(dir, "bad-now", [[
return { name = "bad-now", description = "Fails at once", hooks = {
  moves = function() error("not today") end } }
]])
      local state = support.tmpdir()
      local cmd = string.format("printf 'moves\\nquit\\n' | XDG_CONFIG_HOME=%s XDG_STATE_HOME=%s NO_COLOR=1 "
        .. "timeout 30 %s --rules-dir %s play --rules diloti+bad-now --seed 3 --ai random 2>&1",
        support.q(support.no_config), support.q(state), support.q(support.bin), support.q(dir))
      local p = assert(io.popen(cmd))
      local out = p:read("a")
      p:close()
      support.rmdir(state)
      out = out:gsub("\n  ", " ") -- (lines wrapped at the terminal's width)
      assert.matches("house rule 'bad%-now' %(" .. lit(dir) .. "/bad%-now%.lua%), moves hook: line 2: not today", out)
      assert.is_nil(out:find("traceback"), out)
      assert.is_nil(out:find("lua/table/"), out)
      assert.is_nil(out:find("%[C%]"), out)
    end)

    it("warns in one line naming the file, the hook and the line when a score hook fails", function()
      local g = assert(diloti.new{ rules = "diloti+bad-score", rules_dirs = { dir },
        position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-" })
      assert(g:play("Jc x Jd"))
      local _, warn = g:play("10h x 10s")
      one_line(warn)
      assert.matches("^house rule 'bad%-score' %(" .. lit(dir) .. "/bad%-score%.lua%), score hook: line 7: "
        .. "attempt to index a nil value %(local 'missing'%); standard scoring used for this round$", warn)
    end)

    it("keeps a script's own message to one line of bounded length, cleaned", function()
      write_variant(dir, "noisy", [[
return { name = "noisy", description = "x", hooks = { moves = function()
  error("first\nsecond\27[2J" .. string.rep("x", 5000)) end } }
]])
      local g = assert(diloti.new{ rules = "diloti+noisy", rules_dirs = { dir }, seed = 3 })
      local ok, err = pcall(g.moves, g)
      assert.is_false(ok)
      one_line(err)
      assert.is_nil(err:find("\27", 1, true))
      assert.is_true(#err < 600, #err)
      assert.matches("line 2: first second", err)
    end)
  end)

  describe("a house rule's warnings in diloti match", function()
    it("are counted on a line of their own, not against an AI", function()
      local out, err, code = support.cli({ "--rules-dir", dir, "match", "random", "greedy", "--games", "1",
        "--seed", "5", "--rules", "diloti+bad-score" })
      assert.equals(0, code, err)
      local n = tonumber(out:match("\nhouse rules: (%d+) warnings"))
      assert.is_number(n, out)
      assert.is_true(n > 0)
      assert.matches("\nrandom: +%d+ decisions, [^\n]*; 0 fallbacks, 0 warnings", out)
      assert.matches("\ngreedy: +%d+ decisions, [^\n]*; 0 fallbacks, 0 warnings", out)
      assert.matches("\n  first: house rule 'bad%-score'", out)
    end)

    it("are in the JSON summary and the CSV rows", function()
      local json_file, csv_file = dir .. "/m.json", dir .. "/m.csv"
      local _, err, code = support.cli({ "--rules-dir", dir, "match", "random", "greedy", "--games", "1",
        "--seed", "5", "--rules", "diloti+bad-score", "--json", json_file, "--csv", csv_file })
      assert.equals(0, code, err)
      local json = require "diloti.match.json"
      local doc = json.decode(support.read(json_file))
      assert.is_true(doc.summary.rules.warnings > 0)
      assert.equals(0, doc.summary.ai.a.warnings)
      assert.equals(0, doc.summary.ai.b.warnings)
      local csv = support.read(csv_file)
      assert.matches("rules_warnings", csv:match("^[^\n]*"))
    end)
  end)

  describe("a bonus named by its hook", function()
    local NAMED = [[
return {
  name = "named",
  description = "One point to the side with the last capture",
  hooks = {
    score = function(score, state)
      local side = state.teams and state.last_capturer % 2 or state.last_capturer
      score[side].total = score[side].total + 1
      score.label = LABEL
      return score
    end,
  },
}
]]
    local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"

    local count = 0
    local function finished(label)
      count = count + 1
      local name = "named" .. count
      write_variant(dir, name, (NAMED:gsub("LABEL", label):gsub('"named"', '"' .. name .. '"')))
      local g = assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { dir }, position = LAST })
      assert(g:play("Jc x Jd"))
      local e, warn = g:play("10h x 10s")
      assert(e)
      return g, warn, name
    end

    local function summary(g)
      local screen = require "diloti.games.diloti.board"
      local style = screen.detect(function(k) return ({ NO_COLOR = "1", TERM = "xterm" })[k] end)
      return screen.round_summary(style, g:result(), { [0] = "You", [1] = "North" }, { rules = g:rules() })
    end

    it("shows the hook's name for it in the round's breakdown, not 'Other'", function()
      local g, warn = finished('"Last capture"')
      assert.is_nil(warn)
      assert.equals("Last capture", g:result().round.label)
      local text = summary(g)
      assert.matches("\nLast capture +%- +%+1", text)
      assert.is_nil(text:find("Other"))
    end)

    it("keeps 'Other' for a bonus without a name", function()
      local g = finished("nil")
      assert.is_nil(g:result().round.label)
      assert.matches("\nOther +%- +%+1", summary(g))
    end)

    it("makes a name plain text: one line, no control characters, at most 40 bytes", function()
      local g = finished('"Bonus\\n\\27[2J\\7for the \\226\\128\\174last " .. string.rep("very ", 30)')
      local label = g:result().round.label
      assert.is_string(label)
      assert.is_nil(label:find("[%c\127]"))
      assert.is_nil(label:find("\226\128\174", 1, true))
      assert.is_true(#label <= 40, #label)
      -- (a box shows the controls of what it hands out, ESC as ^[)
      assert.matches("^Bonus .*for the .*last very very", label)
    end)

    it("refuses a name that is not text, with a warning and standard scoring", function()
      local g, warn = finished("{}")
      assert.matches("score hook", warn)
      assert.matches("label", warn)
      assert.is_nil(g:result().round.label)
      local plain = assert(diloti.new{ position = LAST })
      assert(plain:play("Jc x Jd"))
      assert(plain:play("10h x 10s"))
      assert.same(plain:result().round, g:result().round)
    end)

    it("names last-capture's point 'Last capture'", function()
      local g = assert(diloti.new{ rules = "diloti+last-capture", position = LAST })
      assert(g:play("Jc x Jd"))
      assert(g:play("10h x 10s"))
      assert.equals("Last capture", g:result().round.label)
    end)

    it("follows the game through undo and clone", function()
      local g = finished('"Last capture"')
      local c = g:clone()
      assert.equals("Last capture", c:result().round.label)
      assert(g:undo())
      assert.is_nil((g:result().round or {}).label)
      assert(g:play("10h x 10s"))
      assert.equals("Last capture", g:result().round.label)
    end)

    it("is written in a saved game, beside the round it was scored in", function()
      local g, _, name = finished('"Last capture"')
      local text = assert(record.encode(g, { rules = "diloti+" .. name, position = LAST, date = false }))
      assert.matches("\n# round 1 over:[^\n]*Last capture %+1", text)
    end)
  end)

  describe("variants added while the program runs", function()
    local function variant(name, desc)
      return string.format("return { name = %q, description = %q, rules = { soy = true } }\n", name, desc)
    end

    it("the catalogue notices new, changed and removed files without a refresh", function()
      local d = support.tmpdir()
      local cat = diloti.variants.catalogue({ d })
      assert.is_nil(cat.found.fresh)
      write_variant(d, "fresh", variant("fresh", "First words"))
      cat = diloti.variants.catalogue({ d })
      assert.equals("First words", cat.found.fresh and cat.found.fresh.description)
      write_variant(d, "fresh", variant("fresh", "Second words, longer"))
      cat = diloti.variants.catalogue({ d })
      assert.equals("Second words, longer", cat.found.fresh.description)
      -- the same size, changed within the same second
      write_variant(d, "fresh", variant("fresh", "Second words, LONGER"))
      cat = diloti.variants.catalogue({ d })
      assert.equals("Second words, LONGER", cat.found.fresh.description)
      os.remove(d .. "/fresh.lua")
      cat = diloti.variants.catalogue({ d })
      assert.is_nil(cat.found.fresh)
      support.rmdir(d)
    end)

    -- A table in a child process whose XDG folders are the test's own:
    -- `steps` are lines to type, or shell commands (a table {sh = ...})
    -- run between two lines.
    local function table_session(steps)
      local home = support.tmpdir()
      os.execute("mkdir -p " .. support.q(home .. "/config/diloti/rules-variants"))
      local script = support.write(home .. "/run.lua", [[
require "diloti"
local repl = require "diloti.table.repl"
local steps = dofile(arg[1])
local i = 0
local s = assert(repl.new{
  write = io.write,
  read = function(prompt)
    io.write(prompt)
    while true do
      i = i + 1
      local step = steps[i]
      if type(step) ~= "table" then io.write(tostring(step), "\n") return step end
      os.execute(step.sh)
    end
  end,
  getenv = function(k) if k == "NO_COLOR" then return "1" end return os.getenv(k) end,
  game = { seed = 3, ai = "random" },
})
s:advance()
os.exit(s:run())
]])
      local parts = {}
      for _, st in ipairs(steps) do
        parts[#parts + 1] = type(st) == "table" and string.format("{ sh = %q }", st.sh) or string.format("%q", st)
      end
      local steps_file = support.write(home .. "/steps.lua", "return { " .. table.concat(parts, ", ") .. " }\n")
      local cmd = string.format("cd %s && XDG_CONFIG_HOME=%s XDG_STATE_HOME=%s HOME=%s LUA_CPATH=%s "
        .. "timeout 60 %s %s %s 2>&1",
        support.q(here .. "../.."), support.q(home .. "/config"), support.q(home .. "/state"), support.q(home),
        support.q(package.cpath), support.q(support.lua), support.q(script), support.q(steps_file))
      local p = assert(io.popen(cmd))
      local out = p:read("a")
      p:close()
      return out, home
    end

    it("'rules reload' at the table finds a new file, a changed one and a removed one", function()
      local vdir = "$XDG_CONFIG_HOME/diloti/rules-variants"
      local out, h = table_session{
        "rules",
        { sh = "printf '%s' " .. support.q(variant("late", "Came late")) .. " > " .. vdir .. "/late.lua" },
        "rules reload",
        "rules",
        { sh = "printf '%s' " .. support.q(variant("late", "Changed its mind")) .. " > " .. vdir .. "/late.lua" },
        "rules reload",
        { sh = "rm " .. vdir .. "/late.lua" },
        "rules reload",
        "quit",
      }
      support.rmdir(h)
      local first, rest = out:match("^(.-)rules reload(.*)$")
      assert.is_string(first, out)
      assert.is_nil(first:find("late"), "listed before it existed")
      local r1, r2, r3 = rest:match("^(.-)rules reload(.-)rules reload(.*)$")
      assert.is_string(r1, out)
      assert.matches("new: late", r1)
      assert.matches("late%s+Came late", r1)
      assert.matches("changed: late", r2)
      assert.matches("removed: late", r3)
    end)

    it("'new' sees a variant added since the table opened, without a reload", function()
      local vdir = "$XDG_CONFIG_HOME/diloti/rules-variants"
      local out, h = table_session{
        { sh = "printf '%s' " .. support.q(variant("later", "Added while playing")) .. " > " .. vdir .. "/later.lua" },
        "new rules=diloti+later",
        "quit",
      }
      support.rmdir(h)
      assert.matches("New game: [^\n]*later", out)
    end)

    it("'help rules' explains 'rules reload'", function()
      local out, h = table_session{ "help rules", "quit" }
      support.rmdir(h)
      assert.matches("rules reload", out)
    end)
  end)
end)
