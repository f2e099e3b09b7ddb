/* Fuzz target: the Pilotta action parser (pl_action_parse).
 *
 * Input: two bytes of rules, eight of seed, one giving how many random
 * actions lead to the position, then the action text. Any text may be
 * refused with a message; a parsed action is judged alike by pl_is_legal,
 * pl_refusal and the legal list, a refused one leaves the state as it
 * was, and a legal one prints and parses back and keeps the invariants. */
#include "fuzz_pl.h"

#define ACT_HEADER (PL_FUZZ_RULES + 9)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[PL_FUZZ_MAX_TEXT + 1];
    if (size < ACT_HEADER) return 0;
    pl_Rules r = pl_fuzz_rules(data);
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) seed = seed << 8 | data[PL_FUZZ_RULES + i];
    pl_State s;
    FUZZ_CHECK(!pl_new_match(&s, &r, seed, -1), "pl_new_match refused its rules");
    dl_Rng rng;
    dl_rng_seed(&rng, seed);
    for (int k = data[PL_FUZZ_RULES + 8] % 48; k > 0 && s.phase <= PL_PHASE_PLAY; k--) pl_random_action(&s, &rng);
    pl_fuzz_text(data + ACT_HEADER, size - ACT_HEADER, text);
    pl_Action a;
    char err[256];
    if (pl_action_parse(&s, text, &a, err, sizeof err)) {
        FUZZ_CHECK(err[0], "a parse error without a message");
        return 0;
    }
    pl_ActionList l;
    pl_legal(&s, &l);
    pl_fuzz_check_agree(&s, &l, &a);
    if (pl_is_legal(&s, &a)) {
        pl_Action n = pl_normalize(&s, &a);
        pl_fuzz_check_text(&s, &n);
        FUZZ_CHECK(!pl_apply(&s, &a, err, sizeof err), "a legal action refused: %s", err);
        const char *broken = pl_check_state(&s);
        FUZZ_CHECK(!broken, "after '%s': %s", text, broken);
    }
    return 0;
}
