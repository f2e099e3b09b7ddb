#include "score.h"

#include <string.h>

#include "deal.h"

/* The side with the strictly highest count, or -1 on a tie for it. */
static int unique_max(const int *v, int n)
{
    int best = -1, top = -1;
    for (int i = 0; i < n; i++) {
        if (v[i] > top) {
            top = v[i];
            best = i;
        } else if (v[i] == top) {
            best = -1;
        }
    }
    return best;
}

void dl_score_round(const dl_State *s, dl_RoundScore *out)
{
    const dl_Points *p = &s->rules.points;
    const int n = dl_nsides(&s->rules);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++) {
        dl_Set pile = s->pile[i];
        out->cards[i] = dl_count(pile);
        out->clubs[i] = dl_count(pile & DL_CLUB_SUIT);
        out->aces[i] = dl_count(pile & dl_rank_mask(0));
        out->xeris[i] = s->xeri[i];
        out->pts_aces[i] = out->aces[i] * p->ace;
        out->pts_ten_diamonds[i] = (pile & DL_BIT(DL_CARD_10D)) ? p->ten_diamonds : 0;
        out->pts_two_clubs[i] = (pile & DL_BIT(DL_CARD_2C)) ? p->two_clubs : 0;
        out->pts_xeri[i] = out->xeris[i] * p->xeri;
    }
    /* D23/K4: "most cards" and "most clubs" go to nobody on a tie. */
    int w = unique_max(out->cards, n);
    if (w >= 0) out->pts_cards[w] = p->cards;
    w = unique_max(out->clubs, n);
    if (w >= 0) out->pts_clubs[w] = p->clubs;
    for (int i = 0; i < n; i++)
        out->total[i] = out->pts_cards[i] + out->pts_clubs[i] + out->pts_aces[i] +
                        out->pts_ten_diamonds[i] + out->pts_two_clubs[i] +
                        out->pts_xeri[i];
    out->winner = unique_max(out->total, n);
}

/* D24/K5: is the match decided after this round? */
static void decide_match(dl_State *s)
{
    const int n = dl_nsides(&s->rules);
    int v[DL_MAX_PLAYERS];
    bool reached = false;
    for (int i = 0; i < n; i++) {
        if (s->rules.match == DL_MATCH_POINTS) {
            v[i] = s->score[i];
            reached |= s->score[i] >= s->rules.target;
        } else {
            v[i] = s->rounds_won[i];
        }
    }
    if (s->rules.match == DL_MATCH_ROUNDS) reached = s->round >= s->rules.target;
    int w = reached ? unique_max(v, n) : -1; /* a tie plays another round */
    s->winner = (int8_t)w;
    s->phase = w >= 0 ? DL_PHASE_MATCH_OVER : DL_PHASE_ROUND_OVER;
}

static void add_round(dl_State *s, int sign)
{
    const int n = dl_nsides(&s->rules);
    for (int i = 0; i < n; i++) s->score[i] += sign * s->last.total[i];
    if (s->last.winner >= 0) s->rounds_won[s->last.winner] += sign;
}

void dl_finish_round(dl_State *s)
{
    /* D22/K3: leftovers to the last capturer's side; with no capture in the
     * whole round they stay where they are and count for nobody. */
    if (s->last_capturer >= 0) {
        dl_Set rest = dl_table_cards(s);
        s->pile[dl_side(&s->rules, s->last_capturer)] |= rest;
        s->loose = 0;
        s->ndecl = 0;
    }
    dl_score_round(s, &s->last);
    add_round(s, +1);
    decide_match(s);
}

void dl_adjust_round(dl_State *s, const dl_RoundScore *r)
{
    add_round(s, -1);
    s->last = *r;
    add_round(s, +1);
    decide_match(s);
}

void dl_next_round(dl_State *s)
{
    if (s->phase != DL_PHASE_ROUND_OVER) return;
    if (s->round < INT32_MAX) s->round++;
    s->dealer = (uint8_t)((s->dealer + 1) % s->rules.players);
    dl_deal_round(s);
}
