-- The layout of the Lua host (docs/architecture.md): every module requires
-- only its own layer or those below it, there is no require circle, and
-- requiring a module does no work (no command, observer or preload
-- registered, no script loaded).
require "diloti" -- (sets up diloti.core and the compiled-in modules)
local core = require "diloti.core"

-- Layers from the bottom: a module may require its own layer and lower.
-- (store, net and wsclient: the C modules of src/net, beside the core)
local RANK = {
  core = 0, line = 0, store = 0, net = 0, wsclient = 0, registry = 0, scripts = 1, diloti = 2, gamekit = 2,
  driver = 3, ai = 3, match = 4, room = 4, table = 5, server = 5,
  teach = 6, cli = 7,
}
-- A game's package (lua/games/NAME/) spans the layers: each part sits in
-- the layer of what it serves (its descriptor, init.lua, needs nothing).
local PART_LAYER = {
  init = "registry", rules = "diloti", ai = "ai", ai_helpers = "ai", record = "match",
  board = "table", input = "table", table = "table", rulebook = "table",
  coach = "teach", advice = "teach", bid = "teach",
}

local function layer_of(name)
  local part = name:match("^diloti%.games%.[%w_]+%.([%w_]+)$")
  if part then return PART_LAYER[part] or part end
  if name:match("^diloti%.games%.[%w_]+$") then return PART_LAYER.init end
  local first = name:match("^diloti%.([%w_]+)") or "diloti"
  return first
end

-- {module name = source} for every module compiled into the program.
local function modules()
  local out = {}
  for file, src in pairs(core.embedded("lua/")) do
    -- (a game's ai/ and lessons/ hold scripts, run in boxes, not modules)
    if not file:match("^lua/games/[%w_]+/ai/") and not file:match("^lua/games/[%w_]+/lessons/") then
      local name = "diloti." .. file:match("^lua/(.-)%.lua$"):gsub("/init$", ""):gsub("/", ".")
      if name == "diloti.diloti" then name = "diloti" end
      out[name] = src
    end
  end
  return out
end

local function requires(src)
  local out = {}
  for line in (src .. "\n"):gmatch("(.-)\n") do
    local code = line:gsub("%-%-.*$", "") -- (comments show examples)
    for name in code:gmatch('require%s*%(?%s*"(diloti[%w_.]*)"') do out[#out + 1] = name end
  end
  return out
end

describe("the Lua modules", function()
  local mods = modules()

  it("are found (a dozen and more)", function()
    local n = 0
    for _ in pairs(mods) do n = n + 1 end
    assert.is_true(n >= 20, n)
    assert.is_string(mods["diloti.driver"])
    assert.is_string(mods["diloti.ai"])
    assert.is_string(mods["diloti.registry"])
  end)

  it("hold a package per game, each part of its descriptor a module of its folder", function()
    local registry = require "diloti.registry"
    for _, pkg in ipairs(registry.list()) do
      assert.is_string(mods["diloti.games." .. pkg.name], pkg.name)
      for part, module in pairs(pkg.parts) do
        assert.is_string(mods[module], pkg.name .. "'s " .. part .. ": " .. module)
        assert.equals("diloti.games." .. pkg.name .. ".", module:sub(1, #pkg.name + 14))
        assert.is_string(PART_LAYER[module:match("([%w_]+)$")], module)
      end
    end
    -- (the scripts are no modules)
    for name in pairs(mods) do assert.is_nil(name:match("^diloti%.games%.[%w_]+%.ai%."), name) end
  end)

  it("keep a game's descriptor plain: it requires nothing", function()
    for name, src in pairs(mods) do
      if name:match("^diloti%.games%.[%w_]+$") then assert.same({}, requires(src), name) end
    end
  end)

  it("require only their own layer or lower ones", function()
    for name, src in pairs(mods) do
      local mine = RANK[layer_of(name)]
      assert.is_number(mine, name)
      for _, r in ipairs(requires(src)) do
        local theirs = RANK[layer_of(r)]
        assert.is_number(theirs, name .. " requires " .. r)
        assert.is_true(theirs <= mine, string.format("%s (layer %s) requires %s (layer %s)",
          name, layer_of(name), r, layer_of(r)))
      end
    end
  end)

  it("have no require circle", function()
    local state = {}
    local function visit(name, path)
      if state[name] == "done" then return end
      assert.is_nil(state[name] == "open" and name or nil,
        "require circle: " .. table.concat(path, " -> ") .. " -> " .. name)
      state[name] = "open"
      path[#path + 1] = name
      for _, r in ipairs(requires(mods[name] or "")) do
        if mods[r] then visit(r, path) end
      end
      path[#path] = nil
      state[name] = "done"
    end
    for name in pairs(mods) do visit(name, {}) end
  end)

  it("do no work when required: no command, observer or preload is registered", function()
    local commands = require "diloti.table.commands"
    local before = #commands.list
    local preload = {}
    for k in pairs(package.preload) do preload[k] = true end
    for name in pairs(mods) do
      if name ~= "diloti.cli" then require(name) end
    end
    assert.equals(before, #commands.list)
    for k in pairs(package.preload) do assert.is_true(preload[k], "a new preload: " .. k) end
    local repl = require "diloti.table.repl"
    local s = assert(repl.new { write = function() end, getenv = function() return nil end,
      clock = function() return 1 end, game = { ai = "random" } })
    assert.same({}, s.observers)
    assert.is_nil(s.commands.find("coach"))
    s = assert(repl.new { write = function() end, getenv = function() return nil end,
      clock = function() return 1 end, game = { ai = "random" },
      extensions = { require "diloti.teach.coach", (require "diloti.teach.learn") } })
    assert.equals(1, #s.observers)
    assert.is_table(s.commands.find("coach"))
    assert.is_table(s.commands.find("learn"))
    -- (in that session's commands only: tests/lua/room_spec.lua)
    assert.is_nil(commands.find("coach"))
  end)
end)
