# lib.sh - shared helpers for the shell end-to-end tests (tests/e2e/t-*.sh).
#
# A test script changes to the repository root and sources this file:
#
#	cd "$(dirname "$0")/../.." || exit 1
#	. tests/e2e/lib.sh
#	...checks...
#	test_done
#
# Every check prints "ok N - what" or "not ok N - what" followed by what was
# expected and what came instead (indented with "#"). A failed check does
# not stop the script (later checks still run, as in git's t/); `die` stops
# it when going on makes no sense. test_done prints "1..N" and exits 0 only
# if every check passed.
#
# What the library pins (style.md, point 9), so every commit id is the same
# on every run:
#   TZ=UTC, LC_ALL=C, POSTRIDER_NOW=1700000000 (2023-11-14 22:13:20 UTC),
#   HOME and XDG_CONFIG_HOME inside the temporary directory (no user
#   configuration is read; theirs says "transport: outbox"),
#   GIT_CONFIG_NOSYSTEM=1, fixed git identities for
#   the tests' own git commands, the players and the seed of new_game.
# $TRASH is a fresh temporary directory, removed on exit (and at_exit lets a
# script add its own clean-up, run first, e.g. to stop a server).
#
# "Byte-for-byte unchanged" (snapshot/expect_unchanged) means: the same
# HEAD (symbolic target and commit), the same `git for-each-ref` output,
# the same index entries (`git ls-files -s`: mode, blob, stage, path), and
# every file and directory under the game directory - work tree and .git,
# reflogs and loose objects included - with the same type, permission bits
# and content (SHA-256), no file more and no file less. Left out:
#   .git/index            its stat cache is rewritten by plain git commands
#                         (git status) run by the tests themselves; its
#                         entries are compared through ls-files instead;
#   .git/postrider/       the host's private area (secret, outbox): a
#                         rejection legitimately adds a mail there, which
#                         the scripts check separately (outbox_* helpers);
#   .git/postrider.lock   the empty flock(2) file, created by the first run
#                         that locks the game and never deleted
#                         (docs/repository.md).

set -u

# --- where things are --------------------------------------------------------

ROOT=$(pwd)
if [ ! -f "$ROOT/tests/e2e/lib.sh" ]; then
	echo "error: run the tests from the repository root" >&2
	exit 1
fi
BUILD=${BUILD:-build}
case $BUILD in
/*) BUILD_DIR=$BUILD ;;
*) BUILD_DIR=$ROOT/$BUILD ;;
esac
PATH="$BUILD_DIR:$PATH"
POSTRIDER_GAMES=${POSTRIDER_GAMES:-$ROOT/games}
POSTRIDER_TEMPLATES=${POSTRIDER_TEMPLATES:-$ROOT/templates}
PY=/usr/bin/python3
export BUILD PATH POSTRIDER_GAMES POSTRIDER_TEMPLATES

# --- the fixed environment ---------------------------------------------------

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/postrider-e2e.XXXXXX") || {
	echo "error: cannot make a temporary directory" >&2
	exit 1
}
_at_exit=
# at_exit COMMAND: run COMMAND (eval'ed) when the script ends, before the
# temporary directory is removed; the last one added runs first.
at_exit() {
	_at_exit="$1
${_at_exit}"
}
_cleanup() {
	eval "$_at_exit" || :
	rm -rf "$TRASH"
}
trap '_cleanup' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CEILING_DIRECTORIES \
	GIT_CONFIG_GLOBAL GIT_CONFIG POSTRIDER_CONFIG 2>/dev/null || :
TZ=UTC
LC_ALL=C
POSTRIDER_NOW=1700000000
HOME=$TRASH/home
XDG_CONFIG_HOME=$HOME/.config
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME="Test Author"
GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME="Test Committer"
GIT_COMMITTER_EMAIL=committer@example.com
GIT_AUTHOR_DATE="1700000000 +0000"
GIT_COMMITTER_DATE="1700000000 +0000"
export TZ LC_ALL POSTRIDER_NOW HOME XDG_CONFIG_HOME GIT_CONFIG_NOSYSTEM \
	GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	GIT_AUTHOR_DATE GIT_COMMITTER_DATE
mkdir -p "$HOME" "$XDG_CONFIG_HOME/postrider"
# Mail waits in the outbox by choice (a test that sends writes its own
# file): without any configuration a run that leaves mail unsent exits 3.
echo "transport: outbox" >"$XDG_CONFIG_HOME/postrider/config.yaml"
# git refuses to work without an identity or with an odd default branch
git config --global init.defaultBranch main
git config --global user.name "Test User"
git config --global user.email test@example.com
git config --global advice.detachedHead false

# The players, the host and the seed of every test game.
AMERICAN="Alice <alice@example.org>"
AMERICAN_ADDR=alice@example.org
BRITISH="Bob <bob@example.org>"
BRITISH_ADDR=bob@example.org
HOST="Host <host@example.org>"
HOST_ADDR=host@example.org
SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
# hex(SHA256("postrider-commitment" || seed)), docs/fairness.md section 4
SEED_COMMITMENT=3acbd4747869c0b5e48a0c0556c1f5b0525930d9c2f057a193476beca37ecf72
GAME_ID=ww-3acbd474

if ! command -v postrider >/dev/null 2>&1 ||
	[ "$(command -v postrider)" != "$BUILD_DIR/postrider" ]; then
	echo "error: no $BUILD_DIR/postrider: run make first" >&2
	exit 1
fi

# --- reporting -----------------------------------------------------------------

_n=0
_failed=0

ok() {
	_n=$((_n + 1))
	echo "ok $_n - $1"
}

# fail WHAT [DETAIL...]: a failed check; each DETAIL is printed, indented.
fail() {
	_n=$((_n + 1))
	_failed=$((_failed + 1))
	echo "not ok $_n - $1"
	shift
	for _d in "$@"; do
		printf '%s\n' "$_d" | sed 's/^/#   /'
	done
}

# die WHY: stop the script here (the rest depends on what just failed).
die() {
	fail "$1"
	echo "# giving up: the remaining checks depend on this one"
	echo "1..$_n"
	exit 1
}

# show_file FILE: the file's lines, indented, for a failure report.
show_file() {
	if [ -f "$1" ]; then
		sed 's/^/#   | /' "$1" | head -n 60
	else
		echo "#   (no file $1)"
	fi
}

test_done() {
	echo "1..$_n"
	if [ "$_failed" -ne 0 ]; then
		echo "# failed $_failed of $_n"
		exit 1
	fi
	exit 0
}

# --- checks --------------------------------------------------------------------

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1" "expected: '$2'" "actual:   '$3'"
	fi
}

# expect_ne WHAT UNEXPECTED ACTUAL
expect_ne() {
	if [ "$2" != "$3" ]; then
		ok "$1"
	else
		fail "$1" "expected anything but: '$2'"
	fi
}

# expect_file_eq WHAT EXPECTED-FILE ACTUAL-FILE: the same bytes
expect_file_eq() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		fail "$1" "$(diff -u "$2" "$3" 2>&1 | head -n 40)"
	fi
}

# expect_grep WHAT PATTERN FILE: a line of FILE matches the basic regexp
expect_grep() {
	if grep -q -- "$2" "$3" 2>/dev/null; then
		ok "$1"
	else
		fail "$1" "expected a line matching: $2" "in $3:"
		show_file "$3"
	fi
}

# expect_fixed WHAT STRING FILE: FILE holds STRING (a fixed string)
expect_fixed() {
	if grep -q -F -- "$2" "$3" 2>/dev/null; then
		ok "$1"
	else
		fail "$1" "expected the text: $2" "in $3:"
		show_file "$3"
	fi
}

# expect_no_fixed WHAT STRING FILE...: no FILE holds STRING
expect_no_fixed() {
	_what=$1 _s=$2
	shift 2
	if _hits=$(grep -l -F -- "$_s" "$@" 2>/dev/null); then
		fail "$_what" "expected no file to hold: $_s" "found in: $_hits"
	else
		ok "$_what"
	fi
}

# expect_no_grep WHAT REGEX FILE: no line of FILE matches REGEX
expect_no_grep() {
	if grep -n -- "$2" "$3" >"$TRASH/.no-grep" 2>/dev/null; then
		fail "$1" "expected no line matching: $2" "found:"
		show_file "$TRASH/.no-grep"
	else
		ok "$1"
	fi
}

# run_cmd CMD...: runs CMD with stdout in $TRASH/out, stderr in $TRASH/err
# and its exit status in $status.
run_cmd() {
	"$@" >"$TRASH/out" 2>"$TRASH/err"
	status=$?
}

# expect_exit CODE CMD...: runs CMD (see run_cmd) and checks its exit
# status. CODE may be a list "1|2" of accepted values.
expect_exit() {
	_want=$1
	shift
	run_cmd "$@"
	_desc=$(printf '%s ' "$@" | tr '\n' '|' | sed "s|$TRASH/||g; s/ \$//")
	case "|$_want|" in
	*"|$status|"*)
		ok "exit $status: $_desc"
		return 0
		;;
	esac
	fail "exit status of: $_desc" "expected: $_want" "actual:   $status" \
		"stdout:" "$(head -n 20 "$TRASH/out")" \
		"stderr:" "$(head -n 20 "$TRASH/err")"
	return 1
}

# need_root_and_tools WHY PROGRAM...: a script that runs system services
# (a private Postfix, sshd, lighttpd) needs root and the Debian packages of
# contrib/install-deps; it installs them and checks each PROGRAM is there,
# or dies saying why (never a silent skip).
#
# The one thing such a script shares with every other on the machine is
# the package manager (apt-get and dpkg take a lock of their own and
# refuse a second caller; install-deps writes /usr/sbin/policy-rc.d while
# it installs): contrib/install-deps runs under the machine-wide lock
# $INSTALL_LOCK, held a few milliseconds when nothing is missing (it
# exits at once). Everything else is the run's own: users (add_user),
# ports (free_port), and the daemons' configuration, queues and logs
# under $TRASH.
INSTALL_LOCK=/run/lock/postrider-install-deps.lock
[ -d /run/lock ] || INSTALL_LOCK=/tmp/postrider-install-deps.lock
need_root_and_tools() {
	_why=$1
	shift
	[ "$(id -u)" -eq 0 ] ||
		die "$(basename "$0" .sh) needs root: $_why (run make check as root)"
	command -v flock >/dev/null 2>&1 || die "flock (util-linux) is missing"
	flock "$INSTALL_LOCK" sh contrib/install-deps >"$TRASH/deps.log" 2>&1 ||
		die "contrib/install-deps failed: $(cat "$TRASH/deps.log")"
	for _p in "$@"; do
		[ -e "$_p" ] || die "$_p is missing after contrib/install-deps"
	done
}

# RUN: this run's own suffix, 8 hex digits, for the names a script makes
# on the machine (Unix users): two suites at once never share one.
RUN=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
[ ${#RUN} -eq 8 ] || die "cannot read /dev/urandom for the run's suffix"

# add_user NAME HOME: a Unix user NAME (and its group) with the home HOME
# (not made), removed when the script ends, failed or not: its processes
# first (each by its id: only this user's), then the user, its group and
# its /var/mail file. NAME must be this run's own (end it with -$RUN): a
# user of that name that exists already is never taken over (die).
# useradd waits for /etc/passwd's lock, which another suite's useradd may
# hold for a moment: a failure is tried again, up to 20 times.
_users=
add_user() {
	if id -u "$1" >/dev/null 2>&1; then
		die "a user $1 exists already: not this run's"
	fi
	_try=0
	until useradd -M -d "$2" -s /bin/sh -U "$1" 2>"$TRASH/useradd.err"; do
		_try=$((_try + 1))
		id -u "$1" >/dev/null 2>&1 && die "a user $1 appeared meanwhile: not this run's"
		[ $_try -lt 20 ] || die "useradd $1: $(cat "$TRASH/useradd.err")"
		sleep 0.5
	done
	[ -n "$_users" ] || at_exit remove_users
	_users="$_users $1"
}
# remove_users: what add_user made, undone (at_exit runs it)
remove_users() {
	for _u in $_users; do
		if id -u "$_u" >/dev/null 2>&1; then
			# (a process may start another meanwhile: a few passes)
			for _pass in 1 2 3 4 5; do
				for _pid in $(ps -o pid= -u "$_u"); do
					kill -KILL "$_pid" 2>/dev/null
				done
			done
			_try=0
			until userdel "$_u" 2>/dev/null || ! id -u "$_u" >/dev/null 2>&1; do
				_try=$((_try + 1))
				[ $_try -lt 20 ] || { echo "# userdel $_u failed" >&2; break; }
				sleep 0.5
			done
		fi
		getent group "$_u" >/dev/null 2>&1 && groupdel "$_u" 2>/dev/null
		rm -f "/var/mail/$_u"
	done
	_users=
}

# free_port: a TCP port of 127.0.0.1 that nothing listens on now (the
# kernel's choice). A daemon given it may still find it taken by the time
# it binds: start it with a new port when it says so (postfix_private_start)
free_port() {
	"$PY" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# postfix_private_conf: writes main.cf and master.cf of a private Postfix
# instance into $PF/conf (queue and data under $PF, smtpd on
# 127.0.0.1:$PORT, local delivery to Maildir/ for $DOMAIN, its log in
# $PF/maillog, a deferred message tried again within seconds).
# $PF_ALIASES, if set: "NAME=USER ..." pairs, mail to NAME@$DOMAIN going
# to the local USER (this run's own, add_user): the addresses in the games
# are the same every run (and so are the commit ids), the users are not.
postfix_private_conf() {
_valias=
for _a in ${PF_ALIASES:-}; do
	_valias="${_valias:+$_valias, }${_a%%=*}@$DOMAIN=${_a#*=}@$DOMAIN"
done
cat >"$PF/conf/main.cf" <<EOF
compatibility_level = 3.6
config_directory = $PF/conf
queue_directory = $PF/queue
data_directory = $PF/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
mydestination = $DOMAIN, localhost
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
home_mailbox = Maildir/
recipient_delimiter = +
biff = no
smtputf8_enable = no
maillog_file = $PF/maillog
maillog_file_prefixes = $PF
# a deferred message is tried again within seconds, not minutes
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
EOF
[ -z "$_valias" ] || echo "virtual_alias_maps = inline:{ $_valias }" >>"$PF/conf/main.cf"
cat >"$PF/conf/master.cf" <<EOF
127.0.0.1:$PORT inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
EOF
}

# postfix_private_start: checks and starts the instance of $PF/conf (and
# stops it when the test ends), points MAIL_CONFIG at it and waits until
# it listens. `postfix start` waits for its master to bind its ports and
# fails when $PORT was taken meanwhile (by another suite): then the
# instance is started again on a new free port ($PORT changes: give it to
# clients only after this).
postfix_private_start() {
	postfix -c "$PF/conf" check >"$TRASH/pf.log" 2>&1 ||
		die "postfix check: $(cat "$TRASH/pf.log")"
	_try=0
	until postfix -c "$PF/conf" start >"$TRASH/pf.log" 2>&1; do
		_try=$((_try + 1))
		grep -q "already in use" "$TRASH/pf.log" "$PF/maillog" 2>/dev/null && [ $_try -lt 5 ] ||
			die "the private Postfix starts: $(cat "$TRASH/pf.log"; cat "$PF/maillog" 2>/dev/null)"
		echo "# port $PORT was taken meanwhile: another one"
		PORT=$(free_port)
		sed -i "1s/^127\.0\.0\.1:[0-9]* /127.0.0.1:$PORT /" "$PF/conf/master.cf"
	done
	at_exit 'postfix -c "$PF/conf" stop >/dev/null 2>&1'
	MAIL_CONFIG=$PF/conf	# for sendmail and mutt's sendmail, to this instance
	export MAIL_CONFIG
	wait_for 20 _pf_listening ||
		die "the private Postfix listens on 127.0.0.1:$PORT: $(cat "$PF/maillog")"
	ok "a private Postfix listens on 127.0.0.1:$PORT"
}
_pf_listening() {
	"$PY" -c 'import socket, sys
s = socket.socket()
s.settimeout(1)
sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))))' "$PORT"
}

# postfix_quiet: the private instance holds no message (none waiting,
# being delivered or deferred): every delivery it took is over, the
# commands it ran (procmail, postrider-deliver) have exited, and what
# they sent is delivered too. Twice, 0.2 s apart, not to take the moment
# between two queue files for quiet.
postfix_quiet() {
	_pf_empty && sleep 0.2 && _pf_empty
}
_pf_empty() {
	[ -z "$(find "$PF/queue/maildrop" "$PF/queue/incoming" "$PF/queue/active" \
		"$PF/queue/deferred" "$PF/queue/hold" -type f 2>/dev/null | head -n 1)" ]
}

# wait_for SECONDS CMD...: CMD until it succeeds, every 0.2 s; 1 on timeout
wait_for() {
	_w=$(($1 * 5))
	shift
	while ! "$@"; do
		_w=$((_w - 1))
		[ $_w -gt 0 ] || return 1
		sleep 0.2
	done
}

# --- git and the game ------------------------------------------------------------

# new_game DIR [OPTIONS...]: a game with the standard players and seed;
# dies if it cannot be made.
new_game() {
	_dir=$1
	shift
	postrider new "$_dir" --american "$AMERICAN" --british "$BRITISH" \
		--host "$HOST" --seed "$SEED" "$@" \
		>"$TRASH/new.out" 2>"$TRASH/new.err" || {
		cat "$TRASH/new.err"
		die "postrider new $_dir"
	}
}

# new_golden_game DIR [ARGS...]: a game of fairness 1 on the golden cases'
# seed (tests/golden/run-case), so that their set-up orders fit the hands
new_golden_game() {
	_dir=$1
	shift
	postrider new "$_dir" --american "$AMERICAN" --british "$BRITISH" \
		--host "$HOST" --fairness 1 \
		--seed 676f6c64656e2063617365732068617665206669786564207365656473212121 "$@" \
		>"$TRASH/new.out" 2>"$TRASH/new.err" || {
		cat "$TRASH/new.err"
		die "postrider new $_dir"
	}
}

# play_golden_setup DIR FILE...: plays the blocks headed "--- SIDE" of the
# files (a golden case's setup, then its order) into the game DIR, block
# by block, as hot-seat orders; dies on the first refusal
play_golden_setup() {
	_g=$1
	shift
	rm -f "$TRASH"/block.*
	awk -v dir="$TRASH" '
		/^--- / { n++; side[n] = $2; next }
		{ print > (dir "/block." n) }
		END { for (i = 1; i <= n; i++) print side[i] > (dir "/sides") }
	' "$@"
	_i=0
	while read -r _side; do
		_i=$((_i + 1))
		touch "$TRASH/block.$_i"
		postrider play "$_g" --as "$_side" "$TRASH/block.$_i" >/dev/null 2>"$TRASH/err" ||
			die "set-up order $_i ($_side): $(head -n 3 "$TRASH/err")"
	done <"$TRASH/sides"
	rm -f "$TRASH"/block.* "$TRASH/sides"
}

# random_move_order DIR: writes to $TRASH/order a random legal order of
# the side to move in DIR (moves first, from a fixed pseudo-random
# sequence kept in $LCG, so a test gives the same game every run) and sets
# SIDE to that side; returns 1 (no order) when the game is over
LCG=4
random_move_order() {
	postrider options "$1" --plain >"$TRASH/opts" 2>/dev/null || die "options of $1"
	SIDE=$(head -n 1 "$TRASH/opts")
	[ "$SIDE" = none ] && return 1
	sed 1d "$TRASH/opts" >"$TRASH/lines"
	grep -E '^(move|battle|take|to) ' "$TRASH/lines" >"$TRASH/moves" &&
		mv "$TRASH/moves" "$TRASH/lines"
	_count=$(wc -l <"$TRASH/lines")
	LCG=$(( (LCG * 1103515245 + 12345) % 2147483648 ))
	sed -n "$(( LCG / 65536 % _count + 1 ))p" "$TRASH/lines" >"$TRASH/order"
}

# play_moves_until DIR PATTERN MAX: plays random_move_order's orders into
# DIR until an order's commit adds a line to log.txt that matches the
# extended regular expression PATTERN: returns 0 then, 1 after MAX orders
# without one; dies if an order is refused or the game ends. $PLAYED is
# the count.
play_moves_until() {
	PLAYED=0
	while [ $PLAYED -lt "$3" ]; do
		random_move_order "$1" || die "the game ended after $PLAYED orders"
		postrider play "$1" --as "$SIDE" "$TRASH/order" >/dev/null 2>"$TRASH/err" ||
			die "order $PLAYED: $(cat "$TRASH/err")"
		PLAYED=$((PLAYED + 1))
		git -C "$1" diff HEAD~1 HEAD -- log.txt | grep -Eq "^\\+($2)" && return 0
	done
	return 1
}

# peer_pair A B: a new game without a host between two copies on this
# machine, the American's in A (secret $SA) and the British's in B
# (secret $SB, joined from the invitation A mailed); the join waits in
# B's outbox, not yet given to A. The secrets are fixed: the same deals
# and dice every run.
SA=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
SB=202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
peer_pair() {
	postrider peer new "$1" --me american --american "$AMERICAN" --british "$BRITISH" \
		--secret "$SA" >/dev/null 2>&1 || die "peer new failed"
	postrider peer join "$2" --secret "$SB" --address "$BRITISH" \
		"$(ls "$(outbox "$1")/new/"*-peer-*)" >/dev/null 2>&1 || die "peer join failed"
}

# play_first_legal DIR: plays the first legal order of the side to move,
# as `options --plain` lists it; returns 1 (and plays nothing) when the
# game is over, dies if the order is refused. $TRASH/opts keeps the list.
play_first_legal() {
	postrider options "$1" --plain >"$TRASH/opts" 2>/dev/null || die "options of $1"
	_side=$(head -n 1 "$TRASH/opts")
	[ "$_side" = none ] && return 1
	sed -n 2p "$TRASH/opts" >"$TRASH/order"
	postrider play "$1" --as "$_side" "$TRASH/order" >"$TRASH/play.out" 2>"$TRASH/play.err" ||
		die "order ($_side: $(cat "$TRASH/order")): $(head -n 5 "$TRASH/play.err")"
}

# commit_count DIR
commit_count() {
	git -C "$1" rev-list --count HEAD 2>/dev/null || echo 0
}

# state_field DIR KEY: a top-level scalar of state.yaml ("seq", "year")
state_field() {
	sed -n "s/^$2: *//p" "$1/state.yaml"
}

# prompt_side DIR: prompt.side of state.yaml
prompt_side() {
	sed -n '/^prompt:/,/^[^ ]/s/^  side: *//p' "$1/state.yaml"
}

# expect_fsck DIR: git fsck --full --strict finds nothing to say
expect_fsck() {
	if git -C "$1" fsck --full --strict --no-progress \
		>"$TRASH/fsck" 2>&1 && ! grep -q . "$TRASH/fsck"; then
		ok "git fsck --full --strict is clean in $(basename "$1")"
	else
		fail "git fsck --full --strict is clean in $(basename "$1")"
		show_file "$TRASH/fsck"
	fi
}

# expect_clean DIR: git status shows nothing (tracked or untracked)
expect_clean() {
	_st=$(git -C "$1" status --porcelain --untracked-files=all 2>&1)
	expect_eq "the work tree of $(basename "$1") is clean" "" "$_st"
}

# snapshot DIR NAME: records the state of the game DIR (see the head of
# this file for what counts) in $TRASH/snap.NAME.
snapshot() {
	{
		echo "HEAD: $(git -C "$1" symbolic-ref -q HEAD) $(git -C "$1" rev-parse -q --verify HEAD)"
		echo "refs:"
		git -C "$1" for-each-ref --format='%(objectname) %(refname)'
		echo "index:"
		git -C "$1" ls-files -s
		echo "files:"
		"$PY" - "$1" <<'EOF'
import hashlib, os, stat, sys
top = sys.argv[1]
skip = {".git/index", ".git/postrider", ".git/postrider.lock"}
out = []
for d, dirs, files in os.walk(top):
    rel = os.path.relpath(d, top)
    rel = "" if rel == "." else rel + "/"
    dirs[:] = sorted(x for x in dirs if rel + x not in skip)
    for x in sorted(dirs + files):
        p = rel + x
        if p in skip:
            continue
        st = os.lstat(os.path.join(top, p))
        mode = "%o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISDIR(st.st_mode):
            out.append("d %s %s" % (mode, p))
        elif stat.S_ISLNK(st.st_mode):
            out.append("l %s %s -> %s" % (mode, p, os.readlink(os.path.join(top, p))))
        else:
            with open(os.path.join(top, p), "rb") as f:
                h = hashlib.sha256(f.read()).hexdigest()
            out.append("f %s %s %s" % (mode, h, p))
print("\n".join(sorted(out)))
EOF
	} >"$TRASH/snap.$2" 2>&1
}

# expect_unchanged WHAT DIR NAME: DIR is as snapshot NAME recorded it
expect_unchanged() {
	snapshot "$2" "$3.after"
	if cmp -s "$TRASH/snap.$3" "$TRASH/snap.$3.after"; then
		ok "$1"
	else
		fail "$1" "the game changed (- before, + after):" \
			"$(diff -u "$TRASH/snap.$3" "$TRASH/snap.$3.after" |
				sed '1,2d' | grep '^[-+]' | head -n 30)"
	fi
}

# --- the outbox and mail ---------------------------------------------------------

# outbox DIR: the game's outbox folder
outbox() {
	echo "$1/.git/postrider/outbox"
}

# outbox_list DIR [SUB]: the file names in new/ (or SUB), sorted
outbox_list() {
	ls "$(outbox "$1")/${2:-new}" 2>/dev/null | LC_ALL=C sort
}

# outbox_count DIR [SUB]
outbox_count() {
	outbox_list "$1" "${2:-new}" | grep -c . || :
}

# outbox_added DIR BEFORE-LIST-FILE: names in new/ not in the list
outbox_added() {
	outbox_list "$1" >"$TRASH/outbox.now"
	LC_ALL=C comm -13 "$2" "$TRASH/outbox.now"
}

# report_for DIR SIDE [COMMIT]: the path of the report mailed to SIDE for
# COMMIT (default HEAD)
report_for() {
	_c=$(git -C "$1" rev-parse "${3:-HEAD}")
	for _f in "$(outbox "$1")"/new/"$_c"-*-"$2".* \
		"$(outbox "$1")"/cur/"$_c"-*-"$2".*; do
		if [ -f "$_f" ]; then
			echo "$_f"
			return 0
		fi
	done
	return 1
}

# header FILE NAME: the value of the first header NAME (unfolded, without
# CR: the outbox holds CRLF messages), empty if there is none
header() {
	awk -v name="$2" '
		BEGIN { want = tolower(name) ":" }
		{ sub(/\r$/, "") }
		/^$/ { exit }
		/^[ \t]/ { if (found == 1) { sub(/^[ \t]+/, " "); val = val $0 }; next }
		{ if (found == 1) { found = 2; exit }
		  if (tolower(substr($0, 1, length(want))) == want) {
			found = 1; val = substr($0, length(want) + 1); sub(/^[ \t]+/, "", val) } }
		END { if (found) print val }
	' "$1"
}

# mail_part FILE TYPE: the decoded body of the first MIME part of type TYPE
# (text/plain, text/x-patch, ...), raw bytes on stdout
mail_part() {
	"$PY" - "$1" "$2" <<'EOF'
import email, sys
with open(sys.argv[1], "rb") as f:
    m = email.message_from_binary_file(f)
for part in m.walk():
    if part.get_content_type() == sys.argv[2] and not part.is_multipart():
        sys.stdout.buffer.write(part.get_payload(decode=True))
        sys.exit(0)
sys.exit("no %s part in %s" % (sys.argv[2], sys.argv[1]))
EOF
}

# mail_parts TYPE OUTDIR FILE...: mail_part for many files in one go (python
# starts slowly): OUTDIR/NAME holds the part of FILE .../NAME; a file
# without such a part gets no OUTDIR/NAME (and a message on stderr).
mail_parts() {
	"$PY" - "$@" <<'EOF'
import email, os, sys
ctype, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for name in sys.argv[3:]:
    with open(name, "rb") as f:
        m = email.message_from_binary_file(f)
    for part in m.walk():
        if part.get_content_type() == ctype and not part.is_multipart():
            with open(os.path.join(out, os.path.basename(name)), "wb") as o:
                o.write(part.get_payload(decode=True))
            break
    else:
        print("no %s part in %s" % (ctype, name), file=sys.stderr)
EOF
}

# reply_mail REPORT FROM ORDER [MESSAGE-ID]: on stdout, the reply a player
# would write in a mail client: Subject "Re: <subject>", In-Reply-To and
# References the report's Message-ID (Message-ID: MESSAGE-ID, default
# <reply.N@example.org>, N counting the calls), the order (may be several lines) above
# an attribution line, the quoted text of the report and a signature.
reply_mail() {
	_reply_no=$((${_reply_no:-0} + 1))
	_subj=$(header "$1" Subject)
	_mid=$(header "$1" Message-ID)
	_from_name=${2%% <*}
	cat <<EOF
From: $2
To: $HOST
Subject: Re: $_subj
Date: Wed, 15 Nov 2023 09:30:00 +0000
Message-ID: ${4:-<reply.$_reply_no@example.org>}
In-Reply-To: $_mid
References: $_mid
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit
User-Agent: Mutt/2.2.9

$3

On Tue, Nov 14, 2023 at 10:13:20PM +0000, Host wrote:
EOF
	mail_part "$1" text/plain | sed 's/\r$//; s/^/> /; s/^> $/>/'
	printf '\n-- \n%s\nsent from a test\n' "$_from_name"
}
