/* Text notation for moves and positions (docs/notation.md).
 *
 *   7h lay                      lay a card (D10)
 *   8h x 2c 3s 5d 6h 8c P8@1    capture: the cards and declarations taken
 *   3h + 5c = 8                 plain declaration of 8 (D15)
 *   5h + P4@1 = 9               raise seat 1's plain 4 to 9 (D16)
 *   6h + 2c 8s = G8             group of 8s (D17)
 *   claim / keep                V-face-card-claim decision
 *
 * A declaration is printed by kind (P plain, G group), value and owner
 * seat. It is read in those words or fewer: the owner alone ("@1", a seat
 * owns at most one, D19), kind and value ("P8"), all of its cards in any
 * order ("3c 5c"), or its value ("8"); a short name that fits several
 * items is refused with the choices (docs/notation.md 2.2). */
#ifndef DL_NOTATION_H
#define DL_NOTATION_H

#include <stddef.h>

#include "moves.h"

/* The canonical string of a move in state s (before it is played):
 * cards lowest first, then declarations by owner. Returns the length. */
int dl_move_str(const dl_State *s, const dl_Move *m, char *buf, size_t cap,
                bool unicode);
/* Parses a move against s. Returns NULL and fills *m, or returns err
 * holding what is wrong and where. The move may still be illegal: ask
 * dl_refusal(). */
const char *dl_move_parse(const dl_State *s, const char *text, dl_Move *m,
                          char *err, size_t cap);
/* A declaration with its cards: "P6@1(2c+4d)", "G8@0(Ah+3s+4h,8s)". */
int dl_decl_str(const dl_State *s, int slot, char *buf, size_t cap,
                bool unicode);

#endif
