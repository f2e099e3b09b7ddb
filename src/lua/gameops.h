/* A game for the Lua binding: the operations one game supplies (its
 * src/NAME/lua/ folder), over which the one game handle (handle.c) writes
 * every method once. The list of games is made by the Makefile (GAMES):
 * dl_games[], the default game first.
 *
 * The handle owns what does not depend on the game: reading a move
 * argument (its text, its number in g:moves(), a table with text), the
 * house rules' moves hook and its verdict kept per position, warnings and
 * labels of the score and match hooks, the answers of play, check, parse
 * and undo, the sealed world of g:simulate, the locked metatable, close
 * and gc. A game answers for its own moves, states and tables.
 *
 * A game is a `void *` to the handle; a move is the game's own struct,
 * copied into a dl_OpsMove (move_size bytes at most). Operations that
 * build a Lua table push it; those that can refuse return the reason. */
#ifndef DL_GAMEOPS_H
#define DL_GAMEOPS_H

#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

/* Room for any game's move, and for a round's score as a hook set it. */
typedef union {
    unsigned char bytes[96];
    long long align_i;
    double align_d;
    void *align_p;
} dl_OpsMove;

typedef union {
    unsigned char bytes[512];
    long long align_i;
    double align_d;
    void *align_p;
} dl_OpsScore;

/* Where a game stands (g:where()). turn: -1 when nobody is to move. */
typedef struct {
    const char *phase;
    int turn, round, deal, ply, dealer;
} dl_OpsWhere;

typedef struct dl_GameOps dl_GameOps;
struct dl_GameOps {
    const char *name;  /* g:game(), core.open(name) */
    const char *type;  /* the metatable's name */
    const char *seats; /* "no such seat (...)": what a bad seat is told */
    /* why a seat that is not to move has no sealed world ("%d": the seat) */
    const char *not_turn;
    /* the engine error of a moves hook that left no move ("%d": the seat) */
    const char *no_move;
    size_t world_size; /* bytes of the sealed world (g:simulate) */

    /* ---- making and freeing ---- */
    /* new{rules, seed, dealer, position} at index opts: the game, or NULL
     * with nil, why pushed (raises for arguments of the wrong type). */
    void *(*create)(lua_State *L, int opts);
    void (*free)(void *g);
    void *(*clone)(const void *g); /* NULL: out of memory */

    /* ---- moves ---- */
    /* The legal moves (bounded, as the game lists them): how many. Raises
     * when memory ran out. */
    lua_Integer (*listed)(lua_State *L, void *g);
    /* The i-th (0-based) of them, the list's own (valid until the state
     * changes). */
    const void *(*move)(const void *g, lua_Integer i);
    size_t move_size; /* bytes of a move (at most sizeof(dl_OpsMove)) */
    /* Pushes the note a cut list carries and returns true; or false. */
    bool (*cut_note)(lua_State *L, const void *g);
    /* Writes the move's canonical text in the position now; returns its
     * length. */
    size_t (*text)(const void *g, const void *m, char *buf, size_t n);
    /* Pushes the move as g:moves(true) lists it (index 0: none). */
    void (*push_move)(lua_State *L, const void *g, const void *m, lua_Integer index);
    /* Optional: pushes the first n listed moves (listed first) as a list
     * of push_move's tables without index: the moves hook's list, made
     * for less than a push_move a move. */
    void (*push_list)(lua_State *L, const void *g, lua_Integer n);
    /* Optional: the same list made in a house rule's box, of tables
     * whose fields are made when read (box.h, dl_BoxLazy). */
    void (*push_lazy_list)(lua_State *L, const void *g, lua_Integer n);
    bool (*same)(const void *a, const void *b);
    /* Reads a move's text: 0 and m, or non-zero and err. */
    int (*parse)(const void *g, const char *text, void *m, char *err, size_t n);
    /* Why a move that is not listed is refused; NULL: legal all the same
     * (beyond a cut list's bound). err is the buffer a reason may use. */
    const char *(*refusal)(void *g, const void *m, char *err, size_t n);
    /* g:count(budget): how many moves are legal and whether exactly. */
    void (*count)(void *g, long budget, lua_Integer *n, bool *exact);
    /* Pushes a sentence saying what a legal move does (g:check). */
    void (*explain)(lua_State *L, const void *g, const void *m);

    /* ---- playing ---- */
    /* Plays a legal move: 0, or non-zero with err. */
    int (*play)(void *g, const void *m, char *err, size_t n);
    /* Pushes the effect of the move just played (docs/architecture.md). */
    void (*push_effect)(lua_State *L, const void *g, lua_Integer index, bool with_table);
    bool (*round_ended)(const void *g); /* did the move just played end the round? */
    bool (*undo)(void *g);
    /* Deals the next round: 1; 0 with *why (not now); -1 out of memory. */
    int (*next_round)(void *g, const char **why);
    void (*where)(const void *g, dl_OpsWhere *w);
    int (*players)(const void *g);

    /* ---- house rules at the round's end ---- */
    /* false: the round has no score for the hooks (a thrown-in round);
     * NULL: always scored. */
    bool (*scored)(const void *g);
    void (*push_breakdown)(lua_State *L, const void *g); /* the round's, for the score hook */
    /* Reads the score hook's answer (a table at t, raw reads only) into
     * out: NULL, or pushes and returns what is wrong with it. */
    const char *(*read_score)(lua_State *L, int t, const void *g, dl_OpsScore *out);
    void (*apply_score)(void *g, const dl_OpsScore *score);
    int (*sides)(const void *g);
    /* The match hook's decision: a side wins (>= 0), or -1 plays on. */
    void (*decide)(void *g, int decision);

    /* ---- what may be known (fresh tables) ---- */
    /* seat >= 0: what that seat may know; -1: a spectator's (no hand). */
    void (*push_view)(lua_State *L, const void *g, int seat);
    void (*push_state)(lua_State *L, const void *g);
    /* The part of the effect at idx (a table) that a seat other than the
     * mover may see (viewer -1: a spectator): pushes a fresh table, or nil
     * when nothing of it is theirs to see. */
    void (*push_public)(lua_State *L, int idx, int viewer);
    /* g:position(arg), g:history(arg), g:result(); gi: the handle's index
     * (the labels of its rounds). */
    void (*push_position)(lua_State *L, const void *g, int arg);
    void (*push_history)(lua_State *L, const void *g, int gi, int arg);
    void (*push_result)(lua_State *L, const void *g, int gi);
    void (*push_rules)(lua_State *L, const void *g);
    void (*push_tostring)(lua_State *L, const void *g); /* g NULL: freed */
    /* g:search(opts at arg): pushes the answer, returns how many values. */
    int (*search)(lua_State *L, void *g, int arg);

    /* ---- the seat to move's sealed world (g:simulate, g:sealed) ---- */
    bool (*seal)(const void *g, int seat, void *world); /* false: out of memory */
    /* Plays the move on a copy of the world: pushes its effect or nil, why;
     * returns how many values. */
    int (*simulate)(lua_State *L, const void *world, const void *m, lua_Integer index);
    void (*push_world)(lua_State *L, const void *world); /* as a position */

    /* ---- the game module: rules and the sandbox ---- */
    const char *const *bases; /* base rules names, the first the default */
    /* Pushes the rules of a base (one of bases). */
    void (*base_rules)(lua_State *L, const char *base);
    /* Reads a rules table at idx and pushes true or nil, why. */
    int (*check_rules)(lua_State *L, int idx);
    /* Methods only this game has (each takes the handle first: see
     * dl_handle_game), and the natives its boxes may be handed: C
     * functions that read only their arguments. May be NULL. */
    const luaL_Reg *methods;
    const luaL_Reg *natives;
};

/* The games of this build (games.c, made by the Makefile), NULL-ended. */
extern const dl_GameOps *const dl_games[];

/* The game named, or NULL. */
const dl_GameOps *dl_find_game(const char *name);
/* Registers every game's handle type; once per Lua state. */
void dl_handle_open(lua_State *L);
/* core.open(name, opts) for a game: pushes a new handle or nil, why. */
int dl_handle_new(lua_State *L, const dl_GameOps *ops, int opts);
/* The game of the handle at idx, raising for anything else (a game-only
 * method's first step). */
void *dl_handle_game(lua_State *L, int idx, const dl_GameOps *ops);
/* Calls of game methods and constructors so far (core.calls()). */
lua_Integer dl_handle_calls(void);
/* Is f one of a game's natives? (a box takes it as its own) */
bool dl_is_native(lua_CFunction f);

/* ---- helpers for games' operations ---- */

/* Pushes nil, why; returns false. Inline so that the analyzer (make lint)
 * sees a refused move is never read. */
static inline bool dl_lua_refuse(lua_State *L, const char *why)
{
    lua_pushnil(L);
    lua_pushstring(L, why);
    return false;
}

/* Pushes nil, why; returns 2 (a method's answer when it refuses). */
static inline int dl_lua_nil_why(lua_State *L, const char *why)
{
    lua_pushnil(L);
    lua_pushstring(L, why);
    return 2;
}

/* t[k] = v for the table on top. */
static inline void dl_lua_set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static inline void dl_lua_set_bool(lua_State *L, const char *k, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

/* Pushes the label a score hook gave round's points, or nil. */
void dl_lua_push_label(lua_State *L, int gi, int round);
/* The whole number on top of the stack for a rules field, within
 * [lo, hi]; a whole float counts. Otherwise raises "where: ..." quoting
 * the number as the script wrote it. */
lua_Integer dl_lua_rule_int(lua_State *L, const char *where, lua_Integer lo, lua_Integer hi);
/* Pushes a shallow copy of the table at idx without its key `drop`
 * (NULL: none). */
void dl_lua_copy_table(lua_State *L, int idx, const char *drop);
/* Pushes t[k] of the table at idx, read raw (g:public's effect may be
 * anybody's table: its metamethods must not run); returns its type. */
int dl_lua_rawfield(lua_State *L, int idx, const char *k);
/* g:history's argument at arg: -1 for none (the whole history, for the
 * trusted), DL_HISTORY_SPECTATOR for "spectator" (nothing private of any
 * seat), or a seat of players; raises for anything else. */
#define DL_HISTORY_SPECTATOR (-2)
int dl_lua_history_seat(lua_State *L, int arg, int players, const char *seats);

#endif
