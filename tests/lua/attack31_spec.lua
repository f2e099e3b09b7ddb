-- Attack 31: a hostile house-rule author against 9b490cd/1250f94: Pilotta's
-- moves-hook list built in the box with a registry table of keys
-- (src/pilotta/lua/ops.c push_list, push_played), one house rule's moves
-- hook called with no wrapper (lua/scripts/variants.lua compose), and the
-- boxes' generational collector at 200%/400% (src/lua/box.c setup).
--
-- Findings (failed on 9b490cd; fixed by going back to the collector's own
-- proportions in boxes):
-- 1. A box's garbage now waits until its memory triples before a young
--    collection, and it counts in its pool the whole time. An allocation
--    past a box's own cap collects that box first, but one past the
--    POOL's total collects only the box that asks: the garbage the other
--    boxes of the room left behind stays. Four rules of a pool of 24 MiB,
--    each keeping 3 MiB and making 4 MiB of garbage a call (16 MiB at the
--    most alive at once), fail with "memory cap exceeded ... (all scripts
--    together may hold 24 MiB); it will be loaded afresh" 20 calls out of
--    80 (none before): an innocent rule is stopped and reloaded for its
--    neighbours' garbage.
-- 2. A hook that makes 600 strings of 60 KiB a call, each by a
--    concatenation (("h"):rep(60 * 1024) .. i: 35 MiB kept to the end of
--    the call, as much again of temporaries), under the 64 MiB cap, is
--    stopped at its 4th call with "memory cap exceeded ... (64 MiB); it
--    will be loaded afresh" (on b48b64d: served every time). Directly:
--    variants.load_source of that rule, then v.hooks.moves({{text =
--    "pass", kind = "pass", seat = 0}}) six times.
-- (Why Lua's collection before it gives up did not save the second was
-- not found.) The rest holds and stays tested here.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local core = require "diloti.core"
local variants = require "diloti.scripts.variants"

local MiB = 1 << 20
local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local R = require("hook_rules").new(tmp, "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c")
local rule = R.rule

local function pgame(spec, seed)
  return assert(diloti.new{ rules = spec, rules_dirs = { tmp }, seed = seed })
end

-- Plays ref and g side by side (moves picked by a fixed sequence, bids
-- preferred to passes) and calls check(g, ref) at each step.
local function side_by_side(spec, seeds, steps, check)
  local r = 1
  for _, seed in ipairs(seeds) do
    local g, ref = pgame(spec, seed), pgame("pilotta", seed)
    for step = 1, steps do
      local all = ref:moves()
      if #all == 0 then break end
      check(g, ref)
      r = (r * 1103515245 + 12345) % 2147483648
      local m = all[1 + (r >> 8) % #all]
      if all[1] == "pass" and #all > 1 and step % 4 ~= 0 then m = all[2] end
      assert(ref:play(m))
      assert(g:play(m))
    end
  end
end

describe("attack 31, finding 1: a pool's total against the other boxes' garbage", function()
  it("four rules well within a pool's total are never stopped for it", function()
    local pool = core.box.pool{ total = 24 * MiB }
    local SRC = [[
local keep = {}
for i = 1, 48 do keep[i] = ("k"):rep(64 * 1024 - 32) .. i end
return { name = "%s", description = "x", game = "pilotta", hooks = { moves = function(m)
  local g = {}
  for i = 1, 64 do g[i] = ("g"):rep(64 * 1024 - 32) .. i end
  return m
end } }]]
    local vs = {}
    for i = 1, 4 do
      local name = "pilotta-g" .. i
      vs[i] = assert(variants.load_source(SRC:format(name), tmp .. "/" .. name .. ".lua", pool))
    end
    local list = { { text = "pass", kind = "pass", seat = 0 } }
    local fails, first = 0, nil
    for _ = 1, 20 do
      for i = 1, 4 do
        local ok, err = pcall(vs[i].hooks.moves, list)
        if not ok then
          fails = fails + 1
          first = first or err
        end
      end
    end
    assert.is_true(pool:memory() <= 24 * MiB)
    assert.equals(0, fails, first)
  end)
end)

describe("attack 31: what holds, the list built in the box", function()
  it("(holds) a played card's name is the card, belote texts and all kinds included", function()
    -- Every move named back by a text made from its own fields: a wrong
    -- card or kind would be refused or name another move.
    local spec = rule("fromfields", [[function(m)
      local KINDS = { pass = 1, bid = 1, contra = 1, recontra = 1, trump = 1, announce = 1, show = 1, play = 1 }
      local t = {}
      for i = 1, #m do
        local x = m[i]
        assert(KINDS[x.kind], "kind " .. tostring(x.kind))
        if x.kind == "play" then
          assert(type(x.card) == "string" and #x.card <= 3 and x.card:match("^%w+$"), "card " .. tostring(x.card))
          local rest = x.text:sub(#x.card + 1)
          assert(x.text:sub(1, #x.card) == x.card, x.text .. " / " .. x.card)
          assert(rest == "" or rest == " belote" or rest == " nobelote", x.text)
          assert(x.belote == (rest == " belote"), x.text)
          t[#t + 1] = x.card .. rest
        else
          assert(x.card == nil)
          t[#t + 1] = x.text
        end
      end
      return t
    end]], nil, "pilotta")
    local plays, beloted = 0, 0
    side_by_side(spec, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, 300, function(g, ref)
      local want = ref:moves()
      assert.same(want, g:moves())
      for _, m in ipairs(want) do
        if not m:match("^%a+$") and not m:match(" ") then plays = plays + 1 end
        if m:match("belote") then beloted = beloted + 1 end
      end
    end)
    assert.is_true(plays > 100)
    assert.is_true(beloted > 0, "no belote text was met")
  end)

  it("(holds) a hook that mutates its list and keeps its tables never changes a later list", function()
    local spec = rule("mutate", [[function(m)
      local KINDS = { pass = 1, bid = 1, contra = 1, recontra = 1, trump = 1, announce = 1, show = 1, play = 1 }
      for _, old in ipairs(SAVED or {}) do
        for i = 1, #m do assert(not rawequal(old, m[i]), "a table kept from before") end
      end
      for i = 1, #m do
        local x = m[i]
        assert(KINDS[x.kind] and x.text ~= "zz" and x.seat ~= -7, "a changed move: " .. tostring(x.text))
        if x.card then assert(#x.card <= 3 and x.card ~= "zz") end
      end
      SAVED = {}
      local n = #m
      for i = 1, n do
        local x = m[i]
        SAVED[i] = x
        x.text, x.kind, x.seat, x.card, x.index = "zz", "zz", -7, "zz", 99
        setmetatable(x, { __index = function() return "zz" end, __newindex = function() error("no") end })
      end
      string.len = function() return 0 end
      string.sub = function() return "zz" end
      local keep = {}
      for i = 1, n do keep[i] = i end
      m[n + 1] = "zz"
      for i = 1, n + 1 do m[i] = nil end
      return keep
    end]], nil, "pilotta")
    side_by_side(spec, { 5, 6 }, 150, function(g, ref)
      assert.same(ref:moves(), g:moves())
    end)
  end)
end)

describe("attack 31: what holds, one rule's hook called as it is", function()
  -- Each answer alone and after pass: the same moves, or both refused.
  local ODD = {
    ["nil"] = "return nil", number = "return 1.5", int0 = "return 0", fn = "return function() end",
    boolean = "return false", text = "return 'pass'", empty = "return {}",
    meta = "return setmetatable({}, { __index = function(_, i) return i end, __len = function() return 3 end })",
    mtlist = "return setmetatable({ 1 }, { __index = function() error('x') end })",
    ["reasons-fn"] = "return { 1 }, function() end", ["reasons-num"] = "return { 1 }, 42",
    ["reasons-text"] = "return { 1 }, 'why'", ["reasons-meta"] = "return { 1 }, setmetatable({}, { __index = error })",
    third = "return m, { a = 1 }, 'lost!'", many = "return m, nil, nil, 1, 2, 3, 4, 5, 6, 7, 8",
    huge = "local t = {} for i = 1, 200000 do t[i] = 1 end return t",
    holes = "local t = { 1 } t[2^40] = 1 return t",
    self = "return { m[1], m[1], m[1] }",
    ["err-nil"] = "error(nil)", ["err-tab"] = "error({})",
    ["err-meta"] = "error(setmetatable({}, { __tostring = function() return 'boo' end }))",
    ["err-long"] = "error(('e'):rep(900000))", ["err-num"] = "error(42)",
    overflow = "local function f() return f() + 1 end return f()",
    loop = "while true do end",
  }
  local names = {}
  for k in pairs(ODD) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do
    rule("odd-" .. k, "function(m) " .. ODD[k] .. " end", nil, "pilotta")
  end
  rule("pass", "function(m) return m end", nil, "pilotta")

  local function outcome(spec, pos)
    local g = assert(diloti.new{ rules = spec, rules_dirs = { tmp }, position = pos })
    local ok, r = pcall(g.moves, g)
    if ok then return "ok", table.concat(r, "|") end
    assert.is_string(r)
    return "error"
  end

  it("(holds) every odd answer alone as after another rule, and nothing crashes", function()
    local ref = pgame("pilotta", 7)
    local positions = {}
    for _ = 1, 40 do
      positions[#positions + 1] = ref:position()
      local all = ref:moves()
      if #all == 0 then break end
      assert(ref:play(all[1]:match("pass") and all[2] or all[1]))
    end
    for _, k in ipairs(names) do
      for _, pos in ipairs{ positions[1], positions[#positions] } do
        local a1, a2 = outcome("pilotta+odd-" .. k, pos)
        local b1, b2 = outcome("pilotta+pass+odd-" .. k, pos)
        assert.equals(b1, a1, k)
        assert.equals(b2, a2, k)
      end
    end
  end)
end)

describe("attack 31: what holds, a box's own cap", function()
  -- 600 strings of 60 KiB: 35 MiB alive in a call (and as much of
  -- temporaries), under the 64 MiB cap; 2000: over it. (Finding 2.)
  local HOG = [[function(m)
      local t = {}
      for i = 1, %d do t[i] = ("h"):rep(60 * 1024) .. i end
      return m
    end]]
  rule("hog", HOG:format(600), nil, "pilotta")
  rule("overhog", HOG:format(2000), nil, "pilotta")

  it("finding 2: a hook that allocates up to near its cap at every position is served", function()
    local g, ref = pgame("pilotta+hog", 3), pgame("pilotta", 3)
    for _ = 1, 12 do
      local all = ref:moves()
      assert.same(all, g:moves())
      local m = all[1]:match("pass") and all[2] or all[1]
      assert(ref:play(m))
      assert(g:play(m))
    end
  end)

  it("(holds) one past its cap is stopped with the memory message at every position", function()
    local g = pgame("pilotta+overhog", 3)
    for _ = 1, 6 do
      local ok, r = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("memory cap exceeded in variant 'pilotta-overhog' (moves hook) (64 MiB)", r, 1, true)
      local used, total = core.box.pool():memory()
      assert.is_true(used <= total)
    end
  end)
end)
