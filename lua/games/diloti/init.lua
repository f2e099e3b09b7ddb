-- Diloti and its cousin Kontsina (one engine, src/diloti/): the default
-- game. A plain descriptor (lua/registry.lua): the parts are required only
-- when asked.
return {
  name = "diloti", title = "Diloti", default = true,
  titles = { "Diloti", "Kontsina" },  -- (the games it brings, for the program's description)
  bases = { "diloti", "kontsina" },
  -- (the tables a lobby offers: an id, a title, the rules and players)
  tables = {
    { id = "diloti-2", title = "Diloti, 2 players", rules = "diloti", players = 2 },
    { id = "diloti-4", title = "Diloti, 4 players (partners)", rules = "diloti", players = 4 },
    { id = "kontsina-2", title = "Kontsina, 2 players", rules = "kontsina", players = 2 },
    { id = "kontsina-3", title = "Kontsina, 3 players", rules = "kontsina", players = 3 },
    -- (players named in the rules too: a house rule after it may ask, as teams does)
    { id = "kontsina-4", title = "Kontsina, 4 players", rules = "kontsina+players=4", players = 4 },
  },
  parts = {
    rules = "diloti.games.diloti.rules",          -- base rules, check, new handle, players
    board = "diloti.games.diloti.board",          -- terminal drawing
    input = "diloti.games.diloti.input",          -- the move reader's short forms
    table = "diloti.games.diloti.table",          -- what the terminal table asks of the game
    coach = "diloti.games.diloti.coach",          -- hint, why, explain, the coach's line
    advice = "diloti.games.diloti.advice",        -- hint reasons
    rulebook = "diloti.games.diloti.rulebook",    -- the entries D, K, C, V
    ai = "diloti.games.diloti.ai",                -- levels, ladder, fallback move
    ai_helpers = "diloti.games.diloti.ai_helpers", -- ctx helpers (also run in each AI box)
    record = "diloti.games.diloti.record",        -- round lines, statistics fields
  },
  -- ai_box: the file run in each AI's box before its script, returning
  -- the game's helpers (shared, own, bind: lua/ai/box_helpers.lua).
  ai_box = { file = "lua/games/diloti/ai_helpers.lua" },
  scripts = {
    ai = "lua/games/diloti/ai/", lessons = "lua/games/diloti/lessons/", variants = "rules-variants/diloti/",
  },
}
