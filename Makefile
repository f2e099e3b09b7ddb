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
# Test builds run dl_check_state() after every move (DL_CHECK).
TESTFLAGS = -DDL_CHECK

CORE_SRC = text cards rules rng state deal score apply moves refuse notation position view game
CORE_OBJ = $(CORE_SRC:%=$(BUILD)/%.o)
TEST_SRC = $(wildcard tests/c/test_*.c)
TEST_BIN = $(TEST_SRC:tests/c/%.c=$(BUILD)/tests/%)
TEST_LIB = $(filter-out tests/c/test_%.c,$(wildcard tests/c/*.c))

DEB_PKGS = libcmocka-dev pkg-config

.PHONY: all play test test-c bench deps clean golden
all: $(BUILD)/diloti-demo $(BUILD)/diloti-bench

$(BUILD)/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD):
	@mkdir -p $(BUILD)/tests

$(BUILD)/libdiloti.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/diloti-demo: src/demo.c $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libdiloti.a $(LDFLAGS) -o $@

$(BUILD)/diloti-bench: src/bench.c $(BUILD)/libdiloti.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(BUILD)/libdiloti.a $(LDFLAGS) -o $@

play: $(BUILD)/diloti-demo
	@$(BUILD)/diloti-demo

bench: $(BUILD)/diloti-bench
	@$(BUILD)/diloti-bench

# Missing Debian packages are installed when we are root, otherwise the
# exact command is printed: never a cryptic compiler error.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
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
TEST_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

$(BUILD)/test-core/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/test-core
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/libdiloti-test.a: $(CORE_SRC:%=$(BUILD)/test-core/%.o)
	$(AR) rcs $@ $^

$(BUILD)/tests/%: tests/c/%.c $(TEST_LIB) $(wildcard tests/c/*.h) $(BUILD)/libdiloti-test.a
	$(CC) $(CPPFLAGS) -Itests/c $(TEST_CFLAGS) $< $(TEST_LIB) $(BUILD)/libdiloti-test.a $(LDFLAGS) $(TEST_LIBS) -o $@

test-c: deps $(TEST_BIN)
	@sh tests/run.sh $(TEST_BIN)

test: test-c

# Rewrites the move-count golden files from the current generator.
golden: $(BUILD)/tests/test_perft
	DL_GOLDEN_WRITE=1 $(BUILD)/tests/test_perft

clean:
	rm -rf build build-san build-debug build-san-debug
