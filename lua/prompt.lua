-- A plain prompt to play one match against a random player, until the
-- table (the full REPL) arrives. Type a move, its number, 'moves', 'undo'
-- or 'quit'.
local diloti = require "diloti"

local M = {}

local function show(g, seat)
  local v = g:view(seat)
  local items = {}
  for _, c in ipairs(v.table.loose) do items[#items + 1] = c end
  for _, d in ipairs(v.table.declarations) do
    local comps = {}
    for _, comp in ipairs(d.components) do comps[#comps + 1] = table.concat(comp, "+") end
    items[#items + 1] = string.format("%s(%s)", d.ref, table.concat(comps, ","))
  end
  print(string.format("\nround %d, deal %d   pack %d   score %d-%d",
    v.round, v.deal, v.pack_count, v.score[0], v.score[1]))
  print("table: " .. (#items > 0 and table.concat(items, "  ") or "(empty)"))
  print("hand:  " .. table.concat(v.hand, " "))
end

local function random_move(g, rng)
  local moves = g:moves()
  return moves[rng(#moves)]
end

function M.run(opts)
  local g, err = diloti.new(opts)
  if not g then
    io.stderr:write("diloti: ", err, "\n")
    return 1
  end
  local seed = opts.seed or os.time()
  local function rng(n)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
  end
  print("diloti " .. diloti.version .. ": you are seat 0 against a random player. "
    .. "Type a move (e.g. '7h lay'), its number, 'moves', 'undo' or 'quit'.")
  while true do
    local phase = g:phase()
    if phase == "match-over" then
      local r = g:result()
      print(string.format("match over: %d-%d, side %d wins", r.score[0], r.score[1], r.winner))
      return 0
    elseif phase == "round-over" then
      local r = g:result().round
      print(string.format("round over: %d-%d this round", r[0].total, r[1].total))
      g:next_round()
    elseif g:turn() ~= 0 then
      local m = random_move(g, rng)
      print("opponent: " .. m)
      g:play(m)
    else
      show(g, 0)
      io.write("> ")
      local line = io.read("l")
      if not line or line == "quit" or line == "q" then return 0 end
      local moves = g:moves()
      if line == "moves" then
        for i, m in ipairs(moves) do print(string.format("%3d  %s", i, m)) end
      elseif line == "undo" then
        repeat local ok = g:undo() until not ok or g:turn() == 0
      elseif line ~= "" then
        local ok, why = g:play(moves[tonumber(line)] or line)
        if not ok then print("refused: " .. why) end
      end
    end
  end
end

return M
