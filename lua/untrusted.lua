-- Values that sandboxed scripts (variants, AIs, lessons) hand back to the
-- host. They are copied with raw access only: a script's table may carry
-- metamethods, which must never run outside its sandbox.
local M = {}

--- A raw copy of t: keys that are strings or numbers (and booleans with
-- opts.booleans), tables below max_depth levels dropped.
function M.rawcopy(t, max_depth, booleans)
  local function copy(v, depth)
    if type(v) ~= "table" then return v end
    if depth > max_depth then return nil end
    local c, k, x = {}, next(v)
    while k ~= nil do
      local kt = type(k)
      if kt == "string" or kt == "number" or (booleans and kt == "boolean") then c[k] = copy(x, depth + 1) end
      k, x = next(v, k)
    end
    return c
  end
  return copy(t, 0)
end

return M
