#!/bin/sh
#
# Issue 19: `postrider show DIR --at REF` shows the game as it was then: by
# commit, by order number, by year, by year and impulse. A past hand stays
# as secret as a present one: --as needs the host's copy or a finished game.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G"
n=0
while [ $n -lt 8 ]; do
	postrider options "$G" --plain >"$TRASH/opts" || die "options"
	sed -n 2p "$TRASH/opts" >"$TRASH/order"
	postrider play "$G" --as "$(head -n 1 "$TRASH/opts")" "$TRASH/order" >/dev/null 2>&1 || die "order $n"
	n=$((n + 1))
done

expect_exit 0 postrider show "$G" --at 3
expect_grep "--at 3: the state after order 3" "^Order 3, commit $(git -C "$G" log --format=%H --grep '^Postrider-Seq: 3$' | cut -c1-12)\$" "$TRASH/out"
expect_exit 0 postrider show "$G" --at HEAD~2
expect_grep "--at HEAD~2: a git revision" "^Order 6, commit $(git -C "$G" rev-parse HEAD~2 | cut -c1-12)\$" "$TRASH/out"
expect_exit 0 postrider show "$G" --at 1775
expect_grep "--at 1775: the first state of the year" "^Order 0, " "$TRASH/out"
expect_exit 0 postrider show "$G" --at 0
expect_grep "--at 0: the set-up's prompt" "Committees of Correspondence" "$TRASH/out"
expect_exit 1 postrider show "$G" --at 1781
expect_fixed "a year not reached yet is refused" "has no year 1781" "$TRASH/err"
expect_exit 1 postrider show "$G" --at no-such-commit

# a past hand: the host may look, a player's clone may not
expect_exit 0 postrider show "$G" --at 2 --as british
expect_grep "the host sees a past British hand" "^The British hand:" "$TRASH/out"
git clone -q "$G" "$TRASH/clone"
expect_exit 1 postrider show "$TRASH/clone" --at 2 --as british
expect_fixed "a player's clone cannot open a past hand of a running game" \
	"needs the host's copy or a finished game" "$TRASH/err"
expect_exit 0 postrider show "$TRASH/clone" --at 2
expect_no_fixed "without --as no hand is shown" "hand:" "$TRASH/out"

test_done
