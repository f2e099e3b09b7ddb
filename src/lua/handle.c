/* The game handle for Lua, one for every game: a userdata with a locked
 * metatable around a game's state, whose methods are written here once
 * over the game's operations (gameops.h). Moves and views cross as plain
 * strings and fresh tables, so Lua never holds a pointer into C memory.
 * An illegal move or a bad move argument comes back as nil, "reason"
 * (the rule id first when a rule refuses it); errors are for other
 * programming mistakes.
 *
 * A move is named by its text, by a table with a text field (an entry of
 * g:moves(true)) or by its number in g:moves(). g:play answers with what
 * the move did, so that a front end needs no second look at the position
 * to tell the story of a move.
 *
 * House-rule hooks live in the userdata's first user value: the hook
 * functions of the table the game was made with, copied then (changing
 * that table later changes nothing). They are host functions (lua/scripts/variants.lua) that call
 * into each variant's own Lua state (src/lua/box.c), so they get and give
 * plain data only:
 *   moves(list, state) -> allowed list [, reasons]   (filter or veto)
 *   score(breakdown, state) -> breakdown             (adjust a round)
 *   match(state) -> nil | winner side | false        (decide the match)
 * The second user value keeps what is known of the position (the legal
 * moves by text, the hook's verdict) until the state changes; the third
 * the names score hooks gave their points, by round, as plain text. */
#include "gameops.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "box.h"
#include "ltext.h"

typedef struct {
    const dl_GameOps *ops;
    void *g;
    unsigned version; /* changes with every play, undo and new round */
    unsigned indexed; /* the version the kept index of moves is for; 0: none */
    unsigned judged;  /* the version the kept verdict is for; 0: none */
    bool plain;       /* that verdict kept every move in place, with no warning */
    unsigned hooks;   /* what its hooks are (HOOK_ bits), fixed when it is made */
    /* the world of the seat to move's view (g:simulate), kept for the
     * position: drawn once per decision, not once per call */
    unsigned world_version; /* 0: none */
    long long world[]; /* ops->world_size bytes (a state: aligned as its integers) */
} Handle;

/* The longest name a score hook may give its points, in bytes. */
#define LABEL_MAX 40
/* The longest move text of any game. */
#define TEXT_MAX 200

/* Calls made to the engine through game handles and their constructors:
 * every method checks its handle exactly once, so counting there counts
 * calls (core.calls(), for measuring how chatty a front end is). Atomic:
 * the rooms of diloti serve call from threads of their own. */
static lua_Integer calls;

lua_Integer dl_handle_calls(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }

const dl_GameOps *dl_find_game(const char *name)
{
    for (int i = 0; dl_games[i]; i++)
        if (strcmp(dl_games[i]->name, name) == 0) return dl_games[i];
    return NULL;
}

bool dl_is_native(lua_CFunction f)
{
    for (int i = 0; f && dl_games[i]; i++)
        for (const luaL_Reg *r = dl_games[i]->natives; r && r->name; r++)
            if (r->func == f) return true;
    return false;
}

/* Each method is a closure over its game's operations. */
#define OPS ((const dl_GameOps *)lua_touserdata(L, lua_upvalueindex(1)))

static Handle *check_at(lua_State *L, int idx, const dl_GameOps *ops)
{
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    Handle *h = luaL_checkudata(L, idx, ops->type);
    if (!h->g) luaL_error(L, "the game has been freed");
    return h;
}

/* A method's second upvalue is its type's metatable: comparing with it
 * costs less than luaL_checkudata's lookup of the type by name, and a
 * decision calls several methods. Anything else goes the long way, which
 * words the error. */
static Handle *check(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TUSERDATA && lua_getmetatable(L, 1)) {
        const bool same = lua_rawequal(L, -1, lua_upvalueindex(2));
        lua_pop(L, 1);
        Handle *h = lua_touserdata(L, 1);
        if (same && h->g) {
            __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
            return h;
        }
    }
    return check_at(L, 1, OPS);
}

void *dl_handle_game(lua_State *L, int idx, const dl_GameOps *ops)
{
    return check_at(L, idx, ops)->g;
}

/* After a hook: the host's own hook may have closed the game it was
 * called for, and the method must not go on with it. */
static void still_open(lua_State *L, const Handle *h)
{
    if (!h->g) luaL_error(L, "the game was closed by its own house rule hook");
}

/* ---- user values: hooks, what is known, labels ---- */

/* The fields a hooks table may have (lua/scripts/variants.lua), and
 * the bit of each in a handle's hooks: the three hooks are there (a
 * function each); the moves hook's list may be made in its box
 * (moves_built = true); no moves hook reads the state (moves_state =
 * false). */
static const char *const HOOK_FIELDS[] = {"moves", "score", "match", "moves_built", "moves_state"};
enum { HOOK_MOVES, HOOK_SCORE, HOOK_MATCH, HOOK_BUILT, HOOK_NO_STATE };

static bool has_hook(const Handle *h, int which) { return (h->hooks >> which) & 1; }

/* Pushes the hook (HOOK_MOVES, _SCORE or _MATCH) or returns false with
 * nothing pushed. Whether there is one is a bit: most games have no
 * house rules, and a decision asks several times. */
static bool get_hook(lua_State *L, int idx, int which)
{
    if (!has_hook(lua_touserdata(L, idx), which)) return false;
    lua_getiuservalue(L, idx, 1);
    lua_rawgeti(L, -1, which + 1);
    lua_remove(L, -2);
    return true;
}

/* User values: 1 the hook functions the game was made with, by HOOK_
 * number + 1 (read without looking a name up), shared with clones; 2
 * the position's legal moves by text; 3 {[round] = label}, the game's
 * own (a clone gets a copy: a round it scores must not rename one of the
 * original's); 4 the house rules' verdict on the position. 2 and 4 are
 * kept for one position (push_kept). */
static void push_handle(lua_State *L, const dl_GameOps *ops, void *g, int from)
{
    Handle *h = lua_newuserdatauv(L, sizeof *h + ops->world_size, 4);
    h->ops = ops;
    h->g = g;
    h->version = 1;
    h->indexed = 0;
    h->judged = 0;
    h->plain = false;
    h->hooks = from ? ((const Handle *)lua_touserdata(L, from))->hooks : 0;
    h->world_version = 0;
    luaL_setmetatable(L, ops->type);
    if (from) lua_getiuservalue(L, from, 1);
    else lua_newtable(L);
    lua_setiuservalue(L, -2, 1);
    lua_newtable(L);
    if (from && lua_getiuservalue(L, from, 3) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -5);
        }
    }
    if (from) lua_pop(L, 1);
    lua_setiuservalue(L, -2, 3);
}

void dl_lua_push_label(lua_State *L, int gi, int round)
{
    if (lua_getiuservalue(L, gi, 3) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return;
    }
    lua_rawgeti(L, -1, round);
    lua_remove(L, -2);
}

/* Sets (or with nil on top, clears) the label of a round; pops it. */
static void set_label(lua_State *L, int gi, int round)
{
    lua_getiuservalue(L, gi, 3);
    lua_insert(L, -2);
    lua_rawseti(L, -2, round);
    lua_pop(L, 1);
}

typedef void (*Fill)(lua_State *L, int gi, Handle *h);

/* Pushes user value slot, made by fill (which pushes it) unless *made
 * says it is this position's already. Kept until the state changes, so
 * that the moves hook runs once per position and checking a move costs
 * a lookup, not a rebuilt list (`moves --explain` checks every move). */
static void push_kept(lua_State *L, int gi, Handle *h, int slot, unsigned *made, Fill fill)
{
    if (*made == h->version) {
        lua_getiuservalue(L, gi, slot);
        return;
    }
    fill(L, gi, h);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, gi, slot);
    *made = h->version;
}

/* ---- house rules' failures ---- */

/* Raised without a position: where the host happened to ask for the
 * moves says nothing to the rule's author. */
static int hook_error(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    return lua_error(L);
}

/* A variant's hooks (lua/scripts/variants.lua) say which rule, file, hook
 * and line failed: such a message is passed on as it is. */
static bool names_rule(const char *msg)
{
    return msg && strncmp(msg, "house rule '", 12) == 0;
}

/* Replaces a failed score or match hook's error on top with its warning
 * and returns it. */
static const char *hook_warning(lua_State *L, const char *hook, const char *fallback)
{
    const char *msg = lua_tostring(L, -1);
    const char *warn = names_rule(msg)
        ? lua_pushfstring(L, "%s; standard %s used for this round", msg, fallback)
        : lua_pushfstring(L, "house rule (%s hook) failed, standard %s used: %s", hook, fallback,
                          msg ? msg : "(an error that is not text)");
    lua_remove(L, -2);
    return warn;
}

/* ---- the moves hook ---- */

/* Pushes {text = core index} of the legal moves in this position. */
static void fill_core_index(lua_State *L, int gi, Handle *h)
{
    (void)gi;
    const dl_GameOps *ops = h->ops;
    const lua_Integer n = ops->listed(L, h->g);
    char buf[TEXT_MAX];
    lua_createtable(L, 0, (int)n);
    for (lua_Integer i = 0; i < n; i++) {
        lua_pushlstring(L, buf, ops->text(h->g, ops->move(h->g, i), buf, sizeof buf));
        lua_pushinteger(L, i + 1);
        lua_rawset(L, -3);
    }
}

static void push_core_index(lua_State *L, int gi, Handle *h)
{
    push_kept(L, gi, h, 2, &h->indexed, fill_core_index);
}

/* t.text for a table at idx, or the string itself, read raw: a table a
 * hook returned may carry metamethods, which must not run outside the
 * sandbox. */
static const char *raw_text(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING) return lua_tostring(L, idx);
    if (!lua_istable(L, idx)) return NULL;
    lua_pushliteral(L, "text");
    lua_rawget(L, idx);
    const char *t = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1); /* the string stays alive in the table */
    return t;
}

/* Calls the moves hook with the hook, the list and the state on the
 * stack; leaves the list it returned, its reasons (a table) and a warning
 * (a string when a house rule lost its call at a crossing limit, or nil).
 * Raises for a failure or a list that is not a table. */
static void call_moves_hook(lua_State *L, int given)
{
    const int st = lua_pcall(L, 2, 3, 0);
    /* (a list made in the box crosses during this call only) */
    dl_box_built_end(L, given);
    if (st != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        if (names_rule(msg)) lua_error(L);
        hook_error(L, "house rule (moves hook) failed: %s", msg ? msg : "(an error that is not text)");
    }
    /* (a warning: a house rule lost its call, lua/scripts/variants.lua) */
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    if (!lua_istable(L, -3) && !lua_rawequal(L, -3, given))
        hook_error(L, "house rule (moves hook) must return a list of moves");
}

/* The verdict of a hook that kept every move in place and lost no call:
 * one table for all (nothing ever changes it). */
static const char ALL_KEPT = 0;

static void push_all_kept(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ALL_KEPT) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "all");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &ALL_KEPT);
}

typedef struct {
    const Handle *h;
    lua_Integer n;
    bool in_box; /* S is the hook's box */
} MovesCtx;

/* The legal moves as the list a moves hook is given, pushed onto S: a
 * box's state (box.h, a built value) or the host's own. */
static size_t build_moves(lua_State *S, const void *ctx)
{
    const MovesCtx *c = ctx;
    const dl_GameOps *ops = c->h->ops;
    if (c->in_box && ops->push_lazy_list) {
        ops->push_lazy_list(S, c->h->g, c->n);
        return 1 + (size_t)c->n;
    }
    if (ops->push_list) {
        ops->push_list(S, c->h->g, c->n);
        return 1 + (size_t)c->n * 24;
    }
    lua_createtable(S, (int)c->n, 0);
    for (lua_Integer i = 0; i < c->n; i++) {
        ops->push_move(S, c->h->g, ops->move(c->h->g, i), 0);
        lua_rawseti(S, -2, i + 1);
    }
    /* (at most: a move's fields, their values and a card list or two) */
    return 1 + (size_t)c->n * 24;
}

/* The most of a refused answer's text its error shows, in bytes. */
#define ANSWER_SHOWN 80

/* The engine's number (1-based) of the hook's answer at idx: a move's
 * number in the list the hook was given (the whole list, in the
 * engine's order), or a move's text, or a table with its text, looked up
 * among the legal moves (the index in slot core, made on first need). Raises
 * for anything else. */
static lua_Integer answer_number(lua_State *L, int gi, Handle *h, int idx, lua_Integer nl, int core)
{
    if (lua_isinteger(L, idx)) {
        const lua_Integer i = lua_tointeger(L, idx);
        if (i < 1 || i > nl)
            hook_error(L, "house rule (moves hook) returned move number %I, but there %s %I move%s", i,
                       nl == 1 ? "is" : "are", nl, nl == 1 ? "" : "s");
        return i;
    }
    const char *t = raw_text(L, idx);
    if (t && lua_isnil(L, core)) {
        push_core_index(L, gi, h);
        lua_replace(L, core);
    }
    if (!t) {
        hook_error(L, "house rule (moves hook) returned a non-move, which is not a legal move here");
        return 0;
    }
    if (lua_getfield(L, core, t) != LUA_TNUMBER) {
        /* (a script's text, up to a megabyte of it: its start names it) */
        const size_t n = strlen(t);
        dl_plain_push(L, t, n, ANSWER_SHOWN);
        hook_error(L, "house rule (moves hook) returned '%s%s', which is not a legal move here",
                   lua_tostring(L, -1), n > ANSWER_SHOWN ? "..." : "");
    }
    const lua_Integer i = lua_tointeger(L, -1);
    lua_pop(L, 1);
    return i;
}

/* Runs the moves hook on the position and pushes its verdict: {all =
 * true, warning} when it kept every move in place (h->plain when it lost
 * no call either); else {order = {core index, ...}, pos = {[core index] =
 * its number in order}, reasons = {text = why}, warning}. Raises on a
 * hook failure or a list that is not a filter of the legal one. */
static void run_moves_hook(lua_State *L, int gi, Handle *h)
{
    const dl_GameOps *ops = h->ops;
    const lua_Integer nl = ops->listed(L, h->g);
    if (!lua_checkstack(L, 14)) luaL_error(L, "out of Lua stack");
    /* (the house rules' hooks say when no hook reads the state, making
     * it most of a position's cost, and when the list may be made in
     * the hook's box, the answer coming back as numbers into it) */
    const bool built = has_hook(h, HOOK_BUILT), state = !has_hook(h, HOOK_NO_STATE);
    const MovesCtx ctx = {h, nl, built};
    get_hook(L, gi, HOOK_MOVES);
    if (built)
        dl_box_push_built(L, build_moves, &ctx, sizeof ctx);
    else
        build_moves(L, &ctx);
    lua_insert(L, -2);
    const int given = lua_gettop(L) - 1; /* the list, the hook */
    lua_pushvalue(L, given);
    if (state)
        ops->push_state(L, h->g);
    else
        lua_pushnil(L);
    call_moves_hook(L, given);
    still_open(L, h);
    const int list = lua_gettop(L) - 2;
    /* The list made in the box given back: every move, as the engine
     * lists them (nothing could change it: the host holds a handle). A
     * table given back is read: a host's own hook may have changed it in
     * place. */
    const bool all = lua_rawequal(L, list, given) && lua_type(L, given) == LUA_TUSERDATA;
    if (all) {
        /* Every move kept in the engine's order: the verdict says so and
         * lists nothing (the engine's own list answers; no reason is
         * read, as the hook refused nothing). */
        const bool lost = !lua_isnil(L, -1);
        if (lost) {
            lua_createtable(L, 0, 2);
            lua_insert(L, list); /* verdict, list, reasons, warning */
            lua_setfield(L, list, "warning");
            lua_pushboolean(L, 1);
            lua_setfield(L, list, "all");
        } else {
            push_all_kept(L);
            lua_replace(L, list);
        }
        lua_settop(L, list);
        lua_replace(L, given);
        h->plain = !lost;
        return;
    }
    const lua_Unsigned len = lua_rawlen(L, list);
    /* A hook filters or vetoes, so it never returns more moves than there
     * are: past one more than that, the list is refused unread. */
    const lua_Unsigned n = len > (lua_Unsigned)nl + 1 ? (lua_Unsigned)nl + 1 : len;
    if (!lua_istable(L, -2)) {
        lua_newtable(L);
        lua_replace(L, -3);
    }
    lua_createtable(L, 0, 4);
    lua_insert(L, list); /* verdict, list, reasons, warning */
    lua_setfield(L, list, "warning");
    lua_setfield(L, list, "reasons");
    /* (moves by their engine number: no text is made for a verdict) */
    lua_createtable(L, (int)n, 0); /* order */
    lua_createtable(L, (int)nl, 0); /* pos */
    lua_pushnil(L); /* the core index, when a text is to be looked up */
    const int core = lua_gettop(L);
    for (lua_Unsigned i = 1; i <= n; i++) {
        lua_rawgeti(L, list + 1, (lua_Integer)i);
        const lua_Integer ci = answer_number(L, gi, h, lua_gettop(L), nl, core);
        lua_pop(L, 1);
        lua_pushinteger(L, ci);
        lua_rawseti(L, list + 2, (lua_Integer)i);
        /* a move listed twice keeps the number it is first shown with */
        if (lua_rawgeti(L, list + 3, ci) == LUA_TNIL) {
            lua_pushinteger(L, (lua_Integer)i);
            lua_rawseti(L, list + 3, ci);
        }
        lua_pop(L, 1);
    }
    if (len > (lua_Unsigned)nl)
        hook_error(L, "house rule (moves hook) returned %I moves, more than the %I legal ones",
                   (lua_Integer)len, nl);
    if (len == 0 && nl > 0) {
        dl_OpsWhere w;
        ops->where(h->g, &w);
        hook_error(L, ops->no_move, w.turn);
    }
    lua_settop(L, list + 3);
    lua_setfield(L, list, "pos");
    lua_setfield(L, list, "order");
    lua_settop(L, list);
    lua_replace(L, given);
    h->plain = false;
}

/* Pushes the house rules' verdict on the position (run_moves_hook); the
 * game has a moves hook. (A hook that changed the state would have been
 * a bug of ours: none can reach the game.) */
static void push_verdict(lua_State *L, int gi, Handle *h)
{
    push_kept(L, gi, h, 4, &h->judged, run_moves_hook);
}

/* Whether the house rules' verdict on this position is made and kept
 * every move in place with no warning: the engine's list answers as if
 * there were no hook (the game has one). */
static bool judged_plain(const Handle *h)
{
    return h->judged == h->version && h->plain;
}

/* Whether the verdict at idx kept every move in the engine's order (the
 * engine's own list is then the list allowed, numbered alike). */
static bool verdict_all(lua_State *L, int idx)
{
    const bool all = lua_getfield(L, idx, "all") == LUA_TBOOLEAN && lua_toboolean(L, -1);
    lua_pop(L, 1);
    return all;
}

/* Whether the house rules filter this position's list: a moves hook whose
 * verdict (made now if need be) did not keep every move in place. */
static bool hook_filters(lua_State *L, int gi, Handle *h)
{
    if (judged_plain(h) || !has_hook(h, HOOK_MOVES)) return false;
    push_verdict(L, gi, h);
    /* (a verdict just made may be plain: nothing to read in it) */
    const bool all = judged_plain(h) || verdict_all(L, -1);
    lua_pop(L, 1);
    return !all;
}

/* With the verdict on top (popped): pushes its warning and returns its
 * index, cleared from the verdict so that it is reported once; or 0,
 * pushing nothing. */
static int take_moves_warning(lua_State *L)
{
    lua_getfield(L, -1, "warning");
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 2);
        return 0;
    }
    lua_pushnil(L);
    lua_setfield(L, -3, "warning");
    lua_remove(L, -2);
    return lua_gettop(L);
}

/* With the verdict on top (popped): true and *index the move's number in
 * g:moves() if the house rules allow the move m (*index: its engine
 * number), or pushes nil, their reason and returns false. */
static bool verdict_allows(lua_State *L, const Handle *h, const void *m, lua_Integer *index)
{
    if (verdict_all(L, -1)) {
        lua_pop(L, 1);
        return true;
    }
    lua_getfield(L, -1, "pos");
    if (lua_rawgeti(L, -1, *index) == LUA_TNUMBER) {
        *index = lua_tointeger(L, -1);
        lua_pop(L, 3);
        return true;
    }
    lua_pop(L, 2);
    char canon[TEXT_MAX];
    h->ops->text(h->g, m, canon, sizeof canon);
    lua_getfield(L, -1, "reasons");
    lua_getfield(L, -1, canon);
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 3);
        return dl_lua_refuse(L, "house rule: this move is not allowed");
    }
    /* (the script's words: one line of at most DL_BOX_MAX_ERROR bytes, as
     * a script's error; a reason of a megabyte reached the player whole) */
    size_t n;
    const char *r = lua_tolstring(L, -1, &n);
    dl_plain_push(L, r, n, DL_BOX_MAX_ERROR); /* verdict, reasons, reason, text */
    lua_replace(L, -4);
    lua_pop(L, 2);
    lua_pushnil(L);
    lua_insert(L, -2);
    return false;
}

/* ---- the move argument ---- */

/* A move an argument names, found among the moves allowed here. */
typedef struct {
    dl_OpsMove m;
    lua_Integer index; /* its number in g:moves() */
} Found;

/* A move's number at arg among n: true with *i, or pushes nil and why. */
static bool move_number(lua_State *L, int arg, lua_Integer n, lua_Integer *i)
{
    int whole;
    *i = lua_tointegerx(L, arg, &whole);
    if (!whole) {
        /* Floats pass when they hold an integer; past the integers' range
         * a finite float is a whole number too, just out of range. (%g by
         * hand, not luaL_tolstring: a number's metatable is anybody's.) */
        const double x = (double)lua_tonumber(L, arg), two63 = 9223372036854775808.0;
        const bool far = x - x == 0 && (x >= two63 || -x > two63);
        char msg[160];
        if (far)
            snprintf(msg, sizeof msg, "no move number %.14g here (there %s %lld move%s)", x,
                     n == 1 ? "is" : "are", (long long)n, n == 1 ? "" : "s");
        else
            snprintf(msg, sizeof msg, "not a move: %.14g is not a whole number", x);
        return dl_lua_refuse(L, msg);
    }
    if (*i < 1 || *i > n) {
        lua_pushnil(L);
        lua_pushfstring(L, "no move number %I here (there %s %I move%s)", *i, n == 1 ? "is" : "are", n,
                        n == 1 ? "" : "s");
        return false;
    }
    return true;
}

/* The i-th move of g:moves() (with a moves hook, of its filtered list). */
static bool find_numbered(lua_State *L, int gi, Handle *h, int arg, bool hook, Found *f)
{
    const dl_GameOps *ops = h->ops;
    lua_Integer n = ops->listed(L, h->g);
    if (hook) {
        push_verdict(L, gi, h);
        lua_getfield(L, -1, "order");
        n = (lua_Integer)lua_rawlen(L, -1);
        lua_pop(L, 2);
    }
    lua_Integer i;
    if (!move_number(L, arg, n, &i)) return false;
    lua_Integer core = i;
    if (hook) {
        push_verdict(L, gi, h);
        lua_getfield(L, -1, "order");
        lua_rawgeti(L, -1, i);
        core = lua_tointeger(L, -1);
        lua_pop(L, 3);
    }
    memcpy(&f->m, ops->move(h->g, core - 1), ops->move_size);
    f->index = i;
    return true;
}

/* The move argument at arg as text: a string, or a table's text string
 * (read raw: the table's metamethods never run here); NULL for anything
 * else (what it names is no move). */
static const char *move_text(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TSTRING) return lua_tostring(L, arg);
    if (!lua_istable(L, arg)) return NULL;
    dl_lua_rawfield(L, arg, "text");
    const char *t = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_replace(L, arg);
    return t;
}

/* Finds the move named by the argument at arg: returns true with *f set,
 * or pushes nil and the reason g:play would give and returns false. With
 * `again`, the caller expects more questions about this position, so the
 * legal moves are kept by text (`moves --explain` checks every move); a
 * move about to be played is looked for in the list instead. */
static bool find_move(lua_State *L, int gi, Handle *h, int arg, bool again, Found *f)
{
    const dl_GameOps *ops = h->ops;
    if (lua_type(L, arg) == LUA_TNUMBER) return find_numbered(L, gi, h, arg, hook_filters(L, gi, h), f);
    const bool plain = judged_plain(h);
    const bool hook = plain || has_hook(h, HOOK_MOVES);
    const char *text = move_text(L, arg);
    if (!text)
        return dl_lua_refuse(L, lua_istable(L, arg) || lua_type(L, arg) == LUA_TSTRING
                                    ? "not a move: a move table needs its text (a string)"
                                    : "not a move: a move is its text, its number in the list or a "
                                      "table with its text");
    char err[300] = "";
    if (ops->parse(h->g, text, &f->m, err, sizeof err)) {
        lua_pushnil(L);
        lua_pushfstring(L, "not a move: %s", err);
        return false;
    }
    /* Legal moves are found in the engine's list; only a refusal is
     * worked out. The house rules' verdict comes after: a move the engine
     * refuses is refused before the hook is asked. */
    f->index = 0;
    if (!again) {
        const lua_Integer n = ops->listed(L, h->g);
        for (lua_Integer i = 0; i < n && !f->index; i++)
            if (ops->same(ops->move(h->g, i), &f->m)) f->index = i + 1;
    } else {
        char canon[TEXT_MAX];
        ops->text(h->g, &f->m, canon, sizeof canon);
        push_core_index(L, gi, h);
        if (lua_getfield(L, -1, canon) == LUA_TNUMBER) f->index = lua_tointeger(L, -1);
        lua_pop(L, 2);
    }
    if (!f->index) {
        /* Not listed: illegal, or legal beyond a cut list's bound. The
         * move is judged on its own, never by listing more. */
        const char *why = ops->refusal(h->g, &f->m, err, sizeof err);
        if (why) return dl_lua_refuse(L, why);
        if (!hook) return true;
        return dl_lua_refuse(L, "house rule: this table has more legal moves than the engine "
                                "lists, and the house rules' moves hook judges only the listed "
                                "ones: choose one of 'moves'");
    }
    if (!hook || plain) return true;
    push_verdict(L, gi, h);
    return verdict_allows(L, h, &f->m, &f->index);
}

/* ---- the round's end: score and match hooks ---- */

/* Pushes the hook's label (field label of the table at idx) as plain text
 * of at most max bytes, nil for none or only blanks, and returns NULL; or
 * pushes and returns what is wrong with it. A label is shown in results
 * and records: plain text, cut short, so a hook cannot put control
 * characters or a page of text there. */
static const char *read_label(lua_State *L, int idx, size_t max)
{
    lua_pushliteral(L, "label");
    lua_rawget(L, idx);
    if (lua_isnil(L, -1)) return NULL;
    if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 1);
        return lua_pushstring(L, "its label must be text (the name of the points the hook adds)");
    }
    size_t n;
    const char *t = lua_tolstring(L, -1, &n);
    dl_plain_push(L, t, n, max);
    lua_remove(L, -2);
    if (lua_rawlen(L, -1) == 0) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    return NULL;
}

/* The score hook: a breakdown it returns replaces the standard one, and
 * the name it gives the points it adds is kept for the round. */
static const char *score_hook(lua_State *L, int gi, Handle *h, int round)
{
    const dl_GameOps *ops = h->ops;
    if (!get_hook(L, gi, HOOK_SCORE)) return NULL;
    ops->push_breakdown(L, h->g);
    ops->push_state(L, h->g);
    const int st = lua_pcall(L, 2, 1, 0);
    still_open(L, h);
    if (st != LUA_OK) return hook_warning(L, "score", "scoring");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return NULL;
    }
    const int t = lua_gettop(L);
    dl_OpsScore score;
    const char *bad = ops->read_score(L, t, h->g, &score);
    if (!bad) bad = read_label(L, t, LABEL_MAX);
    if (bad) {
        const char *warn = lua_pushfstring(L, "house rule (score hook) returned a bad breakdown, "
                                              "standard scoring used: %s", bad);
        lua_replace(L, t);
        lua_settop(L, t);
        return warn;
    }
    set_label(L, gi, round);
    ops->apply_score(h->g, &score);
    lua_settop(L, t - 1);
    return NULL;
}

/* Calls the match hook (hook and state on the stack, popped): its
 * warning if it failed, else NULL and *decision the side it names the
 * winner (0 to sides - 1), -1 for a match that goes on, -2 for no say.
 * Anything but a side's number or false leaves the standard rules to
 * decide, so a hook that only sometimes has a say returns nil. */
static const char *call_match_hook(lua_State *L, int sides, int *decision)
{
    *decision = -2;
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) return hook_warning(L, "match", "match end");
    if (lua_isinteger(L, -1)) {
        lua_Integer w = lua_tointeger(L, -1);
        if (w >= 0 && w < sides) *decision = (int)w;
    } else if (lua_isboolean(L, -1) && !lua_toboolean(L, -1)) {
        *decision = -1;
    }
    lua_pop(L, 1);
    return NULL;
}

/* After a round ends: the score hook, then the match hook. A failing hook
 * leaves the standard rules in force for that round; its message is
 * returned for the caller to show. */
static const char *round_hooks(lua_State *L, int gi, Handle *h)
{
    const dl_GameOps *ops = h->ops;
    dl_OpsWhere w;
    ops->where(h->g, &w);
    lua_pushnil(L);
    set_label(L, gi, w.round);
    if (ops->scored && !ops->scored(h->g)) return NULL;
    const char *warn = score_hook(L, gi, h, w.round);
    if (warn || !get_hook(L, gi, HOOK_MATCH)) return warn;
    ops->push_state(L, h->g);
    int d;
    warn = call_match_hook(L, ops->sides(h->g), &d);
    still_open(L, h);
    if (d > -2) ops->decide(h->g, d);
    return warn;
}

/* The warning a move's answer carries: the moves hook's (at index first,
 * 0 for none) and then (on top of the stack when not NULL), joined; on
 * top of the stack when there is one. */
static const char *join_warnings(lua_State *L, int first, const char *then)
{
    if (!first) return then;
    if (then) {
        /* (then is on top: replaced, so that the answer ends effect, warning) */
        const char *both = lua_pushfstring(L, "%s; %s", lua_tostring(L, first), then);
        lua_remove(L, -2);
        return both;
    }
    lua_pushvalue(L, first);
    return lua_tostring(L, -1);
}

/* ---- methods ---- */

static void push_text(lua_State *L, const dl_GameOps *ops, const void *g, const void *m)
{
    char buf[TEXT_MAX];
    lua_pushlstring(L, buf, ops->text(g, m, buf, sizeof buf));
}

/* moves([structured]) -> the moves allowed here [, the note of a cut list] */
static int g_moves(lua_State *L)
{
    Handle *h = check(L);
    const dl_GameOps *ops = h->ops;
    const bool structured = lua_toboolean(L, 2);
    const lua_Integer n = ops->listed(L, h->g);
    if (!hook_filters(L, 1, h)) {
        lua_createtable(L, (int)n, 0);
        for (lua_Integer i = 0; i < n; i++) {
            const void *m = ops->move(h->g, i);
            if (structured) ops->push_move(L, h->g, m, i + 1);
            else push_text(L, ops, h->g, m);
            lua_rawseti(L, -2, i + 1);
        }
        return ops->cut_note(L, h->g) ? 2 : 1;
    }
    push_verdict(L, 1, h);
    lua_getfield(L, -1, "order");
    const int k = (int)lua_rawlen(L, -1);
    lua_createtable(L, k, 0); /* fresh: the caller may change it */
    for (int i = 1; i <= k; i++) {
        lua_rawgeti(L, -2, i);
        const void *m = ops->move(h->g, lua_tointeger(L, -1) - 1);
        lua_pop(L, 1);
        if (structured) ops->push_move(L, h->g, m, i);
        else push_text(L, ops, h->g, m);
        lua_rawseti(L, -2, i);
    }
    return ops->cut_note(L, h->g) ? 2 : 1;
}

/* count([budget]) -> n, exact: how many moves are legal, by the engine's
 * rules (a house rule's moves hook is not asked), found without listing
 * them; exact is false when the budget of checks ran out first (n is then
 * the count so far). The default budget answers in well under a second. */
static int g_count(lua_State *L)
{
    Handle *h = check(L);
    lua_Integer budget = luaL_optinteger(L, 2, 4000000);
    luaL_argcheck(L, budget > 0 && budget <= 100000000, 2, "a budget of 1 to 100000000 checks");
    lua_Integer n;
    bool exact;
    h->ops->count(h->g, (long)budget, &n, &exact);
    lua_pushinteger(L, n);
    lua_pushboolean(L, exact);
    return 2;
}

/* The effect of g:play(move, "brief"): the move's seat, text and number,
 * and whether it ended the round (match_over and a warning follow as for
 * any effect). What a loop needs that shows nothing: the game's own
 * fields of the move are not made. */
static void push_brief(lua_State *L, int seat, const char *text, lua_Integer index, bool round_over)
{
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, seat);
    lua_setfield(L, -2, "seat");
    lua_pushstring(L, text);
    lua_setfield(L, -2, "text");
    if (index) {
        lua_pushinteger(L, index);
        lua_setfield(L, -2, "index");
    }
    lua_pushboolean(L, round_over);
    lua_setfield(L, -2, "round_over");
}

/* play(move [, with_table | "brief"]) -> effect [, warning] | nil, reason.
 * The effect is a table, so the old `if g:play(m)` still reads it as success;
 * a failed score or match hook's warning comes second and in
 * effect.warning. */
static int g_play(lua_State *L)
{
    Handle *h = check(L);
    const dl_GameOps *ops = h->ops;
    const bool brief = lua_type(L, 3) == LUA_TSTRING && strcmp(lua_tostring(L, 3), "brief") == 0;
    Found f;
    if (!find_move(L, 1, h, 2, false, &f)) return 2;
    char err[300] = "", text[TEXT_MAX] = "";
    dl_OpsWhere before;
    if (brief) {
        ops->text(h->g, &f.m, text, sizeof text);
        ops->where(h->g, &before);
    }
    if (ops->play(h->g, &f.m, err, sizeof err)) return dl_lua_nil_why(L, err);
    int lost = 0; /* a house rule's moves hook lost its call here */
    if (!judged_plain(h) && has_hook(h, HOOK_MOVES)) {
        push_verdict(L, 1, h); /* (still this position's: kept until version changes) */
        lost = take_moves_warning(L);
    }
    h->version++;
    if (brief)
        push_brief(L, before.turn, text, f.index, ops->round_ended(h->g));
    else
        ops->push_effect(L, h->g, f.index, lua_toboolean(L, 3));
    const int effect = lua_gettop(L);
    const char *warn = ops->round_ended(h->g) ? round_hooks(L, 1, h) : NULL;
    warn = join_warnings(L, lost, warn);
    dl_OpsWhere w;
    ops->where(h->g, &w);
    lua_pushboolean(L, strcmp(w.phase, "match-over") == 0);
    lua_setfield(L, effect, "match_over");
    if (!warn) return 1;
    lua_pushvalue(L, -1);
    lua_setfield(L, effect, "warning");
    return 2;
}

/* check(move) -> true, what it does | false, reason */
static int g_check(lua_State *L)
{
    Handle *h = check(L);
    Found f;
    if (!find_move(L, 1, h, 2, true, &f)) {
        lua_pushboolean(L, 0);
        lua_replace(L, -3);
        return 2;
    }
    lua_pushboolean(L, 1);
    h->ops->explain(L, h->g, &f.m);
    return 2;
}

/* parse(move) -> the move as g:moves(true) lists it | nil, reason: what
 * g:play would do with it, without playing it. */
static int g_parse(lua_State *L)
{
    Handle *h = check(L);
    Found f;
    if (!find_move(L, 1, h, 2, true, &f)) return 2;
    h->ops->push_move(L, h->g, &f.m, f.index);
    return 1;
}

static int g_undo(lua_State *L)
{
    Handle *h = check(L);
    const bool done = h->ops->undo(h->g);
    if (done) h->version++;
    lua_pushboolean(L, done);
    return 1;
}

/* next_round() -> {round, dealer, deal} | nil, reason */
static int g_next_round(lua_State *L)
{
    Handle *h = check(L);
    const char *why = NULL;
    const int rc = h->ops->next_round(h->g, &why);
    if (rc < 0) return luaL_error(L, "out of memory");
    if (rc == 0) return dl_lua_nil_why(L, why);
    h->version++;
    dl_OpsWhere w;
    h->ops->where(h->g, &w);
    lua_createtable(L, 0, 3);
    dl_lua_set_int(L, "round", w.round);
    dl_lua_set_int(L, "dealer", w.dealer);
    dl_lua_set_int(L, "deal", w.deal);
    return 1;
}

static int g_clone(lua_State *L)
{
    Handle *h = check(L);
    void *c = h->ops->clone(h->g);
    if (!c) return luaL_error(L, "out of memory");
    /* The clone shares the hooks and starts with nothing known: its own
     * moves hook call fills its own cache. */
    push_handle(L, h->ops, c, 1);
    return 1;
}

static void push_turn(lua_State *L, const dl_OpsWhere *w)
{
    if (w->turn >= 0) lua_pushinteger(L, w->turn);
    else lua_pushnil(L);
}

static int g_turn(lua_State *L)
{
    Handle *h = check(L);
    dl_OpsWhere w;
    h->ops->where(h->g, &w);
    push_turn(L, &w);
    return 1;
}

static int g_phase(lua_State *L)
{
    Handle *h = check(L);
    dl_OpsWhere w;
    h->ops->where(h->g, &w);
    lua_pushstring(L, w.phase);
    return 1;
}

/* g:where() -> phase, turn (nil when nobody is to move), round, deal,
 * ply: where the game stands, in one call and without a table. */
static int g_where(lua_State *L)
{
    Handle *h = check(L);
    dl_OpsWhere w;
    h->ops->where(h->g, &w);
    lua_pushstring(L, w.phase);
    push_turn(L, &w);
    lua_pushinteger(L, w.round);
    lua_pushinteger(L, w.deal);
    lua_pushinteger(L, w.ply);
    return 5;
}

/* A seat argument: a seat of the game, or -1 for none (nil or
 * "spectator") when none is allowed. */
static int seat_arg(lua_State *L, const Handle *h, int arg, bool none)
{
    if (none && (lua_isnoneornil(L, arg) ||
                 (lua_type(L, arg) == LUA_TSTRING && strcmp(lua_tostring(L, arg), "spectator") == 0)))
        return -1;
    const lua_Integer seat = luaL_checkinteger(L, arg);
    luaL_argcheck(L, seat >= 0 && seat < h->ops->players(h->g), arg, h->ops->seats);
    return (int)seat;
}

/* view(seat) -> what that seat may know; view(nil) a spectator's */
static int g_view(lua_State *L)
{
    Handle *h = check(L);
    h->ops->push_view(L, h->g, seat_arg(L, h, 2, true));
    return 1;
}

static int g_state(lua_State *L)
{
    Handle *h = check(L);
    h->ops->push_state(L, h->g);
    return 1;
}

static int g_position(lua_State *L)
{
    Handle *h = check(L);
    h->ops->push_position(L, h->g, 2);
    return 1;
}

static int g_rules(lua_State *L)
{
    Handle *h = check(L);
    h->ops->push_rules(L, h->g);
    /* (every rules table says its game: the registry reads it) */
    lua_pushstring(L, h->ops->name);
    lua_setfield(L, -2, "game");
    return 1;
}

/* g:game() -> which game this handle plays (records save it). */
static int g_game(lua_State *L)
{
    lua_pushstring(L, check(L)->ops->name);
    return 1;
}

static int g_result(lua_State *L)
{
    Handle *h = check(L);
    h->ops->push_result(L, h->g, 1);
    return 1;
}

static int g_history(lua_State *L)
{
    Handle *h = check(L);
    h->ops->push_history(L, h->g, 1, 2);
    return 1;
}

static int g_search(lua_State *L)
{
    Handle *h = check(L);
    return h->ops->search(L, h->g, 2);
}

int dl_lua_history_seat(lua_State *L, int arg, int players, const char *seats)
{
    if (lua_type(L, arg) == LUA_TSTRING && strcmp(lua_tostring(L, arg), "spectator") == 0)
        return DL_HISTORY_SPECTATOR;
    /* (checked before the cast: 2^32 would be seat 0) */
    const lua_Integer seat = luaL_optinteger(L, arg, -1);
    luaL_argcheck(L, seat >= -1 && seat < players, arg, seats);
    return (int)seat;
}

int dl_lua_rawfield(lua_State *L, int idx, const char *k)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, k);
    return lua_rawget(L, idx);
}

void dl_lua_copy_table(lua_State *L, int idx, const char *drop)
{
    idx = lua_absindex(L, idx);
    lua_createtable(L, 0, 24);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (drop && lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), drop) == 0) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

/* public(effect, viewer) -> the part of a move's effect (or an event)
 * the viewer may see, a fresh table; nil when none of it. The mover sees
 * the whole of it; anyone else (viewer nil: a spectator) never its
 * number in the mover's list (how many moves came before it there tells
 * of the mover's hand), and the game hides what else is private. */
static int g_public(lua_State *L)
{
    Handle *h = check(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    const int viewer = seat_arg(L, h, 3, true);
    lua_settop(L, 2);
    /* (raw: an effect's metamethods never run here; and a seat of 0.5 or
     * "0" is nobody's, not the mover 0's, who would hear it whole) */
    if (viewer >= 0 && dl_lua_rawfield(L, 2, "seat") == LUA_TNUMBER && lua_isinteger(L, -1) && lua_tointeger(L, -1) == viewer) {
        dl_lua_copy_table(L, 2, NULL);
        return 1;
    }
    lua_settop(L, 2);
    h->ops->push_public(L, 2, viewer);
    return 1;
}

/* The seat's world when the seat is to move; else nil and why pushed.
 * Only the seat to move has one, so the one kept is its. */
static void *sealed_world(lua_State *L, Handle *h, int arg)
{
    const int seat = seat_arg(L, h, arg, false);
    dl_OpsWhere w;
    h->ops->where(h->g, &w);
    if (w.turn != seat) {
        lua_pushnil(L);
        lua_pushfstring(L, h->ops->not_turn, seat);
        return NULL;
    }
    if (h->world_version != h->version) {
        if (!h->ops->seal(h->g, seat, h->world)) luaL_error(L, "out of memory");
        h->world_version = h->version;
    }
    return h->world;
}

/* simulate(seat, move) -> effect | nil, reason: what the seat's own move
 * would do (the fields of g:play's effect), played on the world of the
 * seat's view, never on the game, so that its cost depends on nothing the
 * seat cannot see (docs/security.md). The move is checked against what
 * the game allows the seat now (the house rules' verdict, kept per
 * position, included). Nothing is worked out for another seat: no list of
 * the next seat's moves, no score or match hook. */
static int g_simulate(lua_State *L)
{
    Handle *h = check(L);
    const void *world = sealed_world(L, h, 2);
    if (!world) return 2;
    Found f;
    if (!find_move(L, 1, h, 3, false, &f)) return 2;
    return h->ops->simulate(L, world, &f.m, f.index);
}

/* g:hooks(): the game's house-rule hooks as a table diloti.new takes
 * (the same functions: a game made with them plays by the same house
 * rules, as a clone does), or nil when it has none. */
static int g_hooks(lua_State *L)
{
    Handle *h = check(L);
    if (!h->hooks) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 5);
    for (int i = 0; i < (int)(sizeof HOOK_FIELDS / sizeof *HOOK_FIELDS); i++) {
        if (!has_hook(h, i)) continue;
        if (i < HOOK_BUILT) {
            get_hook(L, 1, i);
            lua_setfield(L, -2, HOOK_FIELDS[i]);
        } else {
            /* (the flags as copy_hooks reads them: moves_built = true,
             * moves_state = false) */
            lua_pushboolean(L, i == HOOK_BUILT);
            lua_setfield(L, -2, HOOK_FIELDS[i]);
        }
    }
    return 1;
}

/* sealed(seat) -> position | nil, reason: the world g:simulate plays on
 * for the seat to move, as a position with every hand written out (the
 * tests compare it across games that differ only in hidden cards). */
static int g_sealed(lua_State *L)
{
    Handle *h = check(L);
    const void *world = sealed_world(L, h, 2);
    if (!world) return 2;
    h->ops->push_world(L, world);
    return 1;
}

static int g_tostring(lua_State *L)
{
    const Handle *h = luaL_checkudata(L, 1, OPS->type);
    h->ops->push_tostring(L, h->g);
    return 1;
}

/* The collector's end, and the end of a `local g <close>`: the game's C
 * memory (its history) is freed now, not when the collector, which does
 * not see it, gets round to the small userdata. */
static int g_gc(lua_State *L)
{
    Handle *h = luaL_checkudata(L, 1, OPS->type);
    if (h->g) h->ops->free(h->g);
    h->g = NULL;
    return 0;
}

/* g:close() is a call like any method; the collector's is not. */
static int g_close(lua_State *L)
{
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    return g_gc(L);
}

/* ---- registration ---- */

static const luaL_Reg METHODS[] = {
    {"moves", g_moves},     {"count", g_count},       {"play", g_play},         {"check", g_check},
    {"parse", g_parse},     {"undo", g_undo},         {"next_round", g_next_round},
    {"clone", g_clone},     {"close", g_close},       {"simulate", g_simulate}, {"sealed", g_sealed},
    {"hooks", g_hooks},
    {"turn", g_turn},       {"phase", g_phase},       {"where", g_where},       {"view", g_view},
    {"state", g_state},     {"position", g_position}, {"rules", g_rules},       {"result", g_result},
    {"history", g_history}, {"search", g_search},     {"game", g_game},         {"public", g_public},
    {NULL, NULL}};

/* Locked (__metatable false): a script cannot swap a handle's methods
 * for its own or reach the metatable of another game's handles. */
static void handle_type(lua_State *L, const dl_GameOps *ops)
{
    if (luaL_newmetatable(L, ops->type)) {
        lua_pushlightuserdata(L, (void *)ops);
        lua_pushcclosure(L, g_tostring, 1);
        lua_setfield(L, -2, "__tostring");
        lua_pushlightuserdata(L, (void *)ops);
        lua_pushcclosure(L, g_gc, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "__gc");
        lua_setfield(L, -2, "__close");
        lua_newtable(L);
        lua_pushlightuserdata(L, (void *)ops);
        lua_pushvalue(L, -3);
        luaL_setfuncs(L, METHODS, 2);
        if (ops->methods) {
            lua_pushlightuserdata(L, (void *)ops);
            lua_pushvalue(L, -3);
            luaL_setfuncs(L, ops->methods, 2);
        }
        lua_setfield(L, -2, "__index");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
}

void dl_handle_open(lua_State *L)
{
    luaL_checkversion(L);
    for (int i = 0; dl_games[i]; i++) handle_type(L, dl_games[i]);
}

/* Copies the hook functions of the hooks table on top into the table
 * below it and returns their HOOK_ bits, with the moves hook's flags
 * (kept as bits only); pops nothing. A game plays by the hooks it was
 * made with, so what they are is known then. The fields are read as Lua
 * reads them (a hook found through __index is one). */
static unsigned copy_hooks(lua_State *L)
{
    unsigned bits = 0;
    for (int i = 0; i < (int)(sizeof HOOK_FIELDS / sizeof *HOOK_FIELDS); i++) {
        const int t = lua_getfield(L, -1, HOOK_FIELDS[i]);
        if (i < HOOK_BUILT && t == LUA_TFUNCTION) {
            bits |= 1u << i;
            lua_rawseti(L, -3, i + 1);
            continue;
        }
        /* (moves_built = true, moves_state = false) */
        if (t == LUA_TBOOLEAN && i >= HOOK_BUILT && lua_toboolean(L, -1) == (i == HOOK_BUILT)) bits |= 1u << i;
        lua_pop(L, 1);
    }
    return bits;
}

int dl_handle_new(lua_State *L, const dl_GameOps *ops, int opts)
{
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    opts = lua_absindex(L, opts);
    luaL_checktype(L, opts, LUA_TTABLE);
    void *g = ops->create(L, opts);
    if (!g) return 2;
    push_handle(L, ops, g, 0);
    lua_getiuservalue(L, -1, 1);
    Handle *h = lua_touserdata(L, -2);
    if (lua_getfield(L, opts, "hooks") == LUA_TTABLE) h->hooks = copy_hooks(L);
    lua_pop(L, 2);
    return 1;
}

/* ---- rules fields ---- */

lua_Integer dl_lua_rule_int(lua_State *L, const char *where, lua_Integer lo, lua_Integer hi)
{
    if (lua_type(L, -1) != LUA_TNUMBER) /* lua_tointegerx would take "4" */
        luaL_error(L, "%s: expected a whole number, got %s", where, luaL_typename(L, -1));
    int whole;
    lua_Integer v = lua_tointegerx(L, -1, &whole);
    if (whole) {
        if (v < lo || v > hi) luaL_error(L, "%s: %I is out of range", where, v);
        return v;
    }
    /* %g by hand, not luaL_tolstring: a number's metatable is anybody's. */
    const double x = (double)lua_tonumber(L, -1);
    char num[40];
    snprintf(num, sizeof num, "%.14g", x);
    if (x - x == 0 && x == floor(x)) luaL_error(L, "%s: %s is out of range", where, num);
    return luaL_error(L, "%s: %s is not a whole number", where, num);
}
