-- luacheck configuration: Lua 5.4, 120 columns.
std = "lua54"
max_line_length = 120
files["tests/lua"] = { std = "+busted" }
