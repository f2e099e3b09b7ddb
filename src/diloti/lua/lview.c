#include "lview.h"
#include <pthread.h>

#include <lauxlib.h>
#include <string.h>

#include "gameops.h"
#include "diloti/notation.h"
#include "diloti/score.h"
#include "diloti/deal.h"
#include "diloti/view.h"

static const char *const PHASES[] = {"claim", "play", "round-over", "match-over"};

/* Each card's name at a fixed address: Lua's cache of C strings is keyed
 * by address, so pushing these finds the Lua string at once instead of
 * hashing a name written into a buffer every time (a view or an effect
 * pushes dozens). */
static char NAMES[DL_NCARDS][4];
/* Written once for the whole process: diloti serve runs a Lua state in
 * each room's thread, and they would otherwise race to fill the names. */
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void fill_names(void)
{
    for (int c = 0; c < DL_NCARDS; c++) dl_card_str(c, NAMES[c], false);
}

void dl_lua_pushcard(lua_State *L, int card)
{
    pthread_once(&names_once, fill_names);
    lua_pushstring(L, NAMES[card]);
}

void dl_lua_pushcards(lua_State *L, dl_Set s)
{
    int n = 0;
    lua_createtable(L, dl_count(s), 0);
    for (; s; s &= s - 1) {
        dl_lua_pushcard(L, dl_first(s));
        lua_rawseti(L, -2, ++n);
    }
}

static void push_decl(lua_State *L, const dl_Decl *d, const uint8_t *comp)
{
    lua_createtable(L, 0, 6);
    lua_pushstring(L, d->kind == DL_DECL_GROUP ? "group" : "plain");
    lua_setfield(L, -2, "kind");
    dl_lua_set_int(L, "value", d->value);
    dl_lua_set_int(L, "owner", d->owner);
    lua_pushfstring(L, "%c%d@%d", d->kind == DL_DECL_GROUP ? 'G' : 'P', d->value, d->owner);
    lua_setfield(L, -2, "ref");
    dl_lua_pushcards(L, d->cards);
    lua_setfield(L, -2, "cards");
    lua_createtable(L, d->ncomp, 0);
    for (int c = 0; c < d->ncomp; c++) {
        dl_Set part = 0;
        for (dl_Set x = d->cards; x; x &= x - 1)
            if (d->kind == DL_DECL_PLAIN || comp[dl_first(x)] == c) part |= DL_BIT(dl_first(x));
        dl_lua_pushcards(L, part);
        lua_rawseti(L, -2, c + 1);
    }
    lua_setfield(L, -2, "components");
}

static void push_per(lua_State *L, const char *k, const int *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) lua_pushinteger(L, v[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, k);
}

void dl_lua_pushbreakdown(lua_State *L, const dl_RoundScore *r, int sides)
{
    lua_createtable(L, sides, 1);
    for (int i = 0; i < sides; i++) {
        lua_createtable(L, 0, 11);
#define F(n) (lua_pushinteger(L, r->n[i]), lua_setfield(L, -2, #n))
        F(cards); F(clubs); F(aces); F(xeris); F(pts_cards); F(pts_clubs); F(pts_aces);
        F(pts_ten_diamonds); F(pts_two_clubs); F(pts_xeri); F(total);
#undef F
        lua_rawseti(L, -2, i);
    }
}

void dl_lua_pushtable(lua_State *L, const dl_State *s)
{
    lua_createtable(L, 0, 2);
    dl_lua_pushcards(L, s->loose);
    lua_setfield(L, -2, "loose");
    lua_createtable(L, s->ndecl, 0);
    for (int i = 0; i < s->ndecl; i++) {
        push_decl(L, &s->decl[i], s->comp);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "declarations");
}

/* What a spectator may know: what every seat sees in public, so no hand,
 * no dealer's peek, and no claim another seat may have to decide. */
static void spectator_view(const dl_State *s, dl_View *v)
{
    dl_view(s, 0, v);
    if (s->phase == DL_PHASE_CLAIM) {
        v->phase = DL_PHASE_PLAY;
        v->turn = dl_first_player(s);
    }
    v->hand = 0;
    v->known_bottom = -1;
    dl_Set known = dl_table_cards(s);
    for (int i = 0; i < DL_MAX_PLAYERS; i++) known |= s->pile[i];
    v->unseen = DL_DECK & ~known;
}

void dl_lua_pushstate(lua_State *L, const dl_State *s, int seat)
{
    dl_View v;
    const bool all = seat == -1;
    if (seat == DL_LUA_SPECTATOR) spectator_view(s, &v);
    else dl_view(s, all ? s->turn : seat, &v);
    const int n = s->rules.players, sides = dl_nsides(&s->rules);
    luaL_checkstack(L, 10, "pushing a view");
    lua_createtable(L, 0, 25);
    if (seat >= 0) dl_lua_set_int(L, "seat", seat);
    dl_lua_set_int(L, "players", n);
    dl_lua_set_int(L, "sides", sides);
    lua_pushboolean(L, s->rules.teams);
    lua_setfield(L, -2, "teams");
    lua_pushstring(L, PHASES[all ? s->phase : v.phase]);
    lua_setfield(L, -2, "phase");
    if (s->phase == DL_PHASE_PLAY || s->phase == DL_PHASE_CLAIM)
        dl_lua_set_int(L, "turn", all ? s->turn : v.turn);
    dl_lua_set_int(L, "dealer", s->dealer);
    dl_lua_set_int(L, "deal", s->deal);
    dl_lua_set_int(L, "round", s->round);
    dl_lua_set_int(L, "ply", s->ply);
    if (s->last_capturer >= 0) dl_lua_set_int(L, "last_capturer", s->last_capturer);
    dl_lua_pushtable(L, s);
    lua_setfield(L, -2, "table");
    /* hands */
    if (seat >= 0) {
        dl_lua_pushcards(L, v.hand);
        lua_setfield(L, -2, "hand");
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        if (all)
            dl_lua_pushcards(L, s->hand[i]);
        else
            lua_pushinteger(L, v.hand_count[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, -2, all ? "hands" : "hand_counts");
    dl_lua_set_int(L, "pack_count", v.pack_count);
    if (all) {
        lua_createtable(L, s->pack_len - s->pack_pos, 0);
        char b[8];
        for (int i = s->pack_pos; i < s->pack_len; i++) {
            dl_card_str(s->pack[i], b, false);
            lua_pushstring(L, b);
            lua_rawseti(L, -2, i - s->pack_pos + 1);
        }
        lua_setfield(L, -2, "pack");
    } else {
        if (v.known_bottom >= 0) {
            char b[8];
            dl_card_str(v.known_bottom, b, false);
            lua_pushstring(L, b);
            lua_setfield(L, -2, "known_bottom");
        }
        dl_lua_pushcards(L, v.unseen);
        lua_setfield(L, -2, "unseen");
    }
    lua_createtable(L, sides, 0);
    for (int i = 0; i < sides; i++) dl_lua_pushcards(L, s->pile[i]), lua_rawseti(L, -2, i);
    lua_setfield(L, -2, "captured");
    int x[DL_MAX_PLAYERS], sc[DL_MAX_PLAYERS], w[DL_MAX_PLAYERS];
    for (int i = 0; i < sides; i++) x[i] = s->xeri[i], sc[i] = s->score[i], w[i] = s->rounds_won[i];
    push_per(L, "xeri", x, sides);
    push_per(L, "score", sc, sides);
    push_per(L, "rounds_won", w, sides);
    if (!all) {
        /* The piles and xeris are public, so what they would score is too;
         * the engine's own count, so that no front end redoes D23/K4. */
        dl_RoundScore r;
        dl_score_round(s, &r);
        dl_lua_pushbreakdown(L, &r, sides);
        lua_setfield(L, -2, "so_far");
    }
}

void dl_lua_pushexplain(lua_State *L, const dl_State *s, const dl_Move *m)
{
    char card[8], items[200] = "", mv[200];
    dl_move_str(s, m, mv, sizeof mv, false);
    if (m->kind == DL_CLAIM || m->kind == DL_KEEP) {
        lua_pushstring(L, m->kind == DL_CLAIM ? "claim a redeal of the round (V-face-card-claim)"
                                              : "keep the cards dealt (V-face-card-claim)");
        return;
    }
    dl_card_str(m->card, card, false);
    const char *sp = strchr(mv, ' ');
    if (sp && m->kind != DL_LAY) {
        const char *start = sp + 3; /* past " x " or " + " */
        const char *eq = strstr(start, " =");
        size_t len = eq ? (size_t)(eq - start) : strlen(start);
        if (len >= sizeof items) len = sizeof items - 1;
        memcpy(items, start, len);
        items[len] = '\0';
    }
    int taken = 1 + dl_count(m->take & DL_DECK);
    for (int i = 0; i < s->ndecl; i++)
        if (m->take & DL_DECL_BIT(i)) taken += dl_count(s->decl[i].cards);
    /* Kontsina's turn is its own rule, K2 (one combination), not D10-D13. */
    const bool kontsina = s->rules.capture == DL_CAPTURE_ONE;
    switch (m->kind) {
    case DL_LAY: lua_pushfstring(L, "lay %s on the table (%s)", card, kontsina ? "K2" : "D10"); break;
    case DL_CAPTURE:
        lua_pushfstring(L, "capture %s with %s: %d cards to your pile (%s)", items, card, taken,
                        kontsina ? "K2" : "D11-D13");
        break;
    case DL_PLAIN:
        lua_pushfstring(L, "declare %d: %s joins %s; you must capture it later (D15, D19)",
                        m->value, card, items);
        break;
    case DL_RAISE:
        lua_pushfstring(L, "raise %s to %d with %s; it becomes yours (D16, D19)", items, m->value, card);
        break;
    default:
        lua_pushfstring(L, "group of %ds: %s with %s; it becomes yours (D17, D19)", m->value, card, items);
        break;
    }
}
