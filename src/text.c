#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

dl_Text dl_text(char *buf, size_t cap)
{
    dl_Text t = {buf, cap, 0};
    if (cap) buf[0] = '\0';
    return t;
}

void dl_text_put(dl_Text *t, const char *s, size_t n)
{
    if (t->n + 1 >= t->cap) return;
    if (n > t->cap - 1 - t->n) n = t->cap - 1 - t->n;
    memcpy(t->buf + t->n, s, n);
    t->n += n;
    t->buf[t->n] = '\0';
}

void dl_text_str(dl_Text *t, const char *s) { dl_text_put(t, s, strlen(s)); }

void dl_text_int(dl_Text *t, long v)
{
    char d[24];
    size_t i = sizeof d;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        d[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) d[--i] = '-';
    dl_text_put(t, d + i, sizeof d - i);
}

void dl_text_add(dl_Text *t, const char *fmt, ...)
{
    if (t->n + 1 >= t->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    t->n += (size_t)k;
    if (t->n >= t->cap) t->n = t->cap - 1;
}
