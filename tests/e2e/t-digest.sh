#!/bin/sh
#
# Issue 29: in my-move and digest modes a player gets one "your move" mail
# for one decision. An order of the other side that decides nothing (table
# talk, a standing reaction) while he decides is committed, but mails him
# no second report: his token is still good, and the next report tells it.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G" --mail-mode british=digest --mail-mode american=my-move
n=0
while [ "$(prompt_side "$G")" != british ] && [ $n -lt 30 ]; do
	play_first_legal "$G" || break
	n=$((n + 1))
done
expect_eq "the British decides" british "$(prompt_side "$G")"
expect_ne "... and was mailed for it" "" "$(report_for "$G" british)"
asked=$(report_for "$G" british)

for order in "never intercept" "ask intercept
say Good luck, General."; do
	before=$(commit_count "$G")
	outbox_list "$G" >"$TRASH/before"
	printf '%s\n' "$order" >"$TRASH/order"
	run_cmd postrider play "$G" --as american "$TRASH/order"
	expect_eq "the American's '$(echo $order)' is committed" $((before + 1)) "$(commit_count "$G")"
	expect_eq "... the British still decides" british "$(prompt_side "$G")"
	expect_eq "... and gets no second 'your move' mail (digest)" "" \
		"$(outbox_added "$G" "$TRASH/before" | grep -- '-british\.')"
	expect_eq "... nor the American (my-move), who does not decide" "" \
		"$(outbox_added "$G" "$TRASH/before" | grep -- '-american\.')"
done

# The British answers the mail he got: its token is still good, and the
# next report of his tells him what the American said.
reply_mail "$asked" "$BRITISH" "$(postrider options "$G" --plain | sed -n 2p)" >"$TRASH/reply.eml"
run_cmd postrider play "$G" "$TRASH/reply.eml"
expect_eq "the British order by the first mail's token is taken" 0 "$?"
n=0
while [ "$(prompt_side "$G")" != british ] && [ $n -lt 30 ]; do
	play_first_legal "$G" || break
	n=$((n + 1))
done
mail_part "$(report_for "$G" british)" text/plain >"$TRASH/next.txt"
expect_grep "his next report tells the table talk" 'Good luck, General' "$TRASH/next.txt"
test_done
