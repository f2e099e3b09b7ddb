/* Reading hands from the play (infer.h): a guess that makes a seen move
 * illegal is ruled out (D14, D19), a forgone capture costs its gain over
 * the temperature, and the search that reads the play still never reads
 * a hidden card. */
#include <math.h>
#include <string.h>

#include "diloti/search.h"
#include "testutil.h"

/* Seat `who` plays `move` in s, seen from seat 0; s moves on. */
static dl_Seen see(dl_State *s, const char *move)
{
    dl_Seen e;
    memset(&e, 0, sizeof e);
    dl_view(s, 0, &e.before);
    e.who = s->turn;
    char err[200];
    assert_null(dl_move_parse(s, move, &e.move, err, sizeof err));
    play(s, move);
    return e;
}

static double weight(const dl_Seen *seen, int n, const dl_State *guess)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    double w = dl_infer_logweight(seen, n, guess->hand, 2.0, &l);
    dl_movelist_free(&l);
    return w;
}

/* D14: a plain declaration of 7 needs another 7 in hand, so a guess that
 * gives the declarer none cannot explain the move. */
static void test_infer_D14_rules_out_impossible_hands(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "dealer=0; turn=1; ply=5; hands=2c 3c / 3h 7s Kh / 5d / 6d; table=4d");
    dl_Seen e = see(&s, "3h + 4d = 7");
    dl_State guess = s;
    assert_true(isfinite(weight(&e, 1, &guess)));
    guess.hand[1] = DL_BIT(dl_card(8, DL_HEARTS)) | DL_BIT(dl_card(12, DL_HEARTS)); /* 9h Kh */
    assert_true(weight(&e, 1, &guess) == -INFINITY);
}

/* A lay while a 10 in hand could take the 10 of diamonds forgoes 2 points
 * and two cards (0.15 each): log-weight -2.3 / 2. Without a 10, nothing
 * was forgone. */
static void test_infer_forgone_capture_costs_its_gain(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "dealer=0; turn=1; ply=5; hands=2c / 4h 10s Kh / 5d / 6d; table=10d 8c");
    dl_Seen e = see(&s, "4h lay");
    dl_State guess = s;
    assert_float_equal(weight(&e, 1, &guess), -2.3 / 2.0, 1e-9);
    guess.hand[1] = DL_BIT(dl_card(8, DL_HEARTS)) | DL_BIT(dl_card(12, DL_HEARTS)); /* 9h Kh */
    assert_float_equal(weight(&e, 1, &guess), 0.0, 1e-12);
}

/* D21: passing up a xeri forgoes 10 points more; the cards a seat played
 * later in the deal count as held at the time. */
static void test_infer_D21_forgone_xeri_and_later_cards(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "dealer=0; turn=1; ply=5; hands=2c 3c / 4h 5h Kh / Qd Qc / Jd Jc; table=5d");
    dl_Seen seen[4];
    seen[0] = see(&s, "4h lay");  /* 5h x 5d was a xeri */
    seen[1] = see(&s, "Qd lay");  /* seat 2: nothing to take */
    seen[2] = see(&s, "Jd lay");  /* seat 3: nor here */
    play(&s, "2c lay");           /* seat 0's own move is not read */
    seen[3] = see(&s, "5h x 5d"); /* seat 1 had the 5 all along */
    dl_State guess = s;
    assert_float_equal(weight(seen, 4, &guess), -10.3 / 2.0, 1e-9);
    /* Without the first move the xeri is not known to have been passed up. */
    assert_float_equal(weight(&seen[1], 3, &guess), 0.0, 1e-12);
}

/* Reading the play changes nothing about what the search may see: the
 * same view and the same seen moves give the same answer whatever the
 * hidden cards are, under a seed. */
static void test_infer_search_never_reads_hidden_cards(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_MoveList l;
    dl_movelist_init(&l);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &r, seed, 3));
        dl_Seen seen[DL_NCARDS];
        int n = 0;
        dl_Rng pick;
        dl_rng_seed(&pick, seed);
        /* Play into the deal; seat 0 searches, the others' moves are seen. */
        for (int i = 0; i < 9 + (int)seed; i++) {
            dl_legal_moves(&s, &l);
            const dl_Move m = l.m[dl_rng_below(&pick, (uint32_t)l.n)];
            if (s.turn != 0) {
                dl_view(&s, 0, &seen[n].before);
                seen[n].who = s.turn;
                seen[n++].move = m;
            }
            dl_apply(&s, &m, NULL);
        }
        while (s.turn != 0) {
            dl_legal_moves(&s, &l);
            dl_view(&s, 0, &seen[n].before);
            seen[n].who = s.turn;
            seen[n].move = l.m[0];
            dl_apply(&s, &seen[n++].move, NULL);
        }
        /* Another deal of the still hidden cards behind the same view. */
        dl_State t = s;
        dl_View a, b;
        dl_view(&s, 0, &a);
        dl_Rng other;
        dl_rng_seed(&other, seed + 500);
        dl_determinize(&a, &other, &t);
        dl_view(&t, 0, &b);
        assert_memory_equal(&a, &b, sizeof a);
        dl_SearchParams p;
        dl_search_defaults(&p);
        p.iterations = 300;
        p.seed = 5;
        p.infer = 2;
        p.pool = 200;
        p.seen = seen;
        p.nseen = n;
        dl_SearchResult x, y, z;
        assert_int_equal(dl_search(&a, &p, &x), 0);
        assert_int_equal(dl_search(&b, &p, &y), 0);
        assert_true(dl_move_eq(&x.best, &y.best));
        assert_int_equal(x.nmoves, y.nmoves);
        for (int i = 0; i < x.nmoves; i++) assert_int_equal(x.moves[i].visits, y.moves[i].visits);
        assert_true(dl_is_legal(&s, &x.best));
        /* Deterministic under the seed. */
        assert_int_equal(dl_search(&a, &p, &z), 0);
        assert_true(x.value == z.value);
    }
    dl_movelist_free(&l);
}

/* What a seat has seen: the others' moves of this deal only, each with
 * that seat's view before it; a new deal starts the list again. */
static void test_infer_seen_moves_of_this_deal(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    const char *err = NULL;
    dl_Game *g = dl_game_new(&r, 3, 3, &err);
    assert_non_null(g);
    dl_Seen seen[DL_NCARDS];
    assert_int_equal(dl_seen_moves(g, 0, seen), 0);
    char why[200];
    for (int i = 0; i < 7; i++) {
        int who = g->s.turn;
        assert_null(dl_game_play(g, &dl_game_moves(g)->m[0], why, sizeof why));
        int n = dl_seen_moves(g, 0, seen);
        assert_int_equal(n, i + 1 - (i + 1 + 3) / 4); /* seat 0 moved on plies 0 and 4 */
        if (who != 0) {
            assert_int_equal(seen[n - 1].who, who);
            assert_true(dl_move_eq(&seen[n - 1].move, &g->rec[g->nrec - 1].move));
            dl_View v;
            dl_view(&g->rec[g->nrec - 1].before, 0, &v);
            assert_memory_equal(&v, &seen[n - 1].before, sizeof v);
            assert_int_equal(seen[n - 1].before.hand_count[who], dl_count(g->rec[g->nrec - 1].before.hand[who]));
        }
    }
    while (g->s.deal == 1) assert_null(dl_game_play(g, &dl_game_moves(g)->m[0], why, sizeof why));
    assert_int_equal(dl_seen_moves(g, 0, seen), 0);
    dl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_infer_D14_rules_out_impossible_hands),
        cmocka_unit_test(test_infer_forgone_capture_costs_its_gain),
        cmocka_unit_test(test_infer_D21_forgone_xeri_and_later_cards),
        cmocka_unit_test(test_infer_search_never_reads_hidden_cards),
        cmocka_unit_test(test_infer_seen_moves_of_this_deal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
