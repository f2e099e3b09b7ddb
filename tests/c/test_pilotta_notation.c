/* Pilotta's notation: every legal action prints and parses back to itself
 * (ascii and Unicode suits), the short forms of PC7, the belote flag, and
 * positions round-trip (print, parse, print: identical), with hidden
 * hands too. */
#include <stdio.h>
#include <string.h>

#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"

static void action_round_trip(const pl_State *s, const pl_Action *a)
{
    for (int u = 0; u < 2; u++) {
        char text[128], again[128], err[200];
        pl_Action back;
        pl_action_str(s, a, text, sizeof text, u);
        if (pl_action_parse(s, text, &back, err, sizeof err)) fail_msg("'%s' does not parse: %s", text, err);
        if (!pl_action_eq(&back, a)) fail_msg("'%s' parses to another action", text);
        pl_action_str(s, &back, again, sizeof again, u);
        assert_string_equal(text, again);
    }
}

static void position_round_trip(const pl_State *s, unsigned hide)
{
    char text[PL_POSITION_MAX], again[PL_POSITION_MAX], err[256];
    pl_State back;
    pl_position_str(s, text, sizeof text, hide);
    if (pl_position_parse(&back, &s->rules, text, 9, err, sizeof err)) fail_msg("'%s' does not parse: %s", text, err);
    pl_position_str(&back, again, sizeof again, hide);
    if (strcmp(text, again) != 0) fail_msg("not a round trip:\n  %s\n  %s", text, again);
    if (!hide) {
        pl_ActionList a, b;
        pl_legal(s, &a);
        pl_legal(&back, &b);
        assert_int_equal(a.n, b.n);
        assert_int_equal(s->phase, back.phase);
        assert_int_equal(s->turn, back.turn);
        if (s->phase >= PL_PHASE_ROUND_OVER) assert_memory_equal(&s->last, &back.last, sizeof s->last);
    }
}

static void test_P12_P35_P38_P39_every_action_round_trips(void **state)
{
    (void)state;
    for (int c = 0; c < pl_nlegality_configs; c++) {
        pl_Rules r = plrules(pl_legality_configs[c].variants);
        pl_State s;
        pl_ActionList l;
        dl_Rng rng;
        dl_rng_seed(&rng, 11 + (uint64_t)c);
        assert_null(pl_new_match(&s, &r, 11 + (uint64_t)c, -1));
        for (int i = 0; i < 3000; i++) {
            if (pl_legal(&s, &l) == 0) {
                position_round_trip(&s, 0);
                if (s.phase == PL_PHASE_MATCH_OVER) assert_null(pl_new_match(&s, &r, (uint64_t)i, -1));
                else pl_next_round(&s);
                continue;
            }
            for (int k = 0; k < l.n; k++) action_round_trip(&s, &l.a[k]);
            position_round_trip(&s, 0);
            position_round_trip(&s, 1u << dl_rng_below(&rng, 4) | 1u << dl_rng_below(&rng, 4));
            pl_apply_legal(&s, pl_pick(&l, &s, &rng));
        }
    }
}

static void test_PC7_short_bids(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    assert_null(pl_new_match(&s, &r, 1, 3));
    pl_Action a;
    char err[200];
    assert_null(pl_action_parse(&s, "8h", &a, err, sizeof err));
    assert_int_equal(a.kind, PL_BID);
    assert_int_equal(a.value, 8);
    assert_null(pl_action_parse(&s, "  CAPOT \u2660", &a, err, sizeof err));
    assert_int_equal(a.value, PL_CAPOT);
    assert_int_equal(a.suit, 3);
    assert_null(pl_action_parse(&s, "120\u2666", &a, err, sizeof err));
    assert_int_equal(a.value, 12);
    assert_int_equal(a.suit, 1);
    assert_non_null(pl_action_parse(&s, "Jh", &a, err, sizeof err));
    assert_non_null(strstr(err, "not a call"));
    assert_non_null(pl_action_parse(&s, "90x", &a, err, sizeof err));
    r = plrules("PV-suit-after-auction");
    assert_null(pl_new_match(&s, &r, 1, 3));
    assert_null(pl_action_parse(&s, "12", &a, err, sizeof err));
    assert_int_equal(a.value, 12);
    assert_int_equal(a.suit, -1);
    char text[32];
    pl_action_str(&s, &a, text, sizeof text, false);
    assert_string_equal(text, "120");
}

static void test_P39_belote_notation(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s = plpos(&r, "dealer=3; calls=80c, pass, pass, pass; hands=Kc Qc 7h 8h 9h 10h Jh Ah / ?8 / ?8 / ?8");
    pl_Action a;
    char err[200], text[32];
    assert_null(pl_action_parse(&s, "Kc", &a, err, sizeof err));
    assert_int_equal(a.belote, 1);
    pl_action_str(&s, &a, text, sizeof text, true);
    assert_string_equal(text, "K\u2663 belote");
    assert_null(pl_action_parse(&s, "Kc no belote", &a, err, sizeof err));
    assert_int_equal(a.belote, 0);
    pl_action_str(&s, &a, text, sizeof text, false);
    assert_string_equal(text, "Kc nobelote");
    assert_null(pl_action_parse(&s, "7h belote", &a, err, sizeof err));
    assert_int_equal(a.belote, 0); /* means nothing on another card */
    assert_non_null(pl_action_parse(&s, "Kc beloteX", &a, err, sizeof err));
    assert_non_null(pl_action_parse(&s, "announce", &a, err, sizeof err));
    assert_non_null(strstr(err, "P35"));
    assert_non_null(pl_action_parse(&s, "show 7h", &a, err, sizeof err));
    assert_non_null(strstr(err, "P38"));
}

/* P50 (issue 24, finding 6): the hidden form of a position wrote other
 * seats' unshown announcements with their cards; the view shows only
 * their kind and value (a run's length, a four's rank). */
static void test_P50_hidden_position_hides_announcements(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    const char *full = "dealer=3; round=1; score=0 0; calls=80c, 90d, pass, pass, 110c, pass, pass, pass; "
                       "hands=7c 8c 10c 9d 7h 8h 7s / 7d Jd Qd Kd Ad Ah 9s / Kc Ac 8d Qh Js Qs As / "
                       "10d 9h 10h Jh Kh 10s Ks; tricks=9c 8s Jc Qc; decls=0:7c 8c 9c 10c, 1:Qd Kd Ad, "
                       "3:9h 10h Jh; belote=3";
    pl_State s = plpos(&r, full);
    char text[PL_POSITION_MAX], again[PL_POSITION_MAX], err[256];
    pl_position_str(&s, text, sizeof text, 0xE);
    assert_non_null(strstr(text, "; decls=0:7c 8c 9c 10c, 1:run 3, 3:run 3;"));
    assert_null(strstr(text, "Qd"));
    assert_null(strstr(text, "Jh"));
    /* read back: runs of three dealt to seats 1 and 3 from their hidden cards */
    pl_State back;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        if (pl_position_parse(&back, &r, text, seed, err, sizeof err)) fail_msg("'%s': %s", text, err);
        pl_position_str(&back, again, sizeof again, 0xE);
        assert_string_equal(text, again);
        assert_int_equal(back.ndecl, 3);
        for (int i = 0; i < 3; i++) {
            pl_Decl d = back.decl[i];
            assert_true(pl_decl_classify(d.cards, &d));
            assert_int_equal(d.kind, s.decl[i].kind);
            assert_int_equal(d.value, s.decl[i].value);
            assert_int_equal(pl_count(d.cards), pl_count(s.decl[i].cards));
            assert_true((d.cards & ~(back.hand[d.seat] | pl_played_by(&back, d.seat))) == 0);
        }
    }
    /* a four is written by its rank; a shown one with its cards */
    s = plpos(&r, "dealer=3; calls=80c, pass, pass, pass; hands=?8 / Jc Jd Jh Js 7h 8h 9h 10h / ?8 / ?8; "
                  "decls=1:Jc Jd Jh Js, 1:7h 8h 9h 10h");
    pl_position_str(&s, text, sizeof text, 0xF);
    assert_non_null(strstr(text, "; decls=1:four J, 1:run 4"));
    if (pl_position_parse(&back, &r, text, 3, err, sizeof err)) fail_msg("'%s': %s", text, err);
    assert_int_equal(back.decl[0].cards, pl_rank_mask(PL_RJ));
    /* errors name what is wrong */
    const char *bad[] = {
        "dealer=3; calls=80c, pass, pass, pass; hands=?8 / ?8 / ?8 / ?8; decls=1:run 2",
        "dealer=3; calls=80c, pass, pass, pass; hands=?8 / ?8 / ?8 / ?8; decls=1:four 8",
        "dealer=3; calls=80c, pass, pass, pass; hands=?8 / Jc Jd Jh 7h 8h 9h 10h Ks / ?8 / ?8; decls=1:four J",
        "dealer=3; calls=80c, pass, pass, pass; hands=Jc ?7 / ?8 / ?8 / ?8; decls=1:four J",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (!pl_position_parse(&back, &r, bad[i], 1, err, sizeof err)) fail_msg("'%s' was accepted", bad[i]);
        if (!strstr(err, "decls")) fail_msg("'%s': %s", bad[i], err);
    }
}

static void test_P9_P50_position_errors(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    char err[256];
    const char *const bad[] = {
        "",
        "hands=?8 / ?8 / ?8",
        "hands=?8 / ?8 / ?8 / ?7",
        "hands=6h ?7 / ?8 / ?8 / ?8",
        "hands=Jh Jh ?6 / ?8 / ?8 / ?8",
        "dealer=4; hands=?8 / ?8 / ?8 / ?8",
        "hands=?8 / ?8 / ?8 / ?8; calls=pass, pass, pass, pass, pass",
        "hands=?8 / ?8 / ?8 / ?8; calls=80h, 70h",
        "hands=?8 / ?8 / ?8 / ?8; tricks=Jh",
        "dealer=3; calls=80c, pass, pass, pass; hands=?7 / ?8 / ?8 / ?8; tricks=Jh Jh",
        "dealer=3; calls=80c, pass, pass, pass; hands=?7 / ?7 / ?7 / ?7; tricks=7c 8c 9c 10c Jc",
        "dealer=3; calls=80c, pass, pass, pass; hands=?8 / ?8 / ?8 / ?8; decls=0:7c 9c 10c",
        "dealer=3; calls=80c, pass, pass, pass; hands=?8 / ?8 / ?8 / ?8; belote=0",
        "hands=?8 / ?8 / ?8 / ?8; nonsense=1",
        "hands=?8 / ?8 / ?8 / ?8; hands=?8 / ?8 / ?8 / ?8",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&s, 0x5A, sizeof s);
        pl_State before = s;
        if (!pl_position_parse(&s, &r, bad[i], 1, err, sizeof err)) fail_msg("'%s' was accepted", bad[i]);
        assert_true(err[0] != '\0');
        assert_memory_equal(&before, &s, sizeof s);
    }
    assert_null(pl_position_parse(&s, &r, "hands=?8 / ?8 / ?8 / ?8", 1, err, sizeof err));
    assert_int_equal(s.phase, PL_PHASE_AUCTION);
    assert_int_equal(s.turn, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_P12_P35_P38_P39_every_action_round_trips),
        cmocka_unit_test(test_PC7_short_bids),
        cmocka_unit_test(test_P39_belote_notation),
        cmocka_unit_test(test_P9_P50_position_errors),
        cmocka_unit_test(test_P50_hidden_position_hides_announcements),
    };
    return cmocka_run_group_tests_name("pilotta notation", tests, NULL, NULL);
}
