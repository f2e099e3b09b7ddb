-- The browser's rules reference, web/rules.html (served at /rules): it is
-- what `tools/rules_ref_doc.lua html` writes from the games' rulebooks (the
-- same entries as docs/rules-reference.md), and every id of every rulebook
-- has its anchor written exactly as the id (`id="D19"`, `id="PV-deal-left"`),
-- so that a refusal's link /rules#ID lands on its entry.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local root = here .. "../../"
local support = dofile(here .. "support.lua")
require "diloti"
local rulebook = require "diloti.table.rulebook"

local function page()
  return support.read(root .. "web/rules.html") or ""
end

-- Every value of an attribute in the page, counted.
local function attrs(text, name)
  local out = {}
  for v in text:gmatch("%s" .. name .. '="([^"]*)"') do out[v] = (out[v] or 0) + 1 end
  return out
end

describe("web/rules.html", function()
  it("is what tools/rules_ref_doc.lua html writes", function()
    local p = assert(io.popen("cd " .. support.q(root) .. " && " .. support.q(support.bin)
      .. " run tools/rules_ref_doc.lua html 2>&1"))
    local generated = p:read("a")
    p:close()
    assert.matches("^<!doctype html>", generated)
    assert(generated == page(), "web/rules.html is stale: run 'make docs'")
  end)

  it("has one anchor per rule id, written as the id", function()
    local ids = attrs(page(), "id")
    assert.is_true(#rulebook.entries > 100)
    for _, e in ipairs(rulebook.entries) do
      assert.equals(1, ids[e.id], "no single anchor id=\"" .. e.id .. "\"")
    end
    -- (and no two elements share an id at all)
    for id, n in pairs(ids) do assert.equals(1, n, "id=\"" .. id .. "\" twice") end
  end)

  it("links only to anchors it has, and back to the lobby", function()
    local text = page()
    local ids = attrs(text, "id")
    local links = 0
    for target in text:gmatch('href="#([^"]+)"') do
      assert.truthy(ids[target], "a link to #" .. target .. " that is nowhere")
      links = links + 1
    end
    assert.is_true(links > #rulebook.entries)
    assert.truthy(text:find('<body data-page="rules"', 1, true))
    assert.truthy(text:find('<a id="lobby-link" href="../">', 1, true))
    -- (the styles are the server's own files, relative to the page)
    for href in text:gmatch('<link rel="stylesheet" href="([^"]+)"') do
      assert.matches("^css/[%w%-]+%.css$", href)
      assert.truthy(support.read(root .. "web/" .. href), href)
    end
  end)

  it("writes the entries' text as text, not markup", function()
    local text = page()
    -- every entry's title, escaped, is on the page
    for _, e in ipairs(rulebook.entries) do
      local title = e.title:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;")
      assert.truthy(text:find(title, 1, true), e.id .. ": " .. e.title)
    end
    -- (a plain page: no script)
    assert.falsy(text:find("<script", 1, true))
  end)
end)
