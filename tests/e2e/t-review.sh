#!/bin/sh
#
# The review game (issue 16): the orders of tests/review/game.txt, as a
# new player typed them, are played in order; every one a human referee
# would understand is committed, and only the real mistakes are refused.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_golden_game "$G"

awk -v dir="$TRASH" '
	/^=== / { n++; print substr($0, 5) > (dir "/head." n); next }
	n > 0 { print > (dir "/block." n) }
	END { print n > (dir "/count") }
' tests/review/game.txt
count=$(cat "$TRASH/count")
accepted=0
refused=0
i=1
while [ "$i" -le "$count" ]; do
	read -r side verdict want <"$TRASH/head.$i"
	touch "$TRASH/block.$i"
	postrider play "$G" --as "$side" "$TRASH/block.$i" >"$TRASH/out" 2>"$TRASH/err"
	rc=$?
	if [ "$verdict" = accept ]; then
		if [ $rc = 0 ]; then
			ok "mail $i ($side) is committed"
			accepted=$((accepted + 1))
		else
			fail "mail $i ($side) is committed"
			show_file "$TRASH/err"
		fi
	else
		if [ $rc = 1 ] && grep -qF -- "$want" "$TRASH/out" "$TRASH/err"; then
			ok "mail $i ($side) is refused: $want"
			refused=$((refused + 1))
		else
			fail "mail $i ($side) is refused: $want (exit $rc)"
			show_file "$TRASH/out"
			show_file "$TRASH/err"
		fi
	fi
	i=$((i + 1))
done
expect_eq "every mail was played" "$count" "$((accepted + refused))"

# What the referee said about the prose, the typo and the table talk.
expect_grep "the typo was read and said" "read 'savanah' as 'Savannah GA'" "$G/log.txt"
expect_grep "the greeting and the sign-off were set aside" "Set aside, not orders: 'Hello referee,'" "$G/log.txt"
expect_grep "the table talk reached the log" 'American says: "Good luck, General!"' "$G/log.txt"
expect_grep "the standing order answered" "The American's standing order answers." "$G/log.txt"
expect_grep "the held-over battle card was played" 'The British discard #80' "$G/log.txt"
expect_exit 4 postrider audit "$G"
expect_grep "the game audits" '^verified: ' "$TRASH/out"

test_done
