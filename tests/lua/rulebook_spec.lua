-- The rules reference (lua/table/rulebook.lua, docs/rules-reference.md):
-- an entry for every rule id the code can cite and for every id of
-- RULES.md; every example does what it says; the page is what
-- tools/rules_ref_doc.lua writes; `rules D19` at the table and on the
-- command line; every document that cites ids links the reference.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local root = here .. "../../"
local support = dofile(here .. "support.lua")
local diloti = require "diloti"
local rulebook = require "diloti.table.rulebook"
local repl = require "diloti.table.repl"

-- ---------------------------------------------------------------------
-- The ids the code can cite: those inside its string literals (messages,
-- rule fields, lessons' lists), not its comments.

local function files(pattern)
  local p = assert(io.popen("cd " .. support.q(root) .. " && ls -1 " .. pattern .. " 2>/dev/null"))
  local out = {}
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

-- The string literals of a Lua source, in order.
local function lua_strings(src)
  local out, i, n = {}, 1, #src
  while i <= n do
    local c = src:sub(i, i)
    if src:sub(i, i + 1) == "--" then
      local eq = src:match("^%[(=*)%[", i + 2)
      if eq then
        local _, e = src:find("]" .. eq .. "]", i, true)
        i = (e or n) + 1
      else
        i = (src:find("\n", i, true) or n) + 1
      end
    elseif c == "[" and src:match("^%[=*%[", i) then
      local eq = src:match("^%[(=*)%[", i)
      local s = i + #eq + 2
      local _, e = src:find("]" .. eq .. "]", s, true)
      out[#out + 1] = src:sub(s, (e or n + #eq + 2) - #eq - 2)
      i = (e or n) + 1
    elseif c == '"' or c == "'" then
      local j, buf = i + 1, {}
      while j <= n and src:sub(j, j) ~= c do
        if src:sub(j, j) == "\\" then j = j + 1 end
        buf[#buf + 1] = src:sub(j, j)
        j = j + 1
      end
      out[#out + 1] = table.concat(buf)
      i = j + 1
    else
      i = i + 1
    end
  end
  return out
end

-- The string literals of a C source (comments and character constants
-- skipped).
local function c_strings(src)
  local out, i, n = {}, 1, #src
  while i <= n do
    local two = src:sub(i, i + 1)
    local c = src:sub(i, i)
    if two == "/*" then
      local _, e = src:find("*/", i + 2, true)
      i = (e or n) + 1
    elseif two == "//" then
      i = (src:find("\n", i, true) or n) + 1
    elseif c == '"' or c == "'" then
      local j, buf = i + 1, {}
      while j <= n and src:sub(j, j) ~= c do
        if src:sub(j, j) == "\\" then j = j + 1 end
        buf[#buf + 1] = src:sub(j, j)
        j = j + 1
      end
      if c == '"' then out[#out + 1] = table.concat(buf) end
      i = j + 1
    else
      i = i + 1
    end
  end
  return out
end

-- The rule ids in a text: D11, K2, C3, V-soy (and V-target=N).
local function ids_in(text, into, where)
  for id in text:gmatch("%f[%w%-]([DKC]%d+)%f[^%w]") do into[id] = into[id] or where end
  for id in text:gmatch("%f[%w%-](V%-[%w%-]*%w=?N?)") do into[id] = into[id] or where end
  return into
end

--- {id = file} for every id cited in a string of src/*.c, lua/ and
-- rules-variants/.
local function cited_ids()
  local ids = {}
  for _, f in ipairs(files("src/*.c")) do
    for _, s in ipairs(c_strings(support.read(root .. f))) do ids_in(s, ids, f) end
  end
  for _, f in ipairs(files("lua/*.lua lua/*/*.lua lua/*/*/*.lua rules-variants/*.lua")) do
    for _, s in ipairs(lua_strings(support.read(root .. f))) do ids_in(s, ids, f) end
  end
  return ids
end

--- The ids of `ids` (a {id = where} table or a list) that `find` does not
-- know, sorted.
local function missing(ids, find)
  local out = {}
  for k, v in pairs(ids) do
    local id = type(k) == "number" and v or k
    if not find(id) then out[#out + 1] = id end
  end
  table.sort(out)
  return out
end

-- The ids of RULES.md (read from ../shared/spec when it is there; the
-- list as of this writing otherwise, as tests/lua/learn_spec.lua does).
local function spec_ids()
  for _, p in ipairs { root .. "../shared/spec/RULES.md", "../shared/spec/RULES.md" } do
    local f = io.open(p, "r")
    if f then
      local ids = {}
      for line in f:read("a"):gmatch("[^\n]+") do
        local id = line:match("^%- ([DKC]%d+)%.") or line:match("^%- (V%-[%w%-=]+)")
        if id then ids[#ids + 1] = id end
      end
      f:close()
      if #ids > 0 then return ids end
    end
  end
  local ids = {}
  for i = 1, 24 do ids[#ids + 1] = "D" .. i end
  for i = 1, 8 do ids[#ids + 1] = "K" .. i end
  for i = 1, 9 do ids[#ids + 1] = "C" .. i end
  for _, v in ipairs { "redeal-any-triple", "three-face-cards", "face-card-claim", "dealer-peeks", "forced-capture",
    "liberal-group", "liberal-raise", "liberal-capture", "soy", "no-xeri-last-card", "xeri-first-card",
    "target=N", "seed001" } do
    ids[#ids + 1] = "V-" .. v
  end
  return ids
end

describe("the rules reference", function()
  it("finds the ids the code cites in its strings, not in its comments", function()
    assert.same({ "D10: a J", "K2", "[[x]]" },
      lua_strings('-- D99 in a comment\nlocal a = "D10: a J" .. \'K2\' --[[ C77 ]]\nlocal b = [=[[[x]]]=]'))
    assert.same({ "D11: %s", "V-soy" }, c_strings('/* D98 */ f("D11: %s", \'"\'); // C66\ng("V-soy");'))
    assert.same({ D11 = 1, K2 = 1, C3 = 1, ["V-soy"] = 1, ["V-target=N"] = 1 },
      ids_in("D11: x (C3), K2 V-soy; V-target=N; P4@1 G8 D11x xD11", {}, 1))
    local ids = cited_ids()
    for _, id in ipairs { "D10", "D19", "K2", "C1", "C9", "V-forced-capture", "V-soy", "V-target" } do
      assert.is_string(ids[id], id)
    end
  end)

  it("has an entry for every id the code can cite", function()
    assert.same({}, missing(cited_ids(), rulebook.find))
  end)

  it("has an entry for every id of RULES.md, and none besides", function()
    local ids = spec_ids()
    assert.is_true(#ids >= 54, #ids)
    assert.same({}, missing(ids, rulebook.find))
    local known = {}
    for _, id in ipairs(ids) do known[rulebook.find(id).id] = true end
    local extra = {}
    for _, e in ipairs(rulebook.entries) do
      if not known[e.id] then extra[#extra + 1] = e.id end
    end
    assert.same({}, extra)
  end)

  it("fails when an entry is missing", function()
    -- The same checks with D19 and V-soy taken out of the book.
    local function find_but(gone)
      return function(id)
        local e = rulebook.find(id)
        if e and gone[e.id] then return nil end
        return e
      end
    end
    local without = find_but { D19 = true, ["V-soy"] = true }
    assert.same({ "D19", "V-soy" }, missing(cited_ids(), without))
    assert.same({ "D19", "V-soy" }, missing(spec_ids(), without))
  end)

  it("gives every entry a statement, an example and a unique anchor", function()
    local anchors = {}
    for _, e in ipairs(rulebook.entries) do
      assert.is_true(#e.title > 3 and #e.text > 40, e.id)
      assert.is_table(e.example, e.id)
      assert.is_true(#rulebook.example_lines(e) > 0, e.id)
      assert.equals(e.id:lower(), rulebook.anchor(e))
      assert.is_nil(anchors[rulebook.anchor(e)], e.id)
      anchors[rulebook.anchor(e)] = true
    end
  end)

  it("has examples that do what they say", function()
    local checked = 0
    for _, e in ipairs(rulebook.entries) do
      local ex = e.example
      if not ex.text then
        local g, err = diloti.new { rules = ex.rules or "diloti", position = ex.position, seed = 1 }
        assert(g, e.id .. ": " .. tostring(err))
        for _, s in ipairs(ex.steps or {}) do
          local m = s[1]
          if s.refused then
            local ok, why = g:check(m)
            assert(not ok, e.id .. ": '" .. m .. "' should be refused")
            assert(why:sub(1, #s.refused + 1) == s.refused .. ":" or why:find("(" .. s.refused .. ")", 1, true),
              e.id .. ": '" .. m .. "' is refused with " .. why)
          elseif s.legal then
            assert(g:check(m), e.id .. ": '" .. m .. "' should be legal")
          else
            local ok, why = g:play(m)
            assert(ok, e.id .. ": '" .. m .. "' is refused: " .. tostring(why))
          end
          checked = checked + 1
        end
        local f = support.fields(g:position(true))
        for k, v in pairs(ex.expect or {}) do assert.equals(v, f[k], e.id .. ": " .. k) end
      end
    end
    assert.is_true(checked >= 60, checked)
  end)

  it("finds ids in any case, with aliases, and names the nearest to an unknown one", function()
    assert.equals("D19", rulebook.find("d19").id)
    assert.equals("V-soy", rulebook.find("V-SOY").id)
    assert.equals("V-target", rulebook.find("V-target=N").id)
    assert.is_nil(rulebook.find("D25"))
    assert.same({ "D24", "D23", "D22" }, rulebook.nearest("D29"))
    assert.same({ "K8", "K7", "K6" }, rulebook.nearest("k12"))
    assert.equals("V-soy", rulebook.nearest("V-sooy")[1])
    assert.is_true(rulebook.is_id("d19") and rulebook.is_id("V-soy") and rulebook.is_id("c3"))
    assert.is_false(rulebook.is_id("soy") or rulebook.is_id("diloti") or rulebook.is_id("kontsina"))
  end)
end)

describe("docs/rules-reference.md", function()
  it("is what tools/rules_ref_doc.lua writes", function()
    local p = assert(io.popen("cd " .. support.q(root) .. " && " .. support.q(support.bin)
      .. " run tools/rules_ref_doc.lua 2>&1"))
    local generated = p:read("a")
    p:close()
    assert(generated == support.read(root .. "docs/rules-reference.md"),
      "docs/rules-reference.md is stale: run 'make docs'")
  end)

  it("has an anchor for every entry", function()
    local text = support.read(root .. "docs/rules-reference.md")
    for _, e in ipairs(rulebook.entries) do
      assert.truthy(text:find('<a id="' .. rulebook.anchor(e) .. '"></a>', 1, true), e.id)
    end
  end)

  it("is linked from every document that cites rule ids", function()
    local docs = files("README.md docs/*.md docs/diloti.6")
    assert.is_true(#docs >= 8)
    for _, f in ipairs(docs) do
      if f ~= "docs/rules-reference.md" then
        local text = support.read(root .. f)
        -- (C0 and C1 are also the names of two sets of control characters)
        if next(ids_in(text:gsub("C[01] control", ""), {}, f)) then
          assert.truthy(text:find("rules-reference.md", 1, true),
            f .. " cites rule ids but does not link the reference")
        end
      end
    end
  end)
end)

-- ---------------------------------------------------------------------
-- At the table and on the command line

local function session()
  local s = assert(repl.new {
    write = function() end, read = function() return nil end,
    getenv = function(k) return ({ NO_COLOR = "1", TERM = "xterm", COLUMNS = "60" })[k] end,
    clock = function() return 1000 end,
    game = { seed = 3, ai = "random", position = "hands=8h 2d 7c / 9c 3s; table=8c 6d 5s 3h 2c Jd" },
  })
  return s
end

local function say(s, line)
  local out = {}
  s.write = function(t) out[#out + 1] = t end
  s:handle(line)
  return table.concat(out)
end

describe("rules ID at the table", function()
  it("prints the entry, wrapped to the terminal", function()
    local s = session()
    local out = say(s, "rules D19")
    assert.matches("^D19%. The declarer's obligation\n", out)
    assert.matches("Example:", out)
    assert.matches("2c lay +refused %(D19%)", out)
    assert.matches("rules%-reference%.md#d19", out)
    for l in out:gmatch("[^\n]+") do assert.is_true(#l <= 60, l) end
    assert.equals(out, say(s, "rules d19"))
    assert.matches("^V%-soy%. Soy", say(s, "rules v-soy"))
    assert.matches("^V%-target%.", say(s, "rules V-target=N"))
    assert.matches("^K2%. Kontsina", say(s, "rules K2"))
  end)

  it("names the nearest ids for an unknown one", function()
    local s = session()
    assert.matches("No rule 'D29'%. Nearest: D24, D23, D22", say(s, "rules D29"))
    assert.matches("No rule 'V%-so'%. Nearest: V%-soy", say(s, "rules V-so"))
  end)

  it("keeps listing and explaining the variants", function()
    local s = session()
    local list = say(s, "rules")
    assert.matches("forced%-capture", list)
    assert.matches("rules D19", list)
    local soy = say(s, "rules soy")
    assert.matches("soy %(V%-soy%)", soy)
    assert.matches("'rules V%-soy'", soy)
    assert.matches("No variant 'nonsense'", say(s, "rules nonsense"))
    local help = say(s, "help"):gsub("%s+", " ")
    assert.matches("rules [VARIANT|ID|reload]", help, 1, true)
    assert.matches("'rules D10' explains it; all of them: docs/rules%-reference%.md", help)
  end)

  it("tells how to read the rule the first time a refusal cites one", function()
    local s = session()
    local out = say(s, "Jd lay")
    assert.matches("Refused: D9: ", out)
    assert.matches("'rules D9' explains the rule", out)
    assert.not_matches("explains the rule", say(s, "7c x 8c"))
  end)
end)

describe("diloti rules ID", function()
  it("prints the entry, or the nearest ids with exit status 1", function()
    local out, err, code = support.cli({ "rules", "d11" }, { COLUMNS = "50" })
    assert.equals(0, code, err)
    assert.matches("^D11%. Capturing with a numeral card\n", out)
    for l in out:gmatch("[^\n]+") do assert.is_true(#l <= 50, l) end
    out, err, code = support.cli { "rules", "K9" }
    assert.equals(1, code)
    assert.equals("", out)
    assert.matches("No rule 'K9'%. Nearest: K8, K7, K6", err)
    local _
    out, _, code = support.cli { "rules", "soy" }
    assert.equals(0, code)
    assert.matches("^soy  %(V%-soy%)", out)
  end)
end)
