/* Diloti rules D1..D24 and clarifications C6..C9 of RULES.md, one group of
 * tests per rule id: what each rule allows and what it refuses (a refused
 * move must name the rule). Positions use the notation of src/diloti/position.h;
 * seats are 0-based, the default dealer is the last seat, so seat 0 plays
 * first. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* ---- small helpers ---- */

static int C(const char *t)
{
    int len, c = dl_card_parse(t, &len);
    if (c < 0) fail_msg("'%s' is not a card", t);
    return c;
}

/* A set of cards from a space-separated list ("5c 3d 10h"). */
static dl_Set S(const char *t)
{
    dl_Set s = 0;
    while (*t) {
        while (*t == ' ') t++;
        if (!*t) break;
        int len, c = dl_card_parse(t, &len);
        if (c < 0) fail_msg("'%s' is not a card list", t);
        s |= DL_BIT(c);
        t += len;
    }
    return s;
}

static void assert_set(dl_Set got, dl_Set want, const char *what)
{
    if (got != want) {
        char g[200], w[200];
        dl_set_str(got, g, sizeof g, false);
        dl_set_str(want, w, sizeof w, false);
        fail_msg("%s: got {%s}, want {%s}", what, g, w);
    }
}

static dl_Set suit_set(int suit) { return DL_CLUB_SUIT << suit; }

/* The declaration owned by seat, checked field by field. */
static const dl_Decl *decl_of(const dl_State *s, int seat)
{
    int i = dl_owned_decl(s, seat);
    if (i < 0) fail_msg("seat %d owns no declaration", seat);
    return &s->decl[i];
}

static void assert_decl(const dl_State *s, int seat, int kind, int value, int ncomp,
                        const char *cards)
{
    const dl_Decl *d = decl_of(s, seat);
    assert_int_equal(d->owner, seat);
    assert_int_equal(d->kind, kind);
    assert_int_equal(d->value, value);
    assert_int_equal(d->ncomp, ncomp);
    assert_set(d->cards, S(cards), "declared cards");
}

/* Components as "Ac 3d 4h | 8s": each '|'-separated list is one component,
 * in any order. */
static void assert_components(const dl_State *s, int seat, const char *spec)
{
    const dl_Decl *d = decl_of(s, seat);
    char buf[300];
    int n = 0;
    unsigned used = 0;
    dl_Set all = 0;
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *part = strtok(buf, "|"); part; part = strtok(NULL, "|")) {
        dl_Set cs = S(part);
        assert_true(cs != 0);
        int comp = s->comp[dl_first(cs)];
        for (dl_Set x = cs; x; x &= x - 1)
            if (s->comp[dl_first(x)] != comp) fail_msg("component '%s' is split", part);
        if (used & (1u << comp)) fail_msg("component '%s' shares its index", part);
        used |= 1u << comp;
        all |= cs;
        n++;
    }
    assert_set(d->cards, all, "group cards");
    assert_int_equal(d->ncomp, n);
}

/* Refused with one of two rule ids (where two rules forbid the same move). */
static void assert_refused2(const dl_State *s, const char *move, const char *a, const char *b)
{
    const char *why = refusal(s, move);
    size_t na = strlen(a), nb = strlen(b);
    if (!((strncmp(why, a, na) == 0 && why[na] == ':') ||
          (strncmp(why, b, nb) == 0 && why[nb] == ':')))
        fail_msg("'%s' should be refused with %s or %s, got: \"%s\"", move, a, b, why);
}

/* Refusal of a hand-built move (for moves the notation cannot express). */
static const char *refusal_m(const dl_State *s, const dl_Move *m)
{
    static char buf[400];
    const char *why = dl_refusal(s, m, buf, sizeof buf);
    return why ? why : "";
}

static bool starts(const char *s, const char *id)
{
    size_t n = strlen(id);
    return strncmp(s, id, n) == 0 && s[n] == ':';
}

/* Number of legal moves of one kind with one card (card < 0: any card). */
static int count_kind(const dl_State *s, int kind, int card)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(s, &l);
    int k = 0;
    for (size_t i = 0; i < l.n; i++)
        if (l.m[i].kind == kind && (card < 0 || l.m[i].card == card)) k++;
    dl_movelist_free(&l);
    return k;
}

/* Parses a position with "pack=-" (no piles field): the unplaced cards land
 * in the piles; then side 0's pile is set to exactly pile0 and side 1 gets
 * the rest. */
static dl_State pos_piles(const dl_Rules *r, const char *text, const char *pile0)
{
    dl_State s = pos(r, text);
    dl_Set all = s.pile[0] | s.pile[1], p0 = S(pile0);
    if ((p0 & all) != p0) fail_msg("pile0 '%s' uses cards placed elsewhere", pile0);
    s.pile[0] = p0;
    s.pile[1] = all & ~p0;
    return s;
}

static int decl_items(const dl_State *s)
{
    int n = 0;
    for (int i = 0; i < s->ndecl; i++) n |= 1 << i;
    return n;
}

/* ---- random play-outs: D6, D19, D20, D21, D22, D23 checked on the way ---- */

static uint32_t rnd_below(uint64_t *x, uint32_t n)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (uint32_t)((*x >> 11) % n);
}

static void check_owner_moves(const dl_State *s, const dl_MoveList *l)
{
    int own = dl_owned_decl(s, s->turn);
    if (own < 0) return;
    bool capture_own = false;
    uint64_t bit = DL_DECL_BIT(own);
    for (size_t i = 0; i < l->n; i++) {
        const dl_Move *m = &l->m[i];
        /* D19: only captures, or groups that include the own declaration */
        if (m->kind != DL_CAPTURE && !(m->kind == DL_GROUP && (m->take & bit)))
            fail_msg("D19: an owner was offered a move of kind %d", m->kind);
        if (m->kind == DL_CAPTURE && !(m->take & bit)) {
            /* must still hold a card of the declaration's value */
            dl_Set rest = s->hand[s->turn] & ~DL_BIT(m->card);
            assert_true(rest & dl_value_mask(s->decl[own].value));
        }
        if (m->kind == DL_CAPTURE && (m->take & bit)) capture_own = true;
    }
    assert_true(capture_own); /* D19: the owner can always capture their own */
}

/* Plays one round with random legal moves. Returns the number of deals. */
static int playout_round(dl_State *s, uint64_t *rng)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    int deals = 1;
    const int n = s->rules.players;
    while (s->phase == DL_PHASE_PLAY) {
        long k = dl_legal_moves(s, &l);
        assert_true(k > 0); /* D20 */
        /* D19: a player owns at most one declaration */
        for (int i = 0; i < s->ndecl; i++)
            for (int j = i + 1; j < s->ndecl; j++)
                assert_int_not_equal(s->decl[i].owner, s->decl[j].owner);
        check_owner_moves(s, &l);
        dl_Move m = l.m[rnd_below(rng, (uint32_t)k)];
        uint64_t items = s->loose | ((uint64_t)decl_items(s) << DL_DECL_SHIFT);
        dl_Set table = dl_table_cards(s);
        int ply = s->ply;
        dl_Effect e;
        dl_apply(s, &m, &e);
        /* D21: a capture that takes everything is a xeri, except the very
         * first card of the round */
        bool sweep = m.kind == DL_CAPTURE && (m.take & items) == items;
        assert_int_equal(e.xeri, sweep && ply > 0);
        dl_Set expect = m.kind == DL_CAPTURE ? table & ~e.captured : table | DL_BIT(m.card);
        if (e.dealt) {
            deals++;
            /* D19: no declaration survives empty hands; D6: 6 more each,
             * nothing to the table, the non-dealer first */
            assert_int_equal(s->ndecl, 0);
            for (int i = 0; i < n; i++) assert_int_equal(dl_count(s->hand[i]), 6);
            assert_set(dl_table_cards(s), expect, "table after a new deal");
            assert_int_equal(s->turn, dl_first_player(s));
        } else if (!e.round_over) {
            assert_set(dl_table_cards(s), expect, "table after a move");
        }
    }
    if (s->phase == DL_PHASE_ROUND_OVER || s->phase == DL_PHASE_MATCH_OVER) {
        int sides = dl_nsides(&s->rules), cards = 0, total = 0, x = 0;
        bool tie = true;
        for (int i = 0; i < sides; i++) {
            cards += dl_count(s->pile[i]);
            total += s->last.total[i];
            x += s->last.xeris[i];
            assert_int_equal(s->last.xeris[i], s->xeri[i]);
            if (s->last.cards[i] != s->last.cards[0]) tie = false;
        }
        assert_int_equal(s->ndecl, 0); /* D19 */
        if (s->last_capturer >= 0) {   /* D22 */
            assert_int_equal(cards, 52);
            assert_int_equal(s->loose, 0);
        }
        if (cards == 52) assert_int_equal(total, (tie ? 7 : 11) + 10 * x); /* D23 */
    }
    dl_movelist_free(&l);
    return deals;
}

/* ---- D1 ---- */

static void test_D1_deck_ranks_and_values(void **state)
{
    (void)state;
    int faces = 0;
    for (int c = 0; c < DL_NCARDS; c++) {
        if (dl_is_face(c)) {
            faces++;
            assert_int_equal(dl_value(c), 0);
        } else {
            assert_int_equal(dl_value(c), dl_rank(c) + 1);
        }
    }
    assert_int_equal(faces, 12);
    assert_int_equal(dl_value(C("Ah")), 1);
    assert_int_equal(dl_value(C("2c")), 2);
    assert_int_equal(dl_value(C("7s")), 7);
    assert_int_equal(dl_value(C("10d")), 10);
    assert_int_equal(C("Td"), C("10d"));
    assert_true(dl_is_face(C("Jc")) && dl_is_face(C("Qd")) && dl_is_face(C("Kh")));
    assert_int_equal(dl_count(suit_set(DL_CLUBS) | suit_set(DL_DIAMONDS) |
                              suit_set(DL_HEARTS) | suit_set(DL_SPADES)), 52);
}

static void test_D1_ace_is_worth_one(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h Ah 2h / 9c; table=Ac 4d");
    assert_true(legal(&s, "5h x Ac 4d"));
    assert_true(legal(&s, "Ah x Ac"));
    assert_refused(&s, "2h x Ac", "D11");
}

static void test_D1_numeral_value_is_its_pips(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=10h 9h / 9c; table=6c 4d 3s");
    assert_true(legal(&s, "10h x 6c 4d"));
    assert_true(legal(&s, "9h x 6c 3s"));
    assert_refused(&s, "10h x 6c 3s", "D11");
    assert_refused(&s, "9h x 6c 4d", "D11");
}

static void test_D1_face_cards_have_no_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 10s Kh / 9c; table=Jc 5d Qh");
    assert_true(legal(&s, "5h x 5d"));
    assert_refused(&s, "5h x Jc 5d", "D11");
    assert_refused(&s, "10s x Jc", "D11");
    assert_refused(&s, "10s x Qh", "D11");
    assert_refused(&s, "Kh x Qh", "D12");
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("10s")), 0);
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("5h")), 1);
}

/* ---- D2 ---- */

static void test_D2_face_cards_never_declared(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h Jh 8d 5s Js / 9c; table=5c Jc Qs 3d");
    assert_true(legal(&s, "3h + 5c = 8"));
    assert_refused(&s, "3h + 5c Jc = 8", "D2");
    assert_refused(&s, "Jh + 5c = 5", "D2");
    assert_refused(&s, "Jh + 5c = G5", "D2");
    assert_refused(&s, "Js + Jc = G5", "D2");
    /* no generated declaration involves a face card */
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(&s, &l);
    for (size_t i = 0; i < l.n; i++)
        if (l.m[i].kind != DL_LAY && l.m[i].kind != DL_CAPTURE) {
            assert_false(dl_is_face(l.m[i].card));
            assert_int_equal(l.m[i].take & DL_FACES, 0);
        }
    dl_movelist_free(&l);
    /* a position with a face card inside a declaration does not parse */
    dl_State t;
    char err[300];
    const char *e = dl_position_parse(&t, &r, "hands=8h / 8c; table=P8@1(Jc+8d)", 1, err,
                                      sizeof err);
    assert_non_null(e);
    assert_non_null(strstr(e, "D2"));
}

static void test_D2_declared_cards_not_taken_separately(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 3h 8h 2d / 8c; table=P8@1(5c+3d) 5s");
    assert_true(legal(&s, "5h x 5s"));
    assert_true(legal(&s, "8h x P8@1"));
    /* the notation cannot name a declared card as a loose card */
    assert_false(legal(&s, "5h x 5c"));
    assert_true(strncmp(refusal(&s, "5h x 5c"), "parse:", 6) == 0);
    /* and a hand-built move that does so is refused */
    dl_Move m = {DL_BIT(C("5c")), DL_CAPTURE, (uint8_t)C("5h"), 0};
    assert_false(dl_is_legal(&s, &m));
    const char *why = refusal_m(&s, &m);
    if (!starts(why, "D2") && !starts(why, "D9")) fail_msg("got \"%s\"", why);
    dl_Move g = {DL_BIT(C("3d")) | DL_BIT(C("5s")), DL_GROUP, (uint8_t)C("5h"), 8};
    assert_false(dl_is_legal(&s, &g));
    /* no legal move takes a declared card on its own */
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(&s, &l);
    for (size_t i = 0; i < l.n; i++) assert_int_equal(l.m[i].take & S("5c 3d"), 0);
    dl_movelist_free(&l);
}

/* ---- D3 ---- */

static void test_D3_combination_is_one_card_or_a_sum(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=7h / 9c; table=7c 2d 5s Ac 4h 3d");
    assert_true(legal(&s, "7h x 7c"));
    assert_true(legal(&s, "7h x 2d 5s"));
    assert_true(legal(&s, "7h x Ac 2d 4h"));
    assert_true(legal(&s, "7h x 3d 4h"));
    assert_true(legal(&s, "7h x 7c 2d 5s 3d 4h"));
    assert_refused(&s, "7h x 2d 4h", "D11");       /* 6 */
    assert_refused(&s, "7h x 5s 3d", "D11");       /* 8 */
    assert_refused(&s, "7h x Ac 2d 4h 3d", "D11"); /* 10 */
}

static void test_D3_declaration_is_not_a_card_of_a_combination(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=7h 3h / 3c; table=P3@1(Ac+2d) 4s");
    assert_refused(&s, "7h x P3@1 4s", "D11");
    assert_true(legal(&s, "3h x P3@1"));
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("7h")), 0);
}

/* ---- D4 ---- */

static void test_D4_caller_chooses_dealer_nondealer_plays_first(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    for (int dealer = 0; dealer < 2; dealer++)
        for (uint64_t seed = 1; seed < 20; seed++) {
            dl_State s;
            assert_null(dl_new_match(&s, &r, seed, dealer));
            assert_int_equal(s.dealer, dealer);
            assert_int_equal(s.turn, 1 - dealer);
            assert_int_equal(s.phase, DL_PHASE_PLAY);
            assert_int_equal(s.round, 1);
            assert_int_equal(s.deal, 1);
            assert_int_equal(s.ply, 0);
        }
}

static void test_D4_random_first_dealer_from_seed(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    int seen[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 64; seed++) {
        dl_State a, b;
        assert_null(dl_new_match(&a, &r, seed, -1));
        assert_null(dl_new_match(&b, &r, seed, -1));
        assert_int_equal(a.dealer, b.dealer); /* the seed decides */
        assert_true(a.dealer < 2);
        assert_int_equal(a.turn, 1 - a.dealer);
        seen[a.dealer]++;
    }
    assert_true(seen[0] > 0 && seen[1] > 0);
}

static void test_D4_deal_passes_after_each_round(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s;
    assert_null(dl_new_match(&s, &r, 7, 0));
    for (int round = 2; round <= 5; round++) {
        int old = s.dealer;
        s.phase = DL_PHASE_ROUND_OVER;
        dl_next_round(&s);
        assert_int_equal(s.round, round);
        assert_int_equal(s.dealer, 1 - old);
        assert_int_equal(s.turn, old); /* the new non-dealer plays first */
        assert_int_equal(dl_count(s.hand[0]), 6);
        assert_int_equal(dl_count(s.hand[1]), 6);
        assert_int_equal(dl_count(s.loose), 4);
        assert_int_equal(s.deal, 1);
        assert_int_equal(s.ply, 0);
    }
}

static void test_D4_full_rounds_alternate_dealer(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    uint64_t rng = 0x1234567ULL;
    dl_State s;
    assert_null(dl_new_match(&s, &r, 99, 1));
    for (int i = 0; i < 6 && s.phase != DL_PHASE_MATCH_OVER; i++) {
        int old = s.dealer;
        playout_round(&s, &rng);
        if (s.phase != DL_PHASE_ROUND_OVER) break;
        dl_next_round(&s);
        assert_int_equal(s.dealer, 1 - old);
        assert_int_equal(s.turn, old);
    }
}

/* ---- D5 ---- */

static dl_Set pack_range(const dl_State *s, int from, int to)
{
    dl_Set x = 0;
    for (int i = from; i < to; i++) x |= DL_BIT(s->pack[i]);
    return x;
}

static void test_D5_six_to_nondealer_six_to_dealer_four_to_table(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    for (uint64_t seed = 1; seed <= 200; seed++) {
        dl_State s;
        int dealer = (int)(seed & 1);
        assert_null(dl_new_match(&s, &r, seed, dealer));
        assert_int_equal(dl_count(s.hand[0]), 6);
        assert_int_equal(dl_count(s.hand[1]), 6);
        assert_int_equal(dl_count(s.loose), 4);
        assert_int_equal(s.ndecl, 0);
        assert_int_equal(s.pack_len - s.pack_pos, 36);
        /* order: the non-dealer's six first, then the dealer's, then the table */
        assert_int_equal(s.pack_pos, 16);
        assert_set(s.hand[1 - dealer], pack_range(&s, 0, 6), "non-dealer's hand");
        assert_set(s.hand[dealer], pack_range(&s, 6, 12), "dealer's hand");
        assert_set(s.loose, pack_range(&s, 12, 16), "table");
    }
}

static void test_D5_redeal_on_three_or_four_face_cards_of_a_rank(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    assert_true(dl_table_needs_redeal(&r, S("Jc Jd Jh 5s")));
    assert_true(dl_table_needs_redeal(&r, S("Qc Qd Qh Qs")));
    assert_true(dl_table_needs_redeal(&r, S("Kc 2d Kh Ks")));
    assert_false(dl_table_needs_redeal(&r, S("Jc Jd Qh Ks")));
    assert_false(dl_table_needs_redeal(&r, S("Jc Jd Qh Qs")));
    assert_false(dl_table_needs_redeal(&r, S("Jc Qd Kh 5s")));
    /* numeral triples are the variant V-redeal-any-triple, not D5 */
    assert_false(dl_table_needs_redeal(&r, S("5c 5d 5h Ks")));
    assert_false(dl_table_needs_redeal(&r, S("Ac Ad Ah As")));
}

static bool has_face_triple(dl_Set t)
{
    for (int rank = DL_RANK_J; rank <= DL_RANK_K; rank++)
        if (dl_count(t & dl_rank_mask(rank)) >= 3) return true;
    return false;
}

static void test_D5_dealt_tables_never_hold_a_face_triple(void **state)
{
    (void)state;
    dl_Rules r2 = diloti_rules(), r4 = diloti4_rules();
    for (uint64_t seed = 0; seed < 30000; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, (seed & 1) ? &r4 : &r2, seed, -1));
        assert_int_equal(dl_count(s.loose), 4);
        if (has_face_triple(s.loose)) fail_msg("seed %lu dealt a face triple", (unsigned long)seed);
        /* the hands and table hold distinct cards and the pack the rest */
        dl_Set all = s.loose | dl_pack_set(&s);
        for (int i = 0; i < s.rules.players; i++) {
            assert_int_equal(all & s.hand[i], 0);
            all |= s.hand[i];
        }
        assert_int_equal(all, DL_DECK);
    }
}

/* Finds deals whose first four table cards held a face triple (by replaying
 * the engine's seeded shuffle) and checks that the table was dealt again
 * from the pack while the hands stayed as dealt. */
static void test_D5_redeal_replaces_only_the_table(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    int matched = 0, redeals = 0;
    for (uint64_t seed = 0; seed < 30000; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &r, seed, 1));
        dl_Rng g;
        uint8_t p[DL_NCARDS];
        dl_rng_seed(&g, seed);
        for (int i = 0; i < DL_NCARDS; i++) p[i] = (uint8_t)i;
        for (int i = DL_NCARDS - 1; i > 0; i--) {
            int j = (int)dl_rng_below(&g, (uint32_t)(i + 1));
            uint8_t t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        dl_Set h0 = 0, h1 = 0, tab = 0;
        for (int i = 0; i < 6; i++) h0 |= DL_BIT(p[i]);
        for (int i = 6; i < 12; i++) h1 |= DL_BIT(p[i]);
        for (int i = 12; i < 16; i++) tab |= DL_BIT(p[i]);
        if (!has_face_triple(tab)) {
            if (s.hand[0] == h0 && s.hand[1] == h1 && s.loose == tab) matched++;
            continue;
        }
        if (matched < 100) continue; /* the replay does not follow the engine */
        redeals++;
        assert_set(s.hand[0], h0, "non-dealer's hand after a redeal");
        assert_set(s.hand[1], h1, "dealer's hand after a redeal");
        assert_false(has_face_triple(s.loose));
        assert_int_equal(s.loose & (h0 | h1), 0);
    }
    if (matched < 100) skip(); /* shuffle changed: nothing to compare */
    assert_true(redeals > 0);
}

/* ---- D6 ---- */

static void test_D6_new_hands_when_both_are_empty(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    /* seat 0 deals: seat 1 played its last card, seat 0 plays the last */
    dl_State s = pos(&r, "dealer=0; turn=0; deal=1; ply=11; hands=7h / -; table=2c; "
                         "pack=Ac Ad Ah As 2d 2h 2s 3c 3d 3h 3s 4c");
    dl_Effect e = play(&s, "7h lay");
    assert_true(e.dealt);
    assert_false(e.round_over);
    assert_int_equal(s.deal, 2);
    assert_set(s.hand[1], S("Ac Ad Ah As 2d 2h"), "non-dealer dealt first");
    assert_set(s.hand[0], S("2s 3c 3d 3h 3s 4c"), "dealer dealt second");
    assert_set(s.loose, S("2c 7h"), "nothing more goes to the table");
    assert_int_equal(s.turn, 1); /* the non-dealer plays first in every deal */
    assert_int_equal(s.pack_len - s.pack_pos, 0);
}

static void test_D6_no_deal_while_a_hand_holds_cards(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=7h / 8c 9c; table=2c; pack=?");
    int before = s.pack_len - s.pack_pos;
    dl_Effect e = play(&s, "7h lay");
    assert_false(e.dealt);
    assert_int_equal(s.turn, 1);
    e = play(&s, "8c lay");
    assert_false(e.dealt); /* seat 1 still holds 9c; seat 0 has none */
    assert_int_equal(s.turn, 1);
    e = play(&s, "9c lay");
    assert_true(e.dealt);
    assert_int_equal(s.pack_len - s.pack_pos, before - 12);
    assert_int_equal(dl_count(s.hand[0]), 6);
    assert_int_equal(dl_count(s.hand[1]), 6);
    assert_int_equal(s.turn, 0);
}

static void test_D6_four_deals_per_round(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    assert_int_equal(r.players, 2);
    assert_int_equal(r.hand_size, 6);
    assert_int_equal(r.table_cards, 4);
    assert_int_equal(r.deals, 4);
    uint64_t rng = 42;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &r, seed, -1));
        assert_int_equal(playout_round(&s, &rng), 4);
        assert_int_equal(s.deal, 4);
    }
}

/* ---- D7 ---- */

static void test_D7_four_player_deal_in_play_order(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    assert_int_equal(r.players, 4);
    assert_true(r.teams);
    assert_int_equal(r.deals, 2);
    for (int dealer = 0; dealer < 4; dealer++)
        for (uint64_t seed = 1; seed <= 25; seed++) {
            dl_State s;
            assert_null(dl_new_match(&s, &r, seed, dealer));
            int first = (dealer + 1) % 4;
            assert_int_equal(s.turn, first); /* the dealer's right plays first */
            assert_int_equal(s.pack_pos, 28);
            for (int k = 0; k < 4; k++) {
                int seat = (first + k) % 4; /* dealt in play order */
                assert_set(s.hand[seat], pack_range(&s, 6 * k, 6 * k + 6), "hand");
            }
            assert_set(s.loose, pack_range(&s, 24, 28), "table");
            assert_int_equal(s.pack_len - s.pack_pos, 24);
        }
}

static void test_D7_partners_sit_opposite(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    assert_int_equal(dl_nsides(&r), 2);
    assert_int_equal(dl_side(&r, 0), dl_side(&r, 2));
    assert_int_equal(dl_side(&r, 1), dl_side(&r, 3));
    assert_int_not_equal(dl_side(&r, 0), dl_side(&r, 1));
}

static void test_D7_play_order_and_second_deal(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "dealer=3; hands=5h / 6h / 7h / 8h; table=Kc; pack=?");
    assert_int_equal(s.turn, 0);
    play(&s, "5h lay");
    assert_int_equal(s.turn, 1);
    play(&s, "6h lay");
    assert_int_equal(s.turn, 2);
    play(&s, "7h lay");
    assert_int_equal(s.turn, 3); /* the dealer plays last */
    dl_Effect e = play(&s, "8h lay");
    assert_true(e.dealt);
    assert_int_equal(s.turn, 0);
    for (int i = 0; i < 4; i++) assert_int_equal(dl_count(s.hand[i]), 6);
    assert_set(s.loose, S("Kc 5h 6h 7h 8h"), "nothing more goes to the table");
}

static void test_D7_two_deals_and_deal_passes_right(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    uint64_t rng = 77;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        dl_State s;
        int dealer = (int)(seed % 4);
        assert_null(dl_new_match(&s, &r, seed, dealer));
        int first = s.turn;
        assert_int_equal(playout_round(&s, &rng), 2);
        if (s.phase != DL_PHASE_ROUND_OVER) continue;
        dl_next_round(&s);
        /* the deal passes to the player who played first */
        assert_int_equal(s.dealer, first);
        assert_int_equal(s.turn, (first + 1) % 4);
    }
}

/* ---- D8 ---- */

static void test_D8_partnership_shares_one_pile(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "hands=5h Kh / 2c Kd / 2d Ks / 9s Kc; table=5c 9d; piles=- / -");
    dl_Set p0 = s.pile[0], p1 = s.pile[1];
    play(&s, "5h x 5c");
    assert_set(s.pile[0], p0 | S("5h 5c"), "side 0 pile");
    play(&s, "2c lay");
    play(&s, "2d x 2c"); /* seat 2, seat 0's partner */
    assert_set(s.pile[0], p0 | S("5h 5c 2c 2d"), "side 0 pile");
    play(&s, "9s x 9d"); /* seat 3, side 1 */
    assert_set(s.pile[1], p1 | S("9s 9d"), "side 1 pile");
    assert_int_equal(s.last_capturer, 3);
}

static void test_D8_scoring_is_per_side(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s;
    dl_state_blank(&s, &r);
    s.pile[0] = suit_set(DL_CLUBS) | suit_set(DL_HEARTS) | S("3s");
    s.pile[1] = DL_DECK & ~s.pile[0];
    dl_RoundScore out;
    dl_score_round(&s, &out);
    assert_int_equal(out.cards[0], 27);
    assert_int_equal(out.cards[1], 25);
    assert_int_equal(out.total[0], 4 + 2 + 1);
    assert_int_equal(out.total[1], 2 + 2);
    assert_int_equal(out.total[2], 0);
    assert_int_equal(out.total[3], 0);
}

/* ---- D9 ---- */

static void test_D9_plays_exactly_one_card_from_hand(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 9c / 8d; table=5c 2s");
    assert_refused(&s, "8d lay", "D9"); /* the opponent's card */
    assert_refused(&s, "Kd lay", "D9"); /* a card of the pack */
    play(&s, "5h x 5c");
    assert_set(s.hand[0], S("9c"), "hand after one move");
    assert_int_equal(s.turn, 1);
    assert_int_equal(s.ply, 2);
}

static void test_D9_each_kind_of_move(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h 5h 8h / 2c; table=5c 3d 8s P2@1(Ac+Ad)");
    assert_true(legal(&s, "3h lay"));
    assert_true(legal(&s, "5h x 5c"));
    assert_true(legal(&s, "3h + 5c = 8"));
    assert_true(legal(&s, "3h + P2@1 = 5"));
    assert_true(legal(&s, "3h + 5c 8s = G8"));
    for (int k = DL_LAY; k <= DL_GROUP; k++) assert_true(count_kind(&s, k, -1) > 0);
    /* a hand-built move naming what is not on the table */
    dl_Move m = {DL_BIT(C("5s")), DL_CAPTURE, (uint8_t)C("5h"), 0};
    assert_true(starts(refusal_m(&s, &m), "D9"));
}

/* ---- D10 ---- */

static void test_D10_lay_makes_a_loose_card(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=7h 2d / 8d; table=7c Jc");
    dl_Set p0 = s.pile[0];
    assert_true(legal(&s, "7h lay")); /* a numeral may lie beside its value */
    dl_Effect e = play(&s, "7h lay");
    assert_int_equal(e.captured, 0);
    assert_set(s.loose, S("7c Jc 7h"), "table");
    assert_set(s.pile[0], p0, "pile unchanged");
    assert_int_equal(s.turn, 1);
}

static void test_D10_face_card_not_laid_onto_its_rank(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Jh Qh 4s / 8d; table=Jc 5d");
    assert_refused(&s, "Jh lay", "D10");
    assert_true(legal(&s, "Jh x Jc"));
    assert_true(legal(&s, "Qh lay"));
    assert_true(legal(&s, "4s lay"));
    assert_int_equal(count_kind(&s, DL_LAY, C("Jh")), 0);
}

/* ---- D11 ---- */

static void test_D11_several_parts_at_once(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h / 9c; table=Ac Ad 2h 3c 4d 5s");
    assert_true(legal(&s, "8h x Ac 2h 5s"));
    assert_true(legal(&s, "8h x Ad 3c 4d"));
    assert_true(legal(&s, "8h x Ac Ad 2h 3c 4d 5s"));
    assert_refused(&s, "8h x Ac 2h 5s 3c", "D11");
    assert_refused(&s, "8h x Ac 2h", "D11");
}

static void test_D11_capture_is_the_set_of_cards_taken(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    /* {Ac,Ad,2h,3c,4d,5s} splits as Ac+2h+5s / Ad+3c+4d or Ad+2h+5s /
     * Ac+3c+4d: one move */
    dl_State s = pos(&r, "hands=8h / 9c; table=Ac Ad 2h 3c 4d 5s");
    const char *all = moves_str(&s);
    int k = 0;
    for (const char *p = all; (p = strstr(p, "8h x Ac Ad 2h 3c 4d 5s")); p++) k++;
    assert_int_equal(k, 1);
    /* parts: A+2+5 (two ways), A+3+4 (two ways), 3+5, ... every distinct
     * take appears once */
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(&s, &l);
    for (size_t i = 0; i < l.n; i++)
        for (size_t j = i + 1; j < l.n; j++) assert_false(dl_move_eq(&l.m[i], &l.m[j]));
    dl_movelist_free(&l);
}

static void test_D11_declarations_of_its_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 7h / 8c; table=P8@1(5c+3d) 8s 6h 2d");
    assert_true(legal(&s, "8h x P8@1"));
    assert_true(legal(&s, "8h x P8@1 8s"));
    assert_true(legal(&s, "8h x P8@1 8s 6h 2d"));
    assert_refused(&s, "7h x P8@1", "D11");
    dl_Effect e = play(&s, "8h x P8@1 6h 2d");
    assert_set(e.captured, S("8h 5c 3d 6h 2d"), "captured");
    assert_int_equal(s.ndecl, 0);
    assert_set(s.loose, S("8s"), "table");
}

static void test_D11_capture_takes_something(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h / 9c; table=8s");
    dl_Move m = {0, DL_CAPTURE, (uint8_t)C("8h"), 0};
    assert_true(starts(refusal_m(&s, &m), "D11"));
    assert_false(legal(&s, "8h x"));
}

/* ---- D12 ---- */

static void test_D12_face_card_takes_exactly_one_of_its_rank(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Jh Qh / 9c; table=Jc Jd 5s");
    assert_true(legal(&s, "Jh x Jc"));
    assert_true(legal(&s, "Jh x Jd"));
    assert_int_equal(count_kind(&s, DL_CAPTURE, C("Jh")), 2);
    assert_refused(&s, "Jh x Jc Jd", "D12");
    assert_refused(&s, "Jh x 5s", "D12");
    assert_refused(&s, "Jh x Jc 5s", "D12");
    assert_refused(&s, "Qh x Jc", "D12");
    dl_Effect e = play(&s, "Jh x Jd");
    assert_set(e.captured, S("Jh Jd"), "captured");
    assert_set(s.loose, S("Jc 5s"), "table");
}

/* ---- D13 ---- */

static void test_D13_captured_cards_and_card_played_to_pile(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 9c / 8d; table=5c 3d 6h 2s 9d");
    dl_Set p0 = s.pile[0], p1 = s.pile[1];
    dl_Effect e = play(&s, "8h x 5c 3d");
    assert_set(e.captured, S("8h 5c 3d"), "effect");
    assert_set(s.pile[0], p0 | S("8h 5c 3d"), "pile 0");
    assert_set(s.pile[1], p1, "pile 1");
    assert_set(s.loose, S("6h 2s 9d"), "table");
    assert_int_equal(s.last_capturer, 0);
    assert_false(e.xeri);
}

/* ---- D14 ---- */

static void test_D14_declarer_keeps_a_card_of_the_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State a = pos(&r, "hands=3h 8d / 9c; table=5c");
    assert_true(legal(&a, "3h + 5c = 8"));
    dl_State b = pos(&r, "hands=3h 7d / 9c; table=5c");
    assert_refused(&b, "3h + 5c = 8", "D14");
    assert_int_equal(count_kind(&b, DL_PLAIN, -1), 0);
}

static void test_D14_played_card_does_not_count(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State a = pos(&r, "hands=8h 3d / 9c; table=8c");
    assert_refused(&a, "8h + 8c = G8", "D14");
    dl_State b = pos(&r, "hands=8h 8d / 9c; table=8c");
    assert_true(legal(&b, "8h + 8c = G8"));
    dl_State c = pos(&r, "hands=5h 8d / 4c; table=P4@1(Ac+3d)");
    assert_refused(&c, "5h + P4@1 = 9", "D14");
}

/* ---- D15 ---- */

static void test_D15_plain_declaration(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h 10s / 9c; table=5c 2d 7s");
    dl_Effect e = play(&s, "3h + 5c 2d = 10");
    assert_int_equal(e.captured, 0);
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_PLAIN, 10, 1, "3h 5c 2d");
    assert_set(s.loose, S("7s"), "table");
    assert_set(s.hand[0], S("10s"), "hand");
}

static void test_D15_sum_and_limit(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=6h 9h 10s 3c 3s / 9c; table=5c 4d");
    assert_true(legal(&s, "6h + 4d = 10"));
    assert_refused(&s, "6h + 5c = 10", "D15"); /* 11, not 10 */
    assert_refused(&s, "3c + 5c = 9", "D15");  /* 8, not 9 */
    dl_Move m = {DL_BIT(C("5c")), DL_PLAIN, (uint8_t)C("6h"), 11};
    assert_true(starts(refusal_m(&s, &m), "D15"));
    assert_false(legal(&s, "6h + 5c = 11"));
    /* the card alone is no plain declaration */
    assert_refused(&s, "3c + = 3", "D15");
}

static bool prefix(const char *s, const char *head)
{
    return strncmp(s, head, strlen(head)) == 0;
}

/* A plain declaration or raise whose cards make several parts of its
 * value was meant as a group: the refusal says so rather than sum wrong
 * (lesson 5, "5d + 5s = 5"). */
static void test_D15_D16_group_meant(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 5d / 9c; table=5s");
    const char *why = refusal(&s, "5d + 5s = 5");
    if (!prefix(why, "D15: did you mean a group of 5s (5d + 5s = G5)?")) fail_msg("got \"%s\"", why);
    s = pos(&r, "hands=7h 9d / 9c; table=9s 2h");
    why = refusal(&s, "7h + 2h 9s = 9");
    if (!prefix(why, "D15: did you mean a group of 9s (7h + 2h 9s = G9)?")) fail_msg("got \"%s\"", why);
    /* no 5 left to take the group: no group to suggest */
    s = pos(&r, "hands=5h 9c / 9d; table=5s");
    why = refusal(&s, "5h + 5s = 5");
    if (!prefix(why, "D15: 5h and those cards make 10, not 5")) fail_msg("got \"%s\"", why);
    s = pos(&r, "hands=4h 4d / 4c 9s; table=P4@1(Ac+3s)");
    why = refusal(&s, "4h + P4@1 = 4");
    if (!prefix(why, "D16: did you mean a group of 4s (4h + P4@1 = G4)?")) fail_msg("got \"%s\"", why);
}

/* ---- D16 ---- */

static void test_D16_raise_opponents_plain(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 9s / 4c 2c; table=P4@1(Ac+3d) 2d");
    play(&s, "5h + P4@1 = 9");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_PLAIN, 9, 1, "Ac 3d 5h");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
    assert_set(s.loose, S("2d"), "table");
}

static void test_D16_raise_adds_only_the_card(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h 9s 7c / 4c; table=P4@1(Ac+3d) 2d");
    assert_true(legal(&s, "3h + P4@1 = 7"));
    assert_refused(&s, "3h + P4@1 2d = 9", "D16");
    assert_refused(&s, "3h + P4@1 = 9", "D16"); /* 7, not 9 */
}

static void test_D16_value_at_most_ten(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 4h 10s 9s / 6c; table=P6@1(Ac+5d)");
    assert_true(legal(&s, "4h + P6@1 = 10"));
    assert_false(legal(&s, "5h + P6@1 = 11"));
    dl_Move m = {DL_DECL_BIT(0), DL_RAISE, (uint8_t)C("5h"), 11};
    const char *why = refusal_m(&s, &m);
    if (!starts(why, "D15") && !starts(why, "D16")) fail_msg("got \"%s\"", why);
    assert_int_equal(count_kind(&s, DL_RAISE, C("5h")), 0);
}

static void test_D16_never_ones_own(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 4h 9s / 6c; table=P4@0(Ac+3d)");
    assert_refused2(&s, "5h + P4@0 = 9", "D16", "D19");
    assert_int_equal(count_kind(&s, DL_RAISE, -1), 0);
}

static void test_D16_never_a_partners(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "hands=3h 8s / 2c / 5h / 3s 8c; table=P5@2(2d+3d)");
    assert_refused(&s, "3h + P5@2 = 8", "D16");
    assert_int_equal(count_kind(&s, DL_RAISE, -1), 0);
    /* an opponent of seat 2 may raise it */
    dl_State t = pos(&r, "turn=1; hands=4h / 3s 8c / 5h / 2h; table=P5@2(2d+3d)");
    assert_true(legal(&t, "3s + P5@2 = 8"));
}

static void test_D16_former_owner_may_raise_back(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=2h 6s Kc / 2d 8c 4s; table=P4@1(Ac+3d)");
    play(&s, "2h + P4@1 = 6");
    assert_decl(&s, 0, DL_DECL_PLAIN, 6, 1, "Ac 3d 2h");
    play(&s, "2d + P6@0 = 8");
    assert_decl(&s, 1, DL_DECL_PLAIN, 8, 1, "Ac 3d 2h 2d");
    assert_int_equal(dl_owned_decl(&s, 0), -1);
}

/* ---- D17 ---- */

static void test_D17_card_alone_and_loose_components(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 8d / 9c; table=8c 5d 3s 2h");
    assert_true(legal(&s, "8h + 8c = G8"));
    assert_true(legal(&s, "8h + 5d 3s = G8"));
    play(&s, "8h + 8c 5d 3s = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 3, "8h 8c 5d 3s");
    assert_components(&s, 0, "8h | 8c | 5d 3s");
    assert_set(s.loose, S("2h"), "table");
}

static void test_D17_card_joined_with_loose_cards(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=6h 8d / 9c; table=2c 8s 5d 3s");
    play(&s, "6h + 2c 8s 5d 3s = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 3, "6h 2c 8s 5d 3s");
    assert_components(&s, 0, "6h 2c | 8s | 5d 3s");
}

static void test_D17_raising_component(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Ah 9h / 8c; table=P8@1(5c+3d) 9s");
    play(&s, "Ah + P8@1 9s = G9");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 9, 2, "Ah 5c 3d 9s");
    assert_components(&s, 0, "Ah 5c 3d | 9s");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
}

static void test_D17_takes_anyones_plain_of_the_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 8d / 8c; table=P8@1(5c+3d)");
    play(&s, "8h + P8@1 = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 2, "8h 5c 3d");
    assert_components(&s, 0, "8h | 5c 3d");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
}

static void test_D17_merges_existing_groups(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 8d / 8c; table=G8@1(5c+3d,8s) Ah 7h");
    play(&s, "8h + G8@1 Ah 7h = G8");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 4, "8h 5c 3d 8s Ah 7h");
    assert_components(&s, 0, "8h | 5c 3d | 8s | Ah 7h");
    /* two groups merge into one */
    dl_State t = pos(&r, "hands=8h 8d / 8c; table=G8@0(Ac+7d,8s) G8@1(2c+6d,3h+5s)");
    play(&t, "8h + G8@0 G8@1 = G8");
    assert_int_equal(t.ndecl, 1);
    assert_decl(&t, 0, DL_DECL_GROUP, 8, 5, "Ac 7d 8s 2c 6d 3h 5s 8h");
    assert_components(&t, 0, "Ac 7d | 8s | 2c 6d | 3h 5s | 8h");
}

static void test_D17_needs_two_components(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 8d 3h / 9c; table=5c 2s");
    assert_refused(&s, "8h + = G8", "D17");
    assert_refused(&s, "3h + 5c = G8", "D17");
    assert_int_equal(count_kind(&s, DL_GROUP, -1), 0);
}

static void test_D17_card_must_fit_one_component(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=9h 5h 8d / 9c; table=8c 5d");
    assert_refused(&s, "9h + 8c = G8", "D17");
    assert_refused(&s, "5h + 8c = G8", "D17");
    assert_refused(&s, "5h + 8c 5d = G8", "D17");
}

static void test_D17_raising_component_takes_no_loose_card(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Ah 9h / 6c; table=P6@1(4c+2d) 2s 9s");
    assert_refused(&s, "Ah + P6@1 2s 9s = G9", "D17");
}

/* ---- D18 ---- */

static void test_D18_group_never_raised(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=2h 8s / 6c; table=G6@1(4c+2d,6s)");
    assert_refused(&s, "2h + G6@1 = 8", "D18");
    assert_int_equal(count_kind(&s, DL_RAISE, -1), 0);
}

static void test_D18_group_captured_only_by_its_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 9h / 8c; table=G8@1(5c+3d,8s) 8d 5h 3s 4h");
    assert_refused(&s, "9h x G8@1", "D18");
    assert_true(legal(&s, "8h x G8@1"));
    assert_true(legal(&s, "8h x G8@1 8d 5h 3s"));
    assert_refused(&s, "8h x G8@1 4h", "D11");
    dl_Effect e = play(&s, "8h x G8@1 8d");
    assert_set(e.captured, S("8h 5c 3d 8s 8d"), "captured");
    assert_int_equal(s.ndecl, 0);
}

static void test_D18_group_of_another_value_is_no_component(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 8d / 6c; table=G6@1(4c+2d,6s) 8c");
    assert_refused(&s, "8h + G6@1 8c = G8", "D18");
}

/* ---- D19 ---- */

static void test_D19_owner_may_not_lay(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 2d Kc / 9c; table=P8@0(5c+3d) 9s");
    assert_refused(&s, "2d lay", "D19");
    assert_refused(&s, "Kc lay", "D19");
    assert_refused(&s, "8h lay", "D19");
    assert_int_equal(count_kind(&s, DL_LAY, -1), 0);
}

static void test_D19_owner_may_not_make_a_plain_declaration(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 2d 6d 10c / 9c; table=P8@0(5c+3d) 4s");
    assert_refused(&s, "2d + 4s = 6", "D19");
    assert_refused(&s, "6d + 4s = 10", "D19");
    assert_int_equal(count_kind(&s, DL_PLAIN, -1), 0);
}

static void test_D19_owner_may_not_raise(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 5h 9c / 4c; table=P8@0(5c+3d) P4@1(Ac+3s)");
    assert_refused(&s, "5h + P4@1 = 9", "D19");
    assert_int_equal(count_kind(&s, DL_RAISE, -1), 0);
}

static void test_D19_owner_group_must_include_own(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 6d 6h / 9c; table=P8@0(5c+3d) 6s 2h 6c");
    assert_refused(&s, "6h + 6s 6c = G6", "D19");
    assert_true(legal(&s, "6h + 2h P8@0 = G8"));
    play(&s, "6h + 2h P8@0 = G8");
    assert_int_equal(s.ndecl, 1);
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 2, "5c 3d 6h 2h");
}

static void test_D19_owner_may_capture_own_with_last_card_of_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 6d / 9c; table=P8@0(5c+3d) 8s 6s");
    assert_true(legal(&s, "8h x P8@0"));
    assert_true(legal(&s, "8h x 8s P8@0"));
    assert_refused(&s, "8h x 8s", "D19"); /* leaves no 8 for the declaration */
    assert_true(legal(&s, "6d x 6s"));    /* keeps 8h */
    play(&s, "8h x P8@0");
    assert_int_equal(s.ndecl, 0);
}

static void test_D19_owner_always_has_capture_of_own(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h Kd / 9c; table=P8@0(5c+3d) Qc");
    assert_int_equal(nmoves(&s), 1);
    assert_true(legal(&s, "8h x P8@0"));
    assert_refused(&s, "Kd lay", "D19");
}

static void test_D19_obligation_ends_when_raised(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Ah 4c 2c Kd / 5h 9s Qd; table=3d");
    play(&s, "Ah + 3d = 4");
    play(&s, "5h + P4@0 = 9");
    assert_decl(&s, 1, DL_DECL_PLAIN, 9, 1, "Ah 3d 5h");
    assert_true(legal(&s, "2c lay"));
    assert_true(legal(&s, "Kd lay"));
}

static void test_D19_obligation_ends_when_added_to(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; hands=8h 2c / 8d 8s; table=P8@0(5c+3d)");
    play(&s, "8d + P8@0 = G8");
    assert_decl(&s, 1, DL_DECL_GROUP, 8, 2, "5c 3d 8d");
    assert_int_equal(dl_owned_decl(&s, 0), -1);
    assert_true(legal(&s, "2c lay"));
}

static void test_D19_obligation_ends_when_captured(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; hands=8h 2c / 8d 4s; table=P8@0(5c+3d)");
    play(&s, "8d x P8@0");
    assert_int_equal(s.ndecl, 0);
    assert_true(legal(&s, "2c lay"));
    assert_true(legal(&s, "8h lay"));
}

static void test_D19_owns_at_most_one(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State t;
    char err[300];
    const char *e = dl_position_parse(&t, &r, "hands=8h 6h / 9c; table=P8@0(5c+3d) P6@0(4c+2d)",
                                      1, err, sizeof err);
    assert_non_null(e);
    assert_non_null(strstr(e, "D19"));
    /* a group made by an owner replaces the own declaration */
    dl_State s = pos(&r, "hands=8h 8d / 6c; table=P8@0(5c+3d) P6@1(4c+2d) 2s");
    play(&s, "8h + P8@0 = G8");
    assert_int_equal(s.ndecl, 2);
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 2, "5c 3d 8h");
}

static void test_D19_no_declaration_left_when_hands_are_empty(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h / 5d; table=P8@0(5c+3d) 2s; pack=-");
    assert_int_equal(nmoves(&s), 1);
    play(&s, "8h x P8@0");
    dl_Effect e = play(&s, "5d lay");
    assert_true(e.round_over);
    assert_int_equal(s.ndecl, 0);
}

static void test_D19_D20_random_playouts(void **state)
{
    (void)state;
    dl_Rules r2 = diloti_rules(), r4 = diloti4_rules();
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, (seed % 3 == 0) ? &r4 : &r2, seed, -1));
        playout_round(&s, &rng);
        assert_true(s.phase == DL_PHASE_ROUND_OVER || s.phase == DL_PHASE_MATCH_OVER);
    }
}

/* ---- D20 ---- */

static void test_D20_face_cards_only_still_move(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=Jh Jd / 9c; table=Jc");
    assert_int_equal(nmoves(&s), 2); /* each J takes the J; none may be laid */
    dl_State t = pos(&r, "hands=Jh Kd / 9c; table=Jc Kc Ks");
    assert_int_equal(nmoves(&t), 3);
}

/* ---- D21 ---- */

static void test_D21_sweep_is_a_xeri(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 9c / 8d; table=5c");
    dl_Effect e = play(&s, "5h x 5c");
    assert_true(e.xeri);
    assert_int_equal(s.xeri[0], 1);
    assert_int_equal(s.xeri[1], 0);
    assert_int_equal(s.loose, 0);
}

static void test_D21_sweep_with_declarations_is_a_xeri(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 9c / 5s; table=5c P5@1(2d+3h)");
    dl_Effect e = play(&s, "5h x 5c P5@1");
    assert_true(e.xeri);
    assert_int_equal(s.xeri[0], 1);
}

static void test_D21_no_xeri_when_something_is_left(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h 9c / 8s; table=5c P8@1(2d+6h)");
    dl_Effect e = play(&s, "5h x 5c");
    assert_false(e.xeri);
    assert_int_equal(s.xeri[0], 0);
    dl_State t = pos(&r, "hands=5h 9c / 8s; table=5c 4d");
    e = play(&t, "5h x 5c");
    assert_false(e.xeri);
}

static void test_D21_first_card_of_round_never_xeri(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "ply=0; hands=5h 9c / 8d; table=5c");
    dl_Effect e = play(&s, "5h x 5c");
    assert_false(e.xeri);
    assert_int_equal(s.xeri[0], 0);
    assert_set(e.captured, S("5h 5c"), "the capture itself stands");
    /* the second card of the round may */
    dl_State t = pos(&r, "ply=1; hands=5h 9c / 8d; table=5c");
    assert_true(play(&t, "5h x 5c").xeri);
}

static void test_D21_first_card_of_a_later_deal_scores(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "deal=2; ply=12; hands=5h 9c / 8d; table=5c");
    assert_true(play(&s, "5h x 5c").xeri);
}

static void test_D21_last_card_of_a_deal_scores(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; ply=11; hands=- / 5h; table=5c 9d 4s; pack=?");
    dl_Effect e = play(&s, "5h x 5c");
    assert_false(e.xeri);
    dl_State t = pos(&r, "turn=1; ply=11; hands=- / 9h; table=5c 4s; pack=?");
    e = play(&t, "9h x 5c 4s");
    assert_true(e.xeri);
    assert_true(e.dealt);
    assert_int_equal(t.xeri[1], 1);
}

static void test_D21_last_card_of_the_round_scores(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; ply=51; hands=- / 9h; table=5c 4s; last=0; pack=-");
    dl_Effect e = play(&s, "9h x 5c 4s");
    assert_true(e.xeri);
    assert_true(e.round_over);
    assert_int_equal(s.last.xeris[1], 1);
    assert_int_equal(s.last.pts_xeri[1], 10);
    assert_int_equal(s.last.xeris[0], 0);
}

static void test_D21_end_of_round_sweep_is_no_xeri(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; ply=51; hands=- / 9h; table=5c 3d; last=0; pack=-");
    dl_Set p0 = s.pile[0];
    dl_Effect e = play(&s, "9h lay");
    assert_true(e.round_over);
    assert_false(e.xeri);
    assert_int_equal(s.last.xeris[0], 0);
    assert_int_equal(s.last.xeris[1], 0);
    assert_set(s.pile[0], p0 | S("5c 3d 9h"), "leftovers to the last capturer");
}

/* ---- D22 ---- */

static void test_D22_leftovers_to_last_capturer(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=5h / 9d; table=5c 2d; last=1; pack=-");
    dl_Set p0 = s.pile[0], p1 = s.pile[1];
    play(&s, "5h x 5c");
    assert_int_equal(s.last_capturer, 0);
    dl_Effect e = play(&s, "9d lay");
    assert_true(e.round_over);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_set(s.pile[0], p0 | S("5h 5c 2d 9d"), "pile 0");
    assert_set(s.pile[1], p1, "pile 1");
    assert_int_equal(s.loose, 0);
    assert_int_equal(s.last.cards[0] + s.last.cards[1], 52);
}

static void test_D22_last_capture_of_the_last_card(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; hands=- / 5h; table=5c 3d; last=0; pack=-");
    dl_Set p1 = s.pile[1];
    dl_Effect e = play(&s, "5h x 5c");
    assert_false(e.xeri);
    assert_set(s.pile[1], p1 | S("5h 5c 3d"), "pile 1");
}

static void test_D22_nobody_captured_nobody_gets_them(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "turn=1; hands=- / 9h; table=5c 3d Kc; last=-; pack=-");
    dl_Set p0 = s.pile[0], p1 = s.pile[1];
    dl_Effect e = play(&s, "9h lay");
    assert_true(e.round_over);
    assert_set(s.pile[0], p0, "pile 0");
    assert_set(s.pile[1], p1, "pile 1");
    assert_int_equal(s.last.cards[0] + s.last.cards[1], 52 - 4);
}

static void test_D22_four_players_leftovers_to_side(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "turn=2; hands=- / - / 7h / 9s; table=7c 4d; pack=-");
    dl_Set p0 = s.pile[0];
    play(&s, "7h x 7c");
    dl_Effect e = play(&s, "9s lay");
    assert_true(e.round_over);
    assert_set(s.pile[0], p0 | S("7h 7c 4d 9s"), "side 0 pile");
}

/* ---- D23 ---- */

static dl_RoundScore score_sets(dl_Set pile0, int x0, int x1)
{
    dl_Rules r = diloti_rules();
    dl_State s;
    dl_state_blank(&s, &r);
    s.pile[0] = pile0;
    s.pile[1] = DL_DECK & ~pile0;
    s.xeri[0] = (uint8_t)x0;
    s.xeri[1] = (uint8_t)x1;
    dl_RoundScore out;
    dl_score_round(&s, &out);
    return out;
}

static void test_D23_most_cards_four_points(void **state)
{
    (void)state;
    /* side 0: clubs, hearts and 3s: 27 cards, Ac Ah, 2c */
    dl_RoundScore o = score_sets(suit_set(DL_CLUBS) | suit_set(DL_HEARTS) | S("3s"), 0, 0);
    assert_int_equal(o.cards[0], 27);
    assert_int_equal(o.cards[1], 25);
    assert_int_equal(o.pts_cards[0], 4);
    assert_int_equal(o.pts_cards[1], 0);
    assert_int_equal(o.pts_aces[0], 2);
    assert_int_equal(o.pts_aces[1], 2);
    assert_int_equal(o.pts_two_clubs[0], 1);
    assert_int_equal(o.pts_ten_diamonds[1], 2);
    assert_int_equal(o.total[0], 7);
    assert_int_equal(o.total[1], 4);
    assert_int_equal(o.total[0] + o.total[1], 11);
    assert_int_equal(o.winner, 0);
}

static void test_D23_no_card_points_on_26_26(void **state)
{
    (void)state;
    dl_RoundScore o = score_sets(suit_set(DL_CLUBS) | suit_set(DL_HEARTS), 0, 0);
    assert_int_equal(o.cards[0], 26);
    assert_int_equal(o.pts_cards[0], 0);
    assert_int_equal(o.pts_cards[1], 0);
    assert_int_equal(o.total[0], 3);
    assert_int_equal(o.total[1], 4);
    assert_int_equal(o.total[0] + o.total[1], 7);
}

static void test_D23_aces_ten_of_diamonds_two_of_clubs(void **state)
{
    (void)state;
    dl_RoundScore o = score_sets(S("Ac Ad Ah As 10d 2c"), 0, 0);
    assert_int_equal(o.pts_aces[0], 4);
    assert_int_equal(o.pts_ten_diamonds[0], 2);
    assert_int_equal(o.pts_two_clubs[0], 1);
    assert_int_equal(o.total[0], 7);
    assert_int_equal(o.total[1], 4); /* 46 cards */
    o = score_sets(S("10c 10h 10s 2d 2h 2s"), 0, 0);
    assert_int_equal(o.total[0], 0);
    assert_int_equal(o.total[1], 11);
}

static void test_D23_xeri_ten_points_each(void **state)
{
    (void)state;
    dl_RoundScore o = score_sets(suit_set(DL_CLUBS) | suit_set(DL_HEARTS) | S("3s"), 2, 1);
    assert_int_equal(o.pts_xeri[0], 20);
    assert_int_equal(o.pts_xeri[1], 10);
    assert_int_equal(o.total[0], 27);
    assert_int_equal(o.total[1], 14);
    assert_int_equal(o.total[0] + o.total[1], 11 + 30);
    o = score_sets(suit_set(DL_CLUBS) | suit_set(DL_HEARTS), 0, 3);
    assert_int_equal(o.total[0] + o.total[1], 7 + 30);
}

static void test_D23_points_sum_to_eleven(void **state)
{
    (void)state;
    uint64_t rng = 5;
    for (int i = 0; i < 2000; i++) {
        dl_Set p = 0;
        for (int c = 0; c < DL_NCARDS; c++)
            if (rnd_below(&rng, 2)) p |= DL_BIT(c);
        int x0 = (int)rnd_below(&rng, 3), x1 = (int)rnd_below(&rng, 3);
        dl_RoundScore o = score_sets(p, x0, x1);
        int want = (dl_count(p) == 26 ? 7 : 11) + 10 * (x0 + x1);
        assert_int_equal(o.total[0] + o.total[1], want);
    }
}

static void test_D23_round_score_added_at_end_of_round(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos_piles(&r, "turn=1; hands=- / 4h; table=4s; last=0; score=3 5; pack=-",
                           "Ac Ad Ah As 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 5c 5d 5h 5s 6c 6d 6h "
                           "6s 7c 7d 7h 7s 8c 8d 8h 8s");
    dl_Effect e = play(&s, "4h x 4s");
    assert_true(e.round_over);
    assert_true(e.xeri);
    /* side 0: 30 cards, 4 aces, 2c: 4 + 4 + 1 = 9; side 1: 10d and a xeri */
    assert_int_equal(s.last.total[0], 9);
    assert_int_equal(s.last.total[1], 12);
    assert_int_equal(s.score[0], 12);
    assert_int_equal(s.score[1], 17);
}

/* ---- D24 ---- */

static dl_State finished(dl_Set pile0, int score0, int score1)
{
    dl_Rules r = diloti_rules();
    dl_State s;
    dl_state_blank(&s, &r);
    dl_rng_seed(&s.rng, 11);
    s.pile[0] = pile0;
    s.pile[1] = DL_DECK & ~pile0;
    s.score[0] = (int16_t)score0;
    s.score[1] = (int16_t)score1;
    s.last_capturer = 0;
    dl_finish_round(&s);
    return s;
}

static void test_D24_scores_add_up(void **state)
{
    (void)state;
    dl_State s = finished(suit_set(DL_CLUBS) | suit_set(DL_HEARTS) | S("3s"), 10, 20);
    assert_int_equal(s.score[0], 17);
    assert_int_equal(s.score[1], 24);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_int_equal(s.winner, -1);
}

static void test_D24_match_ends_at_61(void **state)
{
    (void)state;
    dl_State s = finished(DL_DECK, 50, 40); /* 11 points: 61 */
    assert_int_equal(s.score[0], 61);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 0);
    s = finished(DL_DECK, 49, 40); /* 60: plays on */
    assert_int_equal(s.score[0], 60);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_int_equal(s.winner, -1);
    s = finished(0, 55, 58); /* side 1 to 69 */
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 1);
}

static void test_D24_higher_total_wins(void **state)
{
    (void)state;
    /* both pass 61: side 0 +3 = 63, side 1 +4 = 64 */
    dl_State s = finished(suit_set(DL_CLUBS) | suit_set(DL_HEARTS), 60, 60);
    assert_int_equal(s.score[0], 63);
    assert_int_equal(s.score[1], 64);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 1);
    /* the side that reached the target first does not win by that */
    s = finished(suit_set(DL_CLUBS) | suit_set(DL_HEARTS), 70, 55);
    assert_int_equal(s.winner, 0);
    s = finished(DL_DECK & ~S("Ac"), 59, 80);
    assert_int_equal(s.score[0], 69);
    assert_int_equal(s.score[1], 81);
    assert_int_equal(s.winner, 1);
}

static void test_D24_tie_plays_another_round(void **state)
{
    (void)state;
    /* 61 + 3 = 64 and 60 + 4 = 64 */
    dl_State s = finished(suit_set(DL_CLUBS) | suit_set(DL_HEARTS), 61, 60);
    assert_int_equal(s.score[0], 64);
    assert_int_equal(s.score[1], 64);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_int_equal(s.winner, -1);
    int dealer = s.dealer;
    dl_next_round(&s);
    assert_int_equal(s.phase, DL_PHASE_PLAY);
    assert_int_equal(s.round, 2);
    assert_int_equal(s.dealer, 1 - dealer);
    assert_int_equal(s.score[0], 64);
}

static void test_D24_last_card_ends_the_match(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos_piles(&r, "turn=1; hands=- / 4h; table=4s; last=0; score=40 50; pack=-",
                           "Ac Ad Ah As 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 5c 5d 5h 5s 6c 6d 6h "
                           "6s 7c 7d 7h 7s 8c 8d 8h 8s");
    dl_Effect e = play(&s, "4h x 4s"); /* side 1: 2 + 10 = 12 -> 62 */
    assert_true(e.round_over);
    assert_int_equal(s.score[0], 49);
    assert_int_equal(s.score[1], 62);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 1);
    assert_int_equal(nmoves(&s), 0);
}

static void test_D24_full_matches(void **state)
{
    (void)state;
    dl_Rules r2 = diloti_rules(), r4 = diloti4_rules();
    uint64_t rng = 2024;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        dl_State s;
        const dl_Rules *r = (seed % 4 == 0) ? &r4 : &r2;
        assert_null(dl_new_match(&s, r, seed, -1));
        int sum[2] = {0, 0};
        for (int round = 1; round < 200; round++) {
            int dealer = s.dealer;
            playout_round(&s, &rng);
            sum[0] += s.last.total[0];
            sum[1] += s.last.total[1];
            assert_int_equal(s.score[0], sum[0]);
            assert_int_equal(s.score[1], sum[1]);
            int hi = sum[0] > sum[1] ? sum[0] : sum[1];
            if (s.phase == DL_PHASE_MATCH_OVER) {
                assert_true(hi >= 61);
                assert_true(sum[0] != sum[1]);
                assert_int_equal(s.winner, sum[0] > sum[1] ? 0 : 1);
                break;
            }
            assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
            assert_true(hi < 61 || sum[0] == sum[1]);
            dl_next_round(&s);
            assert_int_equal(s.round, round + 1);
            assert_int_equal(s.dealer, (dealer + 1) % r->players);
        }
        assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    }
}

/* ---- C6..C9 ---- */

static void test_C6_obligation_passes_to_the_group(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 8d 2c / 9c 9d; table=P8@0(5c+3d) 8s");
    play(&s, "8h + P8@0 8s = G8");
    assert_decl(&s, 0, DL_DECL_GROUP, 8, 3, "5c 3d 8h 8s");
    assert_components(&s, 0, "5c 3d | 8h | 8s");
    play(&s, "9c lay");
    assert_refused(&s, "2c lay", "D19");
    assert_refused2(&s, "8d x 9c", "D11", "D19");
    assert_true(legal(&s, "8d x G8@0"));
    assert_int_equal(nmoves(&s), 1);
    /* without another 8 the group may not be made */
    dl_State t = pos(&r, "hands=8h 2c / 9c; table=P8@0(5c+3d) 8s");
    assert_refused(&t, "8h + P8@0 8s = G8", "D14");
}

static void test_C7_owner_raises_inside_own_group(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=2h 7s 6h / 5s; table=P7@0(4c+3d) P5@1(2c+3c) Ac 7c");
    assert_refused(&s, "2h + P5@1 = 7", "D19");
    /* groups that leave out the own 7 */
    assert_refused(&s, "6h + Ac 7c = G7", "D19");
    assert_refused(&s, "2h + P5@1 7c = G7", "D19");
    assert_true(legal(&s, "2h + P5@1 P7@0 = G7"));
    play(&s, "2h + P5@1 P7@0 = G7");
    assert_decl(&s, 0, DL_DECL_GROUP, 7, 2, "4c 3d 2c 3c 2h");
    assert_components(&s, 0, "4c 3d | 2c 3c 2h");
    assert_int_equal(dl_owned_decl(&s, 1), -1);
}

static void test_C8_card_alone_only_at_the_groups_value(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=3h 5h 8h 8d / 9c; table=5c 3d 8c");
    assert_true(legal(&s, "8h + 8c = G8"));
    assert_true(legal(&s, "8h + 5c 3d = G8"));
    assert_true(legal(&s, "3h + 5c 8c = G8"));
    assert_refused(&s, "3h + 5c = G8", "D17"); /* nothing besides its own component */
    assert_refused(&s, "5h + 8c = G8", "D17"); /* 5 alone is no component of 8 */
    assert_refused(&s, "5h + 3d 8c 5c = G8", "D17");
}

static void test_C9_partners_plain(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    dl_State s = pos(&r, "hands=3h 8s 5s 5d / 2c / 5h / 3s; table=P5@2(2d+3d) 2h 8c");
    assert_true(legal(&s, "5s x P5@2"));
    assert_true(legal(&s, "5s + P5@2 = G5"));
    assert_refused(&s, "3h + P5@2 = 8", "D16");
    assert_refused(&s, "3h + P5@2 8c = G8", "D17");
    assert_int_equal(count_kind(&s, DL_RAISE, -1), 0);
    assert_true(legal(&s, "3h lay")); /* a partner's declaration binds nobody else */
    play(&s, "5s + P5@2 = G5");
    assert_decl(&s, 0, DL_DECL_GROUP, 5, 2, "2d 3d 5s");
    assert_int_equal(dl_owned_decl(&s, 2), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_D1_deck_ranks_and_values),
        cmocka_unit_test(test_D1_ace_is_worth_one),
        cmocka_unit_test(test_D1_numeral_value_is_its_pips),
        cmocka_unit_test(test_D1_face_cards_have_no_value),
        cmocka_unit_test(test_D2_face_cards_never_declared),
        cmocka_unit_test(test_D2_declared_cards_not_taken_separately),
        cmocka_unit_test(test_D3_combination_is_one_card_or_a_sum),
        cmocka_unit_test(test_D3_declaration_is_not_a_card_of_a_combination),
        cmocka_unit_test(test_D4_caller_chooses_dealer_nondealer_plays_first),
        cmocka_unit_test(test_D4_random_first_dealer_from_seed),
        cmocka_unit_test(test_D4_deal_passes_after_each_round),
        cmocka_unit_test(test_D4_full_rounds_alternate_dealer),
        cmocka_unit_test(test_D5_six_to_nondealer_six_to_dealer_four_to_table),
        cmocka_unit_test(test_D5_redeal_on_three_or_four_face_cards_of_a_rank),
        cmocka_unit_test(test_D5_dealt_tables_never_hold_a_face_triple),
        cmocka_unit_test(test_D5_redeal_replaces_only_the_table),
        cmocka_unit_test(test_D6_new_hands_when_both_are_empty),
        cmocka_unit_test(test_D6_no_deal_while_a_hand_holds_cards),
        cmocka_unit_test(test_D6_four_deals_per_round),
        cmocka_unit_test(test_D7_four_player_deal_in_play_order),
        cmocka_unit_test(test_D7_partners_sit_opposite),
        cmocka_unit_test(test_D7_play_order_and_second_deal),
        cmocka_unit_test(test_D7_two_deals_and_deal_passes_right),
        cmocka_unit_test(test_D8_partnership_shares_one_pile),
        cmocka_unit_test(test_D8_scoring_is_per_side),
        cmocka_unit_test(test_D9_plays_exactly_one_card_from_hand),
        cmocka_unit_test(test_D9_each_kind_of_move),
        cmocka_unit_test(test_D10_lay_makes_a_loose_card),
        cmocka_unit_test(test_D10_face_card_not_laid_onto_its_rank),
        cmocka_unit_test(test_D11_several_parts_at_once),
        cmocka_unit_test(test_D11_capture_is_the_set_of_cards_taken),
        cmocka_unit_test(test_D11_declarations_of_its_value),
        cmocka_unit_test(test_D11_capture_takes_something),
        cmocka_unit_test(test_D12_face_card_takes_exactly_one_of_its_rank),
        cmocka_unit_test(test_D13_captured_cards_and_card_played_to_pile),
        cmocka_unit_test(test_D14_declarer_keeps_a_card_of_the_value),
        cmocka_unit_test(test_D14_played_card_does_not_count),
        cmocka_unit_test(test_D15_plain_declaration),
        cmocka_unit_test(test_D15_sum_and_limit),
        cmocka_unit_test(test_D15_D16_group_meant),
        cmocka_unit_test(test_D16_raise_opponents_plain),
        cmocka_unit_test(test_D16_raise_adds_only_the_card),
        cmocka_unit_test(test_D16_value_at_most_ten),
        cmocka_unit_test(test_D16_never_ones_own),
        cmocka_unit_test(test_D16_never_a_partners),
        cmocka_unit_test(test_D16_former_owner_may_raise_back),
        cmocka_unit_test(test_D17_card_alone_and_loose_components),
        cmocka_unit_test(test_D17_card_joined_with_loose_cards),
        cmocka_unit_test(test_D17_raising_component),
        cmocka_unit_test(test_D17_takes_anyones_plain_of_the_value),
        cmocka_unit_test(test_D17_merges_existing_groups),
        cmocka_unit_test(test_D17_needs_two_components),
        cmocka_unit_test(test_D17_card_must_fit_one_component),
        cmocka_unit_test(test_D17_raising_component_takes_no_loose_card),
        cmocka_unit_test(test_D18_group_never_raised),
        cmocka_unit_test(test_D18_group_captured_only_by_its_value),
        cmocka_unit_test(test_D18_group_of_another_value_is_no_component),
        cmocka_unit_test(test_D19_owner_may_not_lay),
        cmocka_unit_test(test_D19_owner_may_not_make_a_plain_declaration),
        cmocka_unit_test(test_D19_owner_may_not_raise),
        cmocka_unit_test(test_D19_owner_group_must_include_own),
        cmocka_unit_test(test_D19_owner_may_capture_own_with_last_card_of_value),
        cmocka_unit_test(test_D19_owner_always_has_capture_of_own),
        cmocka_unit_test(test_D19_obligation_ends_when_raised),
        cmocka_unit_test(test_D19_obligation_ends_when_added_to),
        cmocka_unit_test(test_D19_obligation_ends_when_captured),
        cmocka_unit_test(test_D19_owns_at_most_one),
        cmocka_unit_test(test_D19_no_declaration_left_when_hands_are_empty),
        cmocka_unit_test(test_D19_D20_random_playouts),
        cmocka_unit_test(test_D20_face_cards_only_still_move),
        cmocka_unit_test(test_D21_sweep_is_a_xeri),
        cmocka_unit_test(test_D21_sweep_with_declarations_is_a_xeri),
        cmocka_unit_test(test_D21_no_xeri_when_something_is_left),
        cmocka_unit_test(test_D21_first_card_of_round_never_xeri),
        cmocka_unit_test(test_D21_first_card_of_a_later_deal_scores),
        cmocka_unit_test(test_D21_last_card_of_a_deal_scores),
        cmocka_unit_test(test_D21_last_card_of_the_round_scores),
        cmocka_unit_test(test_D21_end_of_round_sweep_is_no_xeri),
        cmocka_unit_test(test_D22_leftovers_to_last_capturer),
        cmocka_unit_test(test_D22_last_capture_of_the_last_card),
        cmocka_unit_test(test_D22_nobody_captured_nobody_gets_them),
        cmocka_unit_test(test_D22_four_players_leftovers_to_side),
        cmocka_unit_test(test_D23_most_cards_four_points),
        cmocka_unit_test(test_D23_no_card_points_on_26_26),
        cmocka_unit_test(test_D23_aces_ten_of_diamonds_two_of_clubs),
        cmocka_unit_test(test_D23_xeri_ten_points_each),
        cmocka_unit_test(test_D23_points_sum_to_eleven),
        cmocka_unit_test(test_D23_round_score_added_at_end_of_round),
        cmocka_unit_test(test_D24_scores_add_up),
        cmocka_unit_test(test_D24_match_ends_at_61),
        cmocka_unit_test(test_D24_higher_total_wins),
        cmocka_unit_test(test_D24_tie_plays_another_round),
        cmocka_unit_test(test_D24_last_card_ends_the_match),
        cmocka_unit_test(test_D24_full_matches),
        cmocka_unit_test(test_C6_obligation_passes_to_the_group),
        cmocka_unit_test(test_C7_owner_raises_inside_own_group),
        cmocka_unit_test(test_C8_card_alone_only_at_the_groups_value),
        cmocka_unit_test(test_C9_partners_plain),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
