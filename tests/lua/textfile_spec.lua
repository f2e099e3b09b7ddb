-- lua/scripts/textfile.lua: the one reader of files the program is given.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")
require "diloti"
local textfile = require "diloti.scripts.textfile"

describe("textfile", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() support.rmdir(dir) end)

  it("reads a whole file, bytes as they are", function()
    support.write(dir .. "/a", "one\r\ntwo\0three")
    assert.equals("one\r\ntwo\0three", textfile.read(dir .. "/a"))
    support.write(dir .. "/empty", "")
    assert.equals("", textfile.read(dir .. "/empty"))
  end)

  it("says why a missing file or a folder cannot be read", function()
    local text, why = textfile.read(dir .. "/missing")
    assert.is_nil(text)
    assert.matches("No such file", why)
    text, why = textfile.read(dir)
    assert.is_nil(text)
    assert.matches(dir, why, 1, true)
  end)

  it("refuses a file over the size given", function()
    support.write(dir .. "/big", string.rep("x", 11))
    local text, why = textfile.read(dir .. "/big", 10)
    assert.is_nil(text)
    assert.matches("larger than 10 bytes", why)
    assert.equals(10, #textfile.read(dir .. "/big", 11) - 1)
  end)

  it("names the file at the head of a message once", function()
    assert.equals("f.lua: boom", textfile.with_file("boom\nstack traceback: ...", "f.lua"))
    assert.equals("f.lua:3: boom", textfile.with_file("f.lua:3: boom", "f.lua"))
    assert.equals("first", textfile.first_line("first\nsecond"))
  end)
end)
