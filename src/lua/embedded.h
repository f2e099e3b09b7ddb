/* The default scripts (lua/, rules-variants/) compiled into the program. */
#ifndef DL_EMBEDDED_H
#define DL_EMBEDDED_H

#include <stddef.h>

typedef struct {
    const char *name; /* path as in the source tree, e.g. "lua/cli.lua" */
    const char *text;
    size_t len;
} dl_Embedded;

/* Ends with an entry whose name is NULL. */
extern const dl_Embedded dl_embedded[];

#endif
