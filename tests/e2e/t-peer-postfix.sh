#!/bin/sh
#
# A game with no host through real mail (issue 34, docs/peer.md).
#
# Two Unix users of this run's own, prpeer-am-$RUN (the American) and
# prpeer-br-$RUN (the British), homes under $TRASH, and a private Postfix
# instance (its own config,
# queue and data folders under $TRASH, smtpd on 127.0.0.1:<free port>,
# its log in a file; any system Postfix is never touched) delivering the
# test domain locally to them. Each user's ~/.forward hands his mail to
# procmail with contrib/procmailrc-peer: the mails of the other side's
# postrider go to his own postrider (contrib/postrider-deliver --games
# ~/games, which finds his copy there: the American's ~/games/ww-bob, the
# British's ~/games/ww-alice, as README.md names them), his own replies
# to his reports too, everything else (the invitation, the reports) to
# his Maildir, which is also his configuration's host_mail.
#
# The harness is checked first: a plain mail from one user reaches the
# other's Maildir through procmail; a peer mail reaches the other's
# postrider (here, before his game exists, postrider finds no copy of its
# game and hands it to his Maildir, a header saying why; no bounce, no
# copy kept in ~/games/.failed/); an invitation lands in the Maildir.
#
# Then the game: the American starts it with `peer new` as his user, the
# British joins from the invitation in his Maildir, and a driver plays
# random legal orders for the side to move, as its user, waiting each
# time until the mail system is quiet (every automatic answer given), to
# the end of the game: about one order in ten is a reply to the player's
# last report sent with mutt (through his procmail to his own postrider),
# the others `postrider play ~/games/NAME --as SIDE` at his machine. Then both
# copies must have the same head and tree, `postrider peer audit` pass on
# each, tests/verify/verify_peer.py agree (on one copy: the trees are the
# same), and the number of automatic mails (from the delivery logs) is
# printed. Last, a mail of the game sent again while the British copy is
# busy: deferred by Postfix (75), then taken as a copy that changes
# nothing. The secrets, the clock and the driver's seed are fixed: the
# same game every run (the addresses too: the users' names change with
# the run, not the addresses, lib.sh's PF_ALIASES). POSTRIDER_PEER_ORDERS
# bounds the orders of the driver (default 2000: the whole game),
# POSTRIDER_PEER_SEED changes its seed (default 4).
#
# It needs root (users, a mail system): without it, it fails and says so.
# Every user and process it makes is removed at its end, also on failure.
# Nothing it makes is shared with another run (the users' names carry the
# run's suffix, the port is found free, the instance's folders are in
# $TRASH): two suites may run it at once on one machine.

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
DOMAIN=peer.postrider.test
AM_USER=prpeer-am-$RUN
BR_USER=prpeer-br-$RUN
USERS="$AM_USER $BR_USER"
# the addresses are the same every run (the instance's virtual_alias_maps
# give their mail to this run's users): so are the commit ids
AM="Alice <prpeer-am@$DOMAIN>"
BR="Bob <prpeer-br@$DOMAIN>"
PF_ALIASES="prpeer-am=$AM_USER prpeer-br=$BR_USER"
CA=$U/$AM_USER/games/ww-bob	# the American's copy (README.md's name)
CB=$U/$BR_USER/games/ww-alice	# the British's
mkdir -p "$PF/conf" "$PF/queue" "$PF/data" "$U"
chmod 755 "$PF" "$U"
chown postfix "$PF/data"
PORT=$(free_port)

# --- make install, and the wrapper beside the binary (contrib/README.md) ---
cp -a "$BUILD_DIR" "$TRASH/build" || die "copy $BUILD_DIR"
make -s --no-print-directory BUILD="$TRASH/build" PREFIX="$PREFIX" install \
	>"$TRASH/install.log" 2>&1 || die "make install: $(cat "$TRASH/install.log")"
install -m 755 contrib/postrider-deliver "$PREFIX/bin/" || die "install postrider-deliver"
install -m 755 tests/verify/verify_peer.py "$TRASH/verify_peer.py" || die "install verify_peer.py"

# --- the users (removed at the end, their processes first: add_user) ---
for _u in $USERS; do
	add_user "$_u" "$U/$_u"
	mkdir -p "$U/$_u/.config/postrider"
done

# --- the private Postfix: local delivery of $DOMAIN to the two users ---
postfix_private_conf
postfix_private_start

# --- each player's set-up: postrider's mail, procmail, mutt ---
for _u in $USERS; do
	case $_u in
	"$AM_USER") _me=$AM ;;
	*) _me=$BR ;;
	esac
	# contrib/README.md, "A player without a host": his own address,
	# and his mailbox for a mail of no game he holds
	cat >"$U/$_u/.config/postrider/config.yaml" <<EOF
transport: smtp
smtp_url: smtp://127.0.0.1:$PORT
starttls: false
from: $_me
host_mail: $U/$_u/Maildir/
EOF
	mkdir -p "$U/$_u/games"
	# contrib/README.md, "A player without a host": procmail
	# (and the test's fixed clock, for the runs procmail starts: the
	# commit ids, hence the dice, are the same each run)
	sed -e "s|/usr/local/bin/|$PREFIX/bin/|g" \
		-e "s|^SHELL=/bin/sh\$|&\\
POSTRIDER_NOW=$POSTRIDER_NOW|" contrib/procmailrc-peer >"$U/$_u/.procmailrc"
	grep -q "^POSTRIDER_NOW=$POSTRIDER_NOW\$" "$U/$_u/.procmailrc" ||
		die "the fixed clock in the test's .procmailrc"
	echo '"|exec /usr/bin/procmail"' >"$U/$_u/.forward"
	cat >"$U/$_u/.muttrc" <<EOF
set from="$_me"
set use_from=yes
set hostname=$DOMAIN
set smtp_url="smtp://127.0.0.1:$PORT"
set ssl_starttls=no
set ssl_force_tls=no
set record=""
set charset=utf-8
set send_charset=utf-8
EOF
	chown -R "$_u:" "$U/$_u"
	chmod 644 "$U/$_u/.procmailrc" "$U/$_u/.forward"
done

# as USER CMD...: CMD as USER with the bare environment of a login shell
as() {
	_au=$1
	shift
	runuser -u "$_au" -- env -i HOME="$U/$_au" LOGNAME="$_au" USER="$_au" \
		PATH="$PREFIX/bin:/usr/bin:/bin" TZ=UTC LC_ALL=C POSTRIDER_NOW="$POSTRIDER_NOW" "$@"
}
# mutt_send USER DRAFT: USER's mutt sends the draft (headers, body) by SMTP
mutt_send() {
	as "$1" mutt -n -F "$U/$1/.muttrc" -H "$2" </dev/null >"$TRASH/mutt.out" 2>&1 ||
		fail "mutt of $1 sends $2" "$(cat "$TRASH/mutt.out")"
}
# in_maildir USER SUBJECT: the first message of USER's Maildir with SUBJECT
in_maildir() {
	grep -lF "Subject: $2" "$U/$1"/Maildir/new/* 2>/dev/null | head -n 1
}
has_in_maildir() {
	[ -n "$(in_maildir "$@")" ]
}
delivered_to_postrider() {
	grep -qF -- "$2" "$U/$1/games/.deliver.log" 2>/dev/null
}

# ============ the harness ============

# a plain mail between the two: through procmail into the Maildir
printf 'To: %s\nSubject: hello from the American\n\nShall we play?\n' "$BR" >"$TRASH/draft"
chmod 644 "$TRASH/draft"
mutt_send "$AM_USER" "$TRASH/draft"
if wait_for 120 has_in_maildir "$BR_USER" "hello from the American"; then
	ok "a plain mail from one player reaches the other's Maildir through procmail"
else
	fail "a plain mail from one player reaches the other's Maildir through procmail" \
		"$(tail -n 10 "$PF/maillog")"
fi
# local(8) logs the delivery once procmail has exited, after the
# Maildir has the message
delivered_by_forward() {
	grep -q "to=<$BR_USER@$DOMAIN>.*status=sent (delivered to command: exec /usr/bin/procmail)" \
		"$PF/maillog"
}
wait_for 120 delivered_by_forward
expect_grep "... delivered by the command in ~/.forward" \
	"to=<$BR_USER@$DOMAIN>.*status=sent (delivered to command: exec /usr/bin/procmail)" \
	"$PF/maillog"

# a peer mail (the opponent's postrider's, automatic) goes to his
# postrider-deliver --games ~/games: for a game of which ~/games holds no
# copy (none yet), postrider hands it to his Maildir (host_mail) with a
# header saying why, bounces nothing and keeps nothing. The mail: the
# join of a game made here by root (lib.sh's peer_pair), sent by
# sendmail(8) to the American's address
peer_pair "$TRASH/harness-a" "$TRASH/harness-b"
HJ=$(grep -l "^Subject: \[ww-[0-9a-f]*\] peer 2 british join" "$(outbox "$TRASH/harness-b")"/new/* | head -n 1)
HID=$(header "$HJ" Subject | sed 's/^\[\(ww-[0-9a-f]*\)\].*/\1/')
/usr/sbin/sendmail -oi -f "prpeer-br@$DOMAIN" "prpeer-am@$DOMAIN" <"$HJ" ||
	fail "sendmail sends the join of another game"
if wait_for 120 delivered_to_postrider "$AM_USER" "[$HID] peer 2 british join"; then
	ok "a peer mail goes to the receiver's postrider-deliver --games ~/games"
else
	fail "a peer mail goes to the receiver's postrider-deliver --games ~/games" \
		"$(tail -n 10 "$PF/maillog")"
fi
# postrider writes its answer later than postrider-deliver its first line:
# wait for the answer itself
if wait_for 120 delivered_to_postrider "$AM_USER" "there is no game $HID in '$U/$AM_USER/games'"; then
	ok "... which finds no copy of its game in ~/games"
else
	fail "... which finds no copy of its game in ~/games" "$(cat "$U/$AM_USER/games/.deliver.log" 2>&1)"
fi
if wait_for 120 has_in_maildir "$AM_USER" "[$HID] peer 2 british join"; then
	ok "... and hands it to his Maildir (host_mail)"
else
	fail "... and hands it to his Maildir (host_mail)" "$(cat "$U/$AM_USER/games/.deliver.log" 2>&1)"
fi
expect_grep "... with a header that says why" "^X-Postrider-Host-Mail: .*there is no game $HID" \
	"$(in_maildir "$AM_USER" "[$HID] peer 2 british join")"
wait_for 120 postfix_quiet || fail "the private Postfix is quiet" "$(tail -n 5 "$PF/maillog")"
expect_eq "... no bounce to its sender" "" "$(in_maildir "$BR_USER" "Undelivered Mail Returned to Sender")"
expect_eq "... nothing kept in ~/games/.failed/" "" "$(ls "$U/$AM_USER/games/.failed" 2>/dev/null)"
rm -f "$U/$AM_USER/games/.deliver.log" "$U/$AM_USER"/Maildir/new/*

# an invitation (kind invite) is for the human: into the Maildir
printf 'To: %s\nSubject: [ww-harness] peer 1 american invite\nAuto-Submitted: auto-generated\n\nan invitation\n' \
	"$BR" >"$TRASH/draft"
mutt_send "$AM_USER" "$TRASH/draft"
if wait_for 120 has_in_maildir "$BR_USER" "[ww-harness] peer 1 american invite"; then
	ok "an invitation lands in the Maildir, for the player to read"
else
	fail "an invitation lands in the Maildir, for the player to read" "$(tail -n 10 "$PF/maillog")"
fi
expect_eq "... and not with postrider" "" "$(cat "$U/$BR_USER/games/.deliver.log" 2>/dev/null)"

# ============ the game ============

rm -f "$U/$BR_USER"/Maildir/new/*
# the secrets are fixed ($SA and $SB of lib.sh, given to peer new and
# join with --secret), so that the deals, the dice and the driver's
# orders make the same game each run
as "$AM_USER" postrider peer new "$CA" --me american \
	--american "$AM" --british "$BR" --secret "$SA" >"$TRASH/new.out" 2>"$TRASH/new.err"
expect_eq "peer new, as the American: exit 0" 0 "$?"
is_invitation() {
	grep -lE "^Subject: \[[-a-z0-9]+\] peer [0-9]+ american invite" \
		"$U/$BR_USER"/Maildir/new/* 2>/dev/null | head -n 1
}
has_invitation() { [ -n "$(is_invitation)" ]; }
wait_for 120 has_invitation ||
	die "the invitation reaches the British Maildir: $(cat "$TRASH/new.err"; tail -n 5 "$PF/maillog")"
ok "the invitation reaches the British Maildir"
INV=$(is_invitation)
as "$BR_USER" postrider peer join "$CB" --secret "$SB" --address "$BR" "$INV" \
	>"$TRASH/join.out" 2>"$TRASH/join.err"
expect_eq "peer join from the invitation, as the British: exit 0" 0 "$?"
fp_am=$(sed -n 's/^fingerprint: \([0-9a-f]\{16\}\) .*/\1/p' "$TRASH/new.out")
fp_br=$(sed -n 's/^fingerprint: \([0-9a-f]\{16\}\) .*/\1/p' "$TRASH/join.out")
expect_ne "peer new prints the fingerprint" "" "$fp_am"
expect_eq "peer join prints the same fingerprint" "$fp_am" "$fp_br"
git config --global --add safe.directory '*'
same_heads() {
	[ "$(git -C "$CA" rev-parse HEAD 2>/dev/null)" = \
		"$(git -C "$CB" rev-parse HEAD 2>/dev/null)" ]
}
if wait_for 120 same_heads; then
	ok "the join reaches the American's postrider by mail and is accepted: one head"
else
	fail "the join reaches the American's postrider by mail and is accepted: one head" \
		"$(cat "$U/$AM_USER/games/.deliver.log" 2>&1)" "$(tail -n 5 "$PF/maillog")"
fi
expect_grep "... through procmail and postrider-deliver --games" \
	'^--- .* \[ww-[0-9a-f]*\] peer 2 british join$' "$U/$AM_USER/games/.deliver.log"

# The driver: one line per order, "order N SIDE exit STATUS ORDER", then
# "end ..."; it waits until the mail is quiet before asking who decides.
start=$(date +%s)
"$PY" - "$U" "$AM_USER" "$BR_USER" "$PREFIX" "$PF" "${POSTRIDER_PEER_ORDERS:-2000}" \
	"${POSTRIDER_PEER_SEED:-4}" \
	>"$TRASH/game.out" 2>"$TRASH/game.err" <<'EOF'
import email, os, pwd, random, re, subprocess, sys, time
from email import policy
home, am, br, prefix, pf, limit, seed = sys.argv[1:8]
users = {"american": am, "british": br}
# each player's copy, in his ~/games (README.md, "Two players, no host")
COPY = {am: "%s/%s/games/ww-bob" % (home, am), br: "%s/%s/games/ww-alice" % (home, br)}
rnd = random.Random(int(seed))

def run(user, *args, stdin=None):
    env = ["env", "-i", "HOME=%s/%s" % (home, user), "LOGNAME=" + user, "USER=" + user,
           "PATH=%s/bin:/usr/bin:/bin" % prefix, "TZ=UTC", "LC_ALL=C",
           "POSTRIDER_NOW=" + os.environ["POSTRIDER_NOW"]]
    return subprocess.run(["runuser", "-u", user, "--"] + env + list(args),
                          input=stdin, capture_output=True, text=True)

def head(user):
    r = subprocess.run(["git", "-c", "safe.directory=*", "-C", COPY[user],
                        "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip()

UIDS = {pwd.getpwnam(u).pw_uid for u in (am, br)}

def busy():
    """A message in the private Postfix's queue, or a process of either
    player (procmail, postrider-deliver, postrider) still running."""
    for sub in ("maildrop", "incoming", "active", "deferred", "hold"):
        for _, _, files in os.walk(os.path.join(pf, "queue", sub)):
            if files:
                return True
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat("/proc/" + pid).st_uid in UIDS:
                    return True
            except OSError:
                pass
    return False

def quiet(timeout=600):
    """Until nothing is in flight twice in a row and both heads agree."""
    end, calm = time.time() + timeout, 0
    while time.time() < end:
        if not busy() and head(am) == head(br):
            calm += 1
            if calm == 2:
                return True
        else:
            calm = 0
        time.sleep(0.05)
    return False

def last_report(user):
    """The newest report in user's Maildir from his own postrider (subject
    "[ID] YEAR: your move, SIDE (token ...)", the host's report: not a
    peer mail, nor a notice such as the join's), or None."""
    folder = "%s/%s/Maildir/new" % (home, user)
    best = None
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            m = email.message_from_binary_file(f, policy=policy.default)
        if m["X-Postrider-Game"] is None or not re.search(r"\] \d+: your move, ", str(m["Subject"])):
            continue
        if best is None or os.stat(path).st_mtime_ns > best[0]:
            best = (os.stat(path).st_mtime_ns, path, m)
    return best and best[1:]

def reply_by_mutt(user, report, order):
    """The player answers his own postrider's report with mutt: To its
    Reply-To, In-Reply-To it, the order above the quoted report."""
    path, m = report
    text = m.get_body(("plain",)).get_content()
    draft = "%s/%s/draft" % (home, user)
    with open(draft, "w") as f:
        f.write("To: %s\nSubject: Re: %s\nIn-Reply-To: %s\nReferences: %s\n\n%s\n\nOn Tue, you wrote:\n%s\n"
                % (m["Reply-To"] or m["From"], m["Subject"], m["Message-ID"], m["Message-ID"], order,
                   "\n".join("> " + l for l in text.splitlines())))
    subprocess.run(["chown", user, draft])
    return run(user, "mutt", "-n", "-F", "%s/%s/.muttrc" % (home, user), "-H", draft, stdin="")

n = by_mail = 0
typed = {"american": 0, "british": 0}  # when each side last played --as
while n < int(limit):
    if not quiet():
        print("end not quiet after", n, "orders: heads", head(am), head(br))
        break
    opts = run(am, "postrider", "options", COPY[am], "--plain")
    lines = opts.stdout.splitlines()
    if opts.returncode or not lines:
        print("end options failed:", opts.stderr.strip())
        break
    side = lines[0]
    if side == "none":
        quiet()
        print("end game over after", n, "orders (%d by mail)" % by_mail)
        break
    # the side to move asks its own copy, which knows its hand
    if side != "american":
        opts = run(users[side], "postrider", "options", COPY[users[side]], "--plain")
        lines = opts.stdout.splitlines()
        if opts.returncode or not lines or lines[0] != side:
            print("end the copies disagree on who decides:", side, lines[:1], opts.stderr.strip())
            break
    order = rnd.choice(lines[1:])
    n += 1
    before = head(users[side])
    # about one order in ten by mail: the first in each ten orders whose
    # player has a report that asks it
    report = last_report(users[side]) if by_mail <= (n - 1) // 10 else None
    # the newest report asks this decision only if it came after the
    # side's last order typed at his machine (that run mails no report:
    # the player sees its answer there)
    if report and os.stat(report[0]).st_mtime_ns <= typed[side]:
        report = None
    if report:
        # by mail: a reply to the player's last report, through Postfix
        # and his procmail to his own postrider
        r = reply_by_mutt(users[side], report, order)
        by_mail += 1
        if r.returncode == 0 and quiet() and head(users[side]) == before:
            log = "%s/%s/games/.deliver.log" % (home, users[side])
            tail = open(log).read().splitlines()[-12:] if os.path.exists(log) else ["(no .deliver.log)"]
            r = subprocess.CompletedProcess(r.args, 1, "", "the order by mail was not played; "
                                            "the end of his .deliver.log:\n" + "\n".join(tail) + "\n")
        how = "by mail"
    else:
        r = run(users[side], "postrider", "play", COPY[users[side]], "--as", side, "-",
                stdin=order + "\n")
        typed[side] = time.time_ns()
        how = "play --as"
    print("order", n, side, "exit", r.returncode, order, "(%s)" % how, flush=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        break
else:
    quiet()
    print("end", limit, "orders (%d by mail)" % by_mail)
EOF
secs=$(($(date +%s) - start))
orders=$(grep -c '^order' "$TRASH/game.out")
echo "# $orders orders in $secs s"
expect_grep "the game was played to its end by mail" '^end game over after' "$TRASH/game.out"
expect_eq "every order was accepted" "" "$(grep '^order' "$TRASH/game.out" | grep -v ' exit 0 ')"
expect_grep "one order in ten went by mail: a reply to the player's own report" \
	'^order [0-9]* .* (by mail)$' "$TRASH/game.out"
show_file "$TRASH/game.err"
tail -n 3 "$TRASH/game.out" | sed 's/^/# /'

expect_eq "both copies have the same head" \
	"$(git -C "$CA" rev-parse HEAD)" "$(git -C "$CB" rev-parse HEAD)"
expect_eq "... and the same tree" \
	"$(git -C "$CA" rev-parse 'HEAD^{tree}')" \
	"$(git -C "$CB" rev-parse 'HEAD^{tree}')"
for _u in $USERS; do
	case $_u in "$AM_USER") _c=$CA ;; *) _c=$CB ;; esac
	as "$_u" postrider peer audit "$_c" >"$TRASH/audit.out" 2>&1
	_rc=$?
	if [ $_rc -eq 0 ]; then
		ok "postrider peer audit passes on the copy of $_u"
	else
		fail "postrider peer audit passes on the copy of $_u" "exit $_rc" "$(tail -n 10 "$TRASH/audit.out")"
	fi
done
tail -n 2 "$TRASH/audit.out" | sed 's/^/# peer audit: /'
# the copies have one tree (above): the walk of one is the walk of both
# (a game cut short by POSTRIDER_PEER_ORDERS is checked as far as it went)
as "$BR_USER" /usr/bin/python3 "$TRASH/verify_peer.py" game "$CB" \
	$(grep -q '^end game over' "$TRASH/game.out" || echo --running) >"$TRASH/verify.out" 2>&1
expect_eq "verify_peer.py game agrees on the British copy" 0 "$?"
expect_grep "... and says valid" '^valid$' "$TRASH/verify.out"
sed -n '/^generation\|^shares\|^dice\|^draws\|^cards\|^keys/s/^/# /p' "$TRASH/verify.out"

# the automatic mails: the kinds a postrider sends without a human
# (answer, end), from the delivery logs; and from the Postfix log, every
# message procmail took (the mails between the postriders, the reports,
# the orders by mail, the harness's)
auto=$(cat "$U/$AM_USER/games/.deliver.log" "$U/$BR_USER/games/.deliver.log" 2>/dev/null |
	grep -cE '^--- .* peer [0-9]+ (american|british) (answer|end)$')
human=$(cat "$U/$AM_USER/games/.deliver.log" "$U/$BR_USER/games/.deliver.log" 2>/dev/null |
	grep -cE '^--- .* peer [0-9]+ (american|british) (join|order|claim)$')
piped=$(grep -c 'status=sent (delivered to command: exec /usr/bin/procmail)' "$PF/maillog")
echo "# automatic mails: $auto; mails after a human's order or join: $human; messages through procmail: $piped"
expect_ne "automatic mails were counted" 0 "$auto"

# A mail of the game sent again (8.3 step 4: a copy changes nothing) while
# the British copy is busy (its lock held): postrider exits 75, procmail
# too, Postfix defers the mail; once the lock is free it delivers it again
# and the British postrider says it was applied already.
last_peer_mail() {
	grep -lE "^Subject: \[[-a-z0-9]+\] peer [0-9]+ american (join|order|answer|claim|end)" \
		"$CA/.git/postrider/outbox/cur"/* 2>/dev/null
}
COPY=$(ls -t $(last_peer_mail) 2>/dev/null | head -n 1)
if [ -z "$COPY" ]; then
	fail "a sent peer mail of the American kept in his outbox (cur/)"
else
	head_br=$(git -C "$CB" rev-parse HEAD)
	deferred=$(grep -c "status=deferred" "$PF/maillog")
	flock -o "$CB/.git/postrider.lock" sh -c 'echo $$ >"$1"; exec sleep 600' sh \
		"$TRASH/holder.pid" &
	holder=$!
	# (a script that stops early ends the holder too)
	at_exit '[ -s "$TRASH/holder.pid" ] && kill "$(cat "$TRASH/holder.pid")" 2>/dev/null'
	wait_for 60 test -s "$TRASH/holder.pid" || die "holding the lock of the British copy"
	/usr/sbin/sendmail -oi -f "prpeer-am@$DOMAIN" "prpeer-br@$DOMAIN" <"$COPY" ||
		fail "sendmail sends the copy"
	more_deferred() {
		[ "$(grep -c "status=deferred" "$PF/maillog")" -gt "$deferred" ]
	}
	if wait_for 120 more_deferred; then
		ok "a copy while the British copy is busy: postrider 75, procmail 75, Postfix defers it"
	else
		fail "a copy while the British copy is busy: Postfix defers it" "$(tail -n 5 "$PF/maillog")"
	fi
	kill "$(cat "$TRASH/holder.pid")" "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	rm -f "$TRASH/holder.pid"
	said_applied() {
		grep -q "already applied" "$U/$BR_USER/games/.deliver.log"
	}
	if wait_for 120 said_applied; then
		ok "... delivered again once free: the British postrider says it was applied already"
	else
		fail "... delivered again once free: already applied" "$(tail -n 5 "$U/$BR_USER/games/.deliver.log")" \
			"$(tail -n 5 "$PF/maillog")"
	fi
	expect_eq "... and nothing changes" "$head_br" "$(git -C "$CB" rev-parse HEAD)"
fi

# postrider-deliver removes its copy of a message once postrider exits:
# after the mail system is quiet
wait_for 120 postfix_quiet || fail "the private Postfix is quiet at the end" "$(tail -n 5 "$PF/maillog")"
expect_eq "nothing was kept in .failed/" "" \
	"$(ls "$U/$AM_USER/games/.failed" "$U/$BR_USER/games/.failed" 2>/dev/null | grep -v ':$' | grep .)"

test_done
