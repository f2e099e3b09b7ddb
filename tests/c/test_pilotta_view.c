/* P50: what a seat may know. A seat's view, and when it is to act its
 * legal set, are the same for two deals that differ only in cards it
 * cannot see: the other three hands shuffled among themselves at random
 * points of random rounds, and positions whose hidden hands are filled
 * from different seeds. */
#include <stdio.h>
#include <string.h>

#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"

/* The others' hands dealt again from their own cards, sizes kept. */
static pl_State reshuffle(const pl_State *s, int seat, dl_Rng *rng)
{
    pl_State t = *s;
    uint8_t cards[32];
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (i != seat)
            for (pl_Set h = s->hand[i]; h; h &= h - 1) cards[n++] = (uint8_t)pl_first(h);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)dl_rng_below(rng, (uint32_t)(i + 1));
        uint8_t x = cards[i];
        cards[i] = cards[j], cards[j] = x;
    }
    for (int i = 0, k = 0; i < 4; i++) {
        if (i == seat) continue;
        int size = pl_count(s->hand[i]);
        t.hand[i] = 0;
        for (int j = 0; j < size; j++) t.hand[i] |= PL_BIT(cards[k++]);
    }
    return t;
}

static void same_view(const pl_State *a, const pl_State *b, int seat)
{
    pl_View x, y;
    pl_view(a, seat, &x);
    pl_view(b, seat, &y);
    if (memcmp(&x, &y, sizeof x) != 0) {
        char p[PL_POSITION_MAX], q[PL_POSITION_MAX];
        pl_position_str(a, p, sizeof p, 0);
        pl_position_str(b, q, sizeof q, 0);
        fail_msg("P50: seat %d's view differs between\n  %s\n  %s", seat, p, q);
    }
    if (a->turn == seat && a->phase <= PL_PHASE_PLAY) {
        char la[4096];
        snprintf(la, sizeof la, "%s", pllegal(a));
        assert_string_equal(la, pllegal(b));
    }
}

static void test_P50_view_blind_to_unseen_cards(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    pl_ActionList l;
    dl_Rng rng;
    dl_rng_seed(&rng, 5);
    assert_null(pl_new_match(&s, &r, 5, 0));
    long checks = 0;
    for (int round = 0; round < 2000; round++) {
        while (pl_legal(&s, &l) > 0) {
            int seat = (int)dl_rng_below(&rng, 4);
            pl_State t = reshuffle(&s, seat, &rng);
            same_view(&s, &t, seat);
            checks++;
            pl_apply_legal(&s, pl_pick(&l, &s, &rng));
        }
        if (s.phase == PL_PHASE_MATCH_OVER) assert_null(pl_new_match(&s, &r, (uint64_t)round, 0));
        else pl_next_round(&s);
    }
    printf("  P50: %ld views compared\n", checks);
}

static void test_P50_hidden_hands_from_two_seeds(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    const char *pos = "dealer=3; calls=80c, 90d, pass, pass, 110c, pass, pass, pass; hands=7h 10c 7s 7c 8h 8c 9d "
                      "/ ?7 / ?7 / ?7; tricks=9c 8s Jc Qc; decls=0:7c 8c 9c 10c, 1:Qd Kd Ad, 3:9h 10h Jh; belote=3";
    pl_State a, b;
    char err[200];
    assert_null(pl_position_parse(&a, &r, pos, 1, err, sizeof err));
    assert_null(pl_position_parse(&b, &r, pos, 2, err, sizeof err));
    assert_true(a.hand[2] != b.hand[2]);
    same_view(&a, &b, 0);
    pl_View v;
    pl_view(&a, 0, &v);
    assert_int_equal(v.decl[1].cards, 0); /* not shown: kind and value only */
    assert_int_equal(v.decl[1].length, 3);
    assert_int_equal(v.decl[1].value, 20);
    assert_int_equal(v.decl[0].cards, plset("7c 8c 9c 10c")); /* its own */
    assert_int_equal(v.hand_count[1], 7);
    assert_int_equal(v.belote, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_P50_view_blind_to_unseen_cards),
        cmocka_unit_test(test_P50_hidden_hands_from_two_seeds),
    };
    return cmocka_run_group_tests_name("pilotta views", tests, NULL, NULL);
}
