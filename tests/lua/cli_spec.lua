-- The diloti program itself (DILOTI_BIN, default build/diloti): the
-- `moves` and `apply` commands on the worked examples of RULES.md (1-14),
-- `rules`, --help for every command, and errors with their exit codes.
-- Positions printed by `apply` hold the pack in full; the pack's order
-- depends on the seed, so comparisons leave it out.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local support = require "support"

local cli, lines, sorted, fields, lit = support.cli, support.lines, support.sorted, support.fields, support.lit
local without_pack = support.without_pack

--- `diloti [--rules R] moves POSITION`: the list of moves, stderr, exit code.
local function moves(position, rules)
  local args = {}
  if rules then args = { "--rules", rules } end
  args[#args + 1] = "moves"
  args[#args + 1] = position
  local out, err, code = cli(args)
  return lines(out), err, code
end

--- `diloti [--rules R] apply POSITION MOVE...`
local function apply(position, list, rules)
  local args = {}
  if rules then args = { "--rules", rules } end
  args[#args + 1] = "apply"
  args[#args + 1] = position
  for _, m in ipairs(list) do args[#args + 1] = m end
  return cli(args)
end

--- apply must succeed; returns the new position without its pack.
local function after(position, list, rules)
  local out, err, code = apply(position, list, rules)
  assert(code == 0, "apply failed (" .. tostring(code) .. "): " .. err)
  assert(err == "", "unexpected stderr: " .. err)
  local p = out:match("^([^\n]*)\n$")
  assert(p, "expected one line, got: " .. out)
  return without_pack(p), p
end

--- apply must refuse the last move (exit 1), naming the rule id.
local function refuses(position, list, rule, rules)
  local out, err, code = apply(position, list, rules)
  assert.equals(1, code)
  assert.equals("", out)
  local n = #list
  assert.matches("^diloti: move " .. n .. " '" .. lit(list[n]) .. "' refused: " .. lit(rule) .. ": ", err)
  return err
end

describe("the diloti program", function()
  it("is there to run", function()
    local f = io.open(support.bin, "r")
    assert(f, "no program at " .. support.bin .. " (set DILOTI_BIN)")
    f:close()
  end)

  describe("moves and apply on the worked examples of RULES.md", function()
    local EX1 = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c"

    it("example 1: lists every move, an 8 taking 8, 5+3 and 6+2 among them (D11)", function()
      local list, err, code = moves(EX1)
      assert.equals(0, code)
      assert.equals("", err)
      assert.same(sorted{
        "2d x 2c", "2d lay", "2d + 6d = 8", "2d + 3h 5s 6d = G8", "2d + 3h 5s 6d 8c = G8", "2d + 6d 8c = G8",
        "8h x 2c 6d", "8h x 2c 3h 5s 6d", "8h x 3h 5s", "8h x 3h 5s 8c", "8h x 2c 3h 5s 6d 8c", "8h x 2c 6d 8c",
        "8h x 8c", "8h lay",
      }, sorted(list))
    end)

    it("example 1: applies the three-part capture, a xeri since it is not the round's first card (D11, D21)",
      function()
        local want = "dealer=1; turn=1; round=1; deal=1; ply=2; hands=2d / 9c; table=-; "
          .. "piles=2c 3h 5s 6d 8c 8h / -; xeri=1 0; score=0 0; won=0 0; last=0"
        assert.equals(want, after(EX1, { "8h x 2c 3h 5s 6d 8c" }))
        assert.equals(want, after(EX1, { "8h x 8c, 5s+3h, 6d+2c" }))
        assert.equals(want, after(EX1, { "8H X 8♣ 6♦ 5♠ 3♥ 2♣" }))
      end)

    it("example 1: takes the 5+3 part alone", function()
      assert.equals("2c 6d 8c", fields(after(EX1, { "8h x 3h 5s" })).table)
    end)

    it("example 1: refuses parts that do not add up to 8, printing the rule id and exiting 1 (D11)", function()
      local err = refuses(EX1, { "8h x 6d 5s" }, "D11")
      assert.matches("parts each worth 8", err)
    end)

    it("refuses a card the player does not hold (D9)", function()
      refuses(EX1, { "9c lay" }, "D9")
    end)

    it("refuses text that is not a move, saying where", function()
      local _, err, code = apply(EX1, { "8h x" })
      assert.equals(1, code)
      assert.matches("refused: not a move: at ", err)
    end)

    local declarations = {
      { 2, "hands=3h 8d / 9c; table=5s", "3h + 5s = 8", "P8@0(3h+5s)" },
      { 3, "hands=6h 10d / 9c 2d; table=Ac 3s", "6h + Ac 3s = 10", "P10@0(Ac+3s+6h)" },
      { 4, "hands=5h 9c / 4s 7d; table=P4@1(Ac+3s)", "5h + P4@1 = 9", "P9@0(Ac+3s+5h)" },
      { 5, "hands=5h 5d / 9c; table=5s", "5h + 5s = G5", "G5@0(5h,5s)" },
      { 6, "hands=6h 6c / 9c; table=6s 4d 2h", "6h + 6s 4d 2h = G6", "G6@0(6h,2h+4d,6s)" },
      { 7, "hands=6h 8d / 9c 2d; table=8s 2h", "6h + 2h 8s = G8", "G8@0(2h+6h,8s)" },
    }
    for _, ex in ipairs(declarations) do
      it(string.format("example %d: lists and applies '%s' (D14-D17)", ex[1], ex[3]), function()
        local list = moves(ex[2])
        local canonical = ex[3] == "6h + 6s 4d 2h = G6" and "6h + 2h 4d 6s = G6" or ex[3]
        assert.is_true(support.has(list, canonical), canonical .. " not in: " .. table.concat(list, " | "))
        assert.equals(ex[4], fields(after(ex[2], { ex[3] })).table)
      end)
    end

    it("example 2: refuses the declaration without a card of its value left (D14)", function()
      refuses("hands=3h 7d / 9c; table=5s", { "3h + 5s = 8" }, "D14")
    end)

    it("example 4: reads the short reference @1", function()
      assert.equals("P9@0(Ac+3s+5h)", fields(after("hands=5h 9c / 4s 7d; table=P4@1(Ac+3s)", { "5h + @1 = 9" })).table)
    end)

    it("example 8: raises the opponent's plain 8 with an ace and groups it with the loose 9 (D17)", function()
      assert.equals("dealer=1; turn=1; round=1; deal=1; ply=2; hands=2c 9d / 3c 8h; table=G9@0(Ah+3s+5c,9s); "
        .. "piles=- / -; xeri=0 0; score=0 0; won=0 0; last=-",
        after("hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)", { "Ah + 9s P8@1 = G9" }))
    end)

    it("example 9: refuses a plain raise by a declarer (D19) but allows it inside their own group (C7)", function()
      local p = "turn=1; hands=2h 7d Kc / 4d 5h Qs 10s; table=Ac P7@0(3c+4s)"
      local err = refuses(p, { "4d + Ac = 5", "2h + P5@1 = 7" }, "D19")
      assert.matches("you own the plain declaration of 7:", err)
      assert.equals("dealer=1; turn=1; round=1; deal=1; ply=3; hands=7d Kc / 5h 10s Qs; "
        .. "table=G7@0(3c+4s,Ac+2h+4d); piles=- / -; xeri=0 0; score=0 0; won=0 0; last=-",
        after(p, { "4d + Ac = 5", "2h + P5@1 P7@0 = G7" }))
    end)

    it("example 10: refuses a declarer's lay (D19) and adds a 6 to their own plain 6 as a group", function()
      local p = "hands=6h 6d Kc / 9c 2d; table=Jh P6@0(2c+4s)"
      refuses(p, { "6h lay" }, "D19")
      assert.equals("Jh G6@0(2c+4s,6h)", fields(after(p, { "6h + P6@0 = G6" })).table)
    end)

    describe("example 11: the long sequence", function()
      local p = "hands=Ac 2s 7d 8h 8s Kd / 4h 6c Ah 9c 10s Kh; table=2c 3d 4s 8c"
      local plies = {
        { "Ac + 3d 4s 8c = G8", "2c G8@0(Ac+3d+4s,8c)" },
        { "4h + 2c = 6", "G8@0(Ac+3d+4s,8c) P6@1(2c+4h)" },
        { "2s + P6@1 G8@0 = G8", "G8@0(Ac+3d+4s,8c,2c+2s+4h)" },
        { "Ah lay", "Ah G8@0(Ac+3d+4s,8c,2c+2s+4h)" },
        { "7d + Ah G8@0 = G8", "G8@0(Ac+3d+4s,8c,2c+2s+4h,Ah+7d)" },
        { "9c lay", "9c G8@0(Ac+3d+4s,8c,2c+2s+4h,Ah+7d)" },
        { "8h + G8@0 = G8", "9c G8@0(Ac+3d+4s,8c,2c+2s+4h,Ah+7d,8h)" },
        { "10s lay", "9c 10s G8@0(Ac+3d+4s,8c,2c+2s+4h,Ah+7d,8h)" },
        { "8s x G8@0", "9c 10s" },
      }

      it("grows the group of 8s ply by ply (D17)", function()
        local list = {}
        for i, ply in ipairs(plies) do
          list[i] = ply[1]
          assert.equals(ply[2], fields(after(p, list)).table, "after ply " .. i)
        end
      end)

      it("leaves the owner only the capture of the group at ply 9 (D19)", function()
        local list = {}
        for i = 1, 8 do list[i] = plies[i][1] end
        local _, full = after(p, list)
        local m, err, code = moves(full)
        assert.equals(0, code, err)
        assert.same({ "8s x G8@0" }, m)
        list[9] = "Kd lay"
        refuses(p, list, "D19")
      end)

      it("ends with all ten cards in seat 0's pile", function()
        local list = {}
        for i, ply in ipairs(plies) do list[i] = ply[1] end
        assert.equals("dealer=1; turn=1; round=1; deal=1; ply=10; hands=Kd / 6c Kh; table=9c 10s; "
          .. "piles=Ac Ah 2c 2s 3d 4h 4s 7d 8c 8h 8s / -; xeri=0 0; score=0 0; won=0 0; last=0",
          after(p, list))
      end)
    end)

    it("example 12: leaves a declarer only the capture of the declaration (D19)", function()
      local p = "hands=2c 8d / 9c 4h 7s; table=5s 9h Jd P8@0(3c+5c)"
      assert.same({ "8d x P8@0" }, (moves(p)))
      refuses(p, { "2c lay" }, "D19")
    end)

    it("example 12: refuses laying a J onto a J (D10), and the last card's capture is a xeri (D21, D22)",
      function()
        local p = "hands=Jc / 10h; table=10s Jd; deal=4; ply=46; pack=-"
        refuses(p, { "Jc lay" }, "D10")
        -- The 44 unplaced cards go to the piles as seed 1 deals them (docs/notation.md §6).
        local out, err, code = cli{ "--seed", "1", "apply", p, "Jc x Jd", "10h x 10s" }
        assert.equals(0, code, err)
        assert.equals("dealer=1; turn=1; round=1; deal=4; ply=48; phase=round-over; hands=- / -; table=-; "
          .. "piles=As 2c 2d 2h 2s 3c 3h 4d 4h 4s 5d 5h 5s 6d 6h 6s 7c 8d 9c 10d Jc Jd Jh Qc Kc Kd / "
          .. "Ac Ad Ah 3d 3s 4c 5c 6c 7d 7h 7s 8c 8h 8s 9d 9h 9s 10c 10h 10s Js Qd Qh Qs Kh Ks; "
          .. "xeri=0 1; score=4 13; won=0 1; last=1; pack=-\n", out)
        local m = moves(out:sub(1, -2))
        assert.same({ "(no moves: round-over)" }, m)
      end)

    it("example 12: once the 3 is taken from 3, 5, 7 no card sweeps the 5 and 7 (no 12, D3, D21)", function()
      local _, full = after("hands=3h Kd / 5h 7h 2c 10c; table=3c 5d 7s", { "3h x 3c" })
      local list, err, code = moves(full)
      assert.equals(0, code, err)
      assert.is_true(#list > 0)
      for _, m in ipairs(list) do
        assert.is_nil(m:find(" x 5d 7s", 1, true), m)
      end
      assert.is_true(support.has(list, "5h x 5d"))
      assert.is_true(support.has(list, "7h x 7s"))
    end)

    it("example 13: refuses a 10 on a group of 9s and an ace (D18), takes the group with a 9 and 4+5", function()
      refuses("hands=10c 9d / 9c 4h; table=Ah G9@1(9s,4c+5c)", { "10c x Ah G9@1" }, "D18")
      assert.equals("dealer=1; turn=1; round=1; deal=1; ply=2; hands=10c / 2h 7s 9c; table=-; "
        .. "piles=4c 4h 5c 5h 9d 9s / -; xeri=1 0; score=0 0; won=0 0; last=0",
        after("hands=10c 9d / 9c 2h 7s; table=4h 5h G9@1(9s,4c+5c)", { "9d x 4h 5h G9@1" }))
    end)

    it("example 14: under forced capture lists only the maximal captures and refuses the rest (C1)", function()
      local p = "hands=9c 2d / 3h; table=Ac 3s 4d 5h 9s"
      local list, err, code = moves(p, "diloti+forced-capture")
      assert.equals(0, code, err)
      assert.same(sorted{ "2d lay", "2d + 3s 4d = 9", "2d + 3s 4d 9s = G9", "9c x Ac 3s 5h 9s", "9c x 4d 5h 9s" },
        sorted(list))
      refuses(p, { "9c x Ac 3s 5h" }, "V-forced-capture", "diloti+forced-capture")
      refuses(p, { "9c x 9s" }, "V-forced-capture", "diloti+forced-capture")
      refuses(p, { "9c lay" }, "V-forced-capture", "diloti+forced-capture")
      assert.equals("4d 9s", fields(after(p, { "9c x Ac 3s 5h" })).table) -- allowed without the variant
    end)

    it("Kontsina: one combination per capture, no declarations (K2)", function()
      local p = "hands=8h 2d Kc Qs / 9c 7d 3c 4h; table=8c 6d 5s 3h"
      local list = moves(p, "kontsina")
      assert.same(sorted{ "2d lay", "8h x 3h 5s", "8h x 8c", "8h lay", "Qs lay", "Kc lay" }, sorted(list))
      refuses(p, { "8h x 3h 5s 8c" }, "K2", "kontsina")
      refuses(p, { "2d + 6d = 8" }, "K2", "kontsina")
    end)

    it("four players: refuses raising a partner's declaration (C9), an opponent may (D16)", function()
      local p = "dealer=3; hands=5h 9c / 5d 9d / 4h 4c / 2h 6h; table=8c Kd P4@2(Ac+3s)"
      refuses(p, { "5h + P4@2 = 9" }, "D16", "players=4")
      assert.equals("dealer=3; turn=2; round=1; deal=1; ply=3; hands=5h / 9d / 4c 4h / 2h 6h; "
        .. "table=8c 9c Kd P9@1(Ac+3s+5d); piles=- / -; xeri=0 0; score=0 0; won=0 0; last=-",
        after(p, { "9c lay", "5d + P4@2 = 9" }, "players=4"))
    end)
  end)

  describe("moves --explain", function()
    it("says what each move does, naming rules", function()
      local out, err, code = cli{ "moves", "--explain", "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c" }
      assert.equals(0, code, err)
      local l = lines(out)
      assert.equals(14, #l)
      for _, line in ipairs(l) do assert.matches("%(D%d+", line) end
      local text = table.concat(l, "\n")
      assert.matches("2d %+ 6d = 8%s+declare 8", text)
      assert.matches("8h lay%s+lay 8h on the table %(D10%)", text)
    end)
  end)

  describe("positions and seeds", function()
    it("refuses a bad position with the parser's message and exit 1", function()
      local out, err, code = cli{ "moves", "hands=8h 2d / 9c; table=8h" }
      assert.equals(1, code)
      assert.equals("", out)
      assert.equals("diloti: position, at 25: 8h is placed twice\n", err)
    end)

    it("fills unplaced cards the same way for the same --seed", function()
      local p = "hands=8h 2d / 9c; table=8c"
      local a = cli{ "--seed", "5", "apply", p, "2d lay" }
      local b = cli{ "--seed", "5", "apply", p, "2d lay" }
      local c = cli{ "--seed", "6", "apply", p, "2d lay" }
      assert.equals(a, b)
      assert.are_not.equal(a, c)
      assert.equals(without_pack(a), without_pack(c))
    end)

    it("reads back the position apply prints", function()
      local out = cli{ "apply", "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c", "2d lay" }
      local again = cli{ "apply", out:sub(1, -2), "9c lay" }
      assert.matches("ply=3;", again)
      assert.matches("turn=0;", again)
    end)
  end)

  describe("rules", function()
    local names = {
      "dealer-peeks", "diloti", "face-card-claim", "face-card-claim-any-deal", "forced-capture", "kontsina",
      "last-capture", "liberal-capture", "liberal-group", "liberal-raise", "no-xeri-last-card", "players",
      "points", "redeal-any-triple", "rounds", "seed001", "soy", "target", "teams", "three-face-cards",
      "xeri-first-card",
    }

    it("lists every built-in variant with its description, base games marked", function()
      local out, err, code = cli{ "rules" }
      assert.equals(0, code)
      assert.equals("", err)
      for _, n in ipairs(names) do assert.matches("\n?" .. lit(n) .. "[=%s]", out) end
      assert.matches("diloti%s+%[base%] Diloti", out)
      assert.matches("kontsina%s+%[base%] Kontsina", out)
      assert.matches("target=N%s+Play the match to N points", out)
      assert.matches("combine with '%+'", out)
    end)

    it("explains one variant: rule id, description, requirements, conflicts, value and file", function()
      local out, _, code = cli{ "rules", "seed001" }
      assert.equals(0, code)
      assert.matches("^seed001  %(V%-seed001%)\n", out)
      assert.matches("requires: diloti", out)
      assert.matches("conflicts with: redeal%-any%-triple", out)
      assert.matches("clockwise = true", out)
      assert.matches("from: rules%-variants/diloti/seed001%.lua", out)
      out = cli{ "rules", "target" }
      assert.matches("value: target=N %(default 121%)", out)
      out = cli{ "rules", "last-capture" }
      assert.matches("hooks: score", out)
      out = cli{ "rules", "kontsina" }
      assert.matches("%[base game%]", out)
      assert.matches("capture = one", out)
    end)

    it("follows COLUMNS: each description wrapped in its column, names whole (issue 15, item 12)", function()
      for _, cmd in ipairs{ "rules", "ai" } do
        for _, width in ipairs{ 40, 60 } do
          local out, _, code = cli({ cmd }, { COLUMNS = tostring(width) })
          assert.equals(0, code)
          local col
          for line in out:gmatch("[^\n]+") do
            assert.is_true(utf8.len(line) <= width, string.format("%s at %d: %q", cmd, width, line))
            local first = line:match("^(%S+)  +%S")
            if first then
              local at = #first + line:sub(#first + 1):find("%S")
              col = col or at
              assert.equals(col, at, line)
            end
          end
          assert.is_number(col, out)
          for _, n in ipairs(cmd == "rules" and names or { "random", "greedy", "master" }) do
            assert.matches("\n?" .. lit(n) .. "[=%s]", out)
          end
        end
      end
      -- Without a terminal or COLUMNS: one line each, for grep.
      local out = cli{ "rules" }
      assert.matches("\nface%-card%-claim%-any%-deal +As face%-card%-claim, on any deal: a claim cancels the round, "
        .. "captures and all\n", out)
    end)

    it("refuses an unknown name with exit 1 and the valid names", function()
      local out, err, code = cli{ "rules", "colour" }
      assert.equals(1, code)
      assert.equals("", out)
      assert.matches("^diloti: unknown variant 'colour'; valid names: dealer%-peeks, diloti", err)
    end)
  end)

  describe("--rules", function()
    it("refuses an unknown variant with exit 1 and the valid names", function()
      local out, err, code = cli{ "--rules", "diloti+colour", "moves", "hands=8h / 9c; table=8c" }
      assert.equals(1, code)
      assert.equals("", out)
      assert.matches("unknown variant 'colour'; valid names:", err)
    end)

    it("refuses conflicting variants with exit 1", function()
      local _, err, code = cli{ "--rules", "seed001+redeal-any-triple", "moves", "hands=8h / 9c; table=8c" }
      assert.equals(1, code)
      assert.matches("'seed001' conflicts with 'redeal%-any%-triple'", err)
    end)

    it("refuses a missing requirement and a bad value with exit 1", function()
      local _, err, code = cli{ "--rules", "points", "moves", "hands=8h / 9c; table=8c" }
      assert.equals(1, code)
      assert.matches("'points' requires 'kontsina'", err)
      _, err, code = cli{ "--rules", "target=lots", "moves", "hands=8h / 9c; table=8c" }
      assert.equals(1, code)
      assert.matches("whole number", err)
    end)
  end)

  describe("--rules-dir", function()
    local dir

    lazy_setup(function()
      dir = support.tmpdir()
      support.write(dir .. "/good.lua",
        "return { name = 'good', description = 'A good house rule', rules = { forced_capture = true } }\n")
      support.write(dir .. "/syntax.lua", "return {\n  name = 'syntax',\n  description = 'x'\n  rules = {},\n}\n")
      support.write(dir .. "/runtime.lua", "local x\nreturn { name = 'runtime', description = x.y }\n")
      support.write(dir .. "/looper.lua", "while true do end\n")
      support.write(dir .. "/bytecode.lua", string.dump(function() return {} end))
    end)

    lazy_teardown(function() support.rmdir(dir) end)

    it("lists a user's variant beside the built-in ones", function()
      local out, _, code = cli{ "--rules-dir", dir, "rules" }
      assert.equals(0, code)
      assert.matches("good%s+A good house rule", out)
      assert.matches("forced%-capture", out)
    end)

    it("plays a user's variant", function()
      local p = "hands=9c 2d / 3h; table=Ac 3s 4d 5h 9s"
      local list, err, code = moves(p, nil)
      assert.equals(0, code, err)
      assert.is_true(support.has(list, "9c lay"))
      local out
      out, err, code = cli{ "--rules-dir", dir, "--rules", "diloti+good", "moves", p }
      assert.equals(0, code, err)
      assert.is_false(support.has(lines(out), "9c lay"))
    end)

    it("reports each refused script on stderr with its file, line and reason", function()
      local _, err, code = cli{ "--rules-dir", dir, "rules" }
      assert.equals(0, code)
      assert.matches(lit(dir .. "/syntax.lua:4:") .. " '}' expected", err)
      assert.matches(lit(dir .. "/runtime.lua:2:") .. " attempt to index a nil value", err)
    end)

    it("says why when a refused script is named in --rules, with exit 1", function()
      local out, err, code = cli{ "--rules-dir", dir, "--rules", "diloti+syntax", "moves", "hands=8h / 9c; table=8c" }
      assert.equals(1, code)
      assert.equals("", out)
      assert.matches("refused", err)
      assert.matches(lit(dir .. "/syntax.lua:4:"), err)
    end)

    it("names the file of a script stopped by the instruction budget", function()
      local _, err = cli{ "--rules-dir", dir, "rules" }
      assert.matches("instruction budget", err)
      assert.matches(lit(dir .. "/looper.lua"), err)
    end)

    it("names the file of a compiled script refused as bytecode", function()
      local _, err = cli{ "--rules-dir", dir, "rules" }
      assert.matches("binary chunk", err)
      assert.matches(lit(dir .. "/bytecode.lua"), err)
    end)

    it("names a folder it cannot read", function()
      local missing = dir .. "/no-such-folder"
      local _, err = cli{ "--rules-dir", missing, "rules" }
      assert.matches("cannot read", err)
      assert.matches(lit(missing), err)
    end)
  end)

  describe("the user's folder", function()
    it("reads variants from $XDG_CONFIG_HOME/diloti/rules-variants and says so in --help", function()
      local home = support.tmpdir()
      os.execute("mkdir -p " .. support.q(home .. "/diloti/rules-variants"))
      support.write(home .. "/diloti/rules-variants/mine.lua",
        "return { name = 'mine', description = 'My own house rule', rules = { soy = true } }\n")
      local out, _, code = cli({ "rules" }, { XDG_CONFIG_HOME = home })
      local help = cli({ "--help" }, { XDG_CONFIG_HOME = home })
      support.rmdir(home)
      assert.equals(0, code)
      assert.matches("mine%s+My own house rule", out)
      assert.matches(lit(home .. "/diloti/{rules-variants,ai}"), help)
    end)
  end)

  describe("help and usage", function()
    it("prints the commands for --help and exits 0", function()
      local out, _, code = cli{ "--help" }
      assert.equals(0, code)
      assert.matches("^Usage: diloti", out)
      for _, c in ipairs{ "play", "moves", "apply", "rules", "run", "bench" } do
        assert.matches("\n%s+" .. c .. "%s", out)
      end
    end)

    for _, c in ipairs{ "play", "moves", "apply", "rules", "run", "bench" } do
      it("prints the usage of '" .. c .. "' for '" .. c .. " --help' and exits 0", function()
        local out, _, code = cli{ c, "--help" }
        assert.equals(0, code)
        assert.matches("^Usage: diloti " .. c, out)
      end)
    end

    it("refuses an unknown command with the usage and exit 2", function()
      local out, err, code = cli{ "deal" }
      assert.equals(2, code)
      assert.equals("", out)
      assert.matches("^Usage: diloti", err)
      assert.matches("unknown command 'deal'", err)
    end)

    it("refuses a missing position with exit 2", function()
      local _, err, code = cli{ "moves" }
      assert.equals(2, code)
      assert.matches("missing argument 'position'", err)
      _, err, code = cli{ "apply", "hands=8h / 9c" }
      assert.equals(2, code)
      assert.matches("missing argument 'move'", err)
    end)
  end)

  describe("run and bench", function()
    it("runs a script with the module loaded, passing its arguments and exit code", function()
      local dir = support.tmpdir()
      local script = support.write(dir .. "/s.lua", [[
local diloti = require "diloti"
local g = assert(diloti.new{ position = "hands=8h 2d / 9c; table=8c" })
print(#g:moves(), ...)
return 3
]])
      local out, err, code = cli{ "run", script, "a", "b" }
      support.rmdir(dir)
      assert.equals(3, code, err)
      assert.equals("3\ta\tb\n", out)
    end)

    it("has line.width(): nil when the output is not a terminal (the table then reads COLUMNS)", function()
      local dir = support.tmpdir()
      local script = support.write(dir .. "/s.lua", "print(type(require('diloti.line').width), "
        .. "require('diloti.line').width())\n")
      local out, err, code = cli({ "run", script }, { COLUMNS = "60" })
      support.rmdir(dir)
      assert.equals(0, code, err)
      assert.equals("function\tnil\n", out)
    end)

    it("reports a failing script with exit 1", function()
      local dir = support.tmpdir()
      local script = support.write(dir .. "/s.lua", "error('broken script')\n")
      local _, err, code = cli{ "run", script }
      support.rmdir(dir)
      assert.equals(1, code)
      assert.matches("broken script", err)
    end)

    it("benchmarks random play through the Lua API", function()
      local out, err, code = cli{ "--seed", "1", "bench", "--rounds", "5" }
      assert.equals(0, code, err)
      assert.matches("5 rounds through the Lua API", out)
      assert.matches("rounds/s", out)
    end)
  end)

  describe("join and watch", function()
    local id = string.rep("ab", 32)
    it("refuse a malformed link with what is wrong, exit status 1", function()
      local _, err, code = cli { "join", "http://ann@127.0.0.1:9/play#" .. id .. ":" .. id }
      assert.equal(1, code)
      assert.matches("not a room's link: a link carries no user name", err, 1, true)
      _, err, code = cli { "watch", "http://127.0.0.1:9/watch#" .. id .. ":123" }
      assert.equal(1, code)
      assert.matches("the token must be 64 hex digits", err, 1, true)
    end)
    it("join plays a seat's link only, watch a watch link only", function()
      local _, err, code = cli { "join", "http://127.0.0.1:9/watch#" .. id .. ":" .. id }
      assert.equal(1, code)
      assert.matches("that is a watch link: 'diloti watch LINK'", err, 1, true)
      _, err, code = cli { "watch", "http://127.0.0.1:9/play#" .. id .. ":" .. id }
      assert.equal(1, code)
      assert.matches("that is a seat's link", err, 1, true)
    end)
    it("say so when nothing answers at the link's address", function()
      local _, err, code = cli { "join", "http://127.0.0.1:1/play#" .. id .. ":" .. id }
      assert.equal(1, code)
      assert.matches("^diloti: ", err)
      assert.is_truthy(err:find("cannot connect", 1, true) or err:find("WebSocket client", 1, true), err)
    end)
  end)
end)
