/* Kontsina (RULES.md K1-K8): the deal, one combination per capture, no
 * declarations and no xeri, leftovers, scoring, the match, 3 and 4 players. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* ---- helpers ---- */

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

static int pack_left(const dl_State *s) { return s->pack_len - s->pack_pos; }

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

/* Checks every legal move of s against Kontsina's K2. */
static void check_k2_moves(const dl_State *s)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    dl_legal_moves(s, &l);
    for (size_t i = 0; i < l.n; i++) {
        const dl_Move *m = &l.m[i];
        assert_true(m->kind == DL_LAY || m->kind == DL_CAPTURE);
        assert_int_equal(m->take & ~DL_DECK, 0); /* no declarations exist */
        if (m->kind != DL_CAPTURE) continue;
        if (dl_is_face(m->card)) {
            assert_int_equal(dl_count(m->take), 1);
            assert_int_equal(dl_rank(dl_first(m->take)), dl_rank(m->card));
        } else {
            /* exactly one combination: a card of the same value, or
             * numerals summing to the played card */
            assert_int_equal(m->take & DL_FACES, 0);
            assert_int_equal(dl_set_sum(m->take), dl_value(m->card));
        }
    }
    dl_movelist_free(&l);
}

typedef struct {
    int deals;     /* deals seen in the round */
    int max_deal;  /* highest s.deal */
    bool ok_sizes; /* each deal gave hand_size cards to everyone */
} RoundLog;

/* Plays random moves to the end of the round. */
static RoundLog play_round(dl_State *s, dl_Rng *rng)
{
    RoundLog log = {1, s->deal, true};
    const dl_Rules *r = &s->rules;
    while (s->phase == DL_PHASE_PLAY) {
        int before = pack_left(s), turn = s->turn, next_expected = -1;
        /* K6/K7: play goes round the seats in order. */
        for (int k = 1; k <= r->players; k++) {
            int seat = (turn + k) % r->players;
            dl_Set h = s->hand[seat];
            if (seat == turn) h &= h - 1; /* one card fewer */
            if (h) {
                next_expected = seat;
                break;
            }
        }
        check_k2_moves(s);
        int table_before = dl_count(dl_table_cards(s));
        dl_Effect e = random_move(s, rng);
        /* K1: later deals give nothing to the table. */
        if (!e.round_over)
            assert_int_equal(dl_count(dl_table_cards(s)),
                             table_before + 1 - dl_count(e.captured));
        if (e.dealt) {
            log.deals++;
            if (s->deal > log.max_deal) log.max_deal = s->deal;
            if (before - pack_left(s) != r->players * r->hand_size) log.ok_sizes = false;
            for (int i = 0; i < r->players; i++)
                if (dl_count(s->hand[i]) != r->hand_size) log.ok_sizes = false;
            assert_int_equal(s->turn, dl_first_player(s)); /* K6 */
        } else if (!e.round_over) {
            assert_int_equal(s->turn, next_expected);
        }
    }
    return log;
}

/* ---- K1 ---- */

static void test_K1_first_deal(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    assert_null(dl_rules_check(&r));
    assert_int_equal(r.hand_size, 4);
    assert_int_equal(r.table_cards, 4);
    assert_int_equal(r.deals, 6);
    assert_false(r.declarations);
    assert_false(r.xeri);
    for (uint64_t seed = 1; seed <= 50; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &r, seed, -1));
        assert_int_equal(dl_count(s.hand[0]), 4);
        assert_int_equal(dl_count(s.hand[1]), 4);
        assert_int_equal(dl_count(s.loose), 4);
        assert_int_equal(s.ndecl, 0);
        assert_int_equal(pack_left(&s), 40);
        assert_int_equal(s.deal, 1);
    }
}

static void test_K1_six_deals_per_round(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    for (uint64_t seed = 1; seed <= 30; seed++) {
        dl_State s;
        dl_Rng rng;
        dl_rng_seed(&rng, seed);
        assert_null(dl_new_match(&s, &r, seed, -1));
        RoundLog log = play_round(&s, &rng);
        assert_int_equal(log.deals, 6);
        assert_int_equal(log.max_deal, 6);
        assert_true(log.ok_sizes);
        assert_true(s.phase == DL_PHASE_ROUND_OVER || s.phase == DL_PHASE_MATCH_OVER);
        assert_int_equal(pack_left(&s), 0);
        /* Everything ends in the capture piles (K3). */
        if (s.last_capturer >= 0) assert_int_equal(dl_count(s.pile[0] | s.pile[1]), 52);
    }
}

static void test_K1_no_table_redeal(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    assert_int_equal(r.redeal, DL_REDEAL_NONE);
    assert_false(dl_table_needs_redeal(&r, cards("Jc Jd Jh Js")));
    assert_false(dl_table_needs_redeal(&r, cards("Qc Qd Qh 5s")));
    assert_false(dl_table_needs_redeal(&r, cards("7c 7d 7h 2s")));
    int triples = 0;
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        dl_State s;
        assert_null(dl_new_match(&s, &r, seed, -1));
        for (int rank = 0; rank < 13; rank++)
            if (dl_count(s.loose & dl_rank_mask(rank)) >= 3) triples++;
    }
    assert_true(triples > 0); /* such tables are played as dealt */
}

/* ---- K2 ---- */

static void test_K2_exactly_one_combination(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_State s = pos(&r, "hands=6s 9d / Kd; table=2c 4d 6h");
    assert_true(legal(&s, "6s x 6h"));
    assert_true(legal(&s, "6s x 2c 4d"));
    assert_true(legal(&s, "6s lay"));
    assert_refused(&s, "6s x 2c 4d 6h", "K2");
    assert_refused(&s, "6s x 2c", "K2");
    assert_refused(&s, "6s x 4d 6h", "K2");

    /* Diloti would take both 5s at once; Kontsina takes one. */
    s = pos(&r, "hands=5h 9d / Kd; table=5c 5d 3s 2h");
    assert_true(legal(&s, "5h x 5c"));
    assert_true(legal(&s, "5h x 5d"));
    assert_true(legal(&s, "5h x 3s 2h"));
    assert_refused(&s, "5h x 5c 5d", "K2");
    assert_refused(&s, "5h x 5c 3s 2h", "K2");
    dl_Rules d = diloti_rules();
    dl_State t = pos(&d, "hands=5h 9d / Kd; table=5c 5d 3s 2h");
    assert_true(legal(&t, "5h x 5c 5d"));
    assert_true(legal(&t, "5h x 5c 3s 2h"));
}

static void test_K2_face_cards(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_State s = pos(&r, "hands=Jh 6s / Kd; table=Jc Jd 5c");
    assert_true(legal(&s, "Jh x Jc"));
    assert_true(legal(&s, "Jh x Jd"));
    /* K2: a face card may be laid even with one of its rank on the table. */
    assert_true(legal(&s, "Jh lay"));
    assert_false(legal(&s, "Jh x Jc Jd"));
    /* Refusals under Kontsina cite Kontsina's rules (K2), not Diloti's. */
    assert_refused(&s, "6s x Jc", "K2"); /* face cards have no value */
    assert_refused(&s, "7h lay", "K2");  /* not in the hand (D9 in Diloti) */
    dl_Rules d = diloti_rules();
    dl_State t = pos(&d, "hands=Jh 6s / Kd; table=Jc Jd 5c");
    assert_refused(&t, "Jh lay", "D10");
    assert_refused(&t, "6s x Jc", "D11");
    /* Two face cards at once break K2's "exactly one combination". */
    assert_refused(&s, "Jh x Jc Jd", "K2");
}

static void test_K2_no_declarations(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_State s = pos(&r, "hands=3h 8d 5d / Kd; table=5c 2s 6h");
    assert_refused(&s, "3h + 5c = 8", "K2");
    assert_refused(&s, "3h + 2s 6h = G8", "K2");
    assert_refused(&s, "5d + 5c = G5", "K2");
    dl_Rules d = diloti_rules();
    dl_State t = pos(&d, "hands=3h 8d 5d / Kd; table=5c 2s 6h");
    assert_true(legal(&t, "3h + 5c = 8"));
    /* A Kontsina position cannot hold a declaration. */
    dl_State u;
    char err[300];
    assert_non_null(dl_position_parse(&u, &r, "hands=3h 8d / Kd 6c; table=P6@1(4c+2c)", 1,
                                      err, sizeof err));
}

static void test_K2_random_moves_are_one_combination(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    for (uint64_t seed = 1; seed <= 20; seed++) {
        dl_State s;
        dl_Rng rng;
        dl_rng_seed(&rng, seed + 1000);
        assert_null(dl_new_match(&s, &r, seed, -1));
        play_round(&s, &rng); /* checks every position's moves */
    }
}

static void test_K2_no_xeri(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_State s = pos(&r, "ply=5; hands=7h 9d / Kd; table=3c 4d");
    dl_Effect e = play(&s, "7h x 3c 4d");
    assert_false(e.xeri);
    assert_int_equal(s.loose, 0);
    assert_int_equal(s.xeri[0], 0);
    /* Nor with the last card of the round. */
    s = pos(&r, "dealer=1; turn=1; ply=47; hands=- / 7h; table=7c; pack=-");
    e = play(&s, "7h x 7c");
    assert_false(e.xeri);
    assert_true(e.round_over);
    assert_int_equal(s.last.xeris[1], 0);
    assert_int_equal(s.last.pts_xeri[1], 0);
    /* A xeri count in a position is refused. */
    dl_State u;
    char err[300];
    assert_non_null(dl_position_parse(&u, &r, "hands=7h / 9d; table=3c; xeri=1 0", 1, err,
                                      sizeof err));
}

/* ---- K3 ---- */

static void test_K3_leftovers_to_last_capturer(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    /* Seat 0 captured last; seat 1 lays the last card. */
    dl_State s = pos(&r, "dealer=1; turn=1; ply=47; hands=- / 9h; table=5c 2d; last=0; pack=-");
    dl_Set before0 = s.pile[0];
    dl_Effect e = play(&s, "9h lay");
    assert_true(e.round_over);
    assert_true(s.pile[0] == (before0 | cards("5c 2d 9h")));
    assert_int_equal(s.loose, 0);
    /* Seat 1 captures with the last card: the rest goes to seat 1. */
    s = pos(&r, "dealer=1; turn=1; ply=47; hands=- / 5h; table=5c 2d; last=0; pack=-");
    dl_Set before1 = s.pile[1];
    play(&s, "5h x 5c");
    assert_true(s.pile[1] == (before1 | cards("5c 2d 5h")));
    assert_int_equal(dl_count(s.pile[0] | s.pile[1]), 52);
}

/* ---- K4 ---- */

static dl_RoundScore score_piles(const dl_Rules *r, dl_Set p0, dl_Set p1)
{
    dl_State s;
    dl_RoundScore out;
    dl_state_blank(&s, r);
    s.pile[0] = p0;
    s.pile[1] = p1;
    dl_score_round(&s, &out);
    return out;
}

static void test_K4_scoring(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    const dl_Set clubs = DL_CLUB_SUIT, diamonds = DL_CLUB_SUIT << 1;
    const dl_Set hearts = DL_CLUB_SUIT << 2, spades = DL_CLUB_SUIT << 3;

    /* Side 0: all clubs and diamonds and one heart (27 cards). */
    dl_Set p0 = clubs | diamonds | cards("Ah");
    dl_RoundScore sc = score_piles(&r, p0, DL_DECK & ~p0);
    assert_int_equal(sc.pts_cards[0], 2);
    assert_int_equal(sc.pts_clubs[0], 1);
    assert_int_equal(sc.pts_two_clubs[0], 1);
    assert_int_equal(sc.pts_ten_diamonds[0], 1);
    assert_int_equal(sc.pts_aces[0], 0); /* no points for aces */
    assert_int_equal(sc.total[0], 5);
    assert_int_equal(sc.total[1], 0);
    assert_int_equal(sc.winner, 0);

    /* 26-26: the cards are split, 3 points in all. */
    sc = score_piles(&r, clubs | diamonds, hearts | spades);
    assert_int_equal(sc.pts_cards[0] + sc.pts_cards[1], 0);
    assert_int_equal(sc.total[0], 3);
    assert_int_equal(sc.total[1], 0);

    /* Most clubs (7 of 13) and the 2c to side 1, 10d and most cards to side 0. */
    dl_Set c1 = cards("2c 3c 4c 5c 6c 7c 8c");
    p0 = (DL_DECK & ~c1) & ~cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh As 2s 3s 4s 5s");
    dl_Set p1 = DL_DECK & ~p0;
    assert_int_equal(dl_count(p0), 52 - 7 - 18);
    sc = score_piles(&r, p0, p1);
    /* side 0: 27 cards, 10d; side 1: 25 cards, 7 clubs, 2c */
    assert_int_equal(sc.cards[0], 27);
    assert_int_equal(sc.clubs[1], 7);
    assert_int_equal(sc.total[0], 3);
    assert_int_equal(sc.total[1], 2);
    assert_int_equal(sc.winner, 0);
}

static void test_K4_points_sum_to_five_or_three(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_Rng rng;
    dl_rng_seed(&rng, 4);
    for (int i = 0; i < 2000; i++) {
        dl_Set p0 = 0;
        int want = i % 2 ? 26 : (int)dl_rng_below(&rng, 53);
        while (dl_count(p0) < want) p0 |= DL_BIT(dl_rng_below(&rng, 52));
        dl_RoundScore sc = score_piles(&r, p0, DL_DECK & ~p0);
        int sum = sc.total[0] + sc.total[1];
        assert_int_equal(sum, want == 26 ? 3 : 5);
        assert_int_equal(sc.pts_xeri[0] + sc.pts_xeri[1], 0);
        assert_int_equal(sc.winner, sc.total[0] > sc.total[1] ? 0 : 1);
    }
}

/* ---- K5 ---- */

static void test_K5_match_by_rounds(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    assert_int_equal(r.match, DL_MATCH_ROUNDS);
    for (int target = 1; target <= 5; target += 2) {
        r.target = target;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            dl_State s;
            dl_Rng rng;
            dl_rng_seed(&rng, seed * 31);
            assert_null(dl_new_match(&s, &r, seed, -1));
            int rounds = 0, won[2] = {0, 0};
            for (;;) {
                play_round(&s, &rng);
                rounds++;
                assert_true(s.last.winner == 0 || s.last.winner == 1); /* 5 or 3: odd */
                won[s.last.winner]++;
                assert_int_equal(s.rounds_won[0], won[0]);
                assert_int_equal(s.rounds_won[1], won[1]);
                if (s.phase == DL_PHASE_MATCH_OVER) break;
                assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
                assert_true(rounds < target);
                dl_next_round(&s);
            }
            /* An odd number of rounds with no drawn round decides it. */
            assert_int_equal(rounds, target);
            assert_int_equal(s.winner, won[0] > won[1] ? 0 : 1);
        }
    }
}

/* The last card of a round: seat 1 takes 7c with 7h; Kd is left for it
 * too (K3). Side 0 ends with 24 cards, 12 clubs, 2c, 10d: 3 points; side 1
 * with 28 cards: 2 points. */
static dl_State round_end(const dl_Rules *r, const char *extra)
{
    char p0[200], p1[200], text[DL_POSITION_MAX];
    const dl_Set clubs = DL_CLUB_SUIT, diamonds = DL_CLUB_SUIT << 1;
    const dl_Set hearts = DL_CLUB_SUIT << 2, spades = DL_CLUB_SUIT << 3;
    dl_set_str((clubs | diamonds) & ~cards("7c Kd"), p0, sizeof p0, false);
    dl_set_str((hearts | spades) & ~cards("7h"), p1, sizeof p1, false);
    snprintf(text, sizeof text,
             "dealer=1; turn=1; deal=6; ply=47; hands=- / 7h; table=7c Kd; "
             "piles=%s / %s; last=0; pack=-; %s",
             p0, p1, extra);
    return pos(r, text);
}

static void test_K5_match_rounds_deterministic(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_State s = round_end(&r, "round=3; won=1 1");
    play(&s, "7h x 7c");
    assert_int_equal(s.last.cards[0], 24);
    assert_int_equal(s.last.cards[1], 28);
    assert_int_equal(s.last.total[0], 3);
    assert_int_equal(s.last.total[1], 2);
    assert_int_equal(s.last.winner, 0);
    assert_int_equal(s.rounds_won[0], 2);
    assert_int_equal(s.rounds_won[1], 1);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 0);

    /* Round 2 of 3: the match goes on. */
    s = round_end(&r, "round=2; won=0 1");
    play(&s, "7h x 7c");
    assert_int_equal(s.rounds_won[0], 1);
    assert_int_equal(s.rounds_won[1], 1);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    dl_next_round(&s);
    assert_int_equal(s.round, 3);
}

static void test_K5_points_variant_deterministic(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    r.match = DL_MATCH_POINTS;
    r.target = 21;
    dl_State s = round_end(&r, "score=18 10");
    play(&s, "7h x 7c");
    assert_int_equal(s.score[0], 21);
    assert_int_equal(s.score[1], 12);
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 0);
    /* 21 all: another round. */
    s = round_end(&r, "score=18 19");
    play(&s, "7h x 7c");
    assert_int_equal(s.score[0], 21);
    assert_int_equal(s.score[1], 21);
    assert_int_equal(s.phase, DL_PHASE_ROUND_OVER);
    assert_int_equal(s.winner, -1);
    /* Both past 21: the higher total wins. */
    s = round_end(&r, "score=18 20");
    play(&s, "7h x 7c");
    assert_int_equal(s.phase, DL_PHASE_MATCH_OVER);
    assert_int_equal(s.winner, 1);
}

static void test_K5_points_variant_to_21(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    r.match = DL_MATCH_POINTS;
    r.target = 21;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        dl_State s;
        dl_Rng rng;
        dl_rng_seed(&rng, seed * 17);
        assert_null(dl_new_match(&s, &r, seed, -1));
        int total[2] = {0, 0}, rounds = 0;
        for (;;) {
            play_round(&s, &rng);
            rounds++;
            total[0] += s.last.total[0];
            total[1] += s.last.total[1];
            assert_int_equal(s.score[0], total[0]);
            assert_int_equal(s.score[1], total[1]);
            bool reached = total[0] >= 21 || total[1] >= 21;
            if (s.phase == DL_PHASE_MATCH_OVER) {
                assert_true(reached);
                assert_true(total[0] != total[1]);
                assert_int_equal(s.winner, total[0] > total[1] ? 0 : 1);
                break;
            }
            assert_false(reached && total[0] != total[1]);
            assert_true(rounds < 30);
            dl_next_round(&s);
        }
        assert_true(rounds >= 5); /* at most 5 points a round */
    }
}

/* ---- K6 ---- */

static void test_K6_non_dealer_first_and_deal_alternates(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    r.target = 4;
    for (int dealer = 0; dealer < 2; dealer++) {
        dl_State s;
        dl_Rng rng;
        dl_rng_seed(&rng, 77 + (uint64_t)dealer);
        assert_null(dl_new_match(&s, &r, 5, dealer));
        assert_int_equal(s.dealer, dealer);
        assert_int_equal(s.turn, 1 - dealer);
        for (int round = 0; round < 3; round++) {
            int d = s.dealer;
            assert_int_equal(s.turn, 1 - d);
            play_round(&s, &rng); /* each new deal: non-dealer first */
            if (s.phase == DL_PHASE_MATCH_OVER) break;
            dl_next_round(&s);
            assert_int_equal(s.dealer, 1 - d);
            assert_int_equal(s.turn, d);
        }
    }
}

/* ---- K7 ---- */

static void test_K7_three_players(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_rules_set_players(&r, 3, false);
    assert_null(dl_rules_check(&r));
    assert_int_equal(r.deals, 4);
    assert_int_equal(dl_nsides(&r), 3);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        dl_State s;
        dl_Rng rng;
        dl_rng_seed(&rng, seed + 300);
        assert_null(dl_new_match(&s, &r, seed, (int)(seed % 3)));
        for (int i = 0; i < 3; i++) assert_int_equal(dl_count(s.hand[i]), 4);
        assert_int_equal(dl_count(s.loose), 4);
        assert_int_equal(pack_left(&s), 36);
        assert_int_equal(s.turn, (s.dealer + 1) % 3);
        RoundLog log = play_round(&s, &rng); /* turns go 0, 1, 2 */
        assert_int_equal(log.deals, 4);
        assert_true(log.ok_sizes);
        if (s.last_capturer >= 0)
            assert_int_equal(dl_count(s.pile[0] | s.pile[1] | s.pile[2]), 52);
    }
}

/* ---- K8 ---- */

static void test_K8_four_players(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_rules_set_players(&r, 4, false);
    assert_null(dl_rules_check(&r));
    assert_int_equal(r.deals, 3);
    assert_int_equal(dl_nsides(&r), 4);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        dl_State s;
        dl_Rng rng;
        dl_rng_seed(&rng, seed + 400);
        assert_null(dl_new_match(&s, &r, seed, (int)(seed % 4)));
        for (int i = 0; i < 4; i++) assert_int_equal(dl_count(s.hand[i]), 4);
        assert_int_equal(dl_count(s.loose), 4);
        assert_int_equal(pack_left(&s), 32); /* 20 + 2 x 16 */
        RoundLog log = play_round(&s, &rng);
        assert_int_equal(log.deals, 3);
        assert_true(log.ok_sizes);
    }
}

static void test_K8_teams_pool_captures(void **state)
{
    (void)state;
    dl_Rules r = kontsina_rules();
    dl_rules_set_players(&r, 4, true);
    assert_null(dl_rules_check(&r));
    assert_true(r.teams);
    assert_int_equal(r.deals, 3);
    assert_int_equal(dl_nsides(&r), 2);
    /* Seat 2 captures: the cards go to the pile of seats 0 and 2. */
    dl_State s = pos(&r, "turn=2; hands=2c / 3c / 5h 9s / 4c; table=5d Kd");
    dl_Set p0 = s.pile[0], p1 = s.pile[1];
    play(&s, "5h x 5d");
    assert_true(s.pile[0] == (p0 | cards("5h 5d")));
    assert_true(s.pile[1] == p1);
    /* Seat 3 captures for seats 1 and 3. */
    play(&s, "4c lay");
    s = pos(&r, "turn=3; hands=2c / 3c / 5h / 4c 9s; table=4d Kd");
    p1 = s.pile[1];
    play(&s, "4c x 4d");
    assert_true(s.pile[1] == (p1 | cards("4c 4d")));

    /* Without teams each seat keeps its own pile. */
    dl_Rules n = kontsina_rules();
    dl_rules_set_players(&n, 4, false);
    s = pos(&n, "turn=2; hands=2c / 3c / 5h 9s / 4c; table=5d Kd");
    dl_Set p2 = s.pile[2];
    p0 = s.pile[0];
    play(&s, "5h x 5d");
    assert_true(s.pile[2] == (p2 | cards("5h 5d")));
    assert_true(s.pile[0] == p0);

    /* A full round with teams: two sides share all 52 cards. */
    for (uint64_t seed = 1; seed <= 10; seed++) {
        dl_State t;
        dl_Rng rng;
        dl_rng_seed(&rng, seed + 500);
        assert_null(dl_new_match(&t, &r, seed, -1));
        RoundLog log = play_round(&t, &rng);
        assert_int_equal(log.deals, 3);
        if (t.last_capturer >= 0) assert_int_equal(dl_count(t.pile[0] | t.pile[1]), 52);
        assert_int_equal(t.pile[2] | t.pile[3], 0);
        int sum = t.last.total[0] + t.last.total[1];
        assert_true(sum == 5 || sum == 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_K1_first_deal),
        cmocka_unit_test(test_K1_six_deals_per_round),
        cmocka_unit_test(test_K1_no_table_redeal),
        cmocka_unit_test(test_K2_exactly_one_combination),
        cmocka_unit_test(test_K2_face_cards),
        cmocka_unit_test(test_K2_no_declarations),
        cmocka_unit_test(test_K2_random_moves_are_one_combination),
        cmocka_unit_test(test_K2_no_xeri),
        cmocka_unit_test(test_K3_leftovers_to_last_capturer),
        cmocka_unit_test(test_K4_scoring),
        cmocka_unit_test(test_K4_points_sum_to_five_or_three),
        cmocka_unit_test(test_K5_match_by_rounds),
        cmocka_unit_test(test_K5_match_rounds_deterministic),
        cmocka_unit_test(test_K5_points_variant_to_21),
        cmocka_unit_test(test_K5_points_variant_deterministic),
        cmocka_unit_test(test_K6_non_dealer_first_and_deal_alternates),
        cmocka_unit_test(test_K7_three_players),
        cmocka_unit_test(test_K8_four_players),
        cmocka_unit_test(test_K8_teams_pool_captures),
    };
    return cmocka_run_group_tests_name("kontsina", tests, NULL, NULL);
}
