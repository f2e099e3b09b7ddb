/* Fuzz target: the position parser (dl_position_parse).
 *
 * Input: one byte choosing the rules (fuzz_rules), then the position text.
 * Any text may be refused, with a message; an accepted position must hold
 * the invariants, print to a canonical string that parses back to the
 * same string (with the pack shown or hidden as "?N"), and its legal
 * moves must agree with dl_is_legal/dl_refusal, print and parse back, and
 * keep the invariants when played. */
#include "fuzz.h"

#define POS_SEED 7
/* Moves played from each accepted position (all are checked). */
#define POS_PLAY 24
#define POS_CHECK 256
#define POS_AGREE 16

static dl_MoveList pos_list;
static bool pos_ready;

static void pos_reparse(const dl_Rules *r, const char *text, bool hidden)
{
    dl_State back;
    char err[256], again[DL_POSITION_MAX];
    const char *e = dl_position_parse(&back, r, text, POS_SEED + 1, err, sizeof err);
    FUZZ_CHECK(!e, "the printed position '%s' does not parse: %s", text, e);
    FUZZ_CHECK(!dl_check_state(&back), "the reparsed position breaks: %s", dl_check_state(&back));
    dl_position_str(&back, again, sizeof again, hidden);
    FUZZ_CHECK(strcmp(text, again) == 0, "not a stable round trip:\n  %s\n  %s", text, again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[FUZZ_MAX_TEXT + 1];
    if (size < 1) return 0;
    if (!pos_ready) dl_movelist_init(&pos_list), pos_ready = true;
    dl_Rules r;
    fuzz_rules(data[0], &r, NULL);
    fuzz_text(data + 1, size - 1, text);

    dl_State s;
    char err[256];
    memset(err, 'x', sizeof err);
    if (dl_position_parse(&s, &r, text, POS_SEED, err, sizeof err)) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "a refusal without a message");
        return 0;
    }
    const char *broken = dl_check_state(&s);
    FUZZ_CHECK(!broken, "an accepted position breaks an invariant: %s", broken);

    char shown[DL_POSITION_MAX], hidden[DL_POSITION_MAX];
    int n = dl_position_str(&s, shown, sizeof shown, false);
    FUZZ_CHECK(n > 0 && (size_t)n < sizeof shown, "position string of %d bytes", n);
    pos_reparse(&r, shown, false);
    dl_position_str(&s, hidden, sizeof hidden, true);
    pos_reparse(&r, hidden, true);

    long moves = dl_legal_moves(&s, &pos_list);
    FUZZ_CHECK(moves >= 0, "out of memory generating moves");
    if (s.phase == DL_PHASE_PLAY || s.phase == DL_PHASE_CLAIM)
        FUZZ_CHECK(moves > 0, "D20: no legal move in %s", shown);
    else
        FUZZ_CHECK(moves == 0, "moves in phase %d", s.phase);
    /* Every move when there are few; a spread otherwise (dl_is_legal and
     * dl_refusal generate the whole list each time). */
    long stride = moves > POS_CHECK ? moves / POS_CHECK : 1;
    for (long i = 0; i < moves; i += stride) fuzz_check_move_text(&s, &pos_list.m[i]);
    stride = moves > POS_AGREE ? moves / POS_AGREE : 1;
    for (long i = 0; i < moves; i += stride) fuzz_check_agree(&s, &pos_list, &pos_list.m[i]);
    /* Play a spread of them (copies of s: the list stays valid). */
    long step = moves > POS_PLAY ? moves / POS_PLAY : 1;
    for (long i = 0; i < moves; i += step) {
        dl_State t = s;
        dl_Effect eff;
        dl_apply(&t, &pos_list.m[i], &eff);
        broken = dl_check_state(&t);
        FUZZ_CHECK(!broken, "move %ld from '%s' breaks an invariant: %s", i, shown, broken);
        char after[DL_POSITION_MAX];
        dl_position_str(&t, after, sizeof after, false);
        pos_reparse(&r, after, false);
    }
    return 0;
}
