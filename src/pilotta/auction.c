#include "pilotta/auction.h"

#include "pilotta/play.h"

uint8_t pl_call_code(const pl_Action *a)
{
    switch (a->kind) {
    case PL_PASS: return 0;
    case PL_CONTRA: return 1;
    case PL_RECONTRA: return 2;
    case PL_TRUMP: return (uint8_t)(3 + a->suit);
    default: return (uint8_t)(8 + (a->value - 8) * 5 + (a->suit + 1));
    }
}

pl_Action pl_call_decode(uint8_t code)
{
    pl_Action a = {0, PL_PASS, 0, -1, 0, 0};
    if (code == 1) a.kind = PL_CONTRA;
    else if (code == 2) a.kind = PL_RECONTRA;
    else if (code >= 3 && code <= 6) a.kind = PL_TRUMP, a.suit = (int8_t)(code - 3);
    else if (code >= 8) {
        a.kind = PL_BID;
        a.value = (uint8_t)(8 + (code - 8) / 5);
        a.suit = (int8_t)((code - 8) % 5 - 1);
    }
    return a;
}

static void push(pl_ActionList *out, uint8_t kind, int value, int suit)
{
    pl_Action *a = &out->a[out->n++];
    *a = (pl_Action){0, kind, (uint8_t)value, (int8_t)suit, 0, 0};
}

static void bids(const pl_State *s, pl_ActionList *out)
{
    const int lo = s->bid < 8 ? 8 : s->bid + 1, hi = pl_max_bid(&s->rules);
    const bool suits = !s->rules.suit_after_auction;
    for (int v = lo; v <= PL_CAPOT; v++) {
        if (v > hi && v < PL_CAPOT) continue;
        if (!suits) push(out, PL_BID, v, -1);
        else
            for (int suit = 0; suit < 4; suit++) push(out, PL_BID, v, suit);
    }
}

void pl_auction_legal(const pl_State *s, pl_ActionList *out)
{
    const int team = pl_team(s->turn), bidders = pl_bidding_team(s);
    if (s->phase == PL_PHASE_TRUMP) {
        for (int suit = 0; suit < 4; suit++) push(out, PL_TRUMP, 0, suit);
        return;
    }
    push(out, PL_PASS, 0, -1);
    if (s->phase == PL_PHASE_CONTRA) {
        push(out, s->mult == 1 ? PL_CONTRA : PL_RECONTRA, 0, -1);
        return;
    }
    if (pl_may_bid(s)) bids(s, out);
    if (s->bid && s->mult == 1 && team != bidders && !s->rules.contra_after_auction)
        push(out, PL_CONTRA, 0, -1);
    if (s->mult == 2 && team == bidders) push(out, PL_RECONTRA, 0, -1);
}

static void open_window(pl_State *s)
{
    s->phase = PL_PHASE_CONTRA;
    s->passes = 0;
    s->turn = (uint8_t)((s->bidder + 1) & 3);
}

/* P18 (b), (c): the contract is fixed, unless trumps or a contra window
 * are still to come. */
static void end_auction(pl_State *s)
{
    if (s->bid_suit < 0) {
        s->phase = PL_PHASE_TRUMP;
        s->turn = (uint8_t)s->bidder;
    } else if (s->rules.contra_after_auction && s->phase != PL_PHASE_CONTRA && s->mult == 1) {
        open_window(s);
    } else {
        pl_start_play(s);
    }
}

/* P18 (a), P19: no contract, no score. */
static void throw_in(pl_State *s)
{
    s->phase = PL_PHASE_ROUND_OVER;
    s->last = (pl_RoundScore){0};
    s->last.bidders = -1;
    s->last.thrown_in = 1;
}

static void window_call(pl_State *s, const pl_Action *a)
{
    if (a->kind == PL_RECONTRA) {
        s->mult = 4;
        pl_start_play(s);
        return;
    }
    if (a->kind == PL_CONTRA) {
        s->mult = 2;
        s->contra_by = (int8_t)s->turn;
        s->passes = 0;
    } else if (++s->passes == 2) {
        pl_start_play(s);
        return;
    }
    /* Defenders after the holder; after a contra, the bidders after it. */
    int from = s->mult == 1 ? s->bidder : s->contra_by;
    s->turn = (uint8_t)((from + 1 + 2 * s->passes) & 3);
}

void pl_auction_apply(pl_State *s, const pl_Action *a)
{
    s->calls[s->ncalls++] = pl_call_code(a);
    if (s->phase == PL_PHASE_TRUMP) {
        s->bid_suit = a->suit;
        end_auction(s);
        return;
    }
    if (s->phase == PL_PHASE_CONTRA) {
        window_call(s, a);
        return;
    }
    switch (a->kind) {
    case PL_BID:
        s->bid = a->value;
        s->bid_suit = a->suit;
        s->bidder = (int8_t)s->turn;
        s->passes = 0;
        break;
    case PL_CONTRA:
        s->mult = 2;
        s->contra_by = (int8_t)s->turn;
        s->passes = 0;
        break;
    case PL_RECONTRA:
        s->mult = 4;
        end_auction(s);
        return;
    default:
        s->passed |= (uint8_t)(1u << s->turn);
        s->passes++;
        if (!s->bid && s->passes == 4) {
            throw_in(s);
            return;
        }
        if (s->bid && s->passes == 3) {
            end_auction(s);
            return;
        }
    }
    s->turn = (uint8_t)((s->turn + 1) & 3);
}
