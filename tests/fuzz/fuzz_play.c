/* Fuzz target: random move sequences through whole rounds and matches.
 *
 * Input: byte 0 picks the rules and player count (fuzz_rules), bytes 1-8
 * the seed, byte 9 the first dealer, and every further byte the next move
 * (its index modulo the number of legal moves). After every move the
 * invariants must hold; the move must be legal by every account and its
 * text must parse back; undoing it and playing it again must give the
 * same position; now and then a clone must equal the game, and a changed
 * move must be judged alike by dl_is_legal, dl_refusal and the list. At
 * the end every step is undone, which must restore the starting state. */
#include "fuzz.h"

#define PLAY_HEADER 10

static void play_position(const dl_Game *g, char *buf)
{
    int n = dl_position_str(&g->s, buf, DL_POSITION_MAX, false);
    FUZZ_CHECK(n > 0 && n < DL_POSITION_MAX, "position string of %d bytes", n);
}

/* What a position string leaves out: compared field by field. */
static void play_same_hidden(const dl_State *a, const dl_State *b, const char *when)
{
    FUZZ_CHECK(memcmp(&a->rng, &b->rng, sizeof a->rng) == 0, "%s: the random state differs", when);
    FUZZ_CHECK(memcmp(&a->last, &b->last, sizeof a->last) == 0, "%s: the last round's score differs",
               when);
    FUZZ_CHECK(a->peeked == b->peeked && a->claim_pending == b->claim_pending &&
                   a->pack_pos == b->pack_pos && a->pack_len == b->pack_len,
               "%s: the pack or claim bookkeeping differs", when);
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
    char start_pos[DL_POSITION_MAX], before[DL_POSITION_MAX], after[DL_POSITION_MAX];
    char again[DL_POSITION_MAX];
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
        FUZZ_CHECK(l->n > 0, "D20: no legal move at step %zu", i);
        const dl_Move m = l->m[data[i] % l->n];
        fuzz_check_agree(&g->s, l, &m);
        fuzz_check_move_text(&g->s, &m);
        dl_Move x = play_mutate(&g->s, &m, &mut);
        fuzz_check_agree(&g->s, l, &x);

        play_position(g, before);
        const dl_State prev = g->s;
        FUZZ_CHECK(!dl_game_play(g, &m, why, sizeof why), "a listed move refused: %s", why);
        broken = dl_check_state(&g->s);
        FUZZ_CHECK(!broken, "after step %zu: %s", i, broken);
        play_position(g, after);
        /* Undo and play again. */
        FUZZ_CHECK(dl_game_undo(g), "undo refused");
        play_position(g, again);
        FUZZ_CHECK(strcmp(again, before) == 0, "undo does not restore:\n  %s\n  %s", before, again);
        play_same_hidden(&prev, &g->s, "undo");
        FUZZ_CHECK(!dl_game_play(g, &m, why, sizeof why), "replaying a move refused: %s", why);
        play_position(g, again);
        FUZZ_CHECK(strcmp(again, after) == 0, "a replayed move differs:\n  %s\n  %s", after, again);
        if ((data[i] & 0xF0) == 0xF0) { /* now and then: clones allocate */
            dl_Game *c = dl_game_clone(g);
            FUZZ_CHECK(c, "clone failed");
            play_position(c, again);
            FUZZ_CHECK(strcmp(again, after) == 0, "a clone differs");
            play_same_hidden(&g->s, &c->s, "clone");
            FUZZ_CHECK(c->nrec == g->nrec && c->legal.n == g->legal.n, "a clone's history differs");
            if (c->legal.n) {
                /* Playing on the clone leaves the game as it was. */
                dl_game_play(c, &c->legal.m[0], why, sizeof why);
                play_position(g, again);
                FUZZ_CHECK(strcmp(again, after) == 0, "playing on a clone changed the game");
            }
            dl_game_free(c);
        }
    }
    while (dl_game_undo(g)) {}
    play_position(g, before);
    FUZZ_CHECK(strcmp(before, start_pos) == 0, "undoing everything does not restore the start:\n"
               "  %s\n  %s", start_pos, before);
    play_same_hidden(&start, &g->s, "undo to the start");
    dl_game_free(g);
    return 0;
}
