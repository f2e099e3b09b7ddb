#include "pilotta/score.h"

#include "pilotta/decl.h"

/* P30-P32: trick points, 250 for a sweep. */
static void trick_points(const pl_State *s, pl_RoundScore *o)
{
    for (int t = 0; t < 2; t++) {
        o->tricks[t] = s->trick_won[t];
        o->trick_points[t] = s->trick_points[t];
    }
    for (int t = 0; t < 2; t++)
        if (o->tricks[t] == 8) o->trick_points[t] = 250, o->trick_points[1 - t] = 0;
}

/* P42 */
static int made(const pl_RoundScore *o, int bt, int capot)
{
    const int df = 1 - bt;
    if (o->tricks[df] == 8) return 0; /* PC9 */
    if (capot) return o->tricks[bt] == 8;
    return o->trick_points[bt] + o->decl[bt] + o->belote[bt] >= o->value && o->tricks[bt] >= 1;
}

/* P43, P44 and their house rules, m = 1. */
static void score_single(const pl_Rules *r, pl_RoundScore *o, int bt)
{
    const int df = 1 - bt, *T = o->trick_points, *D = o->decl, *B = o->belote;
    const int bonus = r->no_contract_bonus ? 0 : o->value; /* PV-no-contract-bonus */
    if (o->made) {
        o->raw[bt] = T[bt] + D[bt] + B[bt] + bonus;
        o->raw[df] = T[df] + D[df] + B[df];
        if (o->tricks[df] == 0 && !r->swept_keeps_declarations) o->raw[df] = B[df];
        return;
    }
    /* PV-fail-keeps-declarations: each team keeps its own D. */
    const int keep = r->fail_keeps_declarations;
    o->raw[bt] = B[bt] + (keep ? D[bt] : 0);
    o->raw[df] = T[0] + T[1] + (keep ? D[df] : D[0] + D[1]) + bonus + B[df];
    if (r->belote_transfers) o->raw[df] += B[bt], o->raw[bt] -= B[bt];
}

/* P45 (PV-double-all, PV-belote-transfers), m = 2 or 4. */
static void score_double(const pl_Rules *r, pl_RoundScore *o, int bt)
{
    const int w = o->made ? bt : 1 - bt, l = 1 - w, *T = o->trick_points, *D = o->decl, *B = o->belote;
    if (r->double_all)
        o->raw[w] = o->mult * (o->made ? T[bt] + D[bt] + B[bt] + o->value
                                       : T[0] + T[1] + D[0] + D[1] + o->value + B[w]);
    else
        o->raw[w] = T[0] + T[1] + D[0] + D[1] + o->mult * o->value + B[w];
    o->raw[l] = B[l];
    if (r->belote_transfers) o->raw[w] += B[l], o->raw[l] = 0;
}

void pl_game_points(const pl_Rules *r, const int raw[2], const int tp[2], int bidders, int game[2])
{
    if (r->rounding == PL_ROUND_RAW) {
        game[0] = raw[0], game[1] = raw[1];
        return;
    }
    const int from = r->rounding == PL_ROUND_7 ? 7 : r->rounding == PL_ROUND_5 ? 5 : 6;
    int up[2];
    for (int t = 0; t < 2; t++) up[t] = raw[t] % 10 >= from;
    if (up[0] && up[1] && r->rounding != PL_ROUND_7) {
        /* P46: the bidders; PV-round-5: more trick points (then bidders). */
        int keep = bidders;
        if (r->rounding == PL_ROUND_5 && tp[0] != tp[1]) keep = tp[0] > tp[1] ? 0 : 1;
        up[1 - keep] = 0;
    }
    for (int t = 0; t < 2; t++) game[t] = raw[t] / 10 + up[t];
}

void pl_score_breakdown(const pl_Rules *r, pl_RoundScore *o, int capot)
{
    const int bt = o->bidders;
    o->made = made(o, bt, capot);
    if (o->mult == 1) score_single(r, o, bt);
    else score_double(r, o, bt);
    pl_game_points(r, o->raw, o->trick_points, bt, o->game);
}

void pl_score_round(const pl_State *s, pl_RoundScore *o)
{
    *o = (pl_RoundScore){0};
    o->bidders = pl_team(s->bidder);
    o->value = pl_contract_value(s);
    o->mult = s->mult;
    trick_points(s, o);
    pl_counted_declarations(s, o->decl);
    if (s->belote >= 0) o->belote[pl_team(s->belote)] = 20; /* P39 */
    pl_score_breakdown(&s->rules, o, s->bid == PL_CAPOT);
}

int pl_target_points(const pl_Rules *r)
{
    return r->rounding == PL_ROUND_RAW ? 10 * r->target : r->target;
}

void pl_add_to_match(pl_State *s)
{
    for (int t = 0; t < 2; t++) s->score[t] += s->last.game[t];
    const int target = pl_target_points(&s->rules);
    s->phase = PL_PHASE_ROUND_OVER;
    if ((s->score[0] >= target || s->score[1] >= target) && s->score[0] != s->score[1]) {
        s->winner = (int8_t)(s->score[0] > s->score[1] ? 0 : 1);
        s->phase = PL_PHASE_MATCH_OVER;
    }
}

void pl_finish_round(pl_State *s)
{
    pl_score_round(s, &s->last);
    pl_add_to_match(s);
}
