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
# the walk's fixed rule meets battles under the dice of fairness version 3
# (the default before issue 39); under version 4's it plays 210 orders to
# the end of the game without one
new_game "$G" --fairness 3
"$PY" tests/e2e/report/walk.py "$G" 200 >"$TRASH/walk.out" 2>&1 || { cat "$TRASH/walk.out"; die "walk.py failed"; }
expect_grep "the walk went on for 200 orders over many kinds of prompt" \
	'^steps 200 kinds \([2-9][0-9]\|1[0-9]\)$' "$TRASH/walk.out"
expect_eq "every report's list of orders is exact and nothing leaks" "" \
	"$(grep -v '^steps \|^marked \|^battle choices ' "$TRASH/walk.out")"
expect_grep "reports mark the cards new since the last one" \
	'^marked [1-9][0-9]*$' "$TRASH/walk.out"
expect_grep "the walk met battles, whose card choices were checked for leaks" \
	'^battle choices [1-9][0-9]*$' "$TRASH/walk.out"



# --- Mail modes (players.SIDE.mail in game.yaml) -------------------------
expect_exit 2 postrider new "$TRASH/bad" --american "$AMERICAN" --british "$BRITISH" \
	--seed "$SEED" --mail-mode sometimes
expect_eq "a bad --mail-mode creates nothing" no "$([ -e "$TRASH/bad" ] && echo yes || echo no)"

M=$TRASH/modes
new_game "$M" --mail-mode british=my-move --mail-mode american=digest
expect_grep "game.yaml keeps the British mode" '^    mail: my-move$' "$M/game.yaml"
expect_grep "game.yaml keeps the American mode" '^    mail: digest$' "$M/game.yaml"
n=0
while [ $n -lt 40 ]; do
	play_first_legal "$M" || break
	n=$((n + 1))
	to_move=$(postrider options "$M" --plain 2>/dev/null | head -n 1)
	for s in american british; do
		if report_for "$M" $s >/dev/null; then got=yes; else got=no; fi
		want=no
		[ "$s" = "$to_move" ] && want=yes
		[ "$got" = "$want" ] || echo "order $n: $s mailed $got, to move $to_move" >>"$TRASH/modes.bad"
	done
done
expect_eq "my-move and digest: a report exactly when the player must decide" "" \
	"$(cat "$TRASH/modes.bad" 2>/dev/null)"
mail_parts text/plain "$TRASH/modes.txt" "$(outbox "$M")"/new/*
for f in "$TRASH"/modes.txt/*-american.*; do
	grep -q '^The board:' "$f" && echo "$f" >>"$TRASH/digest.bad"
	grep -q "left out of this digest" "$f" || echo "$f" >>"$TRASH/digest.bad"
done
expect_eq "digest reports leave the board's text out and say so" "" \
	"$(cat "$TRASH/digest.bad" 2>/dev/null)"
postrider audit "$M" >"$TRASH/audit.out" 2>&1
expect_eq "the audit accepts a game with mail modes (exit 4: a given seed)" 4 "$?"

# the British, mailed only at his decisions, reads the American orders in
# between in the story of his next report
expect_ne "a my-move report's story covers the other side's orders" "" \
	"$(grep -l '^-- 17[0-9]*, order [0-9]* (American) --$' "$TRASH"/modes.txt/*-british.* 2>/dev/null)"
test_done
