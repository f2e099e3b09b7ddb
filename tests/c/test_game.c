/* The game handle and the per-seat view: undo, clone, refusals that leave
 * the game untouched, the public log, and views that leak nothing hidden. */
#include <string.h>

#include "testutil.h"

static dl_Game *new_game(const dl_Rules *r, uint64_t seed)
{
    const char *err = NULL;
    dl_Game *g = dl_game_new(r, seed, 0, &err);
    if (!g) fail_msg("dl_game_new: %s", err);
    return g;
}

static void play_random(dl_Game *g, dl_Rng *rng, int plies)
{
    char err[200];
    for (int i = 0; i < plies; i++) {
        if (g->s.phase == DL_PHASE_ROUND_OVER) {
            assert_true(dl_game_next_round(g));
            continue;
        }
        if (g->s.phase == DL_PHASE_MATCH_OVER) return;
        const dl_MoveList *l = dl_game_moves(g);
        dl_Move m = l->m[dl_rng_below(rng, (uint32_t)l->n)];
        if (dl_game_play(g, &m, err, sizeof err)) fail_msg("legal move refused: %s", err);
    }
}

static void test_D9_undo_restores_every_state(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_Game *g = new_game(&r, 5);
    dl_Rng rng;
    dl_rng_seed(&rng, 9);
    dl_State before[200];
    int n = 0;
    /* More than one round, so undo crosses deals and a round boundary. */
    while (n < 120) {
        before[n++] = g->s;
        play_random(g, &rng, 1);
    }
    while (n > 0) {
        assert_true(dl_game_undo(g));
        n--;
        assert_memory_equal(&g->s, &before[n], sizeof g->s);
    }
    assert_false(dl_game_undo(g));
    dl_game_free(g);
}

static void test_D9_refused_move_leaves_game_untouched(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    char err[300];
    dl_Game *g = dl_game_from_position(&r, "hands=Jh 5c / 9c; table=Jd 10s", 1, err, sizeof err);
    assert_non_null(g);
    dl_State copy = g->s;
    size_t nrec = g->nrec;
    const char *why = dl_game_play_str(g, "Jh lay", err, sizeof err);
    assert_non_null(why);
    assert_true(strncmp(why, "D10:", 4) == 0);
    why = dl_game_play_str(g, "Jh x 10s", err, sizeof err);
    assert_non_null(why);
    assert_true(strncmp(why, "D12:", 4) == 0);
    why = dl_game_play_str(g, "Jh x 7c", err, sizeof err);
    assert_non_null(why); /* 7c is not on the table: a parse error */
    assert_memory_equal(&g->s, &copy, sizeof copy);
    assert_int_equal(g->nrec, nrec);
    assert_null(dl_game_play_str(g, "Jh x Jd", err, sizeof err));
    assert_int_equal(g->nrec, nrec + 1);
    assert_string_equal(g->rec[0].text, "Jh x Jd");
    dl_game_free(g);
}

static void test_D9_clone_is_independent(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_Game *g = new_game(&r, 77);
    dl_Rng rng;
    dl_rng_seed(&rng, 3);
    play_random(g, &rng, 10);
    dl_Game *c = dl_game_clone(g);
    assert_non_null(c);
    assert_memory_equal(&c->s, &g->s, sizeof g->s);
    dl_State saved = g->s;
    play_random(c, &rng, 10);
    assert_memory_equal(&g->s, &saved, sizeof saved);
    /* Both continue the same: the RNG state is part of the game. */
    assert_true(dl_game_undo(c));
    dl_game_free(c);
    dl_game_free(g);
}

static void test_D4_same_seed_same_game(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_Game *a = new_game(&r, 424242), *b = new_game(&r, 424242);
    dl_Rng ra, rb;
    dl_rng_seed(&ra, 1);
    dl_rng_seed(&rb, 1);
    play_random(a, &ra, 300);
    play_random(b, &rb, 300);
    assert_memory_equal(&a->s, &b->s, sizeof a->s);
    dl_game_free(a);
    dl_game_free(b);
}

/* Moving hidden cards between the opponents' hands and the pack must not
 * change what a seat sees. */
static void test_view_leaks_nothing_hidden(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    for (uint64_t seed = 1; seed <= 200; seed++) {
        dl_Game *g = new_game(&r, seed);
        dl_Rng rng;
        dl_rng_seed(&rng, seed);
        play_random(g, &rng, (int)(seed % 40));
        if (g->s.phase != DL_PHASE_PLAY) {
            dl_game_free(g);
            continue;
        }
        for (int seat = 0; seat < 2; seat++) {
            dl_State t = g->s;
            int other = 1 - seat;
            /* Swap one card of the other hand with one pack card. */
            if (t.hand[other] && t.pack_pos < t.pack_len) {
                int c = dl_first(t.hand[other]);
                int i = t.pack_pos + (int)(seed % (uint64_t)(t.pack_len - t.pack_pos));
                int p = t.pack[i];
                t.hand[other] = (t.hand[other] & ~DL_BIT(c)) | DL_BIT(p);
                t.pack[i] = (uint8_t)c;
            }
            dl_View v1, v2;
            dl_view(&g->s, seat, &v1);
            dl_view(&t, seat, &v2);
            assert_memory_equal(&v1, &v2, sizeof v1);
            assert_int_equal(v1.hand, g->s.hand[seat]);
            assert_int_equal(v1.hand_count[other], dl_count(g->s.hand[other]));
            assert_int_equal(v1.unseen & g->s.hand[seat], 0);
            assert_int_equal(v1.unseen & g->s.hand[other], g->s.hand[other]);
        }
        dl_game_free(g);
    }
}

static void test_V_face_card_claim_keep_is_private(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.face_card_claim = true;
    dl_State s = pos(&r, "turn=1; hands=2c 3c 4c 5c 6c 7c / Jc Jd Qh Qs Kd 7d; table=8c 9c 10c Ac; "
                         "claim=1; ply=0");
    dl_View v0, v1;
    dl_view(&s, 0, &v0);
    dl_view(&s, 1, &v1);
    assert_int_equal(v1.phase, DL_PHASE_CLAIM);
    assert_int_equal(v0.phase, DL_PHASE_PLAY); /* seat 0 cannot tell */
    assert_int_equal(v0.turn, 0);
    dl_Record rec;
    memset(&rec, 0, sizeof rec);
    rec.move.kind = DL_KEEP;
    rec.effect.seat = 1;
    assert_false(dl_record_public(&rec, 0));
    assert_true(dl_record_public(&rec, 1));
    rec.move.kind = DL_CLAIM;
    assert_true(dl_record_public(&rec, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_D9_undo_restores_every_state),
        cmocka_unit_test(test_D9_refused_move_leaves_game_untouched),
        cmocka_unit_test(test_D9_clone_is_independent),
        cmocka_unit_test(test_D4_same_seed_same_game),
        cmocka_unit_test(test_view_leaks_nothing_hidden),
        cmocka_unit_test(test_V_face_card_claim_keep_is_private),
    };
    return cmocka_run_group_tests_name("game", tests, NULL, NULL);
}
