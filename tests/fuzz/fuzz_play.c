/* Fuzz target: random move sequences through whole rounds and matches.
 *
 * Input: byte 0 picks the rules and player count (fuzz_rules), bytes 1-8
 * the seed, byte 9 the first dealer, and every further byte the next move
 * (its index modulo the number of legal moves). After every move the
 * invariants must hold; the move must be legal by every account and its
 * text must parse back; undoing it and playing it again must give the
 * same state; a changed move must be judged alike by dl_is_legal,
 * dl_refusal and the list, and if refused leave the game as it was; now
 * and then a clone must equal the game and play independently of it. At
 * the end every step is undone, which must restore the starting state. */
#include "fuzz.h"

#define PLAY_HEADER 10

static void play_position(const dl_Game *g, char *buf)
{
    int n = dl_position_str(&g->s, buf, DL_POSITION_MAX, false);
    FUZZ_CHECK(n > 0 && n < DL_POSITION_MAX, "position string of %d bytes", n);
}

/* Two states are the same game: every field, compared one by one (a
 * memcmp would also compare padding). */
static void play_same_state(const dl_State *a, const dl_State *b, const char *when)
{
    bool same = a->ndecl == b->ndecl && a->loose == b->loose && a->pack_pos == b->pack_pos &&
                a->pack_len == b->pack_len && a->phase == b->phase && a->dealer == b->dealer &&
                a->turn == b->turn && a->deal == b->deal && a->ply == b->ply &&
                a->last_capturer == b->last_capturer && a->claim_pending == b->claim_pending &&
                a->peeked == b->peeked && a->round == b->round && a->winner == b->winner &&
                memcmp(&a->rng, &b->rng, sizeof a->rng) == 0 &&
                memcmp(&a->last, &b->last, sizeof a->last) == 0;
    for (int i = 0; same && i < DL_MAX_PLAYERS; i++)
        same = a->hand[i] == b->hand[i] && a->pile[i] == b->pile[i] && a->xeri[i] == b->xeri[i] &&
               a->score[i] == b->score[i] && a->rounds_won[i] == b->rounds_won[i];
    for (int i = 0; same && i < a->ndecl; i++) {
        const dl_Decl *x = &a->decl[i], *y = &b->decl[i];
        same = x->cards == y->cards && x->value == y->value && x->kind == y->kind &&
               x->owner == y->owner && x->ncomp == y->ncomp;
        for (dl_Set c = x->cards; same && c; c &= c - 1)
            same = a->comp[dl_first(c)] == b->comp[dl_first(c)];
    }
    for (int i = a->pack_pos; same && i < a->pack_len; i++) same = a->pack[i] == b->pack[i];
    if (!same) {
        char x[DL_POSITION_MAX], y[DL_POSITION_MAX];
        dl_position_str(a, x, sizeof x, false);
        dl_position_str(b, y, sizeof y, false);
        FUZZ_FAIL("%s: the states differ:\n  %s\n  %s", when, x, y);
    }
}

/* A move the notation could express here, changed from a legal one. */
static dl_Move play_mutate(const dl_State *s, const dl_Move *m, dl_Rng *rng)
{
    dl_Move x = *m;
    uint64_t items = s->loose;
    for (int i = 0; i < s->ndecl; i++) items |= DL_DECL_BIT(i);
    switch (dl_rng_below(rng, 5)) {
    case 0: x.card = (uint8_t)dl_rng_below(rng, DL_NCARDS); break;
    case 1: x.take ^= items & ((uint64_t)1 << dl_rng_below(rng, 64)); break;
    case 2: x.take = items & dl_rng_next(rng); break;
    case 3: x.value = (uint8_t)dl_rng_below(rng, 11); break;
    default: x.kind = (uint8_t)dl_rng_below(rng, DL_KEEP + 1); break;
    }
    if (x.kind == DL_CLAIM || x.kind == DL_KEEP) x.card = 0, x.take = 0, x.value = 0;
    if (x.kind == DL_LAY) x.take = 0, x.value = 0;
    if (x.kind == DL_CAPTURE) x.value = 0;
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < PLAY_HEADER) return 0;
    if (size > FUZZ_MAX_TEXT) size = FUZZ_MAX_TEXT;
    dl_Rules r;
    fuzz_rules(data[0], &r, NULL);
    uint64_t seed = 0;
    for (int i = 1; i <= 8; i++) seed = seed << 8 | data[i];
    int dealer = data[9] < 128 ? -1 : data[9] % r.players;
    const char *err = NULL;
    dl_Game *g = dl_game_new(&r, seed, dealer, &err);
    FUZZ_CHECK(g, "dl_game_new: %s", err);
    const dl_State start = g->s;
    char start_pos[DL_POSITION_MAX], after[DL_POSITION_MAX], again[DL_POSITION_MAX];
    play_position(g, start_pos);
    dl_Rng mut;
    dl_rng_seed(&mut, seed ^ 0x5eed);
    char why[256];

    for (size_t i = PLAY_HEADER; i < size; i++) {
        const char *broken = dl_check_state(&g->s);
        FUZZ_CHECK(!broken, "step %zu: %s", i, broken);
        if (g->s.phase == DL_PHASE_MATCH_OVER) break;
        if (g->s.phase == DL_PHASE_ROUND_OVER) {
            FUZZ_CHECK(dl_game_next_round(g), "next round refused");
            FUZZ_CHECK(g->s.phase == DL_PHASE_PLAY || g->s.phase == DL_PHASE_CLAIM,
                       "a new round in phase %d", g->s.phase);
            continue;
        }
        const dl_MoveList *l = dl_game_moves(g);
        FUZZ_CHECK(l, "out of memory listing the moves");
        FUZZ_CHECK(l->n > 0, "D20: no legal move at step %zu", i);
        const dl_Move m = l->m[data[i] % l->n];
        fuzz_check_agree(&g->s, l, &m);
        fuzz_check_move_text(&g->s, &m);
        dl_Move x = play_mutate(&g->s, &m, &mut);
        fuzz_check_agree(&g->s, l, &x);
        const dl_State prev = g->s;
        if (!fuzz_listed(l, &x) && !l->cut) {
            /* A refused move leaves the game as it was. */
            FUZZ_CHECK(dl_game_play(g, &x, why, sizeof why), "a move not listed was played");
            FUZZ_CHECK(why[0] && strchr(why, ':'), "a refusal without a rule id: '%s'", why);
            play_same_state(&prev, &g->s, "a refused move");
        }

        FUZZ_CHECK(!dl_game_play(g, &m, why, sizeof why), "a listed move refused: %s", why);
        broken = dl_check_state(&g->s);
        FUZZ_CHECK(!broken, "after step %zu: %s", i, broken);
        const dl_State next = g->s;
        /* Undo and play again. */
        FUZZ_CHECK(dl_game_undo(g), "undo refused");
        play_same_state(&prev, &g->s, "undo");
        FUZZ_CHECK(!dl_game_play(g, &m, why, sizeof why), "replaying a move refused: %s", why);
        play_same_state(&next, &g->s, "a replayed move");
        if ((data[i] & 0xF0) == 0xF0) { /* now and then: clones allocate */
            dl_Game *c = dl_game_clone(g);
            FUZZ_CHECK(c, "clone failed");
            play_position(g, after);
            play_position(c, again);
            FUZZ_CHECK(strcmp(again, after) == 0, "a clone differs:\n  %s\n  %s", after, again);
            play_same_state(&g->s, &c->s, "clone");
            const dl_MoveList *gl = dl_game_moves(g), *cl = dl_game_moves(c);
            FUZZ_CHECK(gl && cl, "out of memory listing the moves");
            FUZZ_CHECK(c->nrec == g->nrec && cl->n == gl->n, "a clone's history differs");
            for (size_t k = 0; k < cl->n; k++)
                FUZZ_CHECK(dl_move_eq(&cl->m[k], &gl->m[k]), "a clone's moves differ");
            if (cl->n) {
                /* Playing on the clone leaves the game as it was. */
                dl_game_play(c, &cl->m[0], why, sizeof why);
                play_same_state(&next, &g->s, "playing on a clone");
            }
            dl_game_free(c);
        }
    }
    while (dl_game_undo(g)) {}
    play_position(g, again);
    FUZZ_CHECK(strcmp(again, start_pos) == 0, "undoing everything does not restore the start:\n"
               "  %s\n  %s", start_pos, again);
    play_same_state(&start, &g->s, "undo to the start");
    dl_game_free(g);
    return 0;
}
