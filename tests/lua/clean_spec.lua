-- core.clean (src/lua/ltext.c): text from scripts, lessons and records
-- made safe for a terminal. Controls become visible: C0 and DEL in caret
-- notation, C1, bidirectional controls and bytes that are not UTF-8 as
-- U+FFFD. Every other character passes unchanged.
require "diloti"
local core = require "diloti.core"

local R = "\239\191\189" -- U+FFFD
local clean = core.clean

describe("core.clean", function()
  it("leaves printable ASCII, newlines and tabs alone (the very same string)", function()
    local s = "8h x 3c 5s\n\tD11: ok ~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./"
    assert.equals(s, clean(s))
    assert.equals("", clean(""))
  end)

  it("writes every C0 control but newline and tab, and DEL, in caret notation", function()
    assert.equals("^[", clean("\27"))
    assert.equals("^M", clean("\r"))
    assert.equals("^G", clean("\7"))
    assert.equals("^@", clean("\0"))
    assert.equals("^H", clean("\8"))
    assert.equals("^K^L", clean("\11\12"))
    assert.equals("^A^_", clean("\1\31"))
    assert.equals("^?", clean("\127"))
    assert.equals("a^[]52;c;aGk=^Gb^[[2Jc", clean("a\27]52;c;aGk=\7b\27[2Jc"))
    for b = 0, 31 do
      local c = string.char(b)
      if c ~= "\n" and c ~= "\t" then
        assert.equals("^" .. string.char(b + 64), clean(c))
      end
    end
  end)

  it("replaces C1 controls written in UTF-8 (U+0080..U+009F) by U+FFFD", function()
    assert.equals(R, clean("\194\128"))
    assert.equals("x" .. R .. "[2J", clean("x\194\155[2J")) -- U+009B, CSI
    assert.equals(R, clean("\194\159"))
    assert.equals("\194\160", clean("\194\160")) -- U+00A0, no-break space
    for cp = 0x80, 0x9F do assert.equals(R, clean(utf8.char(cp))) end
  end)

  it("replaces the bidirectional controls by U+FFFD", function()
    local bidi = { 0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069 }
    for _, cp in ipairs(bidi) do
      assert.equals("a" .. R .. "b", clean("a" .. utf8.char(cp) .. "b"), string.format("U+%04X", cp))
    end
    -- their neighbours are ordinary characters
    for _, cp in ipairs { 0x061B, 0x061D, 0x200D, 0x2010, 0x2029, 0x202F, 0x2065, 0x206A, 0x0627 } do
      assert.equals(utf8.char(cp), clean(utf8.char(cp)), string.format("U+%04X", cp))
    end
  end)

  it("passes valid UTF-8 text through unchanged", function()
    for _, s in ipairs { "Δηλωτή", "♠♥♦♣ ♤♡♢♧", "10♦ x 2♣", "🂡 and 😀", R, "\244\143\191\191", "日本語", "ελληνικά\n" } do
      assert.equals(s, clean(s))
    end
  end)

  it("replaces bytes that are not UTF-8: raw C1 bytes, stray continuations, impossible leads", function()
    assert.equals(R, clean("\155"))        -- raw CSI of 8-bit terminals
    assert.equals("a" .. R .. "b", clean("a\128b"))
    assert.equals(R .. R, clean("\255\254"))
    assert.equals(R, clean("\245"))
    assert.equals(R .. R, clean("\192\175")) -- C0 and C1 never start a character
    assert.equals(R .. R, clean("\193\191"))
  end)

  it("replaces a truncated sequence by one U+FFFD (its maximal subpart)", function()
    assert.equals(R, clean("\226\130"))                 -- E2 82, cut at the end
    assert.equals(R .. "A", clean("\226\130A"))          -- E2 82 then ASCII
    assert.equals(R, clean("\240\159\130"))             -- F0 9F 82, cut
    assert.equals(R .. "^[", clean("\240\159\27"))          -- cut by an ESC
    assert.equals(R, clean("\206"))                     -- half a Greek letter
    assert.equals("Δ" .. R, clean("Δ\206"))
  end)

  it("replaces overlong encodings, surrogates and code points above U+10FFFF", function()
    assert.equals(R .. R .. R, clean("\224\128\175"))      -- overlong '/'
    assert.equals(R .. R .. R .. R, clean("\240\128\128\175"))
    assert.equals(R .. R .. R, clean("\224\159\191"))      -- overlong U+07FF
    assert.equals(R .. R .. R, clean("\237\160\128"))      -- U+D800
    assert.equals(R .. R .. R, clean("\237\191\191"))      -- U+DFFF
    assert.equals("\237\159\191", clean("\237\159\191"))   -- U+D7FF is fine
    assert.equals(R .. R .. R .. R, clean("\244\144\128\128")) -- U+110000
    assert.equals("\239\191\191", clean("\239\191\191"))   -- U+FFFF is a character
  end)

  it("cleans long strings, and cleaning twice changes nothing more", function()
    local long = string.rep("Δ♠ab", 3000) .. "\27[2J" .. string.rep("x", 5000) .. "\226\128\174"
    local once = clean(long)
    assert.equals(string.rep("Δ♠ab", 3000) .. "^[[2J" .. string.rep("x", 5000) .. R, once)
    assert.equals(once, clean(once))
    local junk = {}
    for i = 0, 255 do junk[#junk + 1] = string.char(i, (i * 7) % 256, 0xE2, 0x80, i % 256) end
    once = clean(table.concat(junk))
    assert.equals(once, clean(once))
    assert.is_truthy(utf8.len(once))
    assert.is_nil(once:find("[%z\1-\8\11-\31\127]"))
  end)

  it("on random bytes: gives UTF-8 without controls, stays put when cleaned again, keeps clean text", function()
    local pool = { "\27", "\r", "\n", "\t", "a", "Δ", "♠", "\194\155", "\226\128\174", "\237\160\128",
      "\240\159\130\161", "\244\144\128\128", "\192", "\128", "\255", "\226\130", "\216\156" }
    local seed = 12345
    local function rand(n) -- (a fixed sequence, whatever math.random is seeded with)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n + 1
    end
    local function controls(t)
      return t:find("[%z\1-\8\11-\31\127]") or t:find("\194[\128-\159]") or t:find("\226\128[\142\143\170-\174]")
        or t:find("\226\129[\166-\169]") or t:find("\216\156", 1, true)
    end
    for _ = 1, 20000 do
      local parts = {}
      for j = 1, rand(12) do parts[j] = rand(2) == 1 and string.char(rand(256) - 1) or pool[rand(#pool)] end
      local s = table.concat(parts)
      local out = clean(s)
      assert(utf8.len(out) and not controls(out), s)
      assert(clean(out) == out, s)
      if utf8.len(s) and not controls(s) then assert(out == s, s) end
    end
  end)

  it("takes numbers as their text, and refuses what is not text", function()
    assert.equals("12", clean(12))
    assert.has_error(function() clean(nil) end)
    assert.has_error(function() clean({}) end)
  end)
end)
