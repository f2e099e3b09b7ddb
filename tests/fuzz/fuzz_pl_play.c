/* Fuzz target: random Pilotta action sequences through rounds and a match.
 *
 * Input: two bytes of rules, eight of seed, one for the first dealer, then
 * each byte picks the next action (its index modulo the legal count).
 * After every action the invariants hold; the action is legal by every
 * account and its text parses back; a changed action is judged alike by
 * every account and, refused, changes nothing; undoing (restoring the
 * copy taken before) and applying again gives the same state, field by
 * field; at the end the whole sequence replayed from the start on a fresh
 * state gives the same final state. */
#include "fuzz_pl.h"

#define PLAY_HEADER (PL_FUZZ_RULES + 9)
#define PLAY_MAX 2048

static pl_Action pl_mutate(const pl_Action *a, dl_Rng *rng)
{
    pl_Action x = *a;
    switch (dl_rng_below(rng, 6)) {
    case 0: x.kind = (uint8_t)dl_rng_below(rng, PL_PLAY + 2); break;
    case 1: x.value = (uint8_t)dl_rng_below(rng, 30); break;
    case 2: x.suit = (int8_t)((int)dl_rng_below(rng, 6) - 1); break;
    case 3: x.card = (uint8_t)dl_rng_below(rng, 34); break;
    case 4: x.belote ^= 1; break;
    default: x.cards ^= (pl_Set)1 << dl_rng_below(rng, 32); break;
    }
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pl_Action done[PLAY_MAX];
    static int next_round[PLAY_MAX];
    if (size < PLAY_HEADER) return 0;
    if (size > PLAY_HEADER + PLAY_MAX) size = PLAY_HEADER + PLAY_MAX;
    pl_Rules r = pl_fuzz_rules(data);
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) seed = seed << 8 | data[PL_FUZZ_RULES + i];
    int dealer = data[PL_FUZZ_RULES + 8] < 128 ? -1 : data[PL_FUZZ_RULES + 8] % 4;
    pl_State s, start;
    FUZZ_CHECK(!pl_new_match(&s, &r, seed, dealer), "pl_new_match refused its rules");
    start = s;
    dl_Rng mut;
    dl_rng_seed(&mut, seed ^ 0x5eed);
    int n = 0;
    char why[256];
    for (size_t i = PLAY_HEADER; i < size; i++) {
        if (s.phase == PL_PHASE_MATCH_OVER) break;
        if (s.phase == PL_PHASE_ROUND_OVER) {
            FUZZ_CHECK(pl_next_round(&s), "next round refused");
            next_round[n] = 1, done[n++] = (pl_Action){0};
            continue;
        }
        pl_ActionList l;
        int k = pl_legal(&s, &l);
        FUZZ_CHECK(k > 0 && k == pl_legal_count(&s), "no legal action, or counts disagree");
        const pl_Action a = l.a[data[i] % k];
        pl_fuzz_check_text(&s, &a);
        pl_fuzz_check_agree(&s, &l, &a);
        pl_Action x = pl_mutate(&a, &mut);
        pl_fuzz_check_agree(&s, &l, &x);
        const pl_State before = s;
        FUZZ_CHECK(!pl_apply(&s, &a, why, sizeof why), "a listed action refused: %s", why);
        const char *broken = pl_check_state(&s);
        FUZZ_CHECK(!broken, "after step %zu: %s", i, broken);
        const pl_State after = s;
        s = before; /* undo: the state is a plain struct */
        pl_fuzz_expect_same(&before, &s, "undo");
        pl_apply_legal(&s, &a);
        pl_fuzz_expect_same(&after, &s, "an action applied again");
        next_round[n] = 0, done[n++] = a;
    }
    pl_State replay = start;
    for (int i = 0; i < n; i++) {
        if (next_round[i]) FUZZ_CHECK(pl_next_round(&replay), "replay: next round refused");
        else FUZZ_CHECK(!pl_apply(&replay, &done[i], why, sizeof why), "replay refused: %s", why);
    }
    pl_fuzz_expect_same(&s, &replay, "the replayed sequence");
    return 0;
}
