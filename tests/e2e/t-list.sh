#!/bin/sh
#
# Issue 19: `postrider list ROOT`, the host's view of a club: one line per
# game (id, players, year, whose move since when, or the result), a
# --format for scripts, and a repository that is not a sound game named.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ROOT=$TRASH/club
mkdir "$ROOT"
new_game "$ROOT/one"
postrider new "$ROOT/two" --american "Carol <carol@example.org>" \
	--british "Dan <dan@example.org>" --host "$HOST" --seed "$SEED" \
	>/dev/null 2>&1 || die "new two"
expect_exit 0 postrider reveal --abandon "$ROOT/two"
mkdir "$ROOT/notes"	# not a repository: left alone

expect_exit 0 postrider list "$ROOT"
expect_eq "one line per game" 2 "$(grep -c . "$TRASH/out")"
expect_grep "a running game: players, year, whose move, since when" \
	"Alice v Bob, 1775, order 0: American to move since 20[0-9-]*T[0-9:]*Z" "$TRASH/out"
expect_grep "a finished game: its result" "Carol v Dan, 1775, order 0: over: abandoned (abandoned)" "$TRASH/out"

expect_exit 0 postrider list "$ROOT" --format '%i|%s|%y|%n|%r'
expect_eq "--format for scripts" \
	"$(sed -n 's/^id: //p' "$ROOT/one/game.yaml")|american|1775|0|
$(sed -n 's/^id: //p' "$ROOT/two/game.yaml")|none|1775|0|abandoned (abandoned)" \
	"$(cat "$TRASH/out")"

git init -q "$ROOT/broken"
expect_exit 1 postrider list "$ROOT"
expect_fixed "a repository that is no game is named" "broken: not a sound game" "$TRASH/err"
expect_eq "the games are still listed" 2 "$(grep -c . "$TRASH/out")"

test_done
