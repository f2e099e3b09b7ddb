/* The Pilotta game handle: a userdata with a locked metatable around a
 * pl_Game, with the methods of Diloti's handle (docs/architecture.md, "The
 * game interface"). Actions cross as text and fresh tables; an illegal
 * one is answered nil, "P24: why" with the game untouched.
 *
 * House-rule hooks (lua/scripts/variants.lua) live in the first user
 * value, as for Diloti: moves(list, state) filters or vetoes, score
 * (breakdown, state) may change the round's game points, match(state)
 * decides the match. The second user value keeps what is known of the
 * position (the hook's verdict) until the state changes; the third the
 * names score hooks gave their points, by round. */
#include "lpilotta.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lhandle.h"
#include "lplrules.h"
#include "lplsearch.h"
#include "lplview.h"
#include "ltext.h"
#include "pilotta/decl.h"
#include "pilotta/game.h"
#include "pilotta/notation.h"
#include "pilotta/position.h"
#include "pilotta/score.h"
#include "pilotta/search.h"

#define GAME "diloti.PilottaGame"
#define LABEL_MAX 40
/* A match score a score hook may reach (either sign): far above any
 * target (100,000 at most), far below where the engine's 32-bit score
 * would overflow, even with the standard points of 32,767 more rounds. */
#define SCORE_MAX 10000000

typedef struct {
    pl_Game *g;
    unsigned version; /* changes with every play, undo and new round */
    unsigned cached;  /* the version the kept table is for; 0: none */
    /* the world of the seat to move's view (g:simulate), kept for the
     * position: drawn once per decision, not once per call */
    unsigned world_version; /* 0: none */
    pl_State world;
} LPGame;

/* Calls through Pilotta handles (core.calls() adds them to Diloti's). */
static lua_Integer calls;

lua_Integer pl_lua_calls(void) { return calls; }

static LPGame *check_lgame(lua_State *L, int idx)
{
    calls++;
    LPGame *u = luaL_checkudata(L, idx, GAME);
    if (!u->g) luaL_error(L, "the game has been freed");
    return u;
}

static pl_Game *check_game(lua_State *L, int idx) { return check_lgame(L, idx)->g; }

static void push_game(lua_State *L, pl_Game *g, int from)
{
    LPGame *u = lua_newuserdatauv(L, sizeof *u, 3);
    u->g = g;
    u->version = 1;
    u->cached = 0;
    u->world_version = 0;
    luaL_setmetatable(L, GAME);
    dl_lua_init_values(L, from);
}

/* ---- actions as values ---- */

static void set_bool(lua_State *L, const char *k, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

static void push_text(lua_State *L, const pl_State *s, const pl_Action *a)
{
    char buf[160];
    pl_action_str(s, a, buf, sizeof buf, false);
    lua_pushstring(L, buf);
}

/* Fills the table on top with the action as g:moves(true) lists it. */
static void set_action_fields(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer index,
                              const char *text)
{
    if (text) lua_pushstring(L, text);
    else push_text(L, s, a);
    lua_setfield(L, -2, "text");
    if (index) dl_lua_set_int(L, "index", index);
    lua_pushstring(L, pl_lua_kinds[a->kind]);
    lua_setfield(L, -2, "kind");
    dl_lua_set_int(L, "seat", s->turn);
    char c = 0;
    switch (a->kind) {
    case PL_BID:
        dl_lua_set_int(L, "value", a->value == PL_CAPOT ? 250 : a->value * 10);
        set_bool(L, "capot", a->value == PL_CAPOT);
        /* fall through */
    case PL_TRUMP:
        if (a->suit >= 0) {
            c = pl_suit_char(a->suit);
            lua_pushlstring(L, &c, 1);
            lua_setfield(L, -2, "suit");
        }
        break;
    case PL_ANNOUNCE: {
        pl_lua_pushcards(L, a->cards);
        lua_setfield(L, -2, "cards");
        pl_Decl d;
        if (pl_decl_classify(a->cards, &d)) dl_lua_set_int(L, "value", d.value);
        break;
    }
    case PL_PLAY:
        pl_lua_pushcard(L, a->card);
        lua_setfield(L, -2, "card");
        set_bool(L, "belote", a->belote);
        break;
    default: break;
    }
}

static void push_action(lua_State *L, const pl_State *s, const pl_Action *a, lua_Integer index)
{
    lua_createtable(L, 0, 8);
    set_action_fields(L, s, a, index, NULL);
}

/* ---- what is known of the position ---- */

/* t.text (raw: a hook's table may carry metamethods), or the string. */
static const char *raw_text(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING) return lua_tostring(L, idx);
    if (!lua_istable(L, idx)) return NULL;
    lua_pushliteral(L, "text");
    lua_rawget(L, idx);
    const char *t = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1);
    return t;
}

/* Runs the moves hook; pushes {order = {core index, ...}, pos = {text =
 * its number}, reasons = {text = why}}. Raises on a failed hook or a list
 * that is no filter of the legal one. */
static void run_moves_hook(lua_State *L, int gi, void *ud)
{
    const LPGame *u = ud;
    const pl_ActionList *l = pl_game_legal(u->g);
    const pl_State *s = &u->g->s;
    if (!lua_checkstack(L, 12)) luaL_error(L, "out of Lua stack");
    lua_createtable(L, 0, l->n); /* text -> core index */
    const int core = lua_gettop(L);
    dl_lua_get_hook(L, gi, "moves");
    lua_createtable(L, l->n, 0);
    for (int i = 0; i < l->n; i++) {
        push_action(L, s, &l->a[i], 0);
        lua_getfield(L, -1, "text");
        lua_pushinteger(L, i + 1);
        lua_rawset(L, core);
        lua_rawseti(L, -2, i + 1);
    }
    pl_lua_pushstate(L, s, pl_game_ply(u->g));
    dl_lua_call_moves_hook(L);
    const int list = lua_gettop(L) - 2;
    const lua_Unsigned len = lua_rawlen(L, list);
    if (len > (lua_Unsigned)l->n) {
        lua_pushfstring(L, "house rule (moves hook) returned %I moves, more than the %d legal ones",
                        (lua_Integer)len, l->n);
        lua_error(L);
    }
    if (len == 0 && l->n > 0)
        dl_lua_hook_error(L, "P51: the house rules' moves hook left no legal action (engine error)");
    lua_createtable(L, 0, 4); /* verdict */
    lua_insert(L, list);      /* verdict, list, reasons, warning */
    lua_setfield(L, list, "warning");
    lua_setfield(L, list, "reasons");
    lua_createtable(L, (int)len, 0); /* order */
    lua_createtable(L, 0, (int)len); /* pos */
    for (lua_Unsigned i = 1; i <= len; i++) {
        lua_rawgeti(L, list + 1, (lua_Integer)i);
        const char *t = raw_text(L, -1);
        if (!t || lua_getfield(L, core, t) != LUA_TNUMBER)
            dl_lua_hook_error(L, "house rule (moves hook) returned '%s', which is not a legal move here",
                       t ? t : "a non-move");
        lua_rawseti(L, -4, (lua_Integer)i);
        if (lua_getfield(L, -2, t) == LUA_TNIL) {
            lua_pushinteger(L, (lua_Integer)i);
            lua_setfield(L, -4, t);
        }
        lua_pop(L, 2);
    }
    lua_setfield(L, list, "pos");
    lua_setfield(L, list, "order");
    lua_settop(L, list);
    lua_replace(L, core);
}

static void push_verdict(lua_State *L, int gi, LPGame *u)
{
    dl_lua_push_kept(L, gi, &u->cached, u->version, "verdict", run_moves_hook, u);
}

/* ---- the move argument ---- */

typedef struct {
    pl_Action a;
    lua_Integer index; /* its number in g:moves() */
} Found;

/* nil, why as a function's two results. */
static int fail(lua_State *L, const char *why)
{
    dl_lua_refuse(L, why);
    return 2;
}

static bool find_numbered(lua_State *L, int gi, LPGame *u, int arg, bool hook, Found *f)
{
    const pl_ActionList *l = pl_game_legal(u->g);
    lua_Integer n = l->n;
    if (hook) {
        push_verdict(L, gi, u);
        n = dl_lua_allowed_count(L);
    }
    lua_Integer i;
    if (!dl_lua_move_number(L, arg, n, &i)) return false;
    lua_Integer core = i;
    if (hook) {
        push_verdict(L, gi, u);
        lua_getfield(L, -1, "order");
        lua_rawgeti(L, -1, i);
        core = lua_tointeger(L, -1);
        lua_pop(L, 3);
    }
    f->a = l->a[core - 1];
    f->index = i;
    return true;
}

/* Finds the action an argument names among those allowed here; or pushes
 * nil and the reason g:play would give. Raises for an argument that
 * names no action at all. */
static bool find_move(lua_State *L, int gi, LPGame *u, int arg, Found *f)
{
    pl_Game *g = u->g;
    const bool hook = dl_lua_has_hook(L, gi, "moves");
    if (lua_type(L, arg) == LUA_TNUMBER) return find_numbered(L, gi, u, arg, hook, f);
    /* (a number in a table's text field is no text here) */
    const char *text = dl_lua_move_text(L, arg, false);
    char err[300] = "";
    pl_Action a;
    if (pl_action_parse(&g->s, text, &a, err, sizeof err)) {
        lua_pushnil(L);
        lua_pushfstring(L, "not a move: %s", err);
        return false;
    }
    a = pl_normalize(&g->s, &a);
    const pl_ActionList *l = pl_game_legal(g);
    f->index = 0;
    for (int i = 0; i < l->n && !f->index; i++)
        if (pl_action_eq(&l->a[i], &a)) f->index = i + 1;
    if (!f->index) {
        const char *why = pl_refusal(&g->s, &a, err, sizeof err);
        return dl_lua_refuse(L, why ? why : "P51: not a legal action here");
    }
    f->a = a;
    if (!hook) return true;
    char canon[160];
    pl_action_str(&g->s, &a, canon, sizeof canon, false);
    push_verdict(L, gi, u);
    return dl_lua_verdict_allows(L, canon, &f->index);
}

/* ---- round end hooks ---- */

/* Puts the round's game points to what a score hook said. */
static void rescore(pl_State *s, const int game[2])
{
    for (int t = 0; t < 2; t++) {
        s->score[t] -= s->last.game[t];
        s->last.game[t] = game[t];
    }
    s->winner = -1;
    pl_add_to_match(s);
}

/* The score hook may change each team's game points (breakdown[t].game)
 * and name them (breakdown.label). */
static const char *score_hook(lua_State *L, int gi, pl_Game *g)
{
    lua_pushnil(L);
    dl_lua_set_label(L, gi, g->s.round);
    if (g->s.last.thrown_in || !dl_lua_get_hook(L, gi, "score")) return NULL;
    pl_lua_pushbreakdown(L, &g->s.last);
    pl_lua_pushstate(L, &g->s, pl_game_ply(g));
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) return dl_lua_hook_warning(L, "score", "scoring");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return NULL;
    }
    const int t = lua_gettop(L);
    int game[2] = {0, 0};
    const char *bad = NULL;
    for (int k = 0; k < 2 && !bad; k++) {
        if (lua_rawgeti(L, t, k) != LUA_TTABLE) {
            bad = lua_pushfstring(L, "team %d is missing", k);
            break;
        }
        lua_pushliteral(L, "game");
        lua_rawget(L, -2);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < -99999 || lua_tointeger(L, -1) > 99999)
            bad = lua_pushfstring(L, "team %d's game must be an integer", k);
        else if (llabs((long long)g->s.score[k] - g->s.last.game[k] + lua_tointeger(L, -1)) > SCORE_MAX)
            bad = lua_pushfstring(L, "team %d's match score would pass %d", k, SCORE_MAX);
        else
            game[k] = (int)lua_tointeger(L, -1);
        lua_pop(L, bad ? 0 : 2);
    }
    if (!bad) bad = dl_lua_read_label(L, t, LABEL_MAX);
    if (bad) return dl_lua_bad_breakdown(L, t, bad);
    dl_lua_set_label(L, gi, g->s.round);
    rescore(&g->s, game);
    lua_settop(L, t - 1);
    return NULL;
}

static const char *round_hooks(lua_State *L, int gi, pl_Game *g)
{
    const char *warn = score_hook(L, gi, g);
    if (warn || g->s.last.thrown_in) return warn;
    if (dl_lua_get_hook(L, gi, "match")) {
        pl_lua_pushstate(L, &g->s, pl_game_ply(g));
        int d;
        warn = dl_lua_call_match_hook(L, 2, &d);
        if (d > -2) {
            g->s.winner = (int8_t)d;
            g->s.phase = d >= 0 ? PL_PHASE_MATCH_OVER : PL_PHASE_ROUND_OVER;
        }
    }
    return warn;
}

/* ---- methods ---- */

/* count() -> n, true: as Diloti's g:count (a Pilotta list is short, so
 * it is always listed whole and the count is exact). */
static int g_count(lua_State *L)
{
    lua_pushinteger(L, pl_game_legal(check_game(L, 1))->n);
    lua_pushboolean(L, 1);
    return 2;
}

static int g_moves(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    const bool structured = lua_toboolean(L, 2);
    const pl_ActionList *l = pl_game_legal(u->g);
    const pl_State *s = &u->g->s;
    if (!dl_lua_has_hook(L, 1, "moves")) {
        lua_createtable(L, l->n, 0);
        for (int i = 0; i < l->n; i++) {
            if (structured) push_action(L, s, &l->a[i], i + 1);
            else push_text(L, s, &l->a[i]);
            lua_rawseti(L, -2, i + 1);
        }
        return 1;
    }
    push_verdict(L, 1, u);
    lua_getfield(L, -1, "order");
    const int n = (int)lua_rawlen(L, -1);
    lua_createtable(L, n, 0);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -2, i);
        const pl_Action *a = &l->a[lua_tointeger(L, -1) - 1];
        lua_pop(L, 1);
        if (structured) push_action(L, s, a, i);
        else push_text(L, s, a);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

/* Sets what an action did on the table at the top of the stack, from the
 * state after it: the trick it completed, the belote, the end of the
 * round. */
static void set_outcome(lua_State *L, const pl_Action *a, bool trick_over, bool round_over, const pl_State *after)
{
    if (trick_over) {
        const int k = pl_trick_index(after) - 1, w = pl_trick_winner(after, k);
        pl_Set cards = 0;
        for (int i = 0; i < 4; i++) cards |= PL_BIT(after->played[4 * k + i]);
        lua_createtable(L, 0, 4);
        dl_lua_set_int(L, "winner", w);
        dl_lua_set_int(L, "side", pl_team(w));
        dl_lua_set_int(L, "points", pl_set_points(cards, after->bid_suit) + (k == 7 ? 10 : 0));
        dl_lua_set_int(L, "number", k + 1);
        lua_setfield(L, -2, "trick_over");
    }
    if (a->kind == PL_PLAY && a->belote) set_bool(L, "belote", true);
    set_bool(L, "xeri", false);
    set_bool(L, "dealt", false);
    set_bool(L, "redealt", false);
    set_bool(L, "round_over", round_over);
    set_bool(L, "thrown_in", round_over && after->last.thrown_in);
    set_bool(L, "match_over", false);
}

/* The effect of the last action: the action as moves(true) lists it,
 * when it was played, the trick it completed, the end of the round. */
static void push_effect(lua_State *L, const pl_Game *g, lua_Integer index, bool with_table)
{
    const pl_Record *r = &g->rec[g->nrec - 1];
    const pl_State *b = &r->before;
    lua_createtable(L, 0, 20);
    set_action_fields(L, b, &r->action, index, r->text);
    dl_lua_set_int(L, "side", pl_team(r->seat));
    dl_lua_set_int(L, "round", b->round);
    dl_lua_set_int(L, "deal", 1);
    dl_lua_set_int(L, "ply", (lua_Integer)(g->nrec - 1 - g->round_start));
    dl_lua_set_int(L, "number", (lua_Integer)g->nrec);
    dl_lua_set_int(L, "trick", pl_trick_index(b) + 1);
    if (with_table) {
        const int k = pl_trick_index(b), n = pl_trick_count(b);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            pl_lua_pushcard(L, b->played[4 * k + i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "table");
    }
    set_outcome(L, &r->action, r->trick_over, r->round_over, &g->s);
}

static int g_play(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    pl_Game *g = u->g;
    Found f;
    if (!find_move(L, 1, u, 2, &f)) return 2;
    char err[300] = "";
    if (pl_game_play(g, &f.a, err, sizeof err)) return dl_lua_refuse(L, err);
    int lost = 0; /* a house rule's moves hook lost its call here */
    if (dl_lua_has_hook(L, 1, "moves")) {
        push_verdict(L, 1, u); /* (still this position's: kept until version changes) */
        lost = dl_lua_take_moves_warning(L);
    }
    u->version++;
    push_effect(L, g, f.index, lua_toboolean(L, 3));
    const int effect = lua_gettop(L);
    const char *warn = g->rec[g->nrec - 1].round_over ? round_hooks(L, 1, g) : NULL;
    warn = dl_lua_join_warnings(L, lost, warn);
    return dl_lua_play_answer(L, effect, g->s.phase == PL_PHASE_MATCH_OVER, warn);
}

/* The seat's world (pl_sealed_state) when the seat is to act; else nil
 * and why pushed. Only the seat to act has one, so the one kept is its. */
static bool sealed_world(lua_State *L, LPGame *u, int arg, pl_State *w)
{
    const pl_State *s = &u->g->s;
    lua_Integer seat = luaL_checkinteger(L, arg);
    luaL_argcheck(L, seat >= 0 && seat < 4, arg, "no such seat (Pilotta's seats are 0 to 3)");
    if (s->phase >= PL_PHASE_ROUND_OVER || s->turn != seat) {
        lua_pushnil(L);
        lua_pushfstring(L, "seat %d is not the one to act", (int)seat);
        return false;
    }
    if (u->world_version != u->version) {
        if (!pl_sealed_state(s, (int)seat, &u->world)) luaL_error(L, "out of memory");
        u->world_version = u->version;
    }
    *w = u->world;
    return true;
}

/* simulate(seat, action) -> effect | nil, reason: what the seat's own
 * action would do (the fields of g:play's effect), played on the world
 * of the seat's view, never on the game, so that its cost depends on
 * nothing the seat cannot see (docs/security.md). The action is checked
 * against what the game allows the seat now (the house rules' verdict
 * included); nothing is worked out for another seat: no list of the next
 * seat's actions, no score or match hook. */
static int g_simulate(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    pl_State before;
    if (!sealed_world(L, u, 2, &before)) return 2;
    Found f;
    if (!find_move(L, 1, u, 3, &f)) return 2;
    char err[300];
    /* (the seat's own actions are the same in its world: a refusal here
     * would be an engine error, answered as one) */
    if (pl_refusal(&before, &f.a, err, sizeof err)) return fail(L, err);
    pl_State after = before;
    pl_apply_legal(&after, &f.a);
    const bool trick_over = f.a.kind == PL_PLAY && after.nplayed > before.nplayed && (after.nplayed & 3) == 0;
    lua_createtable(L, 0, 16);
    set_action_fields(L, &before, &f.a, f.index, NULL);
    set_outcome(L, &f.a, trick_over, after.phase >= PL_PHASE_ROUND_OVER, &after);
    return 1;
}

/* sealed(seat) -> position | nil, reason: the world g:simulate plays on
 * for the seat to act, as a position with every hand written out (the
 * tests compare it across games that differ only in hidden cards). */
static int g_sealed(lua_State *L)
{
    pl_State w;
    if (!sealed_world(L, check_lgame(L, 1), 2, &w)) return 2;
    char buf[PL_POSITION_MAX];
    pl_position_str(&w, buf, sizeof buf, 0);
    lua_pushstring(L, buf);
    return 1;
}

/* A sentence saying what a legal action does. */
static void push_explain(lua_State *L, const pl_State *s, const pl_Action *a)
{
    char t[160];
    pl_action_str(s, a, t, sizeof t, false);
    switch (a->kind) {
    case PL_PASS: lua_pushfstring(L, "seat %d passes", s->turn); break;
    case PL_BID: lua_pushfstring(L, "seat %d bids %s (P12-P14)", s->turn, t); break;
    case PL_CONTRA: lua_pushfstring(L, "seat %d says contra: the contract counts double (P16)", s->turn); break;
    case PL_RECONTRA: lua_pushfstring(L, "seat %d says recontra: the contract counts four times (P17)", s->turn); break;
    case PL_TRUMP: lua_pushfstring(L, "seat %d names trumps: %s", s->turn, t); break;
    case PL_ANNOUNCE: {
        pl_Decl d;
        char w[64] = "a declaration";
        if (pl_decl_classify(a->cards, &d)) pl_decl_describe(&d, w, sizeof w);
        lua_pushfstring(L, "seat %d announces %s (P35)", s->turn, w);
        break;
    }
    case PL_SHOW: lua_pushfstring(L, "seat %d shows its declarations (P38)", s->turn); break;
    default: lua_pushfstring(L, "seat %d plays %s", s->turn, t);
    }
}

static int g_check(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    Found f;
    if (!find_move(L, 1, u, 2, &f)) return dl_lua_check_refused(L);
    lua_pushboolean(L, 1);
    push_explain(L, &u->g->s, &f.a);
    return 2;
}

static int g_parse(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    Found f;
    if (!find_move(L, 1, u, 2, &f)) return 2;
    push_action(L, &u->g->s, &f.a, f.index);
    return 1;
}

static int g_undo(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    const bool done = pl_game_undo(u->g);
    if (done) u->version++;
    lua_pushboolean(L, done);
    return 1;
}

static int g_next_round(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    pl_Game *g = u->g;
    if (g->s.phase != PL_PHASE_ROUND_OVER) {
        lua_pushnil(L);
        lua_pushstring(L, g->s.phase == PL_PHASE_MATCH_OVER ? "P49: the match is over"
                                                            : "P10: the round is not over yet");
        return 2;
    }
    if (!pl_game_next_round(g)) return luaL_error(L, "out of memory");
    u->version++;
    return dl_lua_push_round(L, g->s.round, g->s.dealer, 1);
}

static int g_clone(lua_State *L)
{
    LPGame *u = check_lgame(L, 1);
    pl_Game *c = pl_game_clone(u->g);
    if (!c) return luaL_error(L, "out of memory");
    push_game(L, c, 1);
    return 1;
}

static bool to_move(const pl_State *s) { return s->phase < PL_PHASE_ROUND_OVER; }

static int g_turn(lua_State *L)
{
    const pl_State *s = &check_game(L, 1)->s;
    if (to_move(s)) lua_pushinteger(L, s->turn);
    else lua_pushnil(L);
    return 1;
}

static int g_phase(lua_State *L)
{
    lua_pushstring(L, pl_lua_phases[check_game(L, 1)->s.phase]);
    return 1;
}

static int g_where(lua_State *L)
{
    const pl_Game *g = check_game(L, 1);
    const pl_State *s = &g->s;
    lua_pushstring(L, pl_lua_phases[s->phase]);
    if (to_move(s)) lua_pushinteger(L, s->turn);
    else lua_pushnil(L);
    lua_pushinteger(L, s->round);
    lua_pushinteger(L, 1);
    lua_pushinteger(L, pl_game_ply(g));
    return 5;
}

static int g_view(lua_State *L)
{
    const pl_Game *g = check_game(L, 1);
    lua_Integer seat = luaL_checkinteger(L, 2);
    luaL_argcheck(L, seat >= 0 && seat < 4, 2, "no such seat (Pilotta's seats are 0 to 3)");
    pl_lua_pushview(L, &g->s, (int)seat, pl_game_ply(g));
    return 1;
}

static int g_state(lua_State *L)
{
    const pl_Game *g = check_game(L, 1);
    pl_lua_pushstate(L, &g->s, pl_game_ply(g));
    return 1;
}

/* position([hide]): hide true hides every hand, a seat every hand but
 * that seat's. */
static int g_position(lua_State *L)
{
    const pl_Game *g = check_game(L, 1);
    unsigned hide = 0;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        lua_Integer seat = luaL_checkinteger(L, 2);
        luaL_argcheck(L, seat >= 0 && seat < 4, 2, "no such seat (Pilotta's seats are 0 to 3)");
        hide = 0xFu & ~(1u << seat);
    } else if (lua_toboolean(L, 2)) {
        hide = 0xF;
    }
    char buf[PL_POSITION_MAX];
    pl_position_str(&g->s, buf, sizeof buf, hide);
    lua_pushstring(L, buf);
    return 1;
}

static int g_rules(lua_State *L)
{
    pl_lua_pushrules(L, &check_game(L, 1)->s.rules);
    return 1;
}

static int g_game(lua_State *L)
{
    check_game(L, 1);
    lua_pushliteral(L, "pilotta");
    return 1;
}

/* The breakdown of the round that record i ended, as it was scored. */
static const pl_RoundScore *scored(const pl_Game *g, size_t i)
{
    return i + 1 < g->nrec ? &g->rec[i + 1].before.last : &g->s.last;
}

static int g_result(lua_State *L)
{
    const pl_Game *g = check_game(L, 1);
    const pl_State *s = &g->s;
    lua_createtable(L, 0, 7);
    const bool done = s->phase >= PL_PHASE_ROUND_OVER;
    if (done || s->round > 1) {
        pl_lua_pushbreakdown(L, &s->last);
        dl_lua_push_label(L, 1, done ? s->round : s->round - 1);
        lua_setfield(L, -2, "label");
        lua_setfield(L, -2, "round");
    }
    int won[2] = {0, 0};
    for (size_t i = 0; i < g->nrec; i++) {
        if (!g->rec[i].round_over) continue;
        const pl_RoundScore *r = scored(g, i);
        if (r->game[0] != r->game[1]) won[r->game[0] > r->game[1] ? 0 : 1]++;
    }
    lua_createtable(L, 2, 0);
    for (int t = 0; t < 2; t++) lua_pushinteger(L, s->score[t]), lua_rawseti(L, -2, t);
    lua_setfield(L, -2, "score");
    lua_createtable(L, 2, 0);
    for (int t = 0; t < 2; t++) lua_pushinteger(L, won[t]), lua_rawseti(L, -2, t);
    lua_setfield(L, -2, "rounds_won");
    set_bool(L, "over", s->phase == PL_PHASE_MATCH_OVER);
    if (s->winner >= 0) dl_lua_set_int(L, "winner", s->winner);
    dl_lua_set_int(L, "rounds", s->round);
    dl_lua_set_int(L, "target", s->rules.target);
    return 1;
}

/* What seat may read of record r: another seat's announcement by its
 * kind and value only, and another seat's card without "nobelote" (a
 * declined belote would tell that it holds the other card; P50). */
static void push_history_text(lua_State *L, const pl_Record *r, int seat)
{
    if (seat < 0 || r->next_round || r->seat == seat || (r->action.kind != PL_ANNOUNCE &&
                                                         (r->action.kind != PL_PLAY || r->action.belote))) {
        lua_pushstring(L, r->text);
        return;
    }
    if (r->action.kind == PL_PLAY) {
        pl_lua_pushcard(L, r->action.card);
        return;
    }
    pl_Decl d;
    char w[64] = "a declaration";
    if (pl_decl_classify(r->action.cards, &d)) pl_decl_describe(&d, w, sizeof w);
    lua_pushfstring(L, "announce (%s)", w);
}

static int g_history(lua_State *L)
{
    const pl_Game *g = check_game(L, 1);
    lua_Integer seat = luaL_optinteger(L, 2, -1);
    luaL_argcheck(L, seat >= -1 && seat < 4, 2, "no such seat (Pilotta's seats are 0 to 3)");
    lua_createtable(L, (int)g->nrec, 0);
    for (size_t i = 0; i < g->nrec; i++) {
        const pl_Record *r = &g->rec[i];
        lua_createtable(L, 0, 8);
        push_history_text(L, r, (int)seat);
        lua_setfield(L, -2, "move");
        dl_lua_set_int(L, "round", r->before.round);
        dl_lua_set_int(L, "deal", 1);
        if (r->next_round) {
            lua_pushliteral(L, "next-round");
            lua_setfield(L, -2, "kind");
        } else {
            dl_lua_set_int(L, "seat", r->seat);
            lua_pushstring(L, pl_lua_kinds[r->action.kind]);
            lua_setfield(L, -2, "kind");
        }
        set_bool(L, "trick_over", r->trick_over);
        set_bool(L, "round_over", r->round_over);
        set_bool(L, "xeri", false);
        set_bool(L, "dealt", false);
        set_bool(L, "redealt", false);
        if (r->round_over) {
            pl_lua_pushbreakdown(L, scored(g, i));
            dl_lua_push_label(L, 1, r->before.round);
            lua_setfield(L, -2, "label");
            lua_setfield(L, -2, "breakdown");
        }
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int g_search(lua_State *L) { return pl_lua_search(L, &check_game(L, 1)->s, 2); }

static int g_solve(lua_State *L) { return pl_lua_solve(L, &check_game(L, 1)->s); }

static int g_tostring(lua_State *L)
{
    LPGame *u = luaL_checkudata(L, 1, GAME);
    if (!u->g) {
        lua_pushliteral(L, "pilotta game (freed)");
        return 1;
    }
    const pl_State *s = &u->g->s;
    lua_pushfstring(L, "pilotta game: round %d, %s, seat %d to act, score %d-%d", (int)s->round,
                    pl_lua_phases[s->phase], s->turn, (int)s->score[0], (int)s->score[1]);
    return 1;
}

static int g_gc(lua_State *L)
{
    LPGame *u = luaL_checkudata(L, 1, GAME);
    pl_game_free(u->g);
    u->g = NULL;
    return 0;
}

/* ---- constructor and rules ---- */

static lua_Integer opt_int(lua_State *L, const char *k, lua_Integer def, const char *what)
{
    lua_Integer v = def;
    if (lua_getfield(L, 1, k) != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "%s: expected an integer%s", k, what);
        v = lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

/* new{rules = table, seed = n, dealer = n, position = text, hooks = {...}} */
static int l_new(lua_State *L)
{
    calls++;
    luaL_checktype(L, 1, LUA_TTABLE);
    pl_Rules r;
    pl_rules_default(&r);
    if (lua_getfield(L, 1, "rules") == LUA_TTABLE) pl_lua_torules(L, -1, &r);
    lua_pop(L, 1);
    const lua_Integer seed = opt_int(L, "seed", 0, "");
    const lua_Integer dealer = opt_int(L, "dealer", -1, " seat");
    if (dealer < -1 || dealer > 3) {
        lua_pushnil(L);
        lua_pushliteral(L, "P1: four players, seats 0 to 3: no such dealer");
        return 2;
    }
    pl_Game *g;
    if (lua_getfield(L, 1, "position") == LUA_TSTRING) {
        char err[300] = "";
        g = pl_game_from_position(&r, lua_tostring(L, -1), (uint64_t)seed, err, sizeof err);
        if (!g) {
            err[sizeof err - 1] = '\0';
            return fail(L, err[0] ? err : "the position could not be loaded");
        }
    } else {
        const char *why = NULL;
        g = pl_game_new(&r, (uint64_t)seed, (int)dealer, &why);
        if (!g) return fail(L, why);
    }
    lua_pop(L, 1);
    push_game(L, g, 0);
    dl_lua_set_hooks(L, 1);
    return 1;
}

int pl_lua_rules(lua_State *L)
{
    pl_Rules r;
    pl_rules_default(&r);
    pl_lua_pushrules(L, &r);
    return 1;
}

int pl_lua_check_rules(lua_State *L)
{
    pl_Rules r;
    pl_rules_default(&r);
    pl_lua_torules(L, 1, &r);
    const char *e = pl_rules_check(&r);
    if (e) return fail(L, e);
    lua_pushboolean(L, 1);
    return 1;
}

int pl_lua_opengame(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"moves", g_moves},   {"count", g_count},   {"play", g_play},       {"check", g_check},   {"parse", g_parse},
        {"undo", g_undo},     {"next_round", g_next_round}, {"clone", g_clone}, {"close", g_gc},
        {"simulate", g_simulate}, {"sealed", g_sealed},
        {"turn", g_turn},     {"phase", g_phase},     {"where", g_where},   {"view", g_view},
        {"state", g_state},   {"position", g_position}, {"rules", g_rules}, {"result", g_result},
        {"history", g_history}, {"search", g_search}, {"game", g_game},     {"solve", g_solve},
        {NULL, NULL}};
    dl_lua_handle_type(L, GAME, methods, g_tostring, g_gc);
    lua_pushcfunction(L, l_new);
    return 1;
}
