#!/bin/sh
#
# Held-over lines (issue 16, docs/orders.md "Held over") in a real game:
# the British order goes on past the American's decision before battle;
# the line waits sealed (the American's mail, his patch and his clone never
# show it), runs after his answer, and the host's replay and a player's
# clone both audit the game.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_golden_game "$G"

# setup_to_battle DIR: the golden case's way to the first battle
setup_to_battle() {
	play_golden_setup "$1" tests/golden/held-over-wait/setup
}
setup_to_battle "$G"

printf 'move 23 Howe\nto Lexington\ndiscard 80   # the battle card, when asked\n' >"$TRASH/british"
expect_exit 0 postrider play "$G" --as british "$TRASH/british"
expect_grep "the order is accepted with a line held over" "waits for the American's decision" "$TRASH/out"
expect_eq "the decision is the American's" american "$(prompt_side "$G")"

# What the American receives: his report and its patch.
am=$(report_for "$G" american) || die "no American report"
br=$(report_for "$G" british) || die "no British report"
expect_no_grep "the American's report does not show the held line" 'discard 80' "$am"
git -C "$G" show HEAD -- "orders/" >"$TRASH/order-diff"
expect_no_grep "nor does the committed order" 'discard 80' "$TRASH/order-diff"
expect_grep "the committed order marks the held line" '^+# (a line sealed until it runs or the game ends)$' "$TRASH/order-diff"
git clone -q "$G" "$TRASH/clone"
git -C "$TRASH/clone" log -p >"$TRASH/clone-log"
expect_no_grep "nor the American's clone, anywhere" 'discard 80' "$TRASH/clone-log"
expect_grep "the British's own report shows it" '^  discard 80' "$br"
expect_exit 4 postrider audit "$TRASH/clone"
expect_grep "the clone audits with the line held" '^verified without the seed' "$TRASH/out"

# The American answers; the British line runs in the same commit.
printf 'stand\n' >"$TRASH/american"
expect_exit 0 postrider play "$G" --as american "$TRASH/american"
expect_grep "the held line runs after the answer" 'The rest of the British order goes on (held over)' "$G/log.txt"
expect_grep "and plays the card in the battle" 'The British discard #80' "$G/log.txt"
expect_grep "the British report says it was applied" 'held-over order was applied in full' "$(report_for "$G" british)"
expect_no_grep "that note is the British's alone" 'held-over order was applied' "$(report_for "$G" american)"

# The host's audit replays the held line from the sealed state.
expect_exit 4 postrider audit "$G"
expect_grep "the replay with the seed verifies every commit" '^verified: ' "$TRASH/out"
git -C "$TRASH/clone" pull -q --ff-only
expect_exit 4 postrider audit "$TRASH/clone"
expect_grep "and a player's clone checks all it can" '^verified without the seed' "$TRASH/out"

# Conditional standing orders are sealed the same way until used.
S=$TRASH/standing
new_golden_game "$S"
setup_to_battle "$S"
printf 'if attacked at lexington: stand\nif battle: discard robert morris\n' >"$TRASH/if"
expect_exit 0 postrider play "$S" --as american "$TRASH/if"
expect_grep "the British reads that standing orders were given" 'gives a standing order (sealed until it is used)' "$(report_for "$S" british)"
git -C "$S" log -p -- orders log.txt state.yaml >"$TRASH/s-log"
expect_no_grep "the history never shows the standing orders" 'Robert Morris\|discard 107\|if battle' "$TRASH/s-log"
expect_no_grep "nor the British's report" 'Robert Morris\|if battle' "$(report_for "$S" british)"
expect_grep "the American's report lists them" '^  if battle: discard 107' "$(report_for "$S" american)"
printf 'move 23 Howe\nto Lexington\ndiscard 80\n' >"$TRASH/attack"
expect_exit 0 postrider play "$S" --as british "$TRASH/attack"
expect_grep "the standing orders answer in the British's commit" 'The Americans discard #107 Robert Morris' "$S/log.txt"
expect_exit 4 postrider audit "$S"
expect_grep "the host's replay puts the sealed lines back" '^verified: ' "$TRASH/out"

test_done
