/* Shared by the libFuzzer targets in tests/fuzz/. A target reports a
 * broken property through FUZZ_FAIL: under libFuzzer that aborts (a crash
 * the fuzzer saves), while tests/c/test_fuzz_corpus.c, which compiles
 * every target into one cmocka test with the normal compiler to replay
 * the corpora, defines it as a failed test naming the input. */
#ifndef DL_FUZZ_H
#define DL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diloti/apply.h"
#include "configs.h"
#include "diloti/deal.h"
#include "diloti/game.h"
#include "diloti/notation.h"
#include "diloti/position.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL(...) \
    (fprintf(stderr, "fuzz property broken: " __VA_ARGS__), fputc('\n', stderr), abort())
#endif
#define FUZZ_CHECK(cond, ...)              \
    do {                                   \
        if (!(cond)) FUZZ_FAIL(__VA_ARGS__); \
    } while (0)

/* Longest input a target looks at: longer ones are cut (the properties do
 * not need more, and the fuzzer then spends its time on variety). */
#define FUZZ_MAX_TEXT 4096

/* A rules configuration from one byte: every configuration of the soak
 * (tests/c/configs.c) with each player count it is played with: 2
 * players, 4 in teams, and for Kontsina also 3, and 4 without teams. */
static inline void fuzz_rules(uint8_t b, dl_Rules *out, const char **name)
{
    TestConfig cfg[32];
    int n = test_configs(cfg, 32), combos = 0;
    int idx[32 * 4], players[32 * 4];
    bool teams[32 * 4];
    for (int i = 0; i < n && i < 32; i++) {
        bool kontsina = cfg[i].rules.capture == DL_CAPTURE_ONE;
        idx[combos] = i, players[combos] = 2, teams[combos++] = false;
        idx[combos] = i, players[combos] = 4, teams[combos++] = true;
        if (kontsina) {
            idx[combos] = i, players[combos] = 3, teams[combos++] = false;
            idx[combos] = i, players[combos] = 4, teams[combos++] = false;
        }
    }
    int k = b % combos;
    *out = cfg[idx[k]].rules;
    dl_rules_set_players(out, players[k], teams[k]);
    if (name) *name = cfg[idx[k]].name;
}

/* The input as a C string (cut at FUZZ_MAX_TEXT; an embedded NUL simply
 * ends it, as it would for any caller). */
static inline void fuzz_text(const uint8_t *data, size_t size, char *buf)
{
    if (size > FUZZ_MAX_TEXT) size = FUZZ_MAX_TEXT;
    memcpy(buf, data, size);
    buf[size] = '\0';
}

/* Is m among the generated legal moves? */
static inline bool fuzz_listed(const dl_MoveList *l, const dl_Move *m)
{
    for (size_t i = 0; i < l->n; i++)
        if (dl_move_eq(&l->m[i], m)) return true;
    return false;
}

/* The canonical string of a legal move parses back to the same move. */
static inline void fuzz_check_move_text(const dl_State *s, const dl_Move *m)
{
    char text[256], err[256];
    dl_Move back;
    dl_move_str(s, m, text, sizeof text, false);
    const char *e = dl_move_parse(s, text, &back, err, sizeof err);
    FUZZ_CHECK(!e, "the move '%s' does not parse back: %s", text, e);
    FUZZ_CHECK(dl_move_eq(&back, m), "the move '%s' parses back to another move", text);
    dl_move_str(s, m, text, sizeof text, true);
    e = dl_move_parse(s, text, &back, err, sizeof err);
    FUZZ_CHECK(!e, "the move '%s' (unicode) does not parse back: %s", text, e);
    FUZZ_CHECK(dl_move_eq(&back, m), "the move '%s' (unicode) parses back to another move", text);
}

/* A legal move is legal by every account; a refused one by every account.
 * m is any move the notation can express here: card 0..51, items on the
 * table, value 0..10. */
static inline void fuzz_check_agree(const dl_State *s, const dl_MoveList *l, const dl_Move *m)
{
    char why[256];
    bool listed = fuzz_listed(l, m), legal = dl_is_legal(s, m);
    const char *refused = dl_refusal(s, m, why, sizeof why);
    char text[96];
    snprintf(text, sizeof text, "kind %d card %d value %d take %016llx", m->kind, m->card,
             m->value, (unsigned long long)m->take);
    /* a list cut at its bound (moves.h) holds some of the legal moves */
    FUZZ_CHECK(listed == legal || (l->cut && legal), "'%s': dl_is_legal says %d, the generated list %d",
               text, legal, listed);
    FUZZ_CHECK(!refused == legal, "'%s': dl_is_legal says %d, dl_refusal '%s'", text, legal,
               refused ? refused : "(none)");
    if (refused)
        FUZZ_CHECK(refused[0] && strchr(refused, ':'), "'%s': a refusal without a rule id: '%s'",
                   text, refused);
}

#endif
