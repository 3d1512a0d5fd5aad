#!/bin/sh
#
# Issue 17: what a player reads. A game is played on for a while by a
# fixed rule; after every order the reports mailed are checked
# (tests/e2e/report/walk.py): the grouped list of orders in the deciding
# side's report stands for exactly the legal orders (each form copied with
# the values listed under it is legal, and every legal order can be so
# written), and the other side's report lists no orders and names no
# card of the deciding side's hand.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh
export TRASH

G=$TRASH/game
new_game "$G"
"$PY" tests/e2e/report/walk.py "$G" 140 >"$TRASH/walk.out" 2>&1 || { cat "$TRASH/walk.out"; die "walk.py failed"; }
expect_grep "the walk went on for 140 orders over many kinds of prompt" \
	'^steps 140 kinds \([2-9][0-9]\|1[0-9]\)$' "$TRASH/walk.out"
expect_eq "every report's list of orders is exact and nothing leaks" "" \
	"$(grep -v '^steps \|^marked ' "$TRASH/walk.out")"
expect_grep "reports mark the cards new since the last one" \
	'^marked [1-9][0-9]*$' "$TRASH/walk.out"

test_done
