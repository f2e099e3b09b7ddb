#include "rules.h"

#include <string.h>

#include "cards.h"

void dl_rules_diloti(dl_Rules *r)
{
    memset(r, 0, sizeof *r);
    r->players = 2;
    r->hand_size = 6;
    r->table_cards = 4;
    r->deals = 4; /* D6: 16 + 3 x 12 */
    r->declarations = true;
    r->capture = DL_CAPTURE_MANY;
    r->face_lay_blocked = true;
    r->redeal = DL_REDEAL_FACE_TRIPLE;
    r->claim_faces = 5;
    r->xeri = true;
    r->xeri_last_card = true;
    r->points = (dl_Points){4, 1, 2, 1, 0, 10}; /* D23 */
    r->match = DL_MATCH_POINTS;
    r->target = 61;
}

void dl_rules_kontsina(dl_Rules *r)
{
    memset(r, 0, sizeof *r);
    r->players = 2;
    r->hand_size = 4;
    r->table_cards = 4;
    r->deals = 6; /* K1: 8 + 4, then 5 x 8 */
    r->capture = DL_CAPTURE_ONE;
    r->redeal = DL_REDEAL_NONE;
    r->claim_faces = 5;
    r->points = (dl_Points){2, 0, 1, 1, 1, 0}; /* K4 */
    r->match = DL_MATCH_ROUNDS;
    r->target = 3;
}

void dl_rules_set_players(dl_Rules *r, int players, bool teams)
{
    r->players = players;
    r->teams = teams && players == 4;
    int per = players * r->hand_size;
    if (per > 0) r->deals = (DL_NCARDS - r->table_cards) / per;
}

const char *dl_rules_check(const dl_Rules *r)
{
    if (r->players < 2 || r->players > 4) return "players must be 2, 3 or 4";
    if (r->teams && r->players != 4) return "teams need 4 players";
    if (r->hand_size < 1 || r->hand_size > 13) return "hand size must be 1..13";
    if (r->table_cards < 0 || r->table_cards > 12)
        return "table cards must be 0..12";
    if (r->deals < 1 ||
        r->players * r->hand_size * r->deals + r->table_cards != DL_NCARDS)
        return "players x hand size x deals + table cards must use exactly "
               "52 cards";
    if (r->face_card_claim && (r->claim_faces < 1 || r->claim_faces > r->hand_size))
        return "face-card claim threshold must be 1..hand size";
    if (r->target < 1) return "the match target must be at least 1";
    if (r->declarations && r->players == 4 && !r->teams)
        return "D7: four players of Diloti play in two fixed partnerships (teams)";
    if (r->declarations && r->players == 3)
        return "D7: Diloti is played by 2 players or by 4 in partnerships";
    if (!r->declarations &&
        (r->liberal_group || r->liberal_raise || r->soy))
        return "declaration variants need declarations";
    if (r->capture == DL_CAPTURE_ONE && r->liberal_capture)
        return "V-liberal-capture needs the Diloti capture model";
    return NULL;
}
