/* Why an action is refused (P51). Legality is decided by the generator
 * (pl_legal); this file finds the first rule the action breaks and says
 * it in plain words. Every refusal message of the Pilotta core is here:
 * `grep P24 src/pilotta` finds the rule's code and its words. */
#include "pilotta/refuse.h"

#include <stdarg.h>
#include <stdio.h>

#include "pilotta/decl.h"

typedef struct {
    const pl_State *s;
    pl_Action a;
    char *buf;
    size_t cap;
    int seat;
} Why;

static const char *say(Why *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->buf, w->cap, fmt, ap);
    va_end(ap);
    return w->buf;
}

static const char *card_name(int card, char *buf)
{
    pl_card_str(card, buf, false);
    return buf;
}

static const char *bid_name(int value, int suit, char *buf)
{
    if (value == PL_CAPOT) snprintf(buf, 12, "capot%s%c", suit < 0 ? "" : " ", suit < 0 ? '\0' : pl_suit_char(suit));
    else snprintf(buf, 12, "%d%c", value * 10, suit < 0 ? '\0' : pl_suit_char(suit));
    return buf;
}

static bool is_call(int kind) { return kind <= PL_TRUMP; }

static const char *bid_check(Why *w)
{
    const pl_State *s = w->s;
    const pl_Action *a = &w->a;
    if (s->mult > 1) return say(w, "P16: nobody may bid after a contra");
    if (s->rules.pass_final && (s->passed >> w->seat & 1))
        return say(w, "PV-pass-final: seat %d has passed and may not bid again in this auction", w->seat);
    if (a->value != PL_CAPOT && (a->value < 8 || a->value > 24))
        return say(w, "P14: bids are 80, 90, ... up to 160 in tens, or capot");
    if (a->value != PL_CAPOT && a->value > pl_max_bid(&s->rules))
        return say(w, "P14: no numeric bid above 160 (PV-high-bids allows up to 240)");
    if (s->rules.suit_after_auction && a->suit >= 0)
        return say(w, "PV-suit-after-auction: bids are numbers only; the contract holder names trumps "
                      "when the auction ends");
    if (!s->rules.suit_after_auction && (a->suit < 0 || a->suit > 3))
        return say(w, "P12: a bid names a suit as well as a value (90h, capot s)");
    if (a->value <= s->bid) {
        char b[12];
        return say(w, "P14: a bid must be higher than the highest so far (%s)", bid_name(s->bid, s->bid_suit, b));
    }
    return NULL;
}

static const char *contra_check(Why *w)
{
    const pl_State *s = w->s;
    const bool window = s->phase == PL_PHASE_CONTRA;
    if (s->rules.contra_after_auction && !window)
        return say(w, "PV-contra-after-auction: contra is said only once the auction has ended");
    if (!s->bid) return say(w, "P16: contra needs a bid to stand");
    if (s->mult > 1) return say(w, "P16: contra has been said already");
    if (pl_team(w->seat) == pl_bidding_team(s))
        return say(w, "P16: your team holds the highest bid; only the other team may say contra");
    return NULL;
}

static const char *recontra_check(Why *w)
{
    const pl_State *s = w->s;
    if (s->mult == 1) return say(w, "P17: recontra answers a contra, and none has been said");
    if (s->mult == 4) return say(w, "P17: recontra has been said already");
    if (pl_team(w->seat) != pl_bidding_team(s)) return say(w, "P17: only the bidding team may say recontra");
    return NULL;
}

static const char *auction_check(Why *w)
{
    const pl_State *s = w->s;
    if (!is_call(w->a.kind))
        return say(w, "P13: the auction is on; seat %d is to call (pass, a bid, contra or recontra)", w->seat);
    if (s->phase == PL_PHASE_TRUMP) {
        if (w->a.kind != PL_TRUMP)
            return say(w, "PV-suit-after-auction: seat %d holds the contract and must first name trumps", w->seat);
        if (w->a.suit < 0 || w->a.suit > 3) return say(w, "PV-suit-after-auction: name a suit: c, d, h or s");
        return NULL;
    }
    if (w->a.kind == PL_TRUMP)
        return s->rules.suit_after_auction
                   ? say(w, "PV-suit-after-auction: trumps are named when the auction has ended")
                   : say(w, "P12: trumps are named with each bid (90h), not on their own");
    if (s->phase == PL_PHASE_CONTRA) {
        if (w->a.kind == PL_BID)
            return say(w, "PV-contra-after-auction: the auction has ended; only contra, recontra or pass");
        if (w->a.kind == PL_RECONTRA && s->mult == 1) return recontra_check(w);
        if (w->a.kind == PL_CONTRA && s->mult > 1) return contra_check(w);
    }
    switch (w->a.kind) {
    case PL_BID: return bid_check(w);
    case PL_CONTRA: return contra_check(w);
    case PL_RECONTRA: return recontra_check(w);
    default: return NULL;
    }
}

static const char *announce_check(Why *w)
{
    const pl_State *s = w->s;
    const pl_Set cards = w->a.cards, hand = s->hand[w->seat];
    char c[8];
    if (pl_trick_index(s) != 0)
        return say(w, "P35: declarations are announced only in the first trick, at your turn before your card");
    if (cards & ~hand) return say(w, "P35: you do not hold %s", card_name(pl_first(cards & ~hand), c));
    pl_Decl d;
    if (pl_count(cards) == 4 && cards == pl_rank_mask(pl_rank(pl_first(cards))) && !pl_decl_classify(cards, &d))
        return say(w, "P33: four Sevens or four Eights score nothing");
    if (!pl_decl_classify(cards, &d))
        return say(w, "P33: that is neither a run of three or more in one suit nor a four of a kind");
    for (int i = 0; i < s->ndecl; i++) {
        const pl_Decl *x = &s->decl[i];
        if (x->seat != w->seat) continue;
        if (x->cards == cards) return say(w, "P35: you have announced that already");
        if ((x->cards & cards) && (!s->rules.decl_overlap || x->kind == d.kind))
            return say(w, "P35: %s is already in one of your announcements (a card serves in one "
                          "declaration, P34)", card_name(pl_first(x->cards & cards), c));
    }
    return say(w, "P35: announce a whole run: those cards are part of a longer run%s",
               s->rules.decl_overlap ? "" : " (after the fours you announced, P34)");
}

static const char *show_check(Why *w)
{
    const pl_State *s = w->s;
    if (pl_trick_index(s) != 1) return say(w, "P38: declarations are shown in the second trick, before your card");
    if (s->standing != pl_team(w->seat))
        return say(w, "P38: only the team whose declarations stand shows them");
    return say(w, "P38: you have nothing announced left to show");
}

/* The cards the seat may play, "9s or As", "7h, 8h or 9h": a refusal
 * names only these, so that the card it points to is never refused in
 * turn (the first trump held may be one that must not undertrump).
 * buf needs 64 bytes. */
static const char *legal_list(const pl_State *s, char *buf)
{
    const pl_Set legal = pl_legal_cards(s);
    int left = pl_count(legal);
    size_t at = 0;
    buf[0] = '\0';
    for (pl_Set c = legal; c; c &= c - 1, left--) {
        char one[8];
        const char *sep = at == 0 ? "" : left == 1 ? " or " : ", ";
        at += (size_t)snprintf(buf + at, 64 - at, "%s%s", sep, card_name(pl_first(c), one));
    }
    return buf;
}

static const char *card_check(Why *w)
{
    const pl_State *s = w->s;
    const int card = w->a.card, trump = s->bid_suit, n = pl_trick_count(s);
    char b[8], ok[64];
    if (card >= PL_NCARDS) return say(w, "P51: no such card");
    if (!(s->hand[w->seat] & PL_BIT(card))) {
        char c[8];
        return say(w, "P51: you do not hold %s", card_name(card, c));
    }
    if (n == 0) return say(w, "P22: the leader may play any card he holds");
    const pl_Set hand = s->hand[w->seat];
    const int led = pl_suit(s->played[s->nplayed - n]), best = pl_best_card(s);
    const pl_Set follow = hand & pl_suit_mask(led), trumps = hand & pl_suit_mask(trump);
    const bool partner_wins = pl_trick_winner(s, pl_trick_index(s)) == ((w->seat + 2) & 3);
    card_name(best, b);
    legal_list(s, ok);
    if (follow && pl_suit(card) != led)
        return say(w, "P23: you hold cards of the suit led, so you must follow suit: %s", ok);
    if (follow && led == trump)
        return say(w, "P24: a trump was led and you hold a higher trump than %s: you must play one (%s)", b, ok);
    if (follow) return say(w, "PV-must-head: you must beat %s if you can: %s", b, ok);
    const bool over = pl_suit(best) == trump && pl_beating(trumps, best, trump);
    if (pl_suit(card) != trump)
        return say(w, "%s: you cannot follow suit and you hold a trump: you must play one%s%s%s (%s)%s",
                   partner_wins ? "P27" : "P25", over ? ", over the " : "", over ? b : "", over ? " if you can" : "",
                   ok, partner_wins ? ", even while your partner wins the trick" : "");
    return say(w, "%s: you must overtrump the %s if you can (%s; undertrump only when you cannot)%s",
               partner_wins ? "P27" : "P25", b, ok, partner_wins ? ", even over your partner" : "");
}

static const char *play_check(Why *w)
{
    switch (w->a.kind) {
    case PL_ANNOUNCE: return announce_check(w);
    case PL_SHOW: return show_check(w);
    case PL_PLAY: return card_check(w);
    default: return say(w, "P18: the auction is over; the play has begun");
    }
}

const char *pl_refusal(const pl_State *s, const pl_Action *a, char *buf, size_t cap)
{
    if (pl_is_legal(s, a)) return NULL;
    Why w = {s, pl_normalize(s, a), buf, cap, s->turn};
    if (a->kind > PL_PLAY) return say(&w, "P51: unknown kind of action");
    if (s->phase == PL_PHASE_MATCH_OVER) return say(&w, "P49: the match is over");
    if (s->phase == PL_PHASE_ROUND_OVER)
        return say(&w, "%s: the round is over; nothing more until the next deal",
                   s->last.thrown_in ? "P19" : "P18");
    const char *why = s->phase == PL_PHASE_PLAY ? play_check(&w) : auction_check(&w);
    return why ? why : say(&w, "P51: that action is not allowed here");
}

const char *pl_apply(pl_State *s, const pl_Action *a, char *err, size_t cap)
{
    const char *why = pl_refusal(s, a, err, cap);
    if (why) return why;
    pl_Action n = pl_normalize(s, a);
    pl_apply_legal(s, &n);
    return NULL;
}
