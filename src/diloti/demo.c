/* `make play` until the Lua table arrives (issue 5): a text demo of one
 * Diloti round between two random players, every move shown with the
 * table it was played on. Usage: diloti-demo [seed] [players]. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "game.h"
#include "notation.h"
#include "score.h"

static void show_table(const dl_State *s)
{
    char b[400];
    dl_set_str(s->loose, b, sizeof b, true);
    printf("   table: %s", s->loose ? b : "(empty)");
    for (int i = 0; i < s->ndecl; i++) {
        dl_decl_str(s, i, b, sizeof b, true);
        printf("  %s", b);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 10) : (unsigned long long)time(NULL);
    int players = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 2;
    dl_Rules r;
    dl_rules_diloti(&r);
    dl_rules_set_players(&r, players, players == 4);
    const char *err;
    dl_Game *g = dl_game_new(&r, seed, -1, &err);
    if (!g) {
        fprintf(stderr, "diloti-demo: %s\n", err);
        return 1;
    }
    dl_Rng pick;
    dl_rng_seed(&pick, seed ^ 0x5eedULL);
    printf("Diloti demo: %d random players, seed %llu, dealer %d\n", players, seed, g->s.dealer);
    while (g->s.phase == DL_PHASE_PLAY || g->s.phase == DL_PHASE_CLAIM) {
        const dl_MoveList *l = dl_game_moves(g);
        if (!l || !l->n) {
            fprintf(stderr, "engine error: %s\n", l ? "no legal move (D20)" : "out of memory");
            break;
        }
        char hand[200], mv[160], why[200];
        if (g->s.ply % 12 == 0 || g->s.ply == 0) show_table(&g->s);
        dl_set_str(g->s.hand[g->s.turn], hand, sizeof hand, true);
        const dl_Move m = l->m[dl_rng_below(&pick, (uint32_t)l->n)];
        dl_move_str(&g->s, &m, mv, sizeof mv, true);
        int seat = g->s.turn;
        size_t choices = l->n;
        if (dl_game_play(g, &m, why, sizeof why)) {
            fprintf(stderr, "engine error: %s\n", why);
            return 1;
        }
        const dl_Effect *e = &g->rec[g->nrec - 1].effect;
        printf("P%d [%s] plays %s (%zu choices)%s\n", seat, hand, mv, choices, e->xeri ? "  XERI!" : "");
        if (e->dealt) printf("-- deal %d --\n", g->s.deal);
    }
    const dl_RoundScore *sc = &g->s.last;
    printf("\nround over\n");
    for (int i = 0; i < dl_nsides(&g->s.rules); i++)
        printf("side %d: %2d cards, %d aces, 10d %d, 2c %d, %d xeri -> %d points\n", i,
               sc->cards[i], sc->aces[i], sc->pts_ten_diamonds[i] > 0,
               sc->pts_two_clubs[i] > 0, sc->xeris[i], sc->total[i]);
    dl_game_free(g);
    return 0;
}
