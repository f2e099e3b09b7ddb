#include "infer.h"

#include <math.h>

int dl_seen_moves(const dl_Game *g, int seat, dl_Seen out[DL_NCARDS])
{
    size_t first = g->nrec;
    while (first > 0 && !g->rec[first - 1].next_round && g->rec[first - 1].before.round == g->s.round &&
           g->rec[first - 1].before.deal == g->s.deal)
        first--;
    int n = 0;
    for (size_t i = first; i < g->nrec && n < DL_NCARDS; i++) {
        const dl_Record *r = &g->rec[i];
        if (r->before.phase != DL_PHASE_PLAY || r->before.turn == seat || r->move.kind > DL_GROUP)
            continue;
        dl_view(&r->before, seat, &out[n].before);
        out[n].who = r->before.turn;
        out[n++].move = r->move;
    }
    return n;
}

dl_Set dl_move_taken(const dl_State *s, const dl_Move *m)
{
    if (m->kind != DL_CAPTURE) return 0;
    dl_Set taken = (m->take & DL_DECK) | DL_BIT(m->card);
    unsigned dm = (unsigned)(m->take >> DL_DECL_SHIFT) & 0xF;
    for (int i = 0; i < s->ndecl; i++)
        if (dm & (1u << i)) taken |= s->decl[i].cards;
    return taken;
}

bool dl_move_sweeps(const dl_State *s, const dl_Move *m)
{
    if (m->kind != DL_CAPTURE) return false;
    unsigned dm = (unsigned)(m->take >> DL_DECL_SHIFT) & 0xF;
    return !(s->loose & ~m->take) && (int)dl_count(dm) == s->ndecl;
}

int dl_card_points(dl_Set c)
{
    /* The aces are the four lowest bits: counted by a table, as a builtin
     * popcount is a library call on a plain x86-64 build, and the playout
     * policy asks this of every move it weighs. */
    static const unsigned char ones[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return ones[c & dl_rank_mask(0)] + ((c & DL_BIT(DL_CARD_10D)) ? 2 : 0) +
           ((c & DL_BIT(DL_CARD_2C)) ? 1 : 0);
}

double dl_move_gain(const dl_State *s, const dl_Move *m)
{
    if (m->kind != DL_CAPTURE) return 0;
    dl_Set t = dl_move_taken(s, m);
    /* 4 points for 27 or more cards is worth about 0.15 a card. */
    double g = dl_card_points(t) + 0.15 * dl_count(t);
    if (s->ply > 0 && dl_move_sweeps(s, m)) g += 10;
    return g;
}

/* The cards `who` held before seen[k]: what it holds now and every card
 * it has played since, this move included. */
static dl_Set hand_then(const dl_Seen *seen, int nseen, int k, dl_Set now)
{
    for (int j = k; j < nseen; j++)
        if (seen[j].who == seen[k].who) now |= DL_BIT(seen[j].move.card);
    return now;
}

double dl_infer_logweight(const dl_Seen *seen, int nseen, const dl_Set *hands, double temp,
                          dl_MoveList *scratch)
{
    double lw = 0;
    for (int k = 0; k < nseen; k++) {
        const dl_Seen *e = &seen[k];
        dl_State s;
        dl_view_state(&e->before, &s);
        s.hand[e->before.seat] = 0;
        s.hand[e->who] = hand_then(seen, nseen, k, hands[e->who]);
        s.turn = (uint8_t)e->who;
        s.phase = DL_PHASE_PLAY;
        s.claim_pending = 0;
        if (dl_legal_moves_share(&s, scratch, DL_SEARCH_SHARE) <= 0) return -INFINITY;
        double best = 0, got = -1;
        for (size_t i = 0; i < scratch->n; i++) {
            double g = dl_move_gain(&s, &scratch->m[i]);
            if (g > best) best = g;
            if (dl_move_eq(&scratch->m[i], &e->move)) got = g;
        }
        if (got < 0) return -INFINITY;
        lw -= (best - got) / temp;
    }
    return lw;
}
