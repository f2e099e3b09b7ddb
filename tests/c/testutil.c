#include "testutil.h"

#include <stdio.h>
#include <string.h>

dl_Rules diloti_rules(void)
{
    dl_Rules r;
    dl_rules_diloti(&r);
    return r;
}

dl_Rules kontsina_rules(void)
{
    dl_Rules r;
    dl_rules_kontsina(&r);
    return r;
}

dl_Rules diloti4_rules(void)
{
    dl_Rules r;
    dl_rules_diloti(&r);
    dl_rules_set_players(&r, 4, true);
    return r;
}

dl_State pos(const dl_Rules *r, const char *text)
{
    dl_State s;
    char err[300];
    if (dl_position_parse(&s, r, text, 1, err, sizeof err))
        fail_msg("position does not parse: %s\n  in: %s", err, text);
    return s;
}

bool legal(const dl_State *s, const char *move)
{
    dl_Move m;
    char err[300];
    if (dl_move_parse(s, move, &m, err, sizeof err)) return false;
    return dl_is_legal(s, &m);
}

const char *refusal(const dl_State *s, const char *move)
{
    static char buf[400];
    char err[300];
    dl_Move m;
    if (dl_move_parse(s, move, &m, err, sizeof err)) {
        snprintf(buf, sizeof buf, "parse: %s", err);
        return buf;
    }
    const char *why = dl_refusal(s, &m, buf, sizeof buf);
    return why ? why : "";
}

void assert_refused(const dl_State *s, const char *move, const char *rule_id)
{
    const char *why = refusal(s, move);
    size_t n = strlen(rule_id);
    if (strncmp(why, rule_id, n) != 0 || why[n] != ':')
        fail_msg("'%s' should be refused with %s, got: \"%s\"", move, rule_id, why);
}

dl_Effect play(dl_State *s, const char *move)
{
    dl_Move m;
    dl_Effect e;
    char err[300];
    if (dl_move_parse(s, move, &m, err, sizeof err))
        fail_msg("move '%s' does not parse: %s", move, err);
    if (!dl_is_legal(s, &m))
        fail_msg("move '%s' is not legal: %s\n  legal: %s", move, refusal(s, move), moves_str(s));
    dl_apply(s, &m, &e);
    const char *broken = dl_check_state(s);
    if (broken) fail_msg("after '%s': %s", move, broken);
    return e;
}

long nmoves(const dl_State *s)
{
    dl_MoveList l;
    dl_movelist_init(&l);
    long n = dl_legal_moves(s, &l);
    dl_movelist_free(&l);
    return n;
}

const char *moves_str(const dl_State *s)
{
    static char buf[8192];
    dl_MoveList l;
    size_t k = 0;
    dl_movelist_init(&l);
    dl_legal_moves(s, &l);
    buf[0] = '\0';
    for (size_t i = 0; i < l.n && k + 200 < sizeof buf; i++) {
        char mv[160];
        dl_move_str(s, &l.m[i], mv, sizeof mv, false);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? " | " : "", mv);
    }
    dl_movelist_free(&l);
    return buf;
}
