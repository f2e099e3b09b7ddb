/* Pilotta's operations for the game handle (gameops.h, src/lua/handle.c)
 * over a pl_Game (docs/architecture.md, "Pilotta's answers"): its
 * actions, effects, views and tables, its score hook's game points, its
 * search, and its own method g:solve (the double-dummy value, for the
 * host). */
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gameops.h"
#include "pilotta/decl.h"
#include "pilotta/game.h"
#include "pilotta/lua/lplaction.h"
#include "pilotta/lua/lplrules.h"
#include "pilotta/lua/lplsearch.h"
#include "pilotta/lua/lplview.h"
#include "pilotta/notation.h"
#include "pilotta/position.h"
#include "pilotta/score.h"
#include "pilotta/search.h"

/* A match score a score hook may reach (either sign): far above any
 * target (100,000 at most), far below where the engine's 32-bit score
 * would overflow, even with the standard points of 32,767 more rounds. */
#define SCORE_MAX 10000000

/* (an action and a round's game points fit the handle's room for them) */
typedef char move_fits[sizeof(pl_Action) <= sizeof(dl_OpsMove) ? 1 : -1];

/* ---- actions as values ---- */

static void set_bool(lua_State *L, const char *k, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
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
    const pl_Action a = r->action; /* (a copy: the analyzer loses track of r) */
    lua_createtable(L, 0, 20);
    pl_lua_setaction(L, b, &a, index, r->text);
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


static bool to_move(const pl_State *s) { return s->phase < PL_PHASE_ROUND_OVER; }


/* The breakdown of the round that record i ended, as it was scored. */
static const pl_RoundScore *scored(const pl_Game *g, size_t i)
{
    return i + 1 < g->nrec ? &g->rec[i + 1].before.last : &g->s.last;
}

static void push_result(lua_State *L, const void *game, int gi)
{
    const pl_Game *g = game;
    const pl_State *s = &g->s;
    lua_createtable(L, 0, 7);
    const bool done = s->phase >= PL_PHASE_ROUND_OVER;
    if (done || s->round > 1) {
        pl_lua_pushbreakdown(L, &s->last);
        dl_lua_push_label(L, gi, done ? s->round : s->round - 1);
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
}

/* What seat may read of record r: another seat's announcement by its
 * kind and value only, and another seat's card without "nobelote" (a
 * declined belote would tell that it holds the other card; P50). */
static void push_history_text(lua_State *L, const pl_Record *r, int seat)
{
    if (seat == -1 || r->next_round || r->seat == seat || (r->action.kind != PL_ANNOUNCE &&
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

static void push_history(lua_State *L, const void *game, int gi, int arg)
{
    const pl_Game *g = game;
    const int seat = dl_lua_history_seat(L, arg, 4, "no such seat (Pilotta's seats are 0 to 3)");
    lua_createtable(L, (int)g->nrec, 0);
    for (size_t i = 0; i < g->nrec; i++) {
        const pl_Record *r = &g->rec[i];
        lua_createtable(L, 0, 8);
        push_history_text(L, r, seat);
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
        if (r->round_over) {
            pl_lua_pushbreakdown(L, scored(g, i));
            dl_lua_push_label(L, gi, r->before.round);
            lua_setfield(L, -2, "label");
            lua_setfield(L, -2, "breakdown");
        }
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}


/* ---- making one ---- */

static lua_Integer opt_int(lua_State *L, int opts, const char *k, lua_Integer def, const char *what)
{
    lua_Integer v = def;
    if (lua_getfield(L, opts, k) != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "%s: expected an integer%s", k, what);
        v = lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

/* new{rules = table, seed = n, dealer = n, position = text} */
static void *create(lua_State *L, int opts)
{
    pl_Rules r;
    pl_rules_default(&r);
    if (lua_getfield(L, opts, "rules") == LUA_TTABLE) pl_lua_torules(L, -1, &r);
    lua_pop(L, 1);
    const lua_Integer seed = opt_int(L, opts, "seed", 0, "");
    const lua_Integer dealer = opt_int(L, opts, "dealer", -1, " seat");
    if (dealer < -1 || dealer > 3) {
        dl_lua_refuse(L, "P1: four players, seats 0 to 3: no such dealer");
        return NULL;
    }
    pl_Game *g;
    if (lua_getfield(L, opts, "position") == LUA_TSTRING) {
        char err[300] = "";
        g = pl_game_from_position(&r, lua_tostring(L, -1), (uint64_t)seed, err, sizeof err);
        lua_pop(L, 1);
        err[sizeof err - 1] = '\0';
        if (!g) dl_lua_refuse(L, err[0] ? err : "the position could not be loaded");
        return g;
    }
    lua_pop(L, 1);
    const char *why = NULL;
    g = pl_game_new(&r, (uint64_t)seed, (int)dealer, &why);
    if (!g) dl_lua_refuse(L, why);
    return g;
}

static void game_free(void *g) { pl_game_free(g); }

static void *clone(const void *g) { return pl_game_clone(g); }

/* ---- actions ---- */

/* (a Pilotta list is short: it is always listed whole) */
static lua_Integer listed(lua_State *L, void *g)
{
    (void)L;
    return pl_game_legal(g)->n;
}

static const void *move(const void *game, lua_Integer i)
{
    /* (listed first: the list is the game's own until it changes) */
    return &((const pl_Game *)game)->legal.a[i];
}

static void push_list(lua_State *L, const void *game, lua_Integer n)
{
    const pl_Game *g = game;
    pl_lua_pushlist(L, &g->s, g->legal.a, n);
}

static void push_lazy_list(lua_State *L, const void *game, lua_Integer n)
{
    const pl_Game *g = game;
    pl_lua_pushlazylist(L, &g->s, g->legal.a, n);
}

static bool cut_note(lua_State *L, const void *g)
{
    (void)L, (void)g;
    return false;
}

static size_t action_text(const void *game, const void *a, char *buf, size_t n)
{
    return (size_t)pl_action_str(&((const pl_Game *)game)->s, a, buf, n, false);
}

static void push_move(lua_State *L, const void *game, const void *a, lua_Integer index)
{
    pl_lua_pushaction(L, &((const pl_Game *)game)->s, a, index);
}

static bool same(const void *a, const void *b) { return pl_action_eq(a, b); }

static int parse(const void *game, const char *text, void *m, char *err, size_t n)
{
    const pl_State *s = &((const pl_Game *)game)->s;
    pl_Action a;
    if (pl_action_parse(s, text, &a, err, n)) return 1;
    *(pl_Action *)m = pl_normalize(s, &a);
    return 0;
}

static const char *refusal(void *game, const void *a, char *err, size_t n)
{
    const char *why = pl_refusal(&((const pl_Game *)game)->s, a, err, n);
    /* (the list is whole: an action not in it is refused) */
    return why ? why : "P51: not a legal action here";
}

/* count() -> n, true: as Diloti's (a Pilotta list is short, so it is
 * always listed whole and the count is exact). */
static void count(void *g, long budget, lua_Integer *n, bool *exact)
{
    (void)budget;
    *n = pl_game_legal(g)->n;
    *exact = true;
}

static void explain(lua_State *L, const void *game, const void *a)
{
    push_explain(L, &((const pl_Game *)game)->s, a);
}

/* ---- playing ---- */

static int play(void *g, const void *a, char *err, size_t n)
{
    return pl_game_play(g, a, err, n) != NULL;
}

static void effect(lua_State *L, const void *g, lua_Integer index, bool with_table)
{
    push_effect(L, g, index, with_table);
}

static bool round_ended(const void *game)
{
    const pl_Game *g = game;
    return g->rec[g->nrec - 1].round_over;
}

static bool undo(void *g) { return pl_game_undo(g); }

static int next_round(void *game, const char **why)
{
    pl_Game *g = game;
    if (g->s.phase != PL_PHASE_ROUND_OVER) {
        *why = g->s.phase == PL_PHASE_MATCH_OVER ? "P49: the match is over" : "P10: the round is not over yet";
        return 0;
    }
    return pl_game_next_round(g) ? 1 : -1;
}

static void where(const void *game, dl_OpsWhere *w)
{
    const pl_Game *g = game;
    const pl_State *s = &g->s;
    w->phase = pl_lua_phases[s->phase];
    w->turn = to_move(s) ? s->turn : -1;
    w->round = s->round;
    w->deal = 1;
    w->ply = pl_game_ply(g);
    w->dealer = s->dealer;
}

static int players(const void *g)
{
    (void)g;
    return 4;
}

static int sides(const void *g)
{
    (void)g;
    return 2;
}

/* ---- house rules at the round's end ---- */

/* A thrown-in round (P19) scores nothing: no hook is asked about it. */
static bool scored_round(const void *game) { return !((const pl_Game *)game)->s.last.thrown_in; }

static void breakdown(lua_State *L, const void *game)
{
    pl_lua_pushbreakdown(L, &((const pl_Game *)game)->s.last);
}

/* The score hook may change each team's game points (breakdown[t].game). */
static const char *read_score(lua_State *L, int t, const void *game, dl_OpsScore *out)
{
    const pl_State *s = &((const pl_Game *)game)->s;
    int *points = (int *)out->bytes;
    for (int k = 0; k < 2; k++) {
        if (lua_rawgeti(L, t, k) != LUA_TTABLE) return lua_pushfstring(L, "team %d is missing", k);
        lua_pushliteral(L, "game");
        lua_rawget(L, -2);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < -99999 || lua_tointeger(L, -1) > 99999)
            return lua_pushfstring(L, "team %d's game must be an integer", k);
        if (llabs((long long)s->score[k] - s->last.game[k] + lua_tointeger(L, -1)) > SCORE_MAX)
            return lua_pushfstring(L, "team %d's match score would pass %d", k, SCORE_MAX);
        points[k] = (int)lua_tointeger(L, -1);
        lua_pop(L, 2);
    }
    return NULL;
}

static void apply_score(void *game, const dl_OpsScore *score)
{
    rescore(&((pl_Game *)game)->s, (const int *)score->bytes);
}

static void decide(void *game, int d)
{
    pl_State *s = &((pl_Game *)game)->s;
    s->winner = (int8_t)d;
    s->phase = d >= 0 ? PL_PHASE_MATCH_OVER : PL_PHASE_ROUND_OVER;
}

/* ---- what may be known ---- */

static void push_view(lua_State *L, const void *game, int seat)
{
    const pl_Game *g = game;
    if (seat < 0) pl_lua_pushspectator(L, &g->s, pl_game_ply(g));
    else pl_lua_pushview(L, &g->s, seat, pl_game_ply(g));
}

static void push_state(lua_State *L, const void *game)
{
    const pl_Game *g = game;
    pl_lua_pushstate(L, &g->s, pl_game_ply(g));
}

/* What the other seats and a spectator see of an announcement: its kind
 * and value, not its cards (P50; they become public when shown, P38). */
static const char *const PUBLIC_ANNOUNCE[] = {"type", "kind", "seat", "side", "round", "deal", "ply",
                                              "number", "value", "round_over", "match_over", NULL};

static void push_announcement(lua_State *L, int idx)
{
    lua_createtable(L, 0, 16);
    for (int i = 0; PUBLIC_ANNOUNCE[i]; i++) {
        dl_lua_rawfield(L, idx, PUBLIC_ANNOUNCE[i]);
        lua_setfield(L, -2, PUBLIC_ANNOUNCE[i]);
    }
    if (dl_lua_rawfield(L, idx, "declaration") == LUA_TTABLE) {
        static const char *const D[] = {"kind", "value", "length", "rank", NULL};
        lua_createtable(L, 0, 4);
        for (int i = 0; D[i]; i++) {
            dl_lua_rawfield(L, -2, D[i]);
            lua_setfield(L, -2, D[i]);
        }
        lua_setfield(L, -3, "declaration");
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "announce");
    lua_setfield(L, -2, "text");
    lua_pushliteral(L, "announce");
    lua_setfield(L, -2, "move");
}

/* Does the text at the top end in " nobelote"? */
static bool declined_belote(lua_State *L)
{
    size_t n;
    const char *t = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n) : NULL;
    return t && n >= 9 && strcmp(t + n - 9, " nobelote") == 0;
}

/* What a seat other than the mover may see of an action: not its number
 * in the mover's list, an announcement by its kind and value, a card
 * played without the belote by the card alone ("Qh nobelote" would tell
 * that the seat holds the other card, P50): an event's text and move, a
 * history entry's move. */
static void push_public(lua_State *L, int idx, int viewer)
{
    (void)viewer;
    const char *kind = dl_lua_rawfield(L, idx, "kind") == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (kind && strcmp(kind, "announce") == 0) {
        lua_pop(L, 1);
        push_announcement(L, idx);
        return;
    }
    const bool card = kind && strcmp(kind, "play") == 0;
    lua_pop(L, 1);
    dl_lua_copy_table(L, idx, "index");
    if (!card) return;
    static const char *const F[] = {"text", "move", NULL};
    for (int i = 0; F[i]; i++) {
        dl_lua_rawfield(L, idx, F[i]);
        if (declined_belote(L)) {
            size_t n;
            const char *t = lua_tolstring(L, -1, &n);
            lua_pushlstring(L, t, n - 9);
            lua_setfield(L, -3, F[i]);
        }
        lua_pop(L, 1);
    }
}

/* position([hide]): hide true hides every hand, a seat every hand but
 * that seat's. */
static void push_position(lua_State *L, const void *game, int arg)
{
    const pl_Game *g = game;
    unsigned hide = 0;
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Integer seat = luaL_checkinteger(L, arg);
        luaL_argcheck(L, seat >= 0 && seat < 4, arg, "no such seat (Pilotta's seats are 0 to 3)");
        hide = 0xFu & ~(1u << seat);
    } else if (lua_toboolean(L, arg)) {
        hide = 0xF;
    }
    char buf[PL_POSITION_MAX];
    pl_position_str(&g->s, buf, sizeof buf, hide);
    lua_pushstring(L, buf);
}

static void push_rules(lua_State *L, const void *game)
{
    pl_lua_pushrules(L, &((const pl_Game *)game)->s.rules);
}

static void push_tostring(lua_State *L, const void *game)
{
    if (!game) {
        lua_pushliteral(L, "pilotta game (freed)");
        return;
    }
    const pl_State *s = &((const pl_Game *)game)->s;
    lua_pushfstring(L, "pilotta game: round %d, %s, seat %d to act, score %d-%d", (int)s->round,
                    pl_lua_phases[s->phase], s->turn, (int)s->score[0], (int)s->score[1]);
}

static int search(lua_State *L, void *game, int arg)
{
    return pl_lua_search(L, &((const pl_Game *)game)->s, arg);
}

/* ---- the sealed world ---- */

static bool seal(const void *game, int seat, void *world)
{
    return pl_sealed_state(&((const pl_Game *)game)->s, seat, world);
}

static int simulate(lua_State *L, const void *world, const void *action, lua_Integer index)
{
    const pl_State *before = world;
    const pl_Action *a = action;
    char err[300];
    /* (the seat's own actions are the same in its world: a refusal here
     * would be an engine error, answered as one) */
    if (pl_refusal(before, a, err, sizeof err)) return dl_lua_nil_why(L, err);
    pl_State after = *before;
    pl_apply_legal(&after, a);
    const bool trick_over = a->kind == PL_PLAY && after.nplayed > before->nplayed && (after.nplayed & 3) == 0;
    lua_createtable(L, 0, 16);
    pl_lua_setaction(L, before, a, index, NULL);
    set_outcome(L, a, trick_over, after.phase >= PL_PHASE_ROUND_OVER, &after);
    return 1;
}

static void push_world(lua_State *L, const void *world)
{
    char buf[PL_POSITION_MAX];
    pl_position_str(world, buf, sizeof buf, 0);
    lua_pushstring(L, buf);
}

/* ---- rules and Pilotta's own method ---- */

static const char *const BASES[] = {"pilotta", NULL};

static void base_rules(lua_State *L, const char *base)
{
    (void)base;
    pl_Rules r;
    pl_rules_default(&r);
    pl_lua_pushrules(L, &r);
}

static int check_rules(lua_State *L, int idx)
{
    pl_Rules r;
    pl_rules_default(&r);
    pl_lua_torules(L, idx, &r);
    const char *e = pl_rules_check(&r);
    if (e) return dl_lua_nil_why(L, e);
    lua_pushboolean(L, 1);
    return 1;
}

const dl_GameOps dl_ops_pilotta;

/* g:solve(): the double-dummy value with every hand open (the host's). */
static int g_solve(lua_State *L)
{
    const pl_Game *g = dl_handle_game(L, 1, &dl_ops_pilotta);
    return pl_lua_solve(L, &g->s);
}

static const luaL_Reg METHODS[] = {{"solve", g_solve}, {NULL, NULL}};

const dl_GameOps dl_ops_pilotta = {
    .name = "pilotta",
    .type = "diloti.PilottaGame",
    .seats = "no such seat (Pilotta's seats are 0 to 3)",
    .not_turn = "seat %d is not the one to act",
    .no_move = "P51: the house rules' moves hook left seat %d no legal action (engine error)",
    .world_size = sizeof(pl_State),
    .create = create,
    .free = game_free,
    .clone = clone,
    .listed = listed,
    .move = move,
    .move_size = sizeof(pl_Action),
    .cut_note = cut_note,
    .text = action_text,
    .push_move = push_move,
    .push_list = push_list,
    .push_lazy_list = push_lazy_list,
    .same = same,
    .parse = parse,
    .refusal = refusal,
    .count = count,
    .explain = explain,
    .play = play,
    .push_effect = effect,
    .round_ended = round_ended,
    .undo = undo,
    .next_round = next_round,
    .where = where,
    .players = players,
    .scored = scored_round,
    .push_breakdown = breakdown,
    .read_score = read_score,
    .apply_score = apply_score,
    .sides = sides,
    .decide = decide,
    .push_view = push_view,
    .push_state = push_state,
    .push_public = push_public,
    .push_position = push_position,
    .push_history = push_history,
    .push_result = push_result,
    .push_rules = push_rules,
    .push_tostring = push_tostring,
    .search = search,
    .seal = seal,
    .simulate = simulate,
    .push_world = push_world,
    .bases = BASES,
    .base_rules = base_rules,
    .check_rules = check_rules,
    .methods = METHODS,
    .natives = NULL,
};
