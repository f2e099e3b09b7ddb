#include "pilotta/state.h"

#include <string.h>

void pl_state_blank(pl_State *s, const pl_Rules *r)
{
    memset(s, 0, sizeof *s);
    s->rules = *r;
    s->round = 1;
    s->bid_suit = -1;
    s->bidder = -1;
    s->contra_by = -1;
    s->mult = 1;
    s->standing = PL_STANDING_NOT_YET;
    s->belote = -1;
    s->winner = -1;
    s->last.bidders = -1;
}

pl_Set pl_played_by(const pl_State *s, int seat)
{
    pl_Set out = 0;
    for (int i = 0; i < s->nplayed; i++)
        if (pl_player_of(s, i) == seat) out |= PL_BIT(s->played[i]);
    return out;
}

pl_Set pl_trick_set(const pl_State *s)
{
    pl_Set out = 0;
    for (int i = s->nplayed - pl_trick_count(s); i < s->nplayed; i++) out |= PL_BIT(s->played[i]);
    return out;
}
