-- The rules reference (lua/table/rulebook.lua, docs/rules-reference.md):
-- an entry for every rule id the code can cite and for every id of
-- RULES.md and PILOTTA.md; every example does what it says; the page is what
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

-- The rule ids in a text: D11, K2, C3, V-soy (and V-target=N), P24, PC3,
-- PV-must-head (and PV-target=N). Not PE… (PILOTTA.md's worked examples,
-- not rules) nor Diloti's declarations (P5@1).
local function ids_in(text, into, where)
  for id in text:gmatch("%f[%w%-]([DKC]%d+)%f[^%w]") do into[id] = into[id] or where end
  for id in text:gmatch("%f[%w%-](P[C]?%d+)%f[^%w@]") do into[id] = into[id] or where end
  for id in text:gmatch("%f[%w%-](P?V%-[%w%-]*%w=?N?)") do into[id] = into[id] or where end
  return into
end

--- {id = file} for every id cited in a string of src/*.c, src/diloti/*.c, src/pilotta/*.c,
-- lua/ and rules-variants/.
local function cited_ids()
  local ids = {}
  for _, f in ipairs(files("src/*.c src/diloti/*.c src/pilotta/*.c")) do
    for _, s in ipairs(c_strings(support.read(root .. f))) do ids_in(s, ids, f) end
  end
  for _, f in ipairs(files("lua/*.lua lua/*/*.lua lua/*/*/*.lua lua/*/*/*/*.lua rules-variants/*/*.lua")) do
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

-- The ids of RULES.md and PILOTTA.md (read from ../shared/spec when they
-- are there; the lists as of this writing otherwise, as
-- tests/lua/learn_spec.lua does).
local function spec_file_ids(name)
  for _, p in ipairs { root .. "../shared/spec/" .. name, "../shared/spec/" .. name } do
    local f = io.open(p, "r")
    if f then
      local ids = {}
      for line in f:read("a"):gmatch("[^\n]+") do
        local id = line:match("^%- ([DKC]%d+)%.") or line:match("^%- (V%-[%w%-=]+)")
          or line:match("^%- (PC?%d+)%.") or line:match("^%- (PV%-[%w%-=]+):")
        if id then ids[#ids + 1] = id end
      end
      f:close()
      if #ids > 0 then return ids end
    end
  end
end

local PILOTTA_VARIANTS = { "deal-left", "suit-after-auction", "pass-final", "high-bids", "contra-after-auction",
  "declarer-leads", "partner-exempt", "must-head", "decl-overlap", "decl-100-tie", "no-contract-bonus",
  "fail-keeps-declarations", "belote-transfers", "double-all", "swept-keeps-declarations", "round-7", "round-5",
  "raw-points", "target=N" }

local function pilotta_spec_ids()
  local ids = spec_file_ids("PILOTTA.md")
  if ids then return ids end
  ids = {}
  for i = 1, 51 do ids[#ids + 1] = "P" .. i end
  for i = 1, 10 do ids[#ids + 1] = "PC" .. i end
  for _, v in ipairs(PILOTTA_VARIANTS) do ids[#ids + 1] = "PV-" .. v end
  return ids
end

local function spec_ids()
  local ids = spec_file_ids("RULES.md")
  if ids then
    for _, id in ipairs(pilotta_spec_ids()) do ids[#ids + 1] = id end
    return ids
  end
  ids = pilotta_spec_ids()
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
    assert.same({ P24 = 1, PC3 = 1, ["PV-must-head"] = 1, ["PV-target=N"] = 1 },
      ids_in("P24: x (PC3), PV-must-head; PV-target=N; PE18 P5@1 P24x", {}, 1))
    local ids = cited_ids()
    for _, id in ipairs { "D10", "D19", "K2", "C1", "C9", "V-forced-capture", "V-soy", "V-target",
      "P24", "P27", "P51", "PV-partner-exempt", "PV-target", "PV-pass-final" } do
      assert.is_string(ids[id], id)
    end
  end)

  it("has an entry for every id the code can cite", function()
    assert.same({}, missing(cited_ids(), rulebook.find))
  end)

  it("has an entry for every id of RULES.md and PILOTTA.md, and none besides", function()
    local ids = spec_ids()
    assert.is_true(#ids >= 54 + 80, #ids)
    assert.is_true(#pilotta_spec_ids() >= 80, #pilotta_spec_ids())
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
    -- and Pilotta's: one rule, one house rule, one clarification
    without = find_but { P24 = true, ["PV-partner-exempt"] = true, PC3 = true }
    assert.same({ "P24", "PC3", "PV-partner-exempt" }, missing(cited_ids(), without))
    assert.same({ "P24", "PC3", "PV-partner-exempt" }, missing(spec_ids(), without))
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

  -- Does a refusal cite `id`: "ID: ..." (after "not a move: " or
  -- "parse: " when the text did not read as a move) or "(ID)"?
  local function cites(why, id)
    local bare = why:gsub("^not a move: ", ""):gsub("^parse: ", "")
    return bare:sub(1, #id + 1) == id .. ":" or why:find("(" .. id .. ")", 1, true) ~= nil
  end

  it("has examples that do what they say", function()
    local checked, pilotta = 0, 0
    for _, e in ipairs(rulebook.entries) do
      local ex = e.example
      local game = rulebook.game_of(e)
      if ex.invalid then
        local g, err = diloti.new { game = game, rules = ex.rules, position = ex.position, seed = 1 }
        assert(not g, e.id .. ": the position should be refused")
        assert(err:find("%f[%w]" .. ex.invalid .. "%f[^%w]"), e.id .. ": refused with " .. err)
        checked = checked + 1
      elseif not ex.text then
        local g, err = diloti.new { game = game, rules = ex.rules or game, position = ex.position, seed = 1 }
        assert(g, e.id .. ": " .. tostring(err))
        if game == "pilotta" then pilotta = pilotta + 1 end
        for _, s in ipairs(ex.steps or {}) do
          local m = s[1]
          if s.refused then
            local ok, why = g:check(m)
            assert(not ok, e.id .. ": '" .. m .. "' should be refused")
            assert(cites(why, s.refused), e.id .. ": '" .. m .. "' is refused with " .. why)
          elseif s.legal then
            assert(g:check(m), e.id .. ": '" .. m .. "' should be legal")
          else
            local ok, why = g:play(m)
            assert(ok, e.id .. ": '" .. m .. "' is refused: " .. tostring(why))
          end
          checked = checked + 1
        end
        local f = support.fields(g:position(game == "diloti"))
        if game == "pilotta" then
          f.turn, f.phase, f.winning = tostring(g:turn()), g:phase(), tostring(g:state().winning)
        end
        for k, v in pairs(ex.expect or {}) do assert.equals(v, f[k], e.id .. ": " .. k) end
      end
    end
    assert.is_true(checked >= 60 + 80, checked)
    -- every legality rule (P21-P29), every auction rule (P12-P20) has a checked example
    assert.is_true(pilotta >= 40, pilotta)
    for i = 12, 29 do assert.is_nil(rulebook.find("P" .. i).example.text, "P" .. i) end
  end)

  it("has examples that fail when they are wrong", function()
    -- the checker itself: a refusal with another id, a legal move said refused
    local g = assert(diloti.new { game = "pilotta", position = "dealer=3; calls=80h, pass, pass, pass; "
      .. "hands=?7 / ?7 / 8h Ah Kd 7c 8c 9c 8d 9d / ?8; tricks=As 7s", seed = 1 })
    local _, why = g:check("Kd")
    assert.is_true(cites(why, "P27"))
    assert.is_false(cites(why, "P25"))
    assert.is_true(cites("not a move: P14: bids go in tens", "P14"))
    assert.is_truthy(g:check("8h"))
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
    -- Pilotta's
    assert.equals("P24", rulebook.find("p24").id)
    assert.equals("PC3", rulebook.find("pc3").id)
    assert.equals("PV-partner-exempt", rulebook.find("PV-PARTNER-EXEMPT").id)
    assert.equals("PV-target", rulebook.find("PV-target=N").id)
    assert.is_nil(rulebook.find("P52"))
    assert.same({ "P51", "P50", "P49" }, rulebook.nearest("P60"))
    assert.same({ "PC10", "PC9", "PC8" }, rulebook.nearest("pc14"))
    assert.equals("PV-partner-exempt", rulebook.nearest("PV-partner-exmpt")[1])
    assert.equals("P", rulebook.family(rulebook.nearest("PE18")[1]))
    assert.is_true(rulebook.is_id("p24") and rulebook.is_id("PV-deal-left") and rulebook.is_id("pc3")
      and rulebook.is_id("PE18"))
    assert.is_false(rulebook.is_id("pilotta") or rulebook.is_id("partner-exempt") or rulebook.is_id("pass"))
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

  it("is linked from the Pilotta sections of the README, the notation and the table's guide", function()
    -- (a section runs from its heading to the next of the same level)
    local function section(f, heading, level)
      local text = support.read(root .. f)
      local s = assert(text:find("\n" .. heading, 1, true), f .. ": " .. heading)
      local e = text:find("\n" .. level .. " ", s + #heading + 1, true) or #text
      return text:sub(s, e)
    end
    for _, where in ipairs { { "README.md", "### Pilotta", "###" }, { "docs/notation.md", "## 9. Pilotta", "##" },
      { "docs/table.md", "## Pilotta at the table", "##" } } do
      local text = section(where[1], where[2], where[3])
      assert.truthy(text:find("rules-reference.md#p", 1, true), where[1] .. " does not link Pilotta's rules")
      assert.is_nil(text:find("does not cover", 1, true), where[1])
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

describe("rules ID at a Pilotta table", function()
  local function pilotta_session()
    local s = assert(repl.new {
      write = function() end, read = function() return nil end,
      getenv = function(k) return ({ NO_COLOR = "1", TERM = "xterm", COLUMNS = "60" })[k] end,
      clock = function() return 1000 end,
      game = { game = "pilotta", seed = 5 },
    })
    s:advance()
    return s
  end

  it("prints Pilotta's entries, in any case, and the nearest to an unknown id", function()
    local s = pilotta_session()
    local out = say(s, "rules P24")
    assert.matches("^P24%. Over a trump lead, go higher\n", out)
    assert.matches("Example:", out)
    assert.matches("Qs +refused %(P24%)", out)
    assert.matches("rules%-reference%.md#p24", out)
    for l in out:gmatch("[^\n]+") do assert.is_true(#l <= 60, l) end
    assert.equals(out, say(s, "rules p24"))
    assert.matches("^PV%-partner%-exempt%. ", say(s, "rules pv-partner-exempt"))
    assert.matches("new game=pilotta rules=pilotta%+partner%-exempt",
      (say(s, "rules PV-partner-exempt"):gsub("%s+", " ")))
    assert.matches("^PC3%. ", say(s, "rules pc3"))
    assert.matches("No rule 'P77'%. Nearest: P51, P50, P49", say(s, "rules P77"))
    -- and the Diloti ids stay readable from here
    assert.matches("^D19%. ", say(s, "rules D19"))
  end)

  it("says in the help and after a refusal that 'rules P24' explains a rule", function()
    local s = pilotta_session()
    local help = say(s, "help"):gsub("%s+", " ")
    assert.matches("'rules P24' explains", help, 1, true)
    assert.matches("rules%-reference%.md", help)
    local rules = say(s, "rules"):gsub("%s+", " ")
    assert.not_matches("does not cover", rules)
    assert.matches("'rules P24'", rules, 1, true)
    local out = say(s, "contra")
    assert.matches("Refused: P16: ", out)
    assert.matches("'rules P16' explains the rule", out)
  end)
end)

describe("diloti rules ID", function()
  it("prints a Pilotta entry, or the nearest ids", function()
    local out, err, code = support.cli({ "rules", "p24" }, { COLUMNS = "50" })
    assert.equals(0, code, err)
    assert.matches("^P24%. Over a trump lead", out)
    for l in out:gmatch("[^\n]+") do assert.is_true(#l <= 50, l) end
    out, err, code = support.cli { "rules", "PV-partner-exempt" }
    assert.equals(0, code, err)
    assert.matches("^PV%-partner%-exempt%.", out)
    out, err, code = support.cli { "rules", "PC12" }
    assert.equals(1, code)
    assert.equals("", out)
    assert.matches("No rule 'PC12'%. Nearest: PC10, PC9, PC8", err)
  end)

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
