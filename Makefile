# diloti: see README.md. `make play`, `make test`, `make bench`,
# `make SANITIZE=1 test` for ASan + UBSan.
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c99 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -pedantic
CPPFLAGS += -Isrc
# The version, kept in one place: the file VERSION. The program prints it
# (diloti --version), the module holds it (diloti.version), and install
# writes it into the man page.
VERSION := $(shell cat VERSION)
CPPFLAGS += -DDL_VERSION='"$(VERSION)"'
ifeq ($(SANITIZE),1)
  BUILD   := $(BUILD)-san
  CFLAGS  += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DDL_CHECK
  LDFLAGS += -fsanitize=address,undefined
endif
# Debug builds check every state transition (dl_check_state in dl_apply).
ifeq ($(DEBUG),1)
  BUILD   := $(BUILD)-debug
  CFLAGS  += -O0 -DDL_CHECK
endif
# An instrumented diloti.so inside the plain lua5.4 needs the sanitizer
# runtimes loaded first.
ifeq ($(SANITIZE),1)
  # Sanitized code runs ~10x slower: the random sweeps run a tenth as long
  # (make test keeps the full counts).
  TEST_ENV = DL_CROSSCHECK_N=10000 DL_SOAK_ROUNDS=1000 PL_CROSSCHECK_N=10000 PL_SOAK_ROUNDS=5000
  SAN_ENV = LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" ASAN_OPTIONS=detect_leaks=0
endif
# Test builds run dl_check_state() after every move (DL_CHECK).
TESTFLAGS = -DDL_CHECK

# Shared by every game: card text, the random generator, text helpers.
# Diloti's and Kontsina's core is src/diloti/ (no Lua).
DL_SRC = rules state deal score apply moves legal refuse notation position view game infer search
CORE_SRC = text cards rng $(DL_SRC:%=diloti/%)
CORE_HDR = $(wildcard src/*.h src/diloti/*.h)
CORE_OBJ = $(CORE_SRC:%=$(BUILD)/core/%.o)
# Pilotta's core (src/pilotta/) sits beside Diloti's and uses only its
# shared cards, rng and text helpers: libpilotta.a links after libdiloti.a.
PL_SRC = cards rules state deal auction decl play score check action refuse notation position view playout game solve estimate infer search
PL_HDR = $(wildcard src/pilotta/*.h) src/cards.h src/rng.h src/text.h
PL_TEST_LIB = $(wildcard tests/c/pilotta/*.c)
# The Lua binding and host (src/lua/, src/main.c) sit on top of the core.
# src/lua/ is the generic binding (the one game handle, boxes, text); each
# game of GAMES brings its operations for the handle in src/NAME/lua/, and
# $(BUILD)/games.c lists them (the first is the default game).
GAMES    = diloti pilotta
LUA_SRC  = box blocks hoststate boxlib boxcopy boxmoves ltext handle lpattern lmodule games
GAME_LUA_SRC = $(patsubst src/%.c,%,$(foreach g,$(GAMES),$(sort $(wildcard src/$(g)/lua/*.c))))
GAME_LUA_HDR = $(foreach g,$(GAMES),$(wildcard src/$(g)/lua/*.h))
LUA_OBJ  = $(LUA_SRC:%=$(BUILD)/lua/%.o) $(GAME_LUA_SRC:%=$(BUILD)/glua/%.o)
PIC_LUA_OBJ = $(LUA_SRC:%=$(BUILD)/pic/lua/%.o) $(GAME_LUA_SRC:%=$(BUILD)/pic/glua/%.o)
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LUA_LIBS   = $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4) -lm
# diloti serve (src/net/): libwebsockets for HTTP and WebSocket, SQLite for
# the rooms' records, threads for the rooms. Generic: it names no game.
NET_SRC    = $(patsubst src/net/%.c,%,$(sort $(wildcard src/net/*.c)))
NET_CFLAGS = $(shell pkg-config --cflags libwebsockets sqlite3 2>/dev/null)
NET_LIBS   = $(shell pkg-config --libs libwebsockets sqlite3 2>/dev/null || echo -lwebsockets -lsqlite3) -pthread
NET_OBJ    = $(NET_SRC:%=$(BUILD)/net/%.o)
PIC_NET_OBJ = $(NET_SRC:%=$(BUILD)/pic/net/%.o)
# Line editing (libedit, BSD licence) is for the host program only.
EDIT_CFLAGS = $(shell pkg-config --cflags libedit 2>/dev/null)
EDIT_LIBS   = $(shell pkg-config --libs libedit 2>/dev/null || echo -ledit)
# (a game's package lua/games/NAME/ holds its AIs in ai/ and its lessons in
# lessons/; its house rules are rules-variants/NAME/)
SCRIPTS  = $(sort $(wildcard lua/*.lua lua/*/*.lua lua/*/*/*.lua lua/*/*/*/*.lua)) $(sort $(wildcard rules-variants/*/*.lua))
TEST_SRC = $(wildcard tests/c/test_*.c)
TEST_BIN = $(TEST_SRC:tests/c/%.c=$(BUILD)/tests/%)
TEST_LIB = $(filter-out tests/c/test_%.c,$(wildcard tests/c/*.c))

DEB_PKGS = pkg-config liblua5.4-dev lua5.4 lua-argparse libedit-dev libcmocka-dev lua-busted lua-check tmux \
  libwebsockets-dev libsqlite3-dev

# Compilers run side by side once deps are in (JOBS=1 for one at a time).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# (unless make itself was given -j: its jobs are then shared with ours)
JOBS_FLAG = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(JOBS))

.PHONY: all build-all test-build play-build play serve demo test test-c test-lua lint bench deps clean golden install uninstall
all: deps
	@$(MAKE) --no-print-directory $(JOBS_FLAG) build-all

build-all: $(BUILD)/diloti $(BUILD)/diloti.so $(BUILD)/diloti-demo $(BUILD)/diloti-bench $(BUILD)/pilotta-bench $(BUILD)/pilotta-search-bench
	@:

$(BUILD)/core/%.o: src/%.c $(CORE_HDR) | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD):
	@mkdir -p $(BUILD)/tests

$(BUILD)/libdiloti.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/pilotta/%.o: src/pilotta/%.c $(PL_HDR) | $(BUILD)
	@mkdir -p $(BUILD)/pilotta
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/libpilotta.a: $(PL_SRC:%=$(BUILD)/pilotta/%.o)
	$(AR) rcs $@ $^

$(BUILD)/pilotta-bench: src/pilotta/bench.c $(BUILD)/libpilotta.a $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libpilotta.a $(BUILD)/libdiloti.a $(LDFLAGS) -lm -o $@

$(BUILD)/pilotta-search-bench: src/pilotta/searchbench.c $(BUILD)/libpilotta.a $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libpilotta.a $(BUILD)/libdiloti.a $(LDFLAGS) -lm -o $@

$(BUILD)/diloti-demo: src/diloti/demo.c $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libdiloti.a $(LDFLAGS) -lm -o $@

$(BUILD)/diloti-bench: src/diloti/bench.c $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libdiloti.a $(LDFLAGS) -lm -o $@

# ---- Lua layer: host program and loadable module ----
$(BUILD)/embed: tools/embed.c | $(BUILD)
	$(CC) -O1 $< -o $@

$(BUILD)/embedded.c: $(BUILD)/embed $(SCRIPTS)
	$(BUILD)/embed $@ $(SCRIPTS)

$(BUILD)/lua/%.o: src/lua/%.c $(wildcard src/lua/*.h) $(CORE_HDR) $(PL_HDR) | $(BUILD)
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(CFLAGS) -c $< -o $@

# A game's binding: src/NAME/lua/X.c
$(BUILD)/glua/%.o: src/%.c $(wildcard src/lua/*.h) $(GAME_LUA_HDR) $(CORE_HDR) $(PL_HDR) | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(CFLAGS) -c $< -o $@

# The games of this build, from GAMES (rewritten when the Makefile changes).
$(BUILD)/games.c: Makefile | $(BUILD)
	@{ echo '/* Made by the Makefile from GAMES: the games of this build, the default first. */'; \
	  echo '#include "gameops.h"'; \
	  for g in $(GAMES); do echo "extern const dl_GameOps dl_ops_$$g;"; done; \
	  printf 'const dl_GameOps *const dl_games[] = {'; \
	  for g in $(GAMES); do printf '&dl_ops_%s, ' $$g; done; echo 'NULL};'; } > $@

$(BUILD)/lua/games.o: $(BUILD)/games.c src/lua/gameops.h
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/lua/lmodule.o $(BUILD)/pic/lua/lmodule.o: VERSION

$(BUILD)/lua/embedded.o: $(BUILD)/embedded.c src/lua/embedded.h
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(CFLAGS) -c $< -o $@

$(BUILD)/lua/lline.o: src/lua/lline.c src/lua/lline.h | $(BUILD)
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(EDIT_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/net/%.o: src/net/%.c src/net/net.h $(wildcard src/lua/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/net
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(NET_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/diloti: src/main.c $(LUA_OBJ) $(NET_OBJ) $(BUILD)/lua/lline.o $(BUILD)/lua/embedded.o $(BUILD)/libpilotta.a $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(LUA_CFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(LUA_LIBS) $(EDIT_LIBS) $(NET_LIBS) -o $@

# The same module for a plain lua5.4: position-independent, and linked
# without liblua (the interpreter that loads it provides Lua).
$(BUILD)/pic/%.o: src/%.c $(CORE_HDR) | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/pilotta/%.o: src/pilotta/%.c $(PL_HDR) | $(BUILD)
	@mkdir -p $(BUILD)/pic/pilotta
	$(CC) $(CPPFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/lua/%.o: src/lua/%.c $(wildcard src/lua/*.h) $(CORE_HDR) $(PL_HDR) | $(BUILD)
	@mkdir -p $(BUILD)/pic/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/net/%.o: src/net/%.c src/net/net.h $(wildcard src/lua/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/pic/net
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(NET_CFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/lua/embedded.o: $(BUILD)/embedded.c src/lua/embedded.h
	@mkdir -p $(BUILD)/pic/lua
	$(CC) $(CPPFLAGS) -Isrc/lua -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/glua/%.o: src/%.c $(wildcard src/lua/*.h) $(GAME_LUA_HDR) $(CORE_HDR) $(PL_HDR) | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/lua/games.o: $(BUILD)/games.c src/lua/gameops.h
	@mkdir -p $(BUILD)/pic/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/diloti.so: $(CORE_SRC:%=$(BUILD)/pic/%.o) $(PL_SRC:%=$(BUILD)/pic/pilotta/%.o) $(PIC_LUA_OBJ) \
  $(PIC_NET_OBJ) $(BUILD)/pic/lua/embedded.o
	$(CC) -shared $^ $(LDFLAGS) $(NET_LIBS) -o $@

play: deps
	@$(MAKE) --no-print-directory $(JOBS_FLAG) play-build
	@$(BUILD)/diloti

play-build: $(BUILD)/diloti
	@:

# The online table on 127.0.0.1:8080 (docs/server.md); SERVE_ARGS for more.
serve: deps $(BUILD)/diloti
	@$(BUILD)/diloti serve --static web $(SERVE_ARGS)

demo: $(BUILD)/diloti-demo
	@$(BUILD)/diloti-demo

bench: deps $(BUILD)/diloti-bench $(BUILD)/diloti $(BUILD)/pilotta-bench $(BUILD)/pilotta-search-bench
	@$(BUILD)/diloti-bench
	@$(BUILD)/pilotta-bench
	@$(BUILD)/pilotta-search-bench
	@echo "through the Lua API (median of 5 runs each):"
	@for spec in diloti diloti+last-capture pilotta; do \
	  for i in 1 2 3 4 5; do $(BUILD)/diloti --rules $$spec bench --rounds 3000; done \
	    | sort -t: -k3 -n | sed -n 3p; \
	done
	@# issue 29: a house rule's moves hook against none, run by turns on one
	@# core (the same rounds as pilotta's above: a round's cost varies along a run)
	@sh tools/hook_ratio.sh $(BUILD)/diloti 5 3000
	@for i in 1 2 3 4 5; do $(BUILD)/diloti bench --ai random --rounds 300; done | sort -t: -k3 -n | sed -n 3p
	@for i in 1 2 3 4 5; do $(BUILD)/diloti --rules pilotta bench --ai random --rounds 300; done \
	  | sort -t: -k3 -n | sed -n 3p
	@for i in 1 2 3 4 5; do s=$$(date +%s%N); $(BUILD)/diloti moves --explain "$(CROWDED)" >/dev/null 2>&1; \
	  e=$$(date +%s%N); echo $$(( (e - s) / 1000000 )); done | sort -n | sed -n 3p | \
	  xargs printf "moves --explain on a crowded table (11,700 moves, a bounded list of them): median %s ms of 5 runs\n"
	@$(BUILD)/diloti run tools/calls.lua
	@sh tools/startup.sh $(BUILD)/diloti 11
	@# issue 24: the crowded table, the CLI on it, and two AIs that crowd it
	@$(BUILD)/diloti run tools/crowded_bench.lua
	@$(MAKE) --no-print-directory deps DEB_PKGS="time"
	@/usr/bin/time -f "diloti moves on the crowded table: %e s, peak %M KiB" $(BUILD)/diloti moves "$(CROWDED20)" \
	  2>&1 >/dev/null | tail -1
	@/usr/bin/time -f "lay-only self-play, 3 games: %e s, peak %M KiB" \
	  $(BUILD)/diloti --ai-dir tools/layer-ai match layer layer --games 3 2>&1 >/dev/null | tail -1
	@# issue 29: expert and master as they play at the table (tools/table_bench.lua)
	@$(BUILD)/diloti run tools/table_bench.lua
	@# issue 27: diloti serve (200 rooms of AIs, 50 of master AIs; tools/server_bench.lua)
	@$(BUILD)/diloti run tools/server_bench.lua 200 50

# A crowded table for the bench: 11,700 legal moves.
CROWDED = hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c 6c 7c 8c 9c Ad 2d 3d 4d 5d; pack=-
# Issue 24's: 1,621,901 legal moves.
CROWDED20 = hands=10h 9h 8h 7h 6h / 10s 9s 8s 7s 6s; table=Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h As 2s 3s 4s 5s; pack=-

# Missing Debian packages are installed when we are root, otherwise the
# exact command is printed: never a cryptic compiler error.
deps:
	@command -v dpkg-query >/dev/null || { echo "not a Debian system: make sure these are installed: $(DEB_PKGS)"; exit 0; }; \
	missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null || \
	      { echo "apt-get failed; run: sudo apt-get install$$missing"; exit 1; }; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

TEST_CFLAGS = $(CFLAGS) $(TESTFLAGS) $(shell pkg-config --cflags cmocka 2>/dev/null)
TEST_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka) -lm

$(BUILD)/test-core/%.o: src/%.c $(CORE_HDR) | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/libdiloti-test.a: $(CORE_SRC:%=$(BUILD)/test-core/%.o)
	$(AR) rcs $@ $^

$(BUILD)/test-core/pilotta/%.o: src/pilotta/%.c $(PL_HDR) | $(BUILD)
	@mkdir -p $(BUILD)/test-core/pilotta
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/libpilotta-test.a: $(PL_SRC:%=$(BUILD)/test-core/pilotta/%.o)
	$(AR) rcs $@ $^

# Pilotta's suites: their own helpers (tests/c/pilotta/), both cores.
$(BUILD)/tests/test_pilotta_%: tests/c/test_pilotta_%.c $(PL_TEST_LIB) $(wildcard tests/c/pilotta/*.h) \
  $(wildcard tests/fuzz/fuzz_pl*) $(BUILD)/libpilotta-test.a $(BUILD)/libdiloti-test.a
	$(CC) $(CPPFLAGS) -Itests/c $(TEST_CFLAGS) $< $(PL_TEST_LIB) $(BUILD)/libpilotta-test.a \
	  $(BUILD)/libdiloti-test.a $(LDFLAGS) $(TEST_LIBS) -o $@

$(BUILD)/tests/%: tests/c/%.c $(TEST_LIB) $(wildcard tests/c/*.h) $(BUILD)/libdiloti-test.a
	$(CC) $(CPPFLAGS) -Itests/c $(TEST_CFLAGS) $< $(TEST_LIB) $(BUILD)/libdiloti-test.a $(LDFLAGS) $(TEST_LIBS) -o $@

# A box's kept blocks (src/lua/blocks.c) stand alone: no Lua needed.
$(BUILD)/tests/test_blocks: tests/c/test_blocks.c src/lua/blocks.c src/lua/blocks.h | $(BUILD)
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) $< src/lua/blocks.c $(LDFLAGS) $(TEST_LIBS) -o $@

# test_pilotta_reentrant parses positions in two threads at once.
$(BUILD)/tests/test_pilotta_reentrant: LDFLAGS += -pthread

# test_oom fails the core's allocations one by one: its malloc, calloc
# and realloc are wrappers of its own.
$(BUILD)/tests/test_oom: LDFLAGS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# The fuzz corpora replay (tests/fuzz) runs the record and message
# targets, which need the Lua binding.
FUZZ_REPLAY_LUA = $(LUA_OBJ) $(BUILD)/lua/embedded.o
$(BUILD)/tests/test_fuzz_corpus: tests/c/test_fuzz_corpus.c $(wildcard tests/fuzz/*.c tests/fuzz/*.h) \
  $(TEST_LIB) $(wildcard tests/c/*.h) $(FUZZ_REPLAY_LUA) $(BUILD)/libpilotta-test.a $(BUILD)/libdiloti-test.a
	$(CC) $(CPPFLAGS) -Itests/c -Isrc/lua $(LUA_CFLAGS) $(TEST_CFLAGS) $< $(TEST_LIB) $(FUZZ_REPLAY_LUA) $(BUILD)/libpilotta-test.a \
	  $(BUILD)/libdiloti-test.a $(LDFLAGS) $(LUA_LIBS) $(TEST_LIBS) -o $@

# A WebSocket echo server for diloti.wsclient's spec (tests only).
$(BUILD)/tests/ws_echo: tests/net/echo.c | $(BUILD)
	$(CC) $(CPPFLAGS) $(NET_CFLAGS) $(CFLAGS) $< $(LDFLAGS) $(NET_LIBS) -o $@

# Clients in several threads' Lua states at once, against ws_echo.
$(BUILD)/tests/ws_threads: tests/net/threads.c $(BUILD)/net/client.o | $(BUILD)
	$(CC) $(CPPFLAGS) $(LUA_CFLAGS) $(NET_CFLAGS) $(CFLAGS) $< $(BUILD)/net/client.o $(LDFLAGS) $(LUA_LIBS) $(NET_LIBS) -o $@

test-c: deps $(TEST_BIN)
	@$(TEST_ENV) NO_LUA=1 sh tests/run.sh $(TEST_BIN)

# busted runs under lua5.4 and finds the module in $(BUILD).
test-lua: deps $(BUILD)/diloti $(BUILD)/diloti.so $(BUILD)/tests/ws_echo $(BUILD)/tests/ws_threads
	@DILOTI_BIN=$(BUILD)/diloti LUA_CPATH="$(BUILD)/?.so;;" lua5.4 /usr/bin/busted -o TAP tests/lua

# clang-tidy's checks are in .clang-tidy (each one left out says why). One
# file a run: clang-tidy 14's analyzer reports false va_list warnings when
# given several files at once.
TIDY_SRC = $(sort $(wildcard src/*.c src/diloti/*.c src/pilotta/*.c src/lua/*.c src/*/lua/*.c src/net/*.c tools/*.c))
lint: deps
	@$(MAKE) --no-print-directory deps DEB_PKGS="cppcheck clang-tidy"
	luacheck -q lua rules-variants tests/lua tests/games
	cppcheck --std=c99 --enable=warning,style,performance,portability --error-exitcode=1 -q \
	  -Isrc -Isrc/lua $(LUA_CFLAGS) --suppress=missingIncludeSystem --suppress=toomanyconfigs src tools
	@for f in $(TIDY_SRC); do echo "clang-tidy $$f"; \
	  clang-tidy --quiet $$f -- -std=c99 $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(EDIT_CFLAGS) $(NET_CFLAGS) || exit 1; done

# The browser suite (tests/browser, issue 28) drives Debian's chromium with
# playwright-core, pinned in tests/browser/package-lock.json: the browser
# comes from Debian like every other dependency, the driver from npm (npm
# ci again whenever the lockfile is newer than what node_modules holds).
# npm is its own Debian package beside Debian's nodejs (NodeSource's
# nodejs carries it).
BROWSER_DEB = chromium nodejs $(if $(shell command -v npm),,npm)
BROWSER_MODULES = tests/browser/node_modules/.installed
.PHONY: browser-deps test-browser
browser-deps: deps
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(BROWSER_DEB)"

$(BROWSER_MODULES): tests/browser/package-lock.json tests/browser/package.json | browser-deps
	cd tests/browser && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The browser suite alone (make test runs it beside the others).
test-browser: browser-deps $(BROWSER_MODULES) $(BUILD)/diloti
	@DILOTI_BIN=$(BUILD)/diloti node --test-reporter=tap tests/browser/suite.mjs

# One combined line at the end: "N passed, N failed". tests/install.sh
# installs into a temporary DESTDIR and uninstalls again.
test: deps browser-deps $(BROWSER_MODULES)
	@$(MAKE) --no-print-directory $(JOBS_FLAG) test-build
	@$(TEST_ENV) DILOTI_BIN=$(BUILD)/diloti LUA_CPATH="$(BUILD)/?.so;;" LUA_ENV='$(SAN_ENV)' BUILD=$(BUILD) sh tests/run.sh $(TEST_BIN) tests/install.sh

# What make test runs, built once deps are in (a missing package is then
# installed or named before any compiler runs), on every CPU.
test-build: $(TEST_BIN) $(BUILD)/diloti $(BUILD)/diloti.so $(BUILD)/tests/ws_echo $(BUILD)/tests/ws_threads
	@:

# ---- install / uninstall (PREFIX, DESTDIR) ----
# The module goes where lua5.4 looks for C modules under PREFIX (Lua's
# own default is PREFIX/lib/lua/5.4: /usr/local/lib/lua/5.4 is on
# package.cpath); Debian's multiarch directory (pkg-config's INSTALL_CMOD)
# is for its packages: set LUA_CMOD to use it.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LUA_CMOD ?= $(PREFIX)/lib/lua/5.4
DATADIR ?= $(PREFIX)/share/diloti
DOCDIR  ?= $(PREFIX)/share/doc/diloti
MANDIR  ?= $(PREFIX)/share/man
INSTALL ?= install
DOCS    = README.md $(sort $(wildcard docs/*.md))
# The browser's pages (diloti serve finds them in $(DATADIR)/web once installed).
WEB     = $(sort $(wildcard web/*.html web/css/*.css web/js/*.js web/js/*/*.js))
# Every file install writes, relative to DESTDIR (uninstall removes these).
INSTALLED = $(BINDIR)/diloti $(LUA_CMOD)/diloti.so $(MANDIR)/man6/diloti.6 \
  $(SCRIPTS:%=$(DATADIR)/%) $(WEB:%=$(DATADIR)/%) $(DOCS:%=$(DOCDIR)/%)
# Directories of our own, removed by uninstall when empty.
OWN_DIRS = $(DATADIR) $(DOCDIR)

# The man page names the folders it is installed with: its @WORDS@ are
# replaced here, at install time. `make $(BUILD)/diloti.6` writes it for the
# current PREFIX, to read before installing: man -l $(BUILD)/diloti.6
MAN_SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g' \
  -e 's|@LUA_CMOD@|$(LUA_CMOD)|g'

$(BUILD)/diloti.6: docs/diloti.6 VERSION | $(BUILD)
	$(MAN_SUBST) docs/diloti.6 > $@

install: $(BUILD)/diloti $(BUILD)/diloti.so
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LUA_CMOD) $(DESTDIR)$(MANDIR)/man6 \
	  $(addprefix $(DESTDIR)$(DATADIR)/,$(sort $(dir $(SCRIPTS) $(WEB)))) $(addprefix $(DESTDIR)$(DOCDIR)/,$(sort $(dir $(DOCS))))
	$(INSTALL) -m 755 $(BUILD)/diloti $(DESTDIR)$(BINDIR)/diloti
	$(INSTALL) -m 644 $(BUILD)/diloti.so $(DESTDIR)$(LUA_CMOD)/diloti.so
	$(MAN_SUBST) docs/diloti.6 > $(DESTDIR)$(MANDIR)/man6/diloti.6
	chmod 644 $(DESTDIR)$(MANDIR)/man6/diloti.6
	@for f in $(SCRIPTS) $(WEB); do echo "$(INSTALL) -m 644 $$f $(DESTDIR)$(DATADIR)/$$f"; \
	  $(INSTALL) -m 644 $$f $(DESTDIR)$(DATADIR)/$$f || exit 1; done
	@for f in $(DOCS); do echo "$(INSTALL) -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f"; \
	  $(INSTALL) -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	@for d in $(OWN_DIRS); do [ ! -d $(DESTDIR)$$d ] || find $(DESTDIR)$$d -depth -type d -empty -delete; \
	  [ ! -d $(DESTDIR)$$d ] || echo "kept $(DESTDIR)$$d: not empty"; done

# docs/rules.md is written from the lessons (tests/lua/learn_spec.lua checks it),
# docs/rules-reference.md from lua/table/rulebook.lua (tests/lua/rulebook_spec.lua), and
# the browser's /rules, web/rules.html, from the same entries (tests/lua/rules_page_spec.lua).
.PHONY: docs
docs: $(BUILD)/diloti
	$(BUILD)/diloti run tools/rules_doc.lua > docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md
	$(BUILD)/diloti run tools/rules_ref_doc.lua > docs/rules-reference.md.tmp \
	  && mv docs/rules-reference.md.tmp docs/rules-reference.md
	$(BUILD)/diloti run tools/rules_ref_doc.lua html > web/rules.html.tmp && mv web/rules.html.tmp web/rules.html

# Rewrites the move-count golden files from the current generator.
golden: $(BUILD)/tests/test_perft $(BUILD)/tests/test_pilotta_perft
	DL_GOLDEN_WRITE=1 $(BUILD)/tests/test_perft
	DL_GOLDEN_WRITE=1 $(BUILD)/tests/test_pilotta_perft

# ---- fuzzing: libFuzzer targets in tests/fuzz (clang only) ----
# make fuzz runs each target FUZZ_SECONDS; new inputs go to
# build-fuzz/corpus/TARGET, crashes to build-fuzz/crashes/TARGET (copy a
# fixed one to tests/fuzz/regress/TARGET). make fuzz-merge minimises the
# findings into the checked-in tests/fuzz/corpus/TARGET (an input for each
# code edge, not for each hit count: a few hundred files). The corpora are
# replayed by make test (tests/c/test_fuzz_corpus.c, any compiler).
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= position move play record message pl_position pl_action pl_play pl_search
FUZZ_OPTS    ?=
FUZZ_CFLAGS  = -O1 -g -std=c99 -Wall -Wextra -Werror -Wshadow -DDL_CHECK -fno-omit-frame-pointer \
  -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_BIN     = $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
.PHONY: fuzz fuzz-build fuzz-merge

$(FUZZ_BUILD)/core/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/lua/%.o: src/lua/%.c $(wildcard src/lua/*.h) $(CORE_HDR)
	@mkdir -p $(FUZZ_BUILD)/lua
	$(FUZZ_CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/lua/embedded.o: $(BUILD)/embedded.c src/lua/embedded.h
	@mkdir -p $(FUZZ_BUILD)/lua
	$(FUZZ_CC) $(CPPFLAGS) -Isrc/lua $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/lua/games.o: $(BUILD)/games.c src/lua/gameops.h
	@mkdir -p $(FUZZ_BUILD)/lua
	$(FUZZ_CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/glua/%.o: src/%.c $(wildcard src/lua/*.h) $(GAME_LUA_HDR) $(CORE_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/configs.o: tests/c/configs.c tests/c/configs.h
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/libfuzzcore.a: $(CORE_SRC:%=$(FUZZ_BUILD)/core/%.o) $(FUZZ_BUILD)/configs.o
	$(AR) rcs $@ $^

$(FUZZ_BUILD)/libfuzzlua.a: $(LUA_SRC:%=$(FUZZ_BUILD)/lua/%.o) $(GAME_LUA_SRC:%=$(FUZZ_BUILD)/glua/%.o) $(FUZZ_BUILD)/lua/embedded.o
	$(AR) rcs $@ $^

$(FUZZ_BUILD)/pilotta/%.o: src/pilotta/%.c $(PL_HDR)
	@mkdir -p $(FUZZ_BUILD)/pilotta
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/libfuzzpilotta.a: $(PL_SRC:%=$(FUZZ_BUILD)/pilotta/%.o)
	$(AR) rcs $@ $^

# Pilotta's targets need neither Lua nor Diloti's rules, only its shared helpers.
$(FUZZ_BUILD)/fuzz_pl_%: tests/fuzz/fuzz_pl_%.c tests/fuzz/fuzz_pl.h $(FUZZ_BUILD)/libfuzzpilotta.a $(FUZZ_BUILD)/libfuzzcore.a
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_BUILD)/libfuzzpilotta.a $(FUZZ_BUILD)/libfuzzcore.a -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_BUILD)/libfuzzlua.a $(FUZZ_BUILD)/libfuzzpilotta.a $(FUZZ_BUILD)/libfuzzcore.a
	$(FUZZ_CC) $(CPPFLAGS) -Itests/c -Isrc/lua $(LUA_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< \
	  $(FUZZ_BUILD)/libfuzzlua.a $(FUZZ_BUILD)/libfuzzpilotta.a $(FUZZ_BUILD)/libfuzzcore.a $(LUA_LIBS) -o $@

fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/crashes/$$t tests/fuzz/regress/$$t; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 -print_final_stats=1 \
	    $$([ -f tests/fuzz/$$t.dict ] && echo -dict=tests/fuzz/$$t.dict) -artifact_prefix=$(FUZZ_BUILD)/crashes/$$t/ $(FUZZ_OPTS) \
	    $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t tests/fuzz/regress/$$t || exit 1; \
	done

fuzz-merge: $(FUZZ_BIN)
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf $(FUZZ_BUILD)/merged/$$t; mkdir -p $(FUZZ_BUILD)/merged/$$t; \
	  $(FUZZ_BUILD)/fuzz_$$t -merge=1 -use_counters=0 -timeout=20 $(FUZZ_BUILD)/merged/$$t tests/fuzz/corpus/$$t \
	    $(FUZZ_BUILD)/corpus/$$t 2>&1 | tail -1 || exit 1; \
	  rm -f tests/fuzz/corpus/$$t/*; cp $(FUZZ_BUILD)/merged/$$t/* tests/fuzz/corpus/$$t/; \
	  echo "tests/fuzz/corpus/$$t: $$(ls tests/fuzz/corpus/$$t | wc -l) files, $$(du -sk tests/fuzz/corpus/$$t | cut -f1) KB"; \
	done

# ---- soak: a million random rounds under ASan + UBSan ----
# test_soak plays DL_SOAK_ROUNDS rounds in each of its SOAK_RUNS runs (every
# configuration of tests/c/configs.c with 2 players and 4 in teams, the
# Kontsina ones also with 3, and 4 without teams), so SOAK_ROUNDS is spread
# over them; the total actually played is summed from its output. make test
# keeps its shorter soak.
SOAK_ROUNDS ?= 1000000
SOAK_RUNS   = 42
.PHONY: soak valgrind coverage
soak:
	@$(MAKE) --no-print-directory SANITIZE=1 build-san/tests/test_soak
	@per=$$(( ($(SOAK_ROUNDS) + $(SOAK_RUNS) - 1) / $(SOAK_RUNS) )); start=$$(date +%s); \
	DL_SOAK_ROUNDS=$$per ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  build-san/tests/test_soak > build-san/soak.log 2>&1; rc=$$?; \
	grep -E '^  soak|PASSED|FAILED|ERROR' build-san/soak.log; \
	rounds=$$(sed -n 's/.*: \([0-9]*\) rounds,.*/\1/p' build-san/soak.log | awk '{s+=$$1} END {print s+0}'); \
	reports=$$(grep -c -E '^(==[0-9]+==ERROR|SUMMARY: (Address|Undefined|Leak))|runtime error' build-san/soak.log); \
	echo "soak: $$rounds rounds in $$(( $$(date +%s) - start )) s under ASan+UBSan, $$reports sanitizer reports (log: build-san/soak.log)"; \
	[ $$rc -eq 0 ] && [ $$reports -eq 0 ]

# ---- valgrind: every C test binary, with short sweeps ----
VALGRIND_ENV = DL_SOAK_ROUNDS=20 DL_CROSSCHECK_N=200 DL_FUZZ_MAX=25 PL_SOAK_ROUNDS=200 PL_CROSSCHECK_N=200
valgrind: $(TEST_BIN)
	@command -v valgrind >/dev/null || { echo "valgrind is missing: sudo apt-get install valgrind"; exit 1; }
	@bad=""; for t in $(TEST_BIN); do \
	  if $(VALGRIND_ENV) valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	      $$t > $(BUILD)/valgrind-$$(basename $$t).log 2>&1; then echo "valgrind clean: $$t"; \
	  else echo "valgrind FAILED: $$t (see $(BUILD)/valgrind-$$(basename $$t).log)"; bad="$$bad $$t"; fi; \
	done; [ -z "$$bad" ]

# ---- coverage of the C core (src/*.c) by the C tests, gcov + gcovr ----
COV_BUILD = build-cov
GCOVR_ARGS = --root . --filter 'src/(pilotta/)?[^/]*\.c$$' --exclude 'src/(main|demo|bench|pilotta/bench)\.c' --object-directory $(COV_BUILD) $(COV_BUILD)
coverage:
	@$(MAKE) --no-print-directory deps DEB_PKGS=gcovr
	@rm -rf $(COV_BUILD)
	@$(MAKE) --no-print-directory BUILD=$(COV_BUILD) OPT="-O0 --coverage" LDFLAGS=--coverage \
	  $(TEST_SRC:tests/c/%.c=$(COV_BUILD)/tests/%) >/dev/null
	@for t in $(TEST_SRC:tests/c/%.c=$(COV_BUILD)/tests/%); do DL_CROSSCHECK_N=20000 $$t >/dev/null 2>&1 || echo "failed: $$t"; done
	@gcovr $(GCOVR_ARGS) --txt $(COV_BUILD)/lines.txt --html-details $(COV_BUILD)/coverage.html \
	  --print-summary > $(COV_BUILD)/summary.txt
	@gcovr $(GCOVR_ARGS) --branches --txt $(COV_BUILD)/branches.txt
	@grep -E '^(lines|branches)' $(COV_BUILD)/summary.txt
	@echo "per file: $(COV_BUILD)/lines.txt, $(COV_BUILD)/branches.txt, $(COV_BUILD)/coverage.html"

clean:
	rm -rf build build-san build-debug build-san-debug build-fuzz build-cov
