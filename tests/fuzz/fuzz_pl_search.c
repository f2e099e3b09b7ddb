/* Fuzz target: the search and the solver from any position a stranger's
 * saved game could hold (pl_position_parse, then pl_search and pl_solve).
 *
 * Input: two bytes choosing the rules (pl_fuzz_rules), one byte for the
 * seed and whether to infer, then the text. For an accepted position in
 * the play phase: every deal the sampler draws from the view of the seat
 * to play holds the invariants and agrees with that view (the seat's own
 * hand, the cards played, the hand sizes); the search answers a legal
 * card for the seat to play and ranks only legal cards; the solver, under
 * a short deadline, ranks only legal cards too. The clock caps each call,
 * so a slow input is cut short rather than timed out. */
#include "fuzz_pl.h"

#include "pilotta/infer.h"
#include "pilotta/play.h"
#include "pilotta/search.h"
#include "pilotta/solve.h"
#include "pilotta/view.h"

static void check_sample(const pl_State *s, const pl_View *v, uint64_t seed)
{
    pl_Sampler *sm = pl_sampler_new(v);
    FUZZ_CHECK(sm, "the sampler ran out of memory");
    dl_Rng rng;
    dl_rng_seed(&rng, seed);
    for (int i = 0; i < 3; i++) {
        pl_State d;
        const bool fits = pl_sample(sm, &rng, i == 2, &d);
        const char *broken = pl_check_state(&d);
        FUZZ_CHECK(!broken, "a sampled deal breaks an invariant: %s", broken);
        /* infer's weight of the deal, read from the calls: a probability */
        const double w = pl_auction_weight(&d, v->seat);
        FUZZ_CHECK(w > 0 && w <= 1, "the auction weight %g is not in (0, 1]", w);
        /* a consistent deal shows the seat the same view: the search,
         * given only the view, cannot tell the hidden cards apart */
        pl_View dv;
        pl_view(&d, v->seat, &dv);
        FUZZ_CHECK(!fits || memcmp(&dv, v, sizeof dv) == 0, "a sampled deal gives the seat another view");
        FUZZ_CHECK(d.hand[v->seat] == s->hand[v->seat], "a sampled deal changed the seat's own hand");
        FUZZ_CHECK(d.nplayed == s->nplayed && memcmp(d.played, s->played, s->nplayed) == 0,
                   "a sampled deal changed the cards played");
        for (int p = 0; p < 4; p++)
            FUZZ_CHECK(pl_count(d.hand[p]) == pl_count(s->hand[p]), "a sampled deal changed seat %d's hand size", p);
    }
    pl_sampler_free(sm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[PL_FUZZ_MAX_TEXT + 1];
    if (size < PL_FUZZ_RULES + 1) return 0;
    pl_Rules r = pl_fuzz_rules(data);
    const uint8_t opt = data[PL_FUZZ_RULES];
    pl_fuzz_text(data + PL_FUZZ_RULES + 1, size - PL_FUZZ_RULES - 1, text);
    pl_State s;
    char err[256];
    if (pl_position_parse(&s, &r, text, 7, err, sizeof err)) return 0;
    if (s.phase != PL_PHASE_PLAY || s.bid_suit < 0) return 0;
    const pl_Set legal = pl_legal_cards(&s);
    pl_View v;
    pl_view(&s, s.turn, &v);
    check_sample(&s, &v, opt);

    pl_SearchParams p;
    pl_search_defaults(&p);
    p.deals = 2;
    p.seconds = 0.05;
    p.seed = opt >> 1;
    p.infer = opt & 1;
    p.table_bits = 10;
    pl_SearchResult sr;
    const int rc = pl_search(&v, &p, &sr);
    FUZZ_CHECK(rc != -2, "the search ran out of memory");
    if (rc == 0 && legal) {
        FUZZ_CHECK(sr.best >= 0 && sr.best < PL_NCARDS && (legal & PL_BIT(sr.best)), "the search's best is not legal");
        for (int i = 0; i < sr.nmoves; i++)
            FUZZ_CHECK(legal & PL_BIT(sr.moves[i].card), "the search ranks an illegal card");
    }

    pl_Solver *sv = pl_solver_new(10);
    FUZZ_CHECK(sv, "the solver ran out of memory");
    pl_solver_deadline(sv, 0.05);
    pl_SolveResult so;
    pl_solve(sv, &s, &so);
    for (int i = 0; i < so.nmoves; i++)
        FUZZ_CHECK(legal & PL_BIT(so.moves[i].card), "the solver ranks an illegal card");
    pl_solver_free(sv);
    return 0;
}
