-- Diloti's part of the rules reference (lua/table/rulebook.lua reads it,
-- the package's `rulebook` part): an entry for every rule id the engine,
-- the lessons and the house rules cite (D… Diloti, K… Kontsina, C… the
-- clarifications, V-… the house rules), each a short statement in our
-- own words and an example in the notation of docs/notation.md.
--
-- The table's `rules D19` and `diloti rules D19` print an entry, and
-- docs/rules-reference.md is written from the entries by
-- tools/rules_ref_doc.lua (`make docs`). tests/lua/rulebook_spec.lua checks
-- that every id the code can cite has an entry, that every example does
-- what it says (each refused move is refused with that id, each other
-- move is legal), and that the page is up to date.
--
-- An example: `rules` (the rules spec, default "diloti"), `position`
-- (none: a new game with seed 1), `steps` and `expect`, or only `text`.
-- A step is a move with `refused = ID` (checked, not played), with
-- `legal = true` (checked, not played) or neither (played); `say` is a
-- short comment. `expect` holds fields of the position after the steps.
-- `invalid = ID`: the position itself is refused, citing ID.
local M = {}

M.parts = {
  { key = "D", title = "Diloti", intro = "The base game: two players, or four in two partnerships." },
  { key = "V", title = "House rules", intro = "Each is a variant you add to the rules with '+', for "
    .. "example `new rules=diloti+soy` at the table or `diloti --rules diloti+soy`." },
  { key = "C", title = "Clarifications", intro = "Readings of the house rules and of D16-D19 that the "
    .. "engine settles one way; each names the rule it clarifies." },
  { key = "K", title = "Kontsina", intro = "The simpler cousin: `new rules=kontsina`. Cards, values and the "
    .. "notation are Diloti's (D1, D3)." },
}

M.entries = {
  -- Diloti ---------------------------------------------------------
  { id = "D1", title = "The cards",
    text = "One pack of 52 cards in four suits (clubs, diamonds, hearts, spades). The ace counts 1 and "
      .. "the cards 2 to 10 count their pips: these are the numeral cards. J, Q and K are face cards "
      .. "and count nothing.",
    example = { position = "hands=Ah 9d / 9c 2s; table=Ac 4c 5s Qd",
      steps = { { "Ah x Ac", legal = true, say = "an ace is worth 1" },
        { "9d x 4c 5s", legal = true, say = "4 and 5 are worth 9" } } } },

  { id = "D2", title = "Table items: loose cards and declarations",
    text = "What lies on the table is either a loose card or a declaration. A declaration is a pile "
      .. "with a value from 1 to 10, a kind (plain or group), an owner and its cards; it is taken or "
      .. "joined whole, never card by card. Face cards never go into a declaration.",
    example = { position = "hands=2d 5h Jc / 9c 5c; table=4s Js P5@1(2c+3c)",
      steps = { { "5h x P5@1", legal = true, say = "the declaration, whole" },
        { "2d + Js = G2", refused = "D2", say = "a face card cannot be declared" } } } },

  { id = "D3", title = "Combinations",
    text = "A combination of value v is one loose numeral card worth v, or several loose numeral cards "
      .. "that add up to v. Captures and declarations are made of combinations.",
    example = { position = "hands=9h / 9c; table=2c 3d 4s 10s",
      steps = { { "9h x 2c 3d 4s", legal = true, say = "2 + 3 + 4 is a combination of 9" },
        { "9h x 2c 3d", refused = "D11", say = "2 + 3 is 5, not 9" } } } },

  { id = "D4", title = "Who deals, who starts",
    text = "The first dealer is given or drawn from the seed. With two players the one who did not "
      .. "deal plays first in every deal, and the next round is dealt by the other player.",
    example = { position = "dealer=1; hands=8h / 9c; table=2s 4d",
      expect = { turn = "0" }, note = "seat 1 deals, so seat 0 moves first" } },

  { id = "D5", title = "The deal",
    text = "The non-dealer gets 6 cards, then the dealer 6, then 4 go face up on the table. When those "
      .. "4 hold three or four face cards of one rank, they go back into the pack, it is shuffled, and "
      .. "4 others are dealt, as often as needed (V-redeal-any-triple extends this to any rank).",
    example = { expect = { deal = "1", pack = "?36" },
      note = "a new game: 6 + 6 in the hands and 4 on the table leave 36 in the pack" } },

  { id = "D6", title = "The later deals",
    text = "When both hands are empty and cards are left in the pack, each player gets 6 more, the "
      .. "non-dealer first; nothing more is dealt to the table. Two players have 4 deals a round.",
    example = { position = "hands=8h / 9c; table=2s 4d; pack=?12",
      steps = { { "8h lay" }, { "9c lay" } },
      expect = { deal = "2", pack = "-" }, note = "the hands are empty: 6 more cards each from the pack" } },

  { id = "D7", title = "Four players",
    text = "Seats 0, 1, 2, 3 play in that order; partners sit opposite, so seats 0 and 2 play against "
      .. "seats 1 and 3. The player after the dealer is dealt to and plays first, the dealer last. Each "
      .. "gets 6 cards, the table 4, and later 6 more each: 2 deals a round. The next round is dealt "
      .. "by the player who played first.",
    example = { rules = "diloti+players=4", position = "dealer=3; hands=5h 9c / 5d 9d / 4h 4c / 2h 6h; "
        .. "table=8c Kd",
      expect = { turn = "0" }, note = "seat 3 deals, seat 0 plays first, then 1, 2 and 3" } },

  { id = "D8", title = "Partners share one pile",
    text = "In a partnership both partners' captures go to one pile, and the side scores as one.",
    example = { rules = "diloti+players=4", position = "dealer=3; hands=8c 2c / 9d 3d / 4h 4c / 2h 6h; "
        .. "table=8d Kd 4s 10h",
      steps = { { "8c x 8d", say = "seat 0" }, { "9d lay", say = "seat 1" }, { "4h x 4s", say = "seat 2" } },
      expect = { piles = "4h 4s 8c 8d / -" } } },

  { id = "D9", title = "A turn",
    text = "On your turn you play one card from your hand and do exactly one thing with it: lay it "
      .. "(D10), capture (D11, D12), declare (D15), raise (D16) or make a group (D17). What you may do "
      .. "also depends on any declaration you own (D19).",
    example = { position = "hands=8h 2d / 9c; table=8c 6d",
      steps = { { "9c lay", refused = "D9", say = "you do not hold the 9c" },
        { "2d lay", legal = true } } } },

  { id = "D10", title = "Laying a card",
    text = "Laying puts the card face up on the table as a loose card and takes nothing. You may not "
      .. "lay a face card while a loose face card of the same rank lies there: take it instead (D12).",
    example = { position = "hands=Jc 5d / 9c 2s; table=4s Jd",
      steps = { { "Jc lay", refused = "D10", say = "a J lies on the table" },
        { "Jc x Jd", legal = true }, { "5d lay", legal = true } } } },

  { id = "D11", title = "Capturing with a numeral card",
    text = "A numeral card of value v takes one or more separate parts of the table, each part a "
      .. "combination worth v (D3) or a declaration of value v. You choose which parts; taking several "
      .. "at once is one move. Only the set of cards taken matters, not how you split them.",
    example = { position = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c",
      steps = { { "8h x 8c 3h 5s 2c 6d", legal = true, say = "8, 3 + 5 and 2 + 6 at once" },
        { "8h x 3h 5s", legal = true, say = "one part is enough" },
        { "8h x 6d 5s", refused = "D11", say = "6 + 5 is 11" } } } },

  { id = "D12", title = "Capturing with a face card",
    text = "A face card takes exactly one loose face card of its own rank, never more. With two of them "
      .. "on the table you choose which.",
    example = { position = "hands=Qh 5c / 9c 2s; table=Qs Qd 5d 3s",
      steps = { { "Qh x Qs", legal = true }, { "Qh x Qs Qd", refused = "D12", say = "one queen only" } } } },

  { id = "D13", title = "The capture pile",
    text = "What you capture goes face down to your pile (your side's pile with partners), together with "
      .. "the card you captured with.",
    example = { position = "hands=8h 2d / 9c 3c; table=8c 6d 5s 3h",
      steps = { { "8h x 3h 5s" } }, expect = { piles = "3h 5s 8h / -" } } },

  { id = "D14", title = "Keep a card of the declared value",
    text = "You may declare a value (a plain declaration, a raise or a group) only if, after playing "
      .. "your card, you still hold a card of that value to capture it with later.",
    example = { position = "hands=3h 7d / 9c; table=5s",
      steps = { { "3h + 5s = 8", refused = "D14", say = "no 8 left in the hand" } } } },

  { id = "D15", title = "Plain declaration",
    text = "Play a numeral card onto one or more loose numeral cards: together they make a plain "
      .. "declaration of their total, at most 10, and it is yours. The cards then stay together "
      .. "until someone captures, raises or groups them.",
    example = { position = "hands=3h 8d / 9c 2d; table=5s",
      steps = { { "3h + 5s = 9", refused = "D15", say = "3 + 5 is 8" },
        { "3h + 5s = 8", say = "a plain 8, owned by seat 0" } },
      expect = { table = "P8@0(3h+5s)" } } },

  { id = "D16", title = "Raising",
    text = "Play a numeral card onto an opponent's plain declaration to raise its value by your card, "
      .. "up to 10; you become its owner. Only the card from your hand is added, and you may never "
      .. "raise your own or your partner's declaration. The player you took it from may raise it "
      .. "back later if D19 lets them.",
    example = { position = "hands=5h 9c / 4s 7d; table=P4@1(Ac+3s)",
      steps = { { "5h + P4@1 = 9", say = "the 4 becomes a 9, now seat 0's" } },
      expect = { table = "P9@0(Ac+3s+5h)" } } },

  { id = "D17", title = "Group declaration",
    text = "A group of value v is a declaration made of two or more components, each worth v. The card "
      .. "you play goes into one new component: alone (if it is worth v), with loose cards adding up to "
      .. "v, or raising a plain declaration you may raise (D16) to v. The other components are "
      .. "combinations worth v, plain declarations of v (anyone's) or groups of v, which merge into "
      .. "the new one. Adding to a group is the same move with the group among the components. You own "
      .. "the whole group.",
    example = { position = "hands=6h 6c / 9c 3c; table=6s 4d 2h",
      steps = { { "6h + 6s 4d = G6", refused = "D17", say = "the 4 alone is not worth 6" },
        { "6h + 6s 4d 2h = G6", say = "three sixes: 6h, 6s and 4 + 2" } },
      expect = { table = "G6@0(6h,2h+4d,6s)" } } },

  { id = "D18", title = "Groups cannot be raised",
    text = "Nobody raises a group. Like a plain declaration of v, it is captured only by a card worth "
      .. "v, which may take other parts worth v with it.",
    example = { position = "hands=10c 9d Ad / 9c 4h; table=Ah 4s 5s G9@1(9s,4c+5c)",
      steps = { { "10c x Ah G9@1", refused = "D18", say = "the group is worth 9, not 10" },
        { "Ad + G9@1 = 10", refused = "D18" },
        { "9d x 4s 5s G9@1", legal = true, say = "the group and another 9" } } } },

  { id = "D19", title = "The declarer's obligation",
    text = "While you own a declaration (you made it, raised it or added to it, and nobody has since "
      .. "captured, raised or added to it), you may only capture (your own declaration included) or "
      .. "make a group that includes yours. You may not lay a card, make another plain declaration or "
      .. "raise. Unless your move captures your declaration, you must still hold a card of its value "
      .. "afterwards. So nobody owns two declarations, and the owner can always capture theirs.",
    example = { position = "hands=2c 8d / 9c 4h 7s; table=5s 9h Jd P8@0(3c+5c)",
      steps = { { "2c lay", refused = "D19", say = "you own the plain 8" },
        { "8d x P8@0", legal = true, say = "your only legal move" } } } },

  { id = "D20", title = "There is always a move",
    text = "Whoever is to move has at least one legal move. If a house rule ever left a player none, "
      .. "the engine reports an error rather than skip the turn or stop.",
    example = { position = "hands=Jc / 9c 2s; table=Jd 4s",
      steps = { { "Jc lay", refused = "D10" }, { "Jc x Jd", legal = true, say = "the one move left" } } } },

  { id = "D21", title = "Xeri",
    text = "A capture that empties the table, every loose card and every declaration, is a xeri and "
      .. "scores 10. Not a xeri: the first card of the round (V-xeri-first-card changes that) and the "
      .. "cards left at the end of the round (D22). The last card of a deal, even the round's last, "
      .. "does count (V-no-xeri-last-card changes that).",
    example = { position = "hands=8h 2d / 9c 3c; table=8c 6d 5s 3h 2c",
      steps = { { "8h x 2c 3h 5s 6d 8c", say = "the table is empty" } },
      expect = { xeri = "1 0" } } },

  { id = "D22", title = "The end of the round",
    text = "When the pack and every hand are empty, the cards still on the table go to the side that "
      .. "captured last. If nobody captured all round, they count for nobody.",
    example = { position = "hands=Jc / 5h; table=Jd 9s 2c; deal=4; ply=46; pack=-",
      steps = { { "Jc x Jd" }, { "5h lay" } },
      expect = { phase = "round-over", last = "0", table = "-" },
      note = "seat 0 captured last: 9s, 2c and 5h go to seat 0's pile" } },

  { id = "D23", title = "Scoring a round",
    text = "Each side scores, per round: 4 for having taken more cards (nothing to either on 26 each), "
      .. "1 for each ace, 2 for the 10 of diamonds, 1 for the 2 of clubs and 10 for each xeri. Without "
      .. "xeri or a tie on cards the round is worth 11 points in all.",
    example = { text = "one side took 29 cards, Ac, Ad, 10d and made 1 xeri:  4 + 2 + 2 + 10 = 18\n"
      .. "the other took 23 cards, Ah, As and 2c:                 0 + 2 + 1 = 3" } },

  { id = "D24", title = "The match",
    text = "Points add up from round to round. After a round in which a side reaches the target (61 "
      .. "unless V-target sets another), the match ends and the higher total wins; on equal totals "
      .. "another round is played.",
    example = { text = "after a round: 64 to 40    the match is over, 64 wins\n"
      .. "after a round: 62 to 65    both passed 61: 65 wins\n"
      .. "after a round: 63 to 63    one more round" } },

  -- House rules -----------------------------------------------------
  { id = "V-redeal-any-triple", variant = "redeal-any-triple", title = "Redeal any triple",
    text = "The four table cards of a deal are put back and dealt again when three or four of them "
      .. "share a rank, whatever the rank, not only face cards (D5).",
    example = { text = "table=7c 7d 7s 2h    dealt again under this rule; kept in plain Diloti" } },

  { id = "V-three-face-cards", variant = "three-face-cards", title = "Three face cards stay",
    text = "A table with three face cards of one rank is not dealt again. The player who plays the "
      .. "fourth card of that rank takes all three with it, the one exception to D12 (C2).",
    example = { rules = "diloti+three-face-cards", position = "hands=Qh 5d / 9c 2s; table=Qc Qd Qs 4h",
      steps = { { "Qh x Qc", refused = "V-three-face-cards", say = "all three or none" },
        { "Qh x Qc Qd Qs", legal = true } } } },

  { id = "V-face-card-claim", variant = "face-card-claim", title = "Claiming a redeal",
    text = "A player dealt five or six face cards in the first deal of a round may claim a redeal "
      .. "before the deal's first card is played: the round is dealt again by the same dealer. It is a "
      .. "choice, made with the moves `claim` and `keep`. The variant face-card-claim-any-deal allows "
      .. "the claim on every deal; the round is then cancelled, captures and all.",
    example = { rules = "diloti+face-card-claim",
      position = "ply=0; claim=0; hands=Jc Jd Qc Qs Kh 2c / 9c 7d 3c 4h 5h 6h; table=8c 6d 5s 3h",
      steps = { { "2c lay", refused = "V-face-card-claim", say = "first claim or keep" },
        { "claim", legal = true }, { "keep", legal = true } } } },

  { id = "V-dealer-peeks", variant = "dealer-peeks", title = "The dealer peeks",
    text = "Before dealing, the dealer looks at the bottom card of the pack, which is the card they "
      .. "will get in the last deal, and knows it from then on. Nobody else sees it.",
    example = { text = "pack=... 7c 10h      the dealer knows the 10h will come to them in the last deal" } },

  { id = "V-forced-capture", variant = "forced-capture", title = "Forced capture",
    text = "A card that can capture must capture: it may not be laid, declared or used to raise. And "
      .. "the capture may not leave on the table a part the same card could also have taken (C1).",
    example = { rules = "diloti+forced-capture", position = "hands=9c 2d / 3h 4c; table=Ac 3s 4d 5h 9s",
      steps = { { "9c lay", refused = "V-forced-capture", say = "the 9 can capture" },
        { "9c x Ac 3s 5h", refused = "V-forced-capture", say = "the 9s is left behind" },
        { "9c x Ac 3s 5h 9s", legal = true }, { "9c x 4d 5h 9s", legal = true } } } },

  { id = "V-liberal-group", variant = "liberal-group", title = "Declarations inside groups",
    text = "When making or adding to a group, a plain declaration may count as one card of its value "
      .. "inside a component, together with other cards (C3).",
    example = { rules = "diloti+liberal-group", position = "hands=6h 6c / 4d 9c; table=2c P4@1(Ac+3s)",
      steps = { { "6h + 2c P4@1 = G6", legal = true, say = "components 6h and P4 + 2c" } } } },

  { id = "V-liberal-raise", variant = "liberal-raise", title = "Raising with loose cards",
    text = "A raise may take loose numeral cards along with the card played; the plain declaration then "
      .. "counts as one card of its value (C4).",
    example = { rules = "diloti+liberal-raise", position = "hands=2c 9d / 6s 7d; table=Ah P6@1(2s+4s)",
      steps = { { "2c + Ah P6@1 = 9", say = "6 + 2 + 1" } }, expect = { table = "P9@0(Ah+2c+2s+4s)" } } },

  { id = "V-liberal-capture", variant = "liberal-capture", title = "Declarations inside captures",
    text = "In a capture, a plain declaration may count as one card of its value inside a combination "
      .. "(C5).",
    example = { rules = "diloti+liberal-capture", position = "hands=9h 2d / 5c 8d; table=4c P5@1(2s+3s)",
      steps = { { "9h x 4c P5@1", legal = true, say = "4 + the plain 5 make 9" } } } },

  { id = "V-soy", variant = "soy", title = "Soy, the pair that stays a pair",
    text = "A group of exactly two single equal cards, such as a 5 played on a loose 5, is a soy: "
      .. "nothing can be added to it, it cannot be merged, and only a card of its value takes it.",
    example = { rules = "diloti+soy", position = "hands=6h 3c / 6d 9c; table=3s G6@1(6s,6c)",
      steps = { { "3c + 3s G6@1 = G6", refused = "V-soy", say = "nothing joins a soy" },
        { "6h x G6@1", legal = true } } } },

  { id = "V-no-xeri-last-card", variant = "no-xeri-last-card", title = "No xeri on the last card",
    text = "The very last card of the round never scores a xeri, even if it empties the table (D21).",
    example = { rules = "diloti+no-xeri-last-card", position = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; "
        .. "pack=-",
      steps = { { "Jc x Jd" }, { "10h x 10s", say = "the table is empty, but no xeri" } },
      expect = { xeri = "0 0" } } },

  { id = "V-xeri-first-card", variant = "xeri-first-card", title = "Xeri on the first card",
    text = "A capture with the round's first card that empties the table counts as a xeri too (D21).",
    example = { rules = "diloti+xeri-first-card", position = "ply=0; hands=8h 2d / 9c 3c; table=8c 6d 2c",
      steps = { { "8h x 2c 6d 8c" } }, expect = { xeri = "1 0" } } },

  { id = "V-target", aliases = { "V-target=N" }, variant = "target=121", title = "Another target",
    text = "The match is played to N points instead of 61 (D24); 121 makes the usual long game.",
    example = { text = "new rules=diloti+target=121    the match ends after a round that reaches 121" } },

  { id = "V-seed001", variant = "seed001", title = "The rules of the second text",
    text = "A preset: play goes to the dealer's left instead of the right (only the seating and the "
      .. "display change), and any triple on the table is dealt again (V-redeal-any-triple). That "
      .. "partners' plain declarations cannot be raised is already D16.",
    example = { text = "new rules=diloti+seed001" } },

  -- Clarifications --------------------------------------------------
  { id = "C1", title = "What forced capture asks",
    text = "Under V-forced-capture, a capture is refused only when a part worth v that the same card "
      .. "could also have taken stays untouched; it need not be the biggest capture. Face cards and "
      .. "Kontsina captures take one part anyway, so there it only means: capture. A card that has any "
      .. "capture may not be laid, declared or used to raise.",
    example = { rules = "diloti+forced-capture", position = "hands=7h 2s / 9c 10c; table=Ac 6d 3s 4c 2h",
      steps = { { "7h x Ac 2h 4c", legal = true, say = "6 and 3 make no 7" },
        { "7h x Ac 6d", refused = "V-forced-capture", say = "3 + 4 is still there" } } } },

  { id = "C2", title = "The fourth face card",
    text = "Under V-three-face-cards, when three loose face cards of one rank lie on the table, the "
      .. "last card of that rank takes the three together or nothing: a capture of just one is "
      .. "refused.",
    example = { rules = "diloti+three-face-cards", position = "hands=Kd 2c / 9c 3s; table=Kc Kh Ks 6d",
      steps = { { "Kd x Ks", refused = "V-three-face-cards" }, { "Kd x Kc Kh Ks", legal = true } } } },

  { id = "C3", title = "Whose declaration a group may use",
    text = "Under V-liberal-group, any plain declaration, yours, your partner's or an opponent's, may "
      .. "stand as one card inside a component. Using your own this way counts as including it in the "
      .. "group (D19).",
    example = { rules = "diloti+liberal-group", position = "hands=6h 6c 4d / 9c 2s; table=2c P4@0(Ac+3s)",
      steps = { { "6h + 2c P4@0 = G6", legal = true, say = "your own plain 4 inside a component" } } } },

  { id = "C4", title = "What a liberal raise takes",
    text = "Under V-liberal-raise, a raise takes exactly one opponent's plain declaration, the card "
      .. "played and any loose numeral cards. The same widening applies to the raising component of "
      .. "a group (D17).",
    example = { rules = "diloti+liberal-raise", position = "hands=2c 9d 9h / 6s 7d; table=Ah 9s P6@1(2s+4s)",
      steps = { { "2c + Ah 9s P6@1 = G9", legal = true, say = "components 2c + Ah + P6, and 9s" } } } },

  { id = "C5", title = "What a liberal capture counts",
    text = "Under V-liberal-capture, a plain declaration, whoever owns it, may be counted as a single "
      .. "card of its value when adding up a capture. Groups are not: they are taken only by a card "
      .. "of their own value (D18).",
    example = { rules = "diloti+liberal-capture", position = "hands=9h 5h / 5d 9c; table=4c G5@1(5s,5c)",
      steps = { { "9h x 4c G5@1", refused = "D18", say = "a group is not a card" } } } },

  { id = "C6", title = "When a declaration joins a group",
    text = "When your declaration becomes part of a group, the obligation of D19 moves to the group: "
      .. "its owner must hold a card of the group's value (D14). If someone else made the group, you "
      .. "are free again.",
    example = { position = "turn=1; hands=9h 8d / Ah 8s 8c; table=7s P8@0(3c+5c)",
      steps = { { "Ah + 7s P8@0 = G8", say = "seat 1 takes seat 0's 8 into a group" },
        { "9h lay", legal = true, say = "seat 0 owns nothing now" } } } },

  { id = "C7", title = "Raising inside your own group",
    text = "The raising component of D17 needs only what D16 needs, an opponent's plain declaration. "
      .. "So the owner of a declaration may raise an opponent's plain declaration inside a group that "
      .. "includes their own, though never as a plain raise (D19).",
    example = { position = "hands=2h 7d Kc / 5h Qs 10s; table=P7@0(3c+4s) P5@1(Ac+4d)",
      steps = { { "2h + P5@1 = 7", refused = "D19", say = "a plain raise" },
        { "2h + P5@1 P7@0 = G7", legal = true, say = "a raise inside your group" } } } },

  { id = "C8", title = "The played card in a group",
    text = "Your card stands alone as a component only when its value is the group's; a smaller card "
      .. "has to be combined with something on the table. Either way, the group needs at least one "
      .. "more component taken from the table.",
    example = { position = "hands=3h 8d 8c / 9c 2s; table=8s 5c",
      steps = { { "3h + 8s = G8", refused = "D17", say = "3h alone is not an 8" },
        { "3h + 5c 8s = G8", legal = true, say = "3 + 5, and 8" }, { "8d + 8s = G8", legal = true } } } },

  { id = "C9", title = "Your partner's declaration",
    text = "Your partner's plain declaration is yours to capture or to build into a group, but not "
      .. "to raise (D16).",
    example = { rules = "diloti+players=4", position = "dealer=3; hands=5h 4d 9c / 5d 9d / 4h 4c / 2h 6h; "
        .. "table=8c Kd P4@2(Ac+3s)",
      steps = { { "5h + P4@2 = 9", refused = "D16", say = "seat 2 is your partner" },
        { "4d x P4@2", legal = true } } } },

  -- Kontsina --------------------------------------------------------
  { id = "K1", title = "Kontsina: the deal",
    text = "Two players (three or four: K7, K8), the same pack and values as Diloti. Each deal gives 4 "
      .. "cards to each player; the first deal also puts 4 face up on the table, and there is no "
      .. "redeal of the table. Two players have 6 deals a round.",
    example = { rules = "kontsina", expect = { pack = "?40" },
      note = "a new game: 4 + 4 in the hands and 4 on the table leave 40 in the pack" } },

  { id = "K2", title = "Kontsina: a turn",
    text = "Play one card and either lay it or capture exactly one combination: a card of the same rank "
      .. "(face cards too) or numeral cards adding up to the played card. Only one, even when several "
      .. "would fit. There are no declarations and no xeri, and a face card may be laid even when one "
      .. "of its rank is on the table.",
    example = { rules = "kontsina", position = "hands=8h 2d Kc Qs / 9c 7d 3c 4h; table=8c 6d 5s 3h Kd",
      steps = { { "8h x 3h 5s", legal = true }, { "8h x 3h 5s 8c", refused = "K2", say = "one combination" },
        { "2d + 6d = 8", refused = "K2", say = "no declarations" }, { "Kc lay", legal = true } } } },

  { id = "K3", title = "Kontsina: the end of the round",
    text = "The cards left on the table at the end of the round go to the player who captured last.",
    example = { rules = "kontsina", position = "hands=Jc / 5h; table=Jd 9s 2c; deal=6; ply=46; pack=-",
      steps = { { "Jc x Jd" }, { "5h lay" } },
      expect = { phase = "round-over", last = "0", table = "-" },
      note = "seat 0 captured last: 9s, 2c and 5h are theirs" } },

  { id = "K4", title = "Kontsina: scoring",
    text = "Each round scores 2 for the most cards (nobody on a tie), 1 for the most clubs, 1 for the "
      .. "2 of clubs and 1 for the 10 of diamonds: 5 points, 3 when the cards are split evenly. The "
      .. "player with more points wins the round.",
    example = { text = "one took 30 cards, 8 clubs and the 10d:  2 + 1 + 1 = 4\n"
      .. "the other took 22 cards and the 2c:      1    (the first wins the round)" } },

  { id = "K5", title = "Kontsina: the match",
    text = "A match is a set number of rounds, and whoever won the most rounds wins it (the variant "
      .. "rounds=N, 3 by default). With the variant points=N points add up to a target instead (21 by "
      .. "default), and a tie plays on.",
    example = { text = "new rules=kontsina+rounds=5\nnew rules=kontsina+points=21" } },

  { id = "K6", title = "Kontsina: who starts",
    text = "The player who did not deal plays first, and the deal passes in turn from round to round.",
    example = { rules = "kontsina", position = "dealer=1; hands=8h / 9c; table=2s 4d",
      expect = { turn = "0" } } },

  { id = "K7", title = "Kontsina for three",
    text = "Three players play anticlockwise, each for themselves, with 4 deals a round: 4 each and 4 "
      .. "to the table first, then 4 each three more times.",
    example = { rules = "kontsina+players=3", expect = { pack = "?36" },
      note = "a new game: 3 x 4 in the hands and 4 on the table leave 36" } },

  { id = "K8", title = "Kontsina for four",
    text = "Four players have 3 deals a round, 4 cards each every time, and the table's 4 with the "
      .. "first. They play each for themselves, or as two partnerships of opposite seats pooling "
      .. "their captures (the variant teams).",
    example = { rules = "kontsina+players=4+teams", expect = { pack = "?32" },
      note = "a new game: 4 x 4 in the hands and 4 on the table leave 32" } },
}

--- The part an id belongs to ("D", "K", "C", "V"), or nil.
function M.family(id)
  id = tostring(id):upper()
  return id:match("^([DKC])%d") or id:match("^(V)%-")
end

--- The family an id is nearest to when it has no entry (as family).
M.near = M.family

--- Does a word look like one of these ids (D19, k2, C3, V-soy)?
function M.is_id(word)
  return word:match("^[DdKkCc]%d+$") ~= nil or word:match("^[Vv]%-") ~= nil
end

--- A numbered id's letters and number ("D19" -> "D", "19"), or nil.
function M.numbered(id)
  return id:match("^([DKC])(%d+)$")
end

--- The first letters of these ids, for a lesson's explanation that
-- starts with one (lua/teach/learn.lua).
M.LEAD = "DKCV"

-- (the families of ids, for the table's help on rules)
M.ids_help = "D1-D24 (Diloti), K1-K8 (Kontsina), C1-C9 and the house rules' V-soy, V-forced-capture and so on"

return M
