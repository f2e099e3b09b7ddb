-- Pilotta, the Cypriot trick-taking game (engine src/pilotta/). A plain
-- descriptor (lua/registry.lua): the parts are required only when asked.
return {
  name = "pilotta", title = "Pilotta", default = false,
  bases = { "pilotta" },
  tables = { { id = "pilotta", title = "Pilotta, 4 players (partners)", rules = "pilotta", players = 4 } },
  -- (its house rules are catalogued as pilotta-NAME and written NAME after
  -- the base: pilotta+partner-exempt)
  rules_prefix = "pilotta-",
  parts = {
    rules = "diloti.games.pilotta.rules",
    table = "diloti.games.pilotta.table",         -- drawing and input at the terminal table
    coach = "diloti.games.pilotta.coach",
    bid = "diloti.games.pilotta.bid",             -- the auction's advice
    rulebook = "diloti.games.pilotta.rulebook",   -- the entries P, PV, PC, PE
    ai = "diloti.games.pilotta.ai",
    ai_helpers = "diloti.games.pilotta.ai_helpers",
    record = "diloti.games.pilotta.record",
  },
  ai_box = { file = "lua/games/pilotta/ai_helpers.lua" },
  scripts = {
    ai = "lua/games/pilotta/ai/", lessons = "lua/games/pilotta/lessons/", variants = "rules-variants/pilotta/",
  },
}
