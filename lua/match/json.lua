-- JSON: a small encoder and decoder, enough for the result files (and
-- any ordinary JSON). Objects are written with sorted keys; integers stay
-- integers; non-finite numbers are written as null.

local json = {}

local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f",
  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', function(ch)
    return escapes[ch] or string.format("\\u%04x", ch:byte())
  end) .. '"'
end

local function is_array(t)
  local n = 0
  for k in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 then return false end
    n = n + 1
  end
  for i = 1, n do
    if t[i] == nil then return false end
  end
  return true, n
end

local function encode(v, out, depth)
  local ty = type(v)
  if v == nil then
    out[#out + 1] = "null"
  elseif ty == "boolean" then
    out[#out + 1] = tostring(v)
  elseif ty == "number" then
    if math.type(v) == "integer" then
      out[#out + 1] = string.format("%d", v)
    elseif v ~= v or v == math.huge or v == -math.huge then
      out[#out + 1] = "null"
    elseif v == math.floor(v) and math.abs(v) < 2 ^ 53 then
      out[#out + 1] = string.format("%.1f", v)
    else
      out[#out + 1] = string.format("%.17g", v)
    end
  elseif ty == "string" then
    out[#out + 1] = encode_string(v)
  elseif ty == "table" then
    if depth > 100 then error("json: nested too deep (a cycle?)") end
    local arr, n = is_array(v)
    if arr and n > 0 then
      out[#out + 1] = "["
      for i = 1, n do
        if i > 1 then out[#out + 1] = "," end
        encode(v[i], out, depth + 1)
      end
      out[#out + 1] = "]"
    elseif arr then
      out[#out + 1] = "[]"
    else
      local keys = {}
      for k in pairs(v) do
        if type(k) ~= "string" and math.type(k) ~= "integer" then
          error("json: cannot encode a key of type " .. type(k))
        end
        keys[#keys + 1] = k
      end
      table.sort(keys, function(x, y) return tostring(x) < tostring(y) end)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = encode_string(tostring(k))
        out[#out + 1] = ":"
        encode(v[k], out, depth + 1)
      end
      out[#out + 1] = "}"
    end
  else
    error("json: cannot encode a " .. ty)
  end
end

--- A value as JSON text (one line). Empty tables are written as [].
function json.encode(v)
  local out = {}
  encode(v, out, 0)
  return table.concat(out)
end

local function utf8_of(cp)
  return utf8.char(cp)
end

--- Decodes JSON text: value, or nil and a message with the offset. null
-- becomes nil (absent in objects and arrays: arrays with nulls get holes).
-- max_depth (optional, at most MAX_DEPTH) nests less deeply: a reader of
-- small messages from the network allows only what its messages need.
--- How deeply arrays and objects may nest in what decode reads: a file
-- of nothing but '[' must get an error, not overflow the reader's stack.
json.MAX_DEPTH = 200

function json.decode(s, max_depth)
  local limit = math.min(math.tointeger(max_depth) or json.MAX_DEPTH, json.MAX_DEPTH)
  local pos = 1
  local function fail(msg) error({ json = "json: " .. msg .. " at offset " .. pos }, 0) end
  local function ws() pos = s:find("[^ \t\r\n]", pos) or #s + 1 end
  local value
  local function str()
    pos = pos + 1
    local parts = {}
    while true do
      local a, b = s:find('^[^"\\%c]+', pos)
      if a then
        parts[#parts + 1] = s:sub(a, b)
        pos = b + 1
      end
      local ch = s:sub(pos, pos)
      if ch == '"' then
        pos = pos + 1
        return table.concat(parts)
      elseif ch == "\\" then
        local e = s:sub(pos + 1, pos + 1)
        local simple = ({ ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r",
          t = "\t" })[e]
        if simple then
          parts[#parts + 1] = simple
          pos = pos + 2
        elseif e == "u" then
          local hex = s:match("^%x%x%x%x", pos + 2)
          if not hex then fail("bad \\u escape") end
          local cp = tonumber(hex, 16)
          pos = pos + 6
          if cp >= 0xD800 and cp <= 0xDBFF then
            local lo = s:match("^\\u(%x%x%x%x)", pos)
            local lcp = lo and tonumber(lo, 16)
            if not lcp or lcp < 0xDC00 or lcp > 0xDFFF then fail("lone surrogate") end
            cp = 0x10000 + (cp - 0xD800) * 0x400 + (lcp - 0xDC00)
            pos = pos + 6
          end
          parts[#parts + 1] = utf8_of(cp)
        else
          fail("bad escape")
        end
      elseif ch == "" then
        fail("unterminated string")
      else
        fail("control character in string")
      end
    end
  end
  function value(depth)
    ws()
    local ch = s:sub(pos, pos)
    if (ch == "{" or ch == "[") and depth >= limit then
      fail("nested deeper than " .. limit .. " levels")
    end
    if ch == "{" then
      pos = pos + 1
      local t = {}
      ws()
      if s:sub(pos, pos) == "}" then
        pos = pos + 1
        return t
      end
      while true do
        ws()
        if s:sub(pos, pos) ~= '"' then fail("expected a key") end
        local k = str()
        ws()
        if s:sub(pos, pos) ~= ":" then fail("expected ':'") end
        pos = pos + 1
        t[k] = value(depth + 1)
        ws()
        local c = s:sub(pos, pos)
        pos = pos + 1
        if c == "}" then return t end
        if c ~= "," then fail("expected ',' or '}'") end
      end
    elseif ch == "[" then
      pos = pos + 1
      local t, n = {}, 0
      ws()
      if s:sub(pos, pos) == "]" then
        pos = pos + 1
        return t
      end
      while true do
        n = n + 1
        t[n] = value(depth + 1)
        ws()
        local c = s:sub(pos, pos)
        pos = pos + 1
        if c == "]" then return t end
        if c ~= "," then fail("expected ',' or ']'") end
      end
    elseif ch == '"' then
      return str()
    elseif s:find("^true", pos) then
      pos = pos + 4
      return true
    elseif s:find("^false", pos) then
      pos = pos + 5
      return false
    elseif s:find("^null", pos) then
      pos = pos + 4
      return nil
    else
      local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
      if not num or num == "" or num == "-" then fail("unexpected " .. (ch == "" and "end" or "'" .. ch .. "'")) end
      local v
      if num:find("^-?%d+$") then v = math.tointeger(tonumber(num)) end
      v = v or tonumber(num)
      if not v then fail("bad number") end
      pos = pos + #num
      return v
    end
  end
  local ok, v = pcall(function()
    local r = value(0)
    ws()
    if pos <= #s then fail("trailing text") end
    return r
  end)
  if ok then return v end
  if type(v) == "table" and v.json then return nil, v.json end
  error(v, 0)
end

return json
