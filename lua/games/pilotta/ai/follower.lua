-- Follower: Pilotta by a few plain rules, with no memory and no look-ahead.
--
-- Auction: it bids only with a long, strong trump suit (the Jack and four
-- more cards of the suit, or the Jack, the Nine and two more), never above
-- what the length is worth, never over its own team's bid; it passes
-- otherwise and never says contra or recontra. Play: it announces every
-- declaration and shows it when its team stands, says the belote, and
-- plays the strongest card that would win the trick now, or else its
-- weakest card.

-- The most it bids with n cards of the suit: 80 with four (Jack and
-- Nine among them), 90 with five, then 10 more a card.
local function ceiling(n, nine)
  if n >= 5 then return math.min(80 + 10 * (n - 4) + (nine and 10 or 0), 130) end
  return 80
end

-- The suit worth bidding in, and the most to bid there; nil for none.
local function bid_suit(hand, ctx)
  local count, jack, nine, pts = {}, {}, {}, {}
  for _, c in ipairs(hand) do
    local s, r = ctx.suit(c), ctx.rank(c)
    count[s] = (count[s] or 0) + 1
    pts[s] = (pts[s] or 0) + ctx.card_points(c, s)
    if r == "J" then jack[s] = true elseif r == "9" then nine[s] = true end
  end
  local best, best_key
  for s in ("cdhs"):gmatch(".") do
    local n = count[s] or 0
    if jack[s] and (n >= 5 or (n >= 4 and nine[s])) then
      local key = n * 100 + pts[s]
      if not best or key > best_key then best, best_key = s, key end
    end
  end
  if not best then return nil end
  return best, ceiling(count[best], nine[best])
end

-- The index of a pass among the moves (there is always one in an auction).
local function find(infos, kind)
  for i, m in ipairs(infos) do if m.kind == kind then return i end end
end

local function auction(view, infos, ctx)
  local pass = find(infos, "pass")
  local c = view.contract
  if c and c.team == ctx.side then return pass end -- (never over its own team)
  local suit, most = bid_suit(view.hand, ctx)
  if not suit then return pass end
  local pick, low
  for i, m in ipairs(infos) do
    local v, s = m.text:match("^(%d+)(%a)$") -- (a numeric bid; capot is never its call)
    v = tonumber(v)
    if v and s == suit and v <= most and (not low or v < low) then pick, low = i, v end
  end
  return pick or pass
end

-- PV-suit-after-auction: the longest suit, then the strongest.
local function name_trumps(view, infos, ctx)
  local count = {}
  for _, c in ipairs(view.hand) do
    local s = ctx.suit(c)
    count[s] = (count[s] or 0) + 10 + ctx.card_points(c, s) / 100
  end
  local best, most
  for i, m in ipairs(infos) do
    local n = count[m.text:match("(%a)$")] or 0
    if not best or n > most then best, most = i, n end
  end
  return best
end

local function play(view, infos, ctx)
  local announce, most, show
  for i, m in ipairs(infos) do
    if m.kind == "announce" then
      local _, n = m.text:gsub("%S+", "") -- (the word and the cards)
      if not announce or n > most then announce, most = i, n end
    end
    if m.kind == "show" then show = i end
  end
  if announce then return announce end
  if show then return show end
  local trumps, trick = view.trumps, view.trick or {}
  local led = trick[1] and ctx.suit(trick[1])
  local top, top_key, low, low_key
  for i, m in ipairs(infos) do
    if m.kind == "play" and not m.text:find("nobelote", 1, true) then
      local c = m.text:match("^%S+")
      trick[#trick + 1] = c
      local wins = ctx.winning(trick, trumps) == #trick
      trick[#trick] = nil
      local key = ctx.strength(c, trumps, led) * 100 + ctx.card_points(c, trumps)
      if wins and (not top or key > top_key) then top, top_key = i, key end
      if not low or key < low_key then low, low_key = i, key end
    end
  end
  return top or low or 1
end

return {
  name = "follower",
  description = "Plays its highest winner, else its lowest card; bids only on long strong trumps",
  strength = "beats random",
  game = "pilotta",
  help = [[A plain Pilotta player that follows a few rules and remembers nothing.
In the auction it bids only with a long, strong trump suit: the Jack and
four more cards of the suit (or the Jack and the Nine with two more), at the
lowest value it may, up to 80 for four cards and 90 for five, 10 more for
each further card and for the Nine (130 at most); it never bids over its
partner and never says contra or recontra. In the play it announces every
declaration it holds, shows it when its team stands, says the belote, and
plays the strongest card that would take the trick as it stands, or else
its weakest card.]],
  choose = function(view, _, ctx)
    local infos = ctx.moves_info
    local kind = infos[1] and infos[1].kind
    if view.phase == "play" then return infos[play(view, infos, ctx)] end
    if kind == "trump" then return infos[name_trumps(view, infos, ctx)] end
    return infos[auction(view, infos, ctx) or 1]
  end,
}
