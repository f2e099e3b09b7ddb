/* The variants of RULES.md (V-...) with clarifications C1-C5: for each one,
 * what it allows that the default rules refuse, what it still refuses, and
 * which rule id the engine names when it refuses. */
#include "testutil.h"
#include "diloti/legal.h"

#include <stdio.h>
#include <string.h>

/* ---- helpers ---- */

static int card(const char *text)
{
    int len, c = dl_card_parse(text, &len);
    if (c < 0) fail_msg("'%s' is not a card", text);
    return c;
}

/* A set from a space-separated list of cards. */
static dl_Set cards(const char *list)
{
    dl_Set s = 0;
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        int len, c = dl_card_parse(p, &len);
        if (c < 0) fail_msg("bad card list '%s'", list);
        s |= DL_BIT(c);
        p += len;
    }
    return s;
}

static const char *state_str(const dl_State *s)
{
    static char buf[DL_POSITION_MAX];
    dl_position_str(s, buf, sizeof buf, false);
    return buf;
}

/* Plays one random legal move; fails the test if there is none (D20). */
static dl_Effect random_move(dl_State *s, dl_Rng *rng)
{
    dl_MoveList l;
    dl_Effect e;
    dl_movelist_init(&l);
    long n = dl_legal_moves(s, &l);
    if (n <= 0) {
        dl_movelist_free(&l);
        fail_msg("D20: no legal move in %s", state_str(s));
    }
    dl_Move m = l.m[dl_rng_below(rng, (uint32_t)n)];
    dl_movelist_free(&l);
    dl_apply(s, &m, &e);
    const char *broken = dl_check_state(s);
    if (broken) fail_msg("after a random move: %s\n  in %s", broken, state_str(s));
    return e;
}

static bool in_phase_to_move(const dl_State *s)
{
    return s->phase == DL_PHASE_PLAY || s->phase == DL_PHASE_CLAIM;
}

/* How many legal moves play the given card (named in notation). */
static int count_moves_of(const dl_State *s, const char *cardname)
{
    dl_MoveList l;
    int c = card(cardname), k = 0;
    dl_movelist_init(&l);
    dl_legal_moves(s, &l);
    for (size_t i = 0; i < l.n; i++)
        if (l.m[i].kind != DL_CLAIM && l.m[i].kind != DL_KEEP && l.m[i].card == c) k++;
    dl_movelist_free(&l);
    return k;
}

static int faces_in(dl_Set s) { return dl_count(s & DL_FACES); }

/* ---- V-redeal-any-triple ---- */

static void test_V_redeal_any_triple_table_rule(void **state)
{
    (void)state;
    dl_Rules d = diloti_rules(), v = diloti_rules();
    v.redeal = DL_REDEAL_ANY_TRIPLE;
    /* D5 default: only 3 or 4 face cards of one rank. */
    assert_false(dl_table_needs_redeal(&d, cards("7c 7d 7h 2s")));
    assert_false(dl_table_needs_redeal(&d, cards("Ac Ad Ah As")));
    assert_true(dl_table_needs_redeal(&d, cards("Jc Jd Jh 2s")));
    assert_true(dl_table_needs_redeal(&d, cards("Kc Kd Kh Ks")));
    assert_false(dl_table_needs_redeal(&d, cards("Jc Jd Qh Qs")));
    /* The variant: three or four of any rank. */
    assert_true(dl_table_needs_redeal(&v, cards("7c 7d 7h 2s")));
    assert_true(dl_table_needs_redeal(&v, cards("Ac Ad Ah As")));
    assert_true(dl_table_needs_redeal(&v, cards("10c 10d 10h Ks")));
    assert_true(dl_table_needs_redeal(&v, cards("Jc Jd Jh 2s")));
    assert_false(dl_table_needs_redeal(&v, cards("7c 7d 2h 2s")));
    assert_false(dl_table_needs_redeal(&v, cards("Jc Jd Qh Qs")));
}

static void test_V_redeal_any_triple_dealt_tables(void **state)
{
    (void)state;
    dl_Rules d = diloti_rules(), v = diloti_rules();
    v.redeal = DL_REDEAL_ANY_TRIPLE;
    int numeral_triples_default = 0;
    for (uint64_t seed = 1; seed <= 4000; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &d, seed, -1));
        assert_int_equal(dl_count(s.loose), 4);
        for (int rank = 0; rank < 13; rank++) {
            int n = dl_count(s.loose & dl_rank_mask(rank));
            if (rank >= DL_RANK_J) assert_true(n < 3); /* D5 */
            else if (n >= 3) numeral_triples_default++;
        }
        assert_null(dl_new_match(&s, &v, seed, -1));
        assert_int_equal(dl_count(s.loose), 4);
        for (int rank = 0; rank < 13; rank++)
            assert_true(dl_count(s.loose & dl_rank_mask(rank)) < 3);
    }
    /* About 0.7% of tables hold a numeral triple: the default keeps them. */
    assert_true(numeral_triples_default > 0);
}

/* ---- V-three-face-cards (C2) ---- */

static void test_V_three_face_cards_no_redeal_for_exactly_three(void **state)
{
    (void)state;
    dl_Rules d = diloti_rules(), v = diloti_rules();
    v.three_face_cards = true;
    assert_true(dl_table_needs_redeal(&d, cards("Qc Qd Qh 5s")));
    assert_false(dl_table_needs_redeal(&v, cards("Qc Qd Qh 5s")));
    /* Four of a face rank are still dealt again (D5). */
    assert_true(dl_table_needs_redeal(&v, cards("Qc Qd Qh Qs")));

    int triples = 0;
    for (uint64_t seed = 1; seed <= 6000; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &v, seed, -1));
        for (int rank = DL_RANK_J; rank <= DL_RANK_K; rank++) {
            int n = dl_count(s.loose & dl_rank_mask(rank));
            assert_true(n < 4);
            if (n == 3) triples++;
        }
    }
    assert_true(triples > 0);
}

static void test_V_three_face_cards_fourth_takes_all_C2(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.three_face_cards = true;
    const char *p = "hands=Js 5c / 6d; table=Jc Jd Jh 9s";
    dl_State s = pos(&v, p);
    assert_true(legal(&s, "Js x Jc Jd Jh"));
    assert_refused(&s, "Js x Jc", "V-three-face-cards");
    assert_refused(&s, "Js x Jd Jh", "V-three-face-cards");
    assert_refused(&s, "Js lay", "D10");
    assert_int_equal(count_moves_of(&s, "Js"), 1); /* its only capture */
    dl_Effect e = play(&s, "Js x Jc Jd Jh");
    assert_true(e.captured == cards("Jc Jd Jh Js"));
    assert_true((s.pile[0] & dl_rank_mask(DL_RANK_J)) == dl_rank_mask(DL_RANK_J));

    /* Default rules: D12, one J only. */
    dl_Rules d = diloti_rules();
    dl_State t = pos(&d, p);
    assert_refused(&t, "Js x Jc Jd Jh", "D12");
    assert_true(legal(&t, "Js x Jc"));
    assert_true(legal(&t, "Js x Jh"));
    assert_int_equal(count_moves_of(&t, "Js"), 3);
}

static void test_V_three_face_cards_two_on_table_take_one(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.three_face_cards = true;
    dl_State s = pos(&v, "hands=Js 5c / 6d; table=Jc Jd 9s");
    assert_true(legal(&s, "Js x Jc"));
    assert_true(legal(&s, "Js x Jd"));
    assert_refused(&s, "Js x Jc Jd", "D12");
}

static void test_V_three_face_cards_sweep_is_xeri(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.three_face_cards = true;
    dl_State s = pos(&v, "ply=3; hands=Ks 5c / 6d; table=Kc Kd Kh");
    dl_Effect e = play(&s, "Ks x Kc Kd Kh");
    assert_true(e.xeri);
    assert_int_equal(s.xeri[0], 1);
}

/* ---- V-face-card-claim ---- */

/* The first seed whose first deal entitles a player to claim. */
static uint64_t claim_seed(const dl_Rules *r, dl_State *s)
{
    for (uint64_t seed = 1; seed < 200000; seed++) {
        assert_null(dl_new_match(s, r, seed, 1));
        if (s->phase == DL_PHASE_CLAIM) return seed;
    }
    fail_msg("no seed gives a claim");
    return 0;
}

static void test_V_face_card_claim_offered_first_deal(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    dl_State s;
    uint64_t seed = claim_seed(&v, &s);
    int seat = s.turn;
    assert_true(faces_in(s.hand[seat]) >= 5);
    assert_true(s.claim_pending & (1u << seat));
    for (int i = 0; i < 2; i++)
        if (faces_in(s.hand[i]) < 5) assert_false(s.claim_pending & (1u << i));
    /* The decision is a move: claim or keep, nothing else. */
    assert_int_equal(nmoves(&s), 2);
    assert_true(legal(&s, "claim"));
    assert_true(legal(&s, "keep"));
    char c[8], mv[32];
    dl_card_str(dl_first(s.hand[seat]), c, false);
    snprintf(mv, sizeof mv, "%s lay", c);
    assert_refused(&s, mv, "V-face-card-claim");

    /* The same deal under default rules: no decision, play starts. */
    dl_Rules d = diloti_rules();
    dl_State t;
    assert_null(dl_new_match(&t, &d, seed, 1));
    assert_true(t.hand[0] == s.hand[0] && t.hand[1] == s.hand[1]);
    assert_int_equal(t.phase, DL_PHASE_PLAY);
    assert_refused(&t, "claim", "V-face-card-claim");
    assert_refused(&t, "keep", "V-face-card-claim");
}

static void test_V_face_card_claim_claim_redeals_same_dealer(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    dl_State s;
    claim_seed(&v, &s);
    dl_Set h0 = s.hand[0], h1 = s.hand[1];
    int dealer = s.dealer, round = s.round;
    dl_Effect e = play(&s, "claim");
    assert_true(e.redealt);
    assert_int_equal(s.dealer, dealer);
    assert_int_equal(s.round, round);
    assert_int_equal(s.deal, 1);
    assert_int_equal(s.ply, 0);
    assert_int_equal(dl_count(s.hand[0]), 6);
    assert_int_equal(dl_count(s.hand[1]), 6);
    assert_int_equal(dl_count(s.loose), 4);
    assert_false(s.hand[0] == h0 && s.hand[1] == h1); /* a fresh shuffle */
    assert_int_equal(s.score[0] + s.score[1], 0);
}

static void test_V_face_card_claim_keep_then_play(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    dl_State s;
    claim_seed(&v, &s);
    dl_Set h0 = s.hand[0], h1 = s.hand[1], table = s.loose;
    int guard = 0;
    while (s.phase == DL_PHASE_CLAIM && guard++ < 4) play(&s, "keep");
    assert_int_equal(s.phase, DL_PHASE_PLAY);
    assert_int_equal(s.turn, dl_first_player(&s));
    assert_true(s.hand[0] == h0 && s.hand[1] == h1 && s.loose == table);
    /* Once play has started, no claim in this deal. */
    assert_refused(&s, "claim", "V-face-card-claim");
    dl_Rng rng;
    dl_rng_seed(&rng, 5);
    random_move(&s, &rng);
    assert_refused(&s, "claim", "V-face-card-claim");
}

/* End of deal 1: the next deal (from the given pack) gives seat 0 five
 * face cards. */
static const char *const LATE_CLAIM =
    "dealer=1; turn=0; ply=9; hands=2c / 3d; table=9s; "
    "pack=Jc Jd Jh Qc Qd 4c 5c 6c 7c 8c 9c 10c";

static void test_V_face_card_claim_later_deal_default_no_claim(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    dl_State s = pos(&v, LATE_CLAIM);
    play(&s, "2c lay");
    dl_Effect e = play(&s, "3d lay");
    assert_true(e.dealt);
    assert_int_equal(s.deal, 2);
    assert_int_equal(faces_in(s.hand[0]), 5);
    assert_int_equal(s.phase, DL_PHASE_PLAY);
    assert_refused(&s, "claim", "V-face-card-claim");
}

static void test_V_face_card_claim_any_deal_cancels_round(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    v.claim_any_deal = true;
    dl_State s = pos(&v, LATE_CLAIM);
    assert_true(dl_count(s.pile[0] | s.pile[1]) > 0);
    play(&s, "2c lay");
    play(&s, "3d lay");
    assert_int_equal(s.phase, DL_PHASE_CLAIM);
    assert_int_equal(s.turn, 0);
    assert_int_equal(nmoves(&s), 2);
    assert_refused(&s, "Jc lay", "V-face-card-claim");
    dl_Effect e = play(&s, "claim");
    assert_true(e.redealt);
    /* The round is dealt again by the same dealer, captures and all. */
    assert_int_equal(s.dealer, 1);
    assert_int_equal(s.round, 1);
    assert_int_equal(s.deal, 1);
    assert_int_equal(s.ply, 0);
    assert_int_equal(s.pile[0] | s.pile[1], 0);
    assert_int_equal(s.last_capturer, -1);
    assert_int_equal(dl_count(s.hand[0]), 6);
    assert_int_equal(dl_count(s.hand[1]), 6);
    assert_int_equal(dl_count(s.loose), 4);
    assert_int_equal(s.pack_len - s.pack_pos, 52 - 16);
}

static void test_V_face_card_claim_four_faces_not_enough(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    v.claim_any_deal = true;
    dl_State s = pos(&v, "dealer=1; turn=0; ply=9; hands=2c / 3d; table=9s; "
                         "pack=Jc Jd Jh Qc 4d 4c 5c 6c 7c 8c 9c 10c");
    play(&s, "2c lay");
    play(&s, "3d lay");
    assert_int_equal(faces_in(s.hand[0]), 4);
    assert_int_equal(s.phase, DL_PHASE_PLAY);
}

static void test_V_face_card_claim_each_entitled_player_decides(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.face_card_claim = true;
    v.claim_any_deal = true;
    const char *p = "dealer=1; turn=0; ply=9; hands=2c / 3d; table=9s; "
                    "pack=Jc Jd Jh Qc Qd Qh Qs Kc Kd Kh Ks 10c";
    dl_State s = pos(&v, p);
    play(&s, "2c lay");
    play(&s, "3d lay");
    assert_int_equal(s.phase, DL_PHASE_CLAIM);
    assert_int_equal(s.turn, 0);
    play(&s, "keep");
    assert_int_equal(s.phase, DL_PHASE_CLAIM);
    assert_int_equal(s.turn, 1);
    play(&s, "keep");
    assert_int_equal(s.phase, DL_PHASE_PLAY);
    assert_int_equal(s.turn, 0);

    /* The second player may claim after the first kept. */
    dl_State t = pos(&v, p);
    play(&t, "2c lay");
    play(&t, "3d lay");
    play(&t, "keep");
    dl_Effect e = play(&t, "claim");
    assert_true(e.redealt);
    assert_int_equal(t.deal, 1);
}

/* ---- V-dealer-peeks ---- */

static void test_V_dealer_peeks_view(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.dealer_peeks = true;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        dl_State s;
        dl_View w;
        int dealer = (int)(seed & 1);
        assert_null(dl_new_match(&s, &v, seed, dealer));
        int bottom = s.pack[s.pack_len - 1];
        dl_view(&s, dealer, &w);
        assert_int_equal(w.known_bottom, bottom);
        assert_false(w.unseen & DL_BIT(bottom));
        dl_view(&s, 1 - dealer, &w);
        assert_int_equal(w.known_bottom, -1);
        assert_true(w.unseen & DL_BIT(bottom));
        /* Default rules: nobody knows it. */
        assert_null(dl_new_match(&s, &d, seed, dealer));
        dl_view(&s, dealer, &w);
        assert_int_equal(w.known_bottom, -1);
        dl_view(&s, 1 - dealer, &w);
        assert_int_equal(w.known_bottom, -1);
    }
}

/* Plays the round out: the dealer keeps knowing the bottom card, and it is
 * dealt to the dealer in the last deal. */
static void peek_round(const dl_Rules *r, uint64_t seed)
{
    dl_State s;
    dl_Rng rng;
    dl_View w;
    dl_rng_seed(&rng, seed * 7 + 1);
    assert_null(dl_new_match(&s, r, seed, (int)(seed % (uint64_t)r->players)));
    const int dealer = s.dealer;
    const int bottom = s.pack[s.pack_len - 1];
    bool seen_last_deal = false;
    while (s.phase == DL_PHASE_PLAY) {
        if (s.deal < r->deals) {
            dl_view(&s, dealer, &w);
            assert_int_equal(w.known_bottom, bottom);
            for (int i = 0; i < r->players; i++) {
                assert_false(s.hand[i] & DL_BIT(bottom));
                if (i == dealer) continue;
                dl_view(&s, i, &w);
                assert_int_equal(w.known_bottom, -1);
            }
        } else if (!seen_last_deal) {
            seen_last_deal = true;
            assert_true(s.hand[dealer] & DL_BIT(bottom));
        }
        random_move(&s, &rng);
    }
    assert_true(seen_last_deal);
}

static void test_V_dealer_peeks_each_round_new_dealer(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.dealer_peeks = true;
    dl_State s;
    dl_Rng rng;
    dl_View w;
    dl_rng_seed(&rng, 3);
    assert_null(dl_new_match(&s, &v, 3, 0));
    while (s.phase == DL_PHASE_PLAY) random_move(&s, &rng);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    dl_next_round(&s);
    assert_int_equal(s.dealer, 1);
    dl_view(&s, 1, &w);
    assert_int_equal(w.known_bottom, s.pack[s.pack_len - 1]);
    dl_view(&s, 0, &w);
    assert_int_equal(w.known_bottom, -1);
}

static void test_V_dealer_peeks_card_dealt_to_dealer_last(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.dealer_peeks = true;
    for (uint64_t seed = 1; seed <= 20; seed++) peek_round(&v, seed);
    dl_Rules v4 = diloti4_rules();
    v4.dealer_peeks = true;
    for (uint64_t seed = 1; seed <= 20; seed++) peek_round(&v4, seed);
}

/* ---- V-forced-capture (C1) ---- */

static void test_V_forced_capture_example14(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.forced_capture = true;
    const char *p = "hands=9h 2s / Kd; table=Ac 3d 4h 5s 9c";
    dl_State s = pos(&v, p);
    assert_true(legal(&s, "9h x Ac 3d 5s 9c"));
    assert_true(legal(&s, "9h x 4h 5s 9c"));
    assert_int_equal(count_moves_of(&s, "9h"), 2);
    assert_refused(&s, "9h x Ac 3d 5s", "V-forced-capture");
    assert_refused(&s, "9h x 9c", "V-forced-capture");
    assert_refused(&s, "9h x 4h 5s", "V-forced-capture");
    assert_refused(&s, "9h lay", "V-forced-capture");
    assert_refused(&s, "9h x Ac 3d 4h 5s 9c", "D11"); /* not disjoint parts */
    /* The 2 captures nothing, so it may be laid. */
    assert_true(legal(&s, "2s lay"));

    dl_Rules d = diloti_rules();
    dl_State t = pos(&d, p);
    assert_true(legal(&t, "9h x Ac 3d 5s"));
    assert_true(legal(&t, "9h x 9c"));
    assert_true(legal(&t, "9h lay"));
    assert_int_equal(count_moves_of(&t, "9h"), 6); /* 3 parts, 2 overlap, + lay */
}

static void test_V_forced_capture_C1_maximal_not_maximum(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.forced_capture = true;
    const char *p = "hands=6h 2s / Kd; table=Ac 5d 2h 4s 3c 3d";
    dl_State s = pos(&v, p);
    /* 5, 4, 3 hold no further 6: A+2+3 alone is enough. */
    assert_true(legal(&s, "6h x Ac 2h 3c"));
    assert_true(legal(&s, "6h x Ac 2h 3d"));
    assert_true(legal(&s, "6h x Ac 5d 2h 4s 3c 3d"));
    assert_refused(&s, "6h x Ac 5d", "V-forced-capture");     /* 2+4, 3+3 left */
    assert_refused(&s, "6h x 2h 4s", "V-forced-capture");     /* A+5, 3+3 left */
    assert_refused(&s, "6h x 3c 3d", "V-forced-capture");     /* A+5, 2+4 left */
    assert_refused(&s, "6h x Ac 5d 3c 3d", "V-forced-capture");
    assert_refused(&s, "6h lay", "V-forced-capture");

    dl_Rules d = diloti_rules();
    dl_State t = pos(&d, p);
    assert_true(legal(&t, "6h x Ac 5d"));
    assert_true(legal(&t, "6h x 3c 3d"));
    assert_true(legal(&t, "6h lay"));
}

/* D20 with C1 on a crowded table: a 10 whose only moves are maximal
 * captures, among 1,086 sets of cards worth 10. Every share of a bounded
 * list, the smallest included, must still hold one of them (a share of 16
 * listed none: its work ran out before the first maximal union). */
static void test_V_forced_capture_every_share_lists_a_move_D20(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.forced_capture = true;
    dl_State s = pos(&v, "hands=10h / 10c; table=Ac Ad Ah As 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s "
                         "5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d 9h 9s Kc; pack=-");
    for (long share = DL_BATCH_MAX; share >= DL_BATCH_MIN; share /= 4) {
        dl_MoveList l;
        dl_movelist_init(&l);
        long n = dl_legal_moves_share(&s, &l, share);
        if (n <= 0) fail_msg("share %ld: %ld moves listed", share, n);
        for (size_t i = 0; i < l.n; i++) assert_int_equal(DL_CHECK_LEGAL, dl_check_move(&s, &l.m[i]));
        dl_movelist_free(&l);
    }
}

static void test_V_forced_capture_no_declaration_or_raise(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.forced_capture = true;
    /* 9h can take 9c: it may not make a plain 10 with the A. */
    const char *p = "hands=9h 10d 4s / Kd; table=9c Ac";
    dl_State s = pos(&v, p), t = pos(&d, p);
    assert_refused(&s, "9h + Ac = 10", "V-forced-capture");
    assert_true(legal(&t, "9h + Ac = 10"));
    /* 4s captures nothing: it may still be laid (or declared). */
    assert_true(legal(&s, "4s lay"));

    /* 6h can take 6c: it may not raise the opponent's plain 3. */
    p = "hands=6h 9s / 3s Kd; table=6c P3@1(Ad+2d)";
    s = pos(&v, p);
    t = pos(&d, p);
    assert_refused(&s, "6h + P3@1 = 9", "V-forced-capture");
    assert_true(legal(&t, "6h + P3@1 = 9"));

    /* 8h can take 8c: it may not make a group of 8s with it. */
    p = "hands=8h 8d / Kd; table=8c 5s 3h";
    s = pos(&v, p);
    t = pos(&d, p);
    assert_refused(&s, "8h + 8c = G8", "V-forced-capture");
    assert_refused(&s, "8h + 8c 5s 3h = G8", "V-forced-capture");
    assert_true(legal(&t, "8h + 8c 5s 3h = G8"));
    assert_refused(&s, "8h x 8c", "V-forced-capture");
    assert_true(legal(&s, "8h x 8c 5s 3h"));
}

static void test_V_forced_capture_declarations_are_parts(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.forced_capture = true;
    dl_State s = pos(&v, "hands=9h 2s / 9s 3c; table=9c P9@1(4d+5d)");
    assert_true(legal(&s, "9h x 9c P9@1"));
    assert_refused(&s, "9h x 9c", "V-forced-capture");
    assert_refused(&s, "9h x P9@1", "V-forced-capture");
}

static void test_V_forced_capture_face_cards_C1(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.forced_capture = true;
    /* Face captures take one card anyway: either J. */
    dl_State s = pos(&v, "hands=Jh 2s / Kd; table=Jc Jd 5s");
    assert_true(legal(&s, "Jh x Jc"));
    assert_true(legal(&s, "Jh x Jd"));
    assert_refused(&s, "Jh lay", "D10");
    /* A face card with nothing to take may be laid. */
    s = pos(&v, "hands=Qh 2s / Kd; table=Jc Jd 5s");
    assert_true(legal(&s, "Qh lay"));

    /* Kontsina lets a J be laid on a J (K2); forced capture does not. */
    dl_Rules k = kontsina_rules();
    k.forced_capture = true;
    s = pos(&k, "hands=Jh 2s / Kd; table=Jc 5s");
    assert_refused(&s, "Jh lay", "V-forced-capture");
    assert_true(legal(&s, "Jh x Jc"));
    dl_Rules k0 = kontsina_rules();
    s = pos(&k0, "hands=Jh 2s / Kd; table=Jc 5s");
    assert_true(legal(&s, "Jh lay"));
}

static void test_V_forced_capture_kontsina_means_must_capture(void **state)
{
    (void)state;
    dl_Rules k = kontsina_rules();
    k.forced_capture = true;
    dl_State s = pos(&k, "hands=6s 9d / Kd; table=2c 4d 6h");
    assert_refused(&s, "6s lay", "V-forced-capture");
    assert_refused(&s, "6s x 2c 4d 6h", "K2");
    assert_true(legal(&s, "9d lay"));
    /* One combination is all a Kontsina capture takes: either will do. */
    assert_true(legal(&s, "6s x 6h"));
    assert_true(legal(&s, "6s x 2c 4d"));
    /* D20: with only that card in hand there must be a legal move. */
    s = pos(&k, "hands=6s / Kd; table=2c 4d 6h");
    assert_int_equal(nmoves(&s), 2);
}

/* D20 under V-forced-capture in both games: random rounds never leave the
 * player to move without a legal move. */
static void test_V_forced_capture_random_play_D20(void **state)
{
    (void)state;
    dl_Rules rules[3];
    dl_rules_diloti(&rules[0]);
    dl_rules_kontsina(&rules[1]);
    dl_rules_diloti(&rules[2]);
    dl_rules_set_players(&rules[2], 4, true);
    for (int k = 0; k < 3; k++) {
        rules[k].forced_capture = true;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            dl_State s;
            dl_Rng rng;
            dl_rng_seed(&rng, seed);
            assert_null(dl_new_match(&s, &rules[k], seed, -1));
            while (s.phase == DL_PHASE_PLAY) random_move(&s, &rng);
        }
    }
}

/* ---- V-liberal-group (C3) ---- */

/* Seed example a: opponent's plain 7 (4+3) and a loose A; an 8 played with
 * both makes a group of 8s (the plain 7 counting as a card). */
static const char *const EX_A = "hands=8h 8d / 7c 2c; table=Ac P7@1(4s+3h)";
/* Seed example b: my group of 10s, a plain 5 and a loose 2; a 3 played with
 * the 5 and the 2 is added to the group. */
static const char *const EX_B =
    "hands=3h 10c / 5c 9d; table=2c P5@1(4d+Ad) G10@0(10h,6s+4s)";

static void test_V_liberal_group_example_a(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.liberal_group = true;
    dl_State s = pos(&v, EX_A), t = pos(&d, EX_A);
    assert_refused(&t, "8h + Ac P7@1 = G8", "D17");
    play(&s, "8h + Ac P7@1 = G8");
    int g = dl_owned_decl(&s, 0);
    assert_true(g >= 0);
    assert_int_equal(s.decl[g].kind, DL_DECL_GROUP);
    assert_int_equal(s.decl[g].value, 8);
    assert_int_equal(s.decl[g].ncomp, 2);
    assert_true(s.decl[g].cards == cards("8h Ac 4s 3h"));
    assert_int_equal(dl_owned_decl(&s, 1), -1); /* seat 1's plain is gone */
    assert_int_equal(s.loose, 0);
}

static void test_V_liberal_group_example_b(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.liberal_group = true;
    dl_State s = pos(&v, EX_B), t = pos(&d, EX_B);
    assert_refused(&t, "3h + 2c P5@1 G10@0 = G10", "D17");
    play(&s, "3h + 2c P5@1 G10@0 = G10");
    int g = dl_owned_decl(&s, 0);
    assert_true(g >= 0);
    assert_int_equal(s.ndecl, 1);
    assert_int_equal(s.decl[g].value, 10);
    assert_int_equal(s.decl[g].ncomp, 3);
    assert_true(s.decl[g].cards == cards("10h 6s 4s 3h 2c 4d Ad"));
}

static void test_V_liberal_group_own_plain_counts_as_included_C3(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.liberal_group = true;
    /* Seat 0 owns a plain 4; 2 + plain 4 is a component of 6 with the 6s. */
    const char *p = "hands=2h 4h 6h 6d / 5c 9d; table=6s 7d P4@0(3c+Ac)";
    dl_State s = pos(&v, p), t = pos(&d, p);
    assert_refused(&t, "2h + 6s P4@0 = G6", "D17");
    assert_true(legal(&s, "2h + 6s P4@0 = G6"));
    /* D19: a group that leaves the own plain out is still refused. */
    assert_refused(&s, "6h + 6s = G6", "D19");
    play(&s, "2h + 6s P4@0 = G6");
    /* C6: the obligation passes to the group of 6s (seat 0 holds 6h). */
    int g = dl_owned_decl(&s, 0);
    assert_int_equal(s.decl[g].value, 6);
    assert_int_equal(s.decl[g].kind, DL_DECL_GROUP);
}

static void test_V_liberal_group_partner_plain_C3(void **state)
{
    (void)state;
    dl_Rules v = diloti4_rules(), d = diloti4_rules();
    v.liberal_group = true;
    /* Seat 2 (partner of seat 0) owns a plain 5. */
    const char *p = "hands=3h 10c 8c / 9c / 5c 2s / 9d; table=2c 10s P5@2(4d+Ad)";
    dl_State s = pos(&v, p), t = pos(&d, p);
    assert_refused(&t, "3h + 2c 10s P5@2 = G10", "D17");
    assert_refused(&t, "3h + P5@2 = 8", "D16"); /* C9: never raised */
    assert_true(legal(&s, "3h + 2c 10s P5@2 = G10"));
    assert_refused(&s, "3h + P5@2 = 8", "D16");
}

static void test_V_liberal_group_allows_no_other_liberty(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.liberal_group = true;
    /* Capturing with a plain as a card is V-liberal-capture. */
    dl_State s = pos(&v, "hands=6h 2s / 5c 3d; table=Ac P5@1(3h+2d)");
    assert_refused(&s, "6h x Ac P5@1", "D11");
    /* Raising with loose cards is V-liberal-raise. */
    s = pos(&v, "hands=Ah 10c / 6c 5d; table=3s P6@1(4d+2h)");
    assert_refused(&s, "Ah + 3s P6@1 = 10", "D16");
}

/* ---- V-liberal-raise (C4) ---- */

static const char *const EX_C = "hands=Ah 10c / 6c 5d; table=3s P6@1(4d+2h)";

static void test_V_liberal_raise_example_c(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.liberal_raise = true;
    dl_State s = pos(&v, EX_C), t = pos(&d, EX_C);
    assert_refused(&t, "Ah + 3s P6@1 = 10", "D16");
    assert_false(legal(&t, "Ah + P6@1 = 7")); /* no 7 held */
    play(&s, "Ah + 3s P6@1 = 10");
    int i = dl_owned_decl(&s, 0);
    assert_true(i >= 0);
    assert_int_equal(s.decl[i].kind, DL_DECL_PLAIN);
    assert_int_equal(s.decl[i].value, 10);
    assert_true(s.decl[i].cards == cards("4d 2h Ah 3s"));
    assert_int_equal(dl_owned_decl(&s, 1), -1);
    assert_int_equal(s.loose, 0);
}

static void test_V_liberal_raise_still_needs_card_D14(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.liberal_raise = true;
    dl_State s = pos(&v, "hands=Ah 9c / 6c 5d; table=3s P6@1(4d+2h)");
    assert_refused(&s, "Ah + 3s P6@1 = 10", "D14");
}

static void test_V_liberal_raise_one_opponent_plain_only_C4(void **state)
{
    (void)state;
    /* Four players: seats 1 and 3 are both opponents of seat 0; their two
     * plains may not be joined in one raise. */
    dl_Rules v = diloti4_rules();
    v.liberal_raise = true;
    dl_State s = pos(&v, "hands=2h 9c 5s / 3s / 8h / 4c; "
                         "table=Kd P3@1(Ad+2d) P4@3(3c+Ac)");
    assert_refused(&s, "2h + P3@1 P4@3 = 9", "D16");
    assert_true(legal(&s, "2h + P3@1 = 5"));
    assert_false(legal(&s, "2h + P4@3 = 6")); /* holds no 6 */

    /* Own plain: never raised by its owner; the engine cites the more
     * specific D16 ("never one's own") rather than D19. */
    dl_Rules w = diloti_rules();
    w.liberal_raise = true;
    s = pos(&w, "hands=Ah 6h 10c / 9d; table=3s P6@0(4d+2h)");
    assert_refused(&s, "Ah + 3s P6@0 = 10", "D16");

    /* Partner's plain (four players): never raised (C9). */
    dl_Rules f = diloti4_rules();
    f.liberal_raise = true;
    s = pos(&f, "hands=Ah 10c / 9c / 6c 2s / 9d; table=3s P6@2(4d+2h)");
    assert_refused(&s, "Ah + 3s P6@2 = 10", "D16");

    /* A group can never be raised (D18). */
    s = pos(&w, "hands=Ah 10c / 6c; table=3s G6@1(6d,4d+2h)");
    assert_refused(&s, "Ah + 3s G6@1 = 10", "D18");
}

static void test_V_liberal_raise_widens_group_component_C4(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.liberal_raise = true;
    /* Example b is also legal here: 3 raises the opponent's 5 with the 2. */
    dl_State s = pos(&v, EX_B);
    assert_true(legal(&s, "3h + 2c P5@1 G10@0 = G10"));
    /* But not with the own plain (that needs V-liberal-group). */
    s = pos(&v, "hands=2h 4h 6h / 5c 9d; table=6s 7d P4@0(3c+Ac)");
    assert_refused(&s, "2h + 6s P4@0 = G6", "D17");
}

/* ---- V-liberal-capture (C5) ---- */

static void test_V_liberal_capture_example_d(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.liberal_capture = true;
    const char *p = "hands=6h 2s / 5c 3d; table=Ac P5@1(3h+2d)";
    dl_State s = pos(&v, p), t = pos(&d, p);
    assert_refused(&t, "6h x Ac P5@1", "D11");
    assert_refused(&s, "6h x P5@1", "D11");
    dl_Effect e = play(&s, "6h x Ac P5@1");
    assert_true(e.captured == cards("6h Ac 3h 2d"));
    assert_int_equal(s.ndecl, 0);
}

static void test_V_liberal_capture_example_e(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.liberal_capture = true;
    const char *p = "hands=9h 3s / 7c 4d; table=2c P7@1(4h+3d) P9@0(5c+4c)";
    dl_State s = pos(&v, p), t = pos(&d, p);
    assert_refused(&t, "9h x 2c P7@1 P9@0", "D11");
    assert_true(legal(&t, "9h x P9@0"));
    dl_Effect e = play(&s, "9h x 2c P7@1 P9@0");
    assert_true(e.captured == cards("9h 2c 4h 3d 5c 4c"));
    assert_int_equal(s.ndecl, 0);
}

static void test_V_liberal_capture_groups_never_C5(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.liberal_capture = true;
    dl_State s = pos(&v, "hands=6h 2s / 5c 3d; table=Ac G5@1(5d,3h+2d)");
    assert_refused(&s, "6h x Ac G5@1", "D18");
    /* Own plain counts too ("anyone's"). */
    s = pos(&v, "hands=6h 4s / 9c 3d; table=2c P4@0(3h+Ad)");
    assert_true(legal(&s, "6h x 2c P4@0"));
    dl_Rules d = diloti_rules();
    s = pos(&d, "hands=6h 4s / 9c 3d; table=2c P4@0(3h+Ad)");
    assert_refused(&s, "6h x 2c P4@0", "D11");
}

/* ---- V-soy ---- */

static void test_V_soy_nothing_added(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.soy = true;
    /* Seat 1 owns the soy 8c+8d (and holds 8s). */
    const char *p = "hands=8h 9s 6h / 8s 3c; table=2c 5d G8@1(8c,8d)";
    dl_State s = pos(&v, p), t = pos(&d, p);
    /* Default rules: a group takes additions (D17). */
    assert_true(legal(&t, "6h + 2c G8@1 = G8"));
    /* Soy: nothing may be added to it, nor may it be merged. */
    assert_refused(&s, "6h + 2c G8@1 = G8", "V-soy");
    /* A new group of 8s beside it is fine. */
    s = pos(&v, "hands=8h 9s 6h / 8s 3c; table=2c 5d 3s G8@1(8c,8d)");
    assert_true(legal(&s, "6h + 2c 3s 5d = G8"));
    assert_refused(&s, "6h + 2c 3s 5d G8@1 = G8", "V-soy");
}

static void test_V_soy_captured_only_by_its_value(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.soy = true;
    v.liberal_capture = true;
    dl_State s = pos(&v, "hands=8h 9h / 8s 3c; table=Ac 5d G8@1(8c,8d)");
    assert_true(legal(&s, "8h x G8@1"));
    assert_refused(&s, "9h x Ac G8@1", "D18");
    assert_refused(&s, "9h x G8@1", "D18");
}

static void test_V_soy_owner_may_not_add(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules(), d = diloti_rules();
    v.soy = true;
    /* Seat 1 to move owns the soy of 8s. */
    const char *p = "turn=1; hands=9c 4d / 8h 9h 3h; table=5s G8@1(8c,8d)";
    dl_State s = pos(&v, p), t = pos(&d, p);
    assert_true(legal(&t, "3h + 5s G8@1 = G8"));
    assert_refused(&s, "3h + 5s G8@1 = G8", "V-soy");
    assert_refused(&s, "3h lay", "D19");
    /* D19 leaves the soy's owner only captures: here just the soy. */
    assert_int_equal(nmoves(&s), 1);
    assert_true(legal(&s, "8h x G8@1"));
}

static void test_V_soy_made_from_two_cards(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.soy = true;
    dl_State s = pos(&v, "hands=8h 8s / 3c; table=8c 4d");
    play(&s, "8h + 8c = G8");
    int g = dl_owned_decl(&s, 0);
    assert_int_equal(dl_count(s.decl[g].cards), 2);
    /* A group of three components is no soy: it takes additions. */
    s = pos(&v, "hands=6h 8s / 8d 3c; table=2c G8@1(8c,5d+3d)");
    assert_true(legal(&s, "6h + 2c G8@1 = G8"));
}

/* ---- V-no-xeri-last-card / V-xeri-first-card (D21) ---- */

static const char *const LAST_CARD = "dealer=1; turn=1; ply=47; hands=- / 7h; table=7c; pack=-";

static void test_V_no_xeri_last_card(void **state)
{
    (void)state;
    dl_Rules d = diloti_rules(), v = diloti_rules();
    v.xeri_last_card = false;
    dl_State s = pos(&d, LAST_CARD);
    dl_Effect e = play(&s, "7h x 7c");
    assert_true(e.xeri); /* D21: the dealer's very last card scores */
    assert_true(e.round_over);
    assert_int_equal(s.last.xeris[1], 1);
    assert_int_equal(s.last.pts_xeri[1], 10);

    s = pos(&v, LAST_CARD);
    e = play(&s, "7h x 7c");
    assert_false(e.xeri);
    assert_true(e.round_over);
    assert_int_equal(s.last.xeris[1], 0);
    assert_int_equal(s.last.pts_xeri[1], 0);
}

static void test_V_no_xeri_last_card_earlier_deal_still_scores(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.xeri_last_card = false;
    /* The last card of deal 2 (the pack still holds cards). */
    dl_State s = pos(&v, "dealer=1; turn=1; deal=2; ply=23; hands=- / 7h; table=7c");
    assert_true(s.pack_len > s.pack_pos);
    dl_Effect e = play(&s, "7h x 7c");
    assert_true(e.xeri);
    assert_true(e.dealt);
    assert_int_equal(s.xeri[1], 1);
}

static void test_V_xeri_first_card(void **state)
{
    (void)state;
    dl_Rules d = diloti_rules(), v = diloti_rules();
    v.xeri_first_card = true;
    const char *first = "ply=0; hands=7h 2s / 9c; table=3c 4d";
    dl_State s = pos(&d, first);
    dl_Effect e = play(&s, "7h x 3c 4d");
    assert_false(e.xeri); /* D21: never on the first card by default */
    assert_int_equal(s.xeri[0], 0);
    s = pos(&v, first);
    e = play(&s, "7h x 3c 4d");
    assert_true(e.xeri);
    assert_int_equal(s.xeri[0], 1);
    /* From the second card on, both score. */
    const char *second = "ply=1; hands=7h 2s / 9c; table=3c 4d";
    s = pos(&d, second);
    assert_true(play(&s, "7h x 3c 4d").xeri);
    s = pos(&v, second);
    assert_true(play(&s, "7h x 3c 4d").xeri);
}

static void test_V_xeri_first_card_dealt_round(void **state)
{
    (void)state;
    /* From dl_new_match: the very first card of the round. */
    dl_Rules d = diloti_rules(), v = diloti_rules();
    v.xeri_first_card = true;
    int found = 0;
    for (uint64_t seed = 1; seed <= 3000 && found < 3; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &d, seed, 1));
        dl_MoveList l;
        dl_movelist_init(&l);
        dl_legal_moves(&s, &l);
        for (size_t i = 0; i < l.n; i++) {
            if (l.m[i].kind != DL_CAPTURE || (l.m[i].take & DL_DECK) != s.loose) continue;
            dl_State a = s, b;
            dl_Effect e;
            dl_apply(&a, &l.m[i], &e);
            assert_false(e.xeri);
            assert_null(dl_new_match(&b, &v, seed, 1));
            dl_apply(&b, &l.m[i], &e);
            assert_true(e.xeri);
            found++;
            break;
        }
        dl_movelist_free(&l);
    }
    assert_true(found > 0);
}

/* ---- V-target=N (D24) ---- */

/* The last card of a round: seat 1 takes 7c with 7h, Kd is left for the
 * last capturer (D22). Side 0 ends with 24 cards (2c, 10d, Ac, Ad: 5
 * points), side 1 with 28 (4 for the cards, Ah, As: 6 points). */
static dl_State round_end(const dl_Rules *r, const char *score)
{
    char p0[200], p1[200], text[DL_POSITION_MAX];
    dl_Set clubs = DL_CLUB_SUIT, diamonds = DL_CLUB_SUIT << 1;
    dl_Set hearts = DL_CLUB_SUIT << 2, spades = DL_CLUB_SUIT << 3;
    dl_set_str((clubs | diamonds) & ~cards("7c Kd"), p0, sizeof p0, false);
    dl_set_str((hearts | spades) & ~cards("7h"), p1, sizeof p1, false);
    snprintf(text, sizeof text,
             "dealer=1; turn=1; deal=4; ply=47; hands=- / 7h; table=7c Kd; "
             "piles=%s / %s; last=0; pack=-; %s",
             p0, p1, score);
    return pos(r, text);
}

static void test_V_target_default_61(void **state)
{
    (void)state;
    dl_Rules d = diloti_rules();
    assert_int_equal(d.target, 61);
    dl_State s = round_end(&d, "score=56 0");
    dl_Effect e = play(&s, "7h x 7c");
    assert_true(e.round_over);
    assert_false(e.xeri);
    assert_int_equal(s.last.total[0], 5);
    assert_int_equal(s.last.total[1], 6);
    assert_int_equal(s.score[0], 61);
    assert_int_equal(s.score[1], 6);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 0);

    s = round_end(&d, "score=55 0");
    play(&s, "7h x 7c");
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_int_equal(s.winner, -1);
}

static void test_V_target_121(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.target = 121;
    dl_State s = round_end(&v, "score=56 0");
    play(&s, "7h x 7c");
    assert_int_equal(s.score[0], 61);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    dl_next_round(&s);
    assert_int_equal(s.phase, DL_PHASE_PLAY);
    assert_int_equal(s.round, 2);

    s = round_end(&v, "score=116 100");
    play(&s, "7h x 7c");
    assert_int_equal(s.score[0], 121);
    assert_int_equal(s.score[1], 106);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 0);
}

static void test_V_target_small_both_reach_higher_wins(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.target = 10;
    /* 13 against 11: both reached 10, the higher total wins. */
    dl_State s = round_end(&v, "score=8 5");
    play(&s, "7h x 7c");
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 0);
    /* 9 against 10: only side 1 reached it. */
    s = round_end(&v, "score=4 4");
    play(&s, "7h x 7c");
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 1);
}

static void test_V_target_tie_plays_another_round(void **state)
{
    (void)state;
    dl_Rules v = diloti_rules();
    v.target = 10;
    dl_State s = round_end(&v, "score=5 4");
    play(&s, "7h x 7c");
    assert_int_equal(s.score[0], 10);
    assert_int_equal(s.score[1], 10);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_int_equal(s.winner, -1);
    dl_next_round(&s);
    assert_int_equal(s.round, 2);
    assert_int_equal(s.dealer, 0); /* D4: the deal passes */
    assert_int_equal(s.turn, 1);
}

/* ---- V-seed001 (display direction only) ---- */

static void same_games(const dl_Rules *a, const dl_Rules *b, uint64_t seed)
{
    dl_State s, t;
    dl_Rng ra, rb;
    dl_rng_seed(&ra, seed + 99);
    dl_rng_seed(&rb, seed + 99);
    assert_null(dl_new_match(&s, a, seed, -1));
    assert_null(dl_new_match(&t, b, seed, -1));
    int rounds = 0;
    while (rounds < 2) {
        assert_int_equal(s.dealer, t.dealer);
        assert_int_equal(s.turn, t.turn);
        for (int i = 0; i < a->players; i++) assert_true(s.hand[i] == t.hand[i]);
        assert_true(s.loose == t.loose);
        assert_int_equal(s.phase, t.phase);
        if (s.phase == DL_PHASE_ROUND_OVER) {
            for (int i = 0; i < dl_nsides(a); i++) assert_int_equal(s.score[i], t.score[i]);
            dl_next_round(&s);
            dl_next_round(&t);
            rounds++;
            continue;
        }
        if (s.phase == DL_PHASE_MATCH_OVER) break;
        char ms[8192];
        snprintf(ms, sizeof ms, "%s", moves_str(&s));
        assert_string_equal(ms, moves_str(&t));
        random_move(&s, &ra);
        random_move(&t, &rb);
    }
}

static void test_V_seed001_clockwise_is_display_only(void **state)
{
    (void)state;
    dl_Rules a = diloti_rules();
    a.redeal = DL_REDEAL_ANY_TRIPLE;
    dl_Rules b = a;
    b.clockwise = true;
    for (uint64_t seed = 1; seed <= 4; seed++) same_games(&a, &b, seed);
    dl_Rules a4 = diloti4_rules();
    a4.redeal = DL_REDEAL_ANY_TRIPLE;
    dl_Rules b4 = a4;
    b4.clockwise = true;
    for (uint64_t seed = 1; seed <= 4; seed++) same_games(&a4, &b4, seed);
}

static void test_V_seed001_preset_partner_plain_not_raised(void **state)
{
    (void)state;
    dl_Rules r = diloti4_rules();
    r.clockwise = true;
    r.redeal = DL_REDEAL_ANY_TRIPLE;
    assert_null(dl_rules_check(&r));
    dl_State s = pos(&r, "hands=5h 9c / 4s / 4h 2s / 3c 9s; table=P4@2(3d+Ad) 8c");
    assert_refused(&s, "5h + P4@2 = 9", "D16");
    s = pos(&r, "hands=5h 9c / 4s 7d / 4h 2s / 3c; table=P4@1(3d+Ad) 8c");
    assert_true(legal(&s, "5h + P4@1 = 9"));
    assert_true(dl_table_needs_redeal(&r, cards("5c 5d 5h Ks")));
}

/* ---- All variants together ---- */

static void test_V_combined_random_play(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    r.redeal = DL_REDEAL_ANY_TRIPLE;
    r.three_face_cards = true;
    r.face_card_claim = true;
    r.claim_any_deal = true;
    r.dealer_peeks = true;
    r.forced_capture = true;
    r.liberal_group = true;
    r.liberal_raise = true;
    r.liberal_capture = true;
    r.soy = true;
    r.xeri_last_card = false;
    r.xeri_first_card = true;
    r.clockwise = true;
    r.target = 121;
    dl_Rules r4 = r;
    dl_rules_set_players(&r4, 4, true);
    const dl_Rules *rules[2] = {&r, &r4};
    for (int k = 0; k < 2; k++) {
        assert_null(dl_rules_check(rules[k]));
        for (uint64_t seed = 1; seed <= 6; seed++) {
            dl_State s;
            dl_Rng rng;
            dl_rng_seed(&rng, seed);
            assert_null(dl_new_match(&s, rules[k], seed, -1));
            int rounds = 0;
            while (rounds < 2 && s.phase != DL_PHASE_MATCH_OVER) {
                if (in_phase_to_move(&s)) {
                    random_move(&s, &rng);
                } else {
                    rounds++;
                    dl_next_round(&s);
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_V_redeal_any_triple_table_rule),
        cmocka_unit_test(test_V_redeal_any_triple_dealt_tables),
        cmocka_unit_test(test_V_three_face_cards_no_redeal_for_exactly_three),
        cmocka_unit_test(test_V_three_face_cards_fourth_takes_all_C2),
        cmocka_unit_test(test_V_three_face_cards_two_on_table_take_one),
        cmocka_unit_test(test_V_three_face_cards_sweep_is_xeri),
        cmocka_unit_test(test_V_face_card_claim_offered_first_deal),
        cmocka_unit_test(test_V_face_card_claim_claim_redeals_same_dealer),
        cmocka_unit_test(test_V_face_card_claim_keep_then_play),
        cmocka_unit_test(test_V_face_card_claim_later_deal_default_no_claim),
        cmocka_unit_test(test_V_face_card_claim_any_deal_cancels_round),
        cmocka_unit_test(test_V_face_card_claim_four_faces_not_enough),
        cmocka_unit_test(test_V_face_card_claim_each_entitled_player_decides),
        cmocka_unit_test(test_V_dealer_peeks_view),
        cmocka_unit_test(test_V_dealer_peeks_card_dealt_to_dealer_last),
        cmocka_unit_test(test_V_dealer_peeks_each_round_new_dealer),
        cmocka_unit_test(test_V_forced_capture_example14),
        cmocka_unit_test(test_V_forced_capture_C1_maximal_not_maximum),
        cmocka_unit_test(test_V_forced_capture_no_declaration_or_raise),
        cmocka_unit_test(test_V_forced_capture_declarations_are_parts),
        cmocka_unit_test(test_V_forced_capture_face_cards_C1),
        cmocka_unit_test(test_V_forced_capture_kontsina_means_must_capture),
        cmocka_unit_test(test_V_forced_capture_random_play_D20),
        cmocka_unit_test(test_V_forced_capture_every_share_lists_a_move_D20),
        cmocka_unit_test(test_V_liberal_group_example_a),
        cmocka_unit_test(test_V_liberal_group_example_b),
        cmocka_unit_test(test_V_liberal_group_own_plain_counts_as_included_C3),
        cmocka_unit_test(test_V_liberal_group_partner_plain_C3),
        cmocka_unit_test(test_V_liberal_group_allows_no_other_liberty),
        cmocka_unit_test(test_V_liberal_raise_example_c),
        cmocka_unit_test(test_V_liberal_raise_still_needs_card_D14),
        cmocka_unit_test(test_V_liberal_raise_one_opponent_plain_only_C4),
        cmocka_unit_test(test_V_liberal_raise_widens_group_component_C4),
        cmocka_unit_test(test_V_liberal_capture_example_d),
        cmocka_unit_test(test_V_liberal_capture_example_e),
        cmocka_unit_test(test_V_liberal_capture_groups_never_C5),
        cmocka_unit_test(test_V_soy_nothing_added),
        cmocka_unit_test(test_V_soy_captured_only_by_its_value),
        cmocka_unit_test(test_V_soy_owner_may_not_add),
        cmocka_unit_test(test_V_soy_made_from_two_cards),
        cmocka_unit_test(test_V_no_xeri_last_card),
        cmocka_unit_test(test_V_no_xeri_last_card_earlier_deal_still_scores),
        cmocka_unit_test(test_V_xeri_first_card),
        cmocka_unit_test(test_V_xeri_first_card_dealt_round),
        cmocka_unit_test(test_V_target_default_61),
        cmocka_unit_test(test_V_target_121),
        cmocka_unit_test(test_V_target_small_both_reach_higher_wins),
        cmocka_unit_test(test_V_target_tie_plays_another_round),
        cmocka_unit_test(test_V_seed001_clockwise_is_display_only),
        cmocka_unit_test(test_V_seed001_preset_partner_plain_not_raised),
        cmocka_unit_test(test_V_combined_random_play),
    };
    return cmocka_run_group_tests_name("variants", tests, NULL, NULL);
}
