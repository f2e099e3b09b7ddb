#!/bin/sh
# make install / make uninstall into a temporary DESTDIR: the installed
# program runs from another directory and prints the version of the file
# VERSION, the installed module loads in a plain lua5.4, the man page is
# there with the folders of its PREFIX written in (also for PREFIX=/usr,
# into a second temporary DESTDIR), and uninstall leaves nothing but
# empty directories (which are then removed too). Prints cmocka-style
# "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)." lines for
# tests/run.sh. Run from the top of the tree: sh tests/install.sh
# (BUILD=build by default; MAKE=make).
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
# LUA_ENV (from make test): what a plain lua5.4 needs to load this build's
# module (the sanitizer runtimes for SANITIZE=1).
lua() { eval "env ${LUA_ENV:-} lua5.4 \"\$@\""; }
top=$(pwd)
dest=$(mktemp -d /tmp/diloti-install.XXXXXX) || exit 1
away=$(mktemp -d /tmp/diloti-away.XXXXXX) || exit 1
dest_usr=$(mktemp -d /tmp/diloti-install-usr.XXXXXX) || exit 1
trap 'rm -rf "$dest" "$away" "$dest_usr"' EXIT INT TERM
version=$(cat "$top/VERSION")
prefix=/usr/local
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAILED: $1"; }
check() { # check NAME COMMAND...
  name=$1; shift
  if out=$("$@" 2>&1); then ok "$name"; else bad "$name"; printf '%s\n' "$out" | head -20; fi
}

finish() {
  [ "$passed" -gt 0 ] && echo "[  PASSED  ] $passed test(s)."
  [ "$failed" -gt 0 ] && echo "[  FAILED  ] $failed test(s)."
  [ "$failed" -eq 0 ]
  exit $?
}

# install (a quiet make; its output is shown when it fails)
if out=$($MAKE --no-print-directory -C "$top" BUILD="$BUILD" DESTDIR="$dest" PREFIX=$prefix install 2>&1); then
  ok "make install DESTDIR=... PREFIX=$prefix"
else
  bad "make install"; printf '%s\n' "$out" | tail -20; finish
fi

bin=$dest$prefix/bin/diloti
mod=$dest$prefix/lib/lua/5.4/diloti.so
check "the program is installed and executable" test -x "$bin"
check "the module is installed" test -f "$mod"
check "the man page is installed" test -f "$dest$prefix/share/man/man6/diloti.6"
check "the scripts are installed" test -f "$dest$prefix/share/diloti/lua/games/diloti/ai/master.lua" \
  -a -f "$dest$prefix/share/diloti/rules-variants/diloti/soy.lua" -a -f "$dest$prefix/share/diloti/lua/table/repl.lua"
check "the docs are installed" test -f "$dest$prefix/share/doc/diloti/README.md" \
  -a -f "$dest$prefix/share/doc/diloti/docs/notation.md"

# the module directory is one a plain lua5.4 searches under this prefix
cdir=$prefix/lib/lua/5.4
if lua5.4 -e "os.exit(package.cpath:find('$cdir/?.so', 1, true) and 0 or 1)"; then
  ok "lua5.4 searches $cdir"
else
  bad "lua5.4 does not search $cdir (package.cpath: $(lua5.4 -e 'print(package.cpath)'))"
fi

# the installed program from another directory, with no scripts around
rules_out=$(cd "$away" && XDG_CONFIG_HOME="$away/none" "$bin" rules 2>&1)
case $rules_out in
  *forced-capture*kontsina*) ok "diloti rules from another directory" ;;
  *) bad "diloti rules from another directory"; printf '%s\n' "$rules_out" | head ;;
esac
moves_out=$(cd "$away" && XDG_CONFIG_HOME="$away/none" "$bin" moves "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c" 2>&1)
case $moves_out in
  *"8h x 2c 3h 5s 6d 8c"*) ok "diloti moves POSITION from another directory" ;;
  *) bad "diloti moves POSITION from another directory"; printf '%s\n' "$moves_out" | head ;;
esac
version_out=$(cd "$away" && "$bin" --version 2>&1)
if [ "$version_out" = "diloti $version" ]; then ok "diloti --version says $version"
else bad "diloti --version: '$version_out', not 'diloti $version'"; fi
ai_out=$(cd "$away" && XDG_CONFIG_HOME="$away/none" "$bin" ai 2>&1)
case $ai_out in
  *master*) ok "diloti ai from another directory" ;;
  *) bad "diloti ai from another directory"; printf '%s\n' "$ai_out" | head ;;
esac

# the installed module in a plain lua5.4, from another directory
mod_out=$(cd "$away" && LUA_CPATH="$dest$cdir/?.so" lua -e '
  local d = require "diloti"
  local g = assert(d.new{ position = "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c" })
  assert(g:play("8h x 2c 3h 5s 6d 8c"))
  print("module ok", #g:moves())' 2>&1)
case $mod_out in
  "module ok"*1) ok "require \"diloti\" from the installed module" ;;
  *) bad "require \"diloti\" from the installed module"; printf '%s\n' "$mod_out" | head ;;
esac

# the man page names the folders it was installed with, and the version
# man_names PAGE PREFIX: every folder of PREFIX in the page, no other
# prefix's, no @WORD@ left unreplaced
man_names() {
  page=$1 pfx=$2
  for d in "$pfx/share/doc/diloti/" "$pfx/share/diloti/" "$pfx/lib/lua/5.4/diloti.so"; do
    grep -q -F "$d" "$page" || { echo "the man page does not name $d"; return 1; }
  done
  [ "$pfx" = /usr/local ] || ! grep -n -F /usr/local "$page" || { echo "the man page names /usr/local"; return 1; }
  ! grep -n '@[A-Z_]*@' "$page" || { echo "the man page has words left unreplaced"; return 1; }
  grep -q -F "\"diloti $version\"" "$page" || { echo "the man page does not give version $version"; return 1; }
}
check "the man page names the folders of PREFIX=$prefix and the version" \
  man_names "$dest$prefix/share/man/man6/diloti.6" $prefix

# the man page renders (only where man is installed; the build never needs it)
if command -v man >/dev/null 2>&1; then
  page=$(MANWIDTH=80 man -l "$dest$prefix/share/man/man6/diloti.6" 2>&1)
  case $page in
    *SYNOPSIS*ENVIRONMENT*EXAMPLES*) ok "the man page renders" ;;
    *) bad "the man page renders"; printf '%s\n' "$page" | head ;;
  esac
fi

# uninstall: nothing left but empty directories
if out=$($MAKE --no-print-directory -C "$top" BUILD="$BUILD" DESTDIR="$dest" PREFIX=$prefix uninstall 2>&1); then
  ok "make uninstall"
else
  bad "make uninstall"; printf '%s\n' "$out" | tail -20
fi
left=$(find "$dest" ! -type d)
if [ -z "$left" ]; then ok "uninstall removed every file"; else bad "uninstall left files:"; echo "$left"; fi
own=$(find "$dest" -type d \( -path "*/share/diloti*" -o -path "*/share/doc/diloti*" \))
if [ -z "$own" ]; then ok "uninstall removed diloti's own directories"; else bad "uninstall left:"; echo "$own"; fi
find "$dest" -mindepth 1 -depth -type d -empty -delete
if [ -z "$(find "$dest" -mindepth 1)" ]; then ok "only empty directories were left"; else bad "not empty"; fi

# PREFIX=/usr: the man page names /usr's folders, not /usr/local's
if out=$($MAKE --no-print-directory -C "$top" BUILD="$BUILD" DESTDIR="$dest_usr" PREFIX=/usr install 2>&1); then
  ok "make install DESTDIR=... PREFIX=/usr"
  check "the man page names the folders of PREFIX=/usr" man_names "$dest_usr/usr/share/man/man6/diloti.6" /usr
  $MAKE --no-print-directory -C "$top" BUILD="$BUILD" DESTDIR="$dest_usr" PREFIX=/usr uninstall >/dev/null 2>&1
  left=$(find "$dest_usr" ! -type d)
  if [ -z "$left" ]; then ok "uninstall PREFIX=/usr removed every file"; else bad "uninstall left files:"; echo "$left"; fi
else
  bad "make install PREFIX=/usr"; printf '%s\n' "$out" | tail -20
fi

finish
