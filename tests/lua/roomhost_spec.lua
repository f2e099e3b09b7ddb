-- lua/server/roomhost.lua's pieces that need no server running.
require "diloti"
local roomhost = require "diloti.server.roomhost"

describe("roomhost.script_dir", function()
  it("is the data folder's scripts/ID", function()
    assert.equal("/srv/d/scripts/r1", roomhost.script_dir { data = "/srv/d", id = "r1" })
  end)

  -- A room run with no data folder (no `serve` does, but the module
  -- allows it): the uploaded AI's folder must be the same at every call,
  -- or a script's error message keeps the server's path (options.unpath
  -- takes out only the folder it was given), and no file is left behind.
  it("with no data folder, stays one folder for the room's life and leaves no file in /tmp", function()
    local a = { id = "r2" }
    local dir = roomhost.script_dir(a)
    assert.equal(dir, roomhost.script_dir(a))
    assert.matches("/scripts/r2$", dir)
    local base = dir:gsub("/scripts/r2$", "")
    assert.is_nil(io.open(base, "r"))
    assert.is_nil(io.open((base:gsub("%.d$", "")), "r"))
    assert.are_not.equal(dir, roomhost.script_dir { id = "r2" })
  end)
end)
