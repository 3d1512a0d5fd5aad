#!/bin/sh
# t-anydir.sh - the binary finds its data and templates from any working
# directory (issue 18): beside the executable (build/postrider in a
# checkout, a copy at the top of one), then the DATADIR of `make install`;
# POSTRIDER_GAMES and POSTRIDER_TEMPLATES are not needed.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

BIN=$BUILD_DIR/postrider
mkdir -p "$TRASH/elsewhere"
cd "$TRASH/elsewhere" || die "cd"
run() { env -u POSTRIDER_GAMES -u POSTRIDER_TEMPLATES "$@"; }

expect_exit 0 run "$BIN" data --check
expect_grep "the uninstalled binary reads the checkout's data" "^$ROOT/$BUILD/../games/washingtons-war: .*: ok\|^$BUILD_DIR/../games/washingtons-war: .*: ok" "$TRASH/out"
expect_exit 0 run "$BIN" new g --american "$AMERICAN" --british "$BRITISH" --seed "$SEED"
"$BIN" options g --plain | sed -n 2p >"$TRASH/order"
expect_exit 0 run "$BIN" play g --as american "$TRASH/order"
expect_exit 0 run "$BIN" show g --as american
expect_fixed "the report is rendered from the templates" "hand:" "$TRASH/out"

# Installed under a PREFIX, run from /: the DATADIR, or beside the binary.
cd "$ROOT" || die "cd"
cp -a "$BUILD_DIR" "$TRASH/build"
make -s --no-print-directory BUILD="$TRASH/build" PREFIX="$TRASH/usr" install \
	>"$TRASH/install.log" 2>&1 || die "make install: $(cat "$TRASH/install.log")"
cd / || die "cd /"
expect_exit 0 run "$TRASH/usr/bin/postrider" data --check
expect_grep "the installed binary reads PREFIX/share/postrider" "^$TRASH/usr/.*share/postrider/games/washingtons-war: .*: ok" "$TRASH/out"
# moved elsewhere with its share/ folder (a relocated PREFIX): still found
mv "$TRASH/usr" "$TRASH/moved"
expect_exit 0 run "$TRASH/moved/bin/postrider" new "$TRASH/g2" --american "$AMERICAN" --british "$BRITISH" --seed "$SEED"
expect_exit 0 run "$TRASH/moved/bin/postrider" show "$TRASH/g2" --as british
expect_fixed "a relocated install finds its templates beside the binary" "hand:" "$TRASH/out"

test_done
