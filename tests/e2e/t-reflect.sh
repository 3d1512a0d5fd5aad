#!/bin/sh
#
# Issue 28, item 9 (and issue 30's auto-responder): mail reflection and
# size. An auto-responder that sets no header (so it cannot be told from
# its player) answers every rejection with a rejection-bound mail: the
# player is mailed at most a few replies, then postrider goes quiet and
# says so to the host. A question is answered once per message. After the
# end, questions need the token (which the last report carries). A huge
# `say` is refused, and prose around an order is logged only in part.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/g
new_game "$G"
AM=$(report_for "$G" american) || die "no report to the American"
AUTO="I am away until Monday and will answer your mail then.
Regards"
n0=$(outbox_count "$G")
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	reply_mail "$AM" "$AMERICAN" "$AUTO" "<away.$i@example.org>" >"$TRASH/away$i.eml"
	postrider play "$G" "$TRASH/away$i.eml" >"$TRASH/out$i" 2>"$TRASH/err$i"
done
sent=$(($(outbox_count "$G") - n0))
expect_eq "twelve auto-replies in a row get eight rejections, not twelve" 8 "$sent"
expect_fixed "the ninth says why none was sent" \
	"no reply sent: 8 replies to the American in the last 10 minutes" "$TRASH/err9"
expect_eq "nothing was committed" 1 "$(commit_count "$G")"
# ten minutes later the player is answered again
reply_mail "$AM" "$AMERICAN" "place Boston" "<later@example.org>" >"$TRASH/later.eml"
expect_exit 1 env POSTRIDER_NOW=$((POSTRIDER_NOW + 601)) postrider play "$G" "$TRASH/later.eml"
expect_eq "later, a rejection goes again" $((sent + 1)) $(($(outbox_count "$G") - n0))

# a question, once per message
BR=$(report_for "$G" british) || die "no report to the British"
reply_mail "$BR" "$BRITISH" "hand" "<hand@example.org>" >"$TRASH/hand.eml"
n1=$(outbox_count "$G")
expect_exit 0 postrider play "$G" "$TRASH/hand.eml"
expect_exit 0 postrider play "$G" "$TRASH/hand.eml"
expect_fixed "the same question again is not answered again" "answered already" "$TRASH/err"
expect_eq "one answer" $((n1 + 1)) "$(outbox_count "$G")"

# a say too long, prose too long
LONG=$(printf '%0600d' 0)
reply_mail "$BR" "$BRITISH" "never exchange
say $LONG" "<say@example.org>" >"$TRASH/say.eml"
expect_exit 1 postrider play "$G" "$TRASH/say.eml"
expect_fixed "a 600-character say is refused" "a 'say' line holds at most 500 characters" "$TRASH/err"
PROSE=$(printf 'Dear Referee, %0300d' 0)
reply_mail "$BR" "$BRITISH" "$PROSE
never exchange
Yours ever, with a very long sign-off that goes on and on and on and on and on and on and on" \
	"<prose@example.org>" >"$TRASH/prose.eml"
expect_exit 0 postrider play "$G" "$TRASH/prose.eml"
expect_grep "prose is logged cut short" "^Set aside, not orders: 'Dear Referee, 0000.*\.\.\.'" "$G/log.txt"
expect_no_fixed "not whole" "$(printf '%0300d' 0)" "$G/log.txt"

# after the end: the last report carries the token, and a question needs it
printf 'resign confirm\n' >"$TRASH/resign"
expect_exit 0 postrider play "$G" --as british "$TRASH/resign"
AM=$(report_for "$G" american) || die "no last report"
header "$AM" Subject >"$TRASH/last-subject"
expect_grep "the last report's subject carries a token" \
	"game over, the American wins (token [a-z0-9-]*)" "$TRASH/last-subject"
reply_mail "$AM" "$AMERICAN" "log" "<log@example.org>" >"$TRASH/log.eml"
expect_exit 0 env POSTRIDER_NOW=$((POSTRIDER_NOW + 1200)) postrider play "$G" "$TRASH/log.eml"
sed 's/(token [a-z0-9-]*)//' "$TRASH/log.eml" >"$TRASH/log-notoken.eml"
sed -i 's/^Message-ID: .*/Message-ID: <log2@example.org>/' "$TRASH/log-notoken.eml"
expect_exit 1 env POSTRIDER_NOW=$((POSTRIDER_NOW + 1200)) postrider play "$G" "$TRASH/log-notoken.eml"
expect_fixed "without the token, a question after the end is refused" "carries no order token" "$TRASH/err"

test_done
