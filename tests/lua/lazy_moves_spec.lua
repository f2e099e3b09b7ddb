-- Pilotta's moves made in a house rule's box, each field made when read
-- (issue 29; src/pilotta/lua/lplaction.c, box.h dl_BoxLazy): every field
-- reads as g:moves(true) lists it, pairs walks them all, a script may
-- still write in a move, and a move going out of the box is the whole
-- move (it is a plain table from its first write, or the first read of
-- its cards). What differs from a plain table is said in
-- docs/house-rules.md: before that, rawget and next see nothing in it,
-- and a metatable the script sets on a move replaces the engine's (its
-- fields with it).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local KEYS = { "text", "index", "kind", "seat", "value", "capot", "suit", "cards", "card", "belote" }

-- One move as a line (the same code on both sides: the box's hook and
-- the host's reference).
local SER = [[
local KEYS = { "text", "index", "kind", "seat", "value", "capot", "suit", "cards", "card", "belote" }
local function ser(m)
  local out = {}
  for _, k in ipairs(KEYS) do
    local v = m[k]
    if type(v) == "table" then v = "[" .. table.concat(v, ",") .. "]" end
    out[#out + 1] = k .. "=" .. tostring(v)
  end
  return table.concat(out, " ")
end
-- The same fields by pairs: every key once, nothing else.
local function ser_pairs(m)
  local seen, n = {}, 0
  for k, v in pairs(m) do
    n = n + 1
    seen[k] = v
  end
  local count = 0
  for _, k in ipairs(KEYS) do if seen[k] ~= nil then count = count + 1 end end
  if count ~= n then return "pairs gave " .. n .. " keys, " .. count .. " known" end
  return ser(seen)
end
-- (an error's text is cut short: the list leaves the box as its hash)
local function hash(s)
  local h = 0
  for i = 1, #s do h = (h * 31 + s:byte(i)) % 2147483647 end
  return h
end
]]
local ser, hash = assert(load(SER .. "return ser, hash", "=ser"))()

local write = require("hook_rules").new(tmp).write

-- A rule whose hook, at its k-th position, fails with that position's
-- moves as it read them (the error is the way out of a box for a test).
local function dumper(k)
  return write("dump" .. k, SER .. string.format([[
local calls = 0
return { name = "pilotta-dump%d", description = "x", game = "pilotta", hooks = { moves = function(moves)
  calls = calls + 1
  if calls < %d then return moves end
  local t = {}
  for i = 1, #moves do
    local a, b = ser(moves[i]), ser_pairs(moves[i])
    if a ~= b then error("PAIRS " .. a .. " | " .. b, 0) end
    t[i] = a
  end
  error("LIST{" .. #t .. " " .. hash(table.concat(t, ";")) .. "}", 0)
end } }]], k, k))
end

-- The moves of a fixed play: bids before passes now and then, so that
-- there are contracts, declarations, belote and contra to list.
local function line(seed, steps)
  local g = assert(diloti.new{ rules = "pilotta", seed = seed })
  local played, r = {}, seed
  for step = 1, steps do
    local all = g:moves()
    if #all == 0 then break end
    r = (r * 1103515245 + 12345) % 2147483648
    local m = all[1 + (r >> 8) % #all]
    if all[1] == "pass" and #all > 1 and step % 3 ~= 0 then m = all[2 + (r >> 4) % (#all - 1)] end
    played[step] = m
    assert(g:play(m))
  end
  return played
end

local function seen_kinds(played, seed)
  local g = assert(diloti.new{ rules = "pilotta", seed = seed })
  local kinds = {}
  for _, m in ipairs(played) do
    for _, info in ipairs(g:moves(true)) do
      kinds[info.kind] = true
      if info.belote ~= nil then kinds.belote_flag = true end
    end
    assert(g:play(m))
  end
  return kinds
end

describe("a house rule's Pilotta moves, each field made when read", function()
  it("read field by field and by pairs, every move is what g:moves(true) lists, position by position", function()
    for _, seed in ipairs{ 2, 11 } do
      local played = line(seed, 40)
      local kinds = seen_kinds(played, seed)
      for _, k in ipairs{ "pass", "bid", "contra", "recontra", "announce", "show", "play", "belote_flag" } do
        assert.is_true(kinds[k], "seed " .. seed .. " never lists a " .. k)
      end
      local ref = assert(diloti.new{ rules = "pilotta", seed = seed })
      for k = 1, #played do
        local g = assert(diloti.new{ rules = dumper(k), rules_dirs = { tmp }, seed = seed })
        for i = 1, k - 1 do assert(g:play(played[i])) end
        local ok, msg = pcall(g.moves, g)
        assert.is_false(ok)
        local list = tostring(msg):match("LIST{(.*)}")
        assert.is_truthy(list, msg)
        local want = {}
        for i, info in ipairs(ref:moves(true)) do
          info.index = nil -- (a hook's list is not numbered)
          want[i] = ser(info)
        end
        assert.equals(#want .. " " .. hash(table.concat(want, ";")), list,
          "seed " .. seed .. ", position " .. k .. ": " .. table.concat(want, ";"))
        assert(ref:play(played[k]))
      end
    end
  end)

  it("a script writes in a move as in any table; rawget and next see only what it wrote", function()
    local spec = write("writes", [[
return { name = "pilotta-writes", description = "x", game = "pilotta", hooks = { moves = function(moves)
  local m = moves[1]
  local function check(ok, what) if not ok then error("FAILED " .. what, 0) end end
  check(rawget(m, "kind") == nil and next(m) == nil and #m == 0, "raw view of a fresh move")
  check(m.kind == "pass" and m.text == "pass" and math.type(m.seat) == "integer", "fields")
  check(m.index == nil and m.nosuch == nil, "absent fields")
  for _, k in ipairs{ 1, 2.5, true, false, {}, function() end, ("text"):rep(20000), "text\0", "" } do
    check(m[k] == nil, "a key of type " .. type(k))
  end
  m.note = "mine"
  m.kind = "changed"
  check(m.note == "mine" and m.kind == "changed" and rawget(m, "note") == "mine", "writes")
  check(rawget(m, "text") == "pass", "a move written in is a plain table, every field in it")
  local n = 0
  for k, v in pairs(m) do
    n = n + 1
    if k == "kind" then check(v == "changed", "pairs sees the write over the field") end
  end
  check(n == 4, "pairs: text, kind, seat and note (" .. n .. ")")
  for i = 1, 5000 do m["k" .. i] = i end
  n = 0
  for _ in pairs(m) do n = n + 1 end
  check(n == 5004, "pairs over 5000 written keys")
  local other = moves[3]
  check(other.kind == "bid", "a bid")
  setmetatable(other, { __index = function(_, k) return "mine:" .. k end })
  check(other.kind == "mine:kind" and other.text == "mine:text", "a metatable of the script's")
  local iter = pairs(moves[2])
  for _, args in ipairs{ {}, { 1 }, { "x" }, { {}, "nokey" }, { m, {} } } do
    check(not pcall(iter, table.unpack(args)), "the iterator with bad arguments")
  end
  check(select("#", iter({})) == 1, "the iterator on an empty table")
  error("ALL CHECKED", 0)
end } }]])
    local g = assert(diloti.new{ rules = spec, rules_dirs = { tmp }, seed = 3 })
    local ok, msg = pcall(g.moves, g)
    assert.is_false(ok)
    assert.matches("ALL CHECKED", msg)
  end)

  it("a move's cards are one table, changed in place; a field deleted stays deleted", function()
    local spec = write("cards", [[
local function check(ok, what) if not ok then error("FAILED " .. what, 0) end end
return { name = "pilotta-cards", description = "x", game = "pilotta", hooks = { moves = function(moves)
  for i = 1, #moves do
    local m = moves[i]
    if m.kind == "announce" then
      local c = m.cards
      check(c == m.cards and rawget(m, "cards") == c, "one table")
      table.sort(c, function(a, b) return a > b end)
      check(m.cards[1] == c[1], "sorted in place")
      m.text = nil
      check(m.text == nil and m.kind == "announce" and m.value ~= nil, "the other fields stay")
      error("CARDS CHECKED", 0)
    end
  end
  local x = moves[#moves]
  x.kind = nil
  check(x.kind == nil and rawget(x, "kind") == nil and type(x.text) == "string", "a deletion stays")
  return moves
end } }]])
    local played = line(2, 40)
    local g = assert(diloti.new{ rules = spec, rules_dirs = { tmp }, seed = 2 })
    local msg
    for _, m in ipairs(played) do
      local ok, err = pcall(g.moves, g)
      if not ok then
        msg = err
        break
      end
      assert(g:play(m))
    end
    assert.matches("CARDS CHECKED", msg)
  end)

  it("a move kept from an earlier position leaves the box whole: found by its text, or refused by name", function()
    -- A rule answering, after the first position, that position's move
    -- number `which` alone.
    local function stale(name, which)
      return write(name, string.format([[
local first
return { name = "pilotta-%s", description = "x", game = "pilotta", hooks = { moves = function(moves)
  if not first then
    first = moves
    return moves
  end
  return { first[%d] }, nil
end } }]], name, which))
    end
    -- (the pass of the first position, and its first bid)
    local g = assert(diloti.new{ rules = stale("stale", 1), rules_dirs = { tmp }, seed = 3 })
    local all = g:moves()
    assert.equals("pass", all[1])
    assert(g:play(all[2]))
    assert.same({ "pass" }, g:moves())
    local spec2 = stale("stale2", 2)
    g = assert(diloti.new{ rules = spec2, rules_dirs = { tmp }, seed = 3 })
    all = g:moves()
    assert(g:play(all[2])) -- (80c: the next seat may no longer bid it)
    local ok, err = pcall(g.moves, g)
    assert.is_false(ok)
    assert.matches("returned '" .. all[2] .. "', which is not a legal move here", err, 1, true)
  end)

  it("the engine's list is still the plain one where no hook is in a box: a chain's, the host's own", function()
    local host = assert(diloti.new{ rules = "pilotta", seed = 3 })
    for _, info in ipairs(host:moves(true)) do
      assert.equals("table", type(info))
      assert.is_nil(getmetatable(info))
      for _, k in ipairs(KEYS) do
        if k ~= "index" then assert.equals(info[k], rawget(info, k)) end
      end
    end
  end)
end)
