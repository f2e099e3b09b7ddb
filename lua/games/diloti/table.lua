-- The table's Diloti (and Kontsina): what the shared table (repl,
-- commands) asks of a game (the package's `table` part). The drawing is
-- lua/games/diloti/board.lua and the move reader lua/games/diloti/input.lua;
-- this module only points at them, plus the few sentences about Diloti's
-- rules the session used to say itself.
local screen = require "diloti.games.diloti.board"
local moveinput = require "diloti.games.diloti.input"

local M = { name = "diloti", title = "Diloti", coach = true }

-- The table's 'declare VALUE': the one declaration of that value, as
-- moveinput.declare answers (move, candidates or error).
M.declare = moveinput.declare
M.rule_id_example = "D19"
-- (the table's 'help' and 'rules' say how to read a refusal's rule id)
M.refusal_help = "A refused move names its rule (D10: ...): 'rules D10' explains it; all of them: "
  .. "docs/rules-reference.md"
M.rules_help = "A rule by the id a refusal cites: 'rules D19'. Every rule: docs/rules-reference.md"
M.new_examples = { "new rules=kontsina", "new rules=diloti+soy+forced-capture seed=7" }

--- The computer's seats when the options name none: a newcomer's first
-- opponent, the "normal" level (ai/player.lua LEVELS).
function M.default_ai() return "normal" end

M.board = screen.board
M.moves = screen.moves
M.round_summary = screen.round_summary
M.round_so_far = screen.round_so_far
--- The words a move may hold ("8h x 3c", "3h on 5s", "7h lay", "claim"):
-- no command may have one of them as its name (a spec of the table's
-- newcomers checks it).
M.move_words = { "lay", "x", "on", "claim", "keep" }
M.move_word = {}
for _, w in ipairs(M.move_words) do M.move_word[w] = true end

M.looks_like_move = moveinput.looks_like_move
M.resolve = moveinput.resolve

function M.describe(st, e, names, opts)
  local rules = opts and opts.rules
  return screen.describe(st, e, names, { xeri_points = rules and rules.points and rules.points.xeri })
end

--- Lines to say after a move beyond its own sentence (T: the session):
-- where the table's last cards went at the end of a round.
function M.after_move(T, e)
  if not e.swept then return {} end
  local who = T:side_name(e.swept.side)
  return { string.format("The cards left on the table (%s) go to %s, who captured last (%s).",
    screen.cards(T.style, e.swept.cards), who == "You" and "you" or who,
    T:rules().capture == "one" and "K3" or "D22") }
end

--- A line under the board for the person to move, or nil.
function M.prompt_line(v, name)
  if v.phase == "claim" then
    return string.format("%s: 'claim' a redeal or 'keep' these cards (V-face-card-claim).", name)
  end
end

--- Every hand face up (replays).
function M.open_hands(st, g, names)
  local s = g:state()
  local lines = {}
  for seat = 0, (g:rules().players - 1) do
    local hand = s.hands and s.hands[seat] or {}
    lines[#lines + 1] = string.format("  %-22s %s", names[seat], screen.cards(st, hand))
  end
  return table.concat(lines, "\n")
end

-- The moves shown by 'help'.
M.help_moves = {
  { "8h x 3c 5s", "capture (x) the 3c and 5s with your 8h" },
  { "3h + 5s = 8", "declare 8: your 3h on the 5s (you must hold another 8)" },
  { "9h x P9@1", "take seat 1's plain 9 (also: @1, P9, 9, or all its cards, if that is the only one)" },
  { "3h on 5s", "the declaration your 3h makes on the 5s, when only one value fits" },
  { "9c lay", "lay the 9c on the table" },
  { "4", "the 4th move of the 'moves' list" },
  { "7h", "the only legal use of your 7h (if it has just one)" },
}
M.move_example = "7h x 7c"

-- ---- what the lessons (lua/teach/learn.lua) ask of the game ----------------

M.learn_greeting = "New to Diloti? Type 'learn' for a short course on the rules, one idea at a time."
M.lesson_help = "Type a move (as at the table: notation, its number in 'moves', or a short form like '8h x' "
  .. "or '3h on 5s'; 'declare 8' makes the declaration of 8 the step asks for), "
  .. "or: why MOVE, hint, moves, board, skip, quit."

--- A line typed at a lesson's move step: the table's reader, plus two
-- natural forms the lessons teach ("declare 8", "3h on 5s") that pick,
-- among the moves that fit, the one the step expects (text -> true).
function M.lesson_resolve(g, line, expected)
  local word, what = line:match("^%s*(%a+)%s*(.-)%s*$")
  if word and word:lower() == "declare" then return moveinput.declare(g, what, expected) end
  local r = moveinput.resolve(g, line)
  if r.candidates and line:lower():match("^%s*%S+%s+on%s") then
    return moveinput.pick(r.candidates, expected)
  end
  return r
end

--- The spare cards a lesson's position leaves in the capture piles (an
-- odd number of cards placed, docs/notation.md 3.4): no part of the
-- lesson, so its board leaves them out. nil when the position places the
-- piles itself.
function M.lesson_spares(g, position)
  if position and position:find("piles=", 1, true) then return nil end
  local set = {}
  for _, list in pairs(g:view(g:turn() or 0).captured) do
    for _, c in ipairs(list) do set[c] = true end
  end
  return set
end

--- A view without the spare cards.
function M.lesson_view(v, spares)
  local c = {}
  for k, val in pairs(v) do c[k] = val end
  -- (the engine's count of the round so far would count the spares too)
  c.captured, c.so_far = {}, nil
  for side, list in pairs(v.captured) do
    local kept = {}
    for _, card in ipairs(list) do if not spares[card] then kept[#kept + 1] = card end end
    c.captured[side] = kept
  end
  return c
end

return M
