-- Highcard at the terminal table: the drawing and the move reader, the
-- same fields as the table's module of any game (lua/table/games/). The
-- style argument is the table's; plain text needs none of it.
local M = { name = "highcard", title = "Highcard", coach = false, declare = false }

M.move_words = {}
M.move_word = {}
M.move_example = "Qh"
M.help_moves = { { "Qh", "play your queen" }, { "2", "the 2nd move of the 'moves' list" } }
M.learn_greeting = "Highcard: play a card; the higher card takes the trick (H4)."
M.lesson_help = "Type a card you hold, like Qh."

function M.default_ai() return "random" end

--- The table's players: highcard's own built-in ones (its ai part's).
function M.player(name, opts)
  local ai = require "diloti.games.highcard.ai"
  return ai.player(name, opts)
end

local function who(names, seat)
  return names and names[seat] or ("Seat " .. tostring(seat))
end

local function trick_text(trick, names)
  local out = {}
  for _, t in ipairs(trick or {}) do out[#out + 1] = who(names, t.seat) .. " " .. t.card end
  return #out > 0 and table.concat(out, ", ") or "-"
end

function M.board(_, v, opts)
  local names = opts and opts.names
  local lines = {
    string.format("Highcard, round %d: score %d - %d (to %d); tricks %d - %d", v.round, v.score[0], v.score[1],
      v.target, v.tricks_won[0], v.tricks_won[1]),
    "Trick: " .. trick_text(v.trick, names),
  }
  for _, l in ipairs(opts and opts.recent or {}) do lines[#lines + 1] = l end
  if v.hand then lines[#lines + 1] = "Your hand: " .. (#v.hand > 0 and table.concat(v.hand, " ") or "-") end
  if v.phase == "match-over" then lines[#lines + 1] = who(names, v.winner) .. " won the match." end
  return table.concat(lines, "\n")
end

function M.moves(_, list)
  local out = {}
  for i, m in ipairs(list) do out[i] = string.format("%d. %s", i, type(m) == "table" and m.text or m) end
  return table.concat(out, "\n")
end

function M.describe(_, e, names)
  local line = string.format("%s played %s.", who(names, e.seat), e.card or e.move)
  if e.trick_over then line = line .. " " .. who(names, e.trick_over.winner) .. " took the trick (H4)." end
  return line
end

function M.round_summary(_, result, names)
  local r = result.round
  return string.format("Round over: %s %d, %s %d tricks (H5).", who(names, 0), r[0].total, who(names, 1), r[1].total)
end

function M.round_so_far(st, v, names)
  return M.round_summary(st, { round = { [0] = { total = v.tricks_won[0] }, [1] = { total = v.tricks_won[1] } } },
    names)
end

function M.open_hands(_, g, names)
  local s, lines = g:state(), {}
  for seat = 0, 1 do lines[#lines + 1] = "  " .. who(names, seat) .. " " .. table.concat(s.hands[seat], " ") end
  return table.concat(lines, "\n")
end

function M.after_move() return {} end
function M.prompt_line() return nil end

function M.looks_like_move(text)
  return text:match("^%s*%w+[hH]%s*$") ~= nil or text:match("^%s*%d+%s*$") ~= nil
end

--- A typed line: {move = text}, or {error = why}.
function M.resolve(g, text)
  local n = math.tointeger(tonumber(text:match("^%s*(%d+)%s*$")))
  local m, why = g:parse(n or text)
  if not m then return { error = why } end
  return { move = m.text }
end

return M
