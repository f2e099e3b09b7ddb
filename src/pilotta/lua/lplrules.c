#include "lplrules.h"

#include <lauxlib.h>
#include <stddef.h>
#include <string.h>

#include "gameops.h"

typedef struct {
    const char *name;
    size_t off;
} Flag;

#define F(n) {#n, offsetof(pl_Rules, n)}
static const Flag FLAGS[] = {
    F(deal_left), F(suit_after_auction), F(pass_final), F(high_bids), F(contra_after_auction),
    F(declarer_leads), F(partner_exempt), F(must_head), F(decl_overlap), F(decl_100_tie),
    F(no_contract_bonus), F(fail_keeps_declarations), F(belote_transfers), F(double_all),
    F(swept_keeps_declarations), {NULL, 0}};
#undef F

/* P46 and its house rules, in pl_Rounding's order. */
static const char *const ROUNDING[] = {"6", "7", "5", "raw", NULL};

int pl_lua_isrules(lua_State *L, int idx)
{
    if (!lua_istable(L, idx)) return 0;
    lua_getfield(L, idx, "game");
    int yes = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "pilotta") == 0;
    lua_pop(L, 1);
    return yes;
}

static void read_field(lua_State *L, const char *k, pl_Rules *r)
{
    for (const Flag *f = FLAGS; f->name; f++) {
        if (strcmp(f->name, k) != 0) continue;
        if (!lua_isboolean(L, -1))
            luaL_error(L, "rules.%s: expected a boolean, got %s", k, luaL_typename(L, -1));
        *(bool *)((char *)r + f->off) = lua_toboolean(L, -1);
        return;
    }
    if (strcmp(k, "target") == 0) {
        r->target = (int)dl_lua_rule_int(L, "rules.target", -100000, 100000);
    } else if (strcmp(k, "rounding") == 0) {
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int i = 0;
        while (s && ROUNDING[i] && strcmp(ROUNDING[i], s) != 0) i++;
        if (!s || !ROUNDING[i]) luaL_error(L, "rules.rounding: expected one of \"6\", \"7\", \"5\", \"raw\" (P46)");
        r->rounding = i;
    } else if (strcmp(k, "players") == 0) {
        /* P1: accepted only as it is, so the host can read it like Diloti's */
        const lua_Integer n = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
        if (pl_players_check(n > 0 && n <= 8 ? (int)n : 0)) /* (no cast cutting 2^32 + 4 to 4) */
            luaL_error(L, "rules.players: %s", pl_players_check(0));
    } else if (strcmp(k, "teams") == 0) {
        if (lua_toboolean(L, -1) != 1 || !lua_isboolean(L, -1))
            luaL_error(L, "rules.teams: %s", pl_players_check(0));
    } else if (strcmp(k, "game") != 0 && strcmp(k, "name") != 0 && strcmp(k, "variants") != 0) {
        luaL_error(L, "rules.%s: unknown field (check the spelling)", k);
    }
}

void pl_lua_torules(lua_State *L, int idx, pl_Rules *r)
{
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "rules: field names must be strings");
        read_field(L, lua_tostring(L, -2), r);
        lua_pop(L, 1);
    }
}

void pl_lua_pushrules(lua_State *L, const pl_Rules *r)
{
    lua_createtable(L, 0, 20);
    lua_pushliteral(L, "pilotta");
    lua_setfield(L, -2, "game");
    lua_pushinteger(L, 4);
    lua_setfield(L, -2, "players");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "teams");
    for (const Flag *f = FLAGS; f->name; f++) {
        lua_pushboolean(L, *(const bool *)((const char *)r + f->off));
        lua_setfield(L, -2, f->name);
    }
    lua_pushstring(L, ROUNDING[r->rounding >= 0 && r->rounding <= PL_ROUND_RAW ? r->rounding : 0]);
    lua_setfield(L, -2, "rounding");
    lua_pushinteger(L, r->target);
    lua_setfield(L, -2, "target");
}
