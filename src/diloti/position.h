/* Position strings: a complete game state as text (docs/notation.md).
 *
 *   dealer=1; turn=0; round=1; deal=1; ply=2; hands=Ac 3d 7h 8d / 5c 6s 9d;
 *   table=2h 3c G8@0(Ah+3s+4h,8s) P6@1(2c+4d); piles=10s Kc Kd / -;
 *   xeri=0 0; score=0 0; won=0 0; last=1; pack=?34
 *
 * Fields are separated by ';' and may come in any order; only hands is
 * required. Lists per seat or side are separated by '/', '-' is
 * empty, and "?N" stands for N cards not otherwise placed, drawn with a
 * seed, as does "pack=?" (or no pack) for all the rest. */
#ifndef DL_POSITION_H
#define DL_POSITION_H

#include <stddef.h>

#include "state.h"

#define DL_POSITION_MAX 1200

/* Writes the canonical position string; with hide_pack the pack is
 * written as "?" (its order is hidden information). Returns the length. */
int dl_position_str(const dl_State *s, char *buf, size_t cap, bool hide_pack);
/* Parses text under rules r into *out (untouched on error). Unplaced cards
 * are drawn with seed. Returns NULL, or err holding where and what. */
const char *dl_position_parse(dl_State *out, const dl_Rules *r, const char *text,
                              uint64_t seed, char *err, size_t cap);

#endif
