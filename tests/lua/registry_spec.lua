-- The registry of games (lua/registry.lua, issue 26): a package per game
-- under lua/games/NAME/, a plain descriptor whose parts are required only
-- when asked, and extra packages read from a folder (add_dir,
-- DILOTI_GAMES_PATH).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"
local diloti = require "diloti"
local registry = require "diloti.registry"

describe("the registry", function()
  it("lists the packages, the default first then by name", function()
    local names = {}
    for i, p in ipairs(registry.list()) do names[i] = p.name end
    assert.same({ "diloti", "pilotta" }, names)
    assert.same(names, registry.names())
    assert.is_true(registry.list()[1].default)
  end)

  it("gets a package by name, or says which games there are", function()
    assert.equals("Pilotta", registry.get("pilotta").title)
    assert.equals("pilotta", registry.get("PILOTTA").name)
    local p, why = registry.get("chess")
    assert.is_nil(p)
    assert.equals("no game 'chess': games are diloti, pilotta", why)
    -- another game's base rules: how to play them
    p, why = registry.get("Kontsina")
    assert.is_nil(p)
    assert.equals("no game 'Kontsina': games are diloti, pilotta ('Kontsina' is played as diloti's rules: "
      .. "--rules kontsina)", why)
    assert.is_nil((registry.get(nil)))
  end)

  it("knows the default game", function()
    assert.equals("diloti", registry.default().name)
  end)

  it("finds the package of a base rules name", function()
    assert.equals("diloti", registry.of_base("kontsina").name)
    assert.equals("diloti", registry.of_base("diloti").name)
    assert.equals("pilotta", registry.of_base("pilotta").name)
    assert.is_nil(registry.of_base("soy"))
    assert.is_nil(registry.of_base(nil))
  end)

  it("finds the package of a rules table and of a game handle", function()
    local p = assert(diloti.new{ rules = "pilotta", seed = 1 })
    local k = assert(diloti.new{ rules = "kontsina", seed = 1 })
    assert.equals("pilotta", registry.of_rules(p:rules()).name)
    assert.equals("diloti", registry.of_rules(k:rules()).name)
    assert.equals("diloti", registry.of_rules(nil).name)
    assert.equals("pilotta", registry.of(p).name)
    assert.equals("diloti", registry.of(k).name)
  end)

  it("requires a part only when asked, by package or by name", function()
    local pkg = registry.get("pilotta")
    assert.is_string(pkg.parts.rules)
    assert.equals(require(pkg.parts.rules), registry.part(pkg, "rules"))
    assert.equals(require(pkg.parts.table), registry.part("pilotta", "table"))
    assert.is_nil(registry.part("pilotta", "no-such-part"))
    assert.is_nil(registry.part("diloti", "bid"))
    assert.is_nil(registry.part("chess", "rules"))
  end)

  it("names each game's script folders, one convention", function()
    for _, pkg in ipairs(registry.list()) do
      assert.equals("lua/games/" .. pkg.name .. "/ai/", pkg.scripts.ai)
      assert.equals("lua/games/" .. pkg.name .. "/lessons/", pkg.scripts.lessons)
      assert.equals("rules-variants/" .. pkg.name .. "/", pkg.scripts.variants)
    end
  end)

  describe("extra packages from a folder", function()
    local dir = support.tmpdir()
    teardown(function() support.rmdir(dir) end)

    it("reads each NAME/init.lua as a descriptor and its parts as files of that folder", function()
      os.execute("mkdir -p " .. support.q(dir .. "/toy"))
      support.write(dir .. "/toy/init.lua", [[
return { name = "toy", title = "Toy", bases = { "toy", "toy-lite" },
  parts = { rules = "diloti.games.toy.rules" }, scripts = {} }]])
      support.write(dir .. "/toy/rules.lua", [[return { answer = 42 }]])
      assert.is_true(registry.add_dir(dir))
      assert.equals("Toy", registry.get("toy").title)
      assert.equals("toy", registry.of_base("toy-lite").name)
      assert.equals(42, registry.part("toy", "rules").answer)
      -- (the default stays first, the others by name)
      assert.same({ "diloti", "pilotta", "toy" }, registry.names())
      assert.equals("diloti", registry.default().name)
    end)

    it("refuses a folder it cannot read and a descriptor without its fields", function()
      local ok, why = registry.add_dir(dir .. "/missing")
      assert.is_nil(ok)
      assert.matches("cannot read the folder", why)
      local bad = dir .. "/bad"
      os.execute("mkdir -p " .. support.q(bad .. "/broken"))
      support.write(bad .. "/broken/init.lua", [[return { name = "broken", title = "Broken" }]])
      ok, why = registry.add_dir(bad)
      assert.is_nil(ok)
      assert.matches("field 'bases' must be a table", why)
      assert.is_nil((registry.get("broken")))
    end)
  end)
end)

describe("the registry at require", function()
  it("does no work: the packages are found when first asked", function()
    local code = [[
require "diloti"
local before = {}
for k in pairs(package.loaded) do before[k] = true end
require "diloti.registry"
for k in pairs(package.loaded) do
  if not before[k] and k ~= "diloti.registry" then print("loaded " .. k) end
end
print(package.loaded["diloti.games.pilotta"] == nil and "lazy" or "eager")
]]
    local out = support.spawn(code, 30).wait()
    assert.equals("lazy", (out:gsub("%s+$", "")))
  end)

  it("reads DILOTI_GAMES_PATH when first asked", function()
    local dir = support.tmpdir()
    os.execute("mkdir -p " .. support.q(dir .. "/toy"))
    support.write(dir .. "/toy/init.lua", [[
return { name = "toy", title = "Toy", bases = { "toy" }, parts = {}, scripts = {} }]])
    local script = support.write(dir .. "/names.lua", "print(table.concat(require('diloti.registry').names(), ' '))")
    local out = support.cli({ "run", script }, { DILOTI_GAMES_PATH = dir })
    support.rmdir(dir)
    assert.equals("diloti pilotta toy", (out:gsub("%s+$", "")))
  end)
end)
