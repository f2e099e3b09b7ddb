/* Shared by the Pilotta libFuzzer targets (tests/fuzz/fuzz_pl_*.c), in the
 * same way as fuzz.h for Diloti's: FUZZ_FAIL aborts under libFuzzer and
 * fails a cmocka test when tests/c/test_pilotta_fuzz_corpus.c replays the
 * corpora with the normal compiler. */
#ifndef PL_FUZZ_H
#define PL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pilotta/check.h"
#include "pilotta/refuse.h"
#include "pilotta/deal.h"
#include "pilotta/notation.h"
#include "pilotta/playout.h"
#include "pilotta/position.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL(...) \
    (fprintf(stderr, "fuzz property broken: " __VA_ARGS__), fputc('\n', stderr), abort())
#endif
#define FUZZ_CHECK(cond, ...)                \
    do {                                     \
        if (!(cond)) FUZZ_FAIL(__VA_ARGS__); \
    } while (0)

#define PL_FUZZ_MAX_TEXT 4096
/* Bytes of input that choose the rules. */
#define PL_FUZZ_RULES 2

/* Rules from two bytes: each house-rule switch, the rounding, a short or
 * long target. */
static inline pl_Rules pl_fuzz_rules(const uint8_t *b)
{
    pl_Rules r;
    pl_rules_default(&r);
    unsigned bits = (unsigned)b[0] << 8 | b[1];
    for (int i = 0; i < pl_nvariants && i < 14; i++) *pl_variants[i].field(&r) = bits >> i & 1;
    r.swept_keeps_declarations = (b[0] ^ b[1]) >> 1 & 1; /* the 15th switch shares bits */
    r.rounding = bits >> 14 & 3;
    r.target = b[0] & 1 ? 151 : 351;
    return r;
}

static inline void pl_fuzz_text(const uint8_t *data, size_t size, char *buf)
{
    if (size > PL_FUZZ_MAX_TEXT) size = PL_FUZZ_MAX_TEXT;
    memcpy(buf, data, size);
    buf[size] = '\0';
}

/* Every field, one by one (a memcmp would compare padding too). */
static inline bool pl_fuzz_same(const pl_State *a, const pl_State *b)
{
    bool same = a->phase == b->phase && a->dealer == b->dealer && a->turn == b->turn && a->round == b->round &&
                a->ncalls == b->ncalls && a->bid == b->bid && a->bid_suit == b->bid_suit &&
                a->bidder == b->bidder && a->mult == b->mult && a->contra_by == b->contra_by &&
                a->passes == b->passes && a->passed == b->passed && a->nplayed == b->nplayed &&
                a->ndecl == b->ndecl && a->standing == b->standing && a->belote == b->belote &&
                a->winner == b->winner && memcmp(a->calls, b->calls, a->ncalls) == 0 &&
                memcmp(a->played, b->played, a->nplayed) == 0 && memcmp(a->leader, b->leader, 8) == 0 &&
                memcmp(&a->rng, &b->rng, sizeof a->rng) == 0;
    for (int i = 0; same && i < 4; i++) same = a->hand[i] == b->hand[i];
    for (int t = 0; same && t < 2; t++)
        same = a->trick_won[t] == b->trick_won[t] && a->trick_points[t] == b->trick_points[t] &&
               a->score[t] == b->score[t] && a->last.raw[t] == b->last.raw[t] && a->last.game[t] == b->last.game[t];
    for (int i = 0; same && i < a->ndecl; i++)
        same = a->decl[i].cards == b->decl[i].cards && a->decl[i].seat == b->decl[i].seat &&
               a->decl[i].kind == b->decl[i].kind && a->decl[i].value == b->decl[i].value &&
               a->decl[i].shown == b->decl[i].shown;
    return same;
}

static inline void pl_fuzz_expect_same(const pl_State *a, const pl_State *b, const char *when)
{
    if (pl_fuzz_same(a, b)) return;
    char x[PL_POSITION_MAX], y[PL_POSITION_MAX];
    pl_position_str(a, x, sizeof x, 0);
    pl_position_str(b, y, sizeof y, 0);
    FUZZ_FAIL("%s: the states differ:\n  %s\n  %s", when, x, y);
}

/* A legal action's text parses back to it (ascii and Unicode). */
static inline void pl_fuzz_check_text(const pl_State *s, const pl_Action *a)
{
    for (int u = 0; u < 2; u++) {
        char text[160], err[256];
        pl_Action back;
        pl_action_str(s, a, text, sizeof text, u);
        const char *e = pl_action_parse(s, text, &back, err, sizeof err);
        FUZZ_CHECK(!e, "the action '%s' does not parse back: %s", text, e);
        FUZZ_CHECK(pl_action_eq(&back, a), "the action '%s' parses back to another", text);
    }
}

/* pl_is_legal, pl_refusal, the list and pl_apply agree about a; a refused
 * action leaves the state untouched. */
static inline void pl_fuzz_check_agree(const pl_State *s, const pl_ActionList *l, const pl_Action *a)
{
    char why[256];
    pl_Action n = pl_normalize(s, a);
    bool listed = false;
    for (int i = 0; i < l->n && !listed; i++) listed = pl_action_eq(&l->a[i], &n);
    bool legal = pl_is_legal(s, a);
    const char *refused = pl_refusal(s, a, why, sizeof why);
    FUZZ_CHECK(listed == legal, "kind %d: pl_is_legal %d, the list %d", a->kind, legal, listed);
    FUZZ_CHECK(!refused == legal, "kind %d: pl_is_legal %d, pl_refusal '%s'", a->kind, legal, refused ? refused : "");
    if (refused) {
        FUZZ_CHECK(refused[0] == 'P' && strchr(refused, ':'), "a refusal without a rule id: '%s'", refused);
        pl_State t = *s;
        FUZZ_CHECK(pl_apply(&t, a, why, sizeof why), "a refused action was applied");
        pl_fuzz_expect_same(s, &t, "a refused action");
    }
}

#endif
