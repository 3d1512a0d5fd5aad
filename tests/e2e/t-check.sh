#!/bin/sh
#
# postrider check: validates an order (plain with --as, or a whole mail)
# and says what would happen, without committing or mailing anything; an
# invalid order exits 1 with the line, the column and a caret. What check
# predicts is what play then does.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G"

# --- a valid plain order ---
postrider options "$G" --plain >"$TRASH/options"
side=$(head -n 1 "$TRASH/options")
order=$(sed -n 2p "$TRASH/options")
order2=$(sed -n 3p "$TRASH/options")
printf '%s\n%s\n' "$order" "$order2" >"$TRASH/order"
snapshot "$G" before
outbox_list "$G" >"$TRASH/ob"
expect_exit 0 postrider check "$G" --as "$side" "$TRASH/order"
cp "$TRASH/out" "$TRASH/check.out"
expect_eq "check: the first line says the order is valid" \
	"the order is valid (2 decisions):" "$(head -n 1 "$TRASH/check.out")"
expect_fixed "check: it says what would happen" "PC placed in ${order#place }" \
	"$TRASH/check.out"
expect_grep "check: it says what comes next" '^then: American: ' \
	"$TRASH/check.out"
expect_unchanged "check: the game is unchanged" "$G" before
expect_eq "check: no mail" "" "$(outbox_added "$G" "$TRASH/ob")"

# standard input works the same
expect_exit 0 postrider check "$G" --as "$side" - <"$TRASH/order"
expect_file_eq "check: standard input gives the same answer" \
	"$TRASH/check.out" "$TRASH/out"

# --- a valid order by mail ---
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" >"$TRASH/mail"
expect_exit 0 postrider check "$G" "$TRASH/mail"
expect_eq "check of a mail: valid" "the order is valid (1 decision):" \
	"$(head -n 1 "$TRASH/out")"
expect_unchanged "check of a mail: the game is unchanged" "$G" before
expect_eq "check of a mail: no mail" "" "$(outbox_added "$G" "$TRASH/ob")"

# --- invalid orders ---
printf '# first the north\n%s\nplace Bostn MA\n' "$order" >"$TRASH/bad"
expect_exit 1 postrider check "$G" --as "$side" "$TRASH/bad"
cp "$TRASH/err" "$TRASH/bad.err"
expect_grep "check of an illegal order: line and column" \
	"^rejected: line 3, column 7: unknown space 'Bostn MA'; did you mean 'Boston MA'?\$" \
	"$TRASH/bad.err"
# the caret is under the first letter of the bad name, in the echoed line
awk '
	/^ *place Bostn MA$/ { src = index($0, "Bostn"); getline; car = index($0, "^");
		print (src > 0 && car == src && $0 ~ /^ *\^ *$/) ? "aligned" : "src " src " caret " car; exit }
' "$TRASH/bad.err" >"$TRASH/caret"
expect_eq "check of an illegal order: the caret is under the bad name" \
	aligned "$(cat "$TRASH/caret")"
# the orders at the failing prompt, grouped: the form, then its values
expect_grep "check of an illegal order: the legal form is suggested" \
	"^  ${order2%% *} SPACE " "$TRASH/bad.err"
expect_fixed "check of an illegal order: a legal space is listed" \
	"${order2#* }" "$TRASH/bad.err"
expect_eq "check of an illegal order: nothing on stdout" "" \
	"$(cat "$TRASH/out")"
expect_unchanged "check of an illegal order: the game is unchanged" "$G" before

printf 'plce Falmouth MA\n' >"$TRASH/bad2"
expect_exit 1 postrider check "$G" --as "$side" "$TRASH/bad2"
expect_grep "check of a misspelt word: line 1, column 1, a suggestion" \
	"^rejected: line 1, column 1: unknown word 'plce'; did you mean 'place'" \
	"$TRASH/err"

expect_exit 1 postrider check "$G" --as british "$TRASH/order"
expect_grep "check by the side not to decide: says whose decision it is" \
	"American.*not your\|not your.*American" "$TRASH/err"

reply_mail "$(report_for "$G" american)" "$AMERICAN" "place Bostn MA" \
	>"$TRASH/badmail"
expect_exit 1 postrider check "$G" "$TRASH/badmail"
expect_grep "check of an illegal mail: line and column" \
	"line 1, column 7: unknown space 'Bostn MA'" "$TRASH/err"
expect_eq "check of an illegal mail: no rejection mail" "" \
	"$(outbox_added "$G" "$TRASH/ob")"
expect_unchanged "check of an illegal mail: the game is unchanged" "$G" before

expect_exit 2 postrider check "$G" --as nobody "$TRASH/order"
expect_exit 2 postrider check
expect_unchanged "usage errors: the game is unchanged" "$G" before

# --- what check predicts is what play does ---
sed -n '2,/^$/p' "$TRASH/check.out" | sed '/^$/d' >"$TRASH/predicted"
expect_exit 0 postrider play "$G" --as "$side" "$TRASH/order"
git -C "$G" diff HEAD~1 HEAD -- log.txt | sed -n 's/^+\([^+]\)/\1/p' |
	sed '/^-- .* --$/d; /^Typed by the host (play --as /d; /^$/d' >"$TRASH/logged"
expect_file_eq "play logs what check predicted" "$TRASH/predicted" \
	"$TRASH/logged"
expect_eq "play: the next prompt is the one check announced" \
	"$(sed -n 's/^then: //p' "$TRASH/check.out")" \
	"$(sed -n 's/^now: //p' "$TRASH/out")"

# check after play: the same order is no longer valid (already placed)
expect_exit 1 postrider check "$G" --as "$side" "$TRASH/order"

# Issue 12.9: once a die or a shuffle is drawn, check stops the story
# there, and its "then:" line must not tell what the dice decided.
n=0
while [ $n -lt 40 ]; do
	postrider options "$G" --plain >"$TRASH/opts" || die "options"
	side=$(head -n 1 "$TRASH/opts")
	# the whole of a multi-step decision: every line of the first option
	sed -n 2p "$TRASH/opts" >"$TRASH/step"
	postrider check "$G" --as "$side" "$TRASH/step" >"$TRASH/check2.out" 2>&1 ||
		die "check of $(cat "$TRASH/step")"
	grep -q 'what follows depends on it)' "$TRASH/check2.out" && break
	postrider play "$G" --as "$side" "$TRASH/step" >/dev/null 2>&1 || die "play $n"
	n=$((n + 1))
done
expect_grep "check reached a draw" \
	"^(line 1 reaches the dice, a card or the other side's decision: what follows depends on it)" \
	"$TRASH/check2.out"
expect_grep "after a draw, then: does not tell the dice's outcome" \
	"^then: depends on the dice, a card or the other side's decision, which check does not show" \
	"$TRASH/check2.out"
expect_no_grep "nor does the log after it" "^draw " "$TRASH/check2.out"

test_done
