#!/bin/sh
# Runs the C test binaries given as arguments (cmocka), then the Lua specs
# (busted, TAP output) unless NO_LUA is set, and prints one combined line:
# "N passed, N failed". Exits non-zero if anything failed.
passed=0; failed=0; broken=""
for t in "$@"; do
  out=$("$t" 2>&1); rc=$?
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + p)); failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); broken="$broken $t"; fi
done
if [ -z "$NO_LUA" ] && [ -d tests/lua ]; then
  out=$(eval "env $LUA_ENV lua5.4 /usr/bin/busted -o TAP tests/lua" 2>&1); rc=$?
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | grep -c '^ok ')
  f=$(printf '%s\n' "$out" | grep -c '^not ok ')
  passed=$((passed + p)); failed=$((failed + f))
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); broken="$broken busted"; fi
fi
[ -n "$broken" ] && echo "crashed or exited non-zero:$broken"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
