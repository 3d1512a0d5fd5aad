#!/bin/sh
#
# Issue 39, item 3: forged mail must not silence a player. Anyone can
# write the American's address in a From line and the game id in a
# subject. Eight such mails without a token used to spend his replies for
# ten minutes (the limit of issue 28), and his genuine order, refused, then
# got no rejection, his question no answer. The limits count only the
# mails that prove their sender (a valid token); a mail that proves
# nothing is answered at most once a day per address, from a budget of
# its own.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/g
new_game "$G"
id=$(sed -n 's/^id: //p' "$G/game.yaml")
AM=$(report_for "$G" american) || die "no report to the American"

# forged N: a mail with the American's From line and the game id in the
# subject, no token
forged() {
	cat <<EOF2
From: $AMERICAN
To: $HOST
Subject: [$id] my order
Date: Wed, 15 Nov 2023 09:30:00 +0000
Message-ID: <forged.$1@attacker.example>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

place Boston
EOF2
}

n0=$(outbox_count "$G")
i=0
while [ $i -lt 8 ]; do
	i=$((i + 1))
	forged $i >"$TRASH/forged$i.eml"
	postrider play "$G" "$TRASH/forged$i.eml" >"$TRASH/out$i" 2>"$TRASH/err$i"
	echo $? >"$TRASH/rc$i"
done
expect_eq "each forgery is rejected (exit 1)" "1 1 1 1 1 1 1 1" "$(cat "$TRASH"/rc[1-8] | paste -sd' ')"
expect_fixed "the first forgery is told why" "carries no order token" "$TRASH/err1"
expect_eq "eight forgeries get one reply between them" 1 $(($(outbox_count "$G") - n0))
expect_fixed "the second says why none was sent" \
	"no reply sent: a mail that proves no sender (no valid token) was answered at this address in the last day" \
	"$TRASH/err2"

# The American's genuine order, refused: he gets his rejection.
n1=$(outbox_count "$G")
reply_mail "$AM" "$AMERICAN" "place Atlantis" "<genuine@example.org>" >"$TRASH/genuine.eml"
expect_exit 1 postrider play "$G" "$TRASH/genuine.eml"
expect_no_fixed "the genuine order's rejection is not held back" "no reply sent" "$TRASH/err"
expect_eq "it is mailed to him" $((n1 + 1)) "$(outbox_count "$G")"
expect_eq "as the rejection of his order, in reply to it" 1 \
	"$(grep -l '^In-Reply-To: <genuine@example.org>' "$(outbox "$G")"/new/* | xargs grep -l 'Atlantis' | wc -l)"
# and his question its answer
reply_mail "$AM" "$AMERICAN" "hand" "<hand@example.org>" >"$TRASH/hand.eml"
expect_exit 0 postrider play "$G" "$TRASH/hand.eml"
expect_eq "his 'hand' is answered" $((n1 + 2)) "$(outbox_count "$G")"

# More forgeries the same day: still nothing, and the American's own
# replies are not spent by them: eight forgeries more, then eight refused
# orders of his with the token, each answered.
i=8
while [ $i -lt 16 ]; do
	i=$((i + 1))
	forged $i >"$TRASH/forged$i.eml"
	postrider play "$G" "$TRASH/forged$i.eml" >/dev/null 2>&1
done
expect_eq "eight forgeries more get no reply" $((n1 + 2)) "$(outbox_count "$G")"
i=0
while [ $i -lt 6 ]; do
	i=$((i + 1))
	reply_mail "$AM" "$AMERICAN" "place Atlantis" "<genuine.$i@example.org>" >"$TRASH/g$i.eml"
	postrider play "$G" "$TRASH/g$i.eml" >/dev/null 2>&1
done
expect_eq "and his six refused orders are answered, all of them" $((n1 + 8)) "$(outbox_count "$G")"

# A day later, the budget of mails that prove nothing is open again: one
# reply more, to the address.
forged 99 >"$TRASH/forged99.eml"
expect_exit 1 env POSTRIDER_NOW=$((POSTRIDER_NOW + 86401)) postrider play "$G" "$TRASH/forged99.eml"
expect_eq "a day later one forgery is answered again" $((n1 + 9)) "$(outbox_count "$G")"

test_done
