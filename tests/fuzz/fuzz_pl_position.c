/* Fuzz target: the Pilotta position parser (pl_position_parse).
 *
 * Input: two bytes choosing the rules (pl_fuzz_rules), one byte of seats
 * whose hands to hide, then the text. Any text may be refused with a
 * message (the output state untouched); an accepted position holds the
 * invariants, prints to a text that parses back to the same text (hands
 * shown or hidden), and its legal actions print and parse back, agree
 * with pl_is_legal and pl_refusal, and keep the invariants when played. */
#include "fuzz_pl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[PL_FUZZ_MAX_TEXT + 1];
    if (size < PL_FUZZ_RULES + 1) return 0;
    pl_Rules r = pl_fuzz_rules(data);
    unsigned hide = data[PL_FUZZ_RULES] & 15;
    pl_fuzz_text(data + PL_FUZZ_RULES + 1, size - PL_FUZZ_RULES - 1, text);
    pl_State s, untouched;
    memset(&s, 0x33, sizeof s);
    untouched = s;
    char err[256];
    if (pl_position_parse(&s, &r, text, 7, err, sizeof err)) {
        FUZZ_CHECK(err[0] && memchr(err, '\0', sizeof err), "a refusal without a message");
        FUZZ_CHECK(memcmp(&s, &untouched, sizeof s) == 0, "a refused position changed the output");
        return 0;
    }
    const char *broken = pl_check_state(&s);
    FUZZ_CHECK(!broken, "an accepted position breaks an invariant: %s", broken);
    for (int pass = 0; pass < 2; pass++) {
        char shown[PL_POSITION_MAX], again[PL_POSITION_MAX];
        unsigned mask = pass ? hide : 0;
        pl_position_str(&s, shown, sizeof shown, mask);
        pl_State back;
        const char *e = pl_position_parse(&back, &r, shown, 8, err, sizeof err);
        FUZZ_CHECK(!e, "the printed position '%s' does not parse: %s", shown, e);
        pl_position_str(&back, again, sizeof again, mask);
        FUZZ_CHECK(strcmp(shown, again) == 0, "not a stable round trip:\n  %s\n  %s", shown, again);
    }
    pl_ActionList l;
    int n = pl_legal(&s, &l);
    FUZZ_CHECK(n == pl_legal_count(&s), "pl_legal_count disagrees");
    FUZZ_CHECK(n > 0 || s.phase >= PL_PHASE_ROUND_OVER, "no legal action in phase %d", s.phase);
    for (int i = 0; i < n; i++) {
        pl_fuzz_check_text(&s, &l.a[i]);
        pl_fuzz_check_agree(&s, &l, &l.a[i]);
        pl_State t = s;
        pl_apply_legal(&t, &l.a[i]);
        broken = pl_check_state(&t);
        FUZZ_CHECK(!broken, "action %d breaks an invariant: %s", i, broken);
    }
    return 0;
}
