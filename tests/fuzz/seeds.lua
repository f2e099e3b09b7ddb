-- Writes seed inputs for the fuzz targets into tests/fuzz/corpus/TARGET:
--   build/diloti run tests/fuzz/seeds.lua
-- position: every position string of the C tests, the lessons and
-- docs/notation.md, and positions from random games, behind a rules byte;
-- move: the legal moves and the move strings of the tests on each fixed
-- position of fuzz_move.c; play: a few random byte strings; record: saved
-- records of random games under several rules; message: a client's
-- messages to the protocol, valid and near misses. make fuzz-merge then keeps
-- only what adds coverage.
local diloti = require "diloti"
local record = require "diloti.match.record"

local function write(target, name, bytes)
  local dir = "tests/fuzz/corpus/" .. target
  os.execute("mkdir -p " .. dir)
  local f = assert(io.open(dir .. "/seed-" .. name, "wb"))
  f:write(bytes)
  f:close()
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local t = f:read("a")
  f:close()
  return t
end

local function files(pattern)
  local p = io.popen("ls " .. pattern)
  local out = {}
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

-- The fuzz_rules byte of a configuration (tests/fuzz/fuzz.h; the order
-- of tests/c/configs.c): 2 players, 4 in teams, Kontsina also 3 and 4.
local RULES_BYTE = { [2] = 0, [4] = 1, k2 = 30, k3 = 32, k4 = 33 }

-- Positions.
local positions, seen = {}, {}
local function add_position(p)
  if not seen[p] then seen[p] = true; positions[#positions + 1] = p end
end
local sources = files("tests/c/*.c lua/teach/lessons/*.lua docs/notation.md")
for _, path in ipairs(sources) do
  local text = read(path)
  for p in text:gmatch('"([^"\n]*hands=[^"\n]*)"') do add_position(p) end
  for p in text:gmatch('`([^`\n]*hands=[^`\n]*)`') do add_position(p) end
  for p in text:gmatch('\n%a*:%s+([^\n`]*hands=[^\n`]*)') do add_position(p) end
end
local count = 0
for i, p in ipairs(positions) do
  local hands = p:match("hands=([^;]*)") or ""
  local _, slashes = hands:gsub("/", "")
  local n = slashes + 1
  local bytes = n == 3 and { RULES_BYTE.k3 } or n == 4 and { RULES_BYTE[4], RULES_BYTE.k4 }
    or { RULES_BYTE[2], RULES_BYTE.k2 }
  for _, b in ipairs(bytes) do
    write("position", string.format("%03d-%d", i, b), string.char(b) .. p)
    count = count + 1
  end
end
-- Positions along random games, canonical and with the pack hidden.
local function random_game(spec, seed, plies)
  local g = assert(diloti.new{ rules = spec, seed = seed })
  local rng = seed
  for _ = 1, plies do
    if g:phase() == "round-over" then g:next_round() end
    local moves = g:moves()
    if #moves == 0 then break end
    rng = (rng * 1103515245 + 12345) % 2147483648
    assert(g:play(moves[rng % #moves + 1]))
  end
  return g
end
for i, case in ipairs{ { "diloti", 0 }, { "diloti+players=4", 1 }, { "kontsina", 30 },
                       { "kontsina+players=3", 32 }, { "diloti+face-card-claim", 6 } } do
  for k, plies in ipairs{ 0, 7, 20, 45 } do
    local g = random_game(case[1], 100 * i + k, plies)
    write("position", string.format("game-%d-%d", i, k), string.char(case[2]) .. g:position())
    write("position", string.format("game-%d-%d-hidden", i, k), string.char(case[2]) .. g:position(true))
    count = count + 2
  end
end
print("position: " .. count .. " seeds")

-- Moves: the fixed positions of fuzz_move.c with their rules spec.
local MOVE_CASES = {
  { "diloti", "hands=8h 2d Kc / 9c 7d; table=8c 6d 5s 3h 2c Kd P9@1(4c+5c)" },
  { "diloti", "hands=Ac 3d 7h 8d 6h / 5c 6s 9d 2s; table=2h 3c G8@0(Ah+3s+4h,8s) P6@1(2c+4d)" },
  { "diloti", "turn=1; hands=Ac 3d 7h 8d / 5c 6s 9d 10h 10c; table=2h 3c 4s 5d 6d P8@0(As+7s); last=0" },
  { "diloti+players=4", "hands=8h 2d / 9c 7d / 7h 3s / Kc 4d; table=8c 6d 5s 3h 2c P7@1(3c+4c)" },
  { "diloti+face-card-claim", "ply=0; claim=0; hands=Jc Jd Qc Qs Kh 2c / 9c 7d 3c 4h 5h 6h; table=8c 6d 5s 3h" },
  { "diloti+liberal-group+liberal-raise+liberal-capture+soy+forced-capture+three-face-cards",
    "hands=Ac 3d 7h 8d 6h Qs / 5c 6s 9d 2s Qd; table=2h 3c 5h Qh G8@0(Ah+3s+4h,8s) P6@1(2c+4d)" },
  { "kontsina", "hands=8h 5d 3c / 9c 7d 2s; table=8c 5s 3h 2c 6d" },
  { "kontsina+players=3", "hands=8h 5d / 9c 7d / 2s 10s; table=8c 5s 3h 2c 6d As" },
  { "kontsina+players=4", "hands=8h 5d / 9c 7d / 2s 10s / Jh Jc; table=8c 5s 3h 2c 6d Js" },
  { "diloti+soy", "hands=9h 5d 3c Ks / 9c 7d 2s Kd; table=9s 4h 5s Kc" },
  { "diloti+forced-capture", "hands=8h 2d Kc / 9c 7d; table=8c 6d 5s 3h 2c Kd" },
}
local test_moves = {}
for _, path in ipairs(files("tests/c/test_*.c")) do
  for m in read(path):gmatch('"(%w%w?%w? [x+l][^"\n]*)"') do test_moves[#test_moves + 1] = m end
end
count = 0
for c, case in ipairs(MOVE_CASES) do
  local g = assert(diloti.new{ rules = case[1], position = case[2] })
  for k, m in ipairs(g:moves()) do
    if k % 3 == 1 then write("move", string.format("%02d-%03d", c - 1, k), string.char(c - 1) .. m); count = count + 1 end
  end
  for k = c, #test_moves, 40 do
    write("move", string.format("%02d-t%03d", c - 1, k), string.char(c - 1) .. test_moves[k]); count = count + 1
  end
end
print("move: " .. count .. " seeds")

-- Play: a header (rules byte, seed, dealer) and move bytes.
local state = 12345
local function byte()
  state = (state * 1103515245 + 12345) % 2147483648
  return (state >> 16) % 256
end
for i = 0, 33, 3 do
  local b = { string.char(i) }
  for _ = 1, 9 do b[#b + 1] = string.char(byte()) end
  for _ = 1, 60 + 40 * (i % 5) do b[#b + 1] = string.char(byte()) end
  write("play", string.format("%02d", i), table.concat(b))
end
print("play: 12 seeds")

-- Records of random games, saved as the table saves them.
count = 0
for i, spec in ipairs{ "diloti", "diloti+soy", "kontsina", "kontsina+players=3", "diloti+players=4",
                       "diloti+face-card-claim-any-deal" } do
  for k, plies in ipairs{ 3, 30, 60 } do
    local seed = 7 * i + k
    local g = random_game(spec, seed, plies)
    local text = assert(record.encode(g, { rules = spec, seed = seed, date = false,
                                           seats = { [0] = "human", [1] = "ai expert" } }))
    write("record", string.format("%d-%d", i, k), text)
    count = count + 1
  end
end
local g = assert(diloti.new{ rules = "diloti", position = "hands=8h 2d Kc / 9c 7d; table=8c 6d 5s 3h 2c Kd P9@1(4c+5c)" })
g:play("8h x 2c 6d")
write("record", "position", assert(record.encode(g, { rules = "diloti", date = false,
  position = "hands=8h 2d Kc / 9c 7d; table=8c 6d 5s 3h 2c Kd P9@1(4c+5c)" })))
print("record: " .. count + 1 .. " seeds")

-- message: what a client sends the protocol (lua/server/protocol.lua),
-- one message a line, over fuzz_message.c's room (Diloti for two, both
-- seats people, seed 1; tokens from a counter): valid hellos, moves,
-- advice and pings, and near misses of each.
do
  local room = require "diloti.room"
  local protocol = require "diloti.server.protocol"
  local json = require "diloti.match.json"
  local n = 0
  local r = assert(room.new { rules = "diloti", players = 2, humans = 2, seed = 1, match = false })
  local h = protocol.host(r, { random = function(k) n = n + 1 return string.rep(string.char(n), k) end })
  h:start()
  local function tok(i) return string.rep(string.format("%02x", i), 32) end
  assert(h.id == tok(1) and h.watch == tok(2) and h.seat_tokens[0] == tok(3) and h.seat_tokens[1] == tok(4))
  local turn = r.g:turn()
  local hello = string.format('{"v":1,"type":"hello","room":"%s","token":"%s","name":"Ann"}', tok(1), tok(3 + turn))
  local other = string.format('{"v":1,"type":"hello","room":"%s","token":"%s"}', tok(1), tok(4 - turn))
  local watch = string.format('{"v":1,"type":"hello","room":"%s","token":"%s","last":0}', tok(1), tok(2))
  local moves = r.g:moves()
  local seeds = {
    ping = '{"v":1,"type":"ping","id":7}',
    hello = hello, watch = watch, other = other,
    ["move-number"] = hello .. '\n{"v":1,"type":"move","move":1}',
    ["move-text"] = hello .. "\n" .. json.encode { v = 1, type = "move", move = moves[#moves], seat = turn },
    ["move-two"] = hello .. "\n" .. json.encode { v = 1, type = "move", move = moves[1] } .. "\n" .. other ..
      '\n{"v":1,"type":"move","move":1}',
    advice = hello .. '\n{"v":1,"type":"hint"}\n{"v":1,"type":"why","move":1}\n{"v":1,"type":"explain","n":2}',
    ["not-joined"] = '{"v":1,"type":"move","move":"x"}',
    ["watch-move"] = watch .. '\n{"v":1,"type":"move","move":1}',
    ["out-of-turn"] = other .. '\n{"v":1,"type":"move","move":1}',
    refused = hello .. '\n{"v":1,"type":"move","move":"Qz x 99"}',
    ["bad-token"] = string.format('{"v":1,"type":"hello","room":"%s","token":"%s"}', tok(1), tok(9)),
    ["twice"] = hello .. "\n" .. hello,
    ["reconnect"] = hello .. "\n" .. string.format('{"v":1,"type":"hello","room":"%s","token":"%s","last":1}',
      tok(1), tok(3 + turn)),
    v2 = '{"v":2,"type":"ping"}', vtext = '{"v":"1","type":"ping"}', nov = '{"type":"ping"}',
    unknown = '{"v":1,"type":"pong"}', extra = '{"v":1,"type":"ping","id":1,"x":2}',
    ["wrong-type"] = '{"v":1,"type":"ping","id":"1"}', negative = '{"v":1,"type":"ping","id":-1}',
    float = '{"v":1,"type":"ping","id":1.5}', nested = '{"v":1,"type":"ping","id":{"a":1}}',
    array = '[1,2,3]', null = 'null', empty = '', object = '{}', ["number"] = '1e309',
    escapes = '{"v":1,"type":"hello","room":"\\u0000\\ud800","token":"\\"\\\\\\/"}',
    dup = '{"v":1,"type":"ping","type":"hello"}', trailing = '{"v":1,"type":"ping",}',
    bom = '\239\187\191{"v":1,"type":"ping"}', ["move-zero"] = hello .. '\n{"v":1,"type":"move","move":0}',
    ["move-long"] = hello .. '\n{"v":1,"type":"move","move":"' .. string.rep("8h ", 80) .. '"}',
    ["too-large"] = '{"v":1,"type":"ping","pad":"' .. string.rep("x", 4100) .. '"}',
    ["seat-other"] = hello .. string.format('\n{"v":1,"type":"hint","seat":%d}', 1 - turn),
    ["control"] = '{"v":1,"type":"hello\\u0007\\n","room":"\\t"}',
  }
  local k = 0
  for name, text in pairs(seeds) do
    write("message", name, text)
    k = k + 1
  end
  print("message: " .. k .. " seeds")
end
