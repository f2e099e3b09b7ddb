/* The 14 worked examples of RULES.md ("Worked examples every implementation
 * must get right"). P1 is seat 0, P2 seat 1; the default dealer is seat 1,
 * so seat 0 moves first. Example 11 is played move by move and the group is
 * checked after each move. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* ---- small helpers ---- */

static int C(const char *t)
{
    int len, c = dl_card_parse(t, &len);
    if (c < 0) fail_msg("'%s' is not a card", t);
    return c;
}

static dl_Set S(const char *t)
{
    dl_Set s = 0;
    while (*t) {
        while (*t == ' ') t++;
        if (!*t) break;
        int len, c = dl_card_parse(t, &len);
        if (c < 0) fail_msg("'%s' is not a card list", t);
        s |= DL_BIT(c);
        t += len;
    }
    return s;
}

static void assert_set(dl_Set got, dl_Set want, const char *what)
{
    if (got != want) {
        char g[200], w[200];
        dl_set_str(got, g, sizeof g, false);
        dl_set_str(want, w, sizeof w, false);
        fail_msg("%s: got {%s}, want {%s}", what, g, w);
    }
}

static const dl_Decl *decl_of(const dl_State *s, int seat)
{
    int i = dl_owned_decl(s, seat);
    if (i < 0) fail_msg("seat %d owns no declaration", seat);
    return &s->decl[i];
}

static void assert_decl(const dl_State *s, int seat, int kind, int value, int ncomp,
                        const char *cards)
{
    const dl_Decl *d = decl_of(s, seat);
    assert_int_equal(d->owner, seat);
    assert_int_equal(d->kind, kind);
    assert_int_equal(d->value, value);
    assert_int_equal(d->ncomp, ncomp);
    assert_set(d->cards, S(cards), "declared cards");
}

/* Components as "Ac 3d 4h | 8s", one '|'-separated list per component. */
static void assert_components(const dl_State *s, int seat, const char *spec)
{
    const dl_Decl *d = decl_of(s, seat);
    char buf[300];
    int n = 0;
    unsigned used = 0;
    dl_Set all = 0;
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *part = strtok(buf, "|"); part; part = strtok(NULL, "|")) {
        dl_Set cs = S(part);
        assert_true(cs != 0);
        int comp = s->comp[dl_first(cs)];
        for (dl_Set x = cs; x; x &= x - 1)
            if (s->comp[dl_first(x)] != comp) fail_msg("component '%s' is split", part);
        if (used & (1u << comp)) fail_msg("component '%s' shares its index", part);
        used |= 1u << comp;
        all |= cs;
        n++;
    }
    assert_set(d->cards, all, "group cards");
    assert_int_equal(d->ncomp, n);
}

static int count_kind(const dl_State *s, int kind, int card)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(s, &l);
    int k = 0;
    for (size_t i = 0; i < l.n; i++)
        if (l.m[i].kind == kind && (card < 0 || l.m[i].card == card)) k++;
    dl_movelist_free(&l);
    return k;
}

/* ---- example 1 (D11) ---- */

static void test_example1_eight_takes_8_and_5_3_and_6_2(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c");
    assert_true(legal(&s, "8h x 8c 6d 5s 3h 2c"));
    /* each part and each union of parts */
    assert_true(legal(&s, "8h x 8c"));
    assert_true(legal(&s, "8h x 5s 3h"));
    assert_true(legal(&s, "8h x 6d 2c"));
    assert_true(legal(&s, "8h x 8c 5s 3h"));
    assert_true(legal(&s, "8h x 8c 6d 2c"));
    assert_true(legal(&s, "8h x 6d 2c 5s 3h"));
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("8h")), 7);
    assert_refused(&s, "8h x 6d 5s", "D11");
    assert_refused(&s, "8h x 8c 6d", "D11");
    assert_refused(&s, "8h x 3h 2c", "D11");
    dl_Effect e = play(&s, "8h x 8c 6d 5s 3h 2c");
    assert_set(e.captured, S("8h 8c 6d 5s 3h 2c"), "captured");
    assert_int_equal(s.loose, 0);
    assert_true(e.xeri); /* the table is empty: D21 */
}

/* ---- example 2 (D15, D14) ---- */

static void test_example2_plain_eight_from_3_on_5(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h 8d / 9c; table=5c");
    assert_true(legal(&s, "3h + 5c = 8"));
    play(&s, "3h + 5c = 8");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_PLAIN, 8, 1, "3h 5c");
    assert_int_equal(s.loose, 0);
    dl_State t = pos(&r, "hands=3h 7d / 9c; table=5c");
    assert_refused(&t, "3h + 5c = 8", "D14");
}

/* ---- example 3 (D15) ---- */

static void test_example3_plain_ten_from_6_on_A_3(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=6h 10s 9s / 9c; table=Ac 3d");
    assert_refused(&s, "6h + Ac = 10", "D15");
    play(&s, "6h + Ac 3d = 10");
    assert_decl(&s, 0, DL_DECL_PLAIN, 10, 1, "6h Ac 3d");
    assert_int_equal(s.loose, 0);
    dl_State t = pos(&r, "hands=6h 9s / 9c; table=Ac 3d");
    assert_refused(&t, "6h + Ac 3d = 10", "D14");
}

/* ---- example 4 (D16) ---- */

static void test_example4_raise_plain_4_with_5_to_9(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 9s / 4c Kd; table=P4@1(Ac+3d)");
    play(&s, "5h + P4@1 = 9");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_PLAIN, 9, 1, "Ac 3d 5h");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
    dl_State t = pos(&r, "hands=5h 8s / 4c Kd; table=P4@1(Ac+3d)");
    assert_refused(&t, "5h + P4@1 = 9", "D14");
}

/* ---- example 5 (D17) ---- */

static void test_example5_group_of_fives(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 5d / 9c; table=5c");
    play(&s, "5h + 5c = G5");
    assert_decl(&s, 0, DL_DECL_GROUP, 5, 2, "5h 5c");
    assert_components(&s, 0, "5h | 5c");
    dl_State t = pos(&r, "hands=5h 9d / 9c; table=5c");
    assert_refused(&t, "5h + 5c = G5", "D14");
}

/* ---- example 6 (D17) ---- */

static void test_example6_group_of_three_sixes(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=6h 6d / 9c; table=6c 4d 2s");
    assert_true(legal(&s, "6h + 6c = G6"));
    assert_true(legal(&s, "6h + 4d 2s = G6"));
    play(&s, "6h + 6c 4d 2s = G6");
    assert_decl(&s, 0, DL_DECL_GROUP, 6, 3, "6h 6c 4d 2s");
    assert_components(&s, 0, "6h | 6c | 4d 2s");
    assert_int_equal(s.loose, 0);
}

/* ---- example 7 (D17) ---- */

static void test_example7_six_on_2_with_8_group_of_eights(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=6h 8d / 9c; table=8c 2s");
    assert_refused(&s, "6h + 2s = G8", "D17"); /* one component alone */
    play(&s, "6h + 2s 8c = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 2, "6h 2s 8c");
    assert_components(&s, 0, "6h 2s | 8c");
    dl_State t = pos(&r, "hands=6h 9d / 9c; table=8c 2s");
    assert_refused(&t, "6h + 2s 8c = G8", "D14");
}

/* ---- example 8 (D16, D17) ---- */

static void test_example8_ace_raises_plain_8_and_groups_with_9(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Ah 9h / 8c 2d; table=P8@1(5c+3d) 9s");
    assert_true(legal(&s, "Ah + P8@1 = 9")); /* the plain raise alone */
    play(&s, "Ah + P8@1 9s = G9");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 9, 2, "Ah 5c 3d 9s");
    assert_components(&s, 0, "Ah 5c 3d | 9s");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
    assert_int_equal(s.loose, 0);
}

/* ---- example 9 (D17, D19, C7) ---- */

static void test_example9_owner_of_7_raises_5_into_group(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=4h 2s 7d Kc / 3c 5d Kd Qs; table=3h 2c");
    play(&s, "4h + 3h = 7");
    assert_decl(&s, 0, DL_DECL_PLAIN, 7, 1, "4h 3h");
    play(&s, "3c + 2c = 5");
    assert_decl(&s, 1, DL_DECL_PLAIN, 5, 1, "3c 2c");
    /* P1 may not raise the 5 as a plain raise (D19), nor lay */
    assert_refused(&s, "2s + P5@1 = 7", "D19");
    assert_refused(&s, "Kc lay", "D19");
    play(&s, "2s + P5@1 P7@0 = G7");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 7, 2, "4h 3h 3c 2c 2s");
    assert_components(&s, 0, "4h 3h | 3c 2c 2s");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
    assert_true(legal(&s, "Kd lay")); /* P2 owns nothing now */
}

/* ---- example 10 (D17, D19) ---- */

static void test_example10_owner_adds_six_to_own_plain_6(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=4h 6h 6s Kc / 9c Kd; table=2d");
    play(&s, "4h + 2d = 6");
    assert_decl(&s, 0, DL_DECL_PLAIN, 6, 1, "4h 2d");
    play(&s, "Kd lay");
    assert_refused(&s, "6h lay", "D19");
    play(&s, "6h + P6@0 = G6");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 6, 2, "4h 2d 6h");
    assert_components(&s, 0, "4h 2d | 6h");
}

/* ---- example 11 (D16, D17, D19, D11, D21): the long sequence ---- */

static void test_example11_long_sequence(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Ah 2h 7h 8d 8c / 4s 6c Ac Kd Kh; table=2c 3d 4h 8s");

    /* P1 plays A: group of 8s (A+3+4, 8) */
    play(&s, "Ah + 3d 4h 8s = G8");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 2, "Ah 3d 4h 8s");
    assert_components(&s, 0, "Ah 3d 4h | 8s");
    assert_set(s.loose, S("2c"), "table after move 1");

    /* P2 plays 4 on 2: plain 6 */
    play(&s, "4s + 2c = 6");
    assert_int_equal(s.ndecl, 2);
    assert_decl(&s, 1, DL_DECL_PLAIN, 6, 1, "2c 4s");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 2, "Ah 3d 4h 8s");
    assert_int_equal(s.loose, 0);

    /* P1 plays 2 on it: raised to 8 and added to the group */
    assert_refused(&s, "2h lay", "D19");
    assert_refused(&s, "2h + P6@1 = 8", "D19");
    play(&s, "2h + P6@1 G8@0 = G8");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 3, "Ah 3d 4h 8s 2c 4s 2h");
    assert_components(&s, 0, "Ah 3d 4h | 8s | 2c 4s 2h");
    assert_int_equal(dl_owned_decl(&s, 1), -1);

    /* P2 lays an A */
    play(&s, "Ac lay");
    assert_set(s.loose, S("Ac"), "table after move 4");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 3, "Ah 3d 4h 8s 2c 4s 2h");

    /* P1 plays 7 with that A into the group */
    play(&s, "7h + Ac G8@0 = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 4, "Ah 3d 4h 8s 2c 4s 2h 7h Ac");
    assert_components(&s, 0, "Ah 3d 4h | 8s | 2c 4s 2h | 7h Ac");
    assert_int_equal(s.loose, 0);

    /* P2 lays a K (it leaves the group alone) */
    play(&s, "Kd lay");

    /* P1 adds an 8 */
    play(&s, "8d + G8@0 = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 5, "Ah 3d 4h 8s 2c 4s 2h 7h Ac 8d");
    assert_components(&s, 0, "Ah 3d 4h | 8s | 2c 4s 2h | 7h Ac | 8d");
    assert_int_equal(dl_count(decl_of(&s, 0)->cards), 10);

    /* P2 takes its K back */
    play(&s, "Kh x Kd");
    assert_int_equal(s.loose, 0);
    assert_int_equal(s.ndecl, 1);

    /* P1 captures all ten cards with an 8: a xeri */
    dl_Effect e = play(&s, "8c x G8@0");
    assert_set(e.captured, S("Ah 3d 4h 8s 2c 4s 2h 7h Ac 8d 8c"), "captured");
    assert_int_equal(dl_count(e.captured), 11);
    assert_int_equal(s.ndecl, 0);
    assert_int_equal(s.loose, 0);
    assert_true(e.xeri);
    assert_int_equal(s.xeri[0], 1);
    assert_int_equal(s.last_capturer, 0);
}

/* ---- example 12 (D21, D19, D10): three xeri scenarios ---- */

static void test_example12a_taking_the_3_leaves_no_sweep(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h Kc / Ad 2d 4d 5h 6d 7d 8d 9d 10d; table=3c 5d 7s");
    dl_Effect e = play(&s, "3h x 3c");
    assert_false(e.xeri);
    assert_set(s.loose, S("5d 7s"), "table");
    /* 5 + 7 = 12: no single card of the opponent sweeps the table */
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(&s, &l);
    int captures = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (l.m[i].kind != DL_CAPTURE) continue;
        captures++;
        dl_State t = s;
        dl_Effect f;
        dl_apply(&t, &l.m[i], &f);
        assert_false(f.xeri);
        assert_true(t.loose != 0 || t.ndecl != 0);
    }
    dl_movelist_free(&l);
    assert_int_equal(captures, 2); /* 5h x 5d, 7d x 7s */
}

static void test_example12b_declarer_may_not_lay(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 3h Qh / 9c; table=5c 9d Js P8@0(2c+6d)");
    assert_refused(&s, "8h lay", "D19");
    assert_refused(&s, "3h lay", "D19");
    assert_refused(&s, "Qh lay", "D19");
    assert_int_equal(count_kind(&s, DL_LAY, -1), 0);
    assert_true(legal(&s, "8h x P8@0"));
    assert_true(legal(&s, "3h + 5c P8@0 = G8"));
    assert_int_equal(nmoves(&s), 2);
    dl_Effect e = play(&s, "8h x P8@0");
    assert_false(e.xeri);
    assert_set(s.loose, S("5c 9d Js"), "table");
}

static void test_example12c_jack_not_laid_onto_jack(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "ply=50; hands=Jh / 10h; table=10c Jd; last=0; pack=-");
    assert_refused(&s, "Jh lay", "D10");
    assert_int_equal(nmoves(&s), 1);
    dl_Effect e = play(&s, "Jh x Jd");
    assert_false(e.xeri);
    assert_set(s.loose, S("10c"), "table");
    /* the dealer's last card of the round sweeps: a xeri (D21) */
    e = play(&s, "10h x 10c");
    assert_true(e.xeri);
    assert_true(e.round_over);
    assert_int_equal(s.last.xeris[1], 1);
    assert_int_equal(s.last.xeris[0], 0);
}

/* ---- example 13 (D18, D11) ---- */

static void test_example13_group_of_9s_and_ace_not_taken_by_10(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=10h 9h / 9c; table=G9@1(4c+5d,9s) Ac");
    assert_refused(&s, "10h x G9@1 Ac", "D18");
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("10h")), 0);
    assert_true(legal(&s, "9h x G9@1"));
    assert_refused(&s, "9h x G9@1 Ac", "D11");
}

static void test_example13_one_9_takes_group_and_loose_9(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=9h 2h / 9c; table=G9@1(4c+5d,9s) 9d");
    dl_Effect e = play(&s, "9h x G9@1 9d");
    assert_set(e.captured, S("9h 4c 5d 9s 9d"), "captured");
    assert_true(e.xeri);
}

static void test_example13_one_9_takes_group_and_loose_4_5(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=9h 2h / 9c; table=G9@1(Ac+8d,9s) 4c 5d");
    dl_Effect e = play(&s, "9h x G9@1 4c 5d");
    assert_set(e.captured, S("9h Ac 8d 9s 4c 5d"), "captured");
    assert_true(e.xeri);
    assert_int_equal(s.ndecl, 0);
}

/* ---- example 14 (V-forced-capture, C1) ---- */

static void test_example14_forced_capture_must_be_maximal(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.forced_capture = true;
    dl_State s = pos(&r, "hands=9h 2c / 8c; table=Ac 3d 4h 5s 9d");
    assert_true(legal(&s, "9h x Ac 3d 5s 9d"));
    assert_true(legal(&s, "9h x 4h 5s 9d"));
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("9h")), 2);
    assert_refused(&s, "9h x Ac 3d 5s", "V-forced-capture");
    assert_refused(&s, "9h x 9d", "V-forced-capture");
    assert_refused(&s, "9h x 4h 5s", "V-forced-capture");
    assert_refused(&s, "9h lay", "V-forced-capture");
    /* without the variant the smaller captures are legal (D11) */
    dl_Rules base = diloti_rules();
    dl_State t = pos(&base, "hands=9h 2c / 8c; table=Ac 3d 4h 5s 9d");
    assert_true(legal(&t, "9h x Ac 3d 5s"));
    assert_true(legal(&t, "9h x 9d"));
    assert_int_equal(count_kind(&t, DL_CAPTURE, C("9h")), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example1_eight_takes_8_and_5_3_and_6_2),
        cmocka_unit_test(test_example2_plain_eight_from_3_on_5),
        cmocka_unit_test(test_example3_plain_ten_from_6_on_A_3),
        cmocka_unit_test(test_example4_raise_plain_4_with_5_to_9),
        cmocka_unit_test(test_example5_group_of_fives),
        cmocka_unit_test(test_example6_group_of_three_sixes),
        cmocka_unit_test(test_example7_six_on_2_with_8_group_of_eights),
        cmocka_unit_test(test_example8_ace_raises_plain_8_and_groups_with_9),
        cmocka_unit_test(test_example9_owner_of_7_raises_5_into_group),
        cmocka_unit_test(test_example10_owner_adds_six_to_own_plain_6),
        cmocka_unit_test(test_example11_long_sequence),
        cmocka_unit_test(test_example12a_taking_the_3_leaves_no_sweep),
        cmocka_unit_test(test_example12b_declarer_may_not_lay),
        cmocka_unit_test(test_example12c_jack_not_laid_onto_jack),
        cmocka_unit_test(test_example13_group_of_9s_and_ace_not_taken_by_10),
        cmocka_unit_test(test_example13_one_9_takes_group_and_loose_9),
        cmocka_unit_test(test_example13_one_9_takes_group_and_loose_4_5),
        cmocka_unit_test(test_example14_forced_capture_must_be_maximal),
    };
    return cmocka_run_group_tests_name("examples", tests, NULL, NULL);
}
