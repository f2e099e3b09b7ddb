-- Attacks on 86d7cdb (issue 29, src/lua/handle.c): a method checks its
-- handle by comparing the handle's metatable with its own second upvalue
-- (the type's metatable), and a game keeps a copy of the hooks it was
-- made with, with a flag saying whether any is a function.
--
-- Run from the worktree root:
--   DILOTI_BIN=build/diloti LUA_CPATH="build/?.so;;" lua5.4 /usr/bin/busted tests/lua/attack30_spec.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
require "diloti"
local core = require "diloti.core"

local function open(name, opts)
  return assert(core.open(name, opts or { seed = 3 }))
end

local function first(list) return { list[1] } end

-- Everything that is not a live handle of the method's own game.
local function impostors(name)
  local g = open(name)
  local mt = debug.getmetatable(g)
  local closed = open(name)
  closed:close()
  local list = {
    { "nil", nil }, { "true", true }, { "a number", 1 }, { "a string", "x" }, { "a table", {} },
    { "a table dressed as the game", setmetatable({}, { __index = g }) },
    { "io.stdout", io.stdout }, { "io.stdin", io.stdin },
    { "a box", core.box.new{ label = "attack30" } }, { "core.rng's userdata", core.rng(1) },
    { "a light userdata (debug.upvalueid)", debug.upvalueid(g.moves, 1) },
    { "the light userdata of the ops (upvalue 1)", select(2, debug.getupvalue(g.moves, 1)) },
    { "a function", print }, { "a coroutine", coroutine.create(print) },
    { "the type's metatable", mt }, { "its __index table", mt.__index },
    { "a closed game", closed },
  }
  for _, other in ipairs(core.games()) do
    if other ~= name then
      list[#list + 1] = { "a " .. other .. " game", open(other) }
      local oc = open(other)
      oc:close()
      list[#list + 1] = { "a closed " .. other .. " game", oc }
    end
  end
  return list, mt
end

describe("attack30: a game's method takes only a live handle of its own game", function()
  for _, name in ipairs(core.games()) do
    it(name .. ": every method refuses every impostor, and a call with no argument", function()
      local list, mt = impostors(name)
      local n = 0
      for m, f in pairs(mt.__index) do
        local ok, err = pcall(f)
        assert.is_false(ok, m .. "()")
        assert.matches("expected", err, m .. "()")
        for _, o in ipairs(list) do
          -- (g:close() of a closed game is allowed: it does nothing)
          local closing = m == "close" and (o[1]:match("^a closed " .. name) or o[1] == "a closed game")
          if not closing then
            ok, err = pcall(f, o[2], 1, 1)
            assert.is_false(ok, m .. " on " .. o[1])
            assert.is_string(err, m .. " on " .. o[1])
            assert.is_truthy(err:match("expected") or err:match("freed"), m .. " on " .. o[1] .. ": " .. err)
            n = n + 1
          end
        end
      end
      assert.is_true(n > 300)
    end)

    it(name .. ": its __tostring, __gc and __close refuse another game's handle and other userdata", function()
      local _, mt = impostors(name)
      for _, other in ipairs(core.games()) do
        if other ~= name then
          for _, mm in ipairs{ "__tostring", "__gc", "__close" } do
            for _, v in ipairs{ open(other), io.stdout, core.rng(2) } do
              local ok, err = pcall(mt[mm], v)
              assert.is_false(ok, mm)
              assert.matches("expected", err, mm)
            end
          end
        end
      end
    end)

    it(name .. ": a handle brought back by another object's finaliser is refused as freed", function()
      local kept
      do
        local g = open(name)
        setmetatable({}, { __gc = function() kept = g end })
      end
      collectgarbage()
      collectgarbage()
      assert.is_not_nil(kept)
      local ok, err = pcall(kept.moves, kept)
      if not ok then assert.matches("freed", err) end -- (its own finaliser may not have run yet)
      assert.is_string(tostring(kept))
    end)

    it(name .. ": a clone outlives its closed original, and the original stays refused", function()
      local g = open(name)
      local c = g:clone()
      g:close()
      assert.is_table(c:moves())
      assert.has_error(function() c.moves(g) end)
    end)
  end
end)

describe("attack30: the copy of a game's hooks", function()
  for _, name in ipairs(core.games()) do
    local plain = #open(name):moves()

    it(name .. ": values that are not functions are not hooks, whatever the keys", function()
      local odd = { 1, "x", true, {}, setmetatable({}, { __call = first }), io.stdout, coroutine.create(print) }
      for _, v in ipairs(odd) do
        local g = open(name, { seed = 3, hooks = { moves = v, score = v, match = v } })
        assert.equals(plain, #g:moves())
        -- (a function under another key makes the game hooked, yet none of the three)
        g = open(name, { seed = 3, hooks = { moves = v, [print] = print, [1] = print, [2.5] = print, [true] = first } })
        assert.equals(plain, #g:moves())
        for _ = 1, 5 do if g:turn() then assert(g:play(1)) end end
      end
      local g = open(name, { seed = 3, hooks = { ["moves\0"] = first, [""] = first, MOVES = first } })
      assert.equals(plain, #g:moves())
    end)

    it(name .. ": a hooks table is read as Lua reads it (__index counts), never by __pairs", function()
      local ran = false
      local h = setmetatable({}, {
        __pairs = function() ran = true error("pairs ran") end,
        __index = function(_, k) if k == "moves" then return first end end,
      })
      local g = open(name, { seed = 3, hooks = h })
      assert.equals(1, #g:moves())
      assert.equals(1, #g:clone():moves())
      assert.is_false(ran)
      local broken = setmetatable({}, { __index = function() error("no hooks here") end })
      assert.is_false((pcall(open, name, { seed = 3, hooks = broken })))
    end)


    it(name .. ": the copy keeps the moves hook's own flags (moves_state = false: no state)", function()
      local seen = "unset"
      local g = open(name, { seed = 3, hooks = { moves_state = false, moves = function(list, state)
        seen = state
        return list
      end } })
      assert.equals(plain, #g:moves())
      assert.is_nil(seen)
      g = open(name, { seed = 3, hooks = { moves = function(list, state)
        seen = state
        return list
      end } })
      g:moves()
      assert.is_table(seen)
    end)

    it(name .. ": changing the table or opts.hooks after open changes nothing, for the game and its clones", function()
      local opts = { seed = 3, hooks = { moves = first } }
      local g = open(name, opts)
      opts.hooks.moves = function() error("late") end
      opts.hooks = nil
      assert.equals(1, #g:moves())
      assert.equals(1, #g:clone():moves())
      assert.equals(1, #g:clone():clone():moves())
      local none = open(name)
      assert.equals(plain, #none:clone():moves())
    end)

    it(name .. ": a huge hooks table is copied once; its clones share it", function()
      local h = { moves = first }
      for i = 1, 50000 do h["k" .. i] = i end
      local t = os.clock()
      local g = open(name, { seed = 3, hooks = h })
      for _ = 1, 200 do g:clone() end
      assert.is_true(os.clock() - t < 1)
      assert.equals(1, #g:moves())
    end)

    it(name .. ": a hook that fails raises a worded error, text or not", function()
      local g = open(name, { seed = 3, hooks = { moves = function() error("boom") end } })
      local ok, err = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("house rule %(moves hook%) failed: .*boom", err)
      g = open(name, { seed = 3, hooks = { moves = function() error(setmetatable({}, { __tostring = error })) end } })
      ok, err = pcall(g.moves, g)
      assert.is_false(ok)
      assert.matches("not text", err)
    end)
  end
end)

describe("attack30: nothing in a box reaches a game handle", function()
  it("refuses a handle as an argument, in a table, or into a function the box returned", function()
    local g = open("diloti")
    local box = core.box.new{ label = "attack30" }
    local ok, err = box:run("return type(...)", "=x", nil, g)
    assert.is_false(ok)
    assert.matches("userdata cannot be passed", err)
    ok, err = box:run("return type(...)", "=x", nil, { g = g })
    assert.is_false(ok)
    assert.matches("userdata cannot be passed", err)
    local f
    ok, f = box:run("return function(x) return type(x) end", "=x")
    assert.is_true(ok)
    ok, err = pcall(f, g)
    assert.is_false(ok)
    assert.matches("userdata cannot be passed", err)
  end)

  it("a method handed in as a host function refuses everything a box can pass it", function()
    local g = open("diloti")
    local box = core.box.new{ label = "attack30" }
    local ok, out = box:run([[
      local t = ... local out = {}
      for _, a in ipairs{ {}, 1, "x", true, t } do out[#out + 1] = tostring(pcall(t.m, a)) end
      out[#out + 1] = tostring(pcall(t.m))
      out[#out + 1] = tostring(pcall(t.m, t.m))
      return table.concat(out, " ") ]], "=x", nil, { m = g.moves })
    assert.is_true(ok)
    assert.equals("false false false false false false false", out)
  end)
end)

-- Found while attacking, NOT caused by 86d7cdb (the parent 8fa01ae dies
-- the same way): a host hook (diloti.new{hooks} / core.open{hooks}, the
-- user's own code) that closes its own game makes the method that called
-- it go on with the freed game: a NULL dereference (SIGSEGV). Run in a
-- child so that the crash fails this test instead of killing busted.
describe("attack30 (pre-existing): a hook that closes its own game", function()
  local function survives(name, which, call)
    local dir = support.tmpdir()
    local path = dir .. "/closes.lua"
    support.write(path, string.format([[
      require "diloti"
      local core = require "diloti.core"
      local g
      g = assert(core.open(%q, { seed = 3, hooks = { %s = function(x) g:close() return x end } }))
      %s
      os.exit(0)
    ]], name, which, call))
    local ok, how, code = os.execute(support.lua .. " " .. support.q(path) .. " >/dev/null 2>&1")
    support.rmdir(dir)
    return ok == true, how .. " " .. tostring(code)
  end

  for _, name in ipairs(core.games()) do
    it(name .. ": g:moves() with a moves hook that closes g raises, it does not crash", function()
      local ok, how = survives(name, "moves", "pcall(g.moves, g)")
      assert.is_true(ok, how)
    end)
  end

  it("diloti: a score hook that closes g at the round's end raises, it does not crash", function()
    local ok, how = survives("diloti", "score",
      "for _ = 1, 3000 do if not g:turn() then break end if not pcall(g.play, g, 1) then break end end")
    assert.is_true(ok, how)
  end)
end)
