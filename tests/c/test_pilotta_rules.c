/* The rules of PILOTTA.md one by one (P1-P51) and every house rule
 * (PV-...): each test is named after the ids it checks. The last test
 * checks that every id has a test: it reads the Pilotta test sources and
 * looks for each id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/pltest.h"

enum { C, D, H, S };
#define PE1_HANDS "7h 10c 7s 7c 8h 9c 8c 9d / Qd As 10d Kh 9s Kd Ad 8s / 10s Ks Qs Qh Jd Ac 7d Jc / Ah Jh Kc Js Qc 9h 8d 10h"

static pl_State auction(const char *variants, int dealer)
{
    pl_Rules r = plrules(variants);
    pl_State s;
    assert_null(pl_new_match(&s, &r, 7, dealer));
    return s;
}

static pl_State pe18(const char *variants)
{
    pl_Rules r = plrules(variants);
    return plpos(&r, "dealer=3; calls=80c, 90d, pass, pass, 110c, pass, pass, pass; hands=" PE1_HANDS);
}

static void test_P1_four_players_only(void **state)
{
    (void)state;
    assert_null(pl_players_check(4));
    assert_string_equal(pl_players_check(3), "P1: Pilotta is played by exactly four players in two partnerships");
    assert_non_null(pl_players_check(2));
    pl_Rules r = plrules("");
    pl_State s;
    assert_non_null(strstr(pl_new_match(&s, &r, 1, 4), "P1"));
}

static void test_P2_P3_P13_seats_turns_and_eldest(void **state)
{
    (void)state;
    pl_State s = auction("", 2);
    assert_int_equal(pl_eldest(&s), 3);
    assert_int_equal(s.turn, 3); /* P13: the eldest calls first */
    plplay(&s, "pass");
    assert_int_equal(s.turn, 0); /* P2: anticlockwise, s+1 */
    assert_int_equal(pl_team(0), pl_team(2));
    assert_int_equal(pl_team(1), pl_team(3));
    assert_int_not_equal(pl_team(0), pl_team(1));
}

static void test_P4_cards_and_notation(void **state)
{
    (void)state;
    int len;
    const char *const names[] = {"7c", "10d", "Jh", "As"};
    for (int i = 0; i < 4; i++) {
        int c = pl_card_parse(names[i], &len);
        char back[8];
        assert_true(c >= 0);
        pl_card_str(c, back, false);
        assert_string_equal(back, names[i]);
    }
    assert_int_equal(pl_card_parse("6h", &len), -1);
    assert_int_equal(pl_card_parse("2c", &len), -1);
    assert_int_equal(pl_card_parse("J\u2665", &len), pl_card(PL_RJ, H));
    char u[8];
    pl_card_str(pl_card(PL_R10, S), u, true);
    assert_string_equal(u, "10\u2660");
}

static void test_P5_PC1_trick_orders(void **state)
{
    (void)state;
    const char *trump = "Js 9s As 10s Ks Qs 8s 7s", *plain = "Ah 10h Kh Qh Jh 9h 8h 7h";
    int t[8], p[8], len, k = 0;
    for (const char *q = trump; *q; q += *q == ' ') { t[k++] = pl_card_parse(q, &len); q += len; }
    k = 0;
    for (const char *q = plain; *q; q += *q == ' ') { p[k++] = pl_card_parse(q, &len); q += len; }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            assert_int_equal(pl_beating(PL_BIT(t[i]), t[j], S) != 0, i < j);
            assert_int_equal(pl_beating(PL_BIT(p[i]), p[j], S) != 0, i < j);
        }
}

static void test_P6_card_points(void **state)
{
    (void)state;
    assert_int_equal(pl_set_points(pl_suit_mask(H), H), 62);
    assert_int_equal(pl_set_points(pl_suit_mask(C), H), 30);
    assert_int_equal(pl_set_points(PL_DECK, S), 152);
    assert_int_equal(pl_points(pl_card(PL_RJ, H), H), 20);
    assert_int_equal(pl_points(pl_card(PL_R9, H), H), 14);
    assert_int_equal(pl_points(pl_card(PL_RJ, C), H), 2);
}

static void test_P7_P12_every_bid_names_a_suit(void **state)
{
    (void)state;
    pl_State s = auction("", 3);
    assert_non_null(strstr(plrefusal(&s, "90"), "P12"));
    assert_non_null(strstr(plrefusal(&s, "capot"), "P12"));
    assert_string_equal(plrefusal(&s, "90h"), "");
    assert_string_equal(plrefusal(&s, "capot s"), "");
    assert_string_equal(plrefusal(&s, "pass"), "");
    assert_pl_refused(&s, "contra", "P16");
    assert_pl_refused(&s, "recontra", "P17");
    assert_pl_refused(&s, "trump h", "P12");
    /* A no-trump or all-trump bid is named as P7's, not as a bad suit. */
    const char *nt[] = {"90 nt", "90nt", "9 NT", "90 sa", "capot nt", "100 at", "80 notrump", "90 no-trump",
                        "90 tout", "90 all"};
    for (size_t i = 0; i < sizeof nt / sizeof *nt; i++) assert_non_null(strstr(plrefusal(&s, nt[i]), "P7:"));
    assert_null(strstr(plrefusal(&s, "90 x"), "P7"));
}

static void test_P8_first_dealer(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State a, b;
    int seen = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        assert_null(pl_new_match(&a, &r, seed, -1));
        assert_null(pl_new_match(&b, &r, seed, -1));
        assert_int_equal(a.dealer, b.dealer);
        seen |= 1 << a.dealer;
    }
    assert_int_equal(seen, 15);
    assert_null(pl_new_match(&a, &r, 5, 2));
    assert_int_equal(a.dealer, 2);
}

static void test_P9_P11_deal_and_cut(void **state)
{
    (void)state;
    uint8_t pack[32];
    for (int i = 0; i < 32; i++) pack[i] = (uint8_t)i;
    pl_cut(pack, 5);
    assert_int_equal(pack[0], 5);
    assert_int_equal(pack[31], 4);
    pl_State s = auction("", 0);
    for (int i = 0; i < 4; i++) assert_int_equal(pl_count(s.hand[i]), 8); /* P11 */
    for (int i = 0; i < 32; i++) pack[i] = (uint8_t)i;
    pl_deal_pack(&s, pack);
    /* P9: the eldest (seat 1) gets 0-2, 12-13, 20-22 */
    assert_int_equal(s.hand[1], 0x7u | 0x3000u | 0x700000u);
    assert_int_equal(s.hand[0], 0xE00u | 0xC0000u | 0xE0000000u);
}

static void test_P10_P19_next_dealer(void **state)
{
    (void)state;
    pl_State s = auction("", 1);
    plplays(&s, "pass, pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_ROUND_OVER);
    assert_true(s.last.thrown_in); /* P19 */
    assert_pl_refused(&s, "pass", "P19");
    assert_true(pl_next_round(&s));
    assert_int_equal(s.dealer, 2);
    assert_int_equal(s.round, 2);
    s = auction("PV-deal-left", 1);
    plplays(&s, "pass, pass, pass, pass");
    assert_true(pl_next_round(&s));
    assert_int_equal(s.dealer, 0);
}

static void test_P14_bids(void **state)
{
    (void)state;
    pl_State s = auction("", 3);
    plplay(&s, "80h");
    assert_pl_refused(&s, "80s", "P14");
    plplay(&s, "90h"); /* another suit or the same: free */
    plplay(&s, "100c"); /* the partner outbids */
    plplay(&s, "pass");
    plplay(&s, "110d"); /* seat 0 outbids its own partner's and its own earlier bid */
    assert_pl_refused(&s, "170d", "P14");
    assert_non_null(strstr(plrefusal(&s, "105d"), "P14"));
    plplay(&s, "capot c");
    assert_pl_refused(&s, "capot d", "P14");
    assert_int_equal(s.bid, PL_CAPOT);
    assert_int_equal(s.bidder, 1);
}

static void test_P15_pass_is_not_final(void **state)
{
    (void)state;
    pl_State s = auction("", 3);
    plplays(&s, "pass, 80h, pass, pass, 90h");
    assert_int_equal(s.bidder, 0);
    s = auction("PV-pass-final", 3);
    plplays(&s, "pass, 80h, pass, pass");
    assert_pl_refused(&s, "90h", "PV-pass-final");
    plplays(&s, "contra"); /* still open to him */
    assert_int_equal(s.mult, 2);
}

static void test_P16_P17_P18_contra_recontra_and_end(void **state)
{
    (void)state;
    pl_State s = auction("", 3);
    assert_pl_refused(&s, "contra", "P16");
    plplays(&s, "80h, contra");
    assert_pl_refused(&s, "contra", "P16");
    assert_pl_refused(&s, "90s", "P16");
    assert_string_equal(plrefusal(&s, "recontra"), ""); /* seat 2: the bidder's partner */
    plplay(&s, "pass");
    assert_pl_refused(&s, "recontra", "P17"); /* seat 3: a defender */
    plplays(&s, "pass, recontra");
    assert_int_equal(s.phase, PL_PHASE_PLAY); /* P18 (c) */
    assert_int_equal(s.mult, 4);
    s = auction("", 3);
    plplays(&s, "80h, contra, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_AUCTION);
    plplay(&s, "pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY); /* P18 (b): three passes after the contra */
    assert_pl_refused(&s, "recontra", "P18");
    s = auction("", 3);
    plplays(&s, "80h, pass, pass, 90h, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_AUCTION);
    plplay(&s, "pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
}

static void test_P20_contract(void **state)
{
    (void)state;
    pl_State s = auction("", 3);
    plplays(&s, "pass, capot d, contra, pass, pass, pass");
    assert_int_equal(s.bidder, 1);
    assert_int_equal(s.bid_suit, D);
    assert_int_equal(s.mult, 2);
    assert_int_equal(s.bid, PL_CAPOT);
}

static void test_P21_P22_first_lead(void **state)
{
    (void)state;
    pl_State s = auction("", 3);
    plplays(&s, "pass, 80h, pass, pass, pass");
    assert_int_equal(s.turn, 0);
    assert_int_equal(pl_legal_cards(&s), s.hand[0]); /* P22 */
    s = auction("PV-declarer-leads", 3);
    plplays(&s, "pass, 80h, pass, pass, pass");
    assert_int_equal(s.turn, 1);
}

static void test_P23_P24_P25_P26_P27_P28_P29_legal_cards(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 0, "10s Js", "As 7s Jh 9h 8c");
    assert_pl_refused(&s, "Jh", "P23");
    s = plbare(&r, H, 0, "8d", "Ad 7d 9c");
    assert_string_equal(plcards(&s), "7d Ad"); /* P28 */
    s = plbare(&r, S, 3, "10s 9s", "Qs Js Kh");
    assert_string_equal(plcards(&s), "Js"); /* P24 */
    s = plbare(&r, S, 3, "10s Js", "Qs 9s Kh");
    assert_string_equal(plcards(&s), "9s Qs");
    s = plbare(&r, H, 1, "Kd 10h", "9h Qh 7h As");
    assert_pl_refused(&s, "As", "P25");
    s = plbare(&r, H, 1, "Kd", "Ks Qs 7c");
    assert_string_equal(plcards(&s), "7c Qs Ks"); /* P26 */
    s = plbare(&r, H, 1, "7s 10h 8s", "Ah 7h Kd");
    assert_pl_refused(&s, "Kd", "P27");
    s = plbare(&r, H, 0, "8d 7h Ad Kd", "");
    assert_int_equal(pl_trick_winner(&s, 1), 1); /* P29 */
    s = plbare(&r, H, 0, "8d 7c Ad Kd", "");
    assert_int_equal(pl_trick_winner(&s, 1), 2);
}

static void test_P30_P31_P32_trick_points(void **state)
{
    (void)state;
    pl_State s = pe18("");
    plplays(&s, "9c, 8s, Jc, Qc");
    assert_int_equal(s.trick_points[0], 37); /* P30 */
    pl_RoundScore o = plround(0, 80, 1, 250, 0, 8, 0, 0, 0, 0);
    pl_Rules r = plrules("");
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 330); /* P32 */
    pl_ActionList l;
    while (pl_legal(&s, &l)) pl_apply_legal(&s, &l.a[l.n - 1]);
    int t = s.last.trick_points[0] + s.last.trick_points[1];
    assert_true(t == 162 || t == 250); /* P31 */
}

static void test_P33_P34_declarations(void **state)
{
    (void)state;
    pl_Decl d;
    assert_true(pl_decl_classify(plset("7c 8c 9c"), &d));
    assert_int_equal(d.value, 20);
    assert_true(pl_decl_classify(plset("7c 8c 9c 10c"), &d));
    assert_int_equal(d.value, 50);
    assert_true(pl_decl_classify(plset("7c 8c 9c 10c Jc Qc Kc Ac"), &d));
    assert_int_equal(d.value, 100);
    assert_true(pl_decl_classify(plset("Jc Jd Jh Js"), &d));
    assert_int_equal(d.value, 200);
    assert_true(pl_decl_classify(plset("9c 9d 9h 9s"), &d));
    assert_int_equal(d.value, 150);
    assert_true(pl_decl_classify(plset("Qc Qd Qh Qs"), &d));
    assert_int_equal(d.value, 100);
    assert_false(pl_decl_classify(plset("8c 8d 8h 8s"), &d));
    assert_false(pl_decl_classify(plset("7c 8c 10c"), &d));
    assert_false(pl_decl_classify(plset("7c 8c 9d"), &d));
    pl_Rules r = plrules("");
    /* P34: the run through a used four's card is lost; choosing the run first refuses the four. */
    pl_State s = plpos(&r, "dealer=3; calls=80c, pass, pass, pass; hands=Jc Jd Jh Js 9h 10h Qh Kh / ?8 / ?8 / ?8");
    plplay(&s, "announce 9h 10h Jh Qh Kh");
    assert_pl_refused(&s, "announce Jc Jd Jh Js", "P35");
    r = plrules("PV-decl-overlap");
    s = plpos(&r, "dealer=3; calls=80c, pass, pass, pass; hands=Jc Jd Jh Js 9h 10h Qh Kh / ?8 / ?8 / ?8");
    plplays(&s, "announce 9h 10h Jh Qh Kh, announce Jc Jd Jh Js");
    assert_int_equal(s.ndecl, 2);
}

static void test_P35_P40_announcing(void **state)
{
    (void)state;
    pl_State s = pe18("");
    assert_pl_refused(&s, "announce 7c 8c 9c", "P35"); /* part of a run */
    assert_pl_refused(&s, "announce 7c 8c 9c 10c Jc", "P35"); /* not held */
    assert_pl_refused(&s, "announce 7h 8h", "P33");
    plplay(&s, "announce 7c 8c 9c 10c");
    assert_pl_refused(&s, "announce 7c 8c 9c 10c", "P35");
    assert_int_equal(s.turn, 0); /* P40: still his turn */
    plplays(&s, "9c, 8s, Jc, Qc");
    assert_pl_refused(&s, "announce Ac Kc Qc", "P35"); /* trick 2: too late */
    assert_int_equal(s.standing, 0);
}

static void test_P36_P37_comparing_and_counting(void **state)
{
    (void)state;
    pl_State s = pe18("");
    plplays(&s, "announce 7c 8c 9c 10c, 9c, announce Qd Kd Ad, 8s, Jc, announce 9h 10h Jh, Qc");
    assert_int_equal(s.standing, 0); /* P36: 50 beats 20 */
    plplays(&s, "Ac, Kc, show");
    int d[2];
    pl_counted_declarations(&s, d);
    assert_int_equal(d[0], 50); /* P37: all of the standing team's */
    assert_int_equal(d[1], 0);
    s = pe18("");
    plplays(&s, "9c, announce Qd Kd Ad, 8s, Jc, Qc");
    assert_int_equal(s.standing, 1); /* only one team announced: it stands */
}

static void test_P38_showing(void **state)
{
    (void)state;
    pl_State s = pe18("");
    plplays(&s, "announce 7c 8c 9c 10c, 9c, announce Qd Kd Ad, 8s, Jc, Qc");
    assert_pl_refused(&s, "show", "P38"); /* seat 2 announced nothing */
    plplays(&s, "Ac, Kc");
    assert_string_equal(plrefusal(&s, "show 7c 8c 9c 10c"), "");
    assert_false(pl_decl_lost(&s, 0)); /* still time to show */
    plplays(&s, "10c"); /* without showing: lost */
    int d[2];
    pl_counted_declarations(&s, d);
    assert_int_equal(d[0], 0);
    assert_int_equal(s.decl[0].shown, 0);
    assert_true(pl_decl_lost(&s, 0));
    assert_false(pl_decl_lost(&s, 1)); /* the other team's: it never stood */
    pl_View v;
    pl_view(&s, 1, &v);
    assert_int_equal(v.decl[0].lost, 1); /* public: everyone saw it not shown */
    pl_State t = pe18("");
    plplays(&t, "9c, announce Qd Kd Ad, 8s, Jc, announce 9h 10h Jh, Qc, Ac");
    /* team B stands; seat 3 shows in turn, and nobody of team A may */
    plplays(&t, "show, Kc");
    assert_pl_refused(&t, "show", "P38");
}

static void test_P39_belote(void **state)
{
    (void)state;
    pl_State s = pe18("");
    plplays(&s, "9c, 8s, Jc");
    pl_ActionList l;
    pl_legal(&s, &l);
    assert_string_equal(pllegal(&s), "Kc belote | Kc nobelote | Qc belote | Qc nobelote | announce 9h 10h Jh");
    plplay(&s, "Qc"); /* on by default */
    assert_int_equal(s.belote, 3);
    s = pe18("");
    plplays(&s, "9c, 8s, Jc, Qc nobelote, Ac");
    assert_int_equal(s.belote, -1);
    assert_string_equal(pllegal(&s), "Kc"); /* the second: no flag */
    plplay(&s, "Kc belote");                /* ignored */
    assert_int_equal(s.belote, -1);
    /* P39: the belote stays with a failed side (PE20) */
    pl_RoundScore o = plround(1, 120, 1, 88, 74, 4, 50, 0, 0, 20);
    pl_Rules r = plrules("");
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[1], 20);
}

static void test_P41_P42_made_or_failed(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_RoundScore o = plround(0, 110, 1, 100, 62, 5, 0, 0, 0, 0);
    pl_score_breakdown(&r, &o, 0);
    assert_false(o.made);
    o = plround(0, 110, 1, 90, 72, 5, 0, 0, 20, 0);
    pl_score_breakdown(&r, &o, 0);
    assert_true(o.made); /* 90 + 20 = 110: exactly V is enough */
    o = plround(0, 80, 1, 0, 162, 0, 200, 0, 20, 0);
    o.tricks[0] = 1, o.tricks[1] = 7; /* no trick: cannot make */
    o.trick_points[0] = 0;
    pl_score_breakdown(&r, &o, 0);
    assert_true(o.made);
    o = plround(0, 80, 1, 0, 162, 0, 200, 0, 0, 0);
    o.tricks[0] = 0, o.tricks[1] = 7;
    pl_score_breakdown(&r, &o, 0);
    assert_false(o.made);
}

static void test_P43_P44_P45_scoring(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_RoundScore o = plround(0, 80, 1, 100, 62, 5, 0, 0, 0, 20);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 180); /* P43 */
    assert_int_equal(o.raw[1], 82);
    o = plround(0, 150, 1, 100, 62, 5, 20, 0, 20, 0);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 20); /* P44 */
    assert_int_equal(o.raw[1], 162 + 20 + 150);
    o = plround(0, 150, 2, 100, 62, 5, 20, 0, 20, 20);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 20); /* P45 */
    assert_int_equal(o.raw[1], 162 + 20 + 300 + 20);
}

static void test_P46_rounding(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    int raw[2] = {166, 76}, tp[2] = {86, 76}, g[2];
    pl_game_points(&r, raw, tp, 1, g);
    assert_int_equal(g[0], 16);
    assert_int_equal(g[1], 8);
    raw[0] = 167, raw[1] = 75;
    pl_game_points(&r, raw, tp, 1, g);
    assert_int_equal(g[0], 17);
    assert_int_equal(g[1], 7);
}

static void test_P48_P49_match(void **state)
{
    (void)state;
    pl_State s = auction("PV-target=151", 0);
    int rounds = 0;
    dl_Rng rng;
    dl_rng_seed(&rng, 3);
    while (s.phase != PL_PHASE_MATCH_OVER && rounds < 500) {
        int32_t before[2] = {s.score[0], s.score[1]};
        pl_ActionList l;
        while (pl_legal(&s, &l)) pl_apply_legal(&s, &l.a[dl_rng_below(&rng, (uint32_t)l.n)]);
        if (s.last.thrown_in) assert_int_equal(s.score[0] + s.score[1], before[0] + before[1]); /* P48 */
        else assert_int_equal(s.score[0] - before[0], s.last.game[0]);
        rounds++;
        if (s.phase == PL_PHASE_ROUND_OVER) {
            assert_true(s.score[0] < 151 && s.score[1] < 151 ? true : s.score[0] == s.score[1]);
            pl_next_round(&s);
        }
    }
    assert_int_equal(s.phase, PL_PHASE_MATCH_OVER);
    assert_true(s.score[s.winner] >= 151 && s.score[s.winner] > s.score[1 - s.winner]); /* P49 */
    assert_pl_refused(&s, "pass", "P49");
}

static void test_P51_refusals_leave_the_state(void **state)
{
    (void)state;
    pl_State s = pe18("");
    assert_pl_refused(&s, "Jc", "P51"); /* not held */
    assert_pl_refused(&s, "pass", "P18");
    pl_Action bogus = {0, 99, 0, -1, 0, 0};
    char why[200];
    pl_State before = s;
    assert_non_null(pl_apply(&s, &bogus, why, sizeof why));
    assert_memory_equal(&before, &s, sizeof s);
    assert_true(strncmp(why, "P51:", 4) == 0);
}

/* ---- house rules ---- */

static void test_PV_suit_after_auction(void **state)
{
    (void)state;
    pl_State s = auction("PV-suit-after-auction", 3);
    assert_pl_refused(&s, "90h", "PV-suit-after-auction");
    plplays(&s, "90, pass, pass");
    assert_pl_refused(&s, "trump h", "PV-suit-after-auction");
    plplay(&s, "pass");
    assert_int_equal(s.phase, PL_PHASE_TRUMP);
    assert_int_equal(s.turn, 0);
    assert_pl_refused(&s, "pass", "PV-suit-after-auction");
    plplay(&s, "trump s");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.bid_suit, S);
}

static void test_PV_high_bids(void **state)
{
    (void)state;
    pl_State s = auction("PV-high-bids", 3);
    plplays(&s, "240h");
    assert_non_null(strstr(plrefusal(&s, "250h"), "P14"));
    plplay(&s, "capot s");
}

static void test_PV_contra_after_auction(void **state)
{
    (void)state;
    pl_State s = auction("PV-contra-after-auction", 3);
    plplay(&s, "80h");
    assert_pl_refused(&s, "contra", "PV-contra-after-auction");
    plplays(&s, "pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_CONTRA);
    assert_int_equal(s.turn, 1);
    assert_pl_refused(&s, "90h", "PV-contra-after-auction");
    assert_pl_refused(&s, "recontra", "P17");
    plplay(&s, "pass");
    assert_int_equal(s.turn, 3);
    plplay(&s, "contra");
    assert_int_equal(s.turn, 0); /* the bidders after the contra */
    plplay(&s, "pass");
    assert_int_equal(s.turn, 2);
    plplay(&s, "recontra");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.mult, 4);
    s = auction("PV-contra-after-auction", 3);
    plplays(&s, "80h, pass, pass, pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.mult, 1);
}

static void test_PV_deal_left_declarer_leads_pass_final(void **state)
{
    (void)state;
    pl_State s = auction("PV-deal-left PV-declarer-leads PV-pass-final", 0);
    plplays(&s, "pass, pass, 90d, pass");
    assert_pl_refused(&s, "100d", "PV-pass-final");
    plplays(&s, "pass, pass");
    assert_int_equal(s.turn, 3); /* PV-declarer-leads */
}

static void test_PV_partner_exempt_and_must_head(void **state)
{
    (void)state;
    pl_Rules r = plrules("PV-partner-exempt");
    pl_State s = plbare(&r, H, 0, "As 7s", "8h Ah Kd 7c");
    assert_string_equal(plcards(&s), "7c Kd 8h Ah");
    s = plbare(&r, H, 0, "9h 7h", "Jh 8h Kd");
    assert_string_equal(plcards(&s), "Jh"); /* trump leads unchanged */
    r = plrules("PV-must-head");
    s = plbare(&r, H, 0, "Kd 7h", "Ad 7d");
    assert_string_equal(plcards(&s), "7d Ad"); /* trumped: no duty */
}

static void test_PV_decl_overlap_and_100_tie(void **state)
{
    (void)state;
    pl_Rules o = plrules("PV-decl-overlap"), t = plrules("PV-decl-100-tie");
    assert_int_equal(pl_best_declarations(plset("Qc Qd Qh Qs Jh Kh Ah 7c"), &o), 150);
    pl_Decl a = {plset("Qc Qd Qh Qs"), 0, 0, 0, 1}, b = {plset("7c 8c 9c 10c Jc"), 1, 0, 0, 1};
    pl_decl_classify(a.cards, &a);
    pl_decl_classify(b.cards, &b);
    assert_int_equal(pl_decl_cmp(&a, &b, H, &t), 0);
}

static void test_PV_scoring_rules(void **state)
{
    (void)state;
    pl_RoundScore base = plround(0, 150, 1, 100, 62, 5, 20, 0, 20, 20), o;
    pl_Rules r = plrules("PV-fail-keeps-declarations");
    o = base;
    pl_score_breakdown(&r, &o, 0);
    assert_false(o.made);
    assert_int_equal(o.raw[0], 40);
    assert_int_equal(o.raw[1], 162 + 150 + 20);
    r = plrules("PV-double-all");
    o = plround(0, 80, 2, 100, 62, 5, 20, 0, 20, 20);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 2 * (100 + 20 + 20 + 80));
    assert_int_equal(o.raw[1], 20);
    r = plrules("PV-belote-transfers");
    o = plround(0, 80, 2, 100, 62, 5, 20, 0, 20, 20);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 162 + 20 + 160 + 40);
    assert_int_equal(o.raw[1], 0);
    r = plrules("PV-no-contract-bonus");
    o = plround(0, 80, 1, 100, 62, 5, 0, 0, 0, 0);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[0], 100);
    r = plrules("PV-swept-keeps-declarations");
    o = plround(0, 90, 1, 250, 0, 8, 0, 150, 0, 0);
    pl_score_breakdown(&r, &o, 0);
    assert_int_equal(o.raw[1], 150);
}

static void test_PV_round_7_round_5_raw_points_target(void **state)
{
    (void)state;
    int raw[2] = {166, 76}, tp[2] = {86, 76}, g[2];
    pl_Rules r = plrules("PV-round-7");
    pl_game_points(&r, raw, tp, 0, g);
    assert_int_equal(g[0] + g[1], 23);
    r = plrules("PV-round-5");
    int raw5[2] = {165, 77}, tp5[2] = {85, 77};
    pl_game_points(&r, raw5, tp5, 1, g);
    assert_int_equal(g[0], 17); /* more trick points rounds up */
    assert_int_equal(g[1], 7);
    r = plrules("PV-raw-points PV-target=151");
    pl_game_points(&r, raw, tp, 0, g);
    assert_int_equal(g[0], 166);
    assert_int_equal(pl_target_points(&r), 1510);
    assert_null(pl_rules_check(&r));
    r.target = 0;
    assert_non_null(strstr(pl_rules_check(&r), "PV-target=N"));
}

/* ---- every id has a test ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) len = 0;
    if (b) b[len] = '\0';
    fclose(f);
    return b;
}

/* Comments blanked out: an id counts only in code (a test's name, a
 * string it asserts with), never in a remark. */
static void strip_comments(char *t)
{
    for (char *p = strstr(t, "/*"); p; p = strstr(p, "/*")) {
        char *end = strstr(p + 2, "*/");
        char *stop = end ? end + 2 : p + strlen(p);
        memset(p, ' ', (size_t)(stop - p));
        p = stop;
    }
}

/* id as a whole word; "PV-deal-left" also as PV_deal_left in a name. */
static bool mentions(const char *text, const char *id)
{
    char alt[64];
    snprintf(alt, sizeof alt, "%s", id);
    for (char *p = alt; *p; p++)
        if (*p == '-' || *p == '=') *p = '_';
    const char *forms[2] = {id, alt};
    for (int f = 0; f < 2; f++) {
        size_t n = strlen(forms[f]);
        for (const char *p = strstr(text, forms[f]); p; p = strstr(p + 1, forms[f])) {
            char after = p[n];
            bool digit_after = after >= '0' && after <= '9';
            bool ends = strcmp(forms[f] + n - 1, "=") == 0 || forms[f][n - 1] == '_';
            if (!digit_after || ends) return true;
        }
    }
    return false;
}

static void test_every_rule_id_has_a_test(void **state)
{
    (void)state;
    const char *const files[] = {"tests/c/test_pilotta_rules.c", "tests/c/test_pilotta_examples.c",
                                 "tests/c/test_pilotta_crosscheck.c", "tests/c/test_pilotta_soak.c",
                                 "tests/c/test_pilotta_view.c", "tests/c/test_pilotta_perft.c",
                                 "tests/c/test_pilotta_notation.c"};
    size_t total = 1;
    char *all = calloc(1, 1);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *t = slurp(files[i]);
        if (!t) fail_msg("cannot read %s (run from the top directory)", files[i]);
        strip_comments(t);
        total += strlen(t) + 1;
        all = realloc(all, total);
        strcat(all, t);
        strcat(all, "\n");
        free(t);
    }
    char id[64], missing[1024] = "";
    for (int k = 1; k <= 51; k++) {
        snprintf(id, sizeof id, "P%d", k);
        if (!mentions(all, id)) strcat(missing, " "), strcat(missing, id);
    }
    for (int k = 1; k <= 31; k++) {
        snprintf(id, sizeof id, "PE%d", k);
        if (!mentions(all, id)) strcat(missing, " "), strcat(missing, id);
    }
    for (int i = 0; i < pl_nvariants; i++)
        if (!mentions(all, pl_variants[i].name)) strcat(missing, " "), strcat(missing, pl_variants[i].name);
    const char *const more[] = {"PV-round-7", "PV-round-5", "PV-raw-points", "PV-target="};
    for (int i = 0; i < 4; i++)
        if (!mentions(all, more[i])) strcat(missing, " "), strcat(missing, more[i]);
    free(all);
    if (missing[0]) fail_msg("ids without a test:%s", missing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_P1_four_players_only),
        cmocka_unit_test(test_P2_P3_P13_seats_turns_and_eldest),
        cmocka_unit_test(test_P4_cards_and_notation),
        cmocka_unit_test(test_P5_PC1_trick_orders),
        cmocka_unit_test(test_P6_card_points),
        cmocka_unit_test(test_P7_P12_every_bid_names_a_suit),
        cmocka_unit_test(test_P8_first_dealer),
        cmocka_unit_test(test_P9_P11_deal_and_cut),
        cmocka_unit_test(test_P10_P19_next_dealer),
        cmocka_unit_test(test_P14_bids),
        cmocka_unit_test(test_P15_pass_is_not_final),
        cmocka_unit_test(test_P16_P17_P18_contra_recontra_and_end),
        cmocka_unit_test(test_P20_contract),
        cmocka_unit_test(test_P21_P22_first_lead),
        cmocka_unit_test(test_P23_P24_P25_P26_P27_P28_P29_legal_cards),
        cmocka_unit_test(test_P30_P31_P32_trick_points),
        cmocka_unit_test(test_P33_P34_declarations),
        cmocka_unit_test(test_P35_P40_announcing),
        cmocka_unit_test(test_P36_P37_comparing_and_counting),
        cmocka_unit_test(test_P38_showing),
        cmocka_unit_test(test_P39_belote),
        cmocka_unit_test(test_P41_P42_made_or_failed),
        cmocka_unit_test(test_P43_P44_P45_scoring),
        cmocka_unit_test(test_P46_rounding),
        cmocka_unit_test(test_P48_P49_match),
        cmocka_unit_test(test_P51_refusals_leave_the_state),
        cmocka_unit_test(test_PV_suit_after_auction),
        cmocka_unit_test(test_PV_high_bids),
        cmocka_unit_test(test_PV_contra_after_auction),
        cmocka_unit_test(test_PV_deal_left_declarer_leads_pass_final),
        cmocka_unit_test(test_PV_partner_exempt_and_must_head),
        cmocka_unit_test(test_PV_decl_overlap_and_100_tie),
        cmocka_unit_test(test_PV_scoring_rules),
        cmocka_unit_test(test_PV_round_7_round_5_raw_points_target),
        cmocka_unit_test(test_every_rule_id_has_a_test),
    };
    return cmocka_run_group_tests_name("pilotta rules", tests, NULL, NULL);
}
