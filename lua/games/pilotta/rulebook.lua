-- Pilotta's part of the rules reference (lua/table/rulebook.lua reads
-- it, the package's `rulebook` part): an entry for every id of Pilotta's rules (P…), house rules (PV-…)
-- and clarifications (PC…), in our own words, each with an example in the
-- notation of docs/notation.md section 9. The examples run through the
-- engine like every game's (tests/lua/rulebook_spec.lua); a position is four
-- hands, seat 0 first, and `?N` stands for cards that do not matter.
-- `invalid = ID`: the position itself is refused, citing ID. An example's
-- `expect` may also hold `turn`, `phase` and `winning` (the seat winning
-- the trick).
local M = {}

M.parts = {
  { key = "P", title = "Pilotta", intro = "Four players in two partnerships, a 32-card pack, an auction, "
    .. "eight tricks and declarations: `new game=pilotta` at the table, `diloti --game pilotta` on the "
    .. "command line. In the examples the hands are seat 0's to seat 3's, `calls=` is the auction so far "
    .. "and `tricks=` the cards played; the seat to act follows from them." },
  { key = "PV", title = "Pilotta house rules", intro = "Each is a variant you add with '+', for example "
    .. "`new game=pilotta rules=pilotta+partner-exempt` at the table." },
  { key = "PC", title = "Pilotta clarifications", intro = "Readings the rules above leave open, settled "
    .. "one way; each names the rules it reads." },
}

-- Positions the examples share. HEARTS: seat 0 bid 80 hearts and leads
-- the first trick (dealer 3, so seat 0 is the eldest hand).
local HEARTS = "dealer=3; calls=80h, pass, pass, pass; "
local FRESH = "hands=?8 / ?8 / ?8 / ?8"

M.entries = {
  -- Players and seats ------------------------------------------------
  { id = "P1", title = "Four players, two teams",
    text = "Pilotta is for four players only, playing as two fixed partnerships with partners facing each "
      .. "other. There is no form for two or three; asking for one is refused.",
    example = { position = "hands=?8 / ?8 / ?8", invalid = "P1", note = "three hands: not a Pilotta table" } },

  { id = "P2", title = "Seats and direction",
    text = "The seats are numbered 0 to 3 in the order they act, in the deal, the auction and the play alike. "
      .. "Seats 0 and 2 are team A, seats 1 and 3 team B; your partner is two seats on.",
    example = { position = "dealer=3; " .. FRESH,
      steps = { { "80h", say = "seat 0 calls first" }, { "90s", say = "then seat 1" } },
      expect = { turn = "2" } } },

  { id = "P3", title = "Dealer, eldest hand, contract holder",
    text = "The eldest hand is the seat after the dealer. Whoever makes the winning bid holds the contract: "
      .. "his team is the bidding team, the others defend.",
    example = { position = "dealer=1; " .. FRESH, steps = { { "pass", legal = true } },
      expect = { turn = "2" }, note = "seat 1 deals, so seat 2 is the eldest hand and calls first" } },

  -- Cards -------------------------------------------------------------
  { id = "P4", title = "The 32-card pack",
    text = "The pack keeps the 7 to the ace of each suit: 7 8 9 10 J Q K A in clubs, diamonds, hearts and "
      .. "spades. Cards below the 7 do not exist in this game.",
    example = { position = "hands=6h ?7 / ?8 / ?8 / ?8", invalid = "P4", note = "there is no 6 of hearts" } },

  { id = "P5", title = "Which card is higher",
    text = "In the trump suit the Jack is highest, then the 9, A, 10, K, Q, 8, 7. In the other suits the "
      .. "order is A, 10, K, Q, J, 9, 8, 7.",
    example = { position = HEARTS .. "hands=?7 / 9h Kh 7c 8c 9c 10c 7s 8s / ?8 / ?8; tricks=10h",
      steps = { { "9h", legal = true, say = "the 9 of trumps beats the 10" },
        { "Kh", refused = "P24", say = "the King of trumps does not" } } } },

  { id = "P6", title = "Card points",
    text = "Trump Jack 20, trump 9 14; in any suit the ace 11, the 10 ten, the King 4, the Queen 3; a plain "
      .. "Jack 2; the other cards nothing. A trump suit holds 62 points, a plain suit 30, the pack 152.",
    example = { text = "hearts trumps, a trick of Jh 9h Ah 10h:  20 + 14 + 11 + 10 = 55\n"
      .. "the same ranks in clubs, Jc 9c Ac 10c:     2 +  0 + 11 + 10 = 23" } },

  { id = "P7", title = "Always a trump suit",
    text = "Every contract names a trump suit. There are no no-trump or all-trump contracts, so a bid "
      .. "without a suit is not a call.",
    example = { position = "dealer=3; " .. FRESH,
      steps = { { "90", refused = "P12", say = "which suit?" },
        { "90 nt", refused = "P7", say = "no no-trump contract" }, { "90h", legal = true } } } },

  -- Dealer and deal -------------------------------------------------
  { id = "P8", title = "The first dealer",
    text = "Whoever starts the game may choose the first dealer; otherwise the seed picks one. A cut to "
      .. "choose him is only ceremony.",
    example = { position = "dealer=2; " .. FRESH, expect = { turn = "3" },
      note = "dealer 2 given: seat 3 opens the auction" } },

  { id = "P9", title = "Shuffling and dealing",
    text = "The pack is shuffled from the seed (a cut may move cards from top to bottom). The dealer then "
      .. "deals from the top, eldest hand first and himself last, in packets of 3, then 2, then 3: eight "
      .. "cards each.",
    example = { text = "dealer 3, pack positions from the top (0-31):\n"
      .. "seat 0 (eldest): 0-2, 12-13, 20-22\nseat 1: 3-5, 14-15, 23-25\n"
      .. "seat 2: 6-8, 16-17, 26-28\nseat 3 (dealer): 9-11, 18-19, 29-31" } },

  { id = "P10", title = "The next dealer",
    text = "After every round, played or thrown in, the eldest hand of that round deals the next one: the "
      .. "deal moves one seat on (PV-deal-left turns it the other way).",
    example = { text = "round 1: dealer 3, eldest 0\nround 2: dealer 0, eldest 1\nround 3: dealer 1, eldest 2" } },

  { id = "P11", title = "Eight cards, all at once",
    text = "Each player gets his eight cards in the deal; nothing is turned up and nothing is dealt later.",
    example = { position = "hands=?8 / ?8 / ?8 / ?7", invalid = "P11", note = "seat 3 is a card short" } },

  -- Auction -----------------------------------------------------------
  { id = "P12", title = "The calls",
    text = "At his turn in the auction a player passes, bids a value with a suit (90h), bids capot with a "
      .. "suit (capot s: all eight tricks), or says contra or recontra where P16 and P17 allow.",
    example = { position = "dealer=3; " .. FRESH,
      steps = { { "pass", legal = true }, { "90h", legal = true }, { "capot s", legal = true },
        { "contra", refused = "P16", say = "no bid to double yet" },
        { "90", refused = "P12", say = "a bid needs a suit" } } } },

  { id = "P13", title = "Turns in the auction",
    text = "The eldest hand speaks first and the calls go round the table, one call a turn, until the "
      .. "auction ends (P18).",
    example = { position = "dealer=0; " .. FRESH,
      steps = { { "pass", say = "seat 1, the eldest" }, { "80c", say = "seat 2" } },
      expect = { turn = "3" } } },

  { id = "P14", title = "Bid values",
    text = "Bids go in tens from 80 to 160; capot is worth 250 and tops them all. Each bid must be above the "
      .. "last one, in any suit, whoever made it, partner included.",
    example = { position = "dealer=3; calls=90h; " .. FRESH,
      steps = { { "90s", refused = "P14", say = "not higher" }, { "85s", refused = "P14", say = "tens only" },
        { "170s", refused = "P14", say = "above 160" }, { "100s", legal = true },
        { "capot c", legal = true } } } },

  { id = "P15", title = "A pass is not final",
    text = "A player who passed may still bid at a later turn while the auction goes on (PV-pass-final "
      .. "forbids it).",
    example = { position = "dealer=3; calls=pass, 80h, pass, pass; " .. FRESH,
      steps = { { "90h", legal = true, say = "seat 0 passed before, and bids now" } } } },

  { id = "P16", title = "Contra",
    text = "Once a bid stands, a player of the other team may say contra at his turn (once per auction). "
      .. "It doubles the contract and closes the bidding: nobody may bid after it.",
    example = { position = "dealer=0; calls=90d, pass; " .. FRESH,
      steps = { { "contra", refused = "P16", say = "seat 3 is the bidder's partner" }, { "pass" },
        { "contra", say = "seat 0, a defender" }, { "100s", refused = "P16", say = "no more bids" } } } },

  { id = "P17", title = "Recontra",
    text = "After a contra, a player of the bidding team may answer recontra at his turn, once: the "
      .. "contract then counts four times.",
    example = { position = "dealer=0; calls=90d, contra; " .. FRESH,
      steps = { { "recontra", legal = true, say = "seat 3, the bidder's partner" }, { "pass" },
        { "recontra", refused = "P17", say = "seat 0 defends" } } } },

  { id = "P18", title = "The end of the auction",
    text = "The auction stops after four passes with no bid; after three passes in a row that follow the "
      .. "last bid or contra; or at once after a recontra. After a contra the defenders can only pass and "
      .. "the bidders pass or recontra. No call is taken after the end.",
    example = { position = "dealer=0; calls=90d, pass, pass; " .. FRESH,
      steps = { { "pass", say = "the third pass" }, { "pass", refused = "P18", say = "the play has begun" } },
      expect = { phase = "play", turn = "1" } } },

  { id = "P19", title = "Everybody passes",
    text = "If all four pass, nobody plays and nobody scores: the cards are thrown in and the next dealer "
      .. "(P10) deals again.",
    example = { position = "dealer=2; " .. FRESH,
      steps = { { "pass" }, { "pass" }, { "pass" }, { "pass" } },
      expect = { phase = "round-over" } } },

  { id = "P20", title = "The contract",
    text = "The highest bid is the contract: who made it, his team, its value (capot 250), and its suit, "
      .. "which is trumps for the round. It counts once, twice after a contra, four times after a recontra.",
    example = { position = "dealer=0; calls=90d, contra, pass, pass; " .. FRESH,
      steps = { { "pass", say = "the last pass" } }, expect = { phase = "play", turn = "1" },
      note = "seat 1's 90 diamonds, doubled; seat 1, the eldest, leads" } },

  -- Play of the cards ---------------------------------------------
  { id = "P21", title = "Who leads",
    text = "The eldest hand leads the first trick, whoever holds the contract; each trick's winner leads "
      .. "the next. There are eight tricks.",
    example = { position = "dealer=3; calls=pass, 90s, pass, pass, pass; hands=7c 8c 9c 10c 7d 8d 9d 10d / "
      .. "?8 / ?8 / ?8", steps = { { "7c", legal = true, say = "seat 0 leads; seat 1 holds the contract" } },
      expect = { turn = "0" } } },

  { id = "P22", title = "The lead is free",
    text = "The player who leads a trick may play any card of his hand.",
    example = { position = HEARTS .. "hands=7c Jh As Kd 9c Qs 10h 8d / ?8 / ?8 / ?8",
      steps = { { "7c", legal = true }, { "Jh", legal = true }, { "As", legal = true } } } },

  { id = "P23", title = "Follow suit first",
    text = "If you hold a card of the suit led you must play one. That comes before any duty to trump: "
      .. "while you can follow a plain suit you never have to trump (PC3).",
    example = { position = HEARTS .. "hands=?7 / ?7 / As 7s Jh 9h 8c 7c 8d 9d / ?8; tricks=10s Js",
      steps = { { "7s", legal = true, say = "no need to beat the Jack" }, { "As", legal = true },
        { "Jh", refused = "P23", say = "you can follow spades" } } } },

  { id = "P24", title = "Over a trump lead, go higher",
    text = "When trumps are led, you must play a trump higher than every trump in the trick if you have "
      .. "one; if you have none that high, any trump will do.",
    example = { position = "dealer=2; calls=80s, pass, pass, pass; hands=Qs As 9s Kh 7c 8c 7d 8d / ?8 / ?8 / "
      .. "?7; tricks=10s",
      steps = { { "As", legal = true }, { "9s", legal = true },
        { "Qs", refused = "P24", say = "the Queen is below the 10" },
        { "Kh", refused = "P23", say = "spades were led" } },
      note = "spades are trumps; with Qs 8s and no higher spade, either would do" } },

  { id = "P25", title = "Cannot follow: trump, over or under",
    text = "If you cannot follow a plain suit and hold a trump, you must trump. Over a trump already in "
      .. "the trick you must go higher if you can, and play a lower trump if you cannot.",
    example = { position = "dealer=0; calls=80h, pass, pass, pass; hands=?8 / ?7 / ?7 / 9h Qh 7h As 7c 8c 7s "
      .. "8s; tricks=Kd 10h",
      steps = { { "9h", legal = true, say = "the 9 beats the 10" },
        { "Qh", refused = "P25", say = "the 9 would beat the 10" },
        { "As", refused = "P25", say = "you must trump" } } } },

  { id = "P26", title = "Neither follow nor trump",
    text = "A player with no card of the suit led and no trump may play any card.",
    example = { position = HEARTS .. "hands=?7 / 7c 8c 9c 10c 7s 8s 9s 10s / ?8 / ?8; tricks=Kd",
      steps = { { "7s", legal = true }, { "10c", legal = true } } } },

  { id = "P27", title = "No exemption for a winning partner",
    text = "The duties to trump and to go higher hold even while your partner is winning the trick, even "
      .. "over his own trump (PV-partner-exempt lifts them).",
    example = { position = HEARTS .. "hands=?7 / ?7 / 8h Ah Kd 7c 8c 9c 8d 9d / ?8; tricks=As 7s",
      steps = { { "8h", legal = true }, { "Ah", legal = true },
        { "Kd", refused = "P27", say = "partner's ace wins, but you must trump" } } } },

  { id = "P28", title = "No duty to beat in a plain suit",
    text = "Following a plain suit, any card of it will do: you need not beat the card that is winning "
      .. "(PV-must-head adds that duty).",
    example = { position = HEARTS .. "hands=?7 / Ad 7d 9c 7c 8c 7s 8s 9s / ?8 / ?8; tricks=Kd",
      steps = { { "Ad", legal = true }, { "7d", legal = true, say = "a low diamond is fine" },
        { "9c", refused = "P23" } } } },

  { id = "P29", title = "Who wins a trick",
    text = "The highest trump in the trick wins it; with no trump, the highest card of the suit led. A "
      .. "card of another plain suit never wins.",
    example = { position = HEARTS .. "hands=?7 / ?7 / Ad 9h Jh Kc 7c 8c 7s 8s / ?8; tricks=8d 7h",
      steps = { { "9h", refused = "P23", say = "diamonds first" }, { "Ad", say = "the ace of diamonds" } },
      expect = { winning = "1" }, note = "seat 1's 7 of trumps still wins" } },

  -- Trick points ----------------------------------------------------
  { id = "P30", title = "Counting the tricks",
    text = "Each team adds up the card points (P6) of the tricks it won.",
    example = { text = "hearts trumps, trick 0:8d 1:7h 2:Ad 3:Kd: seat 1 wins it\n"
      .. "points: 0 + 0 + 11 + 4 = 15 for team B" } },

  { id = "P31", title = "The last trick",
    text = "Whoever wins the eighth trick adds 10 for his team, so the trick points of a round make 162.",
    example = { text = "card points 152 + last trick 10 = 162\nteam A 102 (with the last trick), team B 60" } },

  { id = "P32", title = "Sweeping all eight tricks",
    text = "A team that wins every trick scores 250 trick points instead of its card points and the last "
      .. "trick, and the other team 0; with or without a capot bid, whichever team does it.",
    example = { text = "team A takes all eight tricks: trick points A 250, B 0 (not 162 and 0)" } },

  -- Declarations ----------------------------------------------------
  { id = "P33", title = "What can be declared",
    text = "A run of three or more cards in one suit, in the order 7 8 9 10 J Q K A: three cards 20, four "
      .. "50, five or more 100. Four cards of a rank: Jacks 200, Nines 150, Aces, Tens, Kings or Queens "
      .. "100; four Eights or Sevens are worth nothing. The belote (P39) is separate.",
    example = { position = HEARTS .. "hands=7c 8c 9c 10c Qc Qd Qh Qs / ?8 / ?8 / ?8",
      steps = { { "announce 7c 8c 9c 10c", legal = true, say = "a run of four, 50" },
        { "announce Qc Qd Qh Qs", legal = true, say = "four Queens, 100" },
        { "announce 8c 9c 10c Qc", refused = "P33", say = "the Jack is missing" } } } },

  { id = "P34", title = "A card counts once",
    text = "A card serves in one declaration. A run is counted whole, never cut into shorter ones. When a "
      .. "four and a run share a card, the player picks: the four takes its card and the runs are what is "
      .. "left (PV-decl-overlap lets the card count twice).",
    example = { position = HEARTS .. "hands=Jc Jd Jh Js 9h 10h Qh Kh / ?8 / ?8 / ?8",
      steps = { { "announce Jc Jd Jh Js", say = "four Jacks, 200" },
        { "announce 9h 10h Jh Qh Kh", refused = "P35", say = "Jh is in the four already" } },
      note = "announcing the run instead would be worth 100" } },

  { id = "P35", title = "Announcing",
    text = "A player may announce his declarations at his own turn in the first trick, before his card, "
      .. "and at no other time; what is not announced does not count. The engine is told the cards and "
      .. "takes only what he holds; the others hear the kind and value, in the words said at a table: a "
      .. "run by its length (\"a run of four, 50\"), a four by its rank (\"four Nines\"), never the suit "
      .. "or the cards.",
    example = { position = HEARTS .. "hands=?7 / ?7 / ?7 / 7d 8d 9d 10d Jd Qd Kd; tricks=7c 8c 9c 10c",
      steps = { { "announce 7d 8d 9d", refused = "P35", say = "trick 2: too late" }, { "Kd", legal = true } } } },

  { id = "P36", title = "Whose declarations stand",
    text = "After the first trick, each team's best declaration is compared: the higher value wins; at "
      .. "100 a four beats a run; fours of 100 go Aces, Tens, Kings, Queens; equal runs by length, then top "
      .. "card, then trumps. Anything else is a tie. The result is announced before trick 2.",
    example = { text = "hearts trumps; seat 0 announces 8c 9c 10c (20), seat 1 Qs Ks As (20)\n"
      .. "both 20, both three long: the ace-high run wins, team B stands\n"
      .. "four Nines (150) against a run of five (100): the Nines win" } },

  { id = "P37", title = "The standing team scores all its declarations",
    text = "The team with the winning declaration counts every declaration its two players announced; "
      .. "the other team counts none. If only one team announced, it stands; a tie cancels both.",
    example = { text = "seat 0 run of four (50); seat 1 run of three (20); seat 3 run of three (20)\n"
      .. "team A stands: A counts 50, B counts 0 (not 40)" } },

  { id = "P38", title = "Showing",
    text = "Each announcer of the standing team shows his declared cards at his turn in the second trick, "
      .. "before playing. One who plays without showing loses his own declarations; his partner's shown "
      .. "ones still count and nothing goes to the other team.",
    example = { text = "seat 0 announced 20, seat 2 announced 50; team A stands\n"
      .. "seat 2 plays his second card without 'show': team A counts 20, not 70" } },

  { id = "P39", title = "Belote",
    text = "Holding the King and Queen of trumps is worth 20 if you say belote as you play the first of "
      .. "the two (the flag is on unless you turn it off). It is never compared or cancelled, and stays "
      .. "with your team whatever happens to the contract.",
    example = { position = HEARTS .. "hands=Kh Qh 7c 8c 9c 7s 8s 9s / ?8 / ?8 / ?8",
      steps = { { "Qh belote", legal = true, say = "20 for team A" },
        { "Qh nobelote", legal = true, say = "the 20 is given up" } } } },

  { id = "P40", title = "What a turn holds",
    text = "In the first trick a player may announce, then plays; in the second a standing announcer shows, "
      .. "then plays; in every trick he plays, with the belote flag on the first of his King and Queen of "
      .. "trumps.",
    example = { position = HEARTS .. "hands=7c 8c 9c Jd Qd Kd 7s 8s / ?8 / ?8 / ?8",
      steps = { { "announce 7c 8c 9c" }, { "announce Jd Qd Kd" }, { "7s" } },
      expect = { turn = "1" }, note = "two announcements, then the card" } },

  -- Scoring a round --------------------------------------------------
  { id = "P41", title = "The parts of a round's score",
    text = "For each team: T its trick points (162 between them, or 250 after a sweep), D its counted "
      .. "declarations (only one team has any), B its belote (20 or 0); V is the contract's value and m "
      .. "its multiplier (1, 2 or 4).",
    example = { text = "T_A 102, T_B 60; D_A 50, D_B 0; B_A 0, B_B 20; V 110, m 1" } },

  { id = "P42", title = "Made or failed",
    text = "A contract is made when the bidders' T + D + B reaches V and they won at least one trick. A capot "
      .. "bid is made only by winning all eight tricks. A sweep by the defenders always defeats the "
      .. "contract (PC9).",
    example = { text = "bid 110: T 102 + D 50 + B 0 = 152 >= 110: made\n"
      .. "bid 110 with no declaration: 102 < 110: failed" } },

  { id = "P43", title = "Scoring a made contract",
    text = "Without contra, the bidders score T + D + B + V and the defenders their own T + D + B; "
      .. "defenders who took no trick keep only their belote.",
    example = { text = "bid 110 made: A 102 + 50 + 0 + 110 = 262, B 60 + 0 + 20 = 80" } },

  { id = "P44", title = "Scoring a failed contract",
    text = "Without contra, the bidders keep only their belote; the defenders score both teams' trick "
      .. "points and declarations, the value V, and their own belote.",
    example = { text = "bid 120 failed: T_A 88, T_B 74, D_A 50, B_B 20 (bidders B)\n"
      .. "A 88 + 74 + 50 + 120 = 332, B 20" } },

  { id = "P45", title = "Scoring under contra",
    text = "After contra or recontra the side that wins the contract takes both teams' trick points and "
      .. "declarations plus m times V, and its own belote; the other side keeps only its belote.",
    example = { text = "bid 80, contra, made: A 162 + 2 x 80 = 322, B 0\n"
      .. "with recontra: A 162 + 4 x 80 = 482" } },

  { id = "P46", title = "Game points",
    text = "The sheet counts in tens: each raw total is divided by 10, a remainder of 6 to 9 going up and "
      .. "0 to 5 down. When both remainders are 6, only the bidders round up.",
    example = { text = "A bids 80, makes it 86 to 76: raw 166 and 76\n"
      .. "both end in 6: A 17 (up), B 7 (down)\n83 to 79: 163 and 79: 16 and 8" } },

  { id = "P47", title = "Checks on a round",
    text = "Trick points always total 162, or 250 after a sweep. The game points of a round add up to the "
      .. "trick points in tens plus the tens of declarations, belotes and m times V; a failed bidding team "
      .. "ends with its belote's 2 or 0.",
    example = { text = "262 + 80 = 342 raw: 162 in tricks, 50 declared, 20 belote, 110 contract\n"
      .. "game points 26 + 8 = 34 = 16 (tricks) + 5 + 2 + 11" } },

  { id = "P48", title = "The running total",
    text = "Each round's game points are added to the team's total; a thrown-in round adds nothing.",
    example = { text = "totals 340 and 300, the round scores 26 and 8: 366 and 308" } },

  { id = "P49", title = "Winning the match",
    text = "The match is to 351 unless the table chose another target (PV-target=N). After a round where "
      .. "a total reaches it, the higher total wins; equal totals play on.",
    example = { text = "366 against 308: team A wins\n355 against 355: another round\n"
      .. "350 against 200: nobody has reached 351, play on" } },

  -- Information -----------------------------------------------------
  { id = "P50", title = "What everyone knows",
    text = "Everyone sees the dealer, the calls, the kind and value of each announcement (a run's length, a "
      .. "four's rank), who stands, the "
      .. "shown cards, belote calls, the cards played, who won each trick and the scores. Hands and cards "
      .. "not shown stay private, for people and programs alike.",
    example = { text = "seat 0 announces 7c 8c 9c 10c: the others hear 'a run of four, 50', not its suit\n"
      .. "they see the cards only when seat 0 shows them in trick 2" } },

  { id = "P51", title = "Refusals",
    text = "An action the rules forbid is refused with the id of the rule and a short reason, and the game "
      .. "is left as it was.",
    example = { position = HEARTS .. "hands=7c 8c 9c 10c 7d 8d 9d 10d / ?8 / ?8 / ?8",
      steps = { { "Jc", refused = "P51", say = "not in your hand" }, { "7c", legal = true } } } },

  -- House rules -------------------------------------------------------
  { id = "PV-deal-left", variant = "deal-left", title = "Deal passes the other way",
    text = "After each round the deal moves to the dealer's other side (the seat before him) instead of "
      .. "to the eldest hand.",
    example = { text = "round 1: dealer 3; round 2: dealer 2 (not 0)" } },

  { id = "PV-suit-after-auction", variant = "suit-after-auction", title = "Trumps named after the auction",
    text = "Bids are values only; when the auction is over the contract holder names the trump suit.",
    example = { rules = "pilotta+suit-after-auction", position = "dealer=0; calls=90, pass, pass; " .. FRESH,
      steps = { { "pass", say = "the auction ends" }, { "trump h", say = "seat 1 picks hearts" } },
      expect = { phase = "play" } } },

  { id = "PV-pass-final", variant = "pass-final", title = "A pass is final",
    text = "A player who has passed may not bid again in the same auction; he may still say contra or "
      .. "recontra.",
    example = { rules = "pilotta+pass-final", position = "dealer=3; calls=pass, 80h, pass, 90s; " .. FRESH,
      steps = { { "100h", refused = "PV-pass-final", say = "seat 0 passed" }, { "pass", legal = true } } } },

  { id = "PV-high-bids", variant = "high-bids", title = "Bids above 160",
    text = "Bids go on past 160 in tens up to 240, still below capot (declarations can make such bids, PC6).",
    example = { rules = "pilotta+high-bids", position = "dealer=3; " .. FRESH,
      steps = { { "170h", legal = true }, { "240s", legal = true } } } },

  { id = "PV-contra-after-auction", variant = "contra-after-auction", title = "Contra only at the end",
    text = "Nobody says contra while bidding goes on. When the auction ends on a bid, each defender in turn "
      .. "may say contra; after one, the bidders may recontra; then play starts.",
    example = { rules = "pilotta+contra-after-auction", position = "dealer=0; calls=90d; " .. FRESH,
      steps = { { "contra", refused = "PV-contra-after-auction", say = "the auction is on" },
        { "pass" }, { "pass" }, { "pass" }, { "contra", say = "now a defender may" } },
      expect = { turn = "3" } } },

  { id = "PV-declarer-leads", variant = "declarer-leads", title = "The contract holder leads",
    text = "The player who holds the contract, not the eldest hand, leads the first trick.",
    example = { rules = "pilotta+declarer-leads", position = "dealer=3; calls=pass, 90s, pass, pass, pass; "
      .. FRESH, expect = { turn = "1" }, note = "seat 1 bid 90 spades and leads" } },

  { id = "PV-partner-exempt", variant = "partner-exempt", title = "A winning partner frees you",
    text = "If you cannot follow a plain suit while your partner is winning the trick, you may play any "
      .. "card. Trump leads are not affected.",
    example = { rules = "pilotta+partner-exempt",
      position = HEARTS .. "hands=?7 / ?7 / 8h Ah Kd 7c 8c 9c 8d 9d / ?8; tricks=As 7s",
      steps = { { "Kd", legal = true, say = "partner's ace wins" }, { "8h", legal = true } } } },

  { id = "PV-must-head", variant = "must-head", title = "Beat the plain suit if you can",
    text = "Following a plain suit while no trump is in the trick, you must play higher than the winning "
      .. "card if you can.",
    example = { rules = "pilotta+must-head", position = HEARTS .. "hands=?7 / Ad 7d 9c 7c 8c 7s 8s 9s / ?8 / "
      .. "?8; tricks=Kd",
      steps = { { "7d", refused = "PV-must-head" }, { "Ad", legal = true } } } },

  { id = "PV-decl-overlap", variant = "decl-overlap", title = "A card in two declarations",
    text = "A card may serve in a four and in a run at once.",
    example = { rules = "pilotta+decl-overlap", position = HEARTS .. "hands=Jc Jd Jh Js 9h 10h Qh Kh / ?8 / "
      .. "?8 / ?8",
      steps = { { "announce Jc Jd Jh Js", say = "200" }, { "announce 9h 10h Jh Qh Kh", say = "and 100" } },
      note = "300 in all; without the house rule, P34 refuses the second" } },

  { id = "PV-decl-100-tie", variant = "decl-100-tie", title = "Fours and runs of 100 tie",
    text = "A four worth 100 and a run worth 100 are equal when the best declarations are compared, so "
      .. "neither team scores them.",
    example = { text = "seat 1: 7c 8c 9c 10c Jc (100); seat 2: Qc Qd Qh Qs (100)\n"
      .. "base rules: team A stands; with the house rule: nobody scores" } },

  { id = "PV-no-contract-bonus", variant = "no-contract-bonus", title = "No contract value",
    text = "The contract's value is never added: a made contract leaves each team its own T + D + B; a "
      .. "failed one gives the defenders everything but the bidders' belote. Contra scoring stays.",
    example = { text = "bid 120 failed: T_A 88, T_B 74, D_A 50, B_B 20\nA 88 + 74 + 50 = 212, B 20" } },

  { id = "PV-fail-keeps-declarations", variant = "fail-keeps-declarations",
    title = "Failed bidders keep their declarations",
    text = "On a failed contract without contra, the bidders keep their own declarations with their "
      .. "belote; the defenders score all trick points, V and their own declarations and belote.",
    example = { text = "B bids 120: T_B 74 + D_B 20 + B_B 20 = 114, failed; T_A 88\n"
      .. "A 88 + 74 + 120 = 282, B 20 + 20 = 40" } },

  { id = "PV-belote-transfers", variant = "belote-transfers", title = "The belote changes hands",
    text = "On a failed contract, or under contra, the side that loses the contract loses its belote to "
      .. "the winners as well.",
    example = { text = "bid 120 failed, the bidders' belote 20 goes over:\n"
      .. "A 332 + 20 = 352, B 0 (35 and 0)" } },

  { id = "PV-double-all", variant = "double-all", title = "Contra doubles everything",
    text = "Under contra the winning side's whole score, worked out as without contra, is multiplied by m; "
      .. "the other side keeps only its belote.",
    example = { text = "bid 80, contra, made 97 to 65: A (97 + 80) x 2 = 354, B 0" } },

  { id = "PV-swept-keeps-declarations", variant = "swept-keeps-declarations",
    title = "Swept defenders keep their declarations",
    text = "Defenders who take no trick against a made contract still score their standing declarations.",
    example = { text = "A bids 90, sweeps; B's four Nines (150) stood\nA 250 + 90 = 340, B 150 (34 and 15)" } },

  { id = "PV-round-7", variant = "round-7", title = "Round up from 7",
    text = "A remainder of 7 to 9 rounds up and 0 to 6 down, for both teams always.",
    example = { text = "raw 166 and 76: 16 and 7 (a game point is lost)" } },

  { id = "PV-round-5", variant = "round-5", title = "Round up from 5",
    text = "A remainder of 5 to 9 rounds up; if both teams would round up, only the one with more trick "
      .. "points does.",
    example = { text = "raw 165 (85 trick points) and 77: 17 and 7" } },

  { id = "PV-raw-points", variant = "raw-points", title = "Raw points on the sheet",
    text = "Totals are not divided by 10: the sheet keeps raw points and the target is ten times the "
      .. "chosen one.",
    example = { text = "a round of 262 and 80 adds 262 and 80; the match is to 3510" } },

  { id = "PV-target", variant = "target=N", aliases = { "PV-target=N" }, title = "Another target",
    text = "The match is played to N game points instead of 351; 151, 251, 301 and 401 are common.",
    example = { text = "rules=pilotta+target=151: the first round past 151 can end the match" } },

  -- Clarifications ----------------------------------------------------
  { id = "PC1", title = "Higher trump means trump order",
    text = "When a rule asks for a higher trump it means the trump order of P5: the 9 is above the ace and "
      .. "the 10, the Queen below the King.",
    example = { position = "dealer=2; calls=80s, pass, pass, pass; hands=9s 10s 7c 8c 9c 7d 8d 9d / ?8 / ?8 / "
      .. "?7; tricks=As",
      steps = { { "9s", legal = true, say = "the 9 beats the ace" },
        { "10s", refused = "P24", say = "the 10 does not" } } } },

  { id = "PC2", title = "The first bidder is the eldest hand",
    text = "Texts that give the first lead to the first bidder mean the first to speak in the auction, the "
      .. "eldest hand, not the first to bid a value.",
    example = { position = "dealer=1; calls=pass, pass, 90c, pass, pass, pass; " .. FRESH,
      expect = { turn = "2" }, note = "seat 2 spoke first and leads, though seat 0 bid" } },

  { id = "PC3", title = "Follow before overtrumping",
    text = "The duty to play a higher trump once the trick is trumped binds only a player who has to trump "
      .. "anyway; one who can follow the plain suit led follows.",
    example = { position = HEARTS .. "hands=?7 / ?7 / Ad 9h Jh Kc 7c 8c 7s 8s / ?8; tricks=8d 7h",
      steps = { { "Ad", legal = true }, { "Jh", refused = "P23", say = "no overtrumping while you can follow" } } } },

  { id = "PC4", title = "A four waits for the comparison",
    text = "A four of a kind is compared and may be cancelled under P36-P37 like any declaration; only the "
      .. "belote escapes the comparison.",
    example = { text = "seat 0 four Kings (100), seat 1 four Jacks (200): team B stands, A's 100 is lost\n"
      .. "a belote of seat 0 would still count 20" } },

  { id = "PC5", title = "The belote is in trumps",
    text = "The King and Queen of the belote are those of the trump suit, not of the suit led to a trick.",
    example = { text = "hearts trumps, spades led: Ks Qs are no belote; Kh Qh are" } },

  { id = "PC6", title = "Declarations help make the contract",
    text = "Declarations and the belote count towards the contract (P42), so a bid above the 162 trick "
      .. "points can be made (with PV-high-bids).",
    example = { text = "bid 110, trick points 102: failed alone, made with a run of four (102 + 50 = 152)" } },

  { id = "PC7", title = "Bids in tens",
    text = "A bid may be typed in tens: 8 for 80, 12 for 120. At the table, in the auction, a number alone "
      .. "is read so and lists that bid's suits to choose from; 8h, 9h and 10h are cards' names there, so "
      .. "those three bids are typed in full.",
    example = { position = "dealer=3; " .. FRESH,
      steps = { { "11h", legal = true, say = "110 hearts" }, { "12s", legal = true, say = "120 spades" } } } },

  { id = "PC8", title = "Targets are in game points",
    text = "The target of P49 counts game points (tens). A round is worth about 16 plus a tenth of the "
      .. "contract, so 351 makes a long evening and 151 a short one.",
    example = { text = "a 110 contract: about 16 + 11 = 27 game points a round\n351 / 27: some 13 rounds" } },

  { id = "PC9", title = "A defenders' sweep defeats the contract",
    text = "If the defenders take all eight tricks the contract fails and they count 250 trick points, even "
      .. "when the bidders' declarations and belote alone reach the bid.",
    example = { text = "A bids 80 with four Jacks (200) standing; B wins every trick\n"
      .. "failed: A 0, B 250 + 200 + 80 = 530 (0 and 53)" } },

  { id = "PC10", title = "Four Kings or Queens and the belote",
    text = "A four of Kings or Queens and the belote in the same hand both count: the belote is not a "
      .. "declaration and P34 does not touch it.",
    example = { text = "hearts trumps, a hand with Kc Kd Kh Ks and Qh: four Kings 100 and belote 20" } },
}

--- The part an id belongs to ("P", "PV", "PC"), or nil.
function M.family(id)
  id = tostring(id):upper()
  return id:match("^(P[VC])%-") or id:match("^(PC)%d") or id:match("^(P)%d")
end

--- The family an id is nearest to when it has no entry: a worked
-- example PE… is nearest the rules P….
function M.near(id)
  return M.family(id) or (tostring(id):upper():match("^PE%d") and "P")
end

--- Does a word look like one of these ids (P24, PV-deal-left, PC3, PE18)?
function M.is_id(word)
  return word:match("^[Pp]%d+$") ~= nil or word:match("^[Pp][Vv]%-") ~= nil
    or word:match("^[Pp][CcEe]%d+$") ~= nil
end

--- A numbered id's letters and number ("PC3" -> "PC", "3"), or nil.
function M.numbered(id)
  local letters, num = id:match("^(PC)(%d+)$")
  if letters then return letters, num end
  return id:match("^(P)(%d+)$")
end

--- The first letters of these ids, for a lesson's explanation that
-- starts with one (lua/teach/learn.lua).
M.LEAD = "P"

-- (the families of ids, for the table's help on rules)
M.ids_help = "P1-P51 (Pilotta), PC1-PC10 and PV-partner-exempt and the like"

return M
