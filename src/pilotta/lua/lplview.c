#include "lplview.h"

#include <lauxlib.h>

#include "gameops.h"
#include "lplrules.h"
#include "pilotta/action.h"
#include "pilotta/auction.h"
#include "pilotta/notation.h"

const char *const pl_lua_phases[] = {"auction", "trump", "contra", "play", "round-over", "match-over"};
const char *const pl_lua_kinds[] = {"pass", "bid", "contra", "recontra", "trump", "announce", "show", "play"};

/* A seat or team field that may be absent (-1). */
static void set_opt(lua_State *L, const char *k, int v)
{
    if (v >= 0) dl_lua_set_int(L, k, v);
}

static void set_pair(lua_State *L, const char *k, int a, int b)
{
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, a);
    lua_rawseti(L, -2, 0);
    lua_pushinteger(L, b);
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, k);
}

void pl_lua_pushcard(lua_State *L, int card)
{
    char b[8];
    pl_card_str(card, b, false);
    lua_pushstring(L, b);
}

void pl_lua_pushcards(lua_State *L, pl_Set s)
{
    lua_createtable(L, pl_count(s), 0);
    int n = 0;
    for (; s; s &= s - 1) {
        pl_lua_pushcard(L, pl_first(s));
        lua_rawseti(L, -2, ++n);
    }
}

static void push_suit(lua_State *L, int suit)
{
    char c = pl_suit_char(suit);
    lua_pushlstring(L, &c, 1);
}

void pl_lua_pushcontract(lua_State *L, int bid, int suit, int bidder, int mult, int contra_by)
{
    if (!bid || bidder < 0) {
        lua_pushnil(L);
        return;
    }
    lua_createtable(L, 0, 8);
    pl_Action a = {0, PL_BID, (uint8_t)bid, (int8_t)suit, 0, 0};
    char buf[32];
    pl_call_str(&a, buf, sizeof buf, false);
    lua_pushstring(L, buf);
    lua_setfield(L, -2, "bid");
    dl_lua_set_int(L, "value", bid == PL_CAPOT ? 250 : bid * 10);
    lua_pushboolean(L, bid == PL_CAPOT);
    lua_setfield(L, -2, "capot");
    if (suit >= 0) {
        push_suit(L, suit);
        lua_setfield(L, -2, "suit");
    }
    dl_lua_set_int(L, "bidder", bidder);
    dl_lua_set_int(L, "team", pl_team(bidder));
    dl_lua_set_int(L, "mult", mult);
    set_opt(L, "contra_by", contra_by);
}

/* The calls with who made each: the auction does not depend on the
 * cards, so it is replayed on an empty table. */
static void push_calls(lua_State *L, const pl_View *v)
{
    pl_State t;
    pl_state_blank(&t, &v->rules);
    t.dealer = (uint8_t)v->dealer;
    t.turn = (uint8_t)pl_eldest(&t);
    lua_createtable(L, v->ncalls, 0);
    for (int i = 0; i < v->ncalls; i++) {
        pl_Action a = pl_call_decode(v->calls[i]);
        char buf[32];
        pl_call_str(&a, buf, sizeof buf, false);
        lua_createtable(L, 0, 3);
        lua_pushstring(L, buf);
        lua_setfield(L, -2, "text");
        lua_pushstring(L, pl_lua_kinds[a.kind]);
        lua_setfield(L, -2, "kind");
        dl_lua_set_int(L, "seat", t.turn);
        lua_rawseti(L, -2, i + 1);
        if (t.phase <= PL_PHASE_CONTRA) pl_auction_apply(&t, &a);
    }
    lua_setfield(L, -2, "calls");
}

/* Index in played[] of the card winning the trick from first, n cards (P29). */
static int best_of(const uint8_t *played, int first, int n, int trump)
{
    int best = first;
    for (int i = first + 1; i < first + n; i++) {
        int c = played[i], b = played[best];
        if (pl_suit(c) == pl_suit(b) ? pl_beating(PL_BIT(c), b, trump) != 0 : pl_suit(c) == trump) best = i;
    }
    return best;
}

/* tricks = {{leader, cards, winner, points}, ...} (the one under way last,
 * its winner being who is winning it), trick = the one under way. */
static void push_tricks(lua_State *L, const pl_View *v)
{
    const int ntricks = (v->nplayed + 3) / 4;
    lua_createtable(L, ntricks, 0);
    for (int k = 0; k < ntricks; k++) {
        const int first = 4 * k, n = v->nplayed - first < 4 ? v->nplayed - first : 4;
        lua_createtable(L, 0, 5);
        dl_lua_set_int(L, "leader", v->leader[k]);
        lua_createtable(L, n, 0);
        pl_Set cards = 0;
        for (int i = 0; i < n; i++) {
            pl_lua_pushcard(L, v->played[first + i]);
            lua_rawseti(L, -2, i + 1);
            cards |= PL_BIT(v->played[first + i]);
        }
        lua_setfield(L, -2, "cards");
        const int w = (v->leader[k] + best_of(v->played, first, n, v->bid_suit) - first) & 3;
        dl_lua_set_int(L, n == 4 ? "winner" : "winning", w);
        if (n == 4) dl_lua_set_int(L, "points", pl_set_points(cards, v->bid_suit) + (k == 7 ? 10 : 0));
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "tricks");
    /* the trick under way: who leads it and who is winning it */
    if (v->phase != 3) return;
    const int k = v->nplayed / 4, n = v->nplayed % 4;
    const int leader = k == 0 ? v->leader[0] : (n ? v->leader[k] : v->turn);
    dl_lua_set_int(L, "leader", leader);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        pl_lua_pushcard(L, v->played[4 * k + i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "trick");
    if (n) dl_lua_set_int(L, "winning", (leader + best_of(v->played, 4 * k, n, v->bid_suit) - 4 * k) & 3);
}

static void push_decls(lua_State *L, const pl_PublicDecl *d, int n, const pl_State *all)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 6);
        dl_lua_set_int(L, "seat", d[i].seat);
        lua_pushstring(L, d[i].kind == PL_RUN ? "run" : "four");
        lua_setfield(L, -2, "kind");
        dl_lua_set_int(L, "value", d[i].value);
        if (d[i].kind == PL_RUN) dl_lua_set_int(L, "length", d[i].length);
        else {
            char b[8];
            pl_card_str(pl_card(d[i].rank, 0), b, false);
            b[pl_rank(d[i].rank) == PL_R10 ? 2 : 1] = '\0';
            lua_pushstring(L, b);
            lua_setfield(L, -2, "rank");
        }
        pl_Set cards = all ? all->decl[i].cards : d[i].cards;
        if (cards) {
            pl_lua_pushcards(L, cards);
            lua_setfield(L, -2, "cards");
        }
        lua_pushboolean(L, d[i].shown);
        lua_setfield(L, -2, "shown");
        if (d[i].lost) {
            lua_pushboolean(L, 1);
            lua_setfield(L, -2, "lost");
        }
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "announcements");
}

static void push_standing(lua_State *L, int standing)
{
    if (standing == PL_STANDING_NOT_YET) return;
    if (standing == 0 || standing == 1) lua_pushinteger(L, standing);
    else lua_pushstring(L, standing == PL_STANDING_EQUAL ? "equal" : "none");
    lua_setfield(L, -2, "standing");
}

/* The fields every seat may know (P50), from the view only; all: the
 * state, for the announced cards of everyone (state() only). */
static void push_public(lua_State *L, const pl_View *v, int ply, const pl_State *all)
{
    lua_createtable(L, 0, 32);
    lua_pushliteral(L, "pilotta");
    lua_setfield(L, -2, "game");
    lua_pushstring(L, pl_lua_phases[v->phase]);
    lua_setfield(L, -2, "phase");
    if (v->phase < 4) dl_lua_set_int(L, "turn", v->turn);
    dl_lua_set_int(L, "dealer", v->dealer);
    dl_lua_set_int(L, "round", v->round);
    dl_lua_set_int(L, "deal", 1);
    dl_lua_set_int(L, "ply", ply);
    dl_lua_set_int(L, "players", 4);
    lua_createtable(L, 4, 0);
    for (int i = 0; i < 4; i++) lua_pushinteger(L, v->hand_count[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, "hand_count");
    push_calls(L, v);
    pl_lua_pushcontract(L, v->bid, v->bid_suit, v->bidder, v->mult, v->contra_by);
    lua_setfield(L, -2, "contract");
    if (v->bid_suit >= 0 && v->bid) {
        push_suit(L, v->bid_suit);
        lua_setfield(L, -2, "trumps");
    }
    push_tricks(L, v);
    set_pair(L, "tricks_won", v->trick_won[0], v->trick_won[1]);
    set_pair(L, "trick_points", v->trick_points[0], v->trick_points[1]);
    push_decls(L, v->decl, v->ndecl, all);
    push_standing(L, v->standing);
    set_opt(L, "belote", v->belote);
    set_pair(L, "score", v->score[0], v->score[1]);
    set_opt(L, "winner", v->winner);
    dl_lua_set_int(L, "target", v->rules.target);
    if (v->last.bidders >= 0 || v->last.thrown_in) {
        pl_lua_pushbreakdown(L, &v->last);
        lua_setfield(L, -2, "last");
    }
    pl_lua_pushrules(L, &v->rules);
    lua_setfield(L, -2, "rules");
}

void pl_lua_pushview(lua_State *L, const pl_State *s, int seat, int ply)
{
    pl_View v;
    pl_view(s, seat, &v);
    push_public(L, &v, ply, NULL);
    dl_lua_set_int(L, "seat", seat);
    pl_lua_pushcards(L, v.hand);
    lua_setfield(L, -2, "hand");
    pl_lua_pushcards(L, v.unseen);
    lua_setfield(L, -2, "unseen");
}

/* What every seat sees in public: no hand, and of the announcements only
 * the cards shown (P38, P50). */
void pl_lua_pushspectator(lua_State *L, const pl_State *s, int ply)
{
    pl_View v;
    pl_view(s, 0, &v);
    v.hand = 0;
    v.unseen = 0;
    for (int i = 0; i < 4; i++) v.unseen |= s->hand[i];
    for (int i = 0; i < v.ndecl; i++)
        if (!v.decl[i].shown) v.decl[i].cards = 0;
    push_public(L, &v, ply, NULL);
    pl_lua_pushcards(L, v.unseen);
    lua_setfield(L, -2, "unseen");
}

void pl_lua_pushstate(lua_State *L, const pl_State *s, int ply)
{
    pl_View v;
    pl_view(s, 0, &v);
    push_public(L, &v, ply, s);
    lua_createtable(L, 4, 0);
    for (int i = 0; i < 4; i++) {
        pl_lua_pushcards(L, s->hand[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, -2, "hands");
}

void pl_lua_pushbreakdown(lua_State *L, const pl_RoundScore *r)
{
    lua_createtable(L, 2, 8);
    for (int t = 0; t < 2; t++) {
        lua_createtable(L, 0, 7);
        dl_lua_set_int(L, "trick_points", r->trick_points[t]);
        dl_lua_set_int(L, "declarations", r->decl[t]);
        dl_lua_set_int(L, "belote", r->belote[t]);
        dl_lua_set_int(L, "raw", r->raw[t]);
        dl_lua_set_int(L, "game", r->game[t]);
        dl_lua_set_int(L, "total", r->game[t]);
        dl_lua_set_int(L, "tricks", r->tricks[t]);
        lua_rawseti(L, -2, t);
    }
    dl_lua_set_int(L, "value", r->value);
    dl_lua_set_int(L, "mult", r->mult);
    set_opt(L, "bidders", r->bidders);
    lua_pushboolean(L, r->made);
    lua_setfield(L, -2, "made");
    lua_pushboolean(L, r->thrown_in);
    lua_setfield(L, -2, "thrown_in");
    if (r->game[0] != r->game[1]) dl_lua_set_int(L, "winner", r->game[0] > r->game[1] ? 0 : 1);
}
