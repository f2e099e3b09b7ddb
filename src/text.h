/* A bounded string builder: appends never overflow, the text is always
 * terminated, and t.n counts what was written. */
#ifndef DL_TEXT_H
#define DL_TEXT_H

#include <stddef.h>

typedef struct {
    char *buf;
    size_t cap, n;
} dl_Text;

dl_Text dl_text(char *buf, size_t cap);
/* Appends n bytes of s as they are: the fast path of a hot text (a move
 * list is made of thousands), where a format would cost most of it. */
void dl_text_put(dl_Text *t, const char *s, size_t n);
/* The same for a terminated string, and for a whole number in decimal. */
void dl_text_str(dl_Text *t, const char *s);
void dl_text_int(dl_Text *t, long v);
void dl_text_add(dl_Text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
