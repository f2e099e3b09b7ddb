/* Fuzz target: the wire protocol's message reader (lua/server/protocol.lua)
 * inside the Lua 5.4 host, as the server will feed it what a socket says.
 *
 * Input: one or more messages, one a line. Each goes to protocol.read,
 * which must give a well-formed message or nil, a code and a clear
 * message, never raise. The lines then go, in order, to a connection
 * of a host over a small room (Diloti for two, both seats people): its
 * answer is true or nil and the code read gave (or a refusal of the
 * room's), never an internal fault; every frame it sends is JSON of the
 * protocol's version; a refused message leaves the room's position as
 * it was. The room and host are made once and made again only after a
 * move was played, so that the fuzzer sees the same room each time.
 * Tokens come from a counter: room 01..., watch 02..., seat 0 03...,
 * seat 1 04... (in message.dict and the corpus). */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lualib.h>

#include "fuzz.h"

int luaopen_diloti(lua_State *L);

static const char MSG_DRIVER[] =
    "local room = require 'diloti.room'\n"
    "local json = require 'diloti.match.json'\n"
    "local protocol = require 'diloti.server.protocol'\n"
    "local CODES = { ['bad-json'] = true, ['too-large'] = true, ['bad-message'] = true,\n"
    "  ['bad-version'] = true, ['unknown-type'] = true, ['bad-field'] = true }\n"
    "local FRAMES = { welcome = true, state = true, event = true, result = true, error = true,\n"
    "  refusal = true, advice = true, pong = true }\n"
    "local function plain_text(what, s, most)\n"
    "  assert(type(s) == 'string' and s ~= '', what .. ': no text')\n"
    "  assert(#s <= most, what .. ': ' .. #s .. ' bytes')\n"
    "  assert(not s:find('[%c\\127]'), what .. ': a control character in ' .. string.format('%q', s))\n"
    "end\n"
    "local function check_read(text)\n"
    "  local msg, code, why = protocol.read(text)\n"
    "  if msg == nil then\n"
    "    assert(CODES[code], 'read: an unknown code ' .. tostring(code))\n"
    "    plain_text('read ' .. code, why, 400)\n"
    "    if code ~= 'bad-json' and code ~= 'too-large' and code ~= 'bad-message' then\n"
    "      assert(text:find('^[ \\t\\r\\n]*{'), 'read: ' .. code .. ' for a text that is no object')\n"
    "    end\n"
    "    return nil, code\n"
    "  end\n"
    "  assert(text:find('^[ \\t\\r\\n]*{'), 'read: a message from a text that is no object')\n"
    "  assert(type(msg) == 'table' and msg.v == protocol.VERSION, 'read: a message of another version')\n"
    "  assert(type(msg.type) == 'string', 'read: a message without a type')\n"
    "  for k, v in pairs(msg) do\n"
    "    assert(type(k) == 'string', 'read: a key that is not a name')\n"
    "    local t = type(v)\n"
    "    assert(t == 'string' or math.type(v) == 'integer', 'read: field ' .. k .. ' is a ' .. t)\n"
    "  end\n"
    "  return msg\n"
    "end\n"
    "local r, h, n\n"
    "local now = 0\n"
    "local function make()\n"
    "  n = 0\n"
    "  r = assert(room.new { rules = 'diloti', players = 2, humans = 2, seed = 1, match = false })\n"
    "  h = protocol.host(r, {\n"
    "    random = function(k) n = n + 1 return string.rep(string.char(n), k) end,\n"
    "    clock = function() now = now + 1 return now end,\n"
    "    advise = function(kind) return { kind .. ': a line', 'another' } end,\n"
    "  })\n"
    "  h:start()\n"
    "end\n"
    "make()\n"
    "return function(input)\n"
    "  local lines = {}\n"
    "  for line in (input .. '\\n'):gmatch('([^\\n]*)\\n') do\n"
    "    if #lines < 16 then lines[#lines + 1] = line end\n"
    "  end\n"
    "  check_read(input)\n"
    "  local before = r.g:position()\n"
    "  local sent = {}\n"
    "  local c = h:connect(function(text) sent[#sent + 1] = text end)\n"
    "  for _, line in ipairs(lines) do\n"
    "    local msg, rcode = check_read(line)\n"
    "    local pos = r.g:position()\n"
    "    local first = #sent + 1\n"
    "    local ok, code, fault = c:receive(line)\n"
    "    assert(code ~= 'internal', 'receive: an internal fault: ' .. tostring(fault))\n"
    "    assert(ok == true or (ok == nil and type(code) == 'string'), 'receive: ' .. tostring(ok))\n"
    "    if not msg then assert(code == rcode, 'receive says ' .. tostring(code) .. ', read ' .. rcode) end\n"
    "    if not ok then assert(r.g:position() == pos, 'a refused message changed the room') end\n"
    "    for i = first, #sent do\n"
    "      local f = json.decode(sent[i])\n"
    "      assert(type(f) == 'table' and f.v == protocol.VERSION, 'a frame that is not JSON of v1')\n"
    "      assert(math.type(f.seq) == 'integer' and f.seq >= 0, 'a frame without its number')\n"
    "      assert(FRAMES[f.type], 'a frame of an unknown type ' .. tostring(f.type))\n"
    "      if f.type == 'error' then plain_text('error ' .. tostring(f.code), f.message, 400) end\n"
    "    end\n"
    "  end\n"
    "  c:close()\n"
    "  if r.g:position() ~= before then make() end\n"
    "  return #sent\n"
    "end\n";

static lua_State *msg_L;
static int msg_driver = LUA_NOREF;

static int msg_traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static void msg_open(void)
{
    /* Hermetic: no user variants, AIs or progress files are read. */
    setenv("HOME", "/nonexistent/diloti-fuzz", 1);
    setenv("XDG_CONFIG_HOME", "/nonexistent/diloti-fuzz", 1);
    setenv("XDG_STATE_HOME", "/nonexistent/diloti-fuzz", 1);
    msg_L = luaL_newstate();
    FUZZ_CHECK(msg_L, "cannot create a Lua state");
    luaL_openlibs(msg_L);
    luaL_requiref(msg_L, "diloti", luaopen_diloti, 0);
    lua_pop(msg_L, 1);
    lua_pushcfunction(msg_L, msg_traceback);
    int st = luaL_loadbuffer(msg_L, MSG_DRIVER, sizeof MSG_DRIVER - 1, "=fuzz_message");
    if (st == LUA_OK) st = lua_pcall(msg_L, 0, 1, -2);
    FUZZ_CHECK(st == LUA_OK, "the driver does not load: %s", lua_tostring(msg_L, -1));
    msg_driver = luaL_ref(msg_L, LUA_REGISTRYINDEX);
    lua_pop(msg_L, 1);
}

/* Closes the Lua state (the corpus replay calls it; libFuzzer never does). */
void fuzz_message_close(void)
{
    if (msg_L) lua_close(msg_L);
    msg_L = NULL;
    msg_driver = LUA_NOREF;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!msg_L) msg_open();
    /* read refuses anything over protocol.MAX_MESSAGE (4096) at once:
     * longer inputs teach the fuzzer nothing more */
    if (size > 2 * FUZZ_MAX_TEXT) size = 2 * FUZZ_MAX_TEXT;
    int top = lua_gettop(msg_L);
    lua_pushcfunction(msg_L, msg_traceback);
    lua_rawgeti(msg_L, LUA_REGISTRYINDEX, msg_driver);
    lua_pushlstring(msg_L, (const char *)data, size);
    int st = lua_pcall(msg_L, 1, 1, top + 1);
    FUZZ_CHECK(st == LUA_OK, "%s", lua_tostring(msg_L, -1));
    lua_settop(msg_L, top);
    static unsigned calls;
    if (++calls % 64 == 0) lua_gc(msg_L, LUA_GCCOLLECT);
    return 0;
}
