/* The invariants of a Pilotta state (pl_check_state): above the rules of
 * the tricks and the declarations it checks against, so that the state
 * itself (state.c) depends on nothing of the game's rules. */
#include "pilotta/check.h"

#include "pilotta/decl.h"
#include "pilotta/play.h"

static const char *check_cards(const pl_State *s)
{
    pl_Set seen = 0;
    for (int i = 0; i < 4; i++) {
        if (seen & s->hand[i]) return "a card is in two hands";
        seen |= s->hand[i];
    }
    if (s->nplayed > PL_NCARDS) return "more than 32 cards played";
    for (int i = 0; i < s->nplayed; i++) {
        if (s->played[i] >= PL_NCARDS || (seen & PL_BIT(s->played[i])))
            return "a played card is also held or played twice";
        seen |= PL_BIT(s->played[i]);
    }
    if (seen != PL_DECK) return "the 32 cards are not all accounted for";
    for (int i = 0; i < 4; i++)
        if (pl_count(pl_dealt(s, i)) != 8) return "a seat was not dealt 8 cards (P11)";
    return NULL;
}

static const char *check_auction(const pl_State *s)
{
    if (s->bid && (s->bid < 8 || (s->bid > pl_max_bid(&s->rules) && s->bid != PL_CAPOT)))
        return "the bid is out of range (P14)";
    if ((s->bid == 0) != (s->bidder < 0)) return "a bid without a bidder";
    if (s->mult != 1 && s->mult != 2 && s->mult != 4) return "the multiplier is not 1, 2 or 4";
    if ((s->mult > 1) != (s->contra_by >= 0)) return "a contra without its caller";
    if (s->contra_by >= 0 && pl_team(s->contra_by) == pl_team(s->bidder))
        return "the bidders said contra (P16)";
    if (s->phase >= PL_PHASE_PLAY && s->bid && s->bid_suit < 0) return "a contract without trumps";
    if (s->phase >= PL_PHASE_PLAY && !s->bid && s->nplayed) return "cards played without a contract";
    if (s->ncalls > PL_MAX_CALLS) return "too many calls";
    return NULL;
}

static const char *check_tricks(const pl_State *s)
{
    int won[2] = {0, 0}, points[2] = {0, 0};
    const int done = s->nplayed / 4;
    for (int k = 0; k < done; k++) {
        int w = pl_trick_winner(s, k);
        if (k < 7 && s->leader[k + 1] != w)
            return "a trick was not led by the previous trick's winner (P21)";
        pl_Set cards = 0;
        for (int i = 4 * k; i < 4 * k + 4; i++) cards |= PL_BIT(s->played[i]);
        won[pl_team(w)]++;
        points[pl_team(w)] += pl_set_points(cards, s->bid_suit) + (k == 7 ? 10 : 0);
    }
    for (int t = 0; t < 2; t++)
        if (won[t] != s->trick_won[t] || points[t] != s->trick_points[t])
            return "the tricks or trick points won do not match the cards (P30)";
    if (done == 8 && points[0] + points[1] != 162) return "trick points do not total 162 (P31, P47)";
    if (s->phase == PL_PHASE_PLAY && s->turn != ((s->leader[done] + pl_trick_count(s)) & 3))
        return "the turn is not the next seat in the trick (P2)";
    return NULL;
}

static const char *check_decls(const pl_State *s)
{
    if (s->ndecl > PL_MAX_DECLS) return "too many declarations";
    for (int i = 0; i < s->ndecl; i++) {
        pl_Decl d;
        const pl_Decl *x = &s->decl[i];
        if (x->seat > 3 || !pl_decl_classify(x->cards, &d) || d.kind != x->kind || d.value != x->value)
            return "an announcement is not a declaration (P33)";
        if ((x->cards & pl_dealt(s, x->seat)) != x->cards) return "an announcement of cards not held (P35)";
    }
    if (s->nplayed >= 4 && s->standing != pl_standing(s)) return "the standing team is wrong (P36)";
    return NULL;
}

/* P47, on a scored round. */
static const char *check_round(const pl_State *s)
{
    const pl_RoundScore *o = &s->last;
    if (o->thrown_in) return NULL;
    int T = o->trick_points[0] + o->trick_points[1];
    if (T != 162 && T != 250) return "trick points total neither 162 nor 250 (P47)";
    if ((o->tricks[0] == 8 || o->tricks[1] == 8) != (T == 250)) return "a sweep without 250 (P32)";
    if (o->decl[0] && o->decl[1]) return "both teams count declarations (P37)";
    return NULL;
}

const char *pl_check_state(const pl_State *s)
{
    if (s->phase > PL_PHASE_MATCH_OVER || s->dealer > 3 || s->turn > 3) return "phase, dealer or turn out of range";
    const char *bad = check_cards(s);
    if (!bad) bad = check_auction(s);
    if (!bad) bad = check_tricks(s);
    if (!bad) bad = check_decls(s);
    if (!bad && s->phase >= PL_PHASE_ROUND_OVER && s->nplayed == PL_NCARDS) bad = check_round(s);
    if (!bad && s->phase == PL_PHASE_MATCH_OVER && s->winner < 0) return "a match over without a winner";
    return bad;
}
