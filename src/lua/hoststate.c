/* A host's own Lua state (hoststate.h). */
#include "hoststate.h"

#include <stdio.h>
#include <stdlib.h>

#include "blocks.h"

static void *host_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    return dl_blocks_realloc(ud, ptr, osize, nsize);
}

static int panic(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "PANIC: unprotected error in call to Lua API (%s)\n", msg ? msg : "error object is not a string");
    return 0; /* (Lua aborts) */
}

lua_State *dl_host_newstate(void)
{
    dl_Blocks *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    lua_State *L = lua_newstate(host_alloc, k);
    if (!L) {
        free(k);
        return NULL;
    }
    lua_atpanic(L, panic);
    return L;
}

void dl_host_close(lua_State *L)
{
    void *k = NULL;
    lua_getallocf(L, &k);
    lua_close(L);
    dl_blocks_drop(k);
    free(k);
}
