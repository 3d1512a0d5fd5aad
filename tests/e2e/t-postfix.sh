#!/bin/sh
#
# contrib/ as a host installs it, against a real Postfix (issue 13).
#
# contrib/install-deps installs postfix (unconfigured), procmail and mutt.
# A private Postfix instance (its own config_directory, queue_directory and
# data_directory under $TRASH, smtpd on 127.0.0.1:<free port>, log in a
# file) runs beside any system Postfix, which is never touched. Test users
# are created for the referees and the players (Maildir homes in $TRASH)
# and removed at the end.
#
# `make install PREFIX=$TRASH/usr` from a copy of the build folder, then the
# commands of contrib/README.md, with /usr/local and /home/referee put in
# $TRASH: contrib/postfix-master.cf's transport and postrider-deliver, run
# by Postfix's pipe(8) with its own environment (the test supplies no PATH
# and no HOME). Players answer the reports with mutt in batch mode (-H: a
# reply draft with In-Reply-To, the quoted report and the order). Checked:
# several turns, a token given on a body line, a rejection (mailed by the
# same run), a stranger (no reply), a busy game (75: Postfix defers, then
# delivers again and the turn is played), a turn played with the SMTP
# server unreachable (MAIL NOT SENT in the log, postrider send later),
# the players' Maildirs, and the
# .patch attachments applied with `git am` to a player's clone. Then the
# same through contrib/procmailrc (~/.forward to procmail). Then the
# transports: sendmail(8) for real, a 550 refusal set aside in failed/, two
# `postrider send` at once sending each message once, and root's error on
# the referee's game.
#
# It needs root (users, a mail system): without it, it fails and says so.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

need_root_and_tools "it creates users and runs a private Postfix" \
	/usr/sbin/postfix /usr/sbin/postmap /usr/sbin/postqueue \
	/usr/sbin/sendmail /usr/bin/procmail /usr/bin/mutt /usr/sbin/runuser \
	/usr/bin/flock
getent passwd postfix >/dev/null || die "no user postfix (made by the postfix package)"

chmod 755 "$TRASH"	# the test users walk through it to their homes
PF=$TRASH/pf		# the private Postfix instance
PREFIX=$TRASH/usr	# make install PREFIX=
U=$TRASH/users		# the test users' homes
DOMAIN=postrider.test
mkdir -p "$PF/conf" "$PF/queue" "$PF/data" "$U"
chmod 755 "$PF" "$U"
chown postfix "$PF/data"
PORT=$(free_port)

# --- make install, and the wrapper beside the binary (contrib/README.md) ---
cp -a "$BUILD_DIR" "$TRASH/build" || die "copy $BUILD_DIR"
make -s --no-print-directory BUILD="$TRASH/build" PREFIX="$PREFIX" install \
	>"$TRASH/install.log" 2>&1 || die "make install: $(cat "$TRASH/install.log")"
install -m 755 contrib/postrider-deliver "$PREFIX/bin/" || die "install postrider-deliver"
if strings "$PREFIX/bin/postrider" | grep -q "^$PREFIX/share/postrider\$"; then
	ok "make install PREFIX=... after make: the binary looks in PREFIX/share"
else
	fail "make install PREFIX=... after make: the binary looks in PREFIX/share" \
		"$(strings "$PREFIX/bin/postrider" | grep share/postrider)"
fi

# --- users ---
# this run's own (lib.sh's add_user: removed at the end, failed or not;
# the suffix keeps them apart from another suite's); the addresses in the
# games are the same every run: prt-alice@ (and prt-bob@, prt-pm@,
# prt-ref@) is rewritten to prt-alice-$RUN@ (the instance's
# virtual_alias_maps), the address of the user; prt-ref-$RUN@ is routed
# to the pipe transport, which runs as prt-ref-$RUN
REF_U=prt-ref-$RUN PM_U=prt-pm-$RUN ALICE_U=prt-alice-$RUN BOB_U=prt-bob-$RUN
PF_ALIASES="prt-ref=$REF_U prt-alice=$ALICE_U prt-bob=$BOB_U prt-pm=$PM_U"
USERS="$REF_U $PM_U $ALICE_U $BOB_U"
for _u in $USERS; do
	add_user "$_u" "$U/$_u"
	mkdir -p "$U/$_u"
	chown "$_u:" "$U/$_u"
done
ALICE="Alice <prt-alice@$DOMAIN>"
BOB="Bob <prt-bob@$DOMAIN>"

# --- the private Postfix ---
postfix_private_conf
# contrib/README.md, step 4: contrib's transport, in this instance's paths
sed -e "s|/usr/local/bin/|$PREFIX/bin/|g" -e "s|/home/referee|$U/$REF_U|g" \
	-e "s|user=referee|user=$REF_U|" contrib/postfix-master.cf \
	>>"$PF/conf/master.cf"
# contrib/README.md, step 4
echo "$REF_U@$DOMAIN postrider:" >>"$PF/conf/transport"
postmap -c "$PF/conf" "hash:$PF/conf/transport" ||
	die "postmap the transport map"
postconf -c "$PF/conf" -e "transport_maps = hash:$PF/conf/transport" \
	'recipient_delimiter = +' || die "postconf -e"

postfix_private_start

# --- the helpers of the players and the hosts ---

# host USER ARGS...: postrider ARGS run as USER with a bare environment,
# as the host would from a login shell (HOME set, the installed binary)
host() {
	_hu=$1
	shift
	runuser -u "$_hu" -- env -i HOME="$U/$_hu" LOGNAME="$_hu" \
		PATH="$PREFIX/bin:/usr/bin:/bin" TZ=UTC LC_ALL=C postrider "$@"
}

# report USER GAME SEQ SIDE: the report of order SEQ for SIDE in USER's Maildir
report() {
	grep -il "^message-id: <postrider\.$2\.$3\.$4@" \
		"$U/$1"/Maildir/new/* 2>/dev/null | head -n 1
}
has_report() {
	[ -n "$(report "$@")" ]
}
# mails USER: how many messages USER's Maildir holds
mails() {
	ls "$U/$1/Maildir/new" 2>/dev/null | grep -c . || :
}
commits() {
	git -c safe.directory='*' -C "$1" rev-list --count HEAD
}
commits_are() {
	[ "$(commits "$1")" = "$2" ]
}
# options REFEREE GAME: "SIDE\nORDER" of the legal orders, asked of the host
options() {
	host "$1" options "$2" --plain >"$TRASH/options" 2>"$TRASH/options.err" ||
		die "postrider options $2: $(cat "$TRASH/options.err")"
	SIDE=$(sed -n 1p "$TRASH/options")
	ORDER=$(sed -n 2p "$TRASH/options")
	case $SIDE in
	american) PLAYER=$ALICE_U ;;
	british) PLAYER=$BOB_U ;;
	*) die "options of $2: no side to move: $(cat "$TRASH/options")" ;;
	esac
}

# muttrc FROM: a player's mutt: sends to this instance by SMTP
muttrc() {
	cat <<EOF
set from="$1"
set use_from=yes
set hostname=$DOMAIN
set smtp_url="smtp://127.0.0.1:$PORT"
set ssl_starttls=no
set ssl_force_tls=no
set record=""
set charset=utf-8
set send_charset=utf-8
EOF
}
muttrc "$ALICE" >"$U/$ALICE_U/.muttrc"
muttrc "$BOB" >"$U/$BOB_U/.muttrc"
muttrc "Mallory <mallory@elsewhere.test>" >"$TRASH/mallory.muttrc"

# reply MUTTRC REPORT ORDER [TO [SUBJECT]]: mutt in batch mode sends the
# reply a player writes: To the report's Reply-To (host+TOKEN@), Subject
# "Re: ...", In-Reply-To the report, the order above the quoted report
reply() {
	_mid=$(header "$2" Message-ID)
	{
		echo "To: ${4:-$(header "$2" Reply-To)}"
		echo "Subject: ${5:-Re: $(header "$2" Subject)}"
		echo "In-Reply-To: $_mid"
		echo "References: $_mid"
		echo
		printf '%s\n\n' "$3"
		echo "On Mon, the referee wrote:"
		mail_part "$2" text/plain | sed 's/^/> /'
	} >"$TRASH/draft"
	HOME=$TRASH/home mutt -n -F "$1" -H "$TRASH/draft" </dev/null \
		>"$TRASH/mutt.out" 2>&1 ||
		fail "mutt sends the reply" "$(cat "$TRASH/mutt.out")"
}

# play_turn REFEREE GAME N [how]: the player to move answers report N-1
# with the first legal order; waits until turn N is committed and both
# players have report N. how: "token-line" gives the token on a body line
# (To the plain host address, no token in the subject)
play_turn() {
	_ref=$1 _g=$2 _tn=$3
	options "$_ref" "$U/$_ref/games/$_g"
	_r=$(report "$PLAYER" "$_g" $((_tn - 1)) "$SIDE")
	[ -n "$_r" ] || { fail "$_g turn $_tn: $PLAYER has report $((_tn - 1))"; return 1; }
	if [ "${4:-}" = token-line ]; then
		_tok=$(header "$_r" Subject | sed -n 's/.*(token \([a-z0-9-]*\)).*/\1/p')
		reply "$U/$PLAYER/.muttrc" "$_r" "token: $_tok
$ORDER" "$_ref@$DOMAIN" "Re: my move"
	elif [ "${4:-}" = new-mail ]; then
		# a new message, not a reply: no In-Reply-To, no References,
		# a subject of its own, the token on a line (issue 30)
		_tok=$(header "$_r" Subject | sed -n 's/.*(token \([a-z0-9-]*\)).*/\1/p')
		printf 'To: %s\nSubject: my move\n\ntoken: %s\n%s\n' "$_ref@$DOMAIN" "$_tok" "$ORDER" >"$TRASH/draft"
		HOME=$TRASH/home mutt -n -F "$U/$PLAYER/.muttrc" -H "$TRASH/draft" </dev/null \
			>"$TRASH/mutt.out" 2>&1 || fail "mutt sends the new message" "$(cat "$TRASH/mutt.out")"
	else
		reply "$U/$PLAYER/.muttrc" "$_r" "$ORDER"
	fi
	if wait_for 120 commits_are "$U/$_ref/games/$_g" $((_tn + 1)) &&
		wait_for 120 has_report $ALICE_U "$_g" "$_tn" american &&
		wait_for 120 has_report $BOB_U "$_g" "$_tn" british; then
		ok "$_g turn $_tn ($SIDE: $ORDER${4:+, $4}): played by mail, both reports delivered"
	else
		fail "$_g turn $_tn ($SIDE: $ORDER${4:+, $4}): played by mail, both reports delivered" \
			"commits: $(commits "$U/$_ref/games/$_g")" \
			"deliver.log:" "$(tail -n 15 "$U/$_ref/games/.deliver.log" 2>&1)" \
			"maillog:" "$(tail -n 15 "$PF/maillog")"
		return 1
	fi
}

# busy_turn REFEREE GAME N: the same while the game's lock is held: the
# delivery fails with 75, Postfix defers the message; once the lock is
# released, Postfix delivers it again and the turn is played
busy_turn() {
	_ref=$1 _g=$2 _tn=$3
	_lock=$U/$_ref/games/$_g/.git/postrider.lock
	_deferred=$(grep -c "status=deferred" "$PF/maillog")
	flock -o "$_lock" sh -c 'echo $$ >"$1"; exec sleep 600' sh "$TRASH/holder.pid" &
	_holder=$!
	# (a script that stops early ends the holder too)
	at_exit '[ -s "$TRASH/holder.pid" ] && kill "$(cat "$TRASH/holder.pid")" 2>/dev/null'
	wait_for 60 test -s "$TRASH/holder.pid" || die "holding the lock of $_g"
	options "$_ref" "$U/$_ref/games/$_g"
	reply "$U/$PLAYER/.muttrc" "$(report "$PLAYER" "$_g" $((_tn - 1)) "$SIDE")" "$ORDER"
	_more_deferred() {
		[ "$(grep -c "status=deferred" "$PF/maillog")" -gt "$_deferred" ]
	}
	if wait_for 120 _more_deferred; then
		ok "$_g busy: Postfix defers the order ($(grep "status=deferred" "$PF/maillog" | tail -n 1 | sed 's/.*status=deferred //'))"
	else
		fail "$_g busy: Postfix defers the order" "$(tail -n 10 "$PF/maillog")"
	fi
	expect_eq "$_g busy: nothing played meanwhile" "$_tn" "$(commits "$U/$_ref/games/$_g")"
	kill "$(cat "$TRASH/holder.pid")" "$_holder" 2>/dev/null
	wait "$_holder" 2>/dev/null
	rm -f "$TRASH/holder.pid"
	if wait_for 120 commits_are "$U/$_ref/games/$_g" $((_tn + 1)) &&
		wait_for 120 has_report $ALICE_U "$_g" "$_tn" american &&
		wait_for 120 has_report $BOB_U "$_g" "$_tn" british; then
		ok "$_g busy: Postfix delivers it again, the turn is played and mailed"
	else
		fail "$_g busy: Postfix delivers it again, the turn is played and mailed" \
			"$(tail -n 10 "$PF/maillog")"
	fi
}

# ============ the Postfix pipe transport (contrib/postfix-master.cf) ============

REF=$U/$REF_U
runuser -u $REF_U -- mkdir -p "$REF/games" "$REF/.config/postrider"
cat >"$REF/.config/postrider/config.yaml" <<EOF
transport: smtp
smtp_url: smtp://127.0.0.1:$PORT
starttls: false
from: Referee <prt-ref@$DOMAIN>
host_mail: $REF/Maildir/
EOF
chown $REF_U "$REF/.config/postrider/config.yaml"
# contrib/README.md: the referee creates the game in a login shell
su - $REF_U -c "$PREFIX/bin/postrider new --games ~/games --american '$ALICE' --british '$BOB' --host 'Referee <prt-ref@$DOMAIN>' --seed $SEED" \
	>"$TRASH/out" 2>"$TRASH/err"
_rc=$?
[ "$_rc" -eq 0 ] && ok "new --games (SMTP configured): exit 0" ||
	fail "new --games (SMTP configured): exit 0" "exit $_rc" "$(cat "$TRASH/err")"
G1=$(sed -n 's/^created game \(ww-[a-z0-9]*\) .*/\1/p' "$TRASH/out")
[ -n "$G1" ] || die "new: $(cat "$TRASH/out" "$TRASH/err")"
if wait_for 120 has_report $ALICE_U "$G1" 0 american &&
	wait_for 120 has_report $BOB_U "$G1" 0 british; then
	ok "new mails the first reports itself: both players have them"
else
	fail "new mails the first reports itself: both players have them" "$(tail "$PF/maillog")"
fi
# (the test's own git, as root, reads the referee's repositories)
git config --global --add safe.directory '*'
git clone -q "$REF/games/$G1" "$TRASH/alice-clone" ||
	die "the player's clone"

play_turn $REF_U "$G1" 1
play_turn $REF_U "$G1" 2 token-line
play_turn $REF_U "$G1" 3 new-mail

# a rejection: answered by the same run, nothing played
options $REF_U "$REF/games/$G1"
before=$(mails "$PLAYER")
reply "$U/$PLAYER/.muttrc" "$(report "$PLAYER" "$G1" 3 "$SIDE")" "fly to the moon"
rejected() {
	grep -l "^Subject: .*order not accepted" "$U/$PLAYER"/Maildir/new/* >/dev/null 2>&1
}
if wait_for 120 rejected; then
	ok "an illegal order: the rejection arrives, sent by the run that refused it"
else
	fail "an illegal order: the rejection arrives" "$(tail -n 10 "$REF/games/.deliver.log")"
fi
expect_eq "an illegal order: nothing played" 4 "$(commits "$REF/games/$G1")"
expect_eq "an illegal order: one mail, the rejection" $((before + 1)) "$(mails "$PLAYER")"

# a stranger: no reply, nothing played
a_before=$(mails $ALICE_U) b_before=$(mails $BOB_U)
reply "$TRASH/mallory.muttrc" "$(report "$PLAYER" "$G1" 3 "$SIDE")" "$ORDER"
stranger_seen() {
	grep -q "is not a player" "$REF/games/.deliver.log"
}
if wait_for 120 stranger_seen; then
	ok "a stranger's order reaches postrider and is refused"
else
	fail "a stranger's order reaches postrider and is refused" "$(tail "$REF/games/.deliver.log")"
fi
# what did not happen is looked at once the mail system is quiet: the run
# is over and anything it sent delivered
wait_for 120 postfix_quiet || fail "the private Postfix is quiet" "$(tail -n 5 "$PF/maillog")"
expect_eq "a stranger: nothing played" 4 "$(commits "$REF/games/$G1")"
expect_eq "a stranger: no mail to the players" "$a_before $b_before" \
	"$(mails $ALICE_U) $(mails $BOB_U)"

busy_turn $REF_U "$G1" 4

# a turn played while mail cannot go (the server's port is wrong): the
# order is played, and the host is told loudly; `postrider send` later
cp "$REF/.config/postrider/config.yaml" "$TRASH/config.good"
sed -i "s|^smtp_url: .*|smtp_url: smtp://127.0.0.1:1|" "$REF/.config/postrider/config.yaml"
options $REF_U "$REF/games/$G1"
reply "$U/$PLAYER/.muttrc" "$(report "$PLAYER" "$G1" 4 "$SIDE")" "$ORDER"
if wait_for 120 commits_are "$REF/games/$G1" 6; then
	ok "mail down: the turn is played all the same"
else
	fail "mail down: the turn is played all the same" "$(tail "$REF/games/.deliver.log")"
fi
# the wrapper says so after postrider exits, later than the commit
not_sent_said() {
	grep -qF "a turn was played but its mail was NOT SENT" "$REF/games/.deliver.log"
}
wait_for 120 not_sent_said
expect_fixed "mail down: the wrapper says MAIL NOT SENT in .deliver.log" \
	"MAIL NOT SENT" "$REF/games/.deliver.log"
expect_fixed "mail down: ... and that a turn was played but its mail NOT SENT" \
	"a turn was played but its mail was NOT SENT" "$REF/games/.deliver.log"
expect_eq "mail down: the two reports wait in the outbox" 2 \
	"$(ls "$REF/games/$G1/.git/postrider/outbox/new" | grep -c .)"
cp "$TRASH/config.good" "$REF/.config/postrider/config.yaml"
host $REF_U send "$REF/games/$G1" >"$TRASH/out" 2>&1
expect_eq "mail back: postrider send exits 0" 0 $?
if wait_for 120 has_report $ALICE_U "$G1" 5 american &&
	wait_for 120 has_report $BOB_U "$G1" 5 british; then
	ok "mail back: send delivers both reports"
else
	fail "mail back: send delivers both reports" "$(cat "$TRASH/out")"
fi
# what follows checks a clean log
mv "$REF/games/.deliver.log" "$TRASH/deliver.log.1"
play_turn $REF_U "$G1" 6

# the pipe's own lines are logged once postrider-deliver exits
wait_for 120 postfix_quiet || fail "the private Postfix is quiet" "$(tail -n 5 "$PF/maillog")"
grep "relay=postrider" "$PF/maillog" >"$TRASH/pipe.log"
expect_grep "the pipe transport delivered (status=sent)" "status=sent" "$TRASH/pipe.log"
expect_no_fixed "the wrapper found postrider" "postrider not found" \
	"$TRASH/deliver.log.1" "$REF/games/.deliver.log"
expect_no_fixed "no mail left unsent" "NOT SENT" "$REF/games/.deliver.log"
# the reports arrive before the wrapper has finished (it removes its copy
# of the order once postrider exits, which takes a while under ASan)
failed_empty() { [ -z "$(ls "$REF/games/.failed")" ]; }
wait_for 120 failed_empty
expect_eq "nothing kept in .failed/" "" "$(ls "$REF/games/.failed")"
expect_eq "the outbox new/ is empty" "" "$(ls "$REF/games/$G1/.git/postrider/outbox/new")"

# git am: the player's clone follows the game by the .patch attachments
n=1
while [ $n -le 6 ]; do
	r=$(report $ALICE_U "$G1" $n american)
	mail_part "$r" text/x-patch >"$TRASH/patch" 2>"$TRASH/patch.err" ||
		{ fail "report $n has a .patch attachment" "$(cat "$TRASH/patch.err")"; break; }
	c=$(git -c safe.directory='*' -C "$REF/games/$G1" rev-list --reverse HEAD | sed -n "$((n + 1))p")
	GIT_COMMITTER_NAME=$(git -c safe.directory='*' -C "$REF/games/$G1" log -1 --format=%cn "$c") \
	GIT_COMMITTER_EMAIL=$(git -c safe.directory='*' -C "$REF/games/$G1" log -1 --format=%ce "$c") \
	GIT_COMMITTER_DATE=$(git -c safe.directory='*' -C "$REF/games/$G1" log -1 --format='%ct %cz' "$c") \
		git -C "$TRASH/alice-clone" am -q "$TRASH/patch" >"$TRASH/am.out" 2>&1 ||
		{ fail "git am the .patch of report $n" "$(cat "$TRASH/am.out")"; break; }
	n=$((n + 1))
done
expect_eq "the player's clone, after git am of each .patch, is the game" \
	"$(git -c safe.directory='*' -C "$REF/games/$G1" rev-parse HEAD)" \
	"$(git -C "$TRASH/alice-clone" rev-parse HEAD)"

# mail for the host (cron's, root's): into host_mail, not dropped (issue 30)
printf 'From: Cron Daemon <root@%s>\nTo: %s\nSubject: Cron <%s@mx> /usr/local/bin/postrider remind ~/games\nAuto-Submitted: auto-generated\n\nsomething went wrong\n' \
	"$DOMAIN" "prt-ref@$DOMAIN" "$REF_U" | /usr/sbin/sendmail -oi -f "root@$DOMAIN" "prt-ref@$DOMAIN"
host_got_it() {
	grep -l "^Subject: Cron <$REF_U@mx>" "$REF"/Maildir/new/* >/dev/null 2>&1
}
if wait_for 120 host_got_it; then
	ok "cron's mail to the referee reaches the host's mailbox (host_mail)"
else
	fail "cron's mail to the referee reaches the host's mailbox (host_mail)" \
		"$(tail -n 5 "$REF/games/.deliver.log")" "$(tail -n 5 "$PF/maillog")"
fi

# exit 78 (the host must mend the configuration): the message is kept and
# bounced to its sender, who learns it was not played (issue 30)
cp "$REF/.config/postrider/config.yaml" "$TRASH/config.good"
echo "no_such_key: 1" >>"$REF/.config/postrider/config.yaml"
options $REF_U "$REF/games/$G1"
before=$(mails "$PLAYER")
reply "$U/$PLAYER/.muttrc" "$(report "$PLAYER" "$G1" 6 "$SIDE")" "$ORDER"
bounced() {
	grep -l "This message was NOT played" "$U/$PLAYER"/Maildir/new/* >/dev/null 2>&1
}
if wait_for 120 bounced; then
	ok "78: the sender gets a bounce saying the order was not played, and why"
else
	fail "78: the sender gets a bounce saying the order was not played, and why" \
		"$(tail -n 5 "$REF/games/.deliver.log")" "$(tail -n 5 "$PF/maillog")"
fi
expect_eq "78: nothing played" 7 "$(commits "$REF/games/$G1")"
expect_eq "78: the message is kept in .failed/" 1 "$(ls "$REF/games/.failed" | grep -c .)"
cp "$TRASH/config.good" "$REF/.config/postrider/config.yaml"
# mended: fed again as contrib/README.md says
su - $REF_U -c "for f in ~/games/.failed/incoming.*; do
	$PREFIX/bin/postrider-deliver ~/games < \"\$f\" && rm \"\$f\"; done" >"$TRASH/refeed.out" 2>&1
if wait_for 120 commits_are "$REF/games/$G1" 8; then
	ok "78 mended: the kept message is fed again and played"
else
	fail "78 mended: the kept message is fed again and played" "$(cat "$TRASH/refeed.out")" \
		"$(tail -n 5 "$REF/games/.deliver.log")"
fi
expect_eq "78 mended: .failed/ is empty" "" "$(ls "$REF/games/.failed")"

# root on the referee's game: the documented error (no safe.directory)
mkdir -p "$TRASH/root-home"
expect_exit 75 env HOME="$TRASH/root-home" postrider options "$REF/games/$G1"
expect_fixed "root on the referee's game: 'belongs to another user'" \
	"belongs to another user" "$TRASH/err"
expect_eq "root on the referee's game: the error is said once, on one line" 1 \
	"$(grep -c . "$TRASH/err")"

# ============ procmail (contrib/procmailrc) ============

PM=$U/$PM_U
runuser -u $PM_U -- mkdir -p "$PM/games" "$PM/.config/postrider"
sed "s|/home/referee|$PM|g; s|$REF/|$PM/|g; s|^from: .*|from: Referee <prt-pm@$DOMAIN>|" \
	"$REF/.config/postrider/config.yaml" >"$PM/.config/postrider/config.yaml"
sed "s|/usr/local/bin/|$PREFIX/bin/|g" contrib/procmailrc >"$PM/.procmailrc"
echo '"|exec /usr/bin/procmail"' >"$PM/.forward"
chown $PM_U "$PM/.config/postrider/config.yaml" "$PM/.procmailrc" "$PM/.forward"
chmod 644 "$PM/.procmailrc" "$PM/.forward"
su - $PM_U -c "$PREFIX/bin/postrider new --games ~/games --american '$ALICE' --british '$BOB' --host 'Referee <prt-pm@$DOMAIN>' --seed ${SEED%??}aa" \
	>"$TRASH/out" 2>"$TRASH/err"
expect_eq "procmail: new exits 0" 0 $?
G2=$(sed -n 's/^created game \(ww-[a-z0-9]*\) .*/\1/p' "$TRASH/out")
[ -n "$G2" ] || die "new: $(cat "$TRASH/out" "$TRASH/err")"
wait_for 120 has_report $ALICE_U "$G2" 0 american ||
	fail "procmail: the first report arrives"
play_turn $PM_U "$G2" 1
busy_turn $PM_U "$G2" 2
play_turn $PM_U "$G2" 3
# 78 through procmail: postrider's status goes out as procmail's, so the
# sender gets Postfix's bounce at once (procmail passes no text: the
# reason is in .deliver.log) and the message is kept once in .failed/ (a
# 75 would have Postfix deliver it again and again, each a new copy)
cp "$PM/.config/postrider/config.yaml" "$TRASH/pm-config.good"
echo "no_such_key: 1" >>"$PM/.config/postrider/config.yaml"
options $PM_U "$PM/games/$G2"
reply "$U/$PLAYER/.muttrc" "$(report "$PLAYER" "$G2" 3 "$SIDE")" "$ORDER"
pm_bounced() {
	grep -l "^Subject: Undelivered Mail Returned to Sender" "$U/$PLAYER"/Maildir/new/* 2>/dev/null |
		xargs grep -l "$G2" >/dev/null 2>&1
}
if wait_for 120 pm_bounced; then
	ok "procmail 78: the sender gets the bounce"
else
	fail "procmail 78: the sender gets the bounce" \
		"$(tail -n 5 "$PM/games/.deliver.log" 2>/dev/null)" "$(tail -n 5 "$PF/maillog")"
fi
# the bounce ends the message's delivery: no retry can come after it
# once the queue is empty
wait_for 120 postfix_quiet || fail "the private Postfix is quiet" "$(tail -n 5 "$PF/maillog")"
expect_eq "procmail 78: the message is kept once, not once per retry" 1 \
	"$(ls "$PM/games/.failed" 2>/dev/null | grep -c .)"
expect_eq "procmail 78: nothing played" 4 "$(commits "$PM/games/$G2")"
cp "$TRASH/pm-config.good" "$PM/.config/postrider/config.yaml"
expect_eq "procmail: nothing fell through to the referee's mailbox" "" \
	"$(cat "/var/mail/$PM_U" "$PM"/Maildir/new/* 2>/dev/null)"

# ============ the transports ============

mkdir -p "$TRASH/hostgames"
# sendmail(8) for real, into this instance (root may use its MAIL_CONFIG)
cat >"$TRASH/sendmail.yaml" <<EOF
transport: sendmail
from: Referee <referee@$DOMAIN>
EOF
expect_exit 0 env POSTRIDER_CONFIG="$TRASH/sendmail.yaml" postrider new "$TRASH/hostgames/sm" \
	--american "$ALICE" --british "$BOB" --host "Referee <referee@$DOMAIN>" --seed "${SEED%??}bb"
G3=$(sed -n 's/^created game \(ww-[a-z0-9]*\) .*/\1/p' "$TRASH/out")
if wait_for 120 has_report $ALICE_U "$G3" 0 american &&
	wait_for 120 has_report $BOB_U "$G3" 0 british; then
	ok "transport: sendmail delivers both reports"
else
	fail "transport: sendmail delivers both reports" "$(cat "$TRASH/err")" "$(tail "$PF/maillog")"
fi

# a permanent refusal (550, unknown user) is set aside, the rest goes
cat >"$TRASH/smtp.yaml" <<EOF
smtp_url: smtp://127.0.0.1:$PORT
starttls: false
from: Referee <referee@$DOMAIN>
EOF
expect_exit 3 env POSTRIDER_CONFIG="$TRASH/smtp.yaml" postrider new "$TRASH/hostgames/550" \
	--american "$ALICE" --british "Nobody <prt-nobody@$DOMAIN>" \
	--host "Referee <referee@$DOMAIN>" --seed "${SEED%??}cc"
expect_fixed "550: said on stderr" "MAIL REFUSED: 1 message(s) refused for good" "$TRASH/err"
expect_grep "550: the reason names the reply" "reply 550" "$TRASH/err"
expect_fixed "550: ... and the server's own words" "Recipient address rejected" "$TRASH/err"
O=$TRASH/hostgames/550/.git/postrider/outbox
expect_eq "550: the refused report is in failed/" 1 "$(ls "$O/failed" | grep -c british)"
expect_eq "550: nothing waits in new/" "" "$(ls "$O/new")"
expect_exit 0 env POSTRIDER_CONFIG="$TRASH/smtp.yaml" postrider send "$TRASH/hostgames/550"
expect_eq "550: not retried by send" "" "$(cat "$TRASH/out")"

# two senders at once: each message goes once
echo "transport: outbox" >"$TRASH/outbox.yaml"
expect_exit 0 env POSTRIDER_CONFIG="$TRASH/outbox.yaml" postrider new "$TRASH/hostgames/two" \
	--american "$ALICE" --british "$BOB" --host "Referee <referee@$DOMAIN>" --seed "${SEED%??}dd"
G4=$(sed -n 's/^created game \(ww-[a-z0-9]*\) .*/\1/p' "$TRASH/out")
POSTRIDER_CONFIG=$TRASH/smtp.yaml postrider send "$TRASH/hostgames/two" >"$TRASH/send1" 2>&1 &
s1=$!
POSTRIDER_CONFIG=$TRASH/smtp.yaml postrider send "$TRASH/hostgames/two" >"$TRASH/send2" 2>&1 &
s2=$!
wait $s1
r1=$?
wait $s2
r2=$?
expect_eq "two senders: both exit 0" "0 0" "$r1 $r2"
expect_eq "two senders: two messages sent in all" 2 "$(cat "$TRASH/send1" "$TRASH/send2" | grep -c "^sent ")"
wait_for 120 has_report $BOB_U "$G4" 0 british || fail "two senders: the reports arrive"
wait_for 120 postfix_quiet || fail "the private Postfix is quiet" "$(tail -n 5 "$PF/maillog")"
expect_eq "two senders: the American got one copy" 1 \
	"$(grep -il "^message-id: <postrider\.$G4\.0\.american@" "$U/$ALICE_U"/Maildir/new/* | grep -c .)"

test_done
