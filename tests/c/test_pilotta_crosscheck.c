/* The legal-action generator against the plain second implementation
 * (tests/c/pilotta/plain.c) on random reachable positions: PL_CROSSCHECK_N
 * positions (default 100,000) for the base game and for every house rule
 * that changes the legal set, alone and all together. Each action the
 * plain reading allows must also be accepted by pl_is_legal and refused
 * by nobody; a sample of the others must be refused with a rule id. The
 * playout path (pl_legal_nth) must list the same actions in the same order.
 * A refused card's message names only cards of the hand that are legal. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/plain.h"
#include "pilotta/playout.h"
#include "pilotta/plconfigs.h"
#include "pilotta/pltest.h"

static int by_fields(const void *a, const void *b)
{
    const pl_Action *x = a, *y = b;
    if (x->kind != y->kind) return x->kind - y->kind;
    if (x->value != y->value) return x->value - y->value;
    if (x->suit != y->suit) return x->suit - y->suit;
    if (x->card != y->card) return x->card - y->card;
    if (x->belote != y->belote) return x->belote - y->belote;
    return x->cards < y->cards ? -1 : x->cards > y->cards;
}

static void describe(const pl_State *s, const pl_ActionList *l, const char *who)
{
    char pos[PL_POSITION_MAX], t[64];
    pl_position_str(s, pos, sizeof pos, 0);
    fprintf(stderr, "  position: %s\n  %s:", pos, who);
    for (int i = 0; i < l->n; i++) {
        pl_action_str(s, &l->a[i], t, sizeof t, false);
        fprintf(stderr, " [%s]", t);
    }
    fprintf(stderr, "\n");
}

static void compare(const pl_State *s, long at)
{
    pl_ActionList fast, plain;
    pl_legal(s, &fast);
    plain_legal(s, &plain);
    /* The playout path's k-th action is the list's k-th. */
    if (pl_legal_count(s) != fast.n) fail_msg("pl_legal_count %d, pl_legal %d", pl_legal_count(s), fast.n);
    for (int k = 0; k < fast.n; k++) {
        pl_Action a = pl_legal_nth(s, k);
        if (!pl_action_eq(&a, &fast.a[k])) {
            describe(s, &fast, "pl_legal");
            fail_msg("pl_legal_nth(%d) differs from pl_legal's", k);
        }
    }
    qsort(fast.a, (size_t)fast.n, sizeof fast.a[0], by_fields);
    qsort(plain.a, (size_t)plain.n, sizeof plain.a[0], by_fields);
    bool same = fast.n == plain.n;
    for (int i = 0; same && i < fast.n; i++) same = pl_action_eq(&fast.a[i], &plain.a[i]);
    if (!same) {
        describe(s, &fast, "pl_legal");
        describe(s, &plain, "plain");
        fail_msg("P28: the legal sets differ at position %ld", at);
    }
}

/* A refusal for an action outside the set, with a rule id. */
static void refused(const pl_State *s, dl_Rng *rng)
{
    pl_Action a = {(pl_Set)dl_rng_next(rng) & s->hand[s->turn], (uint8_t)dl_rng_below(rng, PL_PLAY + 1),
                   (uint8_t)(8 + dl_rng_below(rng, 18)), (int8_t)((int)dl_rng_below(rng, 5) - 1),
                   (uint8_t)dl_rng_below(rng, 32), (uint8_t)dl_rng_below(rng, 2)};
    char why[256];
    const char *w = pl_refusal(s, &a, why, sizeof why);
    if (pl_is_legal(s, &a)) {
        if (w) fail_msg("P51: a legal action refused: %s", w);
        return;
    }
    if (!w || !strchr(w, ':') || strncmp(w, "P51: that action", 16) == 0)
        fail_msg("P51: a refusal without its rule: '%s'", w ? w : "(none)");
}

/* P51: a refusal of a card never names another card of the hand that
 * would be refused as well: every card of the hand the message names is
 * one the player may play (the lesson's "you hold a trump (7h)" where
 * 7h had to overtrump was such a message). */
static void names_legal(const pl_State *s)
{
    if (s->phase != PL_PHASE_PLAY) return;
    const pl_Set hand = s->hand[s->turn], legal = pl_legal_cards(s);
    for (pl_Set c = hand & ~legal; c; c &= c - 1) {
        pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)pl_first(c), 0};
        char why[256];
        const char *w = pl_refusal(s, &a, why, sizeof why);
        if (!w) fail_msg("P51: card %d of the hand is outside the legal set and not refused", pl_first(c));
        for (const char *p = w; *p; p++) {
            int len = 0, card = (p == w || p[-1] == ' ' || p[-1] == '(') ? pl_card_parse(p, &len) : -1;
            /* (a whole word only: "the" is not the Ten of hearts) */
            if (card < 0 || isalnum((unsigned char)p[len])) continue;
            if ((hand & PL_BIT(card)) == 0 || (legal & PL_BIT(card))) continue;
            char pos[PL_POSITION_MAX];
            pl_position_str(s, pos, sizeof pos, 0);
            fail_msg("P51: '%s' names %.*s, which would be refused too (position: %s)", w, len, p, pos);
        }
    }
}

static void run(const PlConfig *c, long positions, uint64_t seed)
{
    pl_Rules r = plrules(c->variants);
    pl_State s;
    pl_ActionList l;
    dl_Rng rng;
    dl_rng_seed(&rng, seed);
    assert_null(pl_new_match(&s, &r, seed, -1));
    long kinds[PL_PLAY + 1] = {0};
    for (long i = 0; i < positions; i++) {
        if (s.phase == PL_PHASE_MATCH_OVER) assert_null(pl_new_match(&s, &r, dl_rng_next(&rng), -1));
        if (s.phase == PL_PHASE_ROUND_OVER) assert_true(pl_next_round(&s));
        compare(&s, i);
        if (i % 8 == 0) refused(&s, &rng);
        names_legal(&s);
        assert_true(pl_legal(&s, &l) > 0);
        const pl_Action *a = pl_pick(&l, &s, &rng);
        kinds[a->kind]++;
        pl_apply_legal(&s, a);
    }
    printf("  crosscheck %-24s %ld positions (announce %ld, show %ld, contra %ld, recontra %ld)\n", c->name,
           positions, kinds[PL_ANNOUNCE], kinds[PL_SHOW], kinds[PL_CONTRA], kinds[PL_RECONTRA]);
}

static void test_P28_legal_set_matches_plain_reading(void **state)
{
    (void)state;
    long n = pl_env_count("PL_CROSSCHECK_N", 100000);
    for (int i = 0; i < pl_nlegality_configs; i++) run(&pl_legality_configs[i], n, 1000 + (uint64_t)i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_P28_legal_set_matches_plain_reading),
    };
    return cmocka_run_group_tests_name("pilotta crosscheck", tests, NULL, NULL);
}
