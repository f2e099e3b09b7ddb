/* Diloti's and Kontsina's operations for the game handle (gameops.h,
 * src/lua/handle.c) over a dl_Game: its moves, effects, views and tables,
 * its score hook's breakdown, its search and the box natives of its AIs
 * (best_capture, points: lcapture.c). */
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gameops.h"
#include "diloti/deal.h"
#include "diloti/game.h"
#include "diloti/legal.h"
#include "diloti/lua/lcapture.h"
#include "diloti/lua/lrules.h"
#include "diloti/lua/lview.h"
#include "diloti/notation.h"
#include "diloti/score.h"
#include "diloti/search.h"
#include "diloti/view.h"

/* (a move and a round's score fit the handle's room for them) */
typedef char move_fits[sizeof(dl_Move) <= sizeof(dl_OpsMove) ? 1 : -1];
typedef char score_fits[sizeof(dl_RoundScore) <= sizeof(dl_OpsScore) ? 1 : -1];

/* ---- moves as values ---- */

static const char *const KINDS[] = {"lay", "capture", "plain", "raise", "group", "claim", "keep"};

static void push_move_text(lua_State *L, const dl_State *s, const dl_Move *m)
{
    char buf[200];
    lua_pushlstring(L, buf, (size_t)dl_move_str(s, m, buf, sizeof buf, false));
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

static const char *const PHASES[] = {"claim", "play", "round-over", "match-over"};

static void push_result(lua_State *L, const void *game, int gi)
{
    const dl_Game *g = game;
    const dl_State *s = &g->s;
    const int nsides = dl_nsides(&s->rules);
    lua_createtable(L, 0, 6);
    bool done = s->phase == DL_PHASE_ROUND_OVER || s->phase == DL_PHASE_MATCH_OVER;
    if (done || s->round > 1) {
        push_breakdown(L, s);
        dl_lua_push_label(L, gi, done ? s->round : s->round - 1);
        lua_setfield(L, -2, "label");
        lua_setfield(L, -2, "round");
    }
    lua_createtable(L, nsides, 0);
    for (int i = 0; i < nsides; i++) lua_pushinteger(L, s->score[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, "score");
    lua_createtable(L, nsides, 0);
    for (int i = 0; i < nsides; i++) lua_pushinteger(L, s->rounds_won[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, "rounds_won");
    lua_pushboolean(L, s->phase == DL_PHASE_MATCH_OVER);
    lua_setfield(L, -2, "over");
    if (s->winner >= 0) lua_pushinteger(L, s->winner), lua_setfield(L, -2, "winner");
    lua_pushinteger(L, s->round);
    lua_setfield(L, -2, "rounds");
}

static void push_history(lua_State *L, const void *game, int gi, int arg)
{
    const dl_Game *g = game;
    /* (a spectator's: no keep, as nobody's seat is the keeper's) */
    const int seat = dl_lua_history_seat(L, arg, g->s.rules.players, "no such seat");
    lua_newtable(L);
    int n = 0;
    for (size_t i = 0; i < g->nrec; i++) {
        const dl_Record *r = &g->rec[i];
        if (seat != -1 && !dl_record_public(r, seat)) continue;
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
            dl_lua_push_label(L, gi, r->before.round);
            lua_setfield(L, -2, "label");
            lua_setfield(L, -2, "breakdown");
        }
        lua_rawseti(L, -2, ++n);
    }
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

static int search(lua_State *L, void *game, int arg)
{
    static const char *const W[DL_NW] = {"cards", "clubs", "aces", "ten_diamonds",
                                         "two_clubs", "xeri", "count"};
    dl_Game *g = game;
    (void)arg; /* (the handle's options are its second argument) */
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
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

/* ---- making one ---- */

/* new{rules = table, seed = n, dealer = n, position = text} */
static void *create(lua_State *L, int opts)
{
    dl_Rules r;
    dl_rules_diloti(&r);
    if (lua_getfield(L, opts, "rules") == LUA_TTABLE) dl_lua_torules(L, -1, &r);
    lua_pop(L, 1);
    lua_Integer seed = 0, dealer = -1;
    if (lua_getfield(L, opts, "seed") != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "seed: expected an integer");
        seed = lua_tointeger(L, -1);
    }
    if (lua_getfield(L, opts, "dealer") != LUA_TNIL) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "dealer: expected an integer seat");
        dealer = lua_tointeger(L, -1);
    }
    lua_pop(L, 2);
    dl_Game *g = NULL;
    if (lua_getfield(L, opts, "position") == LUA_TSTRING) {
        char buf[300] = "";
        g = dl_game_from_position(&r, lua_tostring(L, -1), (uint64_t)seed, buf, sizeof buf);
        lua_pop(L, 1);
        /* (a message the core forgot to write must not print the stack) */
        buf[sizeof buf - 1] = '\0';
        if (!g) dl_lua_refuse(L, buf[0] ? buf : "the position could not be loaded");
        return g;
    }
    lua_pop(L, 1);
    const char *err = NULL;
    g = dl_game_new(&r, (uint64_t)seed, (int)dealer, &err);
    if (!g) dl_lua_refuse(L, err);
    return g;
}

static void game_free(void *g) { dl_game_free(g); }

static void *clone(const void *g) { return dl_game_clone(g); }

/* ---- moves ---- */

static lua_Integer moves_listed(lua_State *L, void *g) { return (lua_Integer)listed(L, g)->n; }

static const void *move(const void *game, lua_Integer i)
{
    return &((const dl_Game *)game)->legal.m[i];
}

static bool cut_note(lua_State *L, const void *game)
{
    const dl_Game *g = game;
    if (!g->listed || !g->legal.cut) return false;
    push_cut_note(L, &g->legal);
    return true;
}

static size_t move_text(const void *game, const void *m, char *buf, size_t n)
{
    const dl_Game *g = game;
    return (size_t)dl_move_str(&g->s, m, buf, n, false);
}

static void push_move(lua_State *L, const void *game, const void *m, lua_Integer index)
{
    const dl_Game *g = game;
    push_move_table(L, &g->s, m, index);
}

static bool same(const void *a, const void *b) { return dl_move_eq(a, b); }

static int parse(const void *game, const char *text, void *m, char *err, size_t n)
{
    const dl_Game *g = game;
    return dl_move_parse(&g->s, text, m, err, n) != NULL;
}

static const char *refusal(void *g, const void *m, char *err, size_t n)
{
    return dl_game_refusal(g, m, err, n);
}

static void count(void *game, long budget, lua_Integer *n, bool *exact)
{
    const dl_Game *g = game;
    dl_MoveCount c = dl_count_moves(&g->s, budget);
    /* a count cut short is a lower bound, and the moves listed are legal */
    if (!c.exact && g->listed && c.count < g->legal.n) c.count = g->legal.n;
    *n = (lua_Integer)c.count;
    *exact = c.exact;
}

static void explain(lua_State *L, const void *game, const void *m)
{
    const dl_Game *g = game;
    dl_lua_pushexplain(L, &g->s, m);
}

/* ---- playing ---- */

static int play(void *g, const void *m, char *err, size_t n)
{
    return dl_game_play(g, m, err, n) != NULL;
}

static void effect(lua_State *L, const void *g, lua_Integer index, bool with_table)
{
    push_effect(L, g, index, with_table);
}

static bool round_ended(const void *game)
{
    const dl_Game *g = game;
    return g->rec[g->nrec - 1].effect.round_over;
}

static bool undo(void *g) { return dl_game_undo(g); }

static int next_round(void *game, const char **why)
{
    dl_Game *g = game;
    if (g->s.phase != DL_PHASE_ROUND_OVER) {
        *why = g->s.phase == DL_PHASE_MATCH_OVER ? "D24: the match is over" : "D22: the round is not over yet";
        return 0;
    }
    return dl_game_next_round(g) ? 1 : -1;
}

static void where(const void *game, dl_OpsWhere *w)
{
    const dl_State *s = &((const dl_Game *)game)->s;
    w->phase = PHASES[s->phase];
    w->turn = s->phase == DL_PHASE_PLAY || s->phase == DL_PHASE_CLAIM ? s->turn : -1;
    w->round = s->round;
    w->deal = s->deal;
    w->ply = s->ply;
    w->dealer = s->dealer;
}

static int players(const void *game) { return ((const dl_Game *)game)->s.rules.players; }

static int sides(const void *game) { return dl_nsides(&((const dl_Game *)game)->s.rules); }

/* ---- house rules at the round's end ---- */

static void breakdown(lua_State *L, const void *game)
{
    push_breakdown(L, &((const dl_Game *)game)->s);
}

static const char *read_score(lua_State *L, int t, const void *game, dl_OpsScore *out)
{
    const dl_State *s = &((const dl_Game *)game)->s;
    dl_RoundScore *r = (dl_RoundScore *)out->bytes;
    *r = s->last;
    const char *bad = read_breakdown(L, t, r, dl_nsides(&s->rules));
    for (int i = 0; !bad && i < dl_nsides(&s->rules); i++)
        if (llabs((long long)s->score[i] - s->last.total[i] + r->total[i]) > DL_SCORE_MAX)
            bad = lua_pushfstring(L, "side %d's match score would pass %d", i, DL_SCORE_MAX);
    return bad;
}

static void apply_score(void *game, const dl_OpsScore *score)
{
    dl_adjust_round(&((dl_Game *)game)->s, (const dl_RoundScore *)score->bytes);
}

static void decide(void *game, int d)
{
    dl_State *s = &((dl_Game *)game)->s;
    s->winner = (int8_t)d;
    s->phase = d >= 0 ? DL_PHASE_MATCH_OVER : DL_PHASE_ROUND_OVER;
}

/* ---- what may be known ---- */

static void push_view(lua_State *L, const void *game, int seat)
{
    dl_lua_pushstate(L, &((const dl_Game *)game)->s, seat < 0 ? DL_LUA_SPECTATOR : seat);
}

static void push_state(lua_State *L, const void *game)
{
    dl_lua_pushstate(L, &((const dl_Game *)game)->s, -1);
}

/* What a seat other than the mover may see of a move: not its number in
 * the mover's list, and nothing of a private keep (V-face-card-claim:
 * whether a seat could claim is its own knowledge). Nor its place in
 * g:history(), which counts the keeps: a move numbered 2 at ply 0 told
 * that its seat had kept. */
static void push_public(lua_State *L, int idx, int viewer)
{
    (void)viewer;
    if (dl_lua_rawfield(L, idx, "kind") == LUA_TSTRING && strcmp(lua_tostring(L, -1), "keep") == 0) {
        lua_pushnil(L);
        return;
    }
    lua_pop(L, 1);
    dl_lua_copy_table(L, idx, "index");
    lua_pushnil(L);
    lua_setfield(L, -2, "number");
}

static void push_position(lua_State *L, const void *game, int arg)
{
    char buf[DL_POSITION_MAX];
    dl_position_str(&((const dl_Game *)game)->s, buf, sizeof buf, lua_toboolean(L, arg));
    lua_pushstring(L, buf);
}

static void push_rules(lua_State *L, const void *game)
{
    dl_lua_pushrules(L, &((const dl_Game *)game)->s.rules);
}

static void push_tostring(lua_State *L, const void *game)
{
    if (!game) {
        lua_pushliteral(L, "diloti game (freed)");
        return;
    }
    const dl_State *s = &((const dl_Game *)game)->s;
    static const char *const P[] = {"claim decision", "to play", "round over", "match over"};
    lua_pushfstring(L, "diloti game: %d players, round %d, deal %d, seat %d %s", s->rules.players,
                    s->round, s->deal, s->turn, P[s->phase]);
}

/* ---- the sealed world ---- */

static bool seal(const void *game, int seat, void *world)
{
    dl_sealed_state(&((const dl_Game *)game)->s, seat, world);
    return true;
}

static int simulate(lua_State *L, const void *world, const void *move, lua_Integer index)
{
    const dl_State *before = world;
    const dl_Move *m = move;
    dl_State after = *before;
    dl_Effect e;
    dl_apply(&after, m, &e);
    lua_createtable(L, 0, 16);
    set_move_fields(L, before, m, index, NULL);
    set_outcome(L, before, m, &e, &after);
    if (!e.round_over) {
        dl_lua_pushtable(L, &after);
        lua_setfield(L, -2, "after");
    }
    return 1;
}

static void push_world(lua_State *L, const void *world)
{
    char buf[DL_POSITION_MAX];
    dl_position_str(world, buf, sizeof buf, false);
    lua_pushstring(L, buf);
}

/* ---- rules ---- */

static const char *const BASES[] = {"diloti", "kontsina", NULL};

static void base_rules(lua_State *L, const char *base)
{
    dl_Rules r;
    if (strcmp(base, "kontsina") == 0) dl_rules_kontsina(&r);
    else dl_rules_diloti(&r);
    dl_lua_pushrules(L, &r);
}

static int check_rules(lua_State *L, int idx)
{
    dl_Rules r;
    dl_rules_diloti(&r);
    dl_lua_torules(L, idx, &r);
    const char *e = dl_rules_check(&r);
    if (e) return dl_lua_nil_why(L, e);
    lua_pushboolean(L, 1);
    return 1;
}

static const luaL_Reg NATIVES[] = {{"best_capture", dl_capture_best}, {"points", dl_capture_points}, {NULL, NULL}};

const dl_GameOps dl_ops_diloti = {
    .name = "diloti",
    .type = "diloti.Game",
    .seats = "no such seat",
    .not_turn = "seat %d is not the one to move",
    .no_move = "D20: the house rules' moves hook left seat %d no legal move (engine error)",
    .world_size = sizeof(dl_State),
    .create = create,
    .free = game_free,
    .clone = clone,
    .listed = moves_listed,
    .move = move,
    .move_size = sizeof(dl_Move),
    .cut_note = cut_note,
    .text = move_text,
    .push_move = push_move,
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
    .scored = NULL,
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
    .methods = NULL,
    .natives = NATIVES,
};
