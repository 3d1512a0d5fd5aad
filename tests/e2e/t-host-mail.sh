#!/bin/sh
#
# Mail to the host address behind `play --games ROOT` (issue 30): a new
# message (not a reply) that carries only the `token:` line is played; a
# message for no game (a question in prose, cron's mail, root's mail, a
# bounce) goes to the host's own mailbox (`host_mail:` a Maildir, an mbox
# or an address), is never handed on twice, and without a mailbox is
# refused as before; a 550 refusal shows the server's reason.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ROOTG=$TRASH/games
mkdir -p "$ROOTG"
G=$ROOTG/$GAME_ID
new_game "$G"
LOG=$TRASH/host.log
CFG=$TRASH/config.yaml
printf 'transport: outbox\nfrom: %s\nlog: %s\nhost_mail: %s/Maildir/\n' \
	"$HOST" "$LOG" "$TRASH" >"$CFG"

# --- a new message with only the token line -------------------------------------
AM=$(report_for "$G" american) || die "no report to the American"
TOKEN=$(header "$AM" Subject | sed -n 's/.*(token \([a-z0-9-]*\)).*/\1/p')
[ -n "$TOKEN" ] || die "no token in the subject of $AM"
postrider options "$G" --plain | sed -n 2p >"$TRASH/order"
cat >"$TRASH/new.eml" <<MAIL
From: $AMERICAN
To: $HOST
Subject: my move
Date: Wed, 15 Nov 2023 09:30:00 +0000
Message-ID: <new.1@example.org>

token: $TOKEN
$(cat "$TRASH/order")
MAIL
expect_exit 0 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/new.eml"
expect_eq "a new message with the token line: played" 2 "$(commit_count "$G")"
expect_grep "... and logged as accepted" "<new.1@example.org> alice@example.org: exit 0: accepted" "$LOG"

# the same token again (now stale): answered by the game the sender plays
sed 's/new\.1@/new.2@/' "$TRASH/new.eml" >"$TRASH/stale.eml"
before=$(outbox_count "$G")
expect_exit 1 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/stale.eml"
expect_fixed "a stale token: the player is told" "the token in this message is not valid" "$TRASH/err"
expect_eq "... by a mail" $((before + 1)) "$(outbox_count "$G")"
# a player's new message without a token (a question in prose): the host's
sed 's/^token: .*/when is my next move due?/; s/new\.1@/new.3@/' "$TRASH/new.eml" >"$TRASH/notoken.eml"
expect_exit 0 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/notoken.eml"
expect_fixed "a player's prose without a token goes to the host" "handed to the host's Maildir" "$TRASH/err"
expect_eq "... and not to the game" $((before + 1)) "$(outbox_count "$G")"

# a rejection answers in the sender's thread: its References are his
# (the report he answered) and then his message
AM=$(report_for "$G" american) || AM=$(report_for "$G" british) || die "no report"
REPORT_ID=$(header "$AM" Message-ID)
reply_mail "$AM" "$(header "$AM" To)" "fly to the moon" "<bad.1@example.org>" >"$TRASH/bad.eml"
outbox_list "$G" >"$TRASH/before"
expect_exit 1 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/bad.eml"
R=$(outbox "$G")/new/$(outbox_added "$G" "$TRASH/before" | head -n 1)
expect_eq "the rejection's In-Reply-To is the sender's message" "<bad.1@example.org>" "$(header "$R" In-Reply-To)"
expect_eq "its References: the report answered, then the sender's message" \
	"$REPORT_ID <bad.1@example.org>" "$(header "$R" References)"
expect_grep "its subject names the token, which stays valid (docs/orders.md)" \
	"order not accepted (token [a-z0-9-]*)" "$R"

# --- mail for the host ---------------------------------------------------------------
cat >"$TRASH/cron.eml" <<'MAIL'
From: root@example.org (Cron Daemon)
To: host@example.org
Subject: Cron <host@mx> postrider remind ~/games
Auto-Submitted: auto-generated
Message-ID: <cron.1@example.org>

/bin/sh: 1: postrider: not found
MAIL
cat >"$TRASH/prose.eml" <<'MAIL'
From: Carol <carol@example.net>
To: host@example.org
Subject: can I join the next game?
Message-ID: <prose.1@example.org>

Hello, is there room for a third player in your club?
MAIL
expect_exit 0 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/cron.eml"
expect_fixed "cron's mail: said to go to the host" "handed to the host's Maildir" "$TRASH/err"
expect_exit 0 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/prose.eml"
expect_eq "both are in the host's Maildir (and the player's question)" 3 "$(ls "$TRASH/Maildir/new" | grep -c .)"
expect_eq "unchanged but for one header" "$(cat "$TRASH/prose.eml")" \
	"$(grep -l 'prose.1@' "$TRASH"/Maildir/new/* | xargs sed 1d)"
expect_grep "the added header says why" "^X-Postrider-Host-Mail: the message names no game" \
	"$(grep -l 'prose.1@' "$TRASH"/Maildir/new/*)"
expect_grep "... for cron's too" "^X-Postrider-Host-Mail: an automatic message" \
	"$(grep -l 'cron.1@' "$TRASH"/Maildir/new/*)"
expect_grep "the host's log says where it went" "<prose.1@example.org> carol@example.net: exit 0: ignored: .*handed to the host's Maildir" "$LOG"
expect_eq "nothing committed" 2 "$(commit_count "$G")"

# a copy handed on once is not handed on again (an address that loops)
cp "$(grep -l 'prose.1@' "$TRASH"/Maildir/new/*)" "$TRASH/again.eml"
expect_exit 1 postrider play --games "$ROOTG" --config "$CFG" "$TRASH/again.eml"
expect_eq "a copy that came back is not handed on twice" 3 "$(ls "$TRASH/Maildir/new" | grep -c .)"

# an mbox
sed "s|^host_mail: .*|host_mail: $TRASH/mbox|" "$CFG" >"$TRASH/mbox.yaml"
expect_exit 0 postrider play --games "$ROOTG" --config "$TRASH/mbox.yaml" "$TRASH/prose.eml"
expect_grep "an mbox: a From line" "^From MAILER-DAEMON " "$TRASH/mbox"
expect_grep "an mbox: the message" "^Message-ID: <prose.1@example.org>" "$TRASH/mbox"

# an address, through the transport, from the null sender
cat >"$TRASH/sendmail" <<SH
#!/bin/sh
printf '%s\n' "\$@" >"$TRASH/sendmail.args"
cat >"$TRASH/sendmail.in"
SH
chmod 755 "$TRASH/sendmail"
printf 'transport: sendmail\nsendmail: %s\nfrom: %s\nhost_mail: Me <me@example.net>\n' \
	"$TRASH/sendmail" "$HOST" >"$TRASH/addr.yaml"
expect_exit 0 postrider play --games "$ROOTG" --config "$TRASH/addr.yaml" "$TRASH/prose.eml"
expect_eq "an address: sendmail -f <> -- me@" "-oi -f <> -- me@example.net" \
	"$(tr '\n' ' ' <"$TRASH/sendmail.args" | sed 's/ $//')"
expect_fixed "an address: the message" "Message-ID: <prose.1@example.org>" "$TRASH/sendmail.in"
printf 'transport: outbox\nfrom: %s\nhost_mail: host@example.org\n' "$HOST" >"$TRASH/loop.yaml"
expect_exit 78 postrider play --games "$ROOTG" --config "$TRASH/loop.yaml" "$TRASH/prose.eml"
expect_fixed "host_mail may not be the host address" "would come back to postrider" "$TRASH/err"

# a mailbox that cannot take it: the mail system keeps the message
printf 'transport: outbox\nhost_mail: /proc/no/Maildir/\n' >"$TRASH/bad.yaml"
expect_exit 75 postrider play --games "$ROOTG" --config "$TRASH/bad.yaml" "$TRASH/prose.eml"
expect_fixed "an unwritable mailbox: try again later" "try again later" "$TRASH/err"

# no host_mail: refused as before, nothing kept
printf 'transport: outbox\n' >"$TRASH/none.yaml"
expect_exit 1 postrider play --games "$ROOTG" --config "$TRASH/none.yaml" "$TRASH/prose.eml"
expect_fixed "no host_mail: names no game" "names no game" "$TRASH/err"

# --- a busy game: one line -----------------------------------------------------------
flock "$G/.git/postrider.lock" sh -c 'echo pass | postrider play "$1" --as american' sh "$G" \
	>"$TRASH/out" 2>"$TRASH/err"
expect_eq "busy: exit 75" 75 "$?"
expect_eq "busy: the message is one line" 1 "$(grep -c . "$TRASH/err")"
expect_grep "busy: ... saying what to do" "^postrider: play: the game is busy: .*; try again later" "$TRASH/err"

# --- a 550 refusal says the server's reason ---------------------------------------
SMTP_SERVER=refuse-bob
. tests/e2e/smtp-lib.sh
start_server
printf 'smtp_url: smtp://127.0.0.1:%s\nstarttls: false\nfrom: %s\n' "$PORT" "$HOST" >"$TRASH/smtp.yaml"
expect_exit 3 postrider new "$TRASH/g550" --config "$TRASH/smtp.yaml" --american "$AMERICAN" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED"
expect_fixed "550: refused for good" "MAIL REFUSED" "$TRASH/err"
expect_fixed "550: the server's reason is shown" "User unknown in local recipient table" "$TRASH/err"
expect_fixed "mail left unsent: new says where it waits" "outbox: $TRASH/g550/.git/postrider/outbox/new" "$TRASH/out"
expect_exit 0 postrider new "$TRASH/gsent" --config "$TRASH/smtp.yaml" --american "$AMERICAN" \
	--british "Carl <carl@example.org>" --host "$HOST" --seed "$SEED"
expect_no_fixed "all mail sent: new names no outbox" "outbox:" "$TRASH/out"

test_done
