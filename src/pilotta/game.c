#include "pilotta/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/deal.h"
#include "pilotta/notation.h"
#include "pilotta/position.h"

pl_Game *pl_game_new(const pl_Rules *r, uint64_t seed, int dealer, const char **err)
{
    pl_Game *g = calloc(1, sizeof *g);
    if (!g) {
        *err = "out of memory";
        return NULL;
    }
    const char *bad = pl_new_match(&g->s, r, seed, dealer);
    if (bad) {
        *err = bad;
        free(g);
        return NULL;
    }
    return g;
}

pl_Game *pl_game_from_position(const pl_Rules *r, const char *text, uint64_t seed, char *err, size_t cap)
{
    pl_Game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    if (pl_position_parse(&g->s, r, text, seed, err, cap)) {
        free(g);
        return NULL;
    }
    return g;
}

void pl_game_free(pl_Game *g)
{
    if (!g) return;
    free(g->rec);
    free(g);
}

pl_Game *pl_game_clone(const pl_Game *g)
{
    pl_Game *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *g;
    c->rec = NULL;
    if (g->cap) {
        c->rec = malloc(g->cap * sizeof *c->rec);
        if (!c->rec) {
            free(c);
            return NULL;
        }
        memcpy(c->rec, g->rec, g->nrec * sizeof *c->rec);
    }
    return c;
}

const pl_ActionList *pl_game_legal(pl_Game *g)
{
    if (!g->legal_ok) {
        pl_legal(&g->s, &g->legal);
        g->legal_ok = true;
    }
    return &g->legal;
}

/* A new record at the end of the history, or NULL when it cannot grow. */
static pl_Record *push_record(pl_Game *g)
{
    if (g->nrec == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        pl_Record *r = realloc(g->rec, cap * sizeof *r);
        if (!r) return NULL;
        g->rec = r;
        g->cap = cap;
    }
    pl_Record *r = &g->rec[g->nrec];
    memset(r, 0, sizeof *r);
    r->before = g->s;
    return r;
}

const char *pl_game_play(pl_Game *g, const pl_Action *a, char *err, size_t cap)
{
    const char *why = pl_refusal(&g->s, a, err, cap);
    if (why) return why;
    pl_Record *r = push_record(g);
    if (!r) {
        snprintf(err, cap, "out of memory");
        return err;
    }
    pl_Action n = pl_normalize(&g->s, a);
    r->action = n;
    r->seat = (int8_t)g->s.turn;
    pl_action_str(&g->s, &n, r->text, sizeof r->text, false);
    const int nplayed = g->s.nplayed;
    pl_apply_legal(&g->s, &n);
    r->trick_over = n.kind == PL_PLAY && g->s.nplayed > nplayed && (g->s.nplayed & 3) == 0;
    r->round_over = g->s.phase >= PL_PHASE_ROUND_OVER;
    g->nrec++;
    g->legal_ok = false;
    return NULL;
}

/* The first record of the round that record i belongs to. */
static size_t round_start_of(const pl_Game *g, size_t i)
{
    while (i > 0 && !g->rec[i - 1].next_round) i--;
    return i;
}

bool pl_game_undo(pl_Game *g)
{
    if (!g->nrec) return false;
    g->nrec--;
    g->s = g->rec[g->nrec].before;
    g->round_start = round_start_of(g, g->nrec);
    g->legal_ok = false;
    return true;
}

bool pl_game_next_round(pl_Game *g)
{
    if (g->s.phase != PL_PHASE_ROUND_OVER) return false;
    pl_Record *r = push_record(g);
    if (!r) return false;
    r->seat = -1;
    r->next_round = 1;
    r->action.suit = -1;
    pl_next_round(&g->s);
    g->nrec++;
    g->round_start = g->nrec;
    g->legal_ok = false;
    return true;
}
