-- The layout of the C sources (docs/architecture.md, issue 26): the
-- `#include "..."` lines of src/ make a graph of modules (a .c and its
-- .h are one module, a header alone is one too) that has no circle, so
-- every dependency runs one way; and the games' cores (the files directly
-- in src/diloti/ and src/pilotta/) include no Lua header, nor anything of
-- a binding folder.

--- Every .c and .h under src/, sorted.
local function sources()
  local out = {}
  local p = assert(io.popen("find src -type f \\( -name '*.c' -o -name '*.h' \\) | sort"))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  return out
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

local function dir_of(path) return path:match("^(.*)/[^/]*$") or "." end
local function module_of(path) return (path:gsub("%.[ch]$", "")) end

--- The quoted includes of a file, as paths under src/ (the build's -Isrc
-- and -Isrc/lua, after the file's own folder), and its angle includes.
local function includes(path)
  local quoted, angled = {}, {}
  local f = assert(io.open(path, "r"))
  for line in f:lines() do
    local q = line:match('^%s*#%s*include%s*"([^"]+)"')
    local a = line:match("^%s*#%s*include%s*<([^>]+)>")
    if q then
      for _, base in ipairs({ dir_of(path), "src", "src/lua" }) do
        local full = base .. "/" .. q
        if exists(full) then
          quoted[#quoted + 1] = full
          break
        end
      end
    elseif a then
      angled[#angled + 1] = a
    end
  end
  f:close()
  return quoted, angled
end

--- {module = {module it includes = "file -> file"}} for every module.
local function graph(files)
  local g = {}
  for _, file in ipairs(files) do
    local from = module_of(file)
    g[from] = g[from] or {}
    for _, inc in ipairs((includes(file))) do
      local to = module_of(inc)
      if to ~= from then g[from][to] = g[from][to] or (file .. " -> " .. inc) end
    end
  end
  return g
end

--- Every circle (a strongly connected set of two modules or more), as
-- the sorted list of the includes inside it; {} when there is none.
local function circles(g)
  local index, low, on, stack, out, n = {}, {}, {}, {}, {}, 0
  local function visit(m)
    n = n + 1
    index[m], low[m] = n, n
    stack[#stack + 1] = m
    on[m] = true
    for to in pairs(g[m] or {}) do
      if not index[to] then
        visit(to)
        low[m] = math.min(low[m], low[to])
      elseif on[to] then
        low[m] = math.min(low[m], index[to])
      end
    end
    if low[m] == index[m] then
      local set, size = {}, 0
      repeat
        local top = table.remove(stack)
        on[top] = false
        set[top] = true
        size = size + 1
      until top == m
      if size > 1 then
        local edges = {}
        for a in pairs(set) do
          for b, why in pairs(g[a] or {}) do
            if set[b] then edges[#edges + 1] = why end
          end
        end
        table.sort(edges)
        out[#out + 1] = edges
      end
    end
  end
  local mods = {}
  for m in pairs(g) do mods[#mods + 1] = m end
  table.sort(mods)
  for _, m in ipairs(mods) do
    if not index[m] then visit(m) end
  end
  table.sort(out, function(a, b) return a[1] < b[1] end)
  return out
end

describe("the C sources", function()
  local files = sources()

  it("are found, and their includes resolved", function()
    assert.is_true(#files > 100, #files)
    local q = includes("src/pilotta/position.c")
    assert.is_true(#q >= 2)
    for _, inc in ipairs(q) do assert.is_true(exists(inc), inc) end
  end)

  it("the check finds a circle when there is one", function()
    local g = { a = { b = "a.c -> b.h" }, b = { c = "b.c -> c.h" }, c = { a = "c.h -> a.h" }, d = { a = "d.c -> a.h" } }
    assert.same({ { "a.c -> b.h", "b.c -> c.h", "c.h -> a.h" } }, circles(g))
    g.c = {}
    assert.same({}, circles(g))
  end)

  it("include each other in no circle (a module: a .c with its .h)", function()
    local found = circles(graph(files))
    local text = {}
    for i, c in ipairs(found) do text[i] = "circle " .. i .. ":\n    " .. table.concat(c, "\n    ") end
    assert.equals(0, #found, "circles of includes:\n  " .. table.concat(text, "\n  "))
  end)

  it("of the games' cores include no Lua header and no binding", function()
    local bad = {}
    for _, file in ipairs(files) do
      if file:match("^src/diloti/[^/]+$") or file:match("^src/pilotta/[^/]+$") then
        local quoted, angled = includes(file)
        for _, a in ipairs(angled) do
          if a:match("^lua") or a:match("^lauxlib") or a:match("^lualib") then
            bad[#bad + 1] = file .. ": <" .. a .. ">"
          end
        end
        for _, q in ipairs(quoted) do
          if q:match("^src/lua/") or q:match("/lua/") then bad[#bad + 1] = file .. ": " .. q end
        end
      end
    end
    assert.same({}, bad)
  end)
end)
