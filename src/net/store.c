/* diloti.store: a thin binding of SQLite for the rooms' records.
 *
 *   store.open(path) -> db | nil, msg
 *   db:exec(sql, ...) -> true, changes | nil, msg
 *   db:rows(sql, ...) -> {row, ...} (each keyed by column name) | nil, msg
 *   db:tx(fn) -> true, fn's results | nil, msg (BEGIN or COMMIT failed);
 *                fn's error is re-raised after a ROLLBACK
 *   db:close() -> true (also __gc and __close)
 *
 * Errors of the caller's program (an argument of the wrong Lua type, a
 * closed db) are raised; whatever SQLite refuses comes back as nil and a
 * message. One statement per call: SQL with more after it is refused, so
 * that a value pasted into SQL can never add a statement of its own.
 *
 * One connection per Lua state: each room's thread opens its own, and
 * SQLite's locks (WAL, busy timeout) keep them apart. Durability: WAL
 * with synchronous=NORMAL survives a killed process (every committed
 * transaction is in the WAL file, which the OS keeps); a power cut may
 * lose the last transactions but never corrupts the file. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <pthread.h>
#include <sqlite3.h>

#include "net.h"

#define DB_META "diloti.store.db"
#define BUSY_MS 5000
/* Between two tries at the switch to WAL another opener holds up. */
#define WAL_RETRY_MS 10
/* Bounds for one connection: records are a few megabytes at most
 * (lua/match/record.lua caps them at 4 MiB), statements are short. */
enum { MAX_VALUE = 64 << 20, MAX_SQL = 1 << 20, MAX_PARAMS = 250 };

typedef struct {
    sqlite3 *h;          /* NULL once closed */
    sqlite3_stmt *stmt;  /* the statement of the call under way (finalized
                          * by the next call or close if a Lua error cut
                          * that call short) */
} Db;

/* ------------------------------------------------------------------ */
/* Opening */

/* The file is made with mode 0600 if missing (SQLite would use 0644 less
 * the umask; its -wal and -shm files copy the database's mode). An
 * existing path must be an ordinary file: a FIFO would block the open,
 * a link could point anywhere. */
static const char *prepare_file(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0)
        return S_ISREG(st.st_mode) ? NULL : "not an ordinary file";
    if (errno != ENOENT)
        return strerror(errno);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        return NULL;
    }
    /* (another thread or process made it meanwhile: as if it had been
     * there) */
    if (errno == EEXIST && lstat(path, &st) == 0)
        return S_ISREG(st.st_mode) ? NULL : "not an ordinary file";
    return strerror(errno);
}

static int push_fail(lua_State *L, const char *what, const char *why)
{
    lua_pushnil(L);
    lua_pushfstring(L, "store: %s: %s", what, why);
    return 2;
}

static void set_limits(sqlite3 *h)
{
    sqlite3_limit(h, SQLITE_LIMIT_LENGTH, MAX_VALUE);
    sqlite3_limit(h, SQLITE_LIMIT_SQL_LENGTH, MAX_SQL);
    sqlite3_limit(h, SQLITE_LIMIT_VARIABLE_NUMBER, MAX_PARAMS);
    sqlite3_limit(h, SQLITE_LIMIT_ATTACHED, 0);
    /* The schema is ours alone: no SQL functions with side effects run
     * from it, and writes that could corrupt the file are refused. */
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_busy_timeout(h, BUSY_MS);
}

/* One try at turning WAL on: SQLITE_OK, SQLITE_BUSY (to try again) or
 * another code with *why set. */
static int try_wal(sqlite3 *h, int memory, const char **why)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(h, "PRAGMA journal_mode=WAL", -1, &s, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(s, 0);
        rc = SQLITE_OK;
        if (!mode || !(strcmp(mode, "wal") == 0 || (memory && strcmp(mode, "memory") == 0))) {
            *why = "cannot use the WAL journal here";
            rc = SQLITE_ERROR;
        }
    } else if ((rc & 0xFF) != SQLITE_BUSY && (rc & 0xFF) != SQLITE_LOCKED) {
        *why = sqlite3_errmsg(h);
    } else {
        rc = SQLITE_BUSY;
    }
    sqlite3_finalize(s);
    return rc;
}

/* Turns WAL on: NULL, or why not (SQLite's message: e.g. not a
 * database). Servers opening a new file together race to switch it, and
 * SQLite answers a switch that would deadlock with SQLITE_BUSY at once,
 * without its busy handler: so the switch is tried again, for as long as
 * the busy timeout would have waited. */
static const char *use_wal(sqlite3 *h, int memory)
{
    const char *why = NULL;
    for (int waited = 0;; waited += WAL_RETRY_MS) {
        int rc = try_wal(h, memory, &why);
        if (rc == SQLITE_OK) return NULL;
        if (rc != SQLITE_BUSY) return why;
        if (waited >= BUSY_MS) return "database is locked (the switch to WAL, past the busy timeout)";
        sqlite3_sleep(WAL_RETRY_MS);
    }
}

static const char *configure(sqlite3 *h, int memory)
{
    set_limits(h);
    const char *why = use_wal(h, memory);
    if (why)
        return why;
    if (sqlite3_exec(h, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK)
        return sqlite3_errmsg(h);
    return NULL;
}

static int l_open(lua_State *L)
{
    size_t len = 0;
    luaL_checktype(L, 1, LUA_TSTRING); /* (not a number made a file name) */
    const char *path = lua_tolstring(L, 1, &len);
    if (len == 0)
        return push_fail(L, "open", "expected a file name");
    if (strlen(path) != len)
        return push_fail(L, "open", "the file name holds a NUL byte");
    int memory = strcmp(path, ":memory:") == 0;
    const char *why = memory ? NULL : prepare_file(path);
    if (why)
        return push_fail(L, lua_pushfstring(L, "cannot open %s", path), why);
    Db *db = lua_newuserdatauv(L, sizeof *db, 0);
    db->h = NULL;
    db->stmt = NULL;
    luaL_setmetatable(L, DB_META);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;
    int rc = sqlite3_open_v2(path, &db->h, flags, NULL);
    why = rc == SQLITE_OK ? configure(db->h, memory) : (db->h ? sqlite3_errmsg(db->h) : "out of memory");
    if (why) {
        int n = push_fail(L, lua_pushfstring(L, "cannot open %s", path), why);
        sqlite3_close_v2(db->h);
        db->h = NULL;
        return n;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Statements */

static Db *check_open(lua_State *L, const char *what)
{
    Db *db = luaL_checkudata(L, 1, DB_META);
    if (!db->h)
        luaL_error(L, "store: %s: the database is closed", what);
    if (db->stmt) { /* left by a call a Lua error cut short */
        sqlite3_finalize(db->stmt);
        db->stmt = NULL;
    }
    return db;
}

static void finish(Db *db)
{
    sqlite3_finalize(db->stmt);
    db->stmt = NULL;
}

/* SQL after the first statement: only blanks and semicolons may follow. */
static int blank(const char *s, const char *end)
{
    for (; s < end; s++)
        if (!strchr(" \t\r\n\f\v;", *s))
            return 0;
    return 1;
}

/* Binds argument i (from 3) to parameter i - 2; raises for a Lua type
 * that has no SQL value. */
static int bind_one(lua_State *L, sqlite3_stmt *s, int i, const char *what)
{
    int p = i - 2;
    switch (lua_type(L, i)) {
    case LUA_TNIL:
        return sqlite3_bind_null(s, p);
    case LUA_TBOOLEAN:
        return sqlite3_bind_int(s, p, lua_toboolean(L, i));
    case LUA_TNUMBER:
        if (lua_isinteger(L, i))
            return sqlite3_bind_int64(s, p, (sqlite3_int64)lua_tointeger(L, i));
        return sqlite3_bind_double(s, p, (double)lua_tonumber(L, i));
    case LUA_TSTRING: {
        size_t len = 0;
        const char *v = lua_tolstring(L, i, &len);
        if (len > (size_t)MAX_VALUE)
            return SQLITE_TOOBIG;
        /* (the string stays on the stack until the statement is done) */
        return sqlite3_bind_text(s, p, v, (int)len, SQLITE_STATIC);
    }
    default:
        return luaL_error(L, "store: %s: value #%d is a %s (expected nil, a boolean, a number or a string)",
                          what, p, luaL_typename(L, i));
    }
}

/* Prepares sql (argument 2) with the values from argument 3 on: 0, or
 * pushes nil and a message and returns 2. */
static int prepare(lua_State *L, Db *db, const char *what)
{
    size_t len = 0;
    luaL_checktype(L, 2, LUA_TSTRING);
    const char *sql = lua_tolstring(L, 2, &len);
    int nvalues = lua_gettop(L) - 2;
    for (int i = 3; i <= lua_gettop(L); i++) /* wrong types first: they are raised */
        if (!lua_isnil(L, i) && !lua_isboolean(L, i) && lua_type(L, i) != LUA_TNUMBER && lua_type(L, i) != LUA_TSTRING)
            luaL_error(L, "store: %s: value #%d is a %s (expected nil, a boolean, a number or a string)", what, i - 2,
                       luaL_typename(L, i));
    if (strlen(sql) != len)
        return push_fail(L, what, "the SQL holds a NUL byte");
    if (len > (size_t)MAX_SQL)
        return push_fail(L, what, "the SQL is too long");
    const char *tail = NULL;
    if (sqlite3_prepare_v2(db->h, sql, (int)len, &db->stmt, &tail) != SQLITE_OK) {
        int n = push_fail(L, what, sqlite3_errmsg(db->h));
        finish(db);
        return n;
    }
    if (!db->stmt)
        return push_fail(L, what, "no SQL statement");
    if (!blank(tail, sql + len)) {
        finish(db);
        return push_fail(L, what, "one statement per call (there is more SQL after the first)");
    }
    int nparams = sqlite3_bind_parameter_count(db->stmt);
    if (nparams != nvalues) {
        finish(db);
        lua_pushnil(L);
        lua_pushfstring(L, "store: %s: the statement takes %d value(s), %d given", what, nparams, nvalues);
        return 2;
    }
    for (int i = 3; i <= lua_gettop(L); i++) {
        if (bind_one(L, db->stmt, i, what) != SQLITE_OK) {
            finish(db);
            return push_fail(L, what, lua_pushfstring(L, "value #%d is too big", i - 2));
        }
    }
    return 0;
}

static int step_failed(lua_State *L, Db *db, const char *what)
{
    int n = push_fail(L, what, sqlite3_errmsg(db->h));
    finish(db);
    return n;
}

/* One writer at a time in this process, in the order they came: the
 * rooms' threads each have a connection, and SQLite's own wait for its
 * lock polls and sleeps (up to 100 ms a nap), so that with many rooms
 * writing, a move could wait seconds to be stored. A write outside a
 * transaction (tx holds SQLite's lock itself) queues here instead. */
static pthread_mutex_t write_mu = PTHREAD_MUTEX_INITIALIZER;

static int l_exec(lua_State *L)
{
    Db *db = check_open(L, "exec");
    int n = prepare(L, db, "exec");
    if (n)
        return n;
    int rc;
    int queue = !sqlite3_stmt_readonly(db->stmt) && sqlite3_get_autocommit(db->h);
    if (queue) pthread_mutex_lock(&write_mu);
    while ((rc = sqlite3_step(db->stmt)) == SQLITE_ROW)
        ; /* (rows of an exec, e.g. a PRAGMA's answer, are dropped) */
    if (queue) pthread_mutex_unlock(&write_mu);
    if (rc != SQLITE_DONE)
        return step_failed(L, db, "exec");
    int changed = sqlite3_stmt_readonly(db->stmt) ? 0 : 1;
    finish(db);
    lua_pushboolean(L, 1);
    lua_pushinteger(L, changed ? (lua_Integer)sqlite3_changes64(db->h) : 0);
    return 2;
}

static void push_column(lua_State *L, sqlite3_stmt *s, int c)
{
    switch (sqlite3_column_type(s, c)) {
    case SQLITE_INTEGER:
        lua_pushinteger(L, (lua_Integer)sqlite3_column_int64(s, c));
        break;
    case SQLITE_FLOAT:
        lua_pushnumber(L, (lua_Number)sqlite3_column_double(s, c));
        break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
        const void *v = sqlite3_column_blob(s, c);
        lua_pushlstring(L, v ? (const char *)v : "", (size_t)sqlite3_column_bytes(s, c));
        break;
    }
    default:
        lua_pushnil(L);
    }
}

static int l_rows(lua_State *L)
{
    Db *db = check_open(L, "rows");
    int n = prepare(L, db, "rows");
    if (n)
        return n;
    int ncols = sqlite3_column_count(db->stmt);
    lua_newtable(L);
    int rc;
    lua_Integer count = 0;
    while ((rc = sqlite3_step(db->stmt)) == SQLITE_ROW) {
        lua_createtable(L, 0, ncols);
        for (int c = 0; c < ncols; c++) {
            const char *name = sqlite3_column_name(db->stmt, c);
            if (!name)
                continue;
            push_column(L, db->stmt, c);
            lua_setfield(L, -2, name);
        }
        lua_rawseti(L, -2, ++count);
    }
    if (rc != SQLITE_DONE)
        return step_failed(L, db, "rows");
    finish(db);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Transactions */

/* db:tx(fn): fn(db) inside BEGIN IMMEDIATE ... COMMIT (IMMEDIATE: the
 * write lock is taken at the start, so two writers wait for each other
 * there instead of failing half-way). */
static int l_tx(lua_State *L)
{
    Db *db = check_open(L, "tx");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return push_fail(L, "tx", sqlite3_errmsg(db->h));
    lua_pushvalue(L, 1);
    int rc = lua_pcall(L, 1, LUA_MULTRET, 0); /* fn(db): its results from index 2 */
    if (!db->h) {
        if (rc != LUA_OK)
            return lua_error(L);
        return push_fail(L, "tx", "the database was closed inside the transaction");
    }
    if (db->stmt)
        finish(db);
    if (rc != LUA_OK) {
        if (!sqlite3_get_autocommit(db->h))
            sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        return lua_error(L); /* fn's own error value, as it raised it */
    }
    if (sqlite3_get_autocommit(db->h))
        return push_fail(L, "tx", "the transaction was ended inside the function (no COMMIT or ROLLBACK in tx)");
    if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        int n = push_fail(L, "tx", sqlite3_errmsg(db->h));
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        return n;
    }
    int nres = lua_gettop(L) - 1;
    lua_pushboolean(L, 1);
    lua_insert(L, 2);
    return nres + 1;
}

/* ------------------------------------------------------------------ */
/* Closing */

static int l_close(lua_State *L)
{
    Db *db = luaL_checkudata(L, 1, DB_META);
    if (db->h) {
        finish(db);
        sqlite3_close_v2(db->h);
        db->h = NULL;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_tostring(lua_State *L)
{
    const Db *db = luaL_checkudata(L, 1, DB_META);
    lua_pushfstring(L, "diloti.store db (%s)", db->h ? "open" : "closed");
    return 1;
}

int luaopen_diloti_store(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"exec", l_exec}, {"rows", l_rows}, {"tx", l_tx}, {"close", l_close}, {NULL, NULL},
    };
    static const luaL_Reg funcs[] = {{"open", l_open}, {NULL, NULL}};
    if (luaL_newmetatable(L, DB_META)) {
        luaL_newlib(L, methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_close);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, l_close);
        lua_setfield(L, -2, "__close");
        lua_pushcfunction(L, l_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushliteral(L, "locked");
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
    luaL_newlib(L, funcs);
    lua_pushstring(L, sqlite3_libversion());
    lua_setfield(L, -2, "sqlite_version");
    return 1;
}
