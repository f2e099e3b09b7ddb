/* The PIMC search (src/pilotta/search.c) and its sampler. Sampled deals
 * are checked from the outside: replayed from the deal with the engine,
 * every card seen played must be legal again (so no seat holds a card of
 * a suit it showed void in, under every house rule of legality); hand
 * sizes; shown cards, fours, runs and the belote where they belong; the
 * outcome of P36 unchanged. The real deal must always be one the sampler
 * allows. Then the search: deterministic under the seed, exact when
 * nothing is hidden, and still consistent when no deal explains the calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"
#include "pilotta/search.h"
#include "pilotta/solve.h"

static const char *const CONFIGS[] = {
    "", "PV-must-head", "PV-partner-exempt", "PV-partner-exempt PV-must-head", "PV-decl-overlap PV-declarer-leads",
    "PV-suit-after-auction PV-contra-after-auction",
};
#define NCONFIGS ((int)(sizeof CONFIGS / sizeof *CONFIGS))

/* Random play to `cards` cards, announcing and showing whenever offered
 * (so that views hold many announcements), the belote flag at random. */
static void advance(pl_State *s, int cards, dl_Rng *rng)
{
    pl_ActionList l;
    while (s->nplayed < cards && s->phase == PL_PHASE_PLAY) {
        pl_legal(s, &l);
        int pick = (int)dl_rng_below(rng, (uint32_t)l.n);
        if (l.a[0].kind != PL_PLAY && dl_rng_below(rng, 4)) pick = 0;
        pl_apply_legal(s, &l.a[pick]);
    }
}

/* The sampled deal, played again from the start with the engine: each
 * card seen must be legal for its seat. */
static void replay_legal(const pl_State *d, const char *where)
{
    pl_State t = *d;
    for (int x = 0; x < 4; x++) t.hand[x] = pl_dealt(d, x);
    t.nplayed = 0;
    for (int i = 0; i < d->nplayed; i++) {
        t.turn = (uint8_t)pl_player_of(d, i);
        const int c = d->played[i];
        if (!(pl_legal_cards(&t) & PL_BIT(c))) {
            char card[8];
            pl_card_str(c, card, false);
            fail_msg("%s: seat %d could not have played %s (card %d) in the sampled deal", where, t.turn, card, i);
        }
        /* P23 by its words: a seat that did not follow has none of the led suit */
        if (i & 3) {
            const int led = pl_suit(d->played[i & ~3]);
            if (pl_suit(c) != led && (d->hand[t.turn] & pl_suit_mask(led)))
                fail_msg("%s: seat %d shown void in suit %d holds one", where, t.turn, led);
        }
        t.hand[t.turn] &= ~PL_BIT(c);
        t.played[t.nplayed++] = (uint8_t)c;
    }
}

static void check_sample(const pl_State *real, const pl_State *d, int seat, const char *where)
{
    pl_Set all = 0;
    for (int x = 0; x < 4; x++) {
        if (pl_count(d->hand[x]) != pl_count(real->hand[x])) fail_msg("%s: seat %d holds %d cards, not %d", where, x,
                                                                      pl_count(d->hand[x]), pl_count(real->hand[x]));
        if (all & d->hand[x]) fail_msg("%s: a card in two hands", where);
        all |= d->hand[x];
    }
    pl_Set real_all = real->hand[0] | real->hand[1] | real->hand[2] | real->hand[3];
    if (all != real_all) fail_msg("%s: the sampled hands are not the unplayed cards", where);
    assert_int_equal(d->hand[seat], real->hand[seat]);
    replay_legal(d, where);
    for (int i = 0; i < d->ndecl; i++) {
        const pl_Decl *a = &d->decl[i], *b = &real->decl[i];
        assert_int_equal(a->seat, b->seat);
        assert_int_equal(a->kind, b->kind);
        assert_int_equal(a->value, b->value);
        if ((a->cards & ~pl_dealt(d, a->seat)) != 0) fail_msg("%s: seat %d announced cards it was not dealt", where, a->seat);
        if (b->shown && a->cards != b->cards) fail_msg("%s: shown cards changed", where);
        if (a->kind == PL_FOUR && a->cards != b->cards) fail_msg("%s: a four changed rank", where);
        if (a->kind == PL_RUN) {
            pl_Decl k;
            if (!pl_decl_classify(a->cards, &k) || k.kind != PL_RUN || pl_count(a->cards) != pl_count(b->cards))
                fail_msg("%s: seat %d's run is not a run of %d", where, a->seat, pl_count(b->cards));
            /* P34: the whole run, so the cards beside it were not the seat's (a four's may be) */
            pl_Set fours = 0;
            for (int j = 0; j < d->ndecl; j++)
                if (d->decl[j].seat == a->seat && d->decl[j].kind == PL_FOUR) fours |= d->decl[j].cards;
            pl_Set beside = ((a->cards << 1) | (a->cards >> 1)) & pl_suit_mask(pl_suit(pl_first(a->cards))) & ~a->cards;
            if (!d->rules.decl_overlap && (beside & pl_dealt(d, a->seat) & ~fours))
                fail_msg("%s: seat %d's run of %d is part of a longer one", where, a->seat, pl_count(a->cards));
        }
    }
    if (real->standing >= 0 && pl_standing(d) != real->standing) fail_msg("%s: P36's outcome changed", where);
    if (real->belote >= 0) {
        pl_Set kq = PL_BIT(pl_card(PL_RK, real->bid_suit)) | PL_BIT(pl_card(PL_RQ, real->bid_suit));
        if ((pl_dealt(d, real->belote) & kq) != kq) fail_msg("%s: the belote's holder lost King or Queen", where);
    }
}

static void test_sampler_respects_the_view(void **state)
{
    (void)state;
    const long n = pl_env_count("PL_SAMPLE_N", 300);
    dl_Rng rng;
    dl_rng_seed(&rng, 3);
    long positions = 0, samples = 0, runs = 0, voids = 0;
    for (int ci = 0; ci < NCONFIGS; ci++) {
        pl_Rules r = plrules(CONFIGS[ci]);
        for (long i = 0; i < n; i++) {
            pl_State s;
            if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
            advance(&s, (int)dl_rng_below(&rng, 31), &rng);
            if (s.phase != PL_PHASE_PLAY) continue;
            const int seat = (int)dl_rng_below(&rng, 4);
            pl_View v;
            pl_view(&s, seat, &v);
            pl_Sampler *sm = pl_sampler_new(&v);
            assert_non_null(sm);
            /* the real deal is one the sampler allows */
            for (int x = 0; x < 4; x++) {
                if (s.hand[x] & pl_sampler_forbidden(sm, x)) fail_msg("[%s] seat %d holds a card read as impossible", CONFIGS[ci], x);
                if (pl_sampler_fixed(sm, x) & ~s.hand[x]) fail_msg("[%s] seat %d lacks a card read as held", CONFIGS[ci], x);
                voids += pl_count(pl_sampler_forbidden(sm, x));
            }
            for (int k = 0; k < v.ndecl; k++) runs += v.decl[k].kind == PL_RUN && !v.decl[k].cards;
            char where[64];
            snprintf(where, sizeof where, "[%s] position %ld", CONFIGS[ci], i);
            for (int k = 0; k < 8; k++) {
                pl_State d;
                if (!pl_sample(sm, &rng, k & 1, &d)) fail_msg("%s: no consistent deal", where);
                check_sample(&s, &d, seat, where);
                samples++;
            }
            pl_sampler_free(sm);
            positions++;
        }
    }
    printf("# %ld positions, %ld sampled deals, %ld hidden runs, %ld cards read as impossible\n", positions, samples,
           runs, voids);
    assert_true(runs > 10);
    assert_true(voids > 100);
}

/* A uniform sampler: with nothing known but the sizes, each unseen card
 * lands in each other hand in proportion to its size. */
static void test_sampler_uniform(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    dl_Rng rng;
    dl_rng_seed(&rng, 8);
    while (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) {}
    pl_View v;
    pl_view(&s, s.turn, &v);
    pl_Sampler *sm = pl_sampler_new(&v);
    const int c = pl_first(v.unseen);
    int where[4] = {0};
    for (int i = 0; i < 6000; i++) {
        pl_State d;
        pl_sample(sm, &rng, false, &d);
        for (int x = 0; x < 4; x++) where[x] += (d.hand[x] >> c) & 1;
    }
    pl_sampler_free(sm);
    for (int x = 0; x < 4; x++)
        if (x != s.turn && (where[x] < 1800 || where[x] > 2200)) fail_msg("seat %d got the card %d times of 6000", x, where[x]);
}

/* Would the deal (the others' hands as given) have allowed every card
 * seen played? The engine replays it. */
static bool consistent(const pl_State *d)
{
    pl_State t = *d;
    for (int x = 0; x < 4; x++) t.hand[x] = pl_dealt(d, x);
    t.nplayed = 0;
    for (int i = 0; i < d->nplayed; i++) {
        t.turn = (uint8_t)pl_player_of(d, i);
        if (!(pl_legal_cards(&t) & PL_BIT(d->played[i]))) return false;
        t.hand[t.turn] &= ~PL_BIT(d->played[i]);
        t.played[t.nplayed++] = d->played[i];
    }
    return true;
}

/* Every deal of the unseen cards among the others, by brute force. */
static void enumerate(pl_State *d, const int *others, int k, pl_Set left, const int *size, double freq[4][32],
                      long *n)
{
    if (k == 3) {
        if (!consistent(d)) return;
        (*n)++;
        for (int x = 0; x < 3; x++)
            for (pl_Set h = d->hand[others[x]]; h; h &= h - 1) freq[others[x]][pl_first(h)]++;
        return;
    }
    /* every subset of left of the seat's size */
    const int x = others[k];
    int cards[32], m = 0;
    for (pl_Set l = left; l; l &= l - 1) cards[m++] = pl_first(l);
    for (uint32_t mask = 0; mask < (1u << m); mask++) {
        if (pl_count(mask) != size[x]) continue;
        pl_Set h = 0;
        for (int i = 0; i < m; i++)
            if (mask >> i & 1) h |= PL_BIT(cards[i]);
        d->hand[x] = h;
        enumerate(d, others, k + 1, left & ~h, size, freq, n);
    }
}

/* Uniform among the consistent deals: with three tricks left and no
 * announcements, how often the sampler puts each card in each hand
 * matches the share of the consistent deals (found by brute force) that
 * do. */
static void test_sampler_uniform_among_consistent_deals(void **state)
{
    (void)state;
    dl_Rng rng;
    dl_rng_seed(&rng, 12);
    int tested = 0, constrained = 0;
    for (int i = 0; i < 200 && tested < 12; i++) {
        pl_Rules r = plrules(CONFIGS[i % 4]);
        pl_State s;
        if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
        /* cards only: no announcement to place, no belote said */
        while (s.nplayed < 20 && s.phase == PL_PHASE_PLAY) {
            pl_Set c = pl_legal_cards(&s);
            int k = (int)dl_rng_below(&rng, (uint32_t)pl_count(c));
            while (k--) c &= c - 1;
            pl_play_apply(&s, &(pl_Action){0, PL_PLAY, 0, -1, (uint8_t)pl_first(c), 0});
        }
        if (s.phase != PL_PHASE_PLAY) continue;
        const int seat = s.turn;
        pl_View v;
        pl_view(&s, seat, &v);
        int others[3], size[4], k = 0;
        for (int x = 0; x < 4; x++) {
            size[x] = pl_count(s.hand[x]);
            if (x != seat) others[k++] = x;
        }
        double exact[4][32] = {{0}}, got[4][32] = {{0}};
        long n = 0;
        pl_State d = s;
        enumerate(&d, others, 0, v.unseen, size, exact, &n);
        assert_true(n > 0);
        pl_Sampler *sm = pl_sampler_new(&v);
        assert_true(pl_sampler_count(sm) == (double)n);
        const int draws = 4000;
        for (int j = 0; j < draws; j++) {
            pl_sample(sm, &rng, false, &d);
            for (int x = 0; x < 3; x++)
                for (pl_Set h = d.hand[others[x]]; h; h &= h - 1) got[others[x]][pl_first(h)]++;
        }
        pl_sampler_free(sm);
        bool any = false;
        for (int x = 0; x < 3; x++)
            for (pl_Set u = v.unseen; u; u &= u - 1) {
                const int c = pl_first(u);
                double p = exact[others[x]][c] / n, q = got[others[x]][c] / draws;
                any |= p > 0.01 && p < 0.99 && (p < 0.25 || p > 0.42);
                if (q < p - 0.04 || q > p + 0.04)
                    fail_msg("seat %d holds card %d in %.3f of the consistent deals, %.3f of the samples", others[x], c,
                             p, q);
            }
        constrained += any;
        tested++;
    }
    printf("# %d positions, %d where the plays make the shares uneven\n", tested, constrained);
    assert_true(tested >= 10);
    assert_true(constrained >= 3);
}

/* The calls read as the shipped AIs make them (infer.c): seat 0's 80h
 * from a hand the estimate puts at about 100 in hearts, its best suit,
 * and passes from hands that cover no 90, explain the auction; the same
 * calls with seat 0's and seat 1's hands swapped do not. */
static void test_auction_weight(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    pl_new_match(&s, &r, 1, 3);
    s.hand[0] = plset("Jh 9h 7h Qc 7c 8d 7d 8s");  /* hearts 101, the rest under 51 */
    s.hand[1] = plset("Ah 10h 10c Kc Qd 7s 10s Qs"); /* best: spades 88 */
    s.hand[2] = plset("Jc 9c Jd 9d Js 9s Ac Ad");
    s.hand[3] = plset("8h Qh Kh 8c Ks 10d Kd As"); /* best: hearts 103 (the belote) */
    plplays(&s, "80h,pass,pass,pass");
    const double fits = pl_auction_weight(&s, 2);
    assert_true(fits > 0.15);
    pl_State t = s;
    pl_Set x = t.hand[0];
    t.hand[0] = t.hand[1], t.hand[1] = x;
    const double odd = pl_auction_weight(&t, 2); /* 80h from a hand worth 71 in hearts, 88 in spades */
    assert_true(odd < 0.01);
    assert_true(fits > 30 * odd);
    assert_true(pl_auction_weight(&t, 0) > 0.3); /* a seat does not read its own calls */
    /* a person's call the model would not make lowers a deal, never rules it out */
    assert_true(odd > 0);
}

/* A pass that was the only call open says nothing of the hand: after a
 * contra (P16, P18) the doubling side may only pass, and under
 * PV-pass-final a seat that passed may not bid again. Such passes leave
 * the weight as it was, however strong the hand; a pass that could have
 * been a bid still counts. */
static void test_auction_weight_skips_forced_passes(void **state)
{
    (void)state;
    static const char *const RULES[] = {"", "PV-pass-final", "PV-contra-after-auction"};
    /* seat 0 reads; the forced passes: seat 3's after the contra; seats 1
     * and 2 passing again over 90s; both defenders in the contra window */
    static const char *const CALLS[] = {"80h,contra,pass,pass,pass", "80h,pass,pass,90s,pass,pass,pass",
                                        "80h,pass,pass,pass,pass,pass"};
    static const int CHOSEN[] = {3, 5, 4}; /* the calls before the forced passes */
    for (int k = 0; k < 3; k++) {
        pl_Rules r = plrules(RULES[k]);
        pl_State s;
        pl_new_match(&s, &r, 1, 3);
        s.hand[0] = plset("Jh 9h 7h Qc 7c 8d 7d 8s");
        s.hand[1] = plset("Ah 10h 10c Kc Qd 7s Jd 9d");
        s.hand[2] = plset("Jc 9c Ac 8c Ad 10d Kd 8h");
        s.hand[3] = plset("Js 9s As 10s Ks Qs Qh Kh"); /* spades worth far more than any bid made */
        plplays(&s, CALLS[k]);
        assert_int_equal(s.phase, PL_PHASE_PLAY);
        pl_State before = s;
        before.ncalls = (uint8_t)CHOSEN[k];
        const double all = pl_auction_weight(&s, 0), chosen = pl_auction_weight(&before, 0);
        printf("# %s %s: %g, %g without the passes forced\n", RULES[k][0] ? RULES[k] : "P", CALLS[k], all, chosen);
        assert_true(fabs(all - chosen) <= 1e-12 * chosen);
    }
    /* seat 3's first pass, over 80h, could have been a bid: it counts */
    pl_Rules r = plrules("");
    pl_State s;
    pl_new_match(&s, &r, 1, 3);
    s.hand[0] = plset("Jh 9h 7h Qc 7c 8d 7d 8s");
    s.hand[1] = plset("Ah 10h 10c Kc Qd 7s Jd 9d");
    s.hand[2] = plset("Jc 9c Ac 8c Ad 10d Kd 8h");
    s.hand[3] = plset("Js 9s As 10s Ks Qs Qh Kh");
    plplays(&s, "80h,pass,pass,pass");
    pl_State before = s;
    before.ncalls = 3;
    assert_true(pl_auction_weight(&s, 0) < 0.5 * pl_auction_weight(&before, 0));
}

static void test_search_deterministic_and_exact(void **state)
{
    (void)state;
    dl_Rng rng;
    dl_rng_seed(&rng, 21);
    pl_Rules r = plrules("");
    int exact = 0, checked = 0;
    pl_Solver *sv = pl_solver_new(0);
    for (int i = 0; i < 60; i++) {
        pl_State s;
        if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
        advance(&s, i % 10 == 0 ? 31 : 8 + (int)dl_rng_below(&rng, 24), &rng);
        if (s.phase != PL_PHASE_PLAY) continue;
        pl_View v;
        pl_view(&s, s.turn, &v);
        pl_SearchParams p;
        pl_search_defaults(&p);
        p.deals = 6;
        p.seed = 5 + (uint64_t)i;
        p.infer = i & 1;
        pl_SearchResult a, b;
        assert_int_equal(pl_search(&v, &p, &a), 0);
        assert_int_equal(pl_search(&v, &p, &b), 0);
        if (memcmp(&a, &b, sizeof a) != 0) fail_msg("two searches with one seed differ");
        assert_true(a.deals == (a.exact ? 1 : 6));
        assert_int_equal(a.nmoves, pl_count(pl_legal_cards(&s)));
        assert_true(pl_legal_cards(&s) & PL_BIT(a.best));
        if (a.exact) {
            /* nothing hidden: the solver's value of each card */
            for (int k = 0; k < a.nmoves; k++) {
                int val = pl_solve_after(sv, &s, a.moves[k].card);
                assert_true(a.moves[k].points == (val < 0 ? 0 : val));
            }
            exact++;
        }
        for (int k = 1; k < a.nmoves; k++) assert_true(a.moves[k - 1].value >= a.moves[k].value);
        checked++;
    }
    pl_solver_free(sv);
    printf("# %d searches, %d exact\n", checked, exact);
    assert_true(checked > 20);
    assert_true(exact > 0);
}

/* A search the clock stops before its one deal is solved knows nothing:
 * it must not call its answer exact, even where nothing is hidden. */
static void test_no_deal_solved_is_not_exact(void **state)
{
    (void)state;
    dl_Rng rng;
    dl_rng_seed(&rng, 8);
    pl_Rules r = plrules("");
    int tried = 0;
    for (int i = 0; i < 40 && tried < 5; i++) {
        pl_State s;
        if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
        advance(&s, 31, &rng);
        if (s.phase != PL_PHASE_PLAY) continue;
        pl_View v;
        pl_view(&s, s.turn, &v);
        pl_SearchParams p;
        pl_search_defaults(&p);
        pl_SearchResult out;
        assert_int_equal(pl_search(&v, &p, &out), 0);
        if (!out.exact) continue; /* (an unshown run still hides its place) */
        assert_int_equal(out.deals, 1);
        p.seconds = 1e-12;
        assert_int_equal(pl_search(&v, &p, &out), 0);
        if (out.deals > 0) continue;
        assert_false(out.exact);
        tried++;
    }
    assert_true(tried > 0);
}

/* A capot bid in hearts by a seat the observer (who holds every heart)
 * knows has none: no deal explains the call (each is at the model's
 * floor), and the search still draws deals consistent with the view
 * rather than fail. */
static void test_infer_survives_calls_no_deal_explains(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    pl_new_match(&s, &r, 1, 3);
    s.hand[0] = pl_suit_mask(PL_CLUBS);
    s.hand[1] = pl_suit_mask(PL_HEARTS);
    s.hand[2] = pl_suit_mask(PL_DIAMONDS);
    s.hand[3] = pl_suit_mask(PL_SPADES);
    plplays(&s, "capot h,pass,pass,pass,7c");
    pl_View v;
    pl_view(&s, 1, &v);
    pl_Sampler *sm = pl_sampler_new(&v);
    dl_Rng rng;
    dl_rng_seed(&rng, 1);
    for (int i = 0; i < 20; i++) {
        pl_State d;
        assert_true(pl_sample(sm, &rng, true, &d));
        assert_true(pl_auction_weight(&d, 1) < 0.06);
        check_sample(&s, &d, 1, "capot without hearts");
    }
    pl_sampler_free(sm);
    pl_view(&s, 1, &v);
    pl_SearchParams p;
    pl_search_defaults(&p);
    p.deals = 5, p.infer = true;
    pl_SearchResult out;
    assert_int_equal(pl_search(&v, &p, &out), 0);
    assert_int_equal(out.deals, 5);
}

/* A view no game gives (two seats announced four Jacks, and a run of 7
 * that the seat's cards leave no room for): the sampler says so and still
 * deals the unseen cards with the right sizes; the search runs. */
static void test_sampler_survives_an_impossible_view(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    dl_Rng rng;
    dl_rng_seed(&rng, 2);
    pl_View v;
    /* a seat with a card of rank 8..K in every suit: no room for a run of 7 */
    for (bool room = true; room;) {
        while (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) {}
        pl_view(&s, s.turn, &v);
        room = false;
        for (int su = 0; su < 4; su++) room |= !(v.hand & pl_suit_mask(su) & 0x7E7E7E7Eu);
    }
    const int seat = s.turn;
    v.decl[0] = (pl_PublicDecl){(seat + 1) & 3, PL_FOUR, 200, 0, PL_RJ, 0, 0, 0};
    v.decl[1] = (pl_PublicDecl){(seat + 2) & 3, PL_FOUR, 200, 0, PL_RJ, 0, 0, 0};
    v.decl[2] = (pl_PublicDecl){(seat + 3) & 3, PL_RUN, 100, 7, 0, 0, 0, 0};
    v.ndecl = 3;
    pl_Sampler *sm = pl_sampler_new(&v);
    for (int i = 0; i < 5; i++) {
        pl_State d;
        assert_false(pl_sample(sm, &rng, i & 1, &d));
        pl_Set all = 0;
        for (int x = 0; x < 4; x++) {
            if (x != seat) assert_int_equal(pl_count(d.hand[x]), v.hand_count[x]);
            assert_int_equal(all & d.hand[x], 0);
            all |= d.hand[x];
        }
    }
    pl_sampler_free(sm);
    pl_SearchParams p;
    pl_search_defaults(&p);
    p.deals = 2;
    pl_SearchResult out;
    assert_int_equal(pl_search(&v, &p, &out), 0);
    assert_int_equal(out.deals, 2);
}

/* Not the seat's turn, or not the play: -1. */
/* The world behind ctx.simulate (pl_sealed_state) for the seat to act:
 * a deal the view allows (as the sampler's), its view the real one, and
 * byte for byte the same world for another deal with the same view;
 * auction positions included. */
static void test_sealed_state_is_the_views(void **state)
{
    (void)state;
    dl_Rng rng;
    dl_rng_seed(&rng, 24);
    int n = 0, differ = 0;
    for (int ci = 0; ci < NCONFIGS; ci++) {
        pl_Rules r = plrules(CONFIGS[ci]);
        for (int i = 0; i < 40; i++) {
            pl_State s;
            if (i % 4 == 0) {
                /* the auction: a few calls of a new match */
                pl_new_match(&s, &r, dl_rng_next(&rng), i % 4);
                pl_ActionList l;
                for (int k = (int)dl_rng_below(&rng, 4); k > 0 && s.phase == PL_PHASE_AUCTION; k--) {
                    pl_legal(&s, &l);
                    pl_apply_legal(&s, &l.a[dl_rng_below(&rng, (uint32_t)l.n)]);
                }
            } else {
                if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
                advance(&s, (int)dl_rng_below(&rng, 31), &rng);
            }
            if (s.phase >= PL_PHASE_ROUND_OVER) continue;
            const int seat = s.turn;
            char where[64];
            snprintf(where, sizeof where, "[%s] sealed %d", CONFIGS[ci], i);
            pl_State w;
            assert_true(pl_sealed_state(&s, seat, &w));
            if (s.phase == PL_PHASE_PLAY) check_sample(&s, &w, seat, where);
            pl_View a, b;
            pl_view(&s, seat, &a);
            pl_view(&w, seat, &b);
            assert_memory_equal(&a, &b, sizeof a);
            assert_int_equal(w.passes, s.passes);
            assert_int_equal(w.passed, s.passed);
            /* another deal the view allows, as the real one could have been */
            pl_Sampler *sm = pl_sampler_new(&a);
            assert_non_null(sm);
            pl_State t;
            pl_sample(sm, &rng, false, &t);
            pl_sampler_free(sm);
            t.passes = s.passes, t.passed = s.passed, t.rng = s.rng;
            pl_view(&t, seat, &b);
            if (memcmp(&a, &b, sizeof a) != 0) continue;
            pl_State wt;
            assert_true(pl_sealed_state(&t, seat, &wt));
            assert_memory_equal(&w, &wt, sizeof w);
            n++;
            differ += memcmp(w.hand, s.hand, sizeof w.hand) != 0;
        }
    }
    printf("# %d pairs, %d worlds not the real deal\n", n, differ);
    assert_true(n >= 100);
    assert_true(differ * 4 >= n * 3);
}

static void test_search_refuses_other_moments(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    pl_new_match(&s, &r, 4, 3);
    pl_View v;
    pl_SearchParams p;
    pl_SearchResult out;
    pl_search_defaults(&p);
    pl_view(&s, 0, &v);
    assert_int_equal(pl_search(&v, &p, &out), -1); /* the auction */
    plplays(&s, "80h,pass,pass,pass");
    pl_view(&s, 1, &v);
    assert_int_equal(pl_search(&v, &p, &out), -1); /* seat 0 is to play */
    pl_view(&s, 0, &v);
    assert_int_equal(pl_search(&v, &p, &out), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sampler_respects_the_view),
        cmocka_unit_test(test_sampler_uniform),
        cmocka_unit_test(test_sampler_uniform_among_consistent_deals),
        cmocka_unit_test(test_auction_weight),
        cmocka_unit_test(test_auction_weight_skips_forced_passes),
        cmocka_unit_test(test_search_deterministic_and_exact),
        cmocka_unit_test(test_infer_survives_calls_no_deal_explains),
        cmocka_unit_test(test_no_deal_solved_is_not_exact),
        cmocka_unit_test(test_sampler_survives_an_impossible_view),
        cmocka_unit_test(test_search_refuses_other_moments),
        cmocka_unit_test(test_sealed_state_is_the_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
