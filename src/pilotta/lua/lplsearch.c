/* g:solve() and g:search{} of a Pilotta game handle. The search is given
 * the seat's view (pl_view) only, never the state; the solver sees all
 * four hands and is for the host (ctx does not reach it). */
#include "lplsearch.h"

#include <lauxlib.h>
#include <math.h>

#include "gameops.h"
#include "pilotta/notation.h"
#include "pilotta/play.h"
#include "pilotta/search.h"
#include "pilotta/solve.h"
#include "pilotta/view.h"

/* A card move as g:moves() writes it: the belote said when it counts. */
static void push_card(lua_State *L, const pl_State *s, int card)
{
    pl_Action a = {0, PL_PLAY, 0, -1, (uint8_t)card, (uint8_t)pl_belote_pending(s, card)};
    char buf[64];
    pl_action_str(s, &a, buf, sizeof buf, false);
    lua_pushstring(L, buf);
}

static void set_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void push_game(lua_State *L, const pl_State *s, int team, int value)
{
    pl_RoundScore o;
    pl_solve_score(s, team, value, &o);
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, o.game[0]);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, o.game[1]);
    lua_rawseti(L, -2, 2);
}

static bool in_play(const pl_State *s) { return s->phase == PL_PHASE_PLAY && s->bid_suit >= 0; }

int pl_lua_solve(lua_State *L, const pl_State *s)
{
    if (!in_play(s)) return dl_lua_nil_why(L, "solve: the cards are not being played");
    pl_Solver *sv = pl_solver_new(0);
    if (!sv) return luaL_error(L, "solve: out of memory");
    pl_SolveResult r;
    pl_solve(sv, s, &r);
    pl_solver_free(sv);
    lua_createtable(L, 0, 6);
    dl_lua_set_int(L, "points", r.value < 0 ? 0 : r.value);
    dl_lua_set_int(L, "team", r.team);
    dl_lua_set_int(L, "nodes", r.nodes);
    lua_pushboolean(L, r.value == PL_SOLVE_SWEEP || r.value == PL_SOLVE_SWEPT);
    lua_setfield(L, -2, "capot");
    push_game(L, s, r.team, r.value);
    lua_setfield(L, -2, "game");
    lua_createtable(L, r.nmoves, 0);
    for (int i = 0; i < r.nmoves; i++) {
        lua_createtable(L, 0, 3);
        push_card(L, s, r.moves[i].card);
        lua_setfield(L, -2, "move");
        dl_lua_set_int(L, "points", r.moves[i].value < 0 ? 0 : r.moves[i].value);
        push_game(L, s, r.team, r.moves[i].value);
        lua_setfield(L, -2, "game");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "moves");
    return 1;
}

/* An option of g:search: nil keeps def; a number outside [lo, hi] or
 * not whole (when whole) is an error naming it. */
static double option(lua_State *L, int t, const char *k, double def, double lo, double hi, bool whole)
{
    double v = def;
    const int type = lua_getfield(L, t, k);
    if (type != LUA_TNIL) {
        int ok = 0;
        if (type == LUA_TNUMBER) {
            v = lua_tonumber(L, -1);
            ok = v >= lo && v <= hi && (!whole || floor(v) == v);
        }
        if (!ok) {
            char a[32], b[32];
            snprintf(a, sizeof a, "%.15g", lo);
            snprintf(b, sizeof b, "%.15g", hi);
            return luaL_error(L, "search: %s must be a %s from %s to %s", k, whole ? "whole number" : "number", a, b);
        }
    }
    lua_pop(L, 1);
    return v;
}

/* The table's size for a memory cap in bytes: a quarter of it, as a power
 * of two of 16-byte entries, from 2^10 to 2^18. */
static int table_bits(double memory)
{
    int bits = 10;
    while (bits < 18 && (double)((size_t)16 << (bits + 1)) <= memory / 4) bits++;
    return bits;
}

int pl_lua_search(lua_State *L, const pl_State *s, int arg)
{
    if (lua_isnoneornil(L, arg)) {
        lua_settop(L, arg - 1);
        lua_newtable(L);
    }
    if (!lua_istable(L, arg)) return luaL_error(L, "search: a table of options expected");
    pl_SearchParams p;
    pl_search_defaults(&p);
    const int seat = (int)option(L, arg, "seat", s->turn, 0, 3, true);
    p.deals = (int)option(L, arg, "deals", p.deals, 1, 10000, true);
    p.seconds = option(L, arg, "time", 0, 0, 3600, false);
    p.seed = (uint64_t)option(L, arg, "seed", 1, 0, 9007199254740991.0, true);
    p.table_bits = table_bits(option(L, arg, "memory", 1e9, 0, 1e15, false));
    const int t = lua_getfield(L, arg, "infer");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN) return luaL_error(L, "search: infer must be true or false");
    p.infer = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!in_play(s)) return dl_lua_nil_why(L, "search: the cards are not being played");
    if (s->turn != seat) {
        lua_pushnil(L);
        lua_pushfstring(L, "search: seat %d is not to play (seat %d is)", seat, (int)s->turn);
        return 2;
    }
    pl_View v;
    pl_view(s, seat, &v);
    pl_SearchResult r;
    const int rc = pl_search(&v, &p, &r);
    if (rc == -2) return luaL_error(L, "search: out of memory");
    if (rc != 0) return dl_lua_nil_why(L, "search: no card to play now");
    lua_createtable(L, 0, 6);
    push_card(L, s, r.best);
    lua_setfield(L, -2, "best");
    set_num(L, "value", r.value);
    dl_lua_set_int(L, "deals", r.deals);
    dl_lua_set_int(L, "nodes", r.nodes);
    lua_pushboolean(L, r.exact);
    lua_setfield(L, -2, "exact");
    lua_createtable(L, r.nmoves, 0);
    for (int i = 0; i < r.nmoves; i++) {
        lua_createtable(L, 0, 4);
        push_card(L, s, r.moves[i].card);
        lua_setfield(L, -2, "move");
        set_num(L, "value", r.moves[i].value);
        set_num(L, "points", r.moves[i].points);
        set_num(L, "made", r.moves[i].made);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "moves");
    return 1;
}
