/* Fuzz target: the game-record loader (lua/match/record.lua) inside the Lua 5.4
 * host, as the table uses it for save/load/replay.
 *
 * Input: the text of a record. decode (whole and partial) and load must
 * return a record/game or nil and a message, never raise a Lua error or
 * report an internal error; a record that loads must save again (encode)
 * to a text that replays to the same game, and the replay stepper must go
 * to the end and back. */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lualib.h>

#include "fuzz.h"

int luaopen_diloti(lua_State *L);

/* The properties, in Lua: any error raised here or by the loader is a
 * failure of the target. */
static const char REC_DRIVER[] =
    "local record = require 'diloti.match.record'\n"
    "local function refused(what, v, err)\n"
    "  if v == nil then\n"
    "    assert(type(err) == 'string' and err ~= '', what .. ': nil without a message')\n"
    "    assert(not err:find('^fuzz: internal error'), what .. ': ' .. err)\n"
    "    return true\n"
    "  end\n"
    "end\n"
    "return function(text)\n"
    "  local rec, err = record.decode(text, 'fuzz')\n"
    "  if not refused('decode', rec, err) then\n"
    "    assert(type(rec) == 'table' and type(rec.moves) == 'table', 'decode: not a record')\n"
    "  end\n"
    "  local part, perr = record.decode(text, 'fuzz', { partial = true })\n"
    "  if not refused('decode partial', part, perr) then\n"
    "    assert(type(part) == 'table', 'decode partial: not a record')\n"
    "  end\n"
    "  local g, r = record.load(text, { text = true, name = 'fuzz' })\n"
    "  if refused('load', g, r) then return 'refused' end\n"
    "  local meta = { rules = r.rules, players = r.players, teams = r.teams, seed = r.seed,\n"
    "    dealer = r.dealer, target = r.target, position = r.position, date = false,\n"
    "    seats = r.seats }\n"
    "  local again, eerr = record.encode(g, meta)\n"
    "  assert(again, 'encode: ' .. tostring(eerr))\n"
    "  local same, verr = record.verify(g, again)\n"
    "  assert(same, 'the saved record does not replay: ' .. tostring(verr))\n"
    "  local st, serr = record.replay(text, { text = true, name = 'fuzz' })\n"
    "  assert(st, 'replay: ' .. tostring(serr))\n"
    "  assert(st:seek(st:total()) == st:total(), 'replay: cannot reach the end')\n"
    "  assert(st:game():position() == g:position(), 'replay: the end differs from load')\n"
    "  assert(st:seek(0) == 0, 'replay: cannot go back to the start')\n"
    "  return 'loaded'\n"
    "end\n";

static lua_State *rec_L;
static int rec_driver = LUA_NOREF;

static int rec_traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static void rec_open(void)
{
    /* Hermetic: no user variants, AIs or progress files are read. */
    setenv("HOME", "/nonexistent/diloti-fuzz", 1);
    setenv("XDG_CONFIG_HOME", "/nonexistent/diloti-fuzz", 1);
    setenv("XDG_STATE_HOME", "/nonexistent/diloti-fuzz", 1);
    rec_L = luaL_newstate();
    FUZZ_CHECK(rec_L, "cannot create a Lua state");
    luaL_openlibs(rec_L);
    luaL_requiref(rec_L, "diloti", luaopen_diloti, 0);
    lua_pop(rec_L, 1);
    lua_pushcfunction(rec_L, rec_traceback);
    int st = luaL_loadbuffer(rec_L, REC_DRIVER, sizeof REC_DRIVER - 1, "=fuzz_record");
    if (st == LUA_OK) st = lua_pcall(rec_L, 0, 1, -2);
    FUZZ_CHECK(st == LUA_OK, "the driver does not load: %s", lua_tostring(rec_L, -1));
    rec_driver = luaL_ref(rec_L, LUA_REGISTRYINDEX);
    lua_pop(rec_L, 1);
}

/* Closes the Lua state (the corpus replay calls it; libFuzzer never does). */
void fuzz_record_close(void)
{
    if (rec_L) lua_close(rec_L);
    rec_L = NULL;
    rec_driver = LUA_NOREF;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!rec_L) rec_open();
    int top = lua_gettop(rec_L);
    lua_pushcfunction(rec_L, rec_traceback);
    lua_rawgeti(rec_L, LUA_REGISTRYINDEX, rec_driver);
    lua_pushlstring(rec_L, (const char *)data, size);
    int st = lua_pcall(rec_L, 1, 1, top + 1);
    FUZZ_CHECK(st == LUA_OK, "%s", lua_tostring(rec_L, -1));
    lua_settop(rec_L, top);
    /* Games hold C memory: collect now and then so the heap stays small. */
    static unsigned calls;
    if (++calls % 64 == 0) lua_gc(rec_L, LUA_GCCOLLECT);
    return 0;
}
