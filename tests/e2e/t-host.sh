#!/bin/sh
# t-host.sh - postrider behind a mail system, unattended (issue 18):
# mail from machines (the auto-reply, bounce and list fixtures of
# tests/fixtures/mail) gets no answer and changes nothing; a permanent
# failure exits 78 (EX_CONFIG) with what to fix, so the mail system bounces
# instead of retrying for days; the host's log gets one line per message.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

LOG=$TRASH/mail.log
CFG=$TRASH/config.yaml
printf 'transport: outbox\nlog: %s\n' "$LOG" >"$CFG"
G=$TRASH/games/$GAME_ID
mkdir -p "$TRASH/games"
new_game "$G"

# --- machines get no answer ---------------------------------------------------
for f in auto-reply bounce list; do
	before=$(outbox_count "$G")
	expect_exit 0 postrider play "$G" --config "$CFG" "tests/fixtures/mail/$f.eml"
	expect_fixed "$f: said to be ignored" "ignored: an automatic message" "$TRASH/err"
	expect_eq "$f: no answer in the outbox" "$before" "$(outbox_count "$G")"
	expect_eq "$f: nothing committed" 1 "$(commit_count "$G")"
	expect_exit 0 postrider play --games "$TRASH/games" --config "$CFG" "tests/fixtures/mail/$f.eml"
	expect_eq "$f by --games: no answer" "$before" "$(outbox_count "$G")"
done
expect_eq "the host's log has a line for each of the six" 6 "$(grep -c ': exit 0: ignored: an automatic message' "$LOG")"
expect_grep "the line names the bounce's sender and id" \
	"^2023-11-14T22:13:20Z $GAME_ID <20261123060540.ABC1234@wonderland.example.net> MAILER-DAEMON@wonderland.example.net: exit 0: ignored" "$LOG"
expect_eq "routed by --games, the lines name the sender too" 0 "$(grep -c ' - -: ' "$LOG")"

# after all that the American's token still works
AM=$(report_for "$G" american) || die "no report to the American"
postrider options "$G" --plain | sed -n 2p >"$TRASH/order"
reply_mail "$AM" "$AMERICAN" "$(cat "$TRASH/order")" "<order.1@example.org>" >"$TRASH/order.eml"
expect_exit 0 postrider play "$G" --config "$CFG" "$TRASH/order.eml"
expect_grep "an accepted order is logged with its commit" \
	"<order.1@example.org> alice@example.org: exit 0: accepted: commit [0-9a-f]\{12\} (order 1)" "$LOG"

# a stranger and a replay: rejected, logged, and the stranger gets nothing
before=$(outbox_count "$G")
sed 's/^From: .*/From: Mallory <mallory@example.com>/' "$TRASH/order.eml" >"$TRASH/stranger.eml"
expect_exit 1 postrider play "$G" --config "$CFG" "$TRASH/stranger.eml"
expect_eq "no answer to a stranger" "$before" "$(outbox_count "$G")"
expect_grep "the stranger is in the host's log" "mallory@example.com: exit 1: rejected: 'mallory@example.com' is not a player" "$LOG"
expect_exit 1 postrider play "$G" --config "$CFG" "$TRASH/order.eml"
expect_grep "the replay is in the host's log" "alice@example.org: exit 1: rejected: the token in this message is not valid" "$LOG"

# --- permanent failures: 78 and what to fix ------------------------------------
printf 'transport: outbox\nsmtp_urll: smtp://x\n' >"$TRASH/bad.yaml"
expect_exit 78 postrider play "$G" --config "$TRASH/bad.yaml" "$TRASH/order.eml"
expect_fixed "a wrong configuration: says so and where" "bad.yaml:2:1" "$TRASH/err"
expect_exit 78 env POSTRIDER_TEMPLATES="$TRASH/nowhere" postrider play "$G" --config "$CFG" "$TRASH/order.eml"
expect_fixed "missing templates: says where it looked" "$TRASH/nowhere" "$TRASH/err"
expect_fixed "missing templates: says how to mend it" "make install" "$TRASH/err"
mkdir -p "$TRASH/notagame"
expect_exit 78 postrider play "$TRASH/notagame" --config "$CFG" "$TRASH/order.eml"
expect_fixed "not a game: the host must fix it" "the host must fix it" "$TRASH/err"
expect_grep "the permanent failure is in the host's log" ": exit 78: error: " "$LOG"
expect_eq "nothing was committed by any of them" 2 "$(commit_count "$G")"

# --- a log that cannot be written loses no turn ----------------------------------
printf 'transport: outbox\nlog: %s/no/such/dir/log\n' "$TRASH" >"$TRASH/nolog.yaml"
postrider options "$G" --plain >"$TRASH/opts"
expect_eq "the American is still to decide" american "$(head -n 1 "$TRASH/opts")"
AM=$(report_for "$G" american) || die "no report to the American"
reply_mail "$AM" "$AMERICAN" "$(sed -n 2p "$TRASH/opts")" >"$TRASH/am.eml"
expect_exit 0 postrider play "$G" --config "$TRASH/nolog.yaml" "$TRASH/am.eml"
expect_fixed "an unwritable log is a warning" "cannot write the host's log" "$TRASH/err"
expect_eq "and the turn is committed" 3 "$(commit_count "$G")"

# --- the bash completion knows every command ------------------------------------
postrider --help | sed -n 's/^  \([a-z]*\) .*/\1/p' >"$TRASH/commands"
for c in $(cat "$TRASH/commands"); do
	grep -q "compgen -W \"[^\"]*\b$c\b" contrib/postrider.bash-completion ||
		fail "contrib/postrider.bash-completion completes '$c'"
done
ok "the bash completion lists all $(wc -l <"$TRASH/commands") commands"

test_done
