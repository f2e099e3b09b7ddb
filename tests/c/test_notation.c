/* Notation: cards, moves and positions as text (src/diloti/notation.h,
 * src/diloti/position.h). Round trips over many random positions, and malformed
 * strings that must be refused with where ("at N") and what. */
#include "testutil.h"
#include "text.h"

#include <stdio.h>
#include <string.h>

/* ---- helpers ---- */

static const char *state_str(const dl_State *s)
{
    static char buf[DL_POSITION_MAX];
    dl_position_str(s, buf, sizeof buf, false);
    return buf;
}

static dl_Move random_pick(const dl_State *s, dl_Rng *rng)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    long n = dl_legal_moves(s, &l);
    if (n <= 0) {
        dl_movelist_free(&l);
        fail_msg("D20: no legal move in %s", state_str(s));
    }
    dl_Move m = l.m[dl_rng_below(rng, (uint32_t)n)];
    dl_movelist_free(&l);
    return m;
}

/* The rules the round trips run under. */
typedef struct {
    const char *name;
    dl_Rules r;
} Config;

static int configs(Config *c)
{
    int n = 0;
    c[n].name = "diloti";
    dl_rules_diloti(&c[n++].r);
    c[n].name = "diloti 4 teams";
    dl_rules_diloti(&c[n].r);
    dl_rules_set_players(&c[n++].r, 4, true);
    c[n].name = "kontsina 4 no teams";
    dl_rules_kontsina(&c[n].r);
    dl_rules_set_players(&c[n++].r, 4, false);
    c[n].name = "diloti liberal";
    dl_rules_diloti(&c[n].r);
    c[n].r.liberal_group = c[n].r.liberal_raise = c[n].r.liberal_capture = true;
    c[n].r.three_face_cards = true;
    n++;
    c[n].name = "diloti claims";
    dl_rules_diloti(&c[n].r);
    c[n].r.face_card_claim = c[n].r.claim_any_deal = true;
    c[n].r.claim_faces = 3; /* frequent claim decisions */
    c[n].r.dealer_peeks = true;
    n++;
    c[n].name = "kontsina";
    dl_rules_kontsina(&c[n++].r);
    c[n].name = "kontsina 3";
    dl_rules_kontsina(&c[n].r);
    dl_rules_set_players(&c[n++].r, 3, false);
    c[n].name = "kontsina 4 teams";
    dl_rules_kontsina(&c[n].r);
    dl_rules_set_players(&c[n++].r, 4, true);
    return n;
}

/* Calls fn on every position of a few random rounds under every config,
 * including finished rounds (phase round-over / match-over). */
typedef void (*PosFn)(const dl_State *s, void *ctx);

static void each_position(int seeds, PosFn fn, void *ctx)
{
    Config c[16];
    int nc = configs(c);
    for (int k = 0; k < nc; k++) {
        assert_null(dl_rules_check(&c[k].r));
        for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
            dl_State s;
            dl_Rng rng;
            dl_rng_seed(&rng, seed * 1000 + (uint64_t)k);
            assert_null(dl_new_match(&s, &c[k].r, seed, -1));
            int rounds = 0;
            for (;;) {
                fn(&s, ctx);
                if (s.phase == DL_PHASE_PLAY || s.phase == DL_PHASE_CLAIM) {
                    dl_Move m = random_pick(&s, &rng);
                    dl_apply(&s, &m, NULL);
                } else if (s.phase == DL_PHASE_ROUND_OVER && rounds < 1) {
                    rounds++;
                    dl_next_round(&s);
                } else {
                    break;
                }
            }
        }
    }
}

/* ---- cards ---- */

/* The text builder's own appends (the hot move texts use them instead
 * of a format): numbers of every sign, and a buffer that fills up. */
static void test_text_builder(void **state)
{
    (void)state;
    char buf[32];
    dl_Text t = dl_text(buf, sizeof buf);
    dl_text_int(&t, 0);
    dl_text_str(&t, " ");
    dl_text_int(&t, -45);
    dl_text_put(&t, " ", 1);
    dl_text_int(&t, 1234567890L);
    assert_string_equal(buf, "0 -45 1234567890");
    assert_int_equal(t.n, strlen(buf));
    char small[6];
    t = dl_text(small, sizeof small);
    dl_text_str(&t, "abc");
    dl_text_int(&t, 98765);
    assert_string_equal(small, "abc98");
    assert_int_equal(t.n, 5);
}

static void test_card_parse_ascii(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int rank, suit, len;
    } ok[] = {
        {"7h", 6, DL_HEARTS, 2},   {"10d", 9, DL_DIAMONDS, 3}, {"Td", 9, DL_DIAMONDS, 2},
        {"td", 9, DL_DIAMONDS, 2}, {"TD", 9, DL_DIAMONDS, 2},  {"10D", 9, DL_DIAMONDS, 3},
        {"Kc", 12, DL_CLUBS, 2},   {"kc", 12, DL_CLUBS, 2},    {"KC", 12, DL_CLUBS, 2},
        {"kC", 12, DL_CLUBS, 2},   {"Ah", 0, DL_HEARTS, 2},    {"as", 0, DL_SPADES, 2},
        {"1s", 0, DL_SPADES, 2},   {"Qs", 11, DL_SPADES, 2},   {"jd", 10, DL_DIAMONDS, 2},
        {"2c", 1, DL_CLUBS, 2},    {"9S", 8, DL_SPADES, 2},    {"7hx", 6, DL_HEARTS, 2},
        {"10c lay", 9, DL_CLUBS, 3},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int len = -1, c = dl_card_parse(ok[i].text, &len);
        if (c != dl_card(ok[i].rank, ok[i].suit) || len != ok[i].len)
            fail_msg("'%s' parsed as %d (len %d)", ok[i].text, c, len);
    }
}

static void test_card_str_ascii_and_unicode(void **state)
{
    (void)state;
    char b[8];
    assert_int_equal(dl_card_str(dl_card(6, DL_HEARTS), b, false), 2);
    assert_string_equal(b, "7h");
    assert_int_equal(dl_card_str(dl_card(9, DL_DIAMONDS), b, false), 3);
    assert_string_equal(b, "10d");
    dl_card_str(dl_card(12, DL_CLUBS), b, false);
    assert_string_equal(b, "Kc");
    dl_card_str(dl_card(0, DL_SPADES), b, false);
    assert_string_equal(b, "As");
    dl_card_str(dl_card(10, DL_DIAMONDS), b, false);
    assert_string_equal(b, "Jd");
    dl_card_str(dl_card(11, DL_HEARTS), b, false);
    assert_string_equal(b, "Qh");
    assert_int_equal(dl_card_str(dl_card(6, DL_HEARTS), b, true), (int)strlen("7\u2665"));
    assert_string_equal(b, "7\u2665");
    dl_card_str(dl_card(9, DL_DIAMONDS), b, true);
    assert_string_equal(b, "10\u2666");
    dl_card_str(dl_card(12, DL_CLUBS), b, true);
    assert_string_equal(b, "K\u2663");
    dl_card_str(dl_card(0, DL_SPADES), b, true);
    assert_string_equal(b, "A\u2660");
}

static void test_card_parse_unicode(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int rank, suit;
    } ok[] = {
        {"7\u2665", 6, DL_HEARTS},   {"10\u2666", 9, DL_DIAMONDS}, {"K\u2663", 12, DL_CLUBS},
        {"a\u2660", 0, DL_SPADES},   {"T\u2666", 9, DL_DIAMONDS},  {"7\u2661", 6, DL_HEARTS},
        {"q\u2662", 11, DL_DIAMONDS}, {"3\u2667", 2, DL_CLUBS},    {"J\u2664", 10, DL_SPADES},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int len = -1, c = dl_card_parse(ok[i].text, &len);
        if (c != dl_card(ok[i].rank, ok[i].suit) || len != (int)strlen(ok[i].text))
            fail_msg("'%s' parsed as %d (len %d)", ok[i].text, c, len);
    }
    /* A trailing emoji variation selector is part of the card. */
    int len;
    assert_int_equal(dl_card_parse("7\u2665\xEF\xB8\x8F x", &len), dl_card(6, DL_HEARTS));
    assert_int_equal(len, 7);
}

static void test_card_round_trip_all(void **state)
{
    (void)state;
    for (int c = 0; c < DL_NCARDS; c++) {
        char b[8];
        int len;
        for (int u = 0; u < 2; u++) {
            int n = dl_card_str(c, b, u);
            assert_int_equal(n, (int)strlen(b));
            assert_int_equal(dl_card_parse(b, &len), c);
            assert_int_equal(len, n);
        }
    }
}

static void test_card_garbage_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {"",   "x",   "7",   "7x",  "0h",  "11h", "Zh", "h7",
                                      " 7h", "\u26657", "B\u2663", "10",  "1",  "-",  "?",
                                      "7 h", "Pc", "7\xE2\x99", "\xE2\x99\xA5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int len = 99;
        int c = dl_card_parse(bad[i], &len);
        if (c >= 0) fail_msg("'%s' should not parse as a card, got %d", bad[i], c);
    }
}

static void test_card_set_str(void **state)
{
    (void)state;
    char b[300];
    dl_Set s = DL_BIT(dl_card(9, DL_DIAMONDS)) | DL_BIT(dl_card(0, DL_CLUBS)) |
               DL_BIT(dl_card(12, DL_SPADES)) | DL_BIT(dl_card(6, DL_HEARTS));
    dl_set_str(s, b, sizeof b, false);
    assert_string_equal(b, "Ac 7h 10d Ks");
    dl_set_str(s, b, sizeof b, true);
    assert_string_equal(b, "A\u2663 7\u2665 10\u2666 K\u2660");
    dl_set_str(0, b, sizeof b, false);
    assert_string_equal(b, "");
}

/* ---- moves ---- */

typedef struct {
    long moves;
    long kinds[8];
    long positions;
    long respelled;
} MoveStats;

/* The move with every declaration it names spelled by its cards, or
 * (by_kind) by kind and value where no other declaration has both. */
static void respell(const dl_State *s, const dl_Move *m, bool by_kind, char *out, size_t cap)
{
    if (!by_kind) {
        dl_Set cards = m->take & DL_DECK;
        char cs[8], set[160];
        for (int i = 0; i < s->ndecl; i++)
            if (m->take & DL_DECL_BIT(i)) cards |= s->decl[i].cards;
        dl_card_str(m->card, cs, false);
        dl_set_str(cards, set, sizeof set, false);
        if (m->kind == DL_CAPTURE)
            snprintf(out, cap, "%s x %s", cs, set);
        else
            snprintf(out, cap, "%s + %s = %s%d", cs, set, m->kind == DL_GROUP ? "G" : "",
                     m->value);
        return;
    }
    dl_move_str(s, m, out, cap, false);
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        bool unique = true;
        for (int j = 0; j < s->ndecl; j++)
            if (j != i && s->decl[j].kind == d->kind && s->decl[j].value == d->value)
                unique = false;
        char ref[16];
        snprintf(ref, sizeof ref, " %c%d@%d", d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value,
                 d->owner);
        char *at = strstr(out, ref);
        if (!unique || !at || !(m->take & DL_DECL_BIT(i))) continue;
        char *seat = strchr(at + 1, '@');
        memmove(seat, seat + 2, strlen(seat + 2) + 1);
    }
}

static void move_round_trip(const dl_State *s, void *vctx)
{
    MoveStats *st = vctx;
    dl_MoveList l;
    dl_movelist_init(&l);
    if (dl_legal_moves(s, &l) < 0) fail_msg("out of memory");
    st->positions++;
    for (size_t i = 0; i < l.n; i++) {
        for (int u = 0; u < 2; u++) {
            char text[200], again[200], err[300];
            dl_Move m;
            dl_move_str(s, &l.m[i], text, sizeof text, u);
            if (dl_move_parse(s, text, &m, err, sizeof err))
                fail_msg("'%s' does not parse back: %s\n  in %s", text, err, state_str(s));
            if (!dl_move_eq(&m, &l.m[i]))
                fail_msg("'%s' parses to another move\n  in %s", text, state_str(s));
            /* The printed form is canonical. */
            dl_move_str(s, &m, again, sizeof again, u);
            assert_string_equal(text, again);
        }
        /* A declaration named by its cards, or by kind and value, is the
         * same move. */
        for (int k = 0; k < 2 && (l.m[i].take & DL_DECL_ITEMS); k++) {
            char text[240], err[300];
            dl_Move m;
            respell(s, &l.m[i], k == 1, text, sizeof text);
            if (dl_move_parse(s, text, &m, err, sizeof err))
                fail_msg("'%s' does not parse: %s\n  in %s", text, err, state_str(s));
            if (!dl_move_eq(&m, &l.m[i]))
                fail_msg("'%s' parses to another move\n  in %s", text, state_str(s));
            st->respelled++;
        }
        st->moves++;
        st->kinds[l.m[i].kind]++;
    }
    dl_movelist_free(&l);
}

static void test_move_round_trip_random_positions(void **state)
{
    (void)state;
    MoveStats st;
    memset(&st, 0, sizeof st);
    each_position(10, move_round_trip, &st);
    assert_true(st.positions > 1000);
    assert_true(st.respelled > 100);
    /* Every kind of move went through the round trip. */
    for (int k = DL_LAY; k <= DL_KEEP; k++)
        if (st.kinds[k] == 0) fail_msg("no move of kind %d was seen", k);
}

/* A position with a plain and a group on the table. */
static const char *const DECLS =
    "hands=8h 3h 5h 6h Jh / 6d 9c; table=8c 5c 2s Jc P6@1(4d+2c) G8@0(Ac+3d+4h,8s)";

static void test_move_parse_forms(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, DECLS);
    dl_Move a, b;
    char err[300];
    static const char *const same[][2] = {
        {"8h x 8c", "8H X 8C"},
        {"8h x 5c 2s G8@0 8c", "8h x 8c 2s 5c G8@0"},
        {"8h x 8c G8@0", "8h x 8c @0"},
        {"8h x 8c G8@0", "8h x 8c g8@0"},
        {"8h x 8c G8@0", "8\u2665 x 8\u2663 G8@0"},
        {"8h x 8c G8@0", "  8h   x   8c   G8@0  "},
        {"3h + 5c = 8", "3h+5c=8"},
        {"3h + 5c = 8", "3\u2661 + 5\u2667 = 8"},
        {"3h + P6@1 = 9", "3h + @1 = 9"},
        {"3h + P6@1 = 9", "3h+p6@1=9"},
        {"6h + 2s G8@0 = G8", "6h + G8@0 2s = g8"},
        {"6h + 2s 5c 8c G8@0 P6@1 = G8", "6h + 2s + 5c, 8c, G8@0, P6@1 = G8"},
        {"Jh x Jc", "jh x jc"},
        {"8h lay", "8h -"},
        {"8h lay", "8h LAY"},
        {"claim", "CLAIM"},
        {"keep", "  keep "},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        if (dl_move_parse(&s, same[i][0], &a, err, sizeof err))
            fail_msg("'%s': %s", same[i][0], err);
        if (dl_move_parse(&s, same[i][1], &b, err, sizeof err))
            fail_msg("'%s': %s", same[i][1], err);
        if (!dl_move_eq(&a, &b)) fail_msg("'%s' and '%s' differ", same[i][0], same[i][1]);
    }
    /* Kinds: a '+' with a plain declaration and no G is a raise. */
    dl_move_parse(&s, "3h + P6@1 = 9", &a, err, sizeof err);
    assert_int_equal(a.kind, DL_RAISE);
    assert_int_equal(a.value, 9);
    dl_move_parse(&s, "3h + 5c = 8", &a, err, sizeof err);
    assert_int_equal(a.kind, DL_PLAIN);
    dl_move_parse(&s, "6h + 2s G8@0 = G8", &a, err, sizeof err);
    assert_int_equal(a.kind, DL_GROUP);
    assert_int_equal(a.value, 8);
    dl_move_parse(&s, "8h x 8c", &a, err, sizeof err);
    assert_int_equal(a.kind, DL_CAPTURE);
    assert_int_equal(a.card, dl_card(7, DL_HEARTS));
    assert_true(a.take == DL_BIT(dl_card(7, DL_CLUBS)));
}

static void test_move_str_canonical(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, DECLS);
    dl_Move m;
    char err[300], out[200];
    /* Cards lowest first, then declarations by owner. */
    assert_null(dl_move_parse(&s, "8h x G8@0 8c 2s 5c", &m, err, sizeof err));
    dl_move_str(&s, &m, out, sizeof out, false);
    assert_string_equal(out, "8h x 2s 5c 8c G8@0");
    dl_move_str(&s, &m, out, sizeof out, true);
    assert_string_equal(out, "8\u2665 x 2\u2660 5\u2663 8\u2663 G8@0");
    assert_null(dl_move_parse(&s, "6h + P6@1 2s 5c 8c G8@0 = g8", &m, err, sizeof err));
    dl_move_str(&s, &m, out, sizeof out, false);
    assert_string_equal(out, "6h + 2s 5c 8c G8@0 P6@1 = G8");
    assert_null(dl_move_parse(&s, "3h+5c=8", &m, err, sizeof err));
    dl_move_str(&s, &m, out, sizeof out, false);
    assert_string_equal(out, "3h + 5c = 8");
    assert_null(dl_move_parse(&s, "3h + @1 = 9", &m, err, sizeof err));
    dl_move_str(&s, &m, out, sizeof out, false);
    assert_string_equal(out, "3h + P6@1 = 9");
    assert_null(dl_move_parse(&s, "10h lay", &m, err, sizeof err));
    dl_move_str(&s, &m, out, sizeof out, false);
    assert_string_equal(out, "10h lay");
}

/* The 1-based column of the nth occurrence of where in text ("" = end). */
static int column(const char *text, const char *where, int nth)
{
    if (!*where) return (int)strlen(text) + 1;
    const char *p = text;
    for (int i = 0; i < nth; i++) {
        p = strstr(i ? p + 1 : p, where);
        if (!p) fail_msg("test error: '%s' not in '%s'", where, text);
    }
    return (int)(p - text) + 1;
}

/* The error names a place: "at N" with N on the token (or just after it). */
static void assert_at(const char *err, const char *text, const char *where, int nth)
{
    const char *a = strstr(err, "at ");
    if (!a) fail_msg("'%s': the error says no place: %s", text, err);
    int n = 0;
    if (sscanf(a, "at %d", &n) != 1) fail_msg("'%s': bad place in: %s", text, err);
    int col = column(text, where, nth), len = (int)strlen(where);
    /* pointing at the blank just before the token is as good */
    while (n >= 1 && n < col && n <= (int)strlen(text) && text[n - 1] == ' ') n++;
    if (n < col || n > col + len)
        fail_msg("'%s': error at %d, expected at %d ('%s'): %s", text, n, col, where, err);
}

static void assert_says(const char *err, const char *text, const char *what)
{
    if (!strstr(err, what)) fail_msg("'%s': error should say '%s', got: %s", text, what, err);
}

static void test_move_parse_errors(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, DECLS);
    static const struct {
        const char *text, *where;
        int nth;
        const char *what;
    } bad[] = {
        {"8h x 9c", "9c", 1, "9c is not a loose card on the table"},
        {"8h x 8c Jd", "Jd", 1, "not a loose card"},
        {"8h x 8d", "8d", 1, "not a loose card"}, /* in a hand, not on the table */
        {"3h + 5c", "", 1, "= value"},
        {"3h + 5c = 11", "11", 1, "not 11"},
        {"3h + 5c = 0", "0", 1, "not 0"},
        {"3h + 5c =", "", 1, "expected the declared value"},
        {"3h + 5c = G", "G", 1, "expected the declared value"},
        {"3h + 5c = 8 extra", "extra", 1, "unexpected"},
        {"Zh lay", "Zh", 1, "expected the card you play"},
        {"", "", 1, "empty move"},
        {"8h", "", 1, "say what the card does"},
        {"8h jump", "jump", 1, "expected 'lay', 'x' or '+'"},
        {"8h lay now", "now", 1, "nothing may follow 'lay'"},
        {"8h x 8c 8c", "8c", 2, "named twice"},
        {"8h x 8c P8@1", "P8@1", 1, "seat 1's declaration is P6"},
        {"8h x 8c P8@0", "P8@0", 1, "seat 0's declaration is G8"},
        {"8h x 8c G6@1", "G6@1", 1, "seat 1's declaration is P6"},
        {"8h x 8c @2", "@2", 1, "seat 2 owns no declaration"},
        {"8h x 8c P7@9", "P7@9", 1, "seat 9 owns no declaration"},
        {"8h x 8c P8@", "P8@", 1, "expected a declaration"},
        {"8h x", "", 1, "name what the capture takes"},
        {"8h x 8c = 8", "=", 1, "a capture declares no value"},
        {"8h x 8c ?", "?", 1, "expected a card"},
        {"claim now", "now", 1, "nothing may follow 'claim'"},
        {"keep 1", "1", 1, "nothing may follow 'keep'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[300];
        dl_Move m;
        const char *e = dl_move_parse(&s, bad[i].text, &m, err, sizeof err);
        if (!e) fail_msg("'%s' should not parse", bad[i].text);
        assert_at(e, bad[i].text, bad[i].where, bad[i].nth);
        assert_says(e, bad[i].text, bad[i].what);
    }
}

/* ---- declarations named by their cards, kind and value, or value ---- */

/* Two seats own a plain 9 each, beside a loose 9 and a loose 2. */
static const char *const TWO_NINES =
    "hands=9h 5h 7h / 9c 3c; table=9s 2h P9@0(4d+5d) P9@1(3d+6c)";

static void assert_same_move(const dl_State *s, const char *a, const char *b)
{
    dl_Move ma, mb;
    char err[300];
    if (dl_move_parse(s, a, &ma, err, sizeof err)) fail_msg("'%s': %s", a, err);
    if (dl_move_parse(s, b, &mb, err, sizeof err)) fail_msg("'%s' (for '%s'): %s", b, a, err);
    if (!dl_move_eq(&ma, &mb)) fail_msg("'%s' and '%s' differ", a, b);
}

static void test_move_parse_decl_by_cards_and_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, DECLS);
    static const char *const same[][2] = {
        /* by its cards, in any order, alone or beside loose cards */
        {"8h x G8@0", "8h x 8s 4h 3d Ac"},
        {"8h x 8c G8@0", "8h x Ac 3d 4h 8s 8c"},
        {"8h x 8c G8@0", "8h x 8c, Ac+3d+4h, 8s"},
        {"3h + P6@1 = 9", "3h + 2c 4d = 9"},
        {"3h + P6@1 = 9", "3h+4d+2c=9"},
        {"6h + 2s G8@0 = G8", "6h + 2s 8s Ac 3d 4h = G8"},
        /* by kind and value */
        {"3h + P6@1 = 9", "3h + P6 = 9"},
        {"3h + P6@1 = 9", "3h + p6 = 9"},
        {"8h x 8c G8@0", "8h x 8c G8"},
        {"6h + 2s 5c 8c G8@0 P6@1 = G8", "6h + 2s 5c 8c G8 P6 = G8"},
        /* by value alone, where one item on the table has it */
        {"3h + P6@1 = 9", "3h + 6 = 9"},
        {"3h + 5c = 8", "3h + 5 = 8"},
        {"3h + 5c = 8", "3h+5=8"},
        {"8h x 2s 5c 8c G8@0 P6@1", "8h x 2 5c 8c G8 6"},
        /* value and owner */
        {"3h + P6@1 = 9", "3h + 6@1 = 9"},
        {"8h x G8@0", "8h x 8@0"},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        assert_same_move(&s, same[i][0], same[i][1]);

    s = pos(&r, TWO_NINES);
    assert_same_move(&s, "9h x P9@1", "9h x 6c 3d");
    assert_same_move(&s, "9h x P9@0", "9h x 5d 4d");
    assert_same_move(&s, "9h x 9s P9@0 P9@1", "9h x 9s 4d 5d 3d 6c");
    assert_same_move(&s, "7h + 2h = 9", "7h + 2 = 9");
}

/* Refused with the place, what is wrong and, for an ambiguity, the
 * choices in canonical notation. */
static void test_move_parse_decl_name_errors(void **state)
{
    (void)state;
    static const struct {
        const char *position, *text, *where;
        int nth;
        const char *what;
    } bad[] = {
        {DECLS, "8h x 4h", "4h", 1, "4h is part of G8@0(Ac+3d+4h,8s): name every card of it"},
        {DECLS, "8h x 8c Ac 3d", "Ac", 1, "Ac is part of G8@0"},
        {DECLS, "8h x 2c", "2c", 1, "or the declaration as P6@1"},
        {DECLS, "8h x G8@0 8s", "8s", 1, "named twice"},
        {DECLS, "8h x Ac 3d 4h 8s G8", "G8", 1, "named twice"},
        {DECLS, "8h x Ac G8@0", "G8@0", 1, "named twice"},
        {DECLS, "8h x 8s 8s", "8s", 2, "named twice"},
        {DECLS, "8h x 8d", "8d", 1, "8d is not a loose card on the table"},
        {DECLS, "8h x P8", "P8", 1, "no plain declaration of 8 on the table"},
        {DECLS, "8h x G6", "G6", 1, "no group of 6s on the table"},
        {DECLS, "8h x G11", "G11", 1, "a declaration's value is 1 to 10"},
        {DECLS, "8h x 7", "7", 1, "nothing on the table is worth 7"},
        {DECLS, "8h x 8", "8", 2, "8 could be 8c or G8@0: name one"},
        {DECLS, "8h x 11", "11", 1, "nothing on the table is worth 11"},
        {DECLS, "3h + 5c 8", "8", 1, "a declaration ends with '= value': did you mean '= 8'?"},
        {DECLS, "3h + 5", "", 1, "a declaration ends with '= value'"},
        {DECLS, "8h x P", "P", 1, "expected a declaration like P6@1, P6 or @1"},
        {DECLS, "8h x 8c P6@12", "2", 1, "expected a card"},
        {DECLS, "8h x 5c8", "5c8", 1, "expected a card"},
        {TWO_NINES, "9h x P9", "P9", 1, "P9 could be P9@0 or P9@1: name one"},
        {TWO_NINES, "9h x 9", "9", 2, "9 could be 9s, P9@0 or P9@1: name one"},
        {TWO_NINES, "9h x 9s 6c", "6c", 1, "6c is part of P9@1(3d+6c)"},
    };
    dl_Rules r = diloti_rules();
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[300];
        dl_Move m;
        dl_State s = pos(&r, bad[i].position);
        const char *e = dl_move_parse(&s, bad[i].text, &m, err, sizeof err);
        if (!e) fail_msg("'%s' should not parse", bad[i].text);
        assert_at(e, bad[i].text, bad[i].where, bad[i].nth);
        assert_says(e, bad[i].text, bad[i].what);
    }
}

static void test_move_parse_against_state(void **state)
{
    (void)state;
    /* "@1" names seat 1's declaration only when there is one. */
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=9h 3h / 9c; table=8c 5c");
    char err[300];
    dl_Move m;
    const char *e = dl_move_parse(&s, "3h + P6@1 = 9", &m, err, sizeof err);
    assert_non_null(e);
    assert_says(e, "3h + P6@1 = 9", "seat 1 owns no declaration");
    /* A parsed move may still be illegal: the refusal names the rule. */
    assert_null(dl_move_parse(&s, "3h + 5c = 8", &m, err, sizeof err));
    assert_false(dl_is_legal(&s, &m));
    assert_refused(&s, "3h + 5c = 8", "D14"); /* no 8 after playing 3h */
}

/* ---- positions ---- */

typedef struct {
    long positions, with_decl, claims, over;
} PosStats;

static void check_same_state(const dl_State *a, const dl_State *b, bool pack_order)
{
    const int n = a->rules.players, sides = dl_nsides(&a->rules);
    for (int i = 0; i < n; i++) assert_true(a->hand[i] == b->hand[i]);
    for (int i = 0; i < sides; i++) {
        assert_true(a->pile[i] == b->pile[i]);
        assert_int_equal(a->xeri[i], b->xeri[i]);
        assert_int_equal(a->score[i], b->score[i]);
        assert_int_equal(a->rounds_won[i], b->rounds_won[i]);
    }
    assert_true(a->loose == b->loose);
    assert_int_equal(a->ndecl, b->ndecl);
    for (int seat = 0; seat < n; seat++) {
        int i = dl_owned_decl(a, seat), j = dl_owned_decl(b, seat);
        assert_int_equal(i < 0, j < 0);
        if (i < 0) continue;
        assert_true(a->decl[i].cards == b->decl[j].cards);
        assert_int_equal(a->decl[i].value, b->decl[j].value);
        assert_int_equal(a->decl[i].kind, b->decl[j].kind);
        assert_int_equal(a->decl[i].ncomp, b->decl[j].ncomp);
    }
    assert_int_equal(a->phase, b->phase);
    assert_int_equal(a->dealer, b->dealer);
    if (a->phase == DL_PHASE_PLAY || a->phase == DL_PHASE_CLAIM) assert_int_equal(a->turn, b->turn);
    assert_int_equal(a->deal, b->deal);
    assert_int_equal(a->ply, b->ply);
    assert_int_equal(a->round, b->round);
    assert_int_equal(a->last_capturer, b->last_capturer);
    assert_int_equal(a->claim_pending, b->claim_pending);
    assert_int_equal(a->pack_len - a->pack_pos, b->pack_len - b->pack_pos);
    assert_true(dl_pack_set(a) == dl_pack_set(b));
    if (pack_order)
        for (int i = 0; i < a->pack_len - a->pack_pos; i++)
            assert_int_equal(a->pack[a->pack_pos + i], b->pack[b->pack_pos + i]);
}

static void position_round_trip(const dl_State *s, void *vctx)
{
    PosStats *st = vctx;
    char one[DL_POSITION_MAX], two[DL_POSITION_MAX], err[300];
    dl_State t;
    st->positions++;
    if (s->ndecl) st->with_decl++;
    if (s->phase == DL_PHASE_CLAIM) st->claims++;
    if (s->phase == DL_PHASE_ROUND_OVER || s->phase == DL_PHASE_MATCH_OVER) st->over++;

    int n1 = dl_position_str(s, one, sizeof one, false);
    assert_int_equal(n1, (int)strlen(one));
    if (dl_position_parse(&t, &s->rules, one, 7, err, sizeof err))
        fail_msg("position does not parse back: %s\n  %s", err, one);
    dl_position_str(&t, two, sizeof two, false);
    if (strcmp(one, two) != 0) fail_msg("round trip differs:\n  %s\n  %s", one, two);
    check_same_state(s, &t, true);
    /* The parsed state is consistent and offers the same moves. */
    assert_null(dl_check_state(&t));
    if (s->phase == DL_PHASE_PLAY) assert_int_equal(nmoves(s), nmoves(&t));

    /* Hidden pack: "pack=?N" comes back as the same string. */
    dl_position_str(s, one, sizeof one, true);
    if (dl_position_parse(&t, &s->rules, one, 11, err, sizeof err))
        fail_msg("hidden-pack position does not parse back: %s\n  %s", err, one);
    dl_position_str(&t, two, sizeof two, true);
    if (strcmp(one, two) != 0) fail_msg("hidden round trip differs:\n  %s\n  %s", one, two);
    check_same_state(s, &t, false);
}

static void test_position_round_trip_random(void **state)
{
    (void)state;
    PosStats st;
    memset(&st, 0, sizeof st);
    each_position(8, position_round_trip, &st);
    assert_true(st.positions > 1000);
    assert_true(st.with_decl > 50);
    assert_true(st.claims > 0);
    assert_true(st.over > 0);
}

static void test_position_explicit_round_trip(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    const char *text =
        "dealer=1; turn=0; round=2; deal=2; ply=17; hands=8h 3h 6s / 6d 9c; "
        "table=5c 2s Jc P6@1(4d+2c) G8@0(Ac+3d+4h,8s); piles=Kh Kd / Qd Qc; xeri=1 0; "
        "score=12 30; won=0 1; last=1; pack=?";
    dl_State s = pos(&r, text);
    char out[DL_POSITION_MAX];
    dl_position_str(&s, out, sizeof out, true);
    assert_string_equal(out,
                        "dealer=1; turn=0; round=2; deal=2; ply=17; hands=3h 6s 8h / 6d 9c; "
                        "table=2s 5c Jc G8@0(Ac+3d+4h,8s) P6@1(2c+4d); piles=Kd Kh / Qc Qd; "
                        "xeri=1 0; score=12 30; won=0 1; last=1; pack=?34");
    int g = dl_owned_decl(&s, 0), p = dl_owned_decl(&s, 1);
    assert_int_equal(s.decl[g].kind, DL_DECL_GROUP);
    assert_int_equal(s.decl[g].ncomp, 2);
    assert_int_equal(s.decl[p].kind, DL_DECL_PLAIN);
    assert_int_equal(s.decl[p].value, 6);
    /* Fields in any order, extra spaces. */
    dl_State t = pos(&r, "pack=? ;  last=1;won=0 1; score=12 30; xeri=1 0; piles=Kd Kh / Qc Qd;"
                         "table=5c 2s Jc P6@1(4d+2c) G8@0(Ac+3d+4h,8s); "
                         "hands=8h 3h 6s / 6d 9c; ply=17; deal=2; round=2; turn=0; dealer=1");
    char out2[DL_POSITION_MAX];
    dl_position_str(&t, out2, sizeof out2, true);
    assert_string_equal(out, out2);
}

static void test_position_defaults(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h / 9c; table=3d");
    assert_int_equal(s.dealer, 1); /* the last seat deals */
    assert_int_equal(s.turn, 0);   /* so seat 0 plays first */
    assert_int_equal(s.ply, 1);
    assert_int_equal(s.round, 1);
    assert_int_equal(s.deal, 1);
    assert_int_equal(s.phase, DL_PHASE_PLAY);
    assert_int_equal(s.last_capturer, -1);
    /* 48 of the 52 - 4 placed cards deal evenly; the odd one is captured. */
    assert_int_equal(s.pack_len - s.pack_pos, 48);
    assert_int_equal(dl_count(s.pile[0] | s.pile[1]), 1);

    dl_Rules r4 = diloti4_rules();
    dl_State f = pos(&r4, "hands=8h / 9c / 2c / 3h; table=3d");
    assert_int_equal(f.dealer, 3);
    assert_int_equal(f.turn, 0);
    assert_int_equal(f.pack_len - f.pack_pos, 44);
    assert_int_equal(dl_count(f.pile[0] | f.pile[1]), 3);

    /* ?N: N unplaced cards, drawn with the seed. */
    char err[300];
    dl_State a, b, c;
    assert_null(dl_position_parse(&a, &r, "hands=?6 / ?6; table=3d 4d", 5, err, sizeof err));
    assert_null(dl_position_parse(&b, &r, "hands=?6 / ?6; table=3d 4d", 5, err, sizeof err));
    assert_null(dl_position_parse(&c, &r, "hands=?6 / ?6; table=3d 4d", 6, err, sizeof err));
    assert_int_equal(dl_count(a.hand[0]), 6);
    assert_int_equal(dl_count(a.hand[1]), 6);
    assert_int_equal(a.pack_len - a.pack_pos, 38);
    assert_true(a.hand[0] == b.hand[0] && a.hand[1] == b.hand[1]);
    assert_false(a.hand[0] == c.hand[0] && a.hand[1] == c.hand[1]);
    /* "pack=-": everything unplaced is in the piles. */
    dl_State d = pos(&r, "hands=8h / 9c; table=3d; pack=-");
    assert_int_equal(d.pack_len - d.pack_pos, 0);
    assert_int_equal(dl_count(d.pile[0] | d.pile[1]), 49);
}

static void test_position_parse_errors(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    static const struct {
        const char *text, *where; /* where NULL: a whole-position error */
        int nth;
        const char *what;
    } bad[] = {
        {"hands=8h / 9c; foo=1", "foo", 1, "unknown field 'foo'"},
        {"hands=8h 1x / 9c", "1x", 1, "not a card"},
        {"hands=8h / 9c; table=Zz", "Zz", 1, "not a card"},
        {"hands=8h / 9c; table=8h", "8h", 2, "8h is placed twice"},
        {"hands=8h 10d / 9c; piles=Td / -", "Td", 1, "10d is placed twice"},
        {"hands=8h / 6c; table=P6@1(4d+3c)", "P6@1", 1, "sum to 7, not 6"},
        {"hands=8h / 8d; table=G8@1(8c,5d+2c)", "G8@1", 1, "sums to 7, not 8"},
        {"hands=8h / 8d; table=G8@1(5d+3c)", "G8@1", 1, "at least two components"},
        {"hands=8h / 8d; table=P8@1(8c)", "P8@1", 1, "at least two cards"},
        {"hands=8h / 8d; table=P8@1(5c,3c)", ",", 1, "only a group has components"},
        {"hands=8h / 6c; table=P6@5(4d+2c)", "5(", 1, "out of range 0..1"},
        {"hands=8h / 6c; table=P6@(4d+2c)", "(", 1, "expected a number"},
        {"hands=8h / 6c; table=P6 1(4d+2c)", " 1(", 1, "'@owner'"},
        {"hands=8h / 6c; table=P11@1(4d+2c+5c)", "11", 1, "out of range 1..10"},
        {"hands=8h 6h / 6c 9c; table=P6@1(4d+2c) P9@1(5d+4c)", "P9@1", 1,
         "seat 1 owns two declarations"},
        {"hands=8h / 8d; table=P8@1(Jc+8c)", "Jc", 1, "face cards"},
        {"hands=8h / 6c; table=P6@1 4d 2c", " 4d", 1, "expected '('"},
        {"hands=8h / 6c; table=P6@1(4d+2c", "P6@1", 1, "unclosed"},
        {"hands=8h", "", 1, "hands needs 2 lists"},
        {"hands=8h; table=9c", ";", 1, "hands needs 2 lists"},
        {"hands=8h / 9c / 2d", "/", 2, "more than 2 lists"},
        {"hands=8h / 9c; hands=2c / 3c", "hands", 2, "given twice"},
        {"table=9c", NULL, 1, "needs 'hands='"}, /* the whole position: no one place */
        {"dealer=5; hands=8h / 9c", "5", 1, "out of range 0..1"},
        {"turn=x; hands=8h / 9c", "x", 1, "expected a number"},
        {"hands=8h / 9c; table", "table", 1, "expected 'field=value'"},
        {"phase=lunch; hands=8h / 9c", "lunch", 1, "phase is"},
        {"hands=8h / 9c; score=1", "", 1, "expected a number"},
        {"hands=8h / 9c; score=1 2 3", "3", 1, "score takes 2 numbers"},
        {"hands=8h / 9c; last=7", "7", 1, "out of range 0..1"},
        {"hands=8h / 9c; table=?3", "?3", 1, "not a card"},
        /* problems of the whole position have no one place */
        {"hands=?30 / ?30", NULL, 1, "only 52 are left"},
        {"hands=8h / 9c; pack=2c 3c 4c", NULL, 1, "cannot be dealt evenly"},
        {"hands=8h / 9c; pack=?3", NULL, 1, "cannot be dealt evenly"},
        {"hands=8h / 9c; pack=?4 5", "5", 1, "takes nothing more"},
        {"hands=8h / 9c; claim=1", NULL, 1, "claim="},
        /* whole-position checks (dl_check_state): no single place */
        {"hands=8h / 9c; table=P6@1(4d+2c)", NULL, 0, "D19"},
        {"turn=1; hands=8h / -", NULL, 0, "no cards"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[300];
        dl_State s = pos(&r, "hands=Ah 9h / 3h; table=4h P9@0(5d+4d)");
        dl_State copy = s;
        const char *e = dl_position_parse(&s, &r, bad[i].text, 1, err, sizeof err);
        if (!e) fail_msg("'%s' should not parse", bad[i].text);
        if (bad[i].where) assert_at(e, bad[i].text, bad[i].where, bad[i].nth);
        assert_says(e, bad[i].text, bad[i].what);
        /* A failed parse leaves the output state untouched. */
        if (memcmp(&s, &copy, sizeof s) != 0)
            fail_msg("'%s': a failed parse changed the output state", bad[i].text);
    }
}

static void test_position_parse_errors_kontsina_and_four(void **state)
{
    (void)state;
    char err[300];
    dl_State s;
    dl_Rules k = kontsina_rules();
    const char *e = dl_position_parse(&s, &k, "hands=3h 6s / 6c; table=P6@1(4c+2c)", 1, err,
                                      sizeof err);
    assert_non_null(e);
    assert_says(e, "kontsina declaration", "K2");
    e = dl_position_parse(&s, &k, "hands=3h / 6c; xeri=1 0", 1, err, sizeof err);
    assert_non_null(e);
    assert_says(e, "kontsina xeri", "xeri");

    dl_Rules r4 = diloti4_rules();
    /* Teams: piles and scores are per side (two lists). */
    assert_null(dl_position_parse(&s, &r4, "hands=8h / 9c / 2c / 3h; piles=Kd / Kh; score=1 2",
                                  1, err, sizeof err));
    e = dl_position_parse(&s, &r4, "hands=8h / 9c / 2c / 3h; piles=Kd / Kh / Ks / Kc", 1, err,
                          sizeof err);
    assert_non_null(e);
    assert_says(e, "4p piles", "more than 2 lists");
    e = dl_position_parse(&s, &r4, "hands=8h / 9c / 2c", 1, err, sizeof err);
    assert_non_null(e);
    assert_says(e, "4p hands", "hands needs 4 lists");
    e = dl_position_parse(&s, &r4, "hands=8h / 9c / 2c / 3h; table=P6@4(4c+2c)", 1, err,
                          sizeof err);
    assert_non_null(e);
    assert_says(e, "4p owner", "out of range 0..3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_builder),
        cmocka_unit_test(test_card_parse_ascii),
        cmocka_unit_test(test_card_str_ascii_and_unicode),
        cmocka_unit_test(test_card_parse_unicode),
        cmocka_unit_test(test_card_round_trip_all),
        cmocka_unit_test(test_card_garbage_refused),
        cmocka_unit_test(test_card_set_str),
        cmocka_unit_test(test_move_round_trip_random_positions),
        cmocka_unit_test(test_move_parse_forms),
        cmocka_unit_test(test_move_str_canonical),
        cmocka_unit_test(test_move_parse_errors),
        cmocka_unit_test(test_move_parse_against_state),
        cmocka_unit_test(test_move_parse_decl_by_cards_and_value),
        cmocka_unit_test(test_move_parse_decl_name_errors),
        cmocka_unit_test(test_position_round_trip_random),
        cmocka_unit_test(test_position_explicit_round_trip),
        cmocka_unit_test(test_position_defaults),
        cmocka_unit_test(test_position_parse_errors),
        cmocka_unit_test(test_position_parse_errors_kontsina_and_four),
    };
    return cmocka_run_group_tests_name("notation", tests, NULL, NULL);
}
