/* The worked examples PE1-PE31 of PILOTTA.md, one test each, named after
 * the example. */
#include <stdio.h>
#include <string.h>

#include "pilotta/pltest.h"

enum { C, D, H, S };

static const char *const PE1_PACK = "7h 10c 7s Qd As 10d 10s Ks Qs Ah Jh Kc 7c 8h Kh 9s Qh Jd Js Qc 9c 8c 9d "
                                    "Kd Ad 8s Ac 7d Jc 9h 8d 10h";

static pl_State pe1_deal(const pl_Rules *r)
{
    pl_State s;
    uint8_t pack[PL_NCARDS];
    int n = 0, len;
    for (const char *p = PE1_PACK; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        pack[n++] = (uint8_t)pl_card_parse(p, &len);
        p += len;
    }
    assert_int_equal(n, 32);
    assert_null(pl_new_match(&s, r, 1, 3));
    pl_deal_pack(&s, pack);
    return s;
}

static void assert_hand(const pl_State *s, int seat, const char *cards)
{
    if (s->hand[seat] != plset(cards)) {
        char b[160];
        pl_set_str(s->hand[seat], b, sizeof b, false);
        fail_msg("seat %d holds %s, expected %s", seat, b, cards);
    }
}

static void test_PE1_deal_in_packets(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    assert_hand(&s, 0, "7h 10c 7s 7c 8h 9c 8c 9d");
    assert_hand(&s, 1, "Qd As 10d Kh 9s Kd Ad 8s");
    assert_hand(&s, 2, "10s Ks Qs Qh Jd Ac 7d Jc");
    assert_hand(&s, 3, "Ah Jh Kc Js Qc 9h 8d 10h");
    assert_int_equal(s.turn, 0); /* the eldest calls first */
}

static void test_PE2_auction_to_110_clubs(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    plplays(&s, "80c, 90d, pass, pass, 110c, pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.bidder, 0);
    assert_int_equal(s.bid, 11);
    assert_int_equal(s.bid_suit, C);
    assert_int_equal(s.mult, 1);
}

static void test_PE3_pass_then_bid(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    plplays(&s, "pass, 80h, pass, 90s");
    assert_int_equal(s.phase, PL_PHASE_AUCTION);
    assert_int_equal(s.turn, 0);
    pl_State again = s;
    plplays(&s, "100h, pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.bidder, 0);
    assert_int_equal(s.bid, 10);
    assert_int_equal(s.bid_suit, H);
    again.rules = plrules("PV-pass-final");
    assert_pl_refused(&again, "100h", "PV-pass-final");
    assert_string_equal(plrefusal(&again, "pass"), "");
}

static void test_PE4_contra_recontra(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    s.dealer = 0, s.turn = 1;
    pl_State start = s;
    plplays(&s, "90d, contra");
    assert_pl_refused(&s, "100h", "P16");
    plplay(&s, "recontra");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.bidder, 1);
    assert_int_equal(s.bid, 9);
    assert_int_equal(s.bid_suit, D);
    assert_int_equal(s.mult, 4);
    assert_pl_refused(&s, "pass", "P18");

    s = start;
    plplays(&s, "90d, pass");
    assert_pl_refused(&s, "contra", "P16"); /* seat 3, the bidder's partner */
    s = start;
    plplays(&s, "90d, contra, pass");
    assert_pl_refused(&s, "recontra", "P17"); /* seat 0, a defender */
    s = start;
    plplays(&s, "90d, contra, pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.mult, 2);
}

static void test_PE5_all_pass_thrown_in(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    s.dealer = 2, s.turn = 3;
    plplays(&s, "pass, pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_ROUND_OVER);
    assert_true(s.last.thrown_in);
    assert_int_equal(s.score[0] + s.score[1], 0);
    assert_true(pl_next_round(&s));
    assert_int_equal(s.dealer, 3);
}

static void test_PE6_capot_bid(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    plplay(&s, "160h");
    assert_pl_refused(&s, "170h", "P14");
    pl_State high = s;
    high.rules = plrules("PV-high-bids");
    assert_string_equal(plrefusal(&high, "170h"), "");
    assert_non_null(strstr(plrefusal(&s, "85h"), "P14"));
    pl_State low = pe1_deal(&r);
    plplay(&low, "90h");
    assert_pl_refused(&low, "90s", "P14");
    plplay(&s, "capot s");
    assert_pl_refused(&s, "capot h", "P14");
    plplays(&s, "pass, pass, pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    assert_int_equal(s.bidder, 1);
    assert_int_equal(s.bid, PL_CAPOT);
    assert_int_equal(s.bid_suit, S);
}

static void test_PE7_follow_no_duty_to_beat(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 0, "10s Js", "As 7s Jh 9h 8c");
    assert_string_equal(plcards(&s), "7s As");
}

static void test_PE8_partner_winning_must_trump(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 0, "As 7s", "8h Ah Kd 7c");
    assert_string_equal(plcards(&s), "8h Ah");
    r = plrules("PV-partner-exempt");
    s = plbare(&r, H, 0, "As 7s", "8h Ah Kd 7c");
    assert_string_equal(plcards(&s), "7c Kd 8h Ah");
}

static void test_PE9_overtrump(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 1, "Kd 10h", "9h Qh 7h As");
    assert_string_equal(plcards(&s), "9h");
    assert_pl_refused(&s, "Qh", "P25");
    assert_pl_refused(&s, "As", "P25");
}

static void test_PE10_undertrump_compulsory(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 1, "Kd Jh", "9h 7h As Ks");
    assert_string_equal(plcards(&s), "7h 9h");
    assert_pl_refused(&s, "As", "P25");
}

static void test_PE11_follow_before_trumping(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 0, "8d 7h", "Ad 9h Jh Kc");
    assert_string_equal(plcards(&s), "Ad");
    assert_pl_refused(&s, "Jh", "P23");
    pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)pl_card(PL_RA, D), 0};
    pl_play_apply(&s, &a);
    assert_int_equal(pl_trick_winner(&s, 1), 1);
}

static void test_PE12_trump_lead(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, S, 3, "10s", "Qs As 9s Kh");
    assert_string_equal(plcards(&s), "9s As");
    assert_pl_refused(&s, "Qs", "P24");
    s = plbare(&r, S, 3, "10s", "Qs 8s Kh");
    assert_string_equal(plcards(&s), "8s Qs");
    s = plbare(&r, S, 3, "10s", "Kh Ad");
    assert_string_equal(plcards(&s), "Ad Kh");
}

static void test_PE13_overtrump_partner(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 1, "7s 10h 8s", "Ah 7h Kd");
    assert_string_equal(plcards(&s), "Ah");
    assert_pl_refused(&s, "7h", "P27");
    r = plrules("PV-partner-exempt");
    s = plbare(&r, H, 1, "7s 10h 8s", "Ah 7h Kd");
    assert_string_equal(plcards(&s), "Kd 7h Ah");
}

static void test_PE14_trick_winners_and_points(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, C, 2, "Qh Ah As 10h", "");
    assert_int_equal(pl_trick_winner(&s, 1), 3);
    assert_int_equal(pl_set_points(plset("Qh Ah As 10h"), C), 35);
    s = plbare(&r, D, 1, "Ad 9d 7d Jd", "");
    assert_int_equal(pl_trick_winner(&s, 1), 0);
    assert_int_equal(pl_set_points(plset("Ad 9d 7d Jd"), D), 45);
    s = plbare(&r, H, 0, "8d 7h Ad Kd", "");
    assert_int_equal(pl_trick_winner(&s, 1), 1);
    assert_int_equal(pl_set_points(plset("8d 7h Ad Kd"), H), 15);
}

static void test_PE15_must_head(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plbare(&r, H, 0, "Kd", "Ad 7d 9c");
    assert_string_equal(plcards(&s), "7d Ad");
    r = plrules("PV-must-head");
    s = plbare(&r, H, 0, "Kd", "Ad 7d 9c");
    assert_string_equal(plcards(&s), "Ad");
    assert_pl_refused(&s, "7d", "PV-must-head");
}

static void test_PE16_best_declarations(void **state)
{
    (void)state;
    pl_Rules r = plrules(""), o = plrules("PV-decl-overlap");
    assert_int_equal(pl_best_declarations(plset("7h 8h 9h 10h Jh Qh Kh Ah"), &r), 100);
    assert_int_equal(pl_best_declarations(plset("Jc Jd Jh Js 9h 10h Qh Kh"), &r), 200);
    assert_int_equal(pl_best_declarations(plset("Jc Jd Jh Js 9h 10h Qh Kh"), &o), 300);
    assert_int_equal(pl_best_declarations(plset("Qc Qd Qh Qs Jh Kh Ah 7c"), &r), 100);
    assert_int_equal(pl_best_declarations(plset("Qc Qd Qh Qs Jh Kh Ah 7c"), &o), 150);
    assert_int_equal(pl_best_declarations(plset("7c 7d 7h 7s 8c 8d 8h 8s"), &r), 0);
    /* P35: the announcements follow the same choice. */
    pl_State s = plpos(&r, "dealer=3; calls=80c, pass, pass, pass; hands=Jc Jd Jh Js 9h 10h Qh Kh / ?8 / ?8 / ?8");
    assert_string_equal(plrefusal(&s, "announce 9h 10h Jh Qh Kh"), "");
    plplay(&s, "announce Jc Jd Jh Js");
    assert_pl_refused(&s, "announce 9h 10h Jh Qh Kh", "P35");
    assert_pl_refused(&s, "announce 9h 10h", "P33");
    assert_pl_refused(&s, "announce 7c 7d 7h 7s", "P35");
}

static pl_Decl decl(int seat, const char *cards)
{
    pl_Decl d = {plset(cards), (uint8_t)seat, 0, 0, 1};
    assert_true(pl_decl_classify(d.cards, &d));
    return d;
}

static int standing(const pl_Rules *r, int trump, pl_Decl a, pl_Decl b, pl_Decl c, int n)
{
    pl_State s;
    pl_state_blank(&s, r);
    s.bid_suit = (int8_t)trump;
    s.decl[0] = a, s.decl[1] = b, s.decl[2] = c;
    s.ndecl = (uint8_t)n;
    return pl_standing(&s);
}

static int cmp(const pl_Rules *r, int trump, const char *a, const char *b)
{
    pl_Decl x = decl(0, a), y = decl(1, b);
    return pl_decl_cmp(&x, &y, trump, r);
}

static void test_PE17_comparing_declarations(void **state)
{
    (void)state;
    pl_Rules r = plrules(""), tie = plrules("PV-decl-100-tie");
    pl_Decl a = decl(0, "8c 9c 10c"), b = decl(1, "Qs Ks As"), c = decl(3, "7d 8d 9d");
    assert_int_equal(standing(&r, H, a, b, c, 3), 1);
    pl_State s;
    pl_state_blank(&s, &r);
    s.decl[0] = a, s.decl[1] = b, s.decl[2] = c, s.ndecl = 3, s.standing = 1;
    int counted[2];
    pl_counted_declarations(&s, counted);
    assert_int_equal(counted[0], 0);
    assert_int_equal(counted[1], 40);

    a = decl(0, "Js Qs Ks"), b = decl(3, "Jh Qh Kh");
    assert_int_equal(standing(&r, S, a, b, b, 2), 0);
    assert_int_equal(standing(&r, H, a, b, b, 2), 1);
    assert_int_equal(standing(&r, C, a, b, b, 2), PL_STANDING_EQUAL);

    a = decl(1, "7c 8c 9c 10c Jc"), b = decl(2, "Qc Qd Qh Qs");
    assert_int_equal(standing(&r, H, a, b, b, 2), 0);
    assert_int_equal(standing(&tie, H, a, b, b, 2), PL_STANDING_EQUAL);

    assert_true(cmp(&r, H, "Ac Ad Ah As", "10c 10d 10h 10s") > 0);
    assert_true(cmp(&r, H, "10c 10d 10h 10s", "Kc Kd Kh Ks") > 0);
    assert_true(cmp(&r, H, "9c 9d 9h 9s", "Ac Ad Ah As") > 0);
    assert_true(cmp(&r, D, "Jc Qc Kc Ac", "10d Jd Qd Kd") > 0);
    assert_true(cmp(&r, H, "7c 8c 9c 10c Jc Qc", "9d 10d Jd Qd Kd") > 0);
}

/* PE18's round: the play in order, with the shows and announcements. */
static const char *const PE18_PLAY =
    "announce 7c 8c 9c 10c, 9c, announce Qd Kd Ad, 8s, Jc, announce 9h 10h Jh, Qc belote, "
    "Ac, Kc, show, 10c, 9s, 10s, Js, 7s, As, Ad, 7d, 8d, 9d, 10d, Jd, Ah, 7c, "
    "8h, Kh, Qh, 10h, Jh, 7h, Kd, Qs, 9h, 8c, Qd, Ks";

static void test_PE18_a_whole_round(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = pe1_deal(&r);
    plplays(&s, "80c, 90d, pass, pass, 110c, pass, pass, pass");
    plplays(&s, "announce 7c 8c 9c 10c, 9c, announce Qd Kd Ad, 8s");
    assert_string_equal(plcards(&s), "Jc");
    plplay(&s, "Jc");
    assert_string_equal(plcards(&s), "Qc Kc");
    plplays(&s, "announce 9h 10h Jh, Qc belote");
    assert_int_equal(s.standing, 0);
    assert_int_equal(s.trick_points[0], 37);
    plplays(&s, "Ac, Kc");
    assert_string_equal(plcards(&s), "7c 8c 10c");
    plplays(&s, "show, 10c, 9s, 10s, Js, 7s, As, Ad, 7d, 8d, 9d, 10d, Jd");
    assert_string_equal(plcards(&s), "9h 10h Jh Ah"); /* no diamond, no trump: any */
    plplays(&s, "Ah");
    assert_string_equal(plcards(&s), "7c 8c");
    plplays(&s, "7c, 8h, Kh, Qh, 10h, Jh, 7h, Kd, Qs, 9h");
    assert_string_equal(plcards(&s), "8c");
    plplays(&s, "8c, Qd, Ks");
    assert_int_equal(s.phase, PL_PHASE_ROUND_OVER);
    const pl_RoundScore *o = &s.last;
    assert_int_equal(o->trick_points[0], 102);
    assert_int_equal(o->trick_points[1], 60);
    assert_true(o->made);
    assert_int_equal(o->raw[0], 262);
    assert_int_equal(o->raw[1], 80);
    assert_int_equal(o->game[0], 26);
    assert_int_equal(o->game[1], 8);

    s = pe1_deal(&r);
    plplays(&s, "80c, 90d, pass, pass, 110c, contra, pass, pass, pass");
    plplays(&s, PE18_PLAY);
    assert_int_equal(s.last.raw[0], 432);
    assert_int_equal(s.last.raw[1], 20);
    assert_int_equal(s.last.game[0], 43);
    assert_int_equal(s.last.game[1], 2);

    s = pe1_deal(&r);
    plplays(&s, "80c, 90d, pass, pass, 160c, pass, pass, pass");
    plplays(&s, PE18_PLAY);
    assert_false(s.last.made);
    assert_int_equal(s.last.raw[0], 0);
    assert_int_equal(s.last.raw[1], 392);
    assert_int_equal(s.last.game[0], 0);
    assert_int_equal(s.last.game[1], 39);
}

static void score(const char *variants, pl_RoundScore o, int capot, int rawA, int rawB, int gA, int gB)
{
    pl_Rules r = plrules(variants);
    pl_score_breakdown(&r, &o, capot);
    if (o.raw[0] != rawA || o.raw[1] != rawB || o.game[0] != gA || o.game[1] != gB)
        fail_msg("[%s] raw %d %d game %d %d, expected raw %d %d game %d %d", variants, o.raw[0], o.raw[1],
                 o.game[0], o.game[1], rawA, rawB, gA, gB);
}

static void test_PE19_rounding(void **state)
{
    (void)state;
    score("", plround(0, 80, 1, 86, 76, 4, 0, 0, 0, 0), 0, 166, 76, 17, 7);
    score("", plround(1, 80, 1, 76, 86, 4, 0, 0, 0, 0), 0, 76, 166, 7, 17);
    score("", plround(0, 80, 1, 83, 79, 4, 0, 0, 0, 0), 0, 163, 79, 16, 8);
    score("", plround(0, 80, 1, 85, 77, 4, 0, 0, 0, 0), 0, 165, 77, 16, 8);
}

static void test_PE20_failed_with_belote(void **state)
{
    (void)state;
    pl_RoundScore o = plround(1, 120, 1, 88, 74, 4, 50, 0, 0, 20);
    score("", o, 0, 332, 20, 33, 2);
    score("PV-belote-transfers", o, 0, 352, 0, 35, 0);
    score("PV-no-contract-bonus", o, 0, 212, 20, 21, 2);
}

static void test_PE21_contra_made(void **state)
{
    (void)state;
    score("", plround(0, 80, 2, 97, 65, 5, 0, 0, 0, 0), 0, 322, 0, 32, 0);
    score("", plround(0, 80, 4, 97, 65, 5, 0, 0, 0, 0), 0, 482, 0, 48, 0);
}

static void test_PE22_recontra_failed(void **state)
{
    (void)state;
    score("", plround(0, 100, 4, 70, 92, 3, 0, 200, 0, 0), 0, 0, 762, 0, 76);
}

static void test_PE23_sweep_made(void **state)
{
    (void)state;
    score("", plround(0, 110, 1, 250, 0, 8, 20, 0, 0, 0), 0, 380, 0, 38, 0);
}

static void test_PE24_capot_lost(void **state)
{
    (void)state;
    score("", plround(1, 250, 1, 15, 147, 1, 0, 0, 0, 0), 1, 412, 0, 41, 0);
    score("", plround(1, 250, 1, 15, 147, 1, 0, 0, 0, 20), 1, 412, 20, 41, 2);
    score("", plround(1, 250, 1, 15, 147, 1, 0, 200, 0, 0), 1, 612, 0, 61, 0);
}

static void test_PE25_capot_made(void **state)
{
    (void)state;
    score("", plround(1, 250, 1, 0, 250, 0, 0, 50, 0, 20), 1, 0, 570, 0, 57);
}

static void test_PE26_defenders_sweep(void **state)
{
    (void)state;
    score("", plround(0, 90, 1, 0, 250, 0, 0, 0, 0, 0), 0, 0, 340, 0, 34);
}

static void test_PE27_forgotten_show(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    pl_state_blank(&s, &r);
    s.decl[0] = decl(0, "Qc Kc Ac");
    s.decl[1] = decl(2, "7s 8s 9s 10s");
    s.decl[1].shown = 0;
    s.ndecl = 2;
    s.bid_suit = H;
    s.standing = (int8_t)pl_standing(&s);
    assert_int_equal(s.standing, 0);
    int counted[2];
    pl_counted_declarations(&s, counted);
    assert_int_equal(counted[0], 20);
    score("", plround(0, 100, 1, 110, 52, 5, counted[0], 0, 0, 0), 0, 230, 52, 23, 5);
    s.decl[1].shown = 1;
    pl_counted_declarations(&s, counted);
    assert_int_equal(counted[0], 70);
}

static void test_PE28_declarations_make_the_contract(void **state)
{
    (void)state;
    pl_RoundScore o = plround(0, 110, 1, 102, 60, 5, 0, 0, 0, 0);
    pl_Rules r = plrules("");
    pl_score_breakdown(&r, &o, 0);
    assert_false(o.made);
    o = plround(0, 110, 1, 102, 60, 5, 50, 0, 0, 0);
    pl_score_breakdown(&r, &o, 0);
    assert_true(o.made);
}

static int match_after(int a, int b, int ga, int gb)
{
    pl_Rules r = plrules("");
    pl_State s;
    pl_state_blank(&s, &r);
    s.score[0] = a, s.score[1] = b;
    s.last.game[0] = ga, s.last.game[1] = gb;
    pl_add_to_match(&s);
    return s.phase == PL_PHASE_MATCH_OVER ? s.winner : -1;
}

static void test_PE29_match_target(void **state)
{
    (void)state;
    assert_int_equal(match_after(340, 300, 26, 8), 0);
    assert_int_equal(match_after(360, 355, 0, 0), 0);
    assert_int_equal(match_after(355, 355, 0, 0), -1);
    assert_int_equal(match_after(350, 200, 0, 0), -1);
}

static void test_PE30_defenders_sweep_beats_declarations(void **state)
{
    (void)state;
    score("", plround(0, 80, 1, 0, 250, 0, 200, 0, 0, 0), 0, 0, 530, 0, 53);
}

static void test_PE31_swept_defenders_lose_declarations(void **state)
{
    (void)state;
    pl_RoundScore o = plround(0, 90, 1, 250, 0, 8, 0, 150, 0, 0);
    score("", o, 0, 340, 0, 34, 0);
    score("PV-swept-keeps-declarations", o, 0, 340, 150, 34, 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_PE1_deal_in_packets),
        cmocka_unit_test(test_PE2_auction_to_110_clubs),
        cmocka_unit_test(test_PE3_pass_then_bid),
        cmocka_unit_test(test_PE4_contra_recontra),
        cmocka_unit_test(test_PE5_all_pass_thrown_in),
        cmocka_unit_test(test_PE6_capot_bid),
        cmocka_unit_test(test_PE7_follow_no_duty_to_beat),
        cmocka_unit_test(test_PE8_partner_winning_must_trump),
        cmocka_unit_test(test_PE9_overtrump),
        cmocka_unit_test(test_PE10_undertrump_compulsory),
        cmocka_unit_test(test_PE11_follow_before_trumping),
        cmocka_unit_test(test_PE12_trump_lead),
        cmocka_unit_test(test_PE13_overtrump_partner),
        cmocka_unit_test(test_PE14_trick_winners_and_points),
        cmocka_unit_test(test_PE15_must_head),
        cmocka_unit_test(test_PE16_best_declarations),
        cmocka_unit_test(test_PE17_comparing_declarations),
        cmocka_unit_test(test_PE18_a_whole_round),
        cmocka_unit_test(test_PE19_rounding),
        cmocka_unit_test(test_PE20_failed_with_belote),
        cmocka_unit_test(test_PE21_contra_made),
        cmocka_unit_test(test_PE22_recontra_failed),
        cmocka_unit_test(test_PE23_sweep_made),
        cmocka_unit_test(test_PE24_capot_lost),
        cmocka_unit_test(test_PE25_capot_made),
        cmocka_unit_test(test_PE26_defenders_sweep),
        cmocka_unit_test(test_PE27_forgotten_show),
        cmocka_unit_test(test_PE28_declarations_make_the_contract),
        cmocka_unit_test(test_PE29_match_target),
        cmocka_unit_test(test_PE30_defenders_sweep_beats_declarations),
        cmocka_unit_test(test_PE31_swept_defenders_lose_declarations),
    };
    return cmocka_run_group_tests_name("pilotta examples", tests, NULL, NULL);
}
