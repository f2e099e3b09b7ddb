-- Attack 33: a hostile script against the fixes of 284ce05: string.rep
-- collecting first when its buffer would pass the cap or the pool's total
-- (src/lua/box.c room, src/lua/boxlib.c g_rep) in place of the collection
-- that started each box call, and a lazy move made a plain table at its
-- first write or first read of its cards (src/pilotta/lua/lplaction.c
-- lazy_access, make_plain).
--
-- Findings (each test below fails on 284ce05):
-- 1. Attack 31's finding 2 is back for every library function that grows
--    a buffer other than string.rep: string.upper, lower, reverse, gsub
--    (luaL_buffinitsize / luaL_prepbuffsize grow lauxlib's buffer with
--    the allocator itself: Lua does not collect and try again when it is
--    refused). 284ce05 took out the collection at a call's start (which
--    covered them all) and put room() in front of string.rep only. A call
--    that keeps 600 upper-cased strings of 60 KiB (35 MiB, cap 64 MiB),
--    called 20 times: ~9 calls of 20 stop with "memory cap exceeded"
--    (284ce05~1: all served). A house rule doing the same in its moves
--    hook is stopped and loaded afresh at 9 positions of 10.
-- 2. make_plain sets the fields one by one with the move's metatable
--    still on, and takes the metatable off last: a memory error between
--    two fields (a script at its cap, catching the error) leaves a
--    half-made move: some fields its own, the engine's metatable still
--    on. A write to one of those fields then goes in raw (no __newindex,
--    so the move stays lazy), and is undone by the next write of a new
--    key (make_plain sets every field again); a field deleted comes back
--    from __index (and in pairs, and in what the host is handed). The
--    same rule after another rule (plain moves) keeps its writes: the two
--    answer differently. Found at 15 moves of 38 of the first position by
--    a sweep of 8-byte steps of free room (the hook HALF below); e.g. a
--    move "90c" left with only `text` its own: `y.text = "mine"` reads
--    "mine", then `y.note = 1` and y.text reads "90c" again; a move
--    "100d" likewise: `y.text = nil`, then y.text reads "100d", pairs(y)
--    walks text, rawget(y, "text") is nil. No crash (ASan/UBSan).
--
-- Fixed: 1. string.upper, lower and reverse make room for their result
-- first (boxlib.c g_sized), gsub for twice its subject (lpattern.c, the
-- box's pattern limits' room); string.format, table.concat, string.char
-- and string.pack, whose results are not known beforehand, are not (an
-- older limit: as on 8b9c505). 2. make_plain fills the move in a
-- protected call and, when it fails, takes out what it had set: the move
-- is left lazy and empty, and the error goes on.
--
-- Looked at and held: room()'s collection runs inside the call (the
-- count hook stops a loop of them at the time limit) and costs what one
-- allocation Lua collects for itself costs (the same 1.3 s with a 20,000
-- link weak-keyed chain; 284ce05~1 paid twice that for its call-start
-- collection); n * (l + lsep) is checked against SIZE_MAX (and results
-- past 2 GiB are refused unbuilt by Lua, past 1 MiB by the box); it
-- collects its own state only; no finaliser can run script code in it
-- (setmetatable refuses __gc, and __gc added later is never registered).
-- Lazy moves written with every key kind, during pairs, by table.insert,
-- remove, move and sort, read for cards on every kind, used as a
-- metatable or a key, kept from earlier positions: alone as chained.
-- (Not a finding of 284ce05: the order pairs() walks a move in is not
-- the same alone and chained; Lua leaves it unspecified, and string
-- hashes are seeded per state anyway.)
--
-- What holds is marked "(holds)".
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
require "diloti" -- (before diloti.core, which it loads)
local core = require "diloti.core"

local MiB = 1 << 20
local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local R = require("hook_rules").new(tmp)
local pgame, outcome = R.pgame, R.outcome
-- A rule named `name` whose moves hook is `hook`, after `top`.
local function rule(name, hook, top) return R.rule(name, hook, top, "pilotta") end
rule("pass", "function(m) return m end")

describe("attack 33, finding 1: buffers other than string.rep's, with earlier calls' garbage about", function()
  -- (S: 60 KiB; each call keeps 600 results, 35 MiB of the 64 MiB cap)
  local TOP = [[S = ("h"):rep(60 * 1024)]]
  local BODIES = {
    upper = "t[i] = (S .. i):upper()",
    reverse = "t[i] = (S .. i):reverse()",
    gsub = "t[i] = (S .. i):gsub('%d', 'y')",
  }

  for name, body in pairs(BODIES) do
    it("string." .. name .. ": a call holding 35 MiB of 64 is served 20 times in a row", function()
      local b = core.box.new{ memory = 64 * MiB, time = 20, budget = 1000000000 }
      local ok, f = b:run(TOP .. "\nreturn function() local t = {} for i = 1, 600 do " .. body
        .. " end return #t end", "=buf", { budget = 1000000000, time = 20 })
      assert.is_true(ok, f)
      local failed = {}
      for k = 1, 20 do
        local done, r = pcall(f)
        if not done then failed[#failed + 1] = k .. ": " .. tostring(r) end
      end
      b:close()
      -- (284ce05: ~9 of 20 stopped, "memory cap exceeded (64 MiB)";
      -- 284ce05~1: none)
      assert.equals("", table.concat(failed, "\n"))
    end)
  end

  it("a house rule whose hook keeps 35 MiB of upper-cased strings is served at every position", function()
    rule("uhog", [[function(m)
      local t = {}
      for i = 1, 600 do t[i] = (S .. i):upper() end
      return m
    end]], TOP)
    local g, ref = pgame("pilotta+uhog", 3), pgame("pilotta", 3)
    for step = 1, 10 do
      local all = ref:moves()
      local a1, a2 = outcome(g)
      -- (284ce05: "memory cap exceeded ... (64 MiB); it will be loaded
      -- afresh" from the second position on)
      assert.equals("ok " .. table.concat(all, "|"), a1 .. " " .. a2, "at step " .. step)
      local mv = all[1]:match("pass") and all[2] or all[1]
      assert(ref:play(mv))
      assert(g:play(mv))
    end
  end)
end)

-- Sweeps the free room below the cap in 8-byte steps, one move a step:
-- fills the box to its cap but for RES (8 * trial bytes), frees RES (a
-- string.rep past the cap collects: box.c room), then writes in the
-- move. A move left with its text its own but not its seat is half made
-- (nothing of a plain move is ever so). Then on each half-made move, and
-- each other as well: a write to its text, then a write of a new key,
-- must keep the text written; a deletion of its text must stay.
local HALF = [==[function(m)
  local function gc() pcall(string.rep, "x", 1 << 40) end
  local half = {}
  for j = 1, 100 do half[j] = false end
  local nh = 0
  local BIG, nb = {}, 0
  pcall(function() local base = ("f"):rep(1 << 20) while true do nb = nb + 1 BIG[nb] = base .. nb end end)
  BIG[nb - 1] = nil BIG[nb - 2] = nil
  local BASES = { ("f"):rep(1 << 14), ("f"):rep(1 << 10), ("f"):rep(64), "f" }
  local base, n, BAL, RES, x = nil, 0, nil, nil, nil
  local function filler() while true do n = n + 1 BAL[n] = base .. n end end
  local function w() x.zz = 1 end
  for trial = 1, math.min(#m, 40) do
    x = m[trial]
    BAL = nil RES = nil gc()
    BAL = {}
    for j = 1, 20000 do BAL[j] = false end
    RES = ("r"):rep(8 * trial) .. "!"
    n = 0
    for b = 1, 4 do base = BASES[b] pcall(filler) n = n - 1 end
    RES = nil gc()
    if not pcall(w) and rawget(x, "text") ~= nil and rawget(x, "seat") == nil then nh = nh + 1 half[nh] = trial end
  end
  BAL = nil BIG = nil gc()
  for i = 1, #m do
    local y = m[i]
    if i % 2 == 0 then
      y.text = "mine"
      y.note = 1
      if y.text ~= "mine" then error("LOST a write of text (move " .. i .. ")", 0) end
    else
      y.text = nil
      if y.text ~= nil then error("a deleted text CAME BACK (move " .. i .. ")", 0) end
    end
  end
  return m
end]==]

describe("attack 33, finding 2: a memory error inside make_plain leaves a half-made move", function()
  it("writes in a move survive (alone as after another rule), whatever the box's memory did", function()
    -- (not under ASan: forty fills of the whole cap outrun the hook's 1 s)
    if (os.getenv("LD_PRELOAD") or ""):find("asan") then return pending("under ASan") end
    rule("half", HALF)
    local want = table.concat(pgame("pilotta", 3):moves(), "|")
    local b1, b2 = outcome(pgame("pilotta+pass+half", 3))
    assert.equals("ok " .. want, b1 .. " " .. b2, "chained")
    local a1, a2 = outcome(pgame("pilotta+half", 3))
    -- (284ce05: "LOST a write of text (move 12)")
    assert.equals("ok " .. want, a1 .. " " .. a2, "alone")
  end)
end)

describe("attack 33: what holds, string.rep's collection (box.c room)", function()
  it("(holds) it runs inside the call: a loop of string.rep past the cap stops at the time limit", function()
    local b = core.box.new{ memory = 64 * MiB, time = 0.1, budget = 1000000000 }
    local ok, f = b:run([[
B = {}
for i = 1, 20 do B[i] = ("x"):rep(1 << 20) .. i end
return function() for i = 1, 1e9 do pcall(string.rep, "x", 1 << 40) local _ = {} end end]],
      "=loop", { budget = 1000000000, time = 10, })
    assert.is_true(ok, f)
    local c = os.clock()
    local done, r = pcall(f)
    local spent = os.clock() - c
    b:close()
    assert.is_false(done)
    assert.matches("time limit exceeded", r)
    assert.is_true(spent < 1, spent .. " s")
  end)

  it("(holds) a string.rep past the cap costs no more than one allocation Lua itself collects for", function()
    -- (a weak-keyed chain makes each full collection slow: attack 32;
    -- the hook cannot stop a collection, room's or Lua's own)
    local b = core.box.new{ memory = 64 * MiB, time = 100, budget = 1000000000000 }
    local ok, rep, cat = b:run([[
B = {}
for i = 1, 56 do B[i] = ("x"):rep((1 << 20) - 64) .. i end
E = setmetatable({}, { __mode = "k" })
local prev = {}
ROOT = prev
for i = 1, 10000 do local nxt = {} E[prev] = { nxt } prev = nxt end
S1 = ("s"):rep(1 << 20)
return function() return pcall(string.rep, "x", 2 << 20) end,
  function() return pcall(function() return S1 .. ("y"):rep(200) end) end]], "=chain",
      { budget = 1000000000000, time = 100 })
    assert.is_true(ok, rep)
    local function cost(f)
      local c = os.clock()
      assert.is_false((f()))
      return os.clock() - c
    end
    -- (each pair runs the two back to back, so both meet the same load:
    -- the specs run beside the browser suite, and a collection's time
    -- doubled under it once; two collections give 2x in every pair)
    local best, seen = math.huge, {}
    for _ = 1, 3 do
      local r, c = cost(rep), cost(cat)
      best = math.min(best, r / math.max(c, 0.01))
      seen[#seen + 1] = string.format("rep %.2f s, a refused string %.2f s", r, c)
    end
    b:close()
    -- (284ce05: 1.3 s each with 20,000 links; 284ce05~1: 2.7 s each, its
    -- call-start collection added)
    assert.is_true(best < 1.6, table.concat(seen, "; "))
  end)

  it("(holds) sizes at the edges: no wrap, no crash, the real one's errors", function()
    local b = core.box.new{ memory = 64 * MiB }
    local ok, r = b:run([[
local out = {}
local CASES = {
  { "x", math.maxinteger }, { "xy", math.maxinteger // 2 + 1 }, { "x", 1 << 62, "y" },
  { "x", math.mininteger }, { "x", -1 }, { "x", 0 }, { "", math.maxinteger, "" },
  { ("x"):rep(1000), (1 << 62) // 1000 }, { "x", 3, ("s"):rep(1 << 20) }, { "ab", 1 << 61, "c" },
  { "x", (1 << 31) - 2 }, { "x", 100 << 20 },
}
for i, c in ipairs(CASES) do
  local ok, v = pcall(string.rep, c[1], c[2], c[3])
  out[i] = ok and ("ok" .. #v) or (tostring(v):match("too large") and "large" or
    tostring(v):match("memory") and "memory" or tostring(v))
end
return table.concat(out, " ")]], "=edges")
    b:close()
    assert.is_true(ok, r)
    -- (results past 2 GiB are refused unbuilt, Lua's MAXSIZE; a string past
    -- 1 MiB is refused by the box: DL_BOX_MAX_STRING)
    assert.equals("large large large ok0 ok0 ok0 ok0 large memory large memory memory", r)
  end)

  it("(holds) no finaliser of the script's runs in it: __gc refused, or added too late to count", function()
    local b = core.box.new{ memory = 64 * MiB }
    local ok, g, refused = b:run([[
G = 0
local mt = {}
for i = 1, 100 do setmetatable({}, mt) end
mt.__gc = function() G = G + 1 end
local ok1 = pcall(setmetatable, {}, { __gc = function() G = G + 100 end })
for i = 1, 3 do pcall(string.rep, "x", 1 << 40) end
return G, not ok1]], "=gc")
    b:close()
    assert.is_true(ok, g)
    assert.equals(0, g)
    assert.is_true(refused)
  end)

  it("(holds) it collects its own box only: another box's garbage stays counted", function()
    local a = core.box.new{ memory = 64 * MiB }
    local b = core.box.new{ memory = 64 * MiB }
    assert(a:run([[G = {} for i = 1, 20 do G[i] = ("g"):rep(1 << 20) .. i end G = nil]], "=a"))
    local before = a:memory()
    assert(b:run([[for i = 1, 5 do pcall(string.rep, "x", 1 << 40) end]], "=b"))
    assert.equals(before, a:memory())
    assert.is_true(before > 20 * MiB)
    a:close()
    b:close()
  end)
end)

-- A hook that tries a lazy move with every kind of write and a table
-- function on moves and on the list, and gives what it saw (no order of
-- pairs in it) as the reason its last move is dropped: alone and chained
-- must give the same moves and reasons.
local SIG = [==[function(m)
  local out = {}
  local function add(v) out[#out + 1] = type(v) == "table" and "T" or tostring(v) end
  local function try(f) local ok = pcall(f) add(ok and "ok" or "err") end
  local function keys(t)
    local ks = {}
    for k, v in pairs(t) do ks[#ks + 1] = type(k) == "string" and #k < 50 and k or type(k) end
    table.sort(ks)
    return table.concat(ks, ",")
  end
  local orig = {}
  for i = 1, #m do orig[i] = m[i] end
  local dropped = m[#m].text
  OLD = OLD or orig
  STEP = (STEP or 0) + 1
  local function at(i) return m[1 + (i - 1) % #m] end
  -- keys of every kind
  local x = at(2)
  try(function() x[nil] = 1 end)
  try(function() x[0 / 0] = 1 end)
  add(x.kind) add(x.text) add(x.seat) add(x.value)
  x[{}] = 1 x[true] = 2 x[1.5] = 3 x[2 ^ 53] = 4 x["text\0"] = 5 x[("k"):rep(100000)] = 6
  x.__index = function(_, k) return "I" .. k end
  add(x.kind) add(x.text) add(x.nosuch) add(keys(x))
  -- fields written nil and odd values
  local y = at(3)
  y.kind = nil y.seat = "odd" y.text = y
  add(y.kind) add(y.seat) add(rawequal(y.text, y)) add(keys(y))
  -- writes and deletions during pairs
  local z = at(4)
  for k, v in pairs(z) do z[k] = nil end
  add(keys(z)) add(z.kind)
  local z2 = at(5)
  for k, v in pairs(z2) do if k == "kind" then z2.seat = "S" .. v end end
  add(z2.seat) add(keys(z2))
  -- table functions on a move
  local w = at(6)
  table.insert(w, 7) table.insert(w, 1, 9) add(table.remove(w)) table.move({ 5, 4, 3 }, 1, 3, 2, w)
  table.sort(w) add(table.concat(w, ",")) add(w.kind) add(#w)
  local w2 = at(7)
  add(table.remove(w2)) add(keys(w2)) add(w2.text)
  -- reads of cards on every move, sorted in place
  for i = 1, #m do
    local c = m[i].cards
    if c then
      table.sort(c, function(a, b) return a > b end)
      add("CARDS" .. table.concat(c, ",")) add(rawequal(c, m[i].cards))
    end
  end
  -- a move as a metatable, then given __index by a write
  local v = at(8)
  local t = setmetatable({}, v)
  add(t.foo)
  v.__index = function(_, k) return "V" .. k end
  add(t.foo) add(v.kind)
  -- a move written in, then given another metatable
  local u = at(9)
  u.mark = 1
  setmetatable(u, { __index = function() return "U" end })
  add(u.kind) add(u.other)
  -- a move as a key, before and after a write
  local K = {}
  local s = at(10)
  K[s] = 1
  s.zz = 2
  add(K[s]) add(s.zz)
  -- stale moves from the first position
  for i = 1, #OLD do
    local o = OLD[i]
    o["note" .. STEP] = STEP
    add(o.text) add(o.kind) add(o["note" .. STEP])
  end
  -- the list itself sorted, grown, shrunk
  table.sort(m, function(a, b) return tostring(a.text) < tostring(b.text) end)
  table.insert(m, 1, m[#m])
  table.remove(m)
  for i = 1, #m do add(m[i].text) end
  if #orig < 2 then return orig end
  orig[#orig] = nil
  return orig, { [dropped] = "SIG " .. table.concat(out, ";") }
end]==]

describe("attack 33: what holds, lazy moves written with anything", function()
  it("(holds) every write, table function and stale move: alone and chained raise the same", function()
    rule("sig", SIG)
    local seen, cards = 0, 0
    for _, seed in ipairs{ 2, 11 } do
      local a, b = pgame("pilotta+sig", seed), pgame("pilotta+pass+sig", seed)
      local ref = pgame("pilotta", seed)
      for step = 1, 40 do
        local all = ref:moves()
        if #all == 0 then break end
        local a1, a2 = outcome(a)
        local b1, b2 = outcome(b)
        assert.equals(a1 .. " " .. a2, b1 .. " " .. b2, "at step " .. step)
        local _, wa = a:check(all[#all])
        local _, wb = b:check(all[#all])
        if #all > 1 then
          assert.matches("^SIG ", wa)
          seen = seen + 1
          if wa:find("CARDS") then cards = cards + 1 end
        end
        assert.equals(wa, wb, "at step " .. step)
        local mv = all[1]
        if mv == "pass" and #all > 2 then mv = all[2] end
        assert(ref:play(mv))
        assert(a:play(mv))
        assert(b:play(mv))
      end
    end
    assert.is_true(seen > 40 and cards > 0, seen .. " " .. cards)
  end)
end)
