#include "lrules.h"

#include <lauxlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gameops.h"

typedef enum { F_BOOL, F_INT, F_CAPTURE, F_REDEAL, F_MATCH } Type;

typedef struct {
    const char *name;
    Type type;
    size_t off;
} Field;

#define B(n) {#n, F_BOOL, offsetof(dl_Rules, n)}
#define I(n) {#n, F_INT, offsetof(dl_Rules, n)}
static const Field FIELDS[] = {
    I(players), B(teams), I(hand_size), I(table_cards), I(deals), B(declarations),
    {"capture", F_CAPTURE, offsetof(dl_Rules, capture)}, B(face_lay_blocked),
    {"redeal", F_REDEAL, offsetof(dl_Rules, redeal)}, B(three_face_cards),
    B(face_card_claim), B(claim_any_deal), I(claim_faces), B(dealer_peeks),
    B(forced_capture), B(liberal_group), B(liberal_raise), B(liberal_capture), B(soy),
    B(xeri), B(xeri_first_card), B(xeri_last_card), B(clockwise),
    {"match", F_MATCH, offsetof(dl_Rules, match)}, I(target), {NULL, F_INT, 0}};
#undef B
#undef I

#define P(n) {#n, F_INT, offsetof(dl_Points, n)}
static const Field POINTS[] = {P(cards), P(ace), P(ten_diamonds), P(two_clubs), P(clubs),
                               P(xeri), {NULL, F_INT, 0}};
#undef P

static const char *const CAPTURE[] = {"many", "one", NULL};
static const char *const REDEAL[] = {"none", "face-triple", "any-triple", NULL};
static const char *const MATCH[] = {"points", "rounds", NULL};

static const char *const *names_of(Type t)
{
    return t == F_CAPTURE ? CAPTURE : t == F_REDEAL ? REDEAL : MATCH;
}

static void set_field(lua_State *L, const Field *f, void *base, const char *where)
{
    char *p = (char *)base + f->off;
    int t = lua_type(L, -1);
    if (f->type == F_BOOL) {
        if (t != LUA_TBOOLEAN) luaL_error(L, "%s.%s: expected a boolean, got %s", where, f->name, luaL_typename(L, -1));
        *(bool *)p = lua_toboolean(L, -1);
    } else if (f->type == F_INT) {
        char name[64];
        snprintf(name, sizeof name, "%s.%s", where, f->name);
        *(int *)p = (int)dl_lua_rule_int(L, name, -100000, 100000);
    } else {
        const char *const *names = names_of(f->type);
        const char *s = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int i = 0;
        while (s && names[i] && strcmp(names[i], s) != 0) i++;
        if (!s || !names[i]) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (int k = 0; names[k]; k++) {
                luaL_addstring(&b, k ? ", \"" : "\"");
                luaL_addstring(&b, names[k]);
                luaL_addstring(&b, "\"");
            }
            luaL_pushresult(&b);
            luaL_error(L, "%s.%s: expected one of %s", where, f->name, lua_tostring(L, -1));
        }
        *(int *)p = i;
    }
}

static void read_fields(lua_State *L, int idx, const Field *fields, void *base, const char *where)
{
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "%s: field names must be strings", where);
        const char *k = lua_tostring(L, -2);
        const Field *f = fields;
        while (f->name && strcmp(f->name, k) != 0) f++;
        if (f->name) {
            set_field(L, f, base, where);
        } else if (fields == FIELDS && strcmp(k, "points") == 0) {
            luaL_checktype(L, -1, LUA_TTABLE);
            read_fields(L, -1, POINTS, &((dl_Rules *)base)->points, "rules.points");
        } else if (fields != FIELDS || (strcmp(k, "name") != 0 && strcmp(k, "variants") != 0 && strcmp(k, "game") != 0)) {
            luaL_error(L, "%s.%s: unknown field (check the spelling)", where, k);
        }
        lua_pop(L, 1);
    }
}

void dl_lua_torules(lua_State *L, int idx, dl_Rules *r)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    read_fields(L, idx, FIELDS, r, "rules");
}

static void push_fields(lua_State *L, const Field *fields, const void *base)
{
    for (const Field *f = fields; f->name; f++) {
        const char *p = (const char *)base + f->off;
        if (f->type == F_BOOL)
            lua_pushboolean(L, *(const bool *)p);
        else if (f->type == F_INT)
            lua_pushinteger(L, *(const int *)p);
        else
            lua_pushstring(L, names_of(f->type)[*(const int *)p]);
        lua_setfield(L, -2, f->name);
    }
}

void dl_lua_pushrules(lua_State *L, const dl_Rules *r)
{
    lua_createtable(L, 0, 32);
    push_fields(L, FIELDS, r);
    lua_createtable(L, 0, 6);
    push_fields(L, POINTS, &r->points);
    lua_setfield(L, -2, "points");
}
