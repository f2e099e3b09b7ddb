/* luaopen_diloti: the `diloti` Lua module, the same whether linked into
 * the host program or loaded by a plain lua5.4 from diloti.so. The C part
 * ("core") holds the engine; the Lua part (lua/diloti.lua, compiled in)
 * adds the rule variants on top. Every embedded lua/NAME.lua is also
 * available as require "diloti.NAME". */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <lauxlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "box.h"
#include "cards.h"
#include "embedded.h"
#include "gameops.h"
#include "lpattern.h"
#include "ltext.h"
#include "rng.h"

/* The version comes from the file VERSION, through the Makefile; a build
 * by other means says so rather than carry a second number. */
#ifndef DL_VERSION
#define DL_VERSION "unknown"
#endif

/* ---- the games (gameops.h; the list comes from the Makefile) ---- */

/* The game named by the argument at arg, or raises naming the games. */
static const dl_GameOps *game_arg(lua_State *L, int arg)
{
    const char *name = luaL_checkstring(L, arg);
    const dl_GameOps *ops = dl_find_game(name);
    if (ops) return ops;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; dl_games[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, dl_games[i]->name);
    }
    luaL_pushresult(&b);
    luaL_error(L, "no game '%s': games are %s", name, lua_tostring(L, -1));
    return NULL;
}

/* games() -> the names of the C games, the default first */
static int l_games(lua_State *L)
{
    lua_newtable(L);
    for (int i = 0; dl_games[i]; i++) {
        lua_pushstring(L, dl_games[i]->name);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* open(name, opts) -> a new game handle | nil, why */
static int l_open(lua_State *L)
{
    const dl_GameOps *ops = game_arg(L, 1);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    return dl_handle_new(L, ops, 2);
}

/* Is base one of the game's base rules? */
static bool has_base(const dl_GameOps *ops, const char *base)
{
    for (int i = 0; ops->bases[i]; i++)
        if (strcmp(ops->bases[i], base) == 0) return true;
    return false;
}

static int push_base_rules(lua_State *L, const dl_GameOps *ops, int arg)
{
    const char *base = luaL_optstring(L, arg, ops->bases[0]);
    if (!has_base(ops, base)) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addstring(&b, "a base game of ");
        luaL_addstring(&b, ops->name);
        luaL_addstring(&b, " is");
        for (int i = 0; ops->bases[i]; i++) {
            luaL_addstring(&b, i ? (ops->bases[i + 1] ? ", \"" : " or \"") : " \"");
            luaL_addstring(&b, ops->bases[i]);
            luaL_addchar(&b, '"');
        }
        luaL_pushresult(&b);
        return luaL_argerror(L, arg, lua_tostring(L, -1));
    }
    ops->base_rules(L, base);
    lua_pushstring(L, ops->name);
    lua_setfield(L, -2, "game");
    return 1;
}

/* base_rules(name [, base]) -> the rules table of a base of the game */
static int l_base_rules(lua_State *L)
{
    return push_base_rules(L, game_arg(L, 1), 2);
}

/* check_rules(name, rules) -> true | nil, message */
static int l_check_rules(lua_State *L)
{
    return game_arg(L, 1)->check_rules(L, 2);
}

/* natives(name) -> {name = function}: the C functions the game's AIs
 * may be handed in their boxes (each reads only its arguments). */
static int l_natives(lua_State *L)
{
    const dl_GameOps *ops = game_arg(L, 1);
    lua_newtable(L);
    if (ops->natives) luaL_setfuncs(L, ops->natives, 0);
    return 1;
}

/* card("10♦") -> "10d", value | nil, message */
static int l_card(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    int n, c = dl_card_parse(s, &n);
    if (c < 0 || (size_t)n != len) {
        lua_pushnil(L);
        lua_pushfstring(L, "'%s' is not a card (like 7h, 10d, Kc or 7\u2665)", s);
        return 2;
    }
    char b[8];
    dl_card_str(c, b, lua_toboolean(L, 2));
    lua_pushstring(L, b);
    lua_pushinteger(L, dl_value(c));
    return 2;
}

/* embedded(prefix) -> {path = text} for the compiled-in files under it */
static int l_embedded(lua_State *L)
{
    const char *prefix = luaL_optstring(L, 1, "");
    size_t n = strlen(prefix);
    lua_newtable(L);
    for (const dl_Embedded *e = dl_embedded; e->name; e++) {
        if (strncmp(e->name, prefix, n) != 0) continue;
        lua_pushlstring(L, e->text, e->len);
        lua_setfield(L, -2, e->name);
    }
    return 1;
}

/* listdir(path) -> sorted list of entry names | nil, message */
static int l_listdir(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    DIR *d = opendir(path);
    if (!d) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    lua_newtable(L);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        lua_pushstring(L, e->d_name);
        lua_rawseti(L, -2, ++n);
    }
    closedir(d);
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return 1;
}

/* filekind(path [, follow]) -> "file" | "directory" | "link" | "other" |
 * nil, message. With follow, a link is followed (stat, not lstat): the
 * readers of records and scripts accept a link to an ordinary file but
 * never a device or a FIFO, which would read for ever or block.
 * Saving renames a temporary file over the target: the caller must know
 * when that target is a device or a link, which no plain io call tells. */
static int l_filekind(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    struct stat st;
    int follow = lua_toboolean(L, 2);
    if ((follow ? stat(path, &st) : lstat(path, &st)) != 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    if (S_ISREG(st.st_mode)) lua_pushliteral(L, "file");
    else if (S_ISDIR(st.st_mode)) lua_pushliteral(L, "directory");
    else if (S_ISLNK(st.st_mode)) lua_pushliteral(L, "link");
    else lua_pushliteral(L, "other");
    return 1;
}

/* stamp(path) -> a string that changes whenever the file does (its size,
 * times to the nanosecond and inode, a link followed), and whether it
 * changed in the last few seconds | nil, message: how the catalogue of
 * scripts notices a file added, edited or replaced without reading it
 * again. A file's times advance by the kernel's clock tick, so two
 * writes of the same size within one tick leave the same stamp: the
 * caller compares a recent file's text as well. */
static int l_stamp(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    struct stat st;
    if (stat(path, &st) != 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    char buf[160];
    snprintf(buf, sizeof buf, "%lld:%lld.%ld:%lld.%ld:%llu", (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
             (long)st.st_ctim.tv_nsec, (unsigned long long)st.st_ino);
    lua_pushstring(L, buf);
    time_t changed = st.st_mtim.tv_sec > st.st_ctim.tv_sec ? st.st_mtim.tv_sec : st.st_ctim.tv_sec;
    lua_pushboolean(L, time(NULL) - changed < 3);
    return 2;
}

/* pattern.set_steps(n) -> the previous budget of the bounded patterns */
static int l_pattern_set_steps(lua_State *L)
{
    long old = dl_pattern_steps();
    dl_pattern_set_steps((long)luaL_checkinteger(L, 1));
    lua_pushinteger(L, old);
    return 1;
}

/* clean(s) -> s with every terminal control shown instead (ltext.c): for
 * text from scripts, lessons and records on its way to the terminal. */
static int l_clean(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    if (!dl_clean_needed(s, n)) {
        lua_settop(L, 1); /* the string itself, no copy */
        return 1;
    }
    dl_clean_push(L, s, n);
    return 1;
}

/* plain(s, max) -> s as one line of plain text of at most max bytes
 * (ltext.c): for names and messages scripts give. */
static int l_plain(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    lua_Integer max = luaL_checkinteger(L, 2);
    luaL_argcheck(L, max >= 0, 2, "a length of 0 or more");
    dl_plain_push(L, s, n, (size_t)max);
    return 1;
}

/* same_secret(secret, given) -> whether given equals secret, in a time
 * that depends on the lengths only: every byte of the secret is read and
 * no branch depends on a byte, so a client guessing an invitation token
 * learns nothing from how long a wrong guess took. given of another type
 * than a string is no match. */
static int l_same_secret(lua_State *L)
{
    size_t n, m = 0;
    const unsigned char *a = (const unsigned char *)luaL_checklstring(L, 1, &n);
    const unsigned char *b = lua_type(L, 2) == LUA_TSTRING ? (const unsigned char *)lua_tolstring(L, 2, &m)
                                                           : NULL;
    volatile unsigned diff = (unsigned)(n != m) | (unsigned)(b == NULL);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (b && i < m) ? b[i] : 0;
        diff |= (unsigned)(a[i] ^ c);
    }
    lua_pushboolean(L, diff == 0);
    return 1;
}

/* calls() -> how many calls game handles and new{...} have had, all games
 * of the process together: take the difference around what is measured. */
static int l_calls(lua_State *L)
{
    lua_pushinteger(L, dl_handle_calls());
    return 1;
}

static int load_embedded(lua_State *L)
{
    const dl_Embedded *e = &dl_embedded[lua_tointeger(L, lua_upvalueindex(1))];
    char chunk[200];
    snprintf(chunk, sizeof chunk, "@%s", e->name);
    if (luaL_loadbufferx(L, e->text, e->len, chunk, "t") != LUA_OK) return lua_error(L);
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* The core's seeding arithmetic (rng.h), so that Lua keeps no copy:
 * mix64(x) is splitmix64's output for the state x; hash(seed, ...) folds
 * integers into one seed (a decision's seed from the player's seed and
 * the position); rng(seed) is a generator like math.random. */
static lua_Integer int_arg(lua_State *L, int i)
{
    int ok;
    lua_Integer v = lua_tointegerx(L, i, &ok);
    if (!ok && !lua_isnoneornil(L, i)) luaL_argerror(L, i, "an integer expected");
    return v;
}

/* core.clock(): seconds on the monotonic clock, for timing a decision
 * (os.clock reads the process's CPU time, a system call costing more
 * than a random AI's whole decision). */
static int l_clock(lua_State *L)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    lua_pushnumber(L, (double)t.tv_sec + (double)t.tv_nsec * 1e-9);
    return 1;
}

static int l_mix64(lua_State *L)
{
    uint64_t x = (uint64_t)int_arg(L, 1);
    lua_pushinteger(L, (lua_Integer)dl_splitmix_next(&x));
    return 1;
}

static int l_hash(lua_State *L)
{
    int n = lua_gettop(L);
    uint64_t h = dl_mix(0x2545F4914F6CDD1DULL, (uint64_t)int_arg(L, 1));
    for (int i = 2; i <= n; i++) h = dl_mix(h, (uint64_t)int_arg(L, i));
    lua_pushinteger(L, (lua_Integer)h);
    return 1;
}

static int rng_next(lua_State *L)
{
    return dl_box_random(L, lua_touserdata(L, lua_upvalueindex(1)), 1);
}

static int l_rng(lua_State *L)
{
    uint64_t *state = lua_newuserdatauv(L, sizeof *state, 0);
    *state = (uint64_t)int_arg(L, 1);
    lua_pushcclosure(L, rng_next, 1);
    return 1;
}

/* Folders of a game's package (lua/games/NAME/) that hold scripts (data
 * for the catalogue, each run in a box of its own), not modules. */
static const char *const DATA_DIRS[] = {"/ai/", "/lessons/", NULL};

static bool is_module(const char *name)
{
    size_t len = strlen(name);
    if (strncmp(name, "lua/", 4) != 0 || len < 9 || strcmp(name + len - 4, ".lua") != 0) return false;
    const char *in_game = strncmp(name, "lua/games/", 10) == 0 ? strchr(name + 10, '/') : NULL;
    for (int i = 0; in_game && DATA_DIRS[i]; i++)
        if (strncmp(in_game, DATA_DIRS[i], strlen(DATA_DIRS[i])) == 0) return false;
    return true;
}

/* package.preload["diloti.A.B"] for every embedded module lua/A/B.lua,
 * and "diloti.A" for lua/A/init.lua (a folder's front door). */
static void register_preloads(lua_State *L)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    for (int i = 0; dl_embedded[i].name; i++) {
        const char *name = dl_embedded[i].name;
        if (!is_module(name)) continue;
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addstring(&b, "diloti.");
        size_t end = strlen(name) - 4;
        if (end > 9 && strncmp(name + end - 5, "/init", 5) == 0) end -= 5;
        for (size_t c = 4; c < end; c++) luaL_addchar(&b, name[c] == '/' ? '.' : name[c]);
        luaL_pushresult(&b);
        lua_pushinteger(L, i);
        lua_pushcclosure(L, load_embedded, 1);
        lua_setfield(L, -3, lua_tostring(L, -2));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

int luaopen_diloti(lua_State *L)
{
    static const luaL_Reg fns[] = {{"check_rules", l_check_rules},
                                   {"card", l_card},         {"embedded", l_embedded},
                                   {"listdir", l_listdir},   {"filekind", l_filekind},
                                   {"clean", l_clean},       {"calls", l_calls},
                                   {"same_secret", l_same_secret},
                                   {"plain", l_plain},       {"stamp", l_stamp},
                                   {"mix64", l_mix64},
                                   {"clock", l_clock},
                                   {"hash", l_hash},         {"rng", l_rng},
                                   {"games", l_games},       {"open", l_open},
                                   {"base_rules", l_base_rules}, {"natives", l_natives},
                                   {NULL, NULL}};
    register_preloads(L);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    if (lua_getfield(L, -1, "diloti.diloti") != LUA_TFUNCTION)
        return luaL_error(L, "diloti: the embedded lua/diloti.lua is missing");
    luaL_newlib(L, fns);
    dl_handle_open(L);
    dl_box_open(L);
    lua_setfield(L, -2, "box");
    lua_pushliteral(L, DL_VERSION);
    lua_setfield(L, -2, "version");
    /* the step-bounded string.find/match/gmatch/gsub, for the sandbox */
    lua_newtable(L);
    dl_pattern_register(L, -1);
    lua_pushcfunction(L, l_pattern_set_steps);
    lua_setfield(L, -2, "set_steps");
    lua_setfield(L, -2, "pattern");
    lua_call(L, 1, 1); /* lua/diloti.lua receives the core */
    return 1;
}
