# diloti: see README.md. `make play`, `make test`, `make bench`,
# `make SANITIZE=1 test` for ASan + UBSan.
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c99 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -pedantic
CPPFLAGS += -Isrc
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
  TEST_ENV = DL_CROSSCHECK_N=10000 DL_SOAK_ROUNDS=1000
  SAN_ENV = LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" ASAN_OPTIONS=detect_leaks=0
endif
# Test builds run dl_check_state() after every move (DL_CHECK).
TESTFLAGS = -DDL_CHECK

CORE_SRC = text cards rules rng state deal score apply moves refuse notation position view game search
CORE_OBJ = $(CORE_SRC:%=$(BUILD)/%.o)
# The Lua binding and host (src/lua/, src/main.c) sit on top of the core.
LUA_SRC  = sandbox lrules lgame lview lmodule
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LUA_LIBS   = $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4) -lm
# Line editing (libedit, BSD licence) is for the host program only.
EDIT_CFLAGS = $(shell pkg-config --cflags libedit 2>/dev/null)
EDIT_LIBS   = $(shell pkg-config --libs libedit 2>/dev/null || echo -ledit)
SCRIPTS  = $(sort $(wildcard lua/*.lua)) $(sort $(wildcard lua/ai/*.lua)) $(sort $(wildcard lua/lessons/*.lua)) $(sort $(wildcard rules-variants/*.lua))
TEST_SRC = $(wildcard tests/c/test_*.c)
TEST_BIN = $(TEST_SRC:tests/c/%.c=$(BUILD)/tests/%)
TEST_LIB = $(filter-out tests/c/test_%.c,$(wildcard tests/c/*.c))

DEB_PKGS = pkg-config liblua5.4-dev lua5.4 lua-argparse libedit-dev libcmocka-dev lua-busted lua-check tmux

.PHONY: all build-all play demo test test-c test-lua lint bench deps clean golden install uninstall
all: deps
	@$(MAKE) --no-print-directory build-all

build-all: $(BUILD)/diloti $(BUILD)/diloti.so $(BUILD)/diloti-demo $(BUILD)/diloti-bench

$(BUILD)/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD):
	@mkdir -p $(BUILD)/tests

$(BUILD)/libdiloti.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/diloti-demo: src/demo.c $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libdiloti.a $(LDFLAGS) -lm -o $@

$(BUILD)/diloti-bench: src/bench.c $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libdiloti.a $(LDFLAGS) -lm -o $@

# ---- Lua layer: host program and loadable module ----
$(BUILD)/embed: tools/embed.c | $(BUILD)
	$(CC) -O1 $< -o $@

$(BUILD)/embedded.c: $(BUILD)/embed $(SCRIPTS)
	$(BUILD)/embed $@ $(SCRIPTS)

$(BUILD)/lua/%.o: src/lua/%.c $(wildcard src/lua/*.h) $(wildcard src/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/lua/embedded.o: $(BUILD)/embedded.c src/lua/embedded.h
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(CFLAGS) -c $< -o $@

$(BUILD)/lua/lline.o: src/lua/lline.c src/lua/lline.h | $(BUILD)
	@mkdir -p $(BUILD)/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(EDIT_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/diloti: src/main.c $(LUA_SRC:%=$(BUILD)/lua/%.o) $(BUILD)/lua/lline.o $(BUILD)/lua/embedded.o $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(LUA_CFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(LUA_LIBS) $(EDIT_LIBS) -o $@

# The same module for a plain lua5.4: position-independent, and linked
# without liblua (the interpreter that loads it provides Lua).
$(BUILD)/pic/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/pic/lua
	$(CC) $(CPPFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/lua/%.o: src/lua/%.c $(wildcard src/lua/*.h) $(wildcard src/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/pic/lua
	$(CC) $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/pic/lua/embedded.o: $(BUILD)/embedded.c src/lua/embedded.h
	@mkdir -p $(BUILD)/pic/lua
	$(CC) $(CPPFLAGS) -Isrc/lua -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/diloti.so: $(CORE_SRC:%=$(BUILD)/pic/%.o) $(LUA_SRC:%=$(BUILD)/pic/lua/%.o) $(BUILD)/pic/lua/embedded.o
	$(CC) -shared $^ $(LDFLAGS) -o $@

play: deps $(BUILD)/diloti
	@$(BUILD)/diloti

demo: $(BUILD)/diloti-demo
	@$(BUILD)/diloti-demo

bench: deps $(BUILD)/diloti-bench $(BUILD)/diloti
	@$(BUILD)/diloti-bench
	@echo "through the Lua API (median of 5 runs each):"
	@for spec in diloti diloti+last-capture; do \
	  for i in 1 2 3 4 5; do $(BUILD)/diloti --rules $$spec bench --rounds 3000; done \
	    | sort -t: -k3 -n | sed -n 3p; \
	done
	@for i in 1 2 3 4 5; do $(BUILD)/diloti bench --ai random --rounds 300; done | sort -t: -k3 -n | sed -n 3p
	@sh tools/startup.sh $(BUILD)/diloti 11

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

$(BUILD)/test-core/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/test-core
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/libdiloti-test.a: $(CORE_SRC:%=$(BUILD)/test-core/%.o)
	$(AR) rcs $@ $^

$(BUILD)/tests/%: tests/c/%.c $(TEST_LIB) $(wildcard tests/c/*.h) $(BUILD)/libdiloti-test.a
	$(CC) $(CPPFLAGS) -Itests/c $(TEST_CFLAGS) $< $(TEST_LIB) $(BUILD)/libdiloti-test.a $(LDFLAGS) $(TEST_LIBS) -o $@

test-c: deps $(TEST_BIN)
	@$(TEST_ENV) NO_LUA=1 sh tests/run.sh $(TEST_BIN)

# busted runs under lua5.4 and finds the module in $(BUILD).
test-lua: deps $(BUILD)/diloti $(BUILD)/diloti.so
	@DILOTI_BIN=$(BUILD)/diloti LUA_CPATH="$(BUILD)/?.so;;" lua5.4 /usr/bin/busted -o TAP tests/lua

# clang-tidy's checks are in .clang-tidy (each one left out says why). One
# file a run: clang-tidy 14's analyzer reports false va_list warnings when
# given several files at once.
TIDY_SRC = $(sort $(wildcard src/*.c src/lua/*.c tools/*.c))
lint: deps
	@$(MAKE) --no-print-directory deps DEB_PKGS="cppcheck clang-tidy"
	luacheck -q lua rules-variants tests/lua
	cppcheck --std=c99 --enable=warning,style,performance,portability --error-exitcode=1 -q \
	  -Isrc -Isrc/lua $(LUA_CFLAGS) --suppress=missingIncludeSystem --suppress=toomanyconfigs src tools
	@for f in $(TIDY_SRC); do echo "clang-tidy $$f"; \
	  clang-tidy --quiet $$f -- -std=c99 $(CPPFLAGS) -Isrc/lua $(LUA_CFLAGS) $(EDIT_CFLAGS) || exit 1; done

# One combined line at the end: "N passed, N failed". tests/install.sh
# installs into a temporary DESTDIR and uninstalls again.
test: deps $(TEST_BIN) $(BUILD)/diloti $(BUILD)/diloti.so
	@$(TEST_ENV) DILOTI_BIN=$(BUILD)/diloti LUA_CPATH="$(BUILD)/?.so;;" LUA_ENV='$(SAN_ENV)' BUILD=$(BUILD) sh tests/run.sh $(TEST_BIN) tests/install.sh

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
# Every file install writes, relative to DESTDIR (uninstall removes these).
INSTALLED = $(BINDIR)/diloti $(LUA_CMOD)/diloti.so $(MANDIR)/man6/diloti.6 \
  $(SCRIPTS:%=$(DATADIR)/%) $(DOCS:%=$(DOCDIR)/%)
# Directories of our own, removed by uninstall when empty.
OWN_DIRS = $(DATADIR) $(DOCDIR)

install: $(BUILD)/diloti $(BUILD)/diloti.so
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LUA_CMOD) $(DESTDIR)$(MANDIR)/man6 \
	  $(addprefix $(DESTDIR)$(DATADIR)/,$(sort $(dir $(SCRIPTS)))) $(addprefix $(DESTDIR)$(DOCDIR)/,$(sort $(dir $(DOCS))))
	$(INSTALL) -m 755 $(BUILD)/diloti $(DESTDIR)$(BINDIR)/diloti
	$(INSTALL) -m 644 $(BUILD)/diloti.so $(DESTDIR)$(LUA_CMOD)/diloti.so
	$(INSTALL) -m 644 docs/diloti.6 $(DESTDIR)$(MANDIR)/man6/diloti.6
	@for f in $(SCRIPTS); do echo "$(INSTALL) -m 644 $$f $(DESTDIR)$(DATADIR)/$$f"; \
	  $(INSTALL) -m 644 $$f $(DESTDIR)$(DATADIR)/$$f || exit 1; done
	@for f in $(DOCS); do echo "$(INSTALL) -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f"; \
	  $(INSTALL) -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	@for d in $(OWN_DIRS); do [ ! -d $(DESTDIR)$$d ] || find $(DESTDIR)$$d -depth -type d -empty -delete; \
	  [ ! -d $(DESTDIR)$$d ] || echo "kept $(DESTDIR)$$d: not empty"; done

# docs/rules.md is written from the lessons (tests/lua/learn_spec.lua checks it).
.PHONY: docs
docs: $(BUILD)/diloti
	$(BUILD)/diloti run tools/rules_doc.lua > docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md

# Rewrites the move-count golden files from the current generator.
golden: $(BUILD)/tests/test_perft
	DL_GOLDEN_WRITE=1 $(BUILD)/tests/test_perft

clean:
	rm -rf build build-san build-debug build-san-debug
