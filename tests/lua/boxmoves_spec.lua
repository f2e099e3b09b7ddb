-- core.box.moves (src/lua/boxmoves.c, issue 29): the moves hook's call,
-- made in the house rule's box by C. A script never reaches it (the
-- prelude keeps it), but it is tried here with every kind of argument as
-- if one could: it raises clear errors and never crashes the program.
local diloti = require "diloti"
local box = diloti.box

-- Runs src in a fresh box with core.box.moves as its ...; returns ok,
-- the results.
local function run(src, opts)
  local b = box.new(opts or { label = "m", time = 5 })
  local r = table.pack(b:run(src, "=m", nil, box.moves))
  b:close()
  return table.unpack(r, 1, r.n)
end

describe("box:run hands what follows its limits to the chunk", function()
  it("as the chunk's ..., copied like any argument", function()
    local b = box.new{ label = "a" }
    local ok, n, x, t = b:run("return select('#', ...), ...", "=a", nil, "x", { 1, { 2 } })
    assert.is_true(ok, n)
    assert.equals(2, n)
    assert.equals("x", x)
    assert.same({ 1, { 2 } }, t)
    ok, n = b:run("return select('#', ...)", "=a")
    assert.is_true(ok)
    assert.equals(0, n)
    b:close()
  end)
end)

describe("core.box.moves", function()
  it("is nothing in the host but a name for the box's own", function()
    local ok, err = pcall(box.moves, function() end, {})
    assert.is_false(ok)
    assert.matches("works only inside a house rule's box", err)
  end)

  it("a script has no way to it: no core, no global of it", function()
    local b = box.new{ label = "g" }
    local ok, v = b:run("local n = 0 for k in pairs(_G) do if k == 'core' or k == 'moves' then n = n + 1 end end "
      .. "return n", "=g")
    assert.is_true(ok, v)
    assert.equals(0, v)
    b:close()
  end)

  it("refuses a first argument that is no function and a second that is no table, by name", function()
    local values = { "nil", "true", "1", "1.5", "0/0", "'s'", "{}", "function() end",
      "setmetatable({}, { __call = print })", "string.rep('x', 100000)" }
    for _, f in ipairs(values) do
      for _, list in ipairs(values) do
        local ok, done, err = run("local moves = ... return pcall(moves, " .. f .. ", " .. list .. ")")
        assert.is_true(ok, done)
        local fine = f == "function() end" and (list == "{}" or list:match("^setmetatable") ~= nil)
        if not fine then
          assert.is_false(done, f .. ", " .. list)
          assert.matches("bad argument #[12]", err, 1, false)
        end
      end
    end
    local ok, done, err = run("local moves = ... return pcall(moves)")
    assert.is_true(ok)
    assert.is_false(done)
    assert.matches("bad argument #1", err)
  end)

  it("answers true for a list kept in place, whether the same table, a copy, or nothing", function()
    for _, body in ipairs{ "return l", "local t = {} for i = 1, #l do t[i] = l[i] end return t", "", "return 7" } do
      local ok, a, kept, why = run("local moves = ... local l = { {}, {}, 'x', 5 } "
        .. "return moves(function(l) " .. body .. " end, l)")
      assert.is_true(ok, a)
      assert.is_nil(a)
      assert.is_true(kept, body)
      assert.is_nil(why)
    end
  end)

  it("numbers the moves it was given, as they were before the call, and passes the rest as they are", function()
    local ok, a, kept, why = run([[
      local moves = ...
      local x, y, z = { 'x' }, { 'y' }, { 'z' }
      return moves(function(l, extra)
        assert(extra == 'more')
        l[1], l[3] = l[3], 'changed in place'
        return { l[1], x, y, 'text', nil, 0/0, true, 4.5 }, { why = 1 }
      end, { x, y, z, {}, {}, {}, {}, {} }, 'more')]])
    assert.is_true(ok, a)
    assert.is_nil(a)
    assert.same({ 3, 1, 2, "text", false }, { table.unpack(kept, 1, 5) })
    assert.is_true(kept[6] ~= kept[6]) -- (NaN crosses as NaN)
    assert.same({ true, 4.5 }, { kept[7], kept[8] })
    assert.same({ why = 1 }, why)
  end)

  it("hands back a list longer than it was given as it is, for the host to refuse", function()
    local ok, _, kept = run("local moves = ... return moves(function(l) return { 1, 2, 3 } end, { {}, {} })")
    assert.is_true(ok)
    assert.same({ 1, 2, 3 }, kept)
  end)

  it("reads a list with holes and odd values up to its length, and forgets a longer list before", function()
    local ok, first, second = run([[
      local moves = ...
      local a, b = {}, {}
      local _, k1 = moves(function(l) return { l[3], l[1] } end, { a, 0/0, b, b })
      local _, k2 = moves(function(l) return { l[2], l[1], l[4] } end, { b, a }) -- (l[4]: nil)
      return k1, k2]])
    assert.is_true(ok, first)
    assert.same({ 4, 1 }, first) -- (a move given twice: its last place)
    assert.same({ 2, 1 }, second)
  end)

  it("lets the hook's error through, with its own message", function()
    local ok, err = run("local moves = ... return moves(function() error('mine', 0) end, {})")
    assert.is_false(ok)
    assert.matches("mine", err)
  end)

  it("stays under the box's time limit and memory cap with a long list", function()
    local ok, err = run([[
      local moves = ...
      local l = {}
      for i = 1, 200000 do l[i] = {} end
      while true do moves(function(t) return { t[2], t[1] } end, l) end]], { label = "t", time = 0.5, budget = 1e12 })
    assert.is_false(ok)
    assert.matches("time limit", err)
    ok, err = run([[
      local moves = ...
      local l = {}
      for i = 1, 300000 do l[i] = i end
      return moves(function(t) return { 1 } end, l)]], { label = "mem", memory = 4 << 20, time = 5 })
    assert.is_false(ok)
    assert.matches("memory", err)
  end)
end)
