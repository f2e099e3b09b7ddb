/* The hand estimate the search reads the calls with (src/pilotta/estimate.c):
 * the same figures as the AIs' evaluation in lua/ai/pl_helpers.lua. The
 * expected numbers are that file's M.evaluate(hand, suit).total, printed
 * for these hands; tests/lua/pilotta_estimate_spec.lua checks that the
 * weights themselves agree. */
#include <math.h>

#include "pilotta/estimate.h"
#include "pilotta/pltest.h"

typedef struct {
    const char *hand;
    double total[4], overlap[4]; /* by trump suit c d h s; under PV-decl-overlap */
} Case;

static const Case CASES[] = {
    {"Jh 9h 7h Qc 7c 8d 7d 8s", {50.61, 48.47, 101.36, 38.77}, {50.61, 48.47, 101.36, 38.77}},
    /* the belote in hearts */
    {"8h Qh Kh 8c Ks 10d Kd As", {65.11, 76.07, 102.98, 64.26}, {65.11, 76.07, 102.98, 64.26}},
    /* a run of eight is one 100 (P34) */
    {"7c 8c 9c 10c Jc Qc Kc Ac", {327.59, 156.68, 156.68, 156.68}, {327.59, 156.68, 156.68, 156.68}},
    /* four Kings or the run through the King of spades (P34; overlap: both) */
    {"Kc Kd Kh Ks Qs Js 10s 9s", {198.13, 198.13, 198.13, 318.73}, {248.13, 248.13, 248.13, 368.73}},
    {"Jc Jd Jh Js 9c 9d 9h 9s", {441.66, 441.66, 441.66, 441.66}, {441.66, 441.66, 441.66, 441.66}},
    /* a run of three (stands 0.601 of the time) and the belote in diamonds */
    {"7h 8h 9h Ah 10s Qd Jd Kd", {82.95, 169.18, 127.69, 87.50}, {82.95, 169.18, 127.69, 87.50}},
};

static void test_estimate_matches_the_ais_evaluation(void **state)
{
    (void)state;
    const pl_Rules base = plrules(""), overlap = plrules("PV-decl-overlap");
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        const pl_Set hand = plset(CASES[i].hand);
        for (int su = 0; su < 4; su++) {
            const double a = pl_estimate(hand, su, &base), b = pl_estimate(hand, su, &overlap);
            if (fabs(a - CASES[i].total[su]) > 0.006 || fabs(b - CASES[i].overlap[su]) > 0.006)
                fail_msg("%s, trumps %d: %.4f / %.4f, want %.2f / %.2f", CASES[i].hand, su, a, b,
                         CASES[i].total[su], CASES[i].overlap[su]);
        }
    }
    /* the trick points alone: no declarations, no belote */
    assert_true(fabs(pl_estimate_tricks(plset("8h Qh Kh 8c Ks 10d Kd As"), PL_HEARTS) - 82.98) < 0.006);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_matches_the_ais_evaluation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
