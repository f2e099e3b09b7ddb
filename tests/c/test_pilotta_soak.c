/* Soak: random rounds under house-rule combinations, the invariants
 * checked after every action (pl_check_state, DL_CHECK) and the score
 * invariants of P47 after every scored round.
 *
 * The full product of the house rules is 2^15 x 4 roundings (131,072
 * combinations), too many to play each. The soak plays every rule alone
 * and all of them together, then a seeded covering sample: each further
 * match draws every switch at random (PL_SOAK_ROUNDS rounds in all,
 * default 100,000), so every pair of switches meets in all four states
 * many times over. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"

/* P47 and P46, from the breakdown's inputs, independently of score.c. */
static void check_round(const pl_State *s, const pl_RoundScore *o)
{
    const pl_Rules *r = &s->rules;
    const int T = o->trick_points[0] + o->trick_points[1];
    const int sweep = o->tricks[0] == 8 || o->tricks[1] == 8;
    if (T != (sweep ? 250 : 162)) fail_msg("P47: trick points total %d", T);
    int raw = o->raw[0] + o->raw[1], game = o->game[0] + o->game[1];
    if (r->rounding == PL_ROUND_RAW) {
        if (game != raw) fail_msg("PV-raw-points: game points %d, raw %d", game, raw);
    } else {
        /* P46 by its words: each team's remainder, both-up settled. */
        int from = r->rounding == PL_ROUND_7 ? 7 : r->rounding == PL_ROUND_5 ? 5 : 6, up[2], want = 0;
        for (int t = 0; t < 2; t++) up[t] = o->raw[t] % 10 >= from;
        if (up[0] && up[1] && r->rounding == PL_ROUND_6) up[1 - o->bidders] = 0;
        if (up[0] && up[1] && r->rounding == PL_ROUND_5) {
            int more = o->trick_points[0] == o->trick_points[1] ? o->bidders : o->trick_points[0] < o->trick_points[1];
            up[1 - more] = 0;
        }
        for (int t = 0; t < 2; t++) want += o->raw[t] / 10 + up[t];
        if (game != want) fail_msg("P46: game points total %d, expected %d (raw %d %d)", game, want, o->raw[0], o->raw[1]);
        /* Only trick points leave a remainder: the total is T div 10 and the rest in tens. */
        if (!r->double_all && r->rounding != PL_ROUND_7 && game != T / 10 + (raw - T) / 10)
            fail_msg("P47: game points total %d, expected %d", game, T / 10 + (raw - T) / 10);
    }
    const bool plain_scoring = !r->no_contract_bonus && !r->fail_keeps_declarations && !r->belote_transfers &&
                               !r->double_all && !r->swept_keeps_declarations;
    if (!plain_scoring) return;
    const int bt = o->bidders, df = 1 - bt;
    int D = o->decl[0] + o->decl[1], B = o->belote[0] + o->belote[1];
    if (o->made && o->mult == 1 && o->tricks[df] == 0) D -= o->decl[df]; /* P43: lost, not passed on */
    const int expect = T + D + B + o->mult * o->value;
    if (raw != expect) fail_msg("P47: raw points total %d, expected %d", raw, expect);
    if (!o->made && o->game[bt] != o->belote[bt] / (r->rounding == PL_ROUND_RAW ? 1 : 10))
        fail_msg("P47: failed bidders score %d game points, their belote is %d", o->game[bt], o->belote[bt]);
}

static long soak(const pl_Rules *r, long rounds, uint64_t seed, bool reroll)
{
    pl_State s;
    pl_ActionList l;
    dl_Rng rng;
    pl_Rules cur = *r;
    long actions = 0;
    dl_rng_seed(&rng, seed);
    assert_null(pl_new_match(&s, &cur, seed, -1));
    for (long done = 0; done < rounds;) {
        int n = pl_legal(&s, &l);
        if (n == 0) {
            if (s.phase == PL_PHASE_ROUND_OVER || s.phase == PL_PHASE_MATCH_OVER) {
                if (!s.last.thrown_in) check_round(&s, &s.last);
                int dealer = s.dealer;
                done++;
                if (s.phase == PL_PHASE_MATCH_OVER) {
                    if (s.winner < 0 || s.score[s.winner] < pl_target_points(&cur)) fail_msg("P49: a bad winner");
                    if (reroll) {
                        uint64_t bits = dl_rng_next(&rng);
                        for (int i = 0; i < pl_nvariants; i++) *pl_variants[i].field(&cur) = bits >> i & 1;
                        cur.rounding = (int)(bits >> 20 & 3);
                        cur.target = (int)(bits >> 24 & 1) ? 151 : 351;
                    }
                    assert_null(pl_new_match(&s, &cur, dl_rng_next(&rng), -1));
                } else {
                    assert_true(pl_next_round(&s));
                    assert_int_equal(s.dealer, (dealer + (cur.deal_left ? 3 : 1)) & 3); /* P10 */
                }
                continue;
            }
            fail_msg("no legal action in phase %d", s.phase);
        }
        pl_apply_legal(&s, pl_pick(&l, &s, &rng));
        actions++;
        const char *broken = pl_check_state(&s);
        if (broken) fail_msg("after action %ld: %s", actions, broken);
    }
    return actions;
}

static void test_P47_soak_each_house_rule(void **state)
{
    (void)state;
    long rounds = pl_env_count("PL_SOAK_ROUNDS", 100000) / 20 + 1;
    pl_Rules r = plrules("");
    printf("  soak base: %ld rounds, %ld actions\n", rounds, soak(&r, rounds, 1, false));
    for (int i = 0; i < pl_nvariants; i++) {
        r = plrules(pl_variants[i].name);
        printf("  soak %s: %ld rounds, %ld actions\n", pl_variants[i].name, rounds, soak(&r, rounds, 2 + (uint64_t)i, false));
    }
    const char *const more[] = {"PV-round-7", "PV-round-5", "PV-raw-points", "PV-target=151"};
    for (int i = 0; i < 4; i++) {
        r = plrules(more[i]);
        printf("  soak %s: %ld rounds, %ld actions\n", more[i], rounds, soak(&r, rounds, 40 + (uint64_t)i, false));
    }
    r = plrules("");
    for (int i = 0; i < pl_nvariants; i++) *pl_variants[i].field(&r) = true;
    printf("  soak every switch on: %ld rounds, %ld actions\n", rounds, soak(&r, rounds, 50, false));
}

static void test_P47_soak_covering_sample(void **state)
{
    (void)state;
    long rounds = pl_env_count("PL_SOAK_ROUNDS", 100000);
    pl_Rules r = plrules("");
    printf("  soak covering sample of combinations: %ld rounds, %ld actions\n", rounds,
           soak(&r, rounds, 99, true));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_P47_soak_each_house_rule),
        cmocka_unit_test(test_P47_soak_covering_sample),
    };
    return cmocka_run_group_tests_name("pilotta soak", tests, NULL, NULL);
}
