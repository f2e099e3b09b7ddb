/* Fuzz target: the move parser (dl_move_parse) on fixed positions.
 *
 * Input: one byte choosing the position, then the move text. Any text may
 * be refused with a message; a parsed move must be judged the same way by
 * dl_is_legal, dl_refusal (a rule id when refused) and membership in
 * dl_legal_moves, and a legal one must print and parse back to itself. */
#include "fuzz.h"

typedef struct {
    int rules; /* fuzz_rules byte */
    const char *position;
} MoveCase;

/* fuzz_rules bytes: 0 diloti 2p, 1 diloti 4p teams, 6 V-face-card-claim
 * 2p, 28 all play variants 2p, 30 kontsina 2p, 32 kontsina 3p, 33
 * kontsina 4p, 20 V-soy 2p, 12 V-forced-capture 2p (see mv_setup). */
static const MoveCase MV_CASES[] = {
    {0, "hands=8h 2d Kc / 9c 7d; table=8c 6d 5s 3h 2c Kd P9@1(4c+5c)"},
    {0, "hands=Ac 3d 7h 8d 6h / 5c 6s 9d 2s; table=2h 3c G8@0(Ah+3s+4h,8s) P6@1(2c+4d)"},
    {0, "turn=1; hands=Ac 3d 7h 8d / 5c 6s 9d 10h 10c; table=2h 3c 4s 5d 6d P8@0(As+7s); "
        "last=0"},
    {1, "hands=8h 2d / 9c 7d / 7h 3s / Kc 4d; table=8c 6d 5s 3h 2c P7@1(3c+4c)"},
    {6, "ply=0; claim=0; hands=Jc Jd Qc Qs Kh 2c / 9c 7d 3c 4h 5h 6h; table=8c 6d 5s 3h"},
    {28, "hands=Ac 3d 7h 8d 6h Qs / 5c 6s 9d 2s Qd; table=2h 3c 5h Qh G8@0(Ah+3s+4h,8s) "
         "P6@1(2c+4d)"},
    {30, "hands=8h 5d 3c / 9c 7d 2s; table=8c 5s 3h 2c 6d"},
    {32, "hands=8h 5d / 9c 7d / 2s 10s; table=8c 5s 3h 2c 6d As"},
    {33, "hands=8h 5d / 9c 7d / 2s 10s / Jh Jc; table=8c 5s 3h 2c 6d Js"},
    {20, "hands=9h 5d 3c Ks / 9c 7d 2s Kd; table=9s 4h 5s Kc"},
    {12, "hands=8h 2d Kc / 9c 7d; table=8c 6d 5s 3h 2c Kd"},
};
#define MV_NCASES ((int)(sizeof MV_CASES / sizeof *MV_CASES))

static dl_State mv_state[MV_NCASES];
static dl_MoveList mv_list[MV_NCASES];
static bool mv_ready;

static void mv_setup(void)
{
    for (int i = 0; i < MV_NCASES; i++) {
        dl_Rules r;
        char err[256];
        fuzz_rules((uint8_t)MV_CASES[i].rules, &r, NULL);
        const char *e = dl_position_parse(&mv_state[i], &r, MV_CASES[i].position, 1, err, sizeof err);
        FUZZ_CHECK(!e, "fixed position %d does not parse: %s", i, e);
        dl_movelist_init(&mv_list[i]);
        FUZZ_CHECK(dl_legal_moves(&mv_state[i], &mv_list[i]) > 0, "fixed position %d: no moves", i);
        for (size_t k = 0; k < mv_list[i].n; k++) fuzz_check_move_text(&mv_state[i], &mv_list[i].m[k]);
    }
    mv_ready = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[FUZZ_MAX_TEXT + 1];
    if (size < 1) return 0;
    if (!mv_ready) mv_setup();
    int c = data[0] % MV_NCASES;
    const dl_State *s = &mv_state[c];
    fuzz_text(data + 1, size - 1, text);
    dl_Move m;
    char err[256];
    memset(err, 'x', sizeof err);
    if (dl_move_parse(s, text, &m, err, sizeof err)) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "a refusal without a message");
        return 0;
    }
    fuzz_check_agree(s, &mv_list[c], &m);
    if (dl_is_legal(s, &m)) fuzz_check_move_text(s, &m);
    /* A parsed move prints, legal or not, within its buffer. */
    char out[256];
    int n = dl_move_str(s, &m, out, sizeof out, true);
    FUZZ_CHECK(n >= 0 && strlen(out) < sizeof out, "move string overflow");
    return 0;
}
