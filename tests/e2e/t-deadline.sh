#!/bin/sh
# t-deadline.sh - a reply deadline with a fixed clock (issue 18): the
# reports say it; `postrider remind` reminds the side to move before it
# and tells both sides once it has passed, each once only however often
# it runs; a vacation by mail moves the deadline within the game's limit;
# the host changes the deadline; time taken is charged to the side waited
# for.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

T0=$POSTRIDER_NOW
H=3600
D=86400
at() { _t=$1; shift; env POSTRIDER_NOW=$((T0 + _t)) "$@"; }
text_of() { mail_part "$1" text/plain; }

G=$TRASH/g
new_game "$G" --deadline 3d
AM=$(report_for "$G" american) || die "no report to the American"
text_of "$AM" >"$TRASH/am.txt"
expect_fixed "the first report gives the deadline" \
	"Deadline: the American's decision is due by 2023-11-17T22:13:20Z (3 days a decision)." "$TRASH/am.txt"
expect_exit 0 postrider deadline "$G"
expect_fixed "deadline shows it" "deadline: 3 days a decision" "$TRASH/out"

# --- reminders, once each ---------------------------------------------------
n0=$(outbox_count "$G")
expect_exit 0 at $((D)) postrider remind "$G"
expect_fixed "a day in, nothing to send" "nothing to send" "$TRASH/out"
expect_eq "a day in, no mail" "$n0" "$(outbox_count "$G")"
expect_exit 0 at $((60 * H)) postrider remind "$G"
expect_fixed "18 hours before, the side to move is reminded" "reminded the side to move" "$TRASH/out"
expect_eq "one reminder" 1 "$(outbox_list "$G" | grep -c '^remind-')"
R=$(outbox "$G")/new/$(outbox_list "$G" | grep '^remind-')
expect_eq "the reminder goes to the American" "$AMERICAN" "$(header "$R" To)"
text_of "$R" >"$TRASH/remind.txt"
expect_fixed "it says when the decision is due" "due by 2023-11-17T22:13:20Z, in 12 hours" "$TRASH/remind.txt"
expect_exit 0 at $((61 * H)) postrider remind "$TRASH"
expect_exit 0 at $((62 * H)) postrider remind "$G"
expect_eq "remind again: no second reminder" 1 "$(outbox_list "$G" | grep -c '^remind-')"
expect_exit 0 at $((73 * H)) postrider remind "$G"
expect_fixed "past the deadline, both are told" "told both sides the deadline has passed" "$TRASH/out"
expect_eq "a late notice to each side" 2 "$(outbox_list "$G" | grep -c '^late-')"
expect_exit 0 at $((80 * H)) postrider remind "$G"
expect_exit 0 at $((99 * H)) postrider remind "$G"
expect_eq "never twice" 2 "$(outbox_list "$G" | grep -c '^late-')"
expect_eq "remind commits nothing" 1 "$(commit_count "$G")"

# --- issue 28, item 7: orders that decide nothing do not move the clock ---------
reply_mail "$AM" "$AMERICAN" "never exchange
say still thinking" >"$TRASH/react.eml"
expect_exit 0 at $((73 * H + 1800)) postrider play "$G" "$TRASH/react.eml"
AM=$(report_for "$G" american) || die "no report to the American"
text_of "$AM" >"$TRASH/am-react.txt"
expect_fixed "a standing reaction of the late side leaves the deadline where it was" \
	"due by 2023-11-17T22:13:20Z" "$TRASH/am-react.txt"
reply_mail "$AM" "$AMERICAN" "board" >"$TRASH/ask.eml"
expect_exit 0 at $((73 * H + 1900)) postrider play "$G" "$TRASH/ask.eml"
expect_exit 0 at $((73 * H + 2000)) postrider remind "$G"
expect_eq "nor is the decision new: no second late notice" 2 "$(outbox_list "$G" | grep -c '^late-')"
BR=$(report_for "$G" british) || die "no report to the British"
printf 'never declare\n' >"$TRASH/br-react"
expect_exit 0 at $((73 * H + 2100)) postrider play "$G" --as british "$TRASH/br-react"
AM=$(report_for "$G" american) || die "no report to the American"
text_of "$AM" >"$TRASH/am-react2.txt"
expect_fixed "nor does one of the other side" "due by 2023-11-17T22:13:20Z" "$TRASH/am-react2.txt"

# --- an order: time taken, and the next decision has its own reminders ------------
reply_mail "$AM" "$AMERICAN" "$(postrider options "$G" --plain | sed -n 2p)" >"$TRASH/o1.eml"
expect_exit 0 at $((74 * H)) postrider play "$G" "$TRASH/o1.eml"
AM=$(report_for "$G" american) || die "no report to the American"
text_of "$AM" >"$TRASH/am.txt"
expect_fixed "the report charges the American" "Time taken so far: American 3 days 2 hours, British no time." "$TRASH/am.txt"
expect_fixed "the next decision is due three days on" "due by 2023-11-21T00:13:20Z" "$TRASH/am.txt"

# --- a vacation by mail -----------------------------------------------------------
reply_mail "$AM" "$AMERICAN" "vacation 5d" >"$TRASH/vac.eml"
n1=$(outbox_count "$G")
expect_exit 0 at $((75 * H)) postrider play "$G" "$TRASH/vac.eml"
expect_eq "both players are told of the vacation" $((n1 + 2)) "$(outbox_count "$G")"
expect_eq "a vacation commits nothing" 4 "$(commit_count "$G")"
V=$(outbox "$G")/new/$(outbox_list "$G" | grep '^vacation-.*british')
text_of "$V" >"$TRASH/vac.txt"
expect_fixed "the British reads until when" "is on vacation until 2023-11-23T01:13:20Z" "$TRASH/vac.txt"
expect_fixed "and the new deadline" "due by 2023-11-26T00:13:20Z" "$TRASH/vac.txt"
expect_exit 0 at $((74 * H + 4 * D)) postrider remind "$G"
expect_fixed "on vacation past the old deadline: nothing to send" "nothing to send" "$TRASH/out"
reply_mail "$AM" "$AMERICAN" "vacation 10d" >"$TRASH/vac2.eml"
expect_exit 1 at $((76 * H)) postrider play "$G" "$TRASH/vac2.eml"
expect_fixed "over the limit: refused with what is left" "you have 9 days left" "$TRASH/err"
# the token is not spent by either: the American still plays
reply_mail "$AM" "$AMERICAN" "$(postrider options "$G" --plain | sed -n 2p)" >"$TRASH/o2.eml"
expect_exit 0 at $((77 * H)) postrider play "$G" "$TRASH/o2.eml"
expect_exit 0 postrider deadline "$G"
expect_fixed "back early: the unused vacation is given back" "American vacation used: 2 hours" "$TRASH/out"

# --- the host changes the deadline ---------------------------------------------
n2=$(outbox_count "$G")
expect_exit 0 at $((78 * H)) postrider deadline "$G" 1d --vacation-limit 3d
expect_eq "both are told of the change" $((n2 + 2)) "$(outbox_count "$G")"
expect_exit 0 postrider deadline "$G"
expect_fixed "the new deadline" "deadline: 1 day a decision" "$TRASH/out"
expect_fixed "the new limit" "vacation limit: 3 days a side" "$TRASH/out"
expect_exit 0 at $((78 * H + D + 1)) postrider remind "$G"
expect_fixed "late under the new deadline" "told both sides" "$TRASH/out"
expect_exit 2 postrider deadline "$G" 3x
expect_exit 0 postrider deadline "$G" none
expect_exit 0 at $((200 * D)) postrider remind "$G"
expect_no_fixed "no deadline: nothing to say" "told" "$TRASH/out"

test_done
