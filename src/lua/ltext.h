/* Text a script, a lesson or a record supplied, made safe to print: no
 * terminal control (C0 but newline and tab, DEL, C1, bytes that are not
 * UTF-8) and no bidirectional control reaches the screen; each is shown
 * instead (^[ for ESC, U+FFFD for the others). See ltext.c. Lua code
 * reaches it as core.clean(s) (require "diloti.core"). */
#ifndef DL_LTEXT_H
#define DL_LTEXT_H

#include <lauxlib.h>

/* Non-zero when s (n bytes) holds anything dl_clean_add would replace. */
int dl_clean_needed(const char *s, size_t n);
/* Appends s to b with every terminal control replaced visibly. */
void dl_clean_add(luaL_Buffer *b, const char *s, size_t n);
/* The length of s once cleaned: up to 3 bytes for each byte of s (a
 * byte that is not UTF-8 becomes U+FFFD), so a limit on text that is
 * cleaned must count this, not n. */
size_t dl_clean_len(const char *s, size_t n);
/* Pushes the cleaned copy of s (s itself when nothing needs cleaning). */
void dl_clean_push(lua_State *L, const char *s, size_t n);

/* Pushes s as one line of plain text of at most max bytes: newlines and
 * tabs as spaces, every control and byte that is not UTF-8 dropped, the
 * ends trimmed (a name or a message a script gave). */
void dl_plain_push(lua_State *L, const char *s, size_t n, size_t max);

#endif
