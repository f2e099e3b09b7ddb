/* The double-dummy solver (src/pilotta/solve.c) against a plain minimax
 * written here: no pruning, no table, every legal card, played through the
 * engine's own pl_play_apply to the end of the round and valued from the
 * engine's score (s->last). Random endings with two and three tricks left
 * (PL_SOLVE_N positions a configuration, default 1500) under the house
 * rules that change legality; sweeps; and the game-point conversion
 * against pl_score on rounds played out along the solver's line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"
#include "pilotta/solve.h"

static const char *const CONFIGS[] = {
    "", "PV-must-head", "PV-partner-exempt", "PV-partner-exempt PV-must-head", "PV-declarer-leads PV-high-bids",
};
#define NCONFIGS ((int)(sizeof CONFIGS / sizeof *CONFIGS))

/* A card play with the belote said (P39), after a show when one is due
 * (P38): the line the conversion assumes. */
static void play_card(pl_State *s, int card)
{
    if (pl_may_show(s)) pl_play_apply(s, &(pl_Action){0, PL_SHOW, 0, -1, 0, 0});
    pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)card, (uint8_t)pl_belote_pending(s, card)};
    pl_play_apply(s, &a);
}

/* The value of a finished round for team t, from the engine's score. */
static int round_value(const pl_State *s, int t)
{
    if (s->last.tricks[t] == 0) return PL_SOLVE_SWEPT;
    return s->last.trick_points[t];
}

static long minimax_nodes;

/* Plain minimax for team t: t's seats maximise, the others minimise. */
static int minimax(const pl_State *s, int t)
{
    if (s->phase != PL_PHASE_PLAY) return round_value(s, t);
    const bool max = pl_team(s->turn) == t;
    int best = max ? -1000 : 1000;
    for (pl_Set m = pl_legal_cards(s); m; m &= m - 1) {
        pl_State c = *s;
        play_card(&c, pl_first(m));
        minimax_nodes++;
        int v = minimax(&c, t);
        if (max ? v > best : v < best) best = v;
    }
    return best;
}

/* Random actions until `cards` cards are played (announcements, shows
 * and belote flags at random as the engine offers them). */
static void advance(pl_State *s, int cards, dl_Rng *rng)
{
    pl_ActionList l;
    while (s->nplayed < cards && s->phase == PL_PHASE_PLAY) {
        pl_legal(s, &l);
        pl_apply_legal(s, &l.a[dl_rng_below(rng, (uint32_t)l.n)]);
    }
}

static void crosscheck(int tricks_left)
{
    const long n = pl_env_count("PL_SOLVE_N", 1500);
    pl_Solver *sv = pl_solver_new(12);
    assert_non_null(sv);
    dl_Rng rng;
    dl_rng_seed(&rng, 17 + (uint64_t)tricks_left);
    long checked = 0, moves = 0, sweeps = 0;
    for (int ci = 0; ci < NCONFIGS; ci++) {
        pl_Rules r = plrules(CONFIGS[ci]);
        for (long i = 0; i < n; i++) {
            pl_State s;
            if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
            advance(&s, 32 - 4 * tricks_left + (int)dl_rng_below(&rng, 4), &rng);
            if (s.phase != PL_PHASE_PLAY) continue;
            pl_SolveResult res;
            int v = pl_solve(sv, &s, &res);
            const int team = pl_team(s.turn);
            int want = minimax(&s, team);
            if (v != want) {
                char pos[PL_POSITION_MAX];
                pl_position_str(&s, pos, sizeof pos, 0);
                fail_msg("[%s] solver %d, minimax %d for team %d at\n  %s", CONFIGS[ci], v, want, team, pos);
            }
            for (int k = 0; k < res.nmoves; k++) {
                pl_State c = s;
                play_card(&c, res.moves[k].card);
                int mv = minimax(&c, team);
                if (mv != res.moves[k].value) {
                    char pos[PL_POSITION_MAX], card[8];
                    pl_position_str(&s, pos, sizeof pos, 0);
                    pl_card_str(res.moves[k].card, card, false);
                    fail_msg("[%s] after %s: solver %d, minimax %d at\n  %s", CONFIGS[ci], card,
                             res.moves[k].value, mv, pos);
                }
                moves++;
            }
            if (res.nmoves != pl_count(pl_legal_cards(&s))) fail_msg("not every legal card valued");
            sweeps += v == PL_SOLVE_SWEEP || v == PL_SOLVE_SWEPT;
            checked++;
        }
    }
    pl_solver_free(sv);
    printf("# %d tricks left: %ld positions (%ld swept), %ld root cards, %ld minimax nodes\n", tricks_left, checked,
           sweeps, moves, minimax_nodes);
    assert_true(checked > n);
}

static void test_solver_matches_minimax_two_tricks(void **state)
{
    (void)state;
    crosscheck(2);
}

static void test_solver_matches_minimax_three_tricks(void **state)
{
    (void)state;
    crosscheck(3);
}

/* P32: seat 0 holds every heart, bids 80 hearts and leads: team A sweeps
 * (250, made: 33 game points), team B is swept (-1, below any trick). */
static void test_P32_sweep(void **state)
{
    (void)state;
    pl_Rules r = plrules("");
    pl_State s;
    pl_new_match(&s, &r, 1, 3);
    s.hand[0] = pl_suit_mask(PL_HEARTS);
    s.hand[1] = pl_suit_mask(PL_CLUBS);
    s.hand[2] = pl_suit_mask(PL_DIAMONDS);
    s.hand[3] = pl_suit_mask(PL_SPADES);
    plplays(&s, "80h,pass,pass,pass");
    assert_int_equal(s.phase, PL_PHASE_PLAY);
    pl_Solver *sv = pl_solver_new(0);
    pl_SolveResult res;
    assert_int_equal(pl_solve(sv, &s, &res), PL_SOLVE_SWEEP);
    assert_int_equal(res.team, 0);
    assert_int_equal(pl_solve_other(res.value), PL_SOLVE_SWEPT);
    pl_RoundScore o;
    pl_solve_score(&s, 0, res.value, &o);
    assert_int_equal(o.made, 1);
    assert_int_equal(o.game[0], 35); /* 250 + 80 + belote 20 */
    assert_int_equal(o.game[1], 0);
    /* after seat 0's lead, seat 1 to play: team B's value is the sweep's other side */
    plplay(&s, "Jh");
    assert_int_equal(pl_solve(sv, &s, NULL), PL_SOLVE_SWEPT);
    pl_solver_free(sv);
}

/* One table serves many positions: the same hands with another leader,
 * or after other tricks were won, are other positions. Each of the four
 * leaders at a trick start (four to six tricks left) is solved on a
 * solver that has seen the others, and on a fresh one. */
static void test_table_keys_leader_and_tricks(void **state)
{
    (void)state;
    const long n = pl_env_count("PL_SOLVE_N", 1500) / 10;
    pl_Solver *shared = pl_solver_new(14);
    dl_Rng rng;
    dl_rng_seed(&rng, 5);
    long checked = 0;
    for (long i = 0; i < n; i++) {
        pl_Rules r = plrules(CONFIGS[i % NCONFIGS]);
        pl_State s;
        if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
        advance(&s, 4 * (2 + (int)dl_rng_below(&rng, 3)), &rng);
        if (s.phase != PL_PHASE_PLAY) continue;
        for (int lead = 0; lead < 4; lead++) {
            pl_State t = s;
            t.leader[pl_trick_index(&t)] = (uint8_t)lead;
            t.turn = (uint8_t)lead;
            /* and once as if team B had not won a trick yet */
            for (int flags = 0; flags < 2; flags++) {
                if (flags) t.trick_points[0] += t.trick_points[1], t.trick_points[1] = 0,
                           t.trick_won[0] += t.trick_won[1], t.trick_won[1] = 0;
                pl_Solver *fresh = pl_solver_new(10);
                int a = pl_solve(shared, &t, NULL), b = pl_solve(fresh, &t, NULL);
                pl_solver_free(fresh);
                if (a != b) fail_msg("leader %d, flags %d: %d with a used table, %d with a fresh one", lead, flags, a, b);
                checked++;
            }
        }
    }
    pl_solver_free(shared);
    printf("# %ld positions solved on a shared and a fresh table\n", checked);
    assert_true(checked > n);
}

/* A table entry's slot can be taken by another position while the
 * entry's own subtree is searched: what is stored when the search comes
 * back must not mix in the newcomer's bounds. Whole deals from trick 1
 * on a small table (many such clashes), each solved for its value and
 * then for every card, against a table large enough to hold them. */
static void test_table_clash_keeps_values(void **state)
{
    (void)state;
    const long n = pl_env_count("PL_SOLVE_DEALS", 12);
    pl_Solver *small = pl_solver_new(10), *big = pl_solver_new(20);
    dl_Rng rng;
    dl_rng_seed(&rng, 38);
    long checked = 0;
    for (long i = 0; i < n; i++) {
        pl_Rules r = plrules(CONFIGS[i % NCONFIGS]);
        pl_State s;
        if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
        pl_SolveResult a, b;
        pl_solve(small, &s, NULL);
        pl_solve(small, &s, &a);
        pl_solve(big, &s, &b);
        for (int k = 0; k < b.nmoves; k++)
            if (a.moves[k].card != b.moves[k].card || a.moves[k].value != b.moves[k].value)
                fail_msg("deal %ld, card %d: %d on the small table, %d on the big one", i, b.moves[k].card,
                         a.moves[k].value, b.moves[k].value);
        checked++;
    }
    pl_solver_free(small);
    pl_solver_free(big);
    printf("# %ld deals solved on a small and a big table\n", checked);
    assert_true(checked > n / 2);
}

/* The solver's value stays the same along its own line, and the line
 * played out with the engine scores what pl_solve_score says: the trick
 * points and both teams' game points (P41-P46). */
static void test_P46_conversion_matches_engine(void **state)
{
    (void)state;
    const long n = pl_env_count("PL_SOLVE_ROUNDS", 40);
    pl_Solver *sv = pl_solver_new(0);
    dl_Rng rng;
    dl_rng_seed(&rng, 99);
    long rounds = 0, swept = 0;
    const char *const rules[] = {"", "PV-partner-exempt", "PV-must-head PV-round-7", "PV-swept-keeps-declarations",
                                 "PV-belote-transfers PV-double-all"};
    for (long i = 0; rounds < n && i < 20 * n; i++) {
        pl_Rules r = plrules(rules[i % 5]);
        pl_State s;
        if (!pl_to_play(&s, &r, dl_rng_next(&rng), &rng)) continue;
        advance(&s, 4 + (int)dl_rng_below(&rng, 8), &rng); /* P36 settled */
        if (s.phase != PL_PHASE_PLAY) continue;
        const int team = pl_team(s.turn);
        const int v = pl_solve(sv, &s, NULL);
        pl_RoundScore want;
        pl_solve_score(&s, team, v, &want);
        while (s.phase == PL_PHASE_PLAY) {
            pl_SolveResult res;
            int here = pl_solve(sv, &s, &res);
            int mine = pl_team(s.turn) == team ? here : pl_solve_other(here);
            if (mine != v) fail_msg("value changed along the line: %d then %d", v, mine);
            play_card(&s, res.moves[0].card);
        }
        assert_int_equal(round_value(&s, team), v);
        assert_int_equal(s.last.trick_points[0], want.trick_points[0]);
        assert_int_equal(s.last.trick_points[1], want.trick_points[1]);
        assert_int_equal(s.last.made, want.made);
        if (s.last.game[0] != want.game[0] || s.last.game[1] != want.game[1])
            fail_msg("game points %d %d, converted %d %d", s.last.game[0], s.last.game[1], want.game[0],
                     want.game[1]);
        swept += v == PL_SOLVE_SWEEP || v == PL_SOLVE_SWEPT;
        rounds++;
    }
    pl_solver_free(sv);
    printf("# %ld rounds played out along the solver's line (%ld sweeps)\n", rounds, swept);
    assert_int_equal(rounds, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_matches_minimax_two_tricks),
        cmocka_unit_test(test_solver_matches_minimax_three_tricks),
        cmocka_unit_test(test_P32_sweep),
        cmocka_unit_test(test_table_keys_leader_and_tricks),
        cmocka_unit_test(test_P46_conversion_matches_engine),
        cmocka_unit_test(test_table_clash_keeps_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
