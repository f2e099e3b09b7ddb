-- Highcard's rules part, made by the game kit (lua/gamekit.lua): only
-- what is highcard's own is written here; rule ids H1-H6 are in init.lua.
local kit = require "diloti.gamekit"

local DECK, VALUE = {}, {}
for i, r in ipairs { "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A" } do
  DECK[i], VALUE[r .. "h"] = r .. "h", i
end
local function by_value(a, b) return VALUE[a] < VALUE[b] end

return kit.game {
  name = "highcard",
  rules = { players = 2, teams = false, hand_size = 3, target = 5 },
  messages = { players = "H1: highcard is for two players", dealer = "H2: the dealer is seat 0 or 1",
    round_on = "H5: the round is not over yet", round_over = "H5: the round is over (next_round deals the next)",
    match_over = "H6: the match is over" },
  check = function(r)
    if r.hand_size ~= 3 then return "H2: hands are of three cards" end
    if r.target < 1 or r.target > 1000 then return "H6: the target is a whole number from 1 to 1000" end
  end,
  -- H2, H3: the dealer's opponent gets three cards first, and leads.
  deal = function(_, dealer, rand)
    local deck, first = kit.shuffle(DECK, rand), 1 - dealer
    local hands = { [first] = { table.unpack(deck, 1, 3) }, [dealer] = { table.unpack(deck, 4, 6) } }
    for seat = 0, 1 do table.sort(hands[seat], by_value) end
    return { hands = hands, pack = { table.unpack(deck, 7) }, trick = {}, tricks_won = { [0] = 0, [1] = 0 },
      leader = first, turn = first }
  end,
  moves = function(s) -- H4: any card of the hand
    local out = {}
    for i, c in ipairs(s.hands[s.turn]) do out[i] = { text = c, kind = "play", card = c, value = VALUE[c] } end
    return out
  end,
  read = function(text)
    local rank = text:match("^%s*(%w-)[hH]%s*$")
    if VALUE[rank and rank:upper() .. "h"] then return rank:upper() .. "h" end
    return nil, "expected a card like 7h, 10h or Ah, its number in moves() or a table with text (H1)"
  end,
  refuse = function(_, card) return "H4: you do not hold " .. card end,
  explain = function(_, m) return "play " .. m.text .. " (H4)" end,
  table = function(s) return s.trick end,
  apply = function(s, m) -- H4: the higher card takes the trick; its winner leads
    table.remove(s.hands[m.seat], m.index)
    s.trick[#s.trick + 1] = { seat = m.seat, card = m.card }
    local effect = { trick = s.tricks_won[0] + s.tricks_won[1] + 1 }
    if #s.trick < 2 then
      s.turn = 1 - m.seat
      return effect
    end
    local a, b = s.trick[1], s.trick[2]
    local w = VALUE[a.card] > VALUE[b.card] and a.seat or b.seat
    s.tricks_won[w] = s.tricks_won[w] + 1
    s.last_trick, s.trick, s.leader, s.turn = s.trick, {}, w, w
    effect.trick_over = { winner = w, side = w, number = effect.trick }
    return effect
  end,
  over = function(s) return s.tricks_won[0] + s.tricks_won[1] == 3 end, -- H5
  score = function(s) -- H5: a point a trick
    local t = s.tricks_won
    return { [0] = { tricks = t[0], total = t[0] }, [1] = { tricks = t[1], total = t[1] },
      winner = t[0] + t[1] == 3 and (t[0] > t[1] and 0 or 1) or nil }
  end,
}
