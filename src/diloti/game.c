#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deal.h"
#include "legal.h"
#include "notation.h"
#include "score.h"

static dl_Game *alloc_game(void)
{
    dl_Game *g = calloc(1, sizeof *g);
    if (g) dl_movelist_init(&g->legal);
    return g;
}

/* The legal moves are listed when asked for, not after every change: a
 * move is checked on its own (legal.c), and a game played on for what it
 * shows one seat (a simulation) does no work for the next (issue 24). */
static void changed(dl_Game *g) { g->listed = false; }

dl_Game *dl_game_new(const dl_Rules *r, uint64_t seed, int dealer, const char **err)
{
    dl_Game *g = alloc_game();
    if (!g) {
        *err = "out of memory";
        return NULL;
    }
    if ((*err = dl_new_match(&g->s, r, seed, dealer))) {
        dl_game_free(g);
        return NULL;
    }
    return g;
}

dl_Game *dl_game_from_position(const dl_Rules *r, const char *pos, uint64_t seed, char *err,
                               size_t cap)
{
    dl_Game *g = alloc_game();
    if (!g) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    if (dl_position_parse(&g->s, r, pos, seed, err, cap)) {
        dl_game_free(g);
        return NULL;
    }
    return g;
}

dl_Game *dl_game_clone(const dl_Game *src)
{
    dl_Game *g = alloc_game();
    if (!g) return NULL;
    g->s = src->s;
    if (src->nrec) {
        g->rec = malloc(src->nrec * sizeof *g->rec);
        if (!g->rec) {
            dl_game_free(g);
            return NULL;
        }
        memcpy(g->rec, src->rec, src->nrec * sizeof *g->rec);
        g->nrec = g->cap = src->nrec;
    }
    return g;
}

void dl_game_free(dl_Game *g)
{
    if (!g) return;
    free(g->rec);
    dl_movelist_free(&g->legal);
    free(g);
}

const dl_MoveList *dl_game_moves(dl_Game *g)
{
    if (!g->listed) {
        if (dl_legal_moves(&g->s, &g->legal) < 0) return NULL;
        g->listed = true;
    }
    return &g->legal;
}

static dl_Record *push_record(dl_Game *g)
{
    if (g->nrec == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        dl_Record *r = realloc(g->rec, cap * sizeof *r);
        if (!r) return NULL;
        g->rec = r;
        g->cap = cap;
    }
    dl_Record *r = &g->rec[g->nrec++];
    /* field by field: the state is most of a record, and clearing it
     * first doubled the cost of every move played through a dl_Game */
    r->before = g->s;
    memset(&r->move, 0, sizeof r->move);
    memset(&r->effect, 0, sizeof r->effect);
    r->next_round = false;
    r->text[0] = '\0';
    return r;
}

const char *dl_game_play(dl_Game *g, const dl_Move *m, char *err, size_t cap)
{
    const char *why = dl_game_refusal(g, m, err, cap);
    if (why) return why;
    dl_Record *r = push_record(g);
    if (!r) {
        snprintf(err, cap, "out of memory");
        return err;
    }
    r->move = *m;
    dl_move_str(&g->s, m, r->text, sizeof r->text, false);
    dl_apply(&g->s, m, &r->effect);
    changed(g);
    return NULL;
}

const char *dl_game_refusal(const dl_Game *g, const dl_Move *m, char *err, size_t cap)
{
    switch (dl_check_move(&g->s, m)) {
    case DL_CHECK_LEGAL: return NULL;
    case DL_CHECK_COSTLY:
        snprintf(err, cap, "%s: the items named split in too many ways to check; name fewer at "
                 "once (limit: %d splits tried)", g->s.rules.capture == DL_CAPTURE_ONE ? "K2" : "D11",
                 DL_SPLIT_BUDGET);
        return err;
    case DL_CHECK_OOM: snprintf(err, cap, "out of memory"); return err;
    default: break;
    }
    const char *why = dl_refusal(&g->s, m, err, cap);
    if (!why) snprintf(err, cap, "D9: not a legal move here");
    return err;
}

const char *dl_game_play_str(dl_Game *g, const char *text, char *err, size_t cap)
{
    dl_Move m;
    if (dl_move_parse(&g->s, text, &m, err, cap)) return err;
    return dl_game_play(g, &m, err, cap);
}

bool dl_game_next_round(dl_Game *g)
{
    if (g->s.phase != DL_PHASE_ROUND_OVER) return false;
    dl_Record *r = push_record(g);
    if (!r) return false;
    r->next_round = true;
    snprintf(r->text, sizeof r->text, "next round");
    dl_next_round(&g->s);
    changed(g);
    return true;
}

bool dl_game_undo(dl_Game *g)
{
    if (!g->nrec) return false;
    g->s = g->rec[--g->nrec].before;
    changed(g);
    return true;
}

bool dl_record_public(const dl_Record *r, int seat)
{
    return r->next_round || r->move.kind != DL_KEEP || r->effect.seat == seat;
}
