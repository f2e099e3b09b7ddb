-- `make bench`: how often the table calls into the engine (methods of the
-- game handle, counted by core.calls()) for one typed move and the random
-- AI's reply, the most over a dozen moves of a seeded game; and how often a
-- house rule's moves hook runs per position. Run with `diloti run`.
local diloti = require "diloti"
local core = require "diloti.core"
local repl = require "diloti.table.repl"

local s = assert(repl.new {
  extensions = { require "diloti.teach.learn", (require "diloti.teach.coach") },
  write = function() end, read = function() return nil end,
  getenv = function() return nil end, clock = function() return 1000 end,
  game = { ai = "random", seed = 5 },
})
s:advance()
s:show()
local worst, n = 0, 0
while s:human_to_move() and n < 12 do
  local line = s.g:moves()[1]
  local before = core.calls()
  s:handle(line)
  worst = math.max(worst, core.calls() - before)
  n = n + 1
end

local runs, positions = 0, 0
local g = assert(diloti.new { rules = { capture = "many" }, seed = 3,
  hooks = { moves = function(list) runs = runs + 1 return list end } })
while g:turn() do
  positions = positions + 1
  local texts = g:moves()
  g:moves(true)
  g:check(texts[1])
  g:parse(texts[#texts])
  assert(g:play(texts[1]))
end
print(string.format("calls into the engine for a typed move and the AI's reply: at most %d (of %d moves); "
  .. "moves hook: %d runs for %d positions", worst, n, runs, positions))
