-- Third attack round (issue 15's changes): named bonuses, one-line hook
-- failures, rules reload and the catalogue's stamps, the rules reference
-- and its suggestions, declarations named by value or cards, lessons'
-- notation, the width code. Each FINDING failed on the code as reviewed;
-- the others are attacks that held, kept as regressions.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local function clock() return require("diloti.core").clock() end

describe("attack 3: lessons' notation", function()
  local learn = require "diloti.teach.learn"

  -- A one-step lesson whose notation lists `n` other spellings.
  local function lesson(also, move)
    return string.format([[
local also = {}
for i = 1, %d do also[i] = %q end
return {
  id = "99-notation", title = "t", rules = { "D15" }, intro = "i",
  steps = {
    { text = "t", position = "hands=3h 8d / 9c; table=5s", ask = "Declare 8.", wrong = "D15: no",
      notation = { move = %q, also = also }, accept = { "3h + 5s = 8" } },
  },
}]], also, "3h on 5s", move or "3h + 5s = 8")
  end

  -- FINDING (medium): `learn --check` checked every spelling in
  -- notation.also by resolving it afresh, working out the step's accepted
  -- moves each time (for an accept function, a call into the lesson's box
  -- per legal move, each allowed a second). The list had no limit: 200,000
  -- spellings and an accept function spending a millisecond kept
  -- `diloti learn --check` busy for more than five minutes.
  it("refuses a notation with more than a few other spellings", function()
    local l, err = learn.load_source(lesson(1000), "99-notation.lua")
    assert.is_nil(l)
    assert.matches("notation: 'also' lists at most %d+ spellings", err)
    assert.is_truthy(learn.load_source(lesson(3), "99-notation.lua"))
  end)

  it("refuses a notation spelling longer than a line", function()
    local l, err = learn.load_source(lesson(1, "3h + 5s = 8" .. string.rep(" ", 500)), "99-notation.lua")
    assert.is_nil(l)
    assert.matches("notation: 'move' is longer than %d+ bytes", err)
  end)

  it("works out the accepted moves of a step once, however many spellings", function()
    local src = lesson(8):gsub('accept = { "3h %+ 5s = 8" }',
      'accept = function(m) COUNT = (COUNT or 0) + 1; return m.text == "3h + 5s = 8" end')
    local l = assert(learn.load_source(src, "99-notation.lua"))
    local calls = 0
    local accept = l.steps[1].accept
    l.steps[1].accept = function(m) calls = calls + 1 return accept(m) end
    assert.is_true(learn.walk(l, function() end))
    local g = assert(diloti.new{ position = "hands=3h 8d / 9c; table=5s" })
    -- once for the step's answers, once for its notation: not once per spelling
    assert.is_true(calls <= 2 * #g:moves(), calls)
  end)
end)

describe("attack 3: the rules reference", function()
  local rulebook = require "diloti.table.rulebook"

  -- FINDING (low): the nearest ids to an unknown one were found by an
  -- edit distance over the whole id typed: `diloti rules V-` followed by
  -- 120,000 letters took 16 s (a line at the table may be longer), and
  -- the refusal repeated the id whole.
  it("answers an unknown huge id at once, in a short line", function()
    for _, id in ipairs{ "V-" .. string.rep("a", 1000000), "D" .. string.rep("9", 1000000) } do
      local t0 = clock()
      local msg = rulebook.unknown(id)
      assert.is_true(clock() - t0 < 0.5, clock() - t0)
      assert.is_true(#msg < 300, #msg)
      assert.matches("^No rule 'V?D?", msg)
    end
    assert.matches("Nearest: D24", rulebook.unknown("D29"))
    assert.matches("Nearest: V%-soy", rulebook.unknown("V-sox"))
  end)
end)

describe("attack 3: a bonus's name on the screen", function()
  local screen = require "diloti.games.diloti.board"
  local dir = tmp .. "/labels"
  os.execute("mkdir -p " .. support.q(dir))
  local LAST = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
  local count = 0

  -- The round's result after a score hook named its point `label` (a Lua
  -- expression in the script).
  local function named(label)
    count = count + 1
    local name = "wide" .. count
    support.write(dir .. "/" .. name .. ".lua", string.format([[
return { name = %q, description = "d", hooks = { score = function(score, state)
  score[0].total = score[0].total + 1
  score.label = %s
  return score
end } }]], name, label))
    local g = assert(diloti.new{ rules = "diloti+" .. name, rules_dirs = { dir }, position = LAST })
    assert(g:play("Jc x Jd"))
    assert(g:play("10h x 10s"))
    return g
  end

  -- Columns on a terminal: East Asian wide characters take two, combining
  -- marks and zero-width characters none (the test's own small table).
  local function columns(s)
    s = screen.strip(s)
    local n = 0
    for _, cp in utf8.codes(s) do
      if (cp >= 0x300 and cp <= 0x36F) or (cp >= 0x200B and cp <= 0x200D) then
        n = n + 0
      elseif (cp >= 0x4E00 and cp <= 0x9FFF) or (cp >= 0x1F300 and cp <= 0x1F64F) then
        n = n + 2
      else
        n = n + 1
      end
    end
    return n
  end

  -- FINDING (low): the screen measured text in code points, so a name of
  -- wide characters (or of combining marks) moved its row's numbers out
  -- of their side's column, up to under the other side's name, and past
  -- the terminal's width.
  for what, label in pairs{
    wide = 'string.rep("\\230\\188\\162", 13)',             -- 漢 x 13
    emoji = 'string.rep("\\240\\159\\152\\128", 10)',       -- 😀 x 10
    combining = '"B" .. string.rep("\\204\\129", 19)',       -- B and 19 acute accents
    zero_width = '"Z" .. string.rep("\\226\\128\\139", 13)', -- Z and 13 ZWSP
  } do
    it("lays out a round's breakdown with a name of " .. what .. " characters as one of letters", function()
      local g = named(label)
      local shown = assert(g:result().round.label)
      -- the same name in as many columns of plain letters
      local plain = named(string.format("%q", string.rep("X", columns(shown))))
      for _, width in ipairs{ 80, 40, 24 } do
        local st = screen.style{ width = width }
        local function summary(game)
          return screen.round_summary(st, game:result(), { [0] = "You", [1] = "North" }, { rules = game:rules() })
        end
        local text, want = summary(g), summary(plain)
        -- line by line, the same columns as the name of letters takes
        local got, wanted = support.lines(text), support.lines(want)
        assert.equals(#wanted, #got, width .. ":\n" .. text)
        for i, line in ipairs(got) do
          assert.equals(columns(wanted[i]), columns(line), width .. ":\n" .. text .. "\n" .. want)
          assert.is_true(columns(line) <= width, width .. ": " .. line)
        end
      end
    end)
  end
end)

-- (a helper's attack on the lessons: each call a limit stopped loaded the
-- lesson afresh and left the old box open, held only by the host's
-- garbage; a lesson that broke its box on every typed move filled every
-- script's memory together, 512 MiB, in about 45 moves)
describe("a lesson loaded afresh after a limit", function()
  local learn = require "diloti.teach.learn"

  it("closes the box it leaves, each time", function()
    local l = assert(learn.load_source([[
HOLD = ("x"):rep(1 << 19)
return { id = "99-reload", title = "Reload", rules = { "D11" },
  steps = { { text = "Take.", position = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c",
    accept = function(m) while true do end end, wrong = "D11: take it" } } }]], "99-reload.lua"))
    local step, info = l.steps[1], { text = "8h lay", kind = "lay" }
    for _ = 1, 2 do
      local before = step.accept
      assert.is_false(learn.is_right(step, {}, info))
      assert.are_not.equal(before, step.accept, "loaded afresh")
      local ok, why = pcall(before, info)
      assert.is_false(ok)
      assert.matches("the script was closed", why)
    end
  end)
end)
