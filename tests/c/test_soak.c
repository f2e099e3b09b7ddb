/* Soak: random play of whole matches under every configuration, 2 and 4
 * players (and Kontsina's 3-player and no-team games), with the invariants
 * checked after every move and the score sums after every round.
 * DL_SOAK_ROUNDS sets the rounds per configuration and player count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configs.h"
#include "testutil.h"

static long soak_rounds(void)
{
    const char *e = getenv("DL_SOAK_ROUNDS");
    long n = e ? atol(e) : 10000;
    return n > 0 ? n : 10000;
}

/* D23/K4 from the piles alone, independently of score.c. */
static void check_round_sum(const dl_State *s)
{
    const dl_Rules *r = &s->rules;
    const int sides = dl_nsides(r);
    int cards[DL_MAX_PLAYERS] = {0}, clubs[DL_MAX_PLAYERS] = {0}, total = 0, xeri = 0, in_piles = 0;
    for (int i = 0; i < sides; i++) {
        cards[i] = dl_count(s->pile[i]);
        clubs[i] = dl_count(s->pile[i] & DL_CLUB_SUIT);
        in_piles += cards[i];
        total += s->last.total[i];
        xeri += s->xeri[i];
    }
    int best = 0, ties = 0, cbest = 0, cties = 0;
    for (int i = 0; i < sides; i++) {
        if (cards[i] > best) best = cards[i], ties = 1;
        else if (cards[i] == best) ties++;
        if (clubs[i] > cbest) cbest = clubs[i], cties = 1;
        else if (clubs[i] == cbest) cties++;
    }
    if (in_piles != DL_NCARDS) return; /* nobody captured: D22 leaves cards */
    int expect = r->points.ace * 4 + r->points.ten_diamonds + r->points.two_clubs +
                 r->points.xeri * xeri + (ties == 1 ? r->points.cards : 0) +
                 (cties == 1 ? r->points.clubs : 0);
    if (total != expect) fail_msg("D23/K4: round points sum to %d, expected %d", total, expect);
    if (sides == 2 && r->points.cards == 4 && r->points.xeri == 10) {
        /* D23: 11 + 10 x xeri, or 7 + 10 x xeri when the cards split 26-26. */
        int base = cards[0] == 26 ? 7 : 11;
        assert_int_equal(total, base + 10 * xeri);
    }
}

static long soak(const dl_Rules *r, long rounds, uint64_t seed)
{
    dl_State s;
    dl_MoveList l;
    dl_Rng pick;
    long plies = 0;
    dl_movelist_init(&l);
    dl_rng_seed(&pick, seed);
    assert_null(dl_new_match(&s, r, seed, -1));
    for (long done = 0; done < rounds;) {
        if (s.phase == DL_PHASE_MATCH_OVER) {
            assert_true(s.winner >= 0);
            assert_null(dl_new_match(&s, r, dl_rng_next(&pick), -1));
        }
        if (s.phase == DL_PHASE_ROUND_OVER) {
            int dealer = s.dealer;
            dl_next_round(&s);
            assert_int_equal(s.dealer, (dealer + 1) % r->players); /* D4, D7, K6 */
        }
        long n = dl_legal_moves(&s, &l);
        if (n <= 0) fail_msg("D20: no legal move (seed %llu)", (unsigned long long)seed);
        dl_Effect e;
        dl_apply(&s, &l.m[dl_rng_below(&pick, (uint32_t)n)], &e);
        plies++;
        const char *broken = dl_check_state(&s);
        if (broken) fail_msg("after ply %ld: %s", plies, broken);
        if (e.round_over) {
            for (int i = 0; i < r->players; i++) assert_int_equal(s.hand[i], 0);
            assert_int_equal(s.ndecl, 0); /* D19: none left when hands are empty */
            check_round_sum(&s);
            done++;
        }
    }
    dl_movelist_free(&l);
    return plies;
}

static void run_all(int players, bool teams, bool kontsina_only)
{
    TestConfig cfg[32];
    int n = test_configs(cfg, 32);
    long rounds = soak_rounds();
    for (int i = 0; i < n; i++) {
        dl_Rules r = cfg[i].rules;
        bool kontsina = r.capture == DL_CAPTURE_ONE;
        if (kontsina_only && !kontsina) continue;
        if (players == 3 && !kontsina) continue;
        dl_rules_set_players(&r, players, teams);
        long plies = soak(&r, rounds, 1000 + (uint64_t)i);
        printf("  soak %-38s %d players%s: %ld rounds, %ld plies, invariants held\n", cfg[i].name,
               players, teams ? " (teams)" : "", rounds, plies);
    }
}

static void test_D19_D20_D23_soak_2_players(void **state)
{
    (void)state;
    run_all(2, false, false);
}

static void test_D7_D8_soak_4_players_teams(void **state)
{
    (void)state;
    run_all(4, true, false);
}

static void test_K7_soak_kontsina_3_players(void **state)
{
    (void)state;
    run_all(3, false, true);
}

static void test_K8_soak_kontsina_4_players_no_teams(void **state)
{
    (void)state;
    run_all(4, false, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_D19_D20_D23_soak_2_players),
        cmocka_unit_test(test_D7_D8_soak_4_players_teams),
        cmocka_unit_test(test_K7_soak_kontsina_3_players),
        cmocka_unit_test(test_K8_soak_kontsina_4_players_no_teams),
    };
    return cmocka_run_group_tests_name("soak", tests, NULL, NULL);
}
