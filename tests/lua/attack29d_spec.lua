-- Attack 29d: a hostile script author against the merge 2ebb6dd (issue
-- 29, cheaper AI decisions): the box's map and list of a call's host
-- functions made once and emptied around every call (src/lua/box.c), lists
-- copied in by index (src/lua/boxcopy.c), a seat's static ctx fields kept
-- inside the AI's box and sent only when they change (lua/ai/player.lua,
-- ctx.lua, box_helpers.lua), the rules asked once a round (lua/driver.lua).
--
-- Findings: none. What was tried, and holds (tested here):
-- - a service kept from an earlier call, whose id names another host
--   function in the later call, is refused (the gen counter), also after
--   a call that failed in the script or while its arguments were copied
--   in, and after a call with no services at all;
-- - a service whose host function calls back into the same box is refused
--   ("called again while it runs") and the box goes on working;
-- - a service handed out of its box and back into another is not a way
--   to call the host function later;
-- - lists with holes, negative, huge and float keys reach a box as they
--   are, and a list past the item limit is refused;
-- - a script that writes into its ctx (fields, rawset, its metatable)
--   does not change what its next decision, or its other seat's, sees;
-- - a script that replaces type, error, tostring, next, pairs,
--   setmetatable and rawget does not change the ctx the driver makes;
-- - one script at two seats of one game gets each seat's own fields;
-- - a simulate, search or view kept from one seat's decision (or from a
--   decision that failed after keeping them) is refused at the next.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local ai = require "diloti.ai"

local STALE = "works only during the call it was given to"

local tmp = support.tmpdir()
teardown(function() support.rmdir(tmp) end)

local written = 0
local function player_of(body, opts)
  written = written + 1
  local name = "d" .. written
  local dir = tmp .. "/ai" .. written
  os.execute("mkdir -p " .. support.q(dir))
  local path = support.write(dir .. "/" .. name .. ".lua", "local NAME = '" .. name .. "'\n" .. body)
  return assert(ai.player(path, opts))
end

describe("attack 29d: what holds, the box's services kept between calls", function()
  local box = diloti.box

  it("a kept service whose id names another host function later is refused", function()
    local b = box.new{ label = "svc" }
    local _, keep = b:run("return function(svc) kept = svc return kept() end", "=keep")
    local _, use = b:run("return function(f) local ok, why = pcall(kept) return ok, why, f() end", "=use")
    local calls = {}
    assert.equals("one", keep(function() calls[#calls + 1] = "one" return "one" end))
    local ok, why, own = use(function() calls[#calls + 1] = "two" return "two" end)
    assert.is_false(ok)
    assert.matches(STALE, why, 1, true)
    assert.equals("two", own)
    assert.same({ "one", "two" }, calls)
  end)

  it("after a call that failed in the script or while copying its arguments in", function()
    local b = box.new{ label = "svc" }
    local _, keep = b:run("return function(svc) kept = svc error('no', 0) end", "=keep")
    local _, use = b:run("return function(f) local ok, why = pcall(kept) return ok, why end", "=use")
    local secret = false
    local function host() secret = true return "secret" end
    assert.is_false(pcall(keep, host))
    -- (collected, then refused while copied in: too deep)
    local deep = { host }
    for _ = 1, 200 do deep = { deep, host } end
    assert.is_false(pcall(use, deep))
    for _, args in ipairs{ { host }, { function() return 1 end }, {} } do
      local ok, why = use(table.unpack(args))
      assert.is_false(ok)
      assert.matches(STALE, why, 1, true)
    end
    assert.is_false(secret)
  end)

  it("a service calling back into its own box is refused, and the box goes on", function()
    local b = box.new{ label = "re" }
    local _, f = b:run("return function(svc) return pcall(svc) end", "=re")
    local function back() return f(back) end
    local ok, why = f(back)
    assert.is_false(ok)
    assert.matches("called again while it runs", why, 1, true)
    assert.equals(true, (f(function() return 1 end)))
  end)

  it("a service handed out of its box cannot call the host function later", function()
    local a, b = box.new{}, box.new{}
    local _, give = a:run("return function(svc) return svc end", "=give")
    local _, take = b:run("return function(f) kept = f return 1 end", "=take")
    local _, later = b:run("return function() return pcall(kept) end", "=later")
    local called = false
    local ok, out = pcall(give, function() called = true end)
    if ok and type(out) == "function" then
      pcall(out)
      pcall(take, out)
      pcall(later)
    end
    assert.is_false(called)
  end)
end)

describe("attack 29d: what holds, lists copied in by index", function()
  it("holes, negative, huge and float keys arrive as they are; too many are refused", function()
    local b = diloti.box.new{}
    local _, echo = b:run([[return function(t)
      local out = {}
      for k, v in pairs(t) do out[#out + 1] = math.type(k) .. ":" .. tostring(k) .. "=" .. tostring(v) end
      table.sort(out)
      return table.concat(out, " "), #t == 1 or #t == 3, t.nope == nil
    end]], "=echo")
    local t = setmetatable({ 1, nil, 3, [-5] = "n", [math.maxinteger] = "M", [math.mininteger] = "m",
      [2.5] = "f", [2^53] = "big" }, { __index = function() return "x" end })
    local s, border, nometa = echo(t)
    assert.equals(table.concat({ "float:2.5=f", "integer:-5=n", "integer:-9223372036854775808=m",
      "integer:1=1", "integer:3=3", "integer:9007199254740992=big", "integer:9223372036854775807=M" }, " "), s)
    assert.is_true(border)
    assert.is_true(nometa)
    local many = {}
    for i = 1, 2000000 do many[i] = i end
    local ok, why = pcall(echo, many)
    assert.is_false(ok)
    assert.matches("too many values", why, 1, true)
  end)
end)

describe("attack 29d: what holds, a seat's static fields kept in the AI's box", function()
  local SPOIL = [[
local function tell(ctx)
  return table.concat({ tostring(ctx.seat), tostring(ctx.players), tostring(ctx.sides), tostring(ctx.side),
    tostring(ctx.partner), tostring(ctx.teams) }, " ")
end
local spoil = function(ctx)
  local t = tell(ctx)
  for k in pairs(ctx) do pcall(function() ctx[k] = 99 end) end
  pcall(rawset, ctx, "seat", 77)
  ctx.seat, ctx.players, ctx.sides, ctx.side, ctx.partner, ctx.teams = 9, 9, 9, 9, 9, 9
  pcall(setmetatable, ctx, nil)
  return t
end
]]

  it("what a decision writes into its ctx is not what the next one sees", function()
    local p = player_of(SPOIL .. [[
return { name = NAME, description = "x", choose = function(_, moves, ctx) return moves[1], spoil(ctx) end }]])
    for _, players in ipairs{ 2, 4 } do
      local g = assert(diloti.new{ players = players })
      local seat = g:turn()
      local _, first = p:choose(g, seat)
      assert.is_nil(first.fallback, first.warning)
      for _ = 1, 3 do
        local _, info = p:choose(g, seat)
        assert.is_nil(info.fallback, info.warning)
        assert.equals(first.note, info.note)
      end
      assert.matches("^" .. seat .. " " .. players, first.note)
    end
  end)

  -- Plays 8 moves of a four-player game with p at every seat: each
  -- decision's note tells the seat's own fields.
  local function sees_own_fields(p)
    local g = assert(diloti.new{ players = 4 })
    for _ = 1, 8 do
      local seat = g:turn()
      local mv, info = p:choose(g, seat)
      assert.is_nil(info.fallback, info.warning)
      assert.equals(string.format("%d 4 2 %d %d true", seat, seat % 2, (seat + 2) % 4), info.note)
      assert(g:play(mv))
    end
  end

  it("one script at two seats gets each seat's own fields, whatever it writes", function()
    local p = player_of(SPOIL .. [[
return { name = NAME, description = "x", choose = function(_, moves, ctx) return moves[1], spoil(ctx) end }]])
    sees_own_fields(p)
  end)

  it("a script that replaces the globals the driver uses changes no ctx", function()
    local p = player_of(SPOIL .. [[
local real = { type = type, error = error, tostring = tostring, next = next, pairs = pairs,
  setmetatable = setmetatable, rawget = rawget }
local function replace()
  type = function() return "table" end
  error = function() end
  tostring = function() return "seat" end
  next = function() return nil end
  pairs = function() return function() return nil end end
  setmetatable = function(t) return t end
  rawget = function() return 42 end
end
replace()
return { name = NAME, description = "x", choose = function(_, moves, ctx)
  for k, v in real.pairs(real) do _ENV[k] = v end
  local t = tell(ctx)
  spoil(ctx)
  replace()
  return moves[1], t
end }]])
    sees_own_fields(p)
  end)
end)

describe("attack 29d: what holds, services kept from another seat's decision", function()
  it("a kept simulate, search and view of one seat, or of a failed decision, are refused at the next", function()
    local p = player_of([[
local kept, n = nil, 0
return { name = NAME, description = "x", choose = function(view, moves, ctx)
  n = n + 1
  local out = {}
  local function said(why)
    return tostring(why):find("works only during the call", 1, true) and "stale" or tostring(why)
  end
  if kept then
    for _, name in ipairs{ "simulate", "search" } do
      local ok, why = pcall(kept[name], kept.move)
      out[#out + 1] = name .. ":" .. tostring(ok) .. ":" .. said(why)
    end
    local ok, why = pcall(function() return kept.view.hand end)
    out[#out + 1] = "view:" .. tostring(ok) .. ":" .. said(why)
  end
  kept = { simulate = ctx.simulate, search = ctx.search, view = view, move = moves[1] }
  if n % 3 == 0 then error("fails after keeping", 0) end
  return moves[1], table.concat(out, "|")
end }]])
    local g = assert(diloti.new{ players = 4 })
    for i = 1, 9 do
      local seat = g:turn()
      local mv, info = p:choose(g, seat)
      if i % 3 == 0 then
        assert.is_true(info.fallback)
      else
        assert.is_nil(info.fallback, info.warning)
        if i > 1 then
          assert.equals("simulate:false:stale|search:false:stale|view:false:stale", info.note)
        end
      end
      assert(g:play(mv))
    end
  end)
end)
