#!/bin/sh
# Runs the C test binaries given as arguments (cmocka), then the Lua specs
# (busted, TAP output) and the browser suite (node's TAP; not with NO_LUA or
# NO_BROWSER), and prints one combined line:
# "N passed, N failed". Exits non-zero if anything failed.
passed=0; failed=0; broken=""
# The specs that talk to a server of their own mostly wait on sockets:
# they run beside everything else (a second busted), not after it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$NO_LUA" ] && [ -d tests/lua ]; then
  net='/(server|attack27|attack28|attack_review2|remote_server|wsclient|rooms)_spec\.lua$'
  net_specs=$(ls tests/lua/*_spec.lua | grep -E "$net" | tr '\n' ' ')
  other_specs=$(ls tests/lua/*_spec.lua | grep -vE "$net")
  ( eval "env $LUA_ENV lua5.4 /usr/bin/busted -o TAP $net_specs" >"$tmp/net.tap" 2>&1; echo $? >"$tmp/net.rc" ) &
  net_pid=$!
fi
# The browser suite (tests/browser: chromium against a server of its own)
# waits on the browser and the server too: beside the rest as well. Its
# TAP (node's test runner) is counted like busted's; timeout bounds it.
if [ -z "$NO_BROWSER" ] && [ -z "$NO_LUA" ] && [ -f tests/browser/suite.mjs ]; then
  ( timeout -k 10 600 node --test-reporter=tap tests/browser/suite.mjs >"$tmp/browser.tap" 2>&1
    echo $? >"$tmp/browser.rc" ) &
  browser_pid=$!
fi
for t in "$@"; do
  out=$("$t" 2>&1); rc=$?
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + p)); failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); broken="$broken $t"; fi
done
lua_specs() { # $1: what for the report; the rest: busted's arguments
  what=$1; shift
  out=$(eval "env $LUA_ENV lua5.4 /usr/bin/busted -o TAP $*" 2>&1); rc=$?
  count "$what" "$out" $rc
}
count() { # $1: what, $2: busted's TAP output, $3: its exit status
  printf '%s\n' "$2"
  p=$(printf '%s\n' "$2" | grep -c '^ok ')
  f=$(printf '%s\n' "$2" | grep -c '^not ok ')
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); broken="$broken $1"; fi
}
if [ -z "$NO_LUA" ] && [ -d tests/lua ]; then
  lua_specs busted $other_specs
  wait $net_pid
  count "busted (the server's specs)" "$(cat "$tmp/net.tap")" "$(cat "$tmp/net.rc" 2>/dev/null || echo 1)"
fi
if [ -n "$browser_pid" ]; then
  wait $browser_pid
  count "the browser suite" "$(cat "$tmp/browser.tap")" "$(cat "$tmp/browser.rc" 2>/dev/null || echo 1)"
fi
[ -n "$broken" ] && echo "crashed or exited non-zero:$broken"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
