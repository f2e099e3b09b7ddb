-- The real diloti program at a real terminal: tmux runs it in a pane,
-- the test types as a person would and reads the screen. Skipped (with a
-- message) where tmux is missing; `make test` installs it on Debian.
local support = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "support.lua")

local function sh(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  local _, _, code = p:close()
  return out, code
end

local have_tmux = select(2, sh("command -v tmux >/dev/null")) == 0

local function sleep(s) sh("sleep " .. s) end

local Pane = {}
Pane.__index = Pane

local function start(args, env, width)
  local name = "diloti-e2e-" .. tostring(os.time()) .. "-" .. tostring(math.random(1e6))
  local parts = {}
  for k, v in pairs(env) do parts[#parts + 1] = k .. "=" .. support.q(v) end
  local bin = support.bin:match("^/") and support.bin or (sh("pwd"):gsub("%s+$", "") .. "/" .. support.bin)
  local cmd = table.concat(parts, " ") .. " " .. support.q(bin) .. " " .. args
  local _, code = sh(string.format("tmux -L %s new-session -d -s main -x %d -y 60 %s", name, width or 100,
    support.q(cmd)))
  assert(code == 0, "tmux did not start")
  return setmetatable({ name = name }, Pane)
end

function Pane:screen()
  return (sh(string.format("tmux -L %s capture-pane -p -t main -S -60", self.name)))
end

-- The screen with the lines the terminal wrapped joined again: the lines
-- the program wrote, so that one too wide for the pane shows.
function Pane:lines()
  local out = {}
  for l in sh(string.format("tmux -L %s capture-pane -p -J -t main -S -200", self.name)):gmatch("([^\n]*)\n") do
    out[#out + 1] = (l:gsub("%s+$", ""))
  end
  return out
end

function Pane:resize(width)
  sh(string.format("tmux -L %s resize-window -t main -x %d", self.name, width))
end

function Pane:keys(...)
  local ks = {}
  for _, k in ipairs { ... } do ks[#ks + 1] = support.q(k) end
  sh(string.format("tmux -L %s send-keys -t main %s", self.name, table.concat(ks, " ")))
end

function Pane:alive()
  return select(2, sh(string.format("tmux -L %s has-session -t main", self.name))) == 0
end

function Pane:kill() sh(string.format("tmux -L %s kill-server", self.name)) end

-- Waits until the screen satisfies pred (at most `secs`); returns it.
function Pane:wait(pred, secs)
  local deadline = os.time() + (secs or 10)
  local s
  repeat
    s = self:screen()
    if pred(s) then return s end
    sleep(0.05)
  until os.time() > deadline
  return s
end

local function at_prompt(s)
  local last = s:gsub("%s+$", ""):match("([^\n]*)$") or ""
  return last:match("diloti>$") ~= nil
end

local function shown(text) return function(s) return s:find(text, 1, true) ~= nil end end

describe("the diloti program at a terminal (tmux)", function()
  if not have_tmux then
    it("needs tmux (apt-get install tmux): skipped", function() end)
    return
  end

  local dir, pane
  before_each(function() dir = support.tmpdir() end)
  after_each(function()
    if pane then pane:kill() end
    support.rmdir(dir)
  end)

  local function env()
    -- (a person at a terminal, even when the suite runs under CI=true)
    return { XDG_CONFIG_HOME = dir .. "/config", XDG_STATE_HOME = dir .. "/state", LANG = "C.UTF-8",
      TERM = "xterm-256color", NO_COLOR = "1", CI = "" }
  end

  it("plays a whole match against random by typing moves, and leaves", function()
    pane = start("play --ai random --seed 17", env())
    local s = pane:wait(at_prompt)
    assert.matches("Your hand:", s)
    assert.matches("Table:", s)
    local moves, pauses = 0, 0
    -- Between rounds the table waits for Enter, so the breakdown can be read.
    local function pausing(x) return x:gsub("%s+$", ""):match("Press Enter to deal round %d+%.$") end
    while moves < 400 do
      s = pane:wait(function(x) return at_prompt(x) or pausing(x) or x:find("match is over", 1, true) end)
      if s:find("match is over", 1, true) then break end
      local before = s
      if pausing(s) then
        pauses = pauses + 1
        pane:keys("Enter")
      else
        assert.is_true(at_prompt(s), "no prompt on the screen:\n" .. s)
        pane:keys("1", "Enter")
        moves = moves + 1
      end
      -- The next screen: a new board and prompt, the pause, or the end.
      s = pane:wait(function(x)
        return x:find("match is over", 1, true)
          or (x ~= before and (pausing(x) or at_prompt(x)) and not x:match("diloti> 1%s*$"))
      end, 20)
    end
    assert.matches("match is over", s)
    assert.is_true(moves > 20)
    assert.is_true(pauses >= 1)
    pane:keys("quit", "Enter")
    pane:wait(function() return not pane:alive() end, 5)
    assert.is_false(pane:alive())
  end)

  it("reads suit symbols typed at the prompt in a UTF-8 locale (libedit needs setlocale)", function()
    pane = start("play --ai random --seed 3", env())
    pane:wait(at_prompt)
    pane:keys("why 2\u{2663} lay", "Enter")
    local s = pane:wait(shown("diloti> why 2\u{2663} lay"), 3)
    assert.matches("diloti> why 2\u{2663} lay", s, 1, true)
    s = pane:wait(function(x) return at_prompt(x) and x:find("why 2\u{2663} lay\n", 1, true) end, 3)
    assert.is_nil(s:find("not a move", 1, true), s)
  end)

  -- Every line the program wrote fits `width`; returns the widest.
  local function fits(p, width)
    local widest = 0
    for _, l in ipairs(p:lines()) do
      local w = utf8.len(l) or #l
      assert.is_true(w <= width, string.format("%d columns > %d: %q", w, width, l))
      widest = math.max(widest, w)
    end
    return widest
  end

  it("fits a 60-column terminal it asks the width of, lists in columns, and follows a resize (issue 15, "
    .. "item 12)", function()
    pane = start("play --ai random --seed 3 --players 4", env(), 60)
    pane:wait(at_prompt)
    fits(pane, 60)
    for _, cmd in ipairs{ "help", "ai", "rules" } do
      pane:keys(cmd, "Enter")
      local s = pane:wait(function(x) return at_prompt(x) and x:find("diloti> " .. cmd .. "\n", 1, true) end, 5)
      assert.truthy(s:find("diloti> " .. cmd .. "\n", 1, true), s)
      fits(pane, 60)
    end
    -- (the rules list: each description continues under its column)
    local s = pane:screen()
    assert.matches("\n  face%-card%-claim%-any%-deal  +As face%-card%-claim,[^\n]*\n                            %S", s)
    pane:resize(100)
    pane:keys("rules", "Enter")
    pane:wait(function(x) return at_prompt(x) and x:find("As face%-card%-claim, on any deal: a claim cancels") end, 5)
    assert.is_true(fits(pane, 100) > 60)
    pane:keys("quit", "Enter")
    pane:wait(shown("Save the unfinished game"), 5)
    pane:keys("Enter")
  end)

  it("runs 'diloti ai' and 'diloti rules' at a 60-column terminal's width (issue 15, item 12)", function()
    for _, cmd in ipairs{ "ai", "rules" } do
      pane = start(cmd .. "; echo done; sleep 20", env(), 60)
      pane:wait(shown("done"), 10)
      assert.is_true(#pane:lines() > 10)
      fits(pane, 60)
      pane:kill()
    end
    pane = nil
  end)

  it("asks to save on leaving in one line of an 80-column terminal", function()
    pane = start("play --ai random --seed 3", env(), 80)
    pane:wait(at_prompt)
    pane:keys("1", "Enter") -- (a game begun: one to save)
    pane:wait(shown("random (North)"), 5)
    pane:wait(at_prompt)
    pane:keys("quit", "Enter")
    local s = pane:wait(shown("Save the unfinished game"), 5)
    -- (the whole question on the one line: none of it wrapped to the next)
    assert.matches("Save the unfinished game%?[^\n]* without saving:", s)
    pane:keys("Enter")
    pane:wait(function() return not pane:alive() end, 5)
  end)

  it("completes with Tab, drops a line on Ctrl-C, and keeps the history", function()
    pane = start("play --ai random --seed 3", env())
    pane:wait(at_prompt)
    pane:keys("mov", "Tab")
    local s = pane:wait(shown("diloti> moves"), 3)
    assert.matches("diloti> moves", s)
    pane:keys("Enter")
    pane:wait(shown("1)"), 3)
    pane:keys("this is half a line", "C-c")
    s = pane:wait(shown("line dropped"), 3)
    assert.matches("line dropped", s)
    pane:keys("quit", "Enter")
    pane:wait(shown("Save the unfinished game"), 5)
    pane:keys("Enter")
    pane:wait(function() return not pane:alive() end, 5)
    assert.is_false(pane:alive())
    local hist = support.read(dir .. "/state/diloti/history")
    assert.matches("moves", hist)
  end)

  it("stops a runaway Lua loop on Ctrl-C and stays at the table", function()
    pane = start("play --ai random --seed 3", env())
    pane:wait(at_prompt)
    pane:keys("lua while true do end", "Enter")
    sleep(0.3)
    pane:keys("C-c")
    local s = pane:wait(shown("interrupted"), 5)
    assert.matches("interrupted", s)
    pane:keys("=g:turn()", "Enter")
    s = pane:wait(shown("\n0\n"), 3)
    assert.matches("\n0\n", s)
    pane:keys("C-d")
    pane:wait(shown("Save the unfinished game"), 5)
    pane:keys("Enter")
    pane:wait(function() return not pane:alive() end, 5)
    assert.is_false(pane:alive())
  end)
  it("says the computer is thinking, erases it before the board, keeps Ctrl-C, and not when piped (issue 25)",
    function()
      -- (DILOTI_THINKING_DELAY=0: the line shows at once, so that no
      -- timing decides the test; at a person's terminal it waits 0.3 s)
      local e = env()
      e.DILOTI_THINKING_DELAY = "0"
      pane = start("play --game pilotta --ai random --seed 3", e)
      pane:wait(at_prompt)
      local raw = dir .. "/raw"
      sh(string.format("tmux -L %s pipe-pane -o -t main %s", pane.name, support.q("cat >> " .. support.q(raw))))
      pane:keys("coach on", "Enter")
      pane:wait(shown("Coach on"), 5)
      pane:keys("1", "Enter")
      local s = pane:wait(function(x) return at_prompt(x) and x:find("diloti> 1\n", 1, true) end, 10)
      local out = support.read(raw) or ""
      assert.matches("Thinking %.", out)
      -- each thinking line is blanked out (carriage return, spaces, carriage
      -- return) before anything else is written
      local n = 0
      for dots, tail in out:gmatch("Thinking (%.+)(\r *\r?)") do
        n = n + 1
        assert.equals(#"Thinking " + #dots + 2, #tail, "not erased: " .. dots .. tail)
      end
      assert.is_true(n >= 1)
      assert.is_nil(s:find("Thinking", 1, true), "left on the screen:\n" .. s)
      -- Ctrl-C still stops a long computation, and the line goes with it
      pane:keys("lua while true do end", "Enter")
      pane:wait(shown("Thinking ."), 5)
      pane:keys("C-c")
      s = pane:wait(function(x) return x:find("interrupted", 1, true) and at_prompt(x) end, 5)
      assert.matches("interrupted", s)
      assert.is_nil(s:find("Thinking", 1, true), "left on the screen:\n" .. s)
      -- piped: never
      local piped = support.cli({ "play", "--game", "pilotta", "--ai", "random", "--seed", "3" },
        { DILOTI_THINKING_DELAY = "0" })
      assert.matches("Your hand:", piped)
      assert.is_nil(piped:find("Thinking", 1, true))
    end)

  it("plays Pilotta at a terminal: calls, a card by its name, a number, hint and score", function()
    pane = start("play --game pilotta --seed 7 --humans 1 --ai random", env())
    local s = pane:wait(at_prompt)
    assert.matches("pilotta, 4 players", s)
    assert.matches("Auction:", s)
    assert.matches("Your hand:", s)
    -- the auction: pass until the play starts (a call typed in words)
    local calls = 0
    local function pausing(x) return x:gsub("%s+$", ""):match("Press Enter to deal round %d+%.$") end
    while not s:find("Contract:", 1, true) and calls < 24 do
      local before = s
      -- (a round everybody passed is thrown in: Enter deals the next)
      if pausing(s) then pane:keys("Enter") else pane:keys("pass", "Enter") end
      calls = calls + 1
      s = pane:wait(function(x) return x ~= before and (at_prompt(x) or pausing(x)) end, 10)
    end
    assert.matches("Contract:", s)
    assert.matches("trumps:", s)
    -- a hint, then the hinted card typed by its name, then a card by number
    pane:keys("hint", "Enter")
    s = pane:wait(shown("Hint: "), 5)
    local card = s:match("Hint: ([^%s:]+)")
    assert.is_string(card)
    local n = #pane:lines()
    pane:keys(card, "Enter")
    s = pane:wait(function(x) return at_prompt(x) and #pane:lines() > n + 3 end, 10)
    assert.matches("You played", s)
    assert.is_nil(s:find("Refused", 1, true), s)
    pane:keys("1", "Enter")
    pane:keys("score", "Enter")
    s = pane:wait(shown("trick points"), 10)
    assert.matches("Round 1 so far", s)
    pane:keys("quit", "Enter")
    pane:wait(function(x) return x:find("Save the unfinished game", 1, true) end, 5)
    pane:keys("Enter")
    pane:wait(function() return not pane:alive() end, 5)
    assert.is_false(pane:alive())
  end)
end)
