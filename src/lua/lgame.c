/* The game handle for Lua: a userdata with a locked metatable around a
 * dl_Game. Cards, moves and views cross as plain strings and fresh tables,
 * so Lua never holds a pointer into C memory. Illegal moves come back as
 * nil, "<rule id>: reason"; errors are for programming mistakes.
 *
 * A move is named by its text, by a table with a text field (an entry of
 * g:moves(true)) or by its number in g:moves(). g:play answers with what
 * the move did, read from the game's own record of it, so that a front end
 * needs no second look at the position to tell the story of a move.
 *
 * House-rule hooks live in the userdata's user value. They are host
 * functions (lua/scripts/variants.lua) that call into each variant's own Lua
 * state (src/lua/box.c), so they get and give plain data only:
 *   moves(list, state) -> allowed list [, reasons]   (filter or veto)
 *   score(breakdown, state) -> breakdown             (adjust a round)
 *   match(state) -> nil | winner side | false        (decide the match)
 * A score hook may name the points it adds (breakdown.label): the name is
 * kept per round in the third user value, as plain text. */
#include "lgame.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lhandle.h"
#include "lrules.h"
#include "ltext.h"
#include "diloti/legal.h"
#include "lview.h"
#include "diloti/notation.h"
#include "diloti/score.h"
#include "diloti/search.h"
#include "diloti/view.h"

#define GAME "diloti.Game"

/* What is known of a position is kept in the second user value until the
 * state changes: the legal moves by text and the house rules' verdict, so
 * that the hook runs once per position and checking a move costs a lookup,
 * not a rebuilt list (`moves --explain` checks every move). */
typedef struct {
    dl_Game *g;
    unsigned version; /* changes with every play, undo and new round */
    unsigned cached;  /* the version the kept table is for; 0: none */
    /* the world of the seat to move's view (g:simulate), kept for the
     * position: drawn once per decision, not once per call */
    unsigned world_version; /* 0: none */
    dl_State world;
} LGame;

/* Calls made to the engine through game handles and core.new: every
 * method checks its handle exactly once, so counting there counts calls
 * (core.calls(), for measuring how chatty a front end is). */
static lua_Integer calls;

lua_Integer dl_lua_calls(void) { return calls; }

static LGame *check_lgame(lua_State *L, int idx)
{
    calls++;
    LGame *u = luaL_checkudata(L, idx, GAME);
    if (!u->g) luaL_error(L, "the game has been freed");
    return u;
}

static dl_Game *check_game(lua_State *L, int idx)
{
    return check_lgame(L, idx)->g;
}

/* User values: 1 {hooks = ...}, shared with clones; 2 what is known of
 * the position (dl_lua_push_cache); 3 {[round] = label}, the names score
 * hooks gave the points they added, the game's own (a clone gets a
 * copy). */
static void push_game(lua_State *L, dl_Game *g, int hooks_from)
{
    LGame *u = lua_newuserdatauv(L, sizeof *u, 3);
    u->g = g;
    u->version = 1;
    u->cached = 0;
    u->world_version = 0;
    luaL_setmetatable(L, GAME);
    dl_lua_init_values(L, hooks_from);
}

/* t.text for a table at idx, read raw: a table a hook returned may carry
 * metamethods, which must not run outside the sandbox. */
static const char *raw_text(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) return NULL;
    lua_pushliteral(L, "text");
    lua_rawget(L, idx);
    const char *t = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1); /* the string stays alive in the table */
    return t;
}

/* ---- moves as values ---- */

static const char *const KINDS[] = {"lay", "capture", "plain", "raise", "group", "claim", "keep"};

static void push_move_text(lua_State *L, const dl_State *s, const dl_Move *m)
{
    char buf[200];
    dl_move_str(s, m, buf, sizeof buf, false);
    lua_pushstring(L, buf);
}

/* Fills the table on top with the move as g:moves(true) lists it. index:
 * its number in g:moves(), or 0 for none (the list the moves hook gets is
 * not yet numbered); text: the move's text when known already, or NULL. */
static void set_move_fields(lua_State *L, const dl_State *s, const dl_Move *m, lua_Integer index,
                            const char *text)
{
    if (text)
        lua_pushstring(L, text);
    else
        push_move_text(L, s, m);
    lua_setfield(L, -2, "text");
    if (index) {
        lua_pushinteger(L, index);
        lua_setfield(L, -2, "index");
    }
    lua_pushstring(L, KINDS[m->kind]);
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, s->turn);
    lua_setfield(L, -2, "seat");
    if (m->kind == DL_CLAIM || m->kind == DL_KEEP) return;
    dl_lua_pushcard(L, m->card);
    lua_setfield(L, -2, "card");
    if (m->value) {
        lua_pushinteger(L, m->value);
        lua_setfield(L, -2, "value");
    }
    lua_newtable(L);
    int n = 0;
    for (dl_Set l = m->take & DL_DECK; l; l &= l - 1) {
        dl_lua_pushcard(L, dl_first(l));
        lua_rawseti(L, -2, ++n);
    }
    for (int i = 0; i < s->ndecl; i++) {
        if (!(m->take & DL_DECL_BIT(i))) continue;
        const dl_Decl *d = &s->decl[i];
        lua_pushfstring(L, "%c%d@%d", d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, d->owner);
        lua_rawseti(L, -2, ++n);
    }
    lua_setfield(L, -2, "takes");
}

static void push_move_table(lua_State *L, const dl_State *s, const dl_Move *m, lua_Integer index)
{
    lua_createtable(L, 0, 7);
    set_move_fields(L, s, m, index, NULL);
}

static void push_core_index(lua_State *L, int gi, LGame *u);

/* The legal moves as the core lists them (bounded: moves.h); raises only
 * when memory ran out. */
static const dl_MoveList *listed(lua_State *L, dl_Game *g)
{
    const dl_MoveList *l = dl_game_moves(g);
    if (!l) luaL_error(L, "out of memory listing the legal moves");
    return l;
}

/* What g:moves() says beside a list cut at its bound (issue 24). */
static void push_cut_note(lua_State *L, const dl_MoveList *l)
{
    lua_pushfstring(L, "a crowded table: %d moves listed, not every legal one (at most %d of "
                       "one card's captures, or of its declarations or groups of one value; "
                       "%d in all); any legal move may still be played by its text",
                    (int)l->n, (int)l->share, DL_LIST_MAX);
}

/* Runs the moves hook on the position and pushes its verdict:
 * {order = {text, ...}, index = {text = core index}, pos = {text = its
 * number in order}, reasons = {text = why}}.
 * Raises on a hook failure or a list that is not a filter of the core's. */
static void run_moves_hook(lua_State *L, int gi, void *ud)
{
    LGame *u = ud;
    dl_Game *g = u->g;
    const dl_MoveList *l = listed(L, g);
    if (!lua_checkstack(L, 12)) luaL_error(L, "out of Lua stack");
    push_core_index(L, gi, u);
    int core = lua_gettop(L);
    lua_createtable(L, (int)l->n, 0);
    for (size_t i = 0; i < l->n; i++) {
        push_move_table(L, &g->s, &l->m[i], 0);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    dl_lua_get_hook(L, gi, "moves");
    lua_insert(L, -2);
    dl_lua_pushstate(L, &g->s, -1);
    dl_lua_call_moves_hook(L);
    int list = lua_gettop(L) - 2;
    lua_Unsigned len = lua_rawlen(L, list);
    /* A hook filters or vetoes, so it never returns more moves than there
     * are: past one more than that, the list is refused unread. */
    lua_Unsigned n = len > l->n + 1 ? l->n + 1 : len;
    lua_createtable(L, 0, 5);
    lua_insert(L, list); /* verdict, list, reasons, warning */
    lua_setfield(L, list, "warning");
    lua_setfield(L, list, "reasons");
    lua_createtable(L, (int)n, 0); /* order */
    lua_createtable(L, 0, (int)n); /* index */
    lua_createtable(L, 0, (int)n); /* pos */
    for (lua_Unsigned i = 1; i <= n; i++) {
        /* A hook filters or vetoes; it cannot invent moves. */
        lua_rawgeti(L, list + 1, (lua_Integer)i);
        const char *t = raw_text(L, -1);
        lua_pop(L, 1);
        if (!t || lua_getfield(L, core, t) != LUA_TNUMBER)
            dl_lua_hook_error(L, "house rule (moves hook) returned %s%s%s, which is not a legal move here",
                       t ? "'" : "", t ? t : "a non-move", t ? "'" : "");
        lua_setfield(L, -3, t);
        /* a move listed twice keeps the number it is first shown with */
        if (lua_getfield(L, -1, t) == LUA_TNIL) {
            lua_pushinteger(L, (lua_Integer)i);
            lua_setfield(L, -3, t);
        }
        lua_pop(L, 1);
        lua_pushstring(L, t);
        lua_rawseti(L, -4, (lua_Integer)i);
    }
    if (len > l->n)
        dl_lua_hook_error(L, "house rule (moves hook) returned %I moves, more than the %I legal ones",
                   (lua_Integer)len, (lua_Integer)l->n);
    if (len == 0 && l->n > 0)
        dl_lua_hook_error(L, "D20: the house rules' moves hook left seat %d no legal move (engine error)",
                   g->s.turn);
    lua_setfield(L, list, "pos");
    lua_setfield(L, list, "index");
    lua_setfield(L, list, "order");
    lua_settop(L, list);
    lua_replace(L, core);
}

/* Pushes {text = index} of the core's legal moves in this position. */
static void fill_core_index(lua_State *L, int gi, void *ud)
{
    const LGame *u = ud;
    (void)gi;
    const dl_MoveList *l = listed(L, u->g);
    char buf[200];
    lua_createtable(L, 0, (int)l->n);
    for (size_t i = 0; i < l->n; i++) {
        dl_move_str(&u->g->s, &l->m[i], buf, sizeof buf, false);
        lua_pushinteger(L, (lua_Integer)i + 1);
        lua_setfield(L, -2, buf);
    }
}

static void push_core_index(lua_State *L, int gi, LGame *u)
{
    dl_lua_push_kept(L, gi, &u->cached, u->version, "core", fill_core_index, u);
}

/* Pushes the house rules' verdict on the position (see run_moves_hook).
 * The game has a moves hook. */
static void push_verdict(lua_State *L, int gi, LGame *u)
{
    /* (a hook that changed the state would have been a bug of ours: none
     * can reach the game) */
    dl_lua_push_kept(L, gi, &u->cached, u->version, "verdict", run_moves_hook, u);
}

/* A move an argument names, found among the moves allowed here. */
typedef struct {
    dl_Move m;
    lua_Integer index; /* its number in g:moves() */
} Found;

/* The i-th move of g:moves() (with a moves hook, of its filtered list). */
static bool find_numbered(lua_State *L, int gi, LGame *u, int arg, bool hook, Found *f)
{
    const dl_MoveList *l = listed(L, u->g);
    lua_Integer n = (lua_Integer)l->n;
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
        lua_getfield(L, -2, "index");
        lua_rawgeti(L, -2, i);
        lua_rawget(L, -2);
        core = lua_tointeger(L, -1);
        lua_pop(L, 4);
    }
    f->m = l->m[core - 1];
    f->index = i;
    return true;
}

/* Finds the move named by the argument at arg: returns true with *f set,
 * or pushes nil and the reason g:play would give and returns false.
 * Raises for an argument that names no move at all. With `again`, the
 * caller expects more questions about this position, so the legal moves
 * are kept by text (`moves --explain` checks every move); a move about
 * to be played is looked for in the list instead. */
static bool find_move(lua_State *L, int gi, LGame *u, int arg, bool again, Found *f)
{
    dl_Game *g = u->g;
    const dl_MoveList *l = listed(L, g);
    const bool hook = dl_lua_has_hook(L, gi, "moves");
    if (lua_type(L, arg) == LUA_TNUMBER) return find_numbered(L, gi, u, arg, hook, f);
    const char *text = dl_lua_move_text(L, arg, true);
    char err[300] = "", canon[200];
    if (dl_move_parse(&g->s, text, &f->m, err, sizeof err)) {
        lua_pushnil(L);
        lua_pushfstring(L, "not a move: %s", err);
        return false;
    }
    /* Legal moves are found in the kept list; only a refusal is worked out. */
    f->index = 0;
    if (!hook && !again) {
        for (size_t i = 0; i < l->n && !f->index; i++)
            if (dl_move_eq(&l->m[i], &f->m)) f->index = (lua_Integer)i + 1;
    } else {
        dl_move_str(&g->s, &f->m, canon, sizeof canon, false);
        push_core_index(L, gi, u);
        if (lua_getfield(L, -1, canon) == LUA_TNUMBER) f->index = lua_tointeger(L, -1);
        lua_pop(L, 2);
    }
    if (!f->index) {
        /* Not listed: illegal, or legal beyond a cut list's bound. The
         * move is judged on its own, never by listing more. */
        if (dl_game_refusal(g, &f->m, err, sizeof err)) return dl_lua_refuse(L, err);
        if (!hook) return true;
        return dl_lua_refuse(L, "house rule: this table has more legal moves than the engine "
                                "lists, and the house rules' moves hook judges only the listed "
                                "ones: choose one of 'moves'");
    }
    if (!hook) return true;
    push_verdict(L, gi, u);
    return dl_lua_verdict_allows(L, canon, &f->index);
}

/* ---- round end hooks ---- */

static void push_breakdown(lua_State *L, const dl_State *s)
{
    dl_lua_pushbreakdown(L, &s->last, dl_nsides(&s->rules));
    lua_pushinteger(L, s->last.winner);
    lua_setfield(L, -2, "winner");
}

/* The longest name a score hook may give its points, in bytes. */
#define LABEL_MAX 40

/* Reads a hook's breakdown (raw reads only); returns NULL or what is
 * wrong with it. */
static const char *read_breakdown(lua_State *L, int idx, dl_RoundScore *r, int sides)
{
    static const char *const K[] = {"pts_cards", "pts_clubs", "pts_aces", "pts_ten_diamonds",
                                     "pts_two_clubs", "pts_xeri", "total"};
    for (int i = 0; i < sides; i++) {
        if (lua_rawgeti(L, idx, i) != LUA_TTABLE) {
            lua_pop(L, 1);
            return lua_pushfstring(L, "side %d is missing", i);
        }
        int *dst[7] = {r->pts_cards, r->pts_clubs, r->pts_aces, r->pts_ten_diamonds,
                       r->pts_two_clubs, r->pts_xeri, r->total};
        for (int k = 0; k < 7; k++) {
            lua_pushstring(L, K[k]);
            lua_rawget(L, -2);
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < -9999 || lua_tointeger(L, -1) > 9999) {
                lua_pop(L, 2);
                return lua_pushfstring(L, "side %d's %s must be an integer", i, K[k]);
            }
            dst[k][i] = (int)lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    int w = -1, best = -100000, ties = 0;
    for (int i = 0; i < sides; i++) {
        if (r->total[i] > best) best = r->total[i], w = i, ties = 1;
        else if (r->total[i] == best) ties++;
    }
    r->winner = ties == 1 ? w : -1;
    return NULL;
}

/* The score hook: a breakdown it returns replaces the standard one, and
 * the name it gives the points it adds is kept for the round. */
static const char *score_hook(lua_State *L, int gi, dl_Game *g)
{
    lua_pushnil(L);
    dl_lua_set_label(L, gi, g->s.round);
    if (!dl_lua_get_hook(L, gi, "score")) return NULL;
    push_breakdown(L, &g->s);
    dl_lua_pushstate(L, &g->s, -1);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) return dl_lua_hook_warning(L, "score", "scoring");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return NULL;
    }
    dl_RoundScore r = g->s.last;
    const char *bad = read_breakdown(L, lua_gettop(L), &r, dl_nsides(&g->s.rules));
    for (int i = 0; !bad && i < dl_nsides(&g->s.rules); i++)
        if (llabs((long long)g->s.score[i] - g->s.last.total[i] + r.total[i]) > DL_SCORE_MAX)
            bad = lua_pushfstring(L, "side %d's match score would pass %d", i, DL_SCORE_MAX);
    if (!bad) bad = dl_lua_read_label(L, lua_gettop(L), LABEL_MAX);
    if (bad) return dl_lua_bad_breakdown(L, lua_gettop(L) - 1, bad);
    dl_lua_set_label(L, gi, g->s.round);
    dl_adjust_round(&g->s, &r);
    lua_pop(L, 1);
    return NULL;
}

/* After a round ends: the score hook, then the match hook. A failing hook
 * leaves the standard rules in force for that round; its message is
 * returned for the caller to show. */
static const char *round_hooks(lua_State *L, int gi, dl_Game *g)
{
    const char *warn = score_hook(L, gi, g);
    if (warn) return warn;
    if (dl_lua_get_hook(L, gi, "match")) {
        dl_lua_pushstate(L, &g->s, -1);
        int d;
        warn = dl_lua_call_match_hook(L, dl_nsides(&g->s.rules), &d);
        if (d > -2) {
            g->s.winner = (int8_t)d;
            g->s.phase = d >= 0 ? DL_PHASE_MATCH_OVER : DL_PHASE_ROUND_OVER;
        }
    }
    return warn;
}

/* ---- methods ---- */

static int g_moves(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    dl_Game *g = u->g;
    bool structured = lua_toboolean(L, 2);
    const dl_MoveList *l = listed(L, g);
    if (!dl_lua_has_hook(L, 1, "moves")) {
        lua_createtable(L, (int)l->n, 0);
        for (size_t i = 0; i < l->n; i++) {
            if (structured)
                push_move_table(L, &g->s, &l->m[i], (lua_Integer)i + 1);
            else
                push_move_text(L, &g->s, &l->m[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        if (!l->cut) return 1;
        push_cut_note(L, l);
        return 2;
    }
    push_verdict(L, 1, u);
    lua_getfield(L, -1, "order");
    lua_getfield(L, -2, "index");
    int n = (int)lua_rawlen(L, -2);
    lua_createtable(L, n, 0); /* fresh: the caller may change it */
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -3, i);
        if (structured) {
            lua_rawget(L, -3);
            push_move_table(L, &g->s, &l->m[lua_tointeger(L, -1) - 1], i);
            lua_remove(L, -2);
        }
        lua_rawseti(L, -2, i);
    }
    if (!l->cut) return 1;
    push_cut_note(L, l);
    return 2;
}

/* count([budget]) -> n, exact: how many moves are legal, by the engine's
 * rules (a house rule's moves hook is not asked), found without listing
 * them; exact is false when the budget of checks ran out first (n is then
 * the count so far). The default budget answers in well under a second. */
static int g_count(lua_State *L)
{
    dl_Game *g = check_game(L, 1);
    lua_Integer budget = luaL_optinteger(L, 2, 4000000);
    luaL_argcheck(L, budget > 0 && budget <= 100000000, 2, "a budget of 1 to 100000000 checks");
    dl_MoveCount c = dl_count_moves(&g->s, (long)budget);
    /* a count cut short is a lower bound, and the moves listed are legal */
    if (!c.exact && g->listed && c.count < g->legal.n) c.count = g->legal.n;
    lua_pushinteger(L, (lua_Integer)c.count);
    lua_pushboolean(L, c.exact);
    return 2;
}

static void set_bool(lua_State *L, const char *k, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

/* Sets what a move did on the table at the top of the stack, from the
 * state before it (b) and after it: the cards it captured, its xeri, the
 * deal or redeal it caused, the end of the round and what the end swept. */
static void set_outcome(lua_State *L, const dl_State *b, const dl_Move *m, const dl_Effect *e,
                        const dl_State *after)
{
    if (e->captured) {
        dl_lua_pushcards(L, e->captured);
        lua_setfield(L, -2, "captured");
    }
    set_bool(L, "xeri", e->xeri);
    set_bool(L, "dealt", e->dealt);
    set_bool(L, "redealt", e->redealt);
    set_bool(L, "round_over", e->round_over);
    set_bool(L, "match_over", false);
    if (!e->round_over) return;
    /* D22: what the move left on the table (a card laid last included)
     * and then found in a pile went there with the end of the round. */
    dl_Set left = dl_table_cards(b) & ~e->captured;
    if (m->kind == DL_LAY) left |= DL_BIT(m->card);
    for (int side = 0; side < dl_nsides(&b->rules); side++) {
        dl_Set swept = left & after->pile[side] & ~b->pile[side];
        if (!swept) continue;
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, side);
        lua_setfield(L, -2, "side");
        dl_lua_pushcards(L, swept);
        lua_setfield(L, -2, "cards");
        lua_setfield(L, -2, "swept");
        break;
    }
}

/* Pushes what the last move did, from its record: the move as g:moves(true)
 * lists it (text, index, kind, seat, card, value, takes) and when it was
 * played, the cards it captured, its xeri, the deal or redeal it caused,
 * the end of the round and the cards the end of the round swept (D22).
 * match_over is for the caller to set, after the house rules' match hook. */
/* with_table: also the table as it was before the move (what a move's
 * event shows; a loop that only plays does without it). */
static void push_effect(lua_State *L, const dl_Game *g, lua_Integer index, bool with_table)
{
    const dl_Record *r = &g->rec[g->nrec - 1];
    const dl_State *b = &r->before;
    const dl_Effect *e = &r->effect;
    /* (the move's text from the state before it, at full length: the
     * record's copy is cut at its size) */
    lua_createtable(L, 0, 18); /* a lay or a capture: the fields fit */
    /* the record's text, unless it was cut at the record's size */
    set_move_fields(L, b, &r->move, index, strlen(r->text) + 1 < sizeof r->text ? r->text : NULL);
    lua_pushinteger(L, dl_side(&b->rules, e->seat));
    lua_setfield(L, -2, "side");
    lua_pushinteger(L, b->round);
    lua_setfield(L, -2, "round");
    lua_pushinteger(L, b->deal);
    lua_setfield(L, -2, "deal");
    lua_pushinteger(L, b->ply);
    lua_setfield(L, -2, "ply");
    /* its place in g:history(), and the table it was played on (the
     * move's event shows both) */
    lua_pushinteger(L, (lua_Integer)g->nrec);
    lua_setfield(L, -2, "number");
    if (with_table) {
        dl_lua_pushtable(L, b);
        lua_setfield(L, -2, "table");
    }
    set_outcome(L, b, &r->move, e, &g->s);
}

/* play(move) -> effect [, warning] | nil, reason. The effect is a table,
 * so the old `if g:play(m)` still reads it as success; a failed score or
 * match hook's warning comes second and in effect.warning. */
static int g_play(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    dl_Game *g = u->g;
    Found f;
    if (!find_move(L, 1, u, 2, false, &f)) return 2;
    char err[300] = "";
    if (dl_game_play(g, &f.m, err, sizeof err)) return dl_lua_refuse(L, err);
    int lost = 0; /* a house rule's moves hook lost its call here */
    if (dl_lua_has_hook(L, 1, "moves")) {
        push_verdict(L, 1, u); /* (still this position's: kept until version changes) */
        lost = dl_lua_take_moves_warning(L);
    }
    u->version++;
    push_effect(L, g, f.index, lua_toboolean(L, 3));
    const int effect = lua_gettop(L);
    const char *warn = g->rec[g->nrec - 1].effect.round_over ? round_hooks(L, 1, g) : NULL;
    warn = dl_lua_join_warnings(L, lost, warn);
    return dl_lua_play_answer(L, effect, g->s.phase == DL_PHASE_MATCH_OVER, warn);
}

/* The seat's world (dl_sealed_state) when the seat is to move; else nil
 * and why pushed. Only the seat to move has one, so the one kept is its. */
static bool sealed_world(lua_State *L, LGame *u, int arg, dl_State *w)
{
    const dl_State *s = &u->g->s;
    lua_Integer seat = luaL_checkinteger(L, arg);
    luaL_argcheck(L, seat >= 0 && seat < s->rules.players, arg, "no such seat");
    if ((s->phase != DL_PHASE_PLAY && s->phase != DL_PHASE_CLAIM) || s->turn != seat) {
        lua_pushnil(L);
        lua_pushfstring(L, "seat %d is not the one to move", (int)seat);
        return false;
    }
    if (u->world_version != u->version) {
        dl_sealed_state(s, (int)seat, &u->world);
        u->world_version = u->version;
    }
    *w = u->world;
    return true;
}

/* simulate(seat, move) -> effect | nil, reason: what the seat's own move
 * would do (the fields of g:play's effect, and `after`, the table after
 * it while the round goes on), played on the world of the seat's view,
 * never on the game, so that its cost depends on nothing the seat cannot
 * see (docs/security.md). The move is checked against what the game
 * allows the seat now (the house rules' verdict, kept per position,
 * included). Nothing is worked out for another seat: no list of the next
 * seat's moves, no score or match hook. */
static int g_simulate(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    dl_State before;
    if (!sealed_world(L, u, 2, &before)) return 2;
    Found f;
    if (!find_move(L, 1, u, 3, false, &f)) return 2;
    dl_State after = before;
    dl_Effect e;
    dl_apply(&after, &f.m, &e);
    lua_createtable(L, 0, 16);
    set_move_fields(L, &before, &f.m, f.index, NULL);
    set_outcome(L, &before, &f.m, &e, &after);
    if (!e.round_over) {
        dl_lua_pushtable(L, &after);
        lua_setfield(L, -2, "after");
    }
    return 1;
}

/* sealed(seat) -> position | nil, reason: the world g:simulate plays on
 * for the seat to move, as a position with every hand and the pack
 * written out (the tests compare it across games that differ only in
 * hidden cards). */
static int g_sealed(lua_State *L)
{
    dl_State w;
    if (!sealed_world(L, check_lgame(L, 1), 2, &w)) return 2;
    char buf[DL_POSITION_MAX];
    dl_position_str(&w, buf, sizeof buf, false);
    lua_pushstring(L, buf);
    return 1;
}

/* check(move) -> true, what it does | false, reason */
static int g_check(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    Found f;
    if (!find_move(L, 1, u, 2, true, &f)) return dl_lua_check_refused(L);
    lua_pushboolean(L, 1);
    dl_lua_pushexplain(L, &u->g->s, &f.m);
    return 2;
}

/* parse(move) -> the move as g:moves(true) lists it | nil, reason: what
 * g:play would do with it, without playing it. */
static int g_parse(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    Found f;
    if (!find_move(L, 1, u, 2, true, &f)) return 2;
    push_move_table(L, &u->g->s, &f.m, f.index);
    return 1;
}

static int g_undo(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    bool done = dl_game_undo(u->g);
    if (done) u->version++;
    lua_pushboolean(L, done);
    return 1;
}

/* next_round() -> {round, dealer, deal} | nil, reason */
static int g_next_round(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    dl_Game *g = u->g;
    if (g->s.phase != DL_PHASE_ROUND_OVER) {
        lua_pushnil(L);
        lua_pushstring(L, g->s.phase == DL_PHASE_MATCH_OVER ? "D24: the match is over"
                                                            : "D22: the round is not over yet");
        return 2;
    }
    if (!dl_game_next_round(g)) luaL_error(L, "out of memory");
    u->version++;
    return dl_lua_push_round(L, g->s.round, g->s.dealer, g->s.deal);
}

static int g_clone(lua_State *L)
{
    LGame *u = check_lgame(L, 1);
    dl_Game *c = dl_game_clone(u->g);
    if (!c) luaL_error(L, "out of memory");
    /* The clone shares the hooks and starts with nothing known: its own
     * moves hook call fills its own cache (push_game). */
    push_game(L, c, 1);
    return 1;
}

static int g_turn(lua_State *L)
{
    dl_Game *g = check_game(L, 1);
    if (g->s.phase == DL_PHASE_PLAY || g->s.phase == DL_PHASE_CLAIM)
        lua_pushinteger(L, g->s.turn);
    else
        lua_pushnil(L);
    return 1;
}

static const char *const PHASES[] = {"claim", "play", "round-over", "match-over"};

/* g:where() -> phase, turn (nil when nobody is to move), round, deal,
 * ply: where the game stands, in one call and without a table. */
static int g_where(lua_State *L)
{
    const dl_State *s = &check_game(L, 1)->s;
    lua_pushstring(L, PHASES[s->phase]);
    if (s->phase == DL_PHASE_PLAY || s->phase == DL_PHASE_CLAIM)
        lua_pushinteger(L, s->turn);
    else
        lua_pushnil(L);
    lua_pushinteger(L, s->round);
    lua_pushinteger(L, s->deal);
    lua_pushinteger(L, s->ply);
    return 5;
}

static int g_phase(lua_State *L)
{
    lua_pushstring(L, PHASES[check_game(L, 1)->s.phase]);
    return 1;
}

static int g_view(lua_State *L)
{
    dl_Game *g = check_game(L, 1);
    lua_Integer seat = luaL_checkinteger(L, 2);
    luaL_argcheck(L, seat >= 0 && seat < g->s.rules.players, 2, "no such seat");
    dl_lua_pushstate(L, &g->s, (int)seat);
    return 1;
}

static int g_state(lua_State *L)
{
    dl_lua_pushstate(L, &check_game(L, 1)->s, -1);
    return 1;
}

static int g_position(lua_State *L)
{
    char buf[DL_POSITION_MAX];
    dl_position_str(&check_game(L, 1)->s, buf, sizeof buf, lua_toboolean(L, 2));
    lua_pushstring(L, buf);
    return 1;
}

static int g_rules(lua_State *L)
{
    dl_lua_pushrules(L, &check_game(L, 1)->s.rules);
    return 1;
}

/* g:game() -> "diloti": which implementation of the interface this is
 * (Kontsina is Diloti's core with other rules). */
static int g_game(lua_State *L)
{
    check_game(L, 1);
    lua_pushliteral(L, "diloti");
    return 1;
}

static int g_result(lua_State *L)
{
    dl_Game *g = check_game(L, 1);
    const dl_State *s = &g->s;
    const int sides = dl_nsides(&s->rules);
    lua_createtable(L, 0, 6);
    bool done = s->phase == DL_PHASE_ROUND_OVER || s->phase == DL_PHASE_MATCH_OVER;
    if (done || s->round > 1) {
        push_breakdown(L, s);
        dl_lua_push_label(L, 1, done ? s->round : s->round - 1);
        lua_setfield(L, -2, "label");
        lua_setfield(L, -2, "round");
    }
    lua_createtable(L, sides, 0);
    for (int i = 0; i < sides; i++) lua_pushinteger(L, s->score[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, "score");
    lua_createtable(L, sides, 0);
    for (int i = 0; i < sides; i++) lua_pushinteger(L, s->rounds_won[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, "rounds_won");
    lua_pushboolean(L, s->phase == DL_PHASE_MATCH_OVER);
    lua_setfield(L, -2, "over");
    if (s->winner >= 0) lua_pushinteger(L, s->winner), lua_setfield(L, -2, "winner");
    lua_pushinteger(L, s->round);
    lua_setfield(L, -2, "rounds");
    return 1;
}

static int g_history(lua_State *L)
{
    dl_Game *g = check_game(L, 1);
    int seat = (int)luaL_optinteger(L, 2, -1);
    lua_newtable(L);
    int n = 0;
    for (size_t i = 0; i < g->nrec; i++) {
        const dl_Record *r = &g->rec[i];
        if (seat >= 0 && !dl_record_public(r, seat)) continue;
        lua_createtable(L, 0, 8);
        lua_pushstring(L, r->text);
        lua_setfield(L, -2, "move");
        lua_pushinteger(L, r->before.round);
        lua_setfield(L, -2, "round");
        lua_pushinteger(L, r->before.deal);
        lua_setfield(L, -2, "deal");
        if (!r->next_round) {
            lua_pushinteger(L, r->effect.seat);
            lua_setfield(L, -2, "seat");
            lua_pushstring(L, KINDS[r->move.kind]);
            lua_setfield(L, -2, "kind");
        } else {
            lua_pushstring(L, "next-round");
            lua_setfield(L, -2, "kind");
        }
        lua_pushboolean(L, r->effect.xeri);
        lua_setfield(L, -2, "xeri");
        lua_pushboolean(L, r->effect.dealt);
        lua_setfield(L, -2, "dealt");
        lua_pushboolean(L, r->effect.round_over);
        lua_setfield(L, -2, "round_over");
        lua_pushboolean(L, r->effect.redealt);
        lua_setfield(L, -2, "redealt");
        if (r->effect.round_over) {
            /* the round's breakdown as it was scored, house rules and the
             * name of their points included (records show it) */
            push_breakdown(L, i + 1 < g->nrec ? &g->rec[i + 1].before : &g->s);
            dl_lua_push_label(L, 1, r->before.round);
            lua_setfield(L, -2, "label");
            lua_setfield(L, -2, "breakdown");
        }
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

static int g_tostring(lua_State *L)
{
    LGame *u = luaL_checkudata(L, 1, GAME);
    if (!u->g) {
        lua_pushliteral(L, "diloti game (freed)");
        return 1;
    }
    const dl_State *s = &u->g->s;
    static const char *const P[] = {"claim decision", "to play", "round over", "match over"};
    lua_pushfstring(L, "diloti game: %d players, round %d, deal %d, seat %d %s", s->rules.players,
                    s->round, s->deal, s->turn, P[s->phase]);
    return 1;
}

/* g:close(), and the end of a `local g <close>`: the game's C memory
 * (its history) is freed now, not when the collector, which does not see
 * it, gets round to the small userdata. */
static int g_gc(lua_State *L)
{
    LGame *u = luaL_checkudata(L, 1, GAME);
    dl_game_free(u->g);
    u->g = NULL;
    return 0;
}

/* g:close() is a call like any method; the collector's is not. */
static int g_close(lua_State *L)
{
    calls++;
    return g_gc(L);
}

/* search{seat, iterations, time, seed, exploration, epsilon, exact, deals, infer, pool,
 * weights = {cards, clubs, aces, ten_diamonds, two_clubs, xeri, count}}:
 * the C search from that seat's view only (dl_view), never the state; with
 * infer, also its views before each of the others' moves in this deal. */
static double opt_number(lua_State *L, int t, const char *k, double def, double lo, double hi)
{
    lua_getfield(L, t, k);
    double v = def;
    if (!lua_isnil(L, -1)) {
        if (!lua_isnumber(L, -1)) luaL_error(L, "search: %s must be a number", k);
        v = lua_tonumber(L, -1);
        if (v < lo || v > hi) {
            /* lua_pushfstring has no %g */
            char a[32], b[32];
            snprintf(a, sizeof a, "%g", lo);
            snprintf(b, sizeof b, "%g", hi);
            luaL_error(L, "search: %s must be between %s and %s", k, a, b);
        }
    }
    lua_pop(L, 1);
    return v;
}

static int g_search(lua_State *L)
{
    static const char *const W[DL_NW] = {"cards", "clubs", "aces", "ten_diamonds",
                                         "two_clubs", "xeri", "count"};
    dl_Game *g = check_game(L, 1);
    if (lua_isnoneornil(L, 2)) lua_newtable(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    dl_SearchParams p;
    dl_search_defaults(&p);
    int seat = (int)opt_number(L, 2, "seat", g->s.turn, 0, g->s.rules.players - 1);
    p.iterations = (long)opt_number(L, 2, "iterations", (double)p.iterations, 0, 1e8);
    p.seconds = opt_number(L, 2, "time", 0, 0, 3600);
    p.seed = (uint64_t)opt_number(L, 2, "seed", 1, 0, 9007199254740991.0);
    p.exploration = opt_number(L, 2, "exploration", p.exploration, 0, 100);
    p.epsilon = opt_number(L, 2, "epsilon", p.epsilon, 0, 1);
    p.exact_cards = (int)opt_number(L, 2, "exact", p.exact_cards, 0, 24);
    p.deals = (int)opt_number(L, 2, "deals", 0, 0, 10000);
    p.infer = opt_number(L, 2, "infer", 0, 0, 1000);
    p.pool = (int)opt_number(L, 2, "pool", p.pool, 1, 100000);
    if (p.seconds > 0) { /* a time limit alone: no iteration limit */
        if (lua_getfield(L, 2, "iterations") == LUA_TNIL) p.iterations = 0;
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 2, "weights") == LUA_TTABLE) {
        for (int i = 0; i < DL_NW; i++) p.w[i] = opt_number(L, -1, W[i], p.w[i], -1000, 1000);
    }
    lua_pop(L, 1);
    dl_View v;
    dl_view(&g->s, seat, &v);
    dl_Seen *seen = NULL;
    if (p.infer > 0) {
        seen = malloc(DL_NCARDS * sizeof *seen);
        if (!seen) return luaL_error(L, "search: out of memory");
        p.nseen = dl_seen_moves(g, seat, seen);
        p.seen = seen;
    }
    dl_SearchResult r;
    int rc = dl_search(&v, &p, &r);
    free(seen);
    if (rc != 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "search: seat %d has no move to make now", seat);
        return 2;
    }
    char buf[200];
    lua_createtable(L, 0, 5);
    dl_move_str(&g->s, &r.best, buf, sizeof buf, false);
    lua_pushstring(L, buf);
    lua_setfield(L, -2, "move");
    lua_pushnumber(L, r.value);
    lua_setfield(L, -2, "value");
    lua_pushinteger(L, r.iterations);
    lua_setfield(L, -2, "iterations");
    lua_pushboolean(L, r.exact);
    lua_setfield(L, -2, "exact");
    lua_pushinteger(L, r.deals);
    lua_setfield(L, -2, "deals");
    lua_pushinteger(L, r.seen);
    lua_setfield(L, -2, "seen");
    lua_pushnumber(L, r.guesses);
    lua_setfield(L, -2, "guesses");
    lua_createtable(L, r.nmoves, 0);
    for (int i = 0; i < r.nmoves; i++) {
        lua_createtable(L, 0, 3);
        dl_move_str(&g->s, &r.moves[i].move, buf, sizeof buf, false);
        lua_pushstring(L, buf);
        lua_setfield(L, -2, "move");
        lua_pushinteger(L, r.moves[i].visits);
        lua_setfield(L, -2, "visits");
        lua_pushnumber(L, r.moves[i].value);
        lua_setfield(L, -2, "value");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "moves");
    return 1;
}

/* ---- constructors ---- */

/* new{rules = table, seed = n, dealer = n, hooks = {...}} */
static int l_new(lua_State *L)
{
    calls++;
    luaL_checktype(L, 1, LUA_TTABLE);
    dl_Rules r;
    dl_rules_diloti(&r);
    if (lua_getfield(L, 1, "rules") == LUA_TTABLE) dl_lua_torules(L, -1, &r);
    lua_pop(L, 1);
    lua_Integer seed = 0, dealer = -1;
    if (lua_getfield(L, 1, "seed") != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "seed: expected an integer");
        seed = lua_tointeger(L, -1);
    }
    if (lua_getfield(L, 1, "dealer") != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "dealer: expected an integer seat");
        dealer = lua_tointeger(L, -1);
    }
    lua_pop(L, 2);
    const char *err = NULL;
    dl_Game *g = NULL;
    if (lua_getfield(L, 1, "position") == LUA_TSTRING) {
        char buf[300] = "";
        g = dl_game_from_position(&r, lua_tostring(L, -1), (uint64_t)seed, buf, sizeof buf);
        if (!g) {
            /* (a message the core forgot to write must not print the stack) */
            buf[sizeof buf - 1] = '\0';
            lua_pushnil(L);
            lua_pushstring(L, buf[0] ? buf : "the position could not be loaded");
            return 2;
        }
    } else {
        g = dl_game_new(&r, (uint64_t)seed, (int)dealer, &err);
        if (!g) {
            lua_pushnil(L);
            lua_pushstring(L, err);
            return 2;
        }
    }
    lua_pop(L, 1);
    push_game(L, g, 0);
    dl_lua_set_hooks(L, 1);
    return 1;
}

int dl_lua_opengame(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"moves", g_moves},     {"play", g_play},         {"check", g_check},
        {"undo", g_undo},       {"next_round", g_next_round}, {"clone", g_clone},
        {"simulate", g_simulate}, {"sealed", g_sealed},
        {"turn", g_turn},       {"phase", g_phase},       {"where", g_where},
        {"view", g_view},
        {"state", g_state},     {"position", g_position}, {"rules", g_rules},
        {"result", g_result},   {"history", g_history},   {"search", g_search},
        {"parse", g_parse},     {"close", g_close},       {"game", g_game},
        {"count", g_count},
        {NULL, NULL}};
    dl_lua_handle_type(L, GAME, methods, g_tostring, g_gc);
    lua_pushcfunction(L, l_new);
    return 1;
}
