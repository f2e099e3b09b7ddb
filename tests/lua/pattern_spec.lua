-- The step-bounded string.find, match, gmatch and gsub (src/lua/lpattern.c,
-- reached here as core.pattern). They must behave exactly as the stock
-- string library does, results and error messages alike, for every
-- input; the only difference allowed is that a call doing too much work
-- fails with "string.NAME: pattern too costly (more than N steps)".
-- Every comparison below runs both libraries on the same arguments.
require "diloti"
local P = require("diloti.core").pattern

-- The random sweep: DL_PATTERN_CASES patterns (fewer under sanitizers),
-- from a fixed seed unless DL_PATTERN_SEED gives another.
local CASES = math.tointeger(tonumber(os.getenv("DL_PATTERN_CASES") or "")) or 20000
local SEED = math.tointeger(tonumber(os.getenv("DL_PATTERN_SEED") or "")) or 20240607
-- (called from Lua, as the gmatch iterator is, the message starts with
-- the caller's position)
local COSTLY = "string%.(%a+): pattern too costly %(more than (%d+) steps%)$"

--- A printable, exact form of a list of values (floats keep every bit,
-- strings every byte).
local function show(...)
  local out = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    local mt = math.type(v)
    if mt == "float" then
      out[i] = string.format("%.17gf", v)
    elseif mt == "integer" then
      out[i] = string.format("%di", v)
    elseif type(v) == "string" then
      out[i] = string.format("%q", v)
    else
      out[i] = tostring(v)
    end
  end
  return table.concat(out, ", ")
end

--- An argument error names the function as Lua finds it ('find',
-- 'string.find', '?'): only the rest of the message is compared.
local function plain_error(ok, ...)
  if ok then return show(ok, ...) end
  local err = (...)
  if type(err) == "string" then err = err:gsub("^(bad argument #%d+ to )'[^']*'", "%1'F'") end
  return show(ok, err)
end

--- Every value gmatch yields, each iteration in order (at most 500, in
-- case an iterator never ends).
local function gmatch_all(lib, ...)
  local it = lib.gmatch(...)
  local out = {}
  for _ = 1, 500 do
    local r = table.pack(it())
    if r[1] == nil then break end
    out[#out + 1] = "{" .. show(table.unpack(r, 1, r.n)) .. "}"
  end
  return table.concat(out, " ")
end

--- The outcome of lib.fname(...) as a string: results or error.
local function outcome(lib, fname, ...)
  if fname == "gmatch" then return plain_error(pcall(gmatch_all, lib, ...)) end
  return plain_error(pcall(lib[fname], ...))
end

--- Describes a call for a failure message.
local function call_text(fname, ...)
  local args = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    args[i] = type(v) == "string" and string.format("%q", v) or tostring(v)
  end
  return fname .. "(" .. table.concat(args, ", ") .. ")"
end

--- Asserts that both libraries agree on fname(...).
local function same(fname, ...)
  local want, got = outcome(string, fname, ...), outcome(P, fname, ...)
  assert(want == got, call_text(fname, ...) .. "\n  stock:   " .. want .. "\n  bounded: " .. got)
  return want
end

--- Asserts that the bounded fname(...) is refused as too costly.
local function refused(fname, ...)
  local ok, err
  if fname == "gmatch" then
    local args = table.pack(...)
    ok, err = pcall(function()
      for _ in P.gmatch(table.unpack(args, 1, args.n)) do end
    end)
  else
    ok, err = pcall(P[fname], ...)
  end
  assert(not ok, fname .. " was not refused")
  local name, steps = tostring(err):match(COSTLY)
  assert(name == fname and steps, "unexpected message: " .. tostring(err))
  return tonumber(steps)
end

-- ---- the random sweep ----

--- A deterministic generator: r(n) is 1..n (64-bit LCG, high bits).
local function generator(seed)
  local x = seed
  return function(n)
    x = x * 6364136223846793005 + 1442695040888963407
    return (x >> 33) % n + 1
  end
end

local SUBJECT = { "a", "a", "a", "b", "b", "c", "x", " ", "1", "(", ")", "[", "]", "%", ".", "-", "\0", "A", "_" }
local LITERAL = { "a", "a", "b", "b", "c", "x", " ", "1", "A", "_", "\0", "]", "z", "\255" }
local CLASS = "acdglpsuwxACDGLPSUWXzZ"
local ESCAPED = { "%(", "%)", "%.", "%%", "%[", "%]", "%-", "%*", "%+", "%?", "%^", "%$", "% ", "%\0" }
local QUANT = { "", "", "", "*", "+", "-", "?" }
local BRACKETS = { "()", "[]", "ab", "aa", "((", ")(", "xb" }
local MALFORMED = {
  "%", "[", "[^", "[a", "[%", "[a%", "[]", "[^]", "(", ")", "%f", "%fa", "%b", "%ba", "%0", "%9", "%1", "%f[",
}
local INITS = { 0, 1, 2, 3, -1, -2, -3, 5, 9, -9, 2.0, "2", math.maxinteger, math.mininteger }

local function pick(r, list) return list[r(#list)] end

local function class(r)
  local i = r(#CLASS)
  return "%" .. CLASS:sub(i, i)
end

local function set(r)
  local t = { "[" }
  if r(3) == 1 then t[#t + 1] = "^" end
  if r(6) == 1 then t[#t + 1] = "]" end
  for _ = 1, r(3) do
    local k = r(7)
    if k <= 2 then
      local c = pick(r, LITERAL)
      t[#t + 1] = c == "]" and "a" or c
    elseif k == 3 then
      t[#t + 1] = pick(r, { "a-c", "b-a", "0-9", "(-)", "a-a", "--a", "A-Z" })
    elseif k == 4 then
      t[#t + 1] = class(r)
    elseif k == 5 then
      t[#t + 1] = pick(r, { "%]", "%-", "%%", "%[", "%^" })
    elseif k == 6 then
      t[#t + 1] = "-"
    else
      t[#t + 1] = pick(r, { ".", "(", ")", "^", "$", "[", "*" })
    end
  end
  t[#t + 1] = "]"
  return table.concat(t)
end

local function single(r)
  local k = r(10)
  if k <= 4 then return pick(r, LITERAL) end
  if k == 5 then return "." end
  if k <= 7 then return class(r) end
  if k == 8 then return pick(r, ESCAPED) end
  return set(r)
end

local function items(r, depth)
  local t = {}
  for _ = 1, r(4) do
    local k = r(22)
    if k <= 10 then
      t[#t + 1] = single(r) .. pick(r, QUANT)
    elseif k <= 12 and depth < 3 then
      t[#t + 1] = "(" .. items(r, depth + 1) .. ")"
    elseif k == 13 then
      t[#t + 1] = "()"
    elseif k == 14 then
      t[#t + 1] = "%" .. r(3)
    elseif k == 15 then
      t[#t + 1] = "%b" .. pick(r, BRACKETS)
    elseif k == 16 then
      t[#t + 1] = "%f" .. set(r)
    elseif k == 17 then
      -- specials where they are plain characters
      t[#t + 1] = pick(r, { "$", "^", "*", "+", "-", "?", "$$", "]" }) .. pick(r, QUANT)
    elseif k == 18 then
      t[#t + 1] = pick(r, MALFORMED)
    else
      t[#t + 1] = single(r)
    end
  end
  return table.concat(t)
end

local function pattern(r)
  local p = items(r, 0)
  if r(4) == 1 then p = "^" .. p end
  if r(5) == 1 then p = p .. "$" end
  return p
end

-- Mostly short, so that matches are frequent; one in ten longer, for
-- deeper backtracking.
local function subject(r)
  local t = {}
  for i = 1, r(r(10) == 1 and 80 or 13) - 1 do t[i] = pick(r, SUBJECT) end
  return table.concat(t)
end

local function init(r)
  if r(3) == 1 then return nil end
  return pick(r, INITS)
end

-- Replacement functions and tables: results of every kind, including the
-- ones gsub refuses.
local function frepl(...)
  local k = (select("#", ...) + #tostring((...))) % 6
  if k == 0 then return nil end
  if k == 1 then return false end
  if k == 2 then return "<" .. table.concat({ ... }, ",") .. ">" end
  if k == 3 then return k * 1.5 end
  if k == 4 then return "" end
  return {}
end
local TABLE = { a = "A", b = false, x = 7, ["1"] = "one", [1] = "first", [2] = 2.5, [" "] = true, ["("] = {} }
local META = setmetatable({}, {
  __index = function(_, k)
    if type(k) == "string" and #k > 1 then return k:upper() end
    return nil
  end,
})
local REPL = { "", "x", "%0", "%1", "[%1|%2]", "%%", "%", "a%", "%x", "%9", 42, 1.5, TABLE, META, frepl, frepl }
local COUNTS = { 0, 1, 2, -1, 2.0, "1" }

describe("bounded patterns", function()
  it("agree with the string library on random patterns, subjects and arguments", function()
    local r = generator(SEED)
    local bad, calls = {}, 0
    local function cmp(fname, ...)
      calls = calls + 1
      local want, got = outcome(string, fname, ...), outcome(P, fname, ...)
      if want ~= got and #bad < 10 then
        bad[#bad + 1] = call_text(fname, ...) .. "\n  stock:   " .. want .. "\n  bounded: " .. got
      end
    end
    for _ = 1, CASES do
      local s, p = subject(r), pattern(r)
      cmp("find", s, p, init(r))
      cmp("find", s, p, init(r), pick(r, { true, false, 1 }))
      cmp("match", s, p, init(r))
      cmp("gmatch", s, p, init(r))
      local repl = pick(r, REPL)
      if r(2) == 1 then
        cmp("gsub", s, p, repl)
      else
        cmp("gsub", s, p, repl, pick(r, COUNTS))
      end
    end
    assert(#bad == 0, #bad .. " of " .. calls .. " calls differ, e.g.\n" .. table.concat(bad, "\n"))
  end)

  it("agree on plain searches, with long periodic needles", function()
    local r = generator(SEED + 1)
    local bad = {}
    for _ = 1, CASES // 4 do
      local alpha = pick(r, { "ab", "aab", "abc", "a" })
      local function str(n)
        local t = {}
        for i = 1, n do
          local c = r(#alpha)
          t[i] = alpha:sub(c, c)
        end
        return table.concat(t)
      end
      local s = str(r(3) == 1 and r(3000) or r(40))
      local needle
      local k = r(5)
      if k == 1 then
        needle = str(r(8))
      elseif k == 2 then
        needle = str(r(4)):rep(r(100)) .. str(r(3) - 1)
      elseif k == 3 then
        local i = r(#s + 1)
        needle = s:sub(i, i + r(300))
      elseif k == 4 then
        needle = ("a"):rep(r(200)) .. "b"
      else
        local i = r(#s + 1)
        needle = s:sub(i, i + r(300)) .. "c" .. str(r(5))
      end
      local at = r(4) == 1 and r(#s + 3) - 1 or nil
      local want = show(string.find(s, needle, at, true))
      local got = show(P.find(s, needle, at, true))
      if want ~= got and #bad < 5 then
        bad[#bad + 1] = string.format("#s=%d #needle=%d init=%s: %s / %s", #s, #needle, at, want, got)
      end
    end
    assert(#bad == 0, table.concat(bad, "\n"))
  end)

  describe("agree on each feature:", function()
    it("character classes, escapes and '.'", function()
      local all = {}
      for c = 0, 255 do all[#all + 1] = string.char(c) end
      all = table.concat(all)
      for c in ("acdglpsuwxz"):gmatch(".") do
        same("gsub", all, "%" .. c, "")
        same("gsub", all, "%" .. c:upper(), "")
      end
      for c in ("bfeimnoqrtvy"):gmatch(".") do same("find", "x" .. c .. "y", "%" .. c .. "y") end
      same("gsub", all, ".", "")
      same("find", "a.b", "%.")
      same("find", "a%b", "%%")
      same("find", "a+b", "a%+b")
      same("find", "a\0b", "%z")
      same("find", "a\0b", "\0")
      same("find", "a\0b", "%\0")
      same("gsub", "a (b) [c] ^$", "%p", "!")
      same("gsub", "a (b) [c] ^$", "%W", "!")
    end)

    it("sets: ranges, complements, classes inside, ']' first", function()
      local all = {}
      for c = 0, 255 do all[#all + 1] = string.char(c) end
      all = table.concat(all)
      for _, s in ipairs{ "[a-f]", "[^a-f]", "[%d%s]", "[^%d%s]", "[]]", "[^]]", "[]a]", "[a-]", "[-a]",
                          "[%]]", "[%-z]", "[a%-z]", "[%a-z]", "[z-a]", "[a-a]", "[---]", "[%%]", "[^%]a]",
                          "[%w_]", "[\0-\31]", "[\128-\255]", "[.]", "[(]", "[$]", "[^^]", "[[]", "[%[]" } do
        same("gsub", all, s, "")
        same("gsub", all, s .. "+", "<%0>")
      end
    end)

    it("quantifiers * + - ?", function()
      for _, p in ipairs{ "a*", "a+", "a-", "a?", "a*b", "a+b", "a-b", "a?b", "[ab]*b", "(a-)b", "(a*)(a*)",
                          "(a-)(a-)$", ".-", ".*", "^.-$", "a?a?a?aaa", "%d+%.?%d*", "[%w_]+" } do
        for _, s in ipairs{ "", "a", "aab", "baaab", "ab ab", "3.14 and 42", "aaa", "b" } do
          same("find", s, p)
          same("match", s, p)
          same("gmatch", s, p)
          same("gsub", s, p, "<%0>")
        end
      end
    end)

    it("anchors ^ and $, and where they are plain characters", function()
      for _, p in ipairs{ "^a", "a$", "^a$", "^", "$", "^$", "a^", "$a", "a$$", "^^", "%^a", "a%$", "[$^]",
                          "$*", "^a*$" } do
        for _, s in ipairs{ "", "a", "aa", "^a", "a$", "$", "^", "ba" } do
          same("find", s, p)
          same("match", s, p, 2)
          same("gmatch", s, p)
          same("gsub", s, p, "-")
        end
      end
    end)

    it("captures, position captures and back-references", function()
      same("match", "key = value", "(%w+)%s*=%s*(%w+)")
      same("find", "key = value", "(%w+)%s*=%s*(%w+)")
      same("match", "hello", "()ll()")
      same("find", "hello", "()ll()")
      same("match", "hello", "(h(e)(l(l)))(o)")
      same("match", "abcabc", "(abc)%1")
      same("match", "abab", "(a)(b)%1%2")
      same("match", "x = 'str' y", "(['\"])(.-)%1")
      same("match", "aaa", "()a%1") -- a position capture never matches as text
      same("match", "aa", "(a)%2")
      same("match", "aa", "(a%1)")
      same("match", "aa", "%0")
      same("match", "aa", "(a")
      same("match", "aa", "a)")
      same("find", "aa", "a)")
      same("match", "a", ("()"):rep(32))
      same("match", "a", ("()"):rep(33))
      same("match", "aaa", ("(a?)"):rep(32))
      same("gsub", "aaa", "(a", "x")
      same("gsub", "aaa", "(a", "%1")
      same("gsub", "aaa", "(a", frepl)
      same("gsub", "aaa", "(a", TABLE)
    end)

    it("%b and %f", function()
      same("match", "f(a(b)c) d", "%b()")
      same("gsub", "[[x]] [y] [", "%b[]", "B")
      same("gsub", "aaa", "%baa", "B")
      same("find", "(((", "%b()")
      same("find", "x", "%b")
      same("find", "x", "%bx")
      same("find", "", "%bxy")
      same("gsub", "THE (quick) fox", "%f[%a]%a+", "W")
      same("gsub", "THE (quick) fox", "%f[%A]", "|")
      same("gsub", "abc", "%f[%z]", "|")
      same("gsub", "abc", "%f[%Z]", "|")
      same("gsub", "a\0b", "%f[\0]", "|")
      same("find", "abc", "%f")
      same("find", "abc", "%fa")
      same("find", "abc", "%f[a")
    end)

    it("malformed patterns, reached or not", function()
      for _, p in ipairs{ "%", "a%", "[a", "[", "[^", "[]", "[^]", "[%", "(a", "a)", "%1", "(()", "%f", "%fx",
                          "%b", "%bx", "x[", "x%", "x(", "((((((((((((((((((((((((((((((((((" } do
        for _, s in ipairs{ "", "a", "x", "xa" } do
          same("find", s, p)
          same("match", s, p)
          same("gmatch", s, p)
          same("gsub", s, p, "")
        end
      end
    end)

    it("nesting deeper than Lua allows is 'pattern too complex'", function()
      local a300 = ("a"):rep(300)
      for _, n in ipairs{ 198, 199, 200, 201, 1000 } do
        same("find", a300, ("a?"):rep(n))
        same("find", a300, ("a*"):rep(n))
        same("find", a300, ("a-"):rep(n) .. "$")
        same("find", a300, ("(a)"):rep(n // 10))
        same("find", ("b"):rep(n), ("a?"):rep(n))
      end
      same("find", ("a"):rep(1e4), ("a?"):rep(1e4))
    end)

    it("the start position", function()
      for _, s in ipairs{ "", "abc", "aXbXc" } do
        for _, i in ipairs{ 0, 1, 2, 3, 4, 5, 6, -1, -3, -4, -100, 2.0, "3", math.maxinteger, math.mininteger } do
          for _, p in ipairs{ "", "X", "^X", "a", ".", "()", "$" } do
            same("find", s, p, i)
            same("find", s, p, i, true)
            same("match", s, p, i)
            same("gmatch", s, p, i)
          end
        end
      end
    end)

    it("find with plain = true and without specials", function()
      for _, p in ipairs{ "", "b", "a.b", "a.", "%", "[", "(", "a)", "]", "a+b", "ab]", "\0" } do
        for _, s in ipairs{ "", "ab", "a.b", "a+b", "x%y", "([", "a)", "ab]", "\0" } do
          same("find", s, p)
          same("find", s, p, 1, true)
          same("find", s, p, 2, "yes")
          same("find", s, p, 1, false)
          same("find", s, p, 1, nil)
        end
      end
    end)

    it("gmatch: empty matches, no anchor, captures, its own start", function()
      same("gmatch", "abc", "")
      same("gmatch", "abc", "b*")
      same("gmatch", "abc", "()")
      same("gmatch", "hello world from Lua", "%a+")
      same("gmatch", "k1=v1, k2=v2", "(%w+)=(%w+)")
      same("gmatch", "^a^a", "^a")
      same("gmatch", "aaa", "a-")
      same("gmatch", "abc", ".", 2)
      same("gmatch", "abc", ".", -1)
      same("gmatch", "abc", "", 10)
      same("gmatch", "abc", "(", 1)
      -- the iterator may be called from another coroutine
      local it_s, it_p = string.gmatch("one two three", "%a+"), P.gmatch("one two three", "%a+")
      assert.equals(it_s(), it_p())
      local co = coroutine.wrap(function() return it_s(), it_p() end)
      local a, b = co()
      assert.equals(a, b)
      assert.equals(it_s(), it_p())
      assert.is_nil(it_p())
      assert.is_nil(it_p())
    end)

    it("gsub: string, table and function replacements, and n", function()
      for _, repl in ipairs{ "%0", "%1", "%2", "<%1>", "%%", "%", "50%", "%a", "%10", 12, 0.5, TABLE, META, frepl } do
        for _, p in ipairs{ "%w", "(%w)(%w)", "()", "(a)()", "", "x*" } do
          same("gsub", "abc xy", p, repl)
          for _, n in ipairs{ 0, 1, 2, -1, 1.0, "2", 1.5, "x" } do same("gsub", "abc xy", p, repl, n) end
        end
      end
      same("gsub", "hello world", "(o)", { o = "0" })
      same("gsub", "$name is $age", "%$(%w+)", { name = "Ann", age = 7 })
      same("gsub", "abc", "%w", function(c) return c:byte() end)
      same("gsub", "abc", "%w", function() return true end)
      same("gsub", "abc", "%w", function() end)
      same("gsub", "abc", "", "-")
      same("gsub", "abc", "^", "-")
      same("gsub", "abc", "$", "-")
      same("gsub", "abc", "^x", "-")
      same("gsub", "abc", "^a", "-")
      same("gsub", "", "", "x")
      -- the replacement may use the patterns itself
      local function inner(lib)
        return function(w) return (lib.gsub(w, "[aeiou]", function(v) return lib.match(v, "%a"):upper() end)) end
      end
      assert.same({ string.gsub("some words here", "%a+", inner(string)) },
                  { P.gsub("some words here", "%a+", inner(P)) })
      -- the table is read with metamethods, the function called in order
      local seen = {}
      local logged = setmetatable({}, { __index = function(_, k) seen[#seen + 1] = k end })
      P.gsub("a1b2", "%d", logged)
      assert.same({ "1", "2" }, seen)
    end)

    it("numbers as subjects, patterns and replacements; argument errors", function()
      same("find", 12345, 34)
      same("find", 123.5, ".", 4)
      same("match", 2 ^ 53, "%d+")
      same("gsub", 1001, 0, 1)
      same("gmatch", 12321, 2)
      for _, f in ipairs{ "find", "match", "gmatch", "gsub" } do
        same(f)
        same(f, nil, "a")
        same(f, "a")
        same(f, "a", {})
        same(f, {}, "a")
        same(f, "a", "a", "x")
        same(f, "a", "a", 1.5)
        same(f, "a", "a", {})
      end
      same("gsub", "a", "a")
      same("gsub", "a", "a", true)
      same("gsub", "a", "a", nil, 1)
      same("gsub", "a", "a", "b", "many")
    end)
  end)

  describe("refuse costly calls", function()
    it("lazy, greedy and nested repetitions", function()
      refused("find", ("a"):rep(1e5), ".-b")
      refused("match", ("a"):rep(1e5), ".-.-b")
      refused("find", ("a"):rep(1e5), "(a-)(a-)b")
      refused("find", ("a"):rep(60), ("a*"):rep(12) .. "b")
      refused("match", ("a"):rep(30), ("a?"):rep(30) .. ("a"):rep(30))
    end)

    it("back-references", function()
      refused("find", ("a"):rep(5e4), "(a+)%1b")
      refused("find", ("a"):rep(5e4), "(a-)%1b")
    end)

    it("%b and big sets", function()
      refused("find", ("("):rep(1e5), "%b()")
      refused("gsub", ("("):rep(1e5), "%b()", "")
      refused("find", ("a"):rep(1e5), "[" .. ("b"):rep(1e5) .. "]")
      refused("find", ("a"):rep(1e5), "%f[" .. ("b"):rep(1e5) .. "]")
    end)

    it("gsub and gmatch over big subjects", function()
      refused("gsub", ("a"):rep(1e5), ".-b", "")
      refused("gsub", ("x"):rep(1e7), "x", "y")
      refused("gsub", ("x"):rep(4e6), "x", function() end)
      refused("gmatch", ("a"):rep(1e5), ".-b")
    end)

    it("a long plain search is linear, not refused", function()
      local s = ("a"):rep(1e6)
      assert.is_nil(P.find(s, ("a"):rep(5e5) .. "b", 1, true))
      assert.is_nil(P.find(s, ("a"):rep(5e5) .. "b"))
      assert.same({ 1, 500000 }, { P.find(s, ("a"):rep(5e5), 1, true) })
      assert.same({ 500001, 1000000 }, { P.find(s, ("a"):rep(5e5), -5e5, true) })
    end)

    it("one call at a time: the budget is per call, and can be set", function()
      local default = P.set_steps(1000)
      finally(function() P.set_steps(default) end)
      assert.is_true(math.type(default) == "integer" and default > 1000)
      assert.equals(1000, refused("find", ("a"):rep(2000), "[b]"))
      for _ = 1, 100 do assert.is_nil(P.find(("a"):rep(100), "[b]")) end
      local it = P.gmatch(("a"):rep(3000), "a")
      for _ = 1, 3000 do assert.equals("a", it()) end
      assert.equals(1000, P.set_steps(default))
      assert.is_nil(P.find(("a"):rep(2000), "[b]"))
    end)
  end)

  it("allow heavy but legitimate calls, with the stock results", function()
    local x = ("x"):rep(1e6)
    local got, n = P.gsub(x, "x", "y")
    assert.equals(1e6, n)
    assert.is_true(got == ("y"):rep(1e6))
    local padded = "  \t" .. ("word "):rep(2000) .. " \n"
    assert.equals(string.match(padded, "^%s*(.-)%s*$"), P.match(padded, "^%s*(.-)%s*$"))
    local hay = ("abcdefghij"):rep(1e5) .. "needle" .. ("z"):rep(100)
    assert.same({ string.find(hay, "needle", 1, true) }, { P.find(hay, "needle", 1, true) })
    assert.same({ string.find(hay, "needle") }, { P.find(hay, "needle") })
    local text = ("the quick brown fox jumps over the lazy dog "):rep(5000)
    local words = 0
    for _ in P.gmatch(text, "%a+") do words = words + 1 end
    assert.equals(45000, words)
    assert.same({ string.gsub(text, "(%w+) (%w+)", "%2 %1") }, { P.gsub(text, "(%w+) (%w+)", "%2 %1") })
    assert.same({ string.gsub(text, "%w+", { fox = "cat" }) }, { P.gsub(text, "%w+", { fox = "cat" }) })
  end)
end)
