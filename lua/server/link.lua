-- The links of an online room (issue 27): a seat's invitation
-- `http://HOST:PORT/PREFIX/play#ROOM:TOKEN` and the watch link
-- `.../watch#ROOM:TOKEN`, made (link.make) and read back (link.parse)
-- into what a client needs: the WebSocket endpoint (`ws://HOST:PORT/
-- PREFIX/ws`, wss for https), the room id and the token.
--
-- A link is text a person pastes from a chat or a mail: untrusted. The
-- reader is strict and says what is wrong: http or https only, a host
-- name or an address (IPv6 in brackets), no user or password before
-- the host, a port 1 to 65535, a path of plain segments ending in play
-- or watch, no query, the room and the token 64 hex digits each, and
-- MAX_LINK bytes at most. The part after '#' never reaches a server's
-- logs: it is the client that reads it and says it in its hello.
local M = {}

M.MAX_LINK = 1024   -- bytes of a whole link
M.MAX_HOST = 253    -- bytes of a host name (DNS's own limit)
M.ID_DIGITS = 64    -- hex digits of a room id and of a token

local KINDS = { play = true, watch = true }
local SCHEMES = { http = "ws", https = "wss" }

-- A 64-hex id, lower-cased; nil when it is not one.
local function hex_id(s)
  if type(s) == "string" and #s == M.ID_DIGITS and s:match("^%x+$") then return s:lower() end
end

-- What is wrong with an id, in words (what names it: "the room id").
local function bad_id(what, s)
  if s == "" then return what .. " is missing" end
  if #s ~= M.ID_DIGITS then
    return string.format("%s must be %d hex digits (it has %d characters)", what, M.ID_DIGITS, #s)
  end
  return string.format("%s must be %d hex digits (0-9, a-f): it holds other characters", what, M.ID_DIGITS)
end

-- Checks a host (name, IPv4, or [IPv6]) and a port text (may be empty):
-- the host and the port as a number, or nil and why.
local function check_authority(auth)
  if auth:find("@", 1, true) then
    return nil, "a link carries no user name or password (nothing before '@')"
  end
  local host, port
  if auth:sub(1, 1) == "[" then
    host, port = auth:match("^(%[[%x:%.]+%])(.*)$")
    if not host then return nil, "an IPv6 address in brackets holds only hex digits, ':' and '.'" end
  else
    host, port = auth:match("^([^:]*)(.*)$")
    if host == "" then return nil, "the link has no host" end
    if #host > M.MAX_HOST then return nil, string.format("the host name is over %d characters", M.MAX_HOST) end
    if not host:match("^[%w%.%-]+$") then
      return nil, "the host holds characters a host name does not have (letters, digits, '.' and '-')"
    end
    if host:match("^[%.%-]") or host:match("%.%.") then return nil, "the host name is malformed" end
  end
  local n
  if port ~= "" then
    local digits = port:match("^:(%d+)$")
    n = digits and #digits <= 5 and tonumber(digits)
    if not n or n < 1 or n > 65535 then return nil, "the port must be a number from 1 to 65535" end
  end
  return host, n
end

--- link.parse(text) -> {ws, room, token, kind, base}, or nil and what is
-- wrong with the link. ws: the WebSocket endpoint; kind: "play" or
-- "watch"; base: the link's http(s)://HOST[:PORT][/PREFIX].
function M.parse(text)
  if type(text) ~= "string" then return nil, "a link is text" end
  text = text:match("^%s*(.-)%s*$")
  if text == "" then return nil, "the link is empty" end
  if #text > M.MAX_LINK then return nil, string.format("a link is at most %d characters", M.MAX_LINK) end
  if text:find("[%c%s\128-\255]") then return nil, "a link holds no spaces, control or non-ASCII characters" end
  local scheme, rest = text:match("^(%a[%w+.-]*)://(.*)$")
  if not scheme then return nil, "a link starts with http:// or https://" end
  local ws = SCHEMES[scheme:lower()]
  if not ws then return nil, string.format("a link is http or https, not %s", scheme) end
  local before, fragment = rest:match("^([^#]*)#(.*)$")
  if not before then return nil, "the link has no '#ROOM:TOKEN' part (was it cut when copied?)" end
  if before:find("?", 1, true) then return nil, "a link has no query ('?...')" end
  local auth, path = before:match("^([^/]*)(.*)$")
  local host, port = check_authority(auth)
  if not host then return nil, port end
  local prefix, kind = path:match("^(.-)/([^/]*)$")
  if not kind or not KINDS[kind] then
    return nil, "the link's path must end in /play (a seat) or /watch (to watch)"
  end
  if prefix ~= "" and not prefix:match("^[%w/%._~%-]+$") or path:find("//", 1, true) then
    return nil, "the link's path holds characters a path prefix does not have"
  end
  for seg in prefix:gmatch("[^/]+") do
    if seg == "." or seg == ".." then return nil, "the link's path has '.' or '..' segments" end
  end
  local room_text, token_text = fragment:match("^([^:]*):(.*)$")
  if not room_text then return nil, "the part after '#' must be ROOM:TOKEN" end
  local room, token = hex_id(room_text), hex_id(token_text)
  if not room then return nil, bad_id("the room id", room_text) end
  if not token then return nil, bad_id("the token", token_text) end
  local hostport = host .. (port and (":" .. port) or "")
  return {
    ws = ws .. "://" .. hostport .. prefix .. "/ws", room = room, token = token, kind = kind,
    base = scheme:lower() .. "://" .. hostport .. prefix,
  }
end

--- link.make(base, kind, room, token) -> the link, or nil and why.
-- base: http(s)://HOST[:PORT][/PREFIX] (a trailing '/' is dropped);
-- kind: "play" or "watch"; room, token: 64 hex digits each. What it
-- makes, link.parse reads back.
function M.make(base, kind, room, token)
  if type(base) ~= "string" then return nil, "the base is text, like http://127.0.0.1:8080" end
  if not KINDS[kind] then return nil, "a link is to play or to watch" end
  if not hex_id(room) then return nil, bad_id("the room id", tostring(room)) end
  if not hex_id(token) then return nil, bad_id("the token", tostring(token)) end
  local text = base:gsub("/+$", "") .. "/" .. kind .. "#" .. room:lower() .. ":" .. token:lower()
  local ok, why = M.parse(text)
  if not ok then return nil, why end
  return text
end

return M
