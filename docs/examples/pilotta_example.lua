-- pilotta_example: a small Pilotta AI from docs/ai.md §11. It bids from the
-- evaluation, announces and shows through ctx.declare, says every belote,
-- and plays by two rules: take the trick as cheaply as it can when the
-- opponents hold it, and otherwise give the card worth the least.
local bids_heard = 0 -- bids heard this round (each player has its own)

-- The cheapest card of a list of {i, card} by a key.
local function least(cards, key)
  local best, bk
  for _, x in ipairs(cards) do
    local k = key(x.card)
    if not best or k < bk then best, bk = x, k end
  end
  return best
end

local function auction(view, ctx)
  -- my best suit by the evaluation (team trick points, declarations, belote)
  local suit, worth
  for s in ("cdhs"):gmatch(".") do
    local e = ctx.evaluate(s)
    if not worth or e.total > worth then suit, worth = s, e.total end
  end
  local c = view.contract
  if c and c.team == ctx.side then return "pass" end -- never over my partner
  -- the highest legal bid of my suit that my hand is worth
  local pick, value
  for _, m in ipairs(ctx.moves_info) do
    local v, s = m.text:match("^(%d+)([cdhs])$")
    v = tonumber(v)
    if v and s == suit and v <= worth - 10 and (not value or v > value) then pick, value = m.text, v end
  end
  return pick or "pass"
end

local function play(view, ctx)
  local trumps, trick = view.trumps, view.trick
  local led = trick[1] and ctx.suit(trick[1])
  local cards = {}
  for i, m in ipairs(ctx.moves_info) do
    -- (a card with "nobelote" would give the belote away: skipped)
    if m.kind == "play" and not m.text:find("nobelote", 1, true) then
      cards[#cards + 1] = { i = i, card = m.text:match("^%S+") }
    end
  end
  local cost = function(c) return ctx.card_points(c, trumps) * 100 + ctx.strength(c, trumps, led) end
  if view.winning ~= nil and view.winning % 2 ~= ctx.side then
    local winners = {}
    for _, x in ipairs(cards) do
      trick[#trick + 1] = x.card
      if ctx.winning(trick, trumps) == #trick then winners[#winners + 1] = x end
      trick[#trick] = nil
    end
    if #winners > 0 then return least(winners, function(c) return ctx.strength(c, trumps, led) end).i end
  end
  return least(cards, cost).i
end

return {
  name = "pilotta_example",
  description = "Bids by the evaluation; takes tricks cheaply, else gives the least",
  game = "pilotta",
  help = "An example from docs/ai.md (docs/examples/pilotta_example.lua).",
  choose = function(view, _, ctx)
    if view.phase ~= "play" then
      if ctx.moves_info[1].kind == "trump" then return ctx.name_trumps() end
      return auction(view, ctx), string.format("%d bids heard", bids_heard)
    end
    return ctx.declare() or play(view, ctx)
  end,
  on_event = function(event)
    if event.type == "round_start" then bids_heard = 0
    elseif event.kind == "bid" then bids_heard = bids_heard + 1 end
  end,
}
