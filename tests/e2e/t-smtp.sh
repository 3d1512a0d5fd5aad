#!/bin/sh
#
# Sending by SMTP to a real server (aiosmtpd, Debian's python3-aiosmtpd,
# storing what it receives in a Maildir): `postrider send` delivers the
# outbox and moves each message to cur/; `play` sends after committing;
# with the server down, sending fails with every message kept in new/, and
# once the server is back they are all delivered: nothing is lost.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

. tests/e2e/smtp-lib.sh

# received: the messages in the mailbox (new/, one per line, sorted)
received() {
	ls "$MBOX/new" 2>/dev/null | LC_ALL=C sort
}

# received_summary: "To|Subject|X-RcptTo" of each message received, sorted
received_summary() {
	for _f in "$MBOX"/new/*; do
		[ -f "$_f" ] || continue
		printf '%s|%s|%s\n' "$(header "$_f" Message-ID)" \
			"$(header "$_f" X-MailFrom)" "$(header "$_f" X-RcptTo)"
	done | LC_ALL=C sort
}

# outbox_summary DIR SUB: the same for what the outbox expects to send
outbox_summary() {
	for _f in "$(outbox "$1")/$2"/*; do
		[ -f "$_f" ] || continue
		_to=$(header "$_f" To | sed 's/.*<\(.*\)>.*/\1/')
		printf '%s|%s|%s\n' "$(header "$_f" Message-ID)" "$HOST_ADDR" "$_to"
	done | LC_ALL=C sort
}

start_server
ok "the SMTP server listens on 127.0.0.1:$PORT"

mkdir -p "$XDG_CONFIG_HOME/postrider"
cat >"$XDG_CONFIG_HOME/postrider/config.yaml" <<EOF
smtp_url: smtp://127.0.0.1:$PORT
starttls: false
timeout: 5
EOF

G=$TRASH/game
# made with transport: outbox, so that send has something to send
echo "transport: outbox" >"$TRASH/outbox-only.yaml"
POSTRIDER_CONFIG=$TRASH/outbox-only.yaml new_game "$G"
expect_eq "new (transport: outbox) leaves its two reports in the outbox" 2 \
	"$(outbox_count "$G")"
outbox_summary "$G" new >"$TRASH/expected"
outbox_list "$G" new | sed 's/$/:2,S/' >"$TRASH/expected.cur"

# --- send delivers the outbox ---
expect_exit 0 postrider send "$G"
expect_eq "send reports each message sent" 2 \
	"$(grep -c "^sent '" "$TRASH/out")"
expect_eq "the server received two messages" 2 "$(received | grep -c .)"
received_summary >"$TRASH/got"
expect_file_eq "they are the reports, from the host to each player" \
	"$TRASH/expected" "$TRASH/got"
expect_eq "the outbox new/ is empty" 0 "$(outbox_count "$G" new)"
outbox_list "$G" cur >"$TRASH/cur"
expect_file_eq "the sent messages are in cur/, marked seen" \
	"$TRASH/expected.cur" "$TRASH/cur"
# the body arrives as it was written (the server adds X-Peer, X-MailFrom
# and X-RcptTo at the end of the header)
A=$(report_for "$G" american)
for f in "$MBOX"/new/*; do
	if [ "$(header "$f" Message-ID)" = "$(header "$A" Message-ID)" ]; then
		sed '/^\r\{0,1\}$/,$!d' "$A" | tr -d '\r' >"$TRASH/body.sent"
		sed '/^\r\{0,1\}$/,$!d' "$f" | tr -d '\r' >"$TRASH/body.got"
		expect_file_eq "the American's report arrives intact" \
			"$TRASH/body.sent" "$TRASH/body.got"
	fi
done

expect_exit 0 postrider send "$G"
expect_eq "a second send has nothing to send" 2 "$(received | grep -c .)"

# --- play sends after committing ---
postrider options "$G" --plain | sed -n 2p >"$TRASH/order"
expect_exit 0 postrider play "$G" --as american "$TRASH/order"
expect_eq "play: the server received the two new reports" 4 \
	"$(received | grep -c .)"
expect_eq "play: the outbox new/ is empty" 0 "$(outbox_count "$G" new)"
expect_eq "play: four messages in cur/" 4 "$(outbox_count "$G" cur)"
outbox_summary "$G" cur >"$TRASH/expected"
received_summary >"$TRASH/got"
expect_file_eq "play: every message in cur/ was received" \
	"$TRASH/expected" "$TRASH/got"

# --- the server is down ---
stop_server
if is_listening; then
	fail "the SMTP server is stopped"
else
	ok "the SMTP server is stopped"
fi
postrider options "$G" --plain | sed -n 2p >"$TRASH/order"
before=$(commit_count "$G")
# exit 3: committed, but the mail waits (issue 13: never silently)
expect_exit 3 postrider play "$G" --as american "$TRASH/order"
expect_fixed "play with the server down: says MAIL NOT SENT on stderr" \
	"MAIL NOT SENT: 2 message(s) wait in" "$TRASH/err"
expect_eq "play with the server down: the order is committed all the same" \
	$((before + 1)) "$(commit_count "$G")"
expect_grep "play with the server down: it warns that mail waits" \
	"outbox" "$TRASH/err"
expect_eq "play with the server down: the two reports wait in new/" 2 \
	"$(outbox_count "$G" new)"
outbox_list "$G" new >"$TRASH/waiting"
expect_exit 75 postrider send "$G"
expect_grep "send with the server down: says what was not sent" \
	"not sent" "$TRASH/out"
outbox_list "$G" new >"$TRASH/waiting.after"
expect_file_eq "send with the server down: the messages stay in new/" \
	"$TRASH/waiting" "$TRASH/waiting.after"
expect_eq "send with the server down: cur/ is unchanged" 4 \
	"$(outbox_count "$G" cur)"
expect_eq "send with the server down: tmp/ is empty" 0 \
	"$(outbox_count "$G" tmp)"
expect_eq "nothing was received meanwhile" 4 "$(received | grep -c .)"

# --- the server is back: nothing was lost ---
start_server
expect_exit 0 postrider send "$G"
expect_eq "the waiting messages are delivered" 6 "$(received | grep -c .)"
expect_eq "the outbox new/ is empty again" 0 "$(outbox_count "$G" new)"
outbox_summary "$G" cur >"$TRASH/expected"
received_summary >"$TRASH/got"
expect_file_eq "every message of the game was received exactly once" \
	"$TRASH/expected" "$TRASH/got"

# --- a bad configuration is a temporary failure, not a lost message ---
printf 'smtp_url: http://127.0.0.1:%s\n' "$PORT" \
	>"$XDG_CONFIG_HOME/postrider/config.yaml"
expect_exit 75 postrider send "$G"
expect_fixed "a bad smtp_url is named" "smtp_url" "$TRASH/err"

# Issue 33: libcurl (18 libraries with those only it needs, 3.2 MiB of every run's
# memory) is loaded only when mail goes by SMTP, as it did above
expect_eq "postrider is not linked with libcurl" 0 \
	"$(ldd "$BUILD_DIR/postrider" | grep -c libcurl)"

test_done
