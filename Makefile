# postrider - a plain Makefile with pkg-config.
#
#   make            build ./postrider
#   make test       install missing Debian packages, build, run every test
#   make demo       install missing Debian packages, play a scripted opening
#   make sanitize   the test suite under ASan and UBSan
#   make bench      benchmarks (a turn against a plain git commit; 10,000 games)
#   make bench-scale  the part with 10 and 10,000 games alone
#   make selfplay-long  many random complete games with invariant checks
#   make fuzz       libFuzzer harnesses (tests/fuzz/), FUZZ_SECONDS each
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean
#
# `test` and `demo` first run contrib/install-deps, then call make again, so
# that pkg-config is asked only once the libraries are there.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/postrider
CC ?= cc
BUILD ?= build
PKGS = libgit2 yaml-0.1 libcurl libcrypto cairo freetype2 zlib
# linked: all but libcurl, which src/smtp.c loads when it sends (issue 41)
LINK_PKGS = $(filter-out libcurl,$(PKGS))
VERSION = 0.1.0

CFLAGS ?= -O2 -g
# The warnings a git or tmux maintainer adds to -Wall -Wextra; the build
# is clean under all of them.
WARNINGS = -Wall -Wextra -Wshadow -Wformat=2 -Wcast-qual -Wwrite-strings \
	-Wmissing-prototypes -Wstrict-prototypes -Wvla -Wundef
ALL_CFLAGS = $(CFLAGS) -std=c11 -D_GNU_SOURCE $(WARNINGS) -Isrc -I$(BUILD) \
	-DPOSTRIDER_VERSION='"$(VERSION)"' -DPOSTRIDER_DATADIR='"$(DATADIR)"' \
	$(shell pkg-config --cflags $(PKGS))
LIBS = $(shell pkg-config --libs $(LINK_PKGS)) -lresolv -ldl -lm -pthread
TEST_LIBS = $(shell pkg-config --libs cmocka)

EXE_SRC = src/main.c
LIB_SRC = $(sort $(filter-out $(EXE_SRC),$(wildcard src/*.c src/engine/*.c)))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

all: postrider

postrider: $(BUILD)/postrider
	cp $(BUILD)/postrider $@

$(BUILD)/postrider: $(EXE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/libpostrider.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libpostrider.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# LeakSanitizer's suppressions as a C string, for a sanitized build
$(BUILD)/lsan-supp.h: tests/lsan.supp
	@mkdir -p $(dir $@)
	{ echo 'static const char lsan_suppressions[] ='; \
	  sed -n 's/^\(leak:[^ ]*\)$$/\t"\1\\n"/p' $<; echo '\t"";'; } >$@
$(BUILD)/src/main.o: $(BUILD)/lsan-supp.h

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libpostrider.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libpostrider.a $(LIBS) $(TEST_LIBS)

# The engine as its own library: src/engine/ and the pure modules it
# uses. tests/engine-only.c is linked with all of it and libcrypto alone,
# so a reference from the engine to libyaml, libgit2 or libcurl fails the
# build of the check (make check runs it).
ENGINE_SRC = $(sort $(wildcard src/engine/*.c)) src/util.c src/effects.c \
	src/rng.c src/vrf.c src/codec.c src/state.c
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(BUILD)/%.o)

# One relocatable object whose only global names are the API's
# (src/engine/api.syms): the engine's internals cannot be reached from
# outside the library (tests/engine-api.sh checks it).
$(BUILD)/libengine.a: $(ENGINE_OBJ) src/engine/api.syms
	rm -f $@
	$(LD) -r -o $(BUILD)/engine-all.o $(ENGINE_OBJ)
	objcopy --keep-global-symbols=src/engine/api.syms $(BUILD)/engine-all.o $(BUILD)/engine.o
	ar rcs $@ $(BUILD)/engine.o

$(BUILD)/engine-only: tests/engine-only.c $(BUILD)/libengine.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -Wl,--whole-archive \
		$(BUILD)/libengine.a -Wl,--no-whole-archive \
		$(shell pkg-config --libs libcrypto)

-include $(LIB_OBJ:.o=.d) $(EXE_SRC:%.c=$(BUILD)/%.d)

# The data folder is compiled into paths.o: a `make install
# PREFIX=...` after a plain `make` rebuilds it, or the installed binary
# would look in /usr/local/share (issue 13). The stamp changes only when
# DATADIR does.
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@
$(BUILD)/src/paths.o: $(BUILD)/datadir.stamp
FORCE:

deps:
	@sh contrib/install-deps

units: $(UNIT_BIN)

# The whole suite: unit tests, the data check, golden cases, end to end.
check: $(BUILD)/postrider $(UNIT_BIN) $(BUILD)/engine-only
	@BUILD=$(BUILD) sh tests/run-all

test: deps
	@$(MAKE) --no-print-directory check

demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/postrider
	@BUILD=$(BUILD) sh tests/demo.sh

# The binary also carries tests/lsan.supp (src/main.c, -DPOSTRIDER_SANITIZE):
# the mail system's pipe starts it without LSAN_OPTIONS. The flags go in
# the environment, so that a test's own `make install` builds alike.
sanitize: deps
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DPOSTRIDER_SANITIZE" \
	LDFLAGS="-fsanitize=address,undefined" \
	$(MAKE) --no-print-directory BUILD=build-san check

# The floor of a turn: the same files committed with libgit2 alone.
$(BUILD)/bench-floor: bench/floor.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs libgit2)

# The cost of one provable die: VRF proof and verification.
$(BUILD)/bench-vrf: bench/vrf.c $(BUILD)/libengine.a $(BUILD)/src/fair.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libengine.a \
		$(BUILD)/src/fair.o $(shell pkg-config --libs libcrypto)

# The weight of the mailed map, each way issue 29 names.
$(BUILD)/bench-map: bench/map.c $(BUILD)/libpostrider.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libpostrider.a $(LIBS)

# A command's CPU time, peak RSS and the load beside its wall-clock time
# (issue 41).
$(BUILD)/bench-run: bench/run.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# The cryptography without a host, and OpenSSL's cost of one scalar
# multiplication (issue 41).
$(BUILD)/bench-peer-crypto: bench/peer-crypto.c $(BUILD)/libpostrider.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libpostrider.a $(LIBS)

# What of a turn's memory is shared library pages (LD_PRELOAD, bench only).
$(BUILD)/bench-rollup.so: bench/rollup.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -fPIC -o $@ $<

bench-deps: deps
	@sh contrib/install-deps bench

bench: bench-deps
	@$(MAKE) --no-print-directory $(BUILD)/postrider $(BUILD)/bench-floor $(BUILD)/bench-vrf $(BUILD)/bench-map $(BUILD)/bench-rollup.so \
		$(BUILD)/bench-run $(BUILD)/bench-peer-crypto
	@BUILD=$(BUILD) sh tests/bench.sh
	@BUILD=$(BUILD) sh tests/bench-scale.sh

# The scaling part alone (issue 33): 10 and 10,000 games; the games are
# made once and cached in BENCH_CACHE (/tmp/postrider-bench-scale).
bench-scale: deps
	@$(MAKE) --no-print-directory $(BUILD)/postrider $(BUILD)/bench-run
	@BUILD=$(BUILD) sh tests/bench-scale.sh

# A long random self-play run (issue: robustness) and the differential
# test of replies over more than 10,000 rejected orders (issue 28,
# docs/fairness.md "No reply shows a draw before it counts"); make test
# runs a short one of each.
selfplay-long: $(BUILD)/postrider
	$(BUILD)/postrider selfplay --games $${GAMES:-20000} --seed $${SEED:-1} | tail -n 1
	$(BUILD)/postrider selfplay --oracle --games $${ORACLE_GAMES:-300} --seed $${SEED:-1} | tail -n 1

# libFuzzer harnesses (issue: robustness, docs/robustness.md). Each harness
# tests/fuzz/fuzz_NAME.c is linked with every library source compiled by
# clang with the fuzzer and sanitizers, then run for FUZZ_SECONDS seconds
# on a working corpus in $(FUZZ_BUILD)/corpus/NAME seeded from
# tests/fuzz/corpus/NAME (which is only read). Crashes and leaks are
# written to $(FUZZ_BUILD)/crashes/; the target fails if there is one.
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz
FUZZ_CC ?= clang
FUZZ_NAMES ?= order mail state data dkim
FUZZ_FLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
	-std=c11 -D_GNU_SOURCE -Isrc -Itests/fuzz \
	-DPOSTRIDER_VERSION='"$(VERSION)"' -DPOSTRIDER_DATADIR='"$(DATADIR)"' \
	-DFUZZ_DATADIR='"$(CURDIR)/games/washingtons-war"'
FUZZ_OBJ = $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BIN = $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

.SECONDARY: $(FUZZ_OBJ)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(shell pkg-config --cflags $(PKGS)) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(shell pkg-config --cflags $(PKGS)) -o $@ $< $(FUZZ_OBJ) $(LIBS)

-include $(FUZZ_OBJ:.o=.d)

fuzz-deps: deps
	@sh tests/fuzz/install-deps

fuzz: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@sh tests/fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)

install: $(BUILD)/postrider
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/games/washingtons-war $(DESTDIR)$(DATADIR)/templates
	install -m 755 $(BUILD)/postrider $(DESTDIR)$(BINDIR)/postrider
	install -m 644 games/washingtons-war/*.yaml $(DESTDIR)$(DATADIR)/games/washingtons-war/
	install -m 644 templates/* $(DESTDIR)$(DATADIR)/templates/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 docs/postrider.1 $(DESTDIR)$(PREFIX)/share/man/man1/postrider.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 contrib/postrider.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/postrider

clean:
	rm -rf build build-san build-fuzz postrider

.PHONY: FORCE all deps units check test demo sanitize bench-deps bench bench-scale selfplay-long fuzz fuzz-deps install clean
