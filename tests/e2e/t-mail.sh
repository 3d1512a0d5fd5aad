#!/bin/sh
#
# Orders by mail: replies written as a mail client writes them (the order
# above the quoted report and a signature) are accepted; a replayed order,
# an order out of turn, from a stranger, for another game, a malformed
# message and an illegal order are rejected, each leaving the game exactly
# as it was, with a rejection mail to the player (never to a stranger).

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G"
M=$TRASH/mail
mkdir "$M"

first_option() {
	postrider options "$G" --plain | sed -n 2p
}

# accepted WHAT MAILFILE: play MAILFILE; exit 0, one commit, the order
# file holds ORDER ($order) and nothing of the quote or the signature, two
# reports and no rejection in the outbox.
accepted() {
	_before=$(commit_count "$G")
	outbox_list "$G" >"$TRASH/ob"
	expect_exit 0 postrider play "$G" "$2" || return 0
	_seq=$(state_field "$G" seq)
	expect_eq "$1: one new commit" $((_before + 1)) "$(commit_count "$G")"
	_f=$(git -C "$G" show --name-only --format= HEAD | grep '^orders/')
	expect_eq "$1: the order file holds the order alone" "$order" \
		"$(git -C "$G" show "HEAD:$_f")"
	expect_eq "$1: the commit records the mail's Message-ID" \
		"Postrider-Message-Id: $(header "$2" Message-ID)" \
		"$(git -C "$G" log -1 --format=%B | grep '^Postrider-Message-Id: ')"
	expect_eq "$1: two reports and nothing else in the outbox" \
		"$(git -C "$G" rev-parse HEAD)-$(printf %04d "$_seq")-american.1 $(git -C "$G" rev-parse HEAD)-$(printf %04d "$_seq")-british.1" \
		"$(outbox_added "$G" "$TRASH/ob" | tr '\n' ' ' | sed 's/ $//')"
}

# rejected WHAT MAILFILE MAIL-TO: play MAILFILE; exit 1, the game
# unchanged; MAIL-TO is the address of the one rejection mail expected in
# the outbox, or "none". The rejection mail is left in $rejection.
rejected() {
	# each case as on a day of its own: a mail that proves no sender (no
	# valid token) is answered once a day an address (t-forged-mail.sh)
	rm -f "$G/.git/postrider/replies-unproven"
	snapshot "$G" before
	outbox_list "$G" >"$TRASH/ob"
	expect_exit 1 postrider play "$G" "$2"
	cp "$TRASH/err" "$TRASH/rejected.err"
	expect_unchanged "$1: the game is unchanged" "$G" before
	outbox_added "$G" "$TRASH/ob" >"$TRASH/added"
	rejection=
	if [ "$3" = none ]; then
		expect_eq "$1: no mail is sent" "" "$(cat "$TRASH/added")"
		return 0
	fi
	if [ "$(grep -c . "$TRASH/added")" != 1 ]; then
		fail "$1: one rejection mail in the outbox" \
			"added: $(cat "$TRASH/added")"
		return 0
	fi
	rejection="$(outbox "$G")/new/$(cat "$TRASH/added")"
	expect_eq "$1: the rejection goes to the sender" "$3" \
		"$(header "$rejection" To | sed 's/.*<\(.*\)>.*/\1/')"
	expect_eq "$1: the rejection answers the message" \
		"$(header "$2" Message-ID)" "$(header "$rejection" In-Reply-To)"
	mail_part "$rejection" text/plain >"$TRASH/rejection.txt"
	expect_fixed "$1: the rejection says nothing was changed" \
		"Nothing was changed" "$TRASH/rejection.txt"
}

# --- accepted: as mail clients write them ---

order=$(first_option)
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" >"$M/1"
accepted "a reply to the report" "$M/1"
expect_eq "the author is the player" "$AMERICAN" \
	"$(git -C "$G" log -1 --format='%an <%ae>')"

order=$(first_option)
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" |
	sed 's/$/\r/' >"$M/2"
accepted "a reply with CRLF line ends" "$M/2"

# the subject edited away: the token is still in the address replied to
order=$(first_option)
R=$(report_for "$G" american)
reply_mail "$R" "$AMERICAN" "$order" |
	sed "1,/^\$/{s/^Subject: .*/Subject: my next placement/;
		s/^To: .*/To: $(header "$R" Reply-To)/;}" >"$M/3"
accepted "a reply to the Reply-To address, subject changed" "$M/3"

# another display name, the domain in capitals
order=$(first_option)
reply_mail "$(report_for "$G" american)" '"Alice Q. Player" <alice@EXAMPLE.ORG>' \
	"$order" "<alice-4@example.org>" >"$M/4"
accepted "a reply from the address in other letter case" "$M/4"

# several lines, a comment, a blank line before the order; read from stdin
order=$(first_option)
R=$(report_for "$G" american)
reply_mail "$R" "$AMERICAN" "# my placement this time

$order" >"$M/5"
before=$(commit_count "$G")
postrider play "$G" - <"$M/5" >"$TRASH/out" 2>"$TRASH/err"
expect_eq "a message on standard input with a comment is accepted" \
	"0 $((before + 1))" "$? $(commit_count "$G")"

# --- threading ---
R=$(report_for "$G" american)
P=$(report_for "$G" american HEAD~1)
expect_eq "a report answers the last report to the same player" \
	"$(header "$P" Message-ID)" "$(header "$R" In-Reply-To)"
for f in "$(outbox "$G")"/new/*; do
	header "$f" References | tr ' ' '\n' | sed '/^$/d' | sort | uniq -d |
		sed "s|^|$(basename "$f"): |"
done >"$TRASH/dup-refs"
expect_eq "References never names a message twice" "" "$(cat "$TRASH/dup-refs")"

# --- rejected ---

# a replay of an accepted message: the token is stale now
rejected "the same message again" "$M/4" alice@example.org
expect_fixed "a replay: the token is stale" "is not valid for this turn" \
	"$TRASH/rejected.err"

# the British player out of turn
order=$(first_option)
reply_mail "$(report_for "$G" british)" "$BRITISH" "$order" >"$M/bob"
rejected "an order out of turn" "$M/bob" bob@example.org
expect_grep "out of turn: it says whose decision it is" \
	"American.*not your\|not your.*American" "$TRASH/rejected.err"
a_token=$(header "$(report_for "$G" american)" Subject |
	sed -n 's/.*(token \([a-z0-9-]*\))$/\1/p')
expect_ne "the American's report carries a token" "" "$a_token"
expect_no_fixed "out of turn: the rejection to Bob does not carry the American's token" \
	"$a_token" "$rejection"

# a stranger, with a valid token
reply_mail "$(report_for "$G" american)" "Mallory <mallory@example.net>" \
	"$order" >"$M/mallory"
rejected "a stranger with a valid token" "$M/mallory" none
expect_fixed "a stranger: it says so" "not a player" "$TRASH/rejected.err"

# a message about another game
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" |
	sed '1,/^$/s/^Subject: Re: \[ww-3acbd474\]/Subject: Re: [ww-00000000]/' \
	>"$M/othergame"
rejected "a message about another game" "$M/othergame" alice@example.org
expect_fixed "another game: it names the game" "ww-00000000" \
	"$TRASH/rejected.err"

# no token at all
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" |
	sed '1,/^$/{s/^Subject: .*/Subject: my order/;}' >"$M/notoken"
rejected "a message without a token" "$M/notoken" alice@example.org

# malformed messages: no From; headers only (no header separator);
# no headers at all; nothing
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" |
	sed '/^From: /d' >"$M/nofrom"
rejected "a message without From" "$M/nofrom" none
reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" |
	sed '/^$/,$d' >"$M/noblank"
snapshot "$G" before
expect_exit 1 postrider play "$G" "$M/noblank"
expect_unchanged "a message without a header separator: the game is unchanged" \
	"$G" before
printf '%s\n' "$order" >"$M/bare"
rejected "plain order text without headers" "$M/bare" none
: >"$M/empty"
rejected "an empty message" "$M/empty" none

# an illegal order from the right player, with the right token
R=$(report_for "$G" american)
reply_mail "$R" "$AMERICAN" "# placing in Boston
place Bostn MA" >"$M/illegal"
rejected "an illegal order" "$M/illegal" alice@example.org
expect_fixed "illegal: stderr gives line and column" \
	"line 2, column 7: unknown space 'Bostn MA'" "$TRASH/rejected.err"
awk '/^  place Bostn MA$/ { getline; print; exit }' "$TRASH/rejected.err" \
	>"$TRASH/caret"
expect_eq "illegal: the caret points at the bad name" "        ^" \
	"$(cat "$TRASH/caret")"
expect_fixed "illegal: the rejection mail gives line and column" \
	"line 2, column 7: unknown space 'Bostn MA'" "$TRASH/rejection.txt"
expect_fixed "illegal: the rejection mail lists the legal form" \
	"${order%% *} SPACE" "$TRASH/rejection.txt"
expect_fixed "illegal: the rejection mail lists a legal space" \
	"${order#* }" "$TRASH/rejection.txt"

# the player to move with the subject (and token, if any) of the other
# player's report
reply_mail "$(report_for "$G" british)" "$AMERICAN" "$order" >"$M/swap"
rejected "the American replying to the British report" "$M/swap" \
	alice@example.org
expect_fixed "the American replying to the British report: the token is refused" \
	"token" "$TRASH/rejected.err"

# --- automatic messages (RFC 3834): never played, never answered ---
# ignored WHAT MAILFILE: exit 0, the game unchanged, no mail at all
ignored() {
	snapshot "$G" before
	outbox_list "$G" >"$TRASH/ob"
	expect_exit 0 postrider play "$G" "$2"
	expect_unchanged "$1: the game is unchanged" "$G" before
	expect_eq "$1: no mail is sent" "" "$(outbox_added "$G" "$TRASH/ob")"
	expect_fixed "$1: stderr says why" "ignored: an automatic message" \
		"$TRASH/err"
}
# Each carries the player's address, the valid token and a legal order:
# only the headers say a machine sent it.
R=$(report_for "$G" american)
order=$(first_option)
reply_mail "$R" "$AMERICAN" "$order" |
	sed '1s/^/Auto-Submitted: auto-replied\n/' >"$M/vacation"
ignored "a vacation auto-reply" "$M/vacation"
reply_mail "$R" "$AMERICAN" "$order" |
	sed '1s/^/Precedence: list\nList-Id: <club.example.org>\n/' >"$M/list"
ignored "a copy through a mailing list" "$M/list"
reply_mail "$R" "$AMERICAN" "$order" |
	sed '1s/^/Return-Path: <>\n/' >"$M/bounce"
ignored "a bounce with a null sender" "$M/bounce"
reply_mail "$R" "$AMERICAN" "$order" |
	sed '1s/^/X-Autoreply: yes\n/' >"$M/xauto"
ignored "an X-Autoreply message" "$M/xauto"
printf 'From: MAILER-DAEMON@example.org\nSubject: Undelivered Mail\n\nsorry\n' \
	>"$M/daemon"
ignored "a MAILER-DAEMON bounce" "$M/daemon"

# after all this, the token in the last report still works
order=$(first_option)
reply_mail "$R" "$AMERICAN" "$order" >"$M/after"
accepted "the report's token after the rejections" "$M/after"

# a player corrects an order by replying to the rejection mail (as the
# rejection asks: "Correct it and send it again")
R=$(report_for "$G" american)
reply_mail "$R" "$AMERICAN" "place Bostn MA" >"$M/illegal2"
rejected "another illegal order" "$M/illegal2" alice@example.org
order=$(first_option)
if [ -n "$rejection" ]; then
	reply_mail "$rejection" "$AMERICAN" "$order" >"$M/correction"
	accepted "a corrected order in reply to the rejection mail" \
		"$M/correction"
fi

# --- both sides by mail until the British have placed their PCs ---
n=0
while [ "$(prompt_side "$G")" = american ] && [ $n -lt 20 ]; do
	order=$(first_option)
	reply_mail "$(report_for "$G" american)" "$AMERICAN" "$order" >"$M/a$n"
	postrider play "$G" "$M/a$n" >"$TRASH/out" 2>"$TRASH/err" ||
		{ fail "the American's order $order by mail" "$(cat "$TRASH/err")"; break; }
	n=$((n + 1))
done
expect_eq "the British decide after the Committees of Correspondence" \
	british "$(prompt_side "$G")"
R=$(report_for "$G" british)
expect_fixed "the British report says it is their move" "your move, British" "$R"
order=$(first_option)
reply_mail "$R" "$BRITISH" "$order" >"$M/b1"
accepted "the British reply" "$M/b1"
expect_eq "the British author" "$BRITISH" \
	"$(git -C "$G" log -1 --format='%an <%ae>')"

# every mail of the game has its own Message-ID (mail clients drop a
# message whose Message-ID they have seen)
for f in "$(outbox "$G")"/new/*; do
	printf '%s %s\n' "$(header "$f" Message-ID)" "$(basename "$f")"
done | sort >"$TRASH/mids"
awk '{ n[$1]++; f[$1] = f[$1] " " $2 } END { for (m in n) if (n[m] > 1) print m ":" f[m] }' \
	"$TRASH/mids" | sort >"$TRASH/dup-mids"
expect_eq "no two mails share a Message-ID" "" "$(cat "$TRASH/dup-mids")"

expect_fsck "$G"
expect_clean "$G"

test_done
