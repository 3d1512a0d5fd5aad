#!/bin/sh
#
# What contrib/README.md has a host install, run as it is written, without
# a mail system (issue 30): `make install PREFIX=...` puts the bash
# completion in place; README.md's two commands that start a game without
# a host, and contrib/README.md's set-up of such a player (his filter,
# his configuration, `postrider doctor ~/games`: issue 40.7), run as
# written; the crontab lines (the host's remind on ~/games,
# a player's on his copy of a game without a host) work in cron's
# environment (env -i: PATH=/usr/bin:/bin, HOME, SHELL=/bin/sh, LOGNAME,
# no terminal) and mails the reminder; postrider-deliver, given a message
# postrider cannot take until the host mends something (exit 78), keeps
# it in .failed/ and exits 78 with one line for the sender's bounce.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

PREFIX=$TRASH/usr
cp -a "$BUILD_DIR" "$TRASH/build" || die "copy $BUILD_DIR"
make -s --no-print-directory BUILD="$TRASH/build" PREFIX="$PREFIX" install \
	>"$TRASH/install.log" 2>&1 || die "make install: $(cat "$TRASH/install.log")"
install -m 755 contrib/postrider-deliver "$PREFIX/bin/" || die "install postrider-deliver"
expect_file_eq "make install: the bash completion" contrib/postrider.bash-completion \
	"$PREFIX/share/bash-completion/completions/postrider"

# --- the crontab line, in cron's environment -----------------------------------
H=$TRASH/referee
mkdir -p "$H/games" "$H/.config/postrider"
echo "transport: outbox" >"$H/.config/postrider/config.yaml"
env -i PATH="$PREFIX/bin:/usr/bin:/bin" HOME="$H" TZ=UTC LC_ALL=C POSTRIDER_NOW="$POSTRIDER_NOW" \
	postrider new --games "$H/games" --american "$AMERICAN" --british "$BRITISH" \
	--host "$HOST" --seed "$SEED" --deadline 3d >"$TRASH/out" 2>&1 ||
	die "new: $(cat "$TRASH/out")"
G=$H/games/$GAME_ID
[ -d "$G" ] || die "no game $G: $(cat "$TRASH/out")"

# --- two players without a host, as README.md's "Two players, no host" -------------
# Alice (home $P) and Bob (home $Q) run its two commands as written, in a
# login shell's environment; their mail waits in the outbox (no mail
# system here). Each indented block of the section that runs postrider.
P=$TRASH/alice Q=$TRASH/bob
for _h in "$P" "$Q"; do
	mkdir -p "$_h/.config/postrider" "$_h/games"
	echo "transport: outbox" >"$_h/.config/postrider/config.yaml"
done
awk '/^## Two players, no host/ { on = 1; next } /^## / { on = 0 }
	on && /^    / { sub(/^    /, ""); block = block $0 "\n"; next }
	on && block != "" { printf "%s\0", block; block = "" }' README.md >"$TRASH/readme-blocks"
tr '\0' '\n' <"$TRASH/readme-blocks" | grep -q "postrider peer new" ||
	die "README.md's \"Two players, no host\" gives no peer new"
# player HOME CMD: CMD (sh) as that player, in his home, cron's bare PATH
# with the installed postrider
player() {
	(cd "$1" && env -i PATH="$PREFIX/bin:/usr/bin:/bin" HOME="$1" TZ=UTC LC_ALL=C \
		POSTRIDER_NOW="$POSTRIDER_NOW" sh -c "$2") >"$TRASH/player.out" 2>&1
}
n=0
tr '\0' '\n' <"$TRASH/readme-blocks" | awk 'BEGIN { RS = "" } /postrider peer/ { gsub(/\\\n */, " "); print }' \
	>"$TRASH/readme-cmds"
while IFS= read -r cmd; do
	n=$((n + 1))
	case $cmd in
	*"peer new"*)
		player "$P" "$cmd"
		expect_eq "README.md's peer new runs as written: $cmd" 0 "$?"
		# the invitation Bob saves (mail waits in Alice's outbox here)
		cp "$(ls "$P"/games/ww-bob/.git/postrider/outbox/new/*-peer-* | head -n 1)" "$Q/invitation.eml" ;;
	*"peer join"*)
		player "$Q" "$cmd"
		expect_eq "README.md's peer join runs as written: $cmd" 0 "$?" ;;
	*) fail "a command of README.md's no-host section this test does not know: $cmd" ;;
	esac
	[ "$?" -eq 0 ] || cat "$TRASH/player.out"
done <"$TRASH/readme-cmds"
expect_eq "README.md's no-host section: two commands run" 2 "$n"
expect_eq "Alice's copy is ~/games/ww-bob" "yes" "$(test -d "$P/games/ww-bob/.git" && echo yes)"
expect_eq "Bob's copy is ~/games/ww-alice, of the same game" \
	"$(git -C "$P/games/ww-bob" rev-parse HEAD~0)" "$(git -C "$Q/games/ww-alice" rev-parse HEAD~1)"

# every crontab line of contrib/README.md (an indented "*/N * * * * ...")
sed -n 's/^    \(\*\/[0-9]* \* \* \* \* .*\)$/\1/p' contrib/README.md | sort -u >"$TRASH/lines"
expect_ne "contrib/README.md gives a crontab line" "" "$(cat "$TRASH/lines")"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	# the command: the line without its five time fields, /usr/local
	# being this test's PREFIX (make install PREFIX=/usr/local)
	cmd=$(echo "$line" | cut -d' ' -f6- | sed "s|/usr/local/|$PREFIX/|g")
	# the host's line (~/games): nothing due an hour in, the reminder 18
	# hours before the deadline; the player's (~/game, a peer copy):
	# nothing due half an hour in, his invitation mailed again later
	case $cmd in
	*/games/ww-bob) early=1800 said="mailed again: commit" home=$P ;;
	*) early=3600 said="reminded the side to move" home=$H ;;
	esac
	env -i PATH=/usr/bin:/bin HOME="$home" SHELL=/bin/sh LOGNAME=referee \
		POSTRIDER_NOW=$((POSTRIDER_NOW + early)) \
		setsid sh -c "$cmd" </dev/null >"$TRASH/cron.out" 2>&1
	expect_eq "crontab line $n, nothing due: exit 0" "0" "$?"
	expect_eq "crontab line $n, nothing due: prints nothing, so cron mails nothing" "" "$(cat "$TRASH/cron.out")"
	env -i PATH=/usr/bin:/bin HOME="$home" SHELL=/bin/sh LOGNAME=referee \
		POSTRIDER_NOW=$((POSTRIDER_NOW + 60 * 3600)) \
		setsid sh -c "$cmd" </dev/null >"$TRASH/cron.out" 2>&1
	expect_eq "crontab line $n runs under cron's environment: $line" "0" "$?"
	expect_no_fixed "crontab line $n: finds postrider" "not found" "$TRASH/cron.out"
	expect_fixed "crontab line $n: says what it sent (cron mails it to its user)" "$said" "$TRASH/cron.out"
done <"$TRASH/lines"
expect_eq "the reminder is in the outbox" 1 "$(outbox_list "$G" | grep -c '^remind-')"

# --- a player's set-up, as contrib/README.md's "A player without a host" -----------
# its configuration (transport: outbox here, not sendmail: no mail system),
# its commands as written (from the repository's root, where contrib/ is;
# /usr/local being this test's PREFIX), then `postrider doctor ~/games`
awk '/^## A player without a host/ { on = 1; next } /^## / { on = 0 }
	on && /^    / { sub(/^    /, ""); print }' contrib/README.md >"$TRASH/player-lines"
sed -n '/^transport: /,/^host_mail: /p' "$TRASH/player-lines" |
	sed 's/^transport: .*/transport: outbox/' >"$P/.config/postrider/config.yaml"
expect_grep "contrib/README.md gives the player's host_mail" "^host_mail: ~/Maildir/$" "$P/.config/postrider/config.yaml"
grep -E '^(install|echo) ' "$TRASH/player-lines" >"$TRASH/player-cmds"
expect_eq "contrib/README.md gives the player's two commands" 2 "$(grep -c . "$TRASH/player-cmds")"
while IFS= read -r cmd; do
	(env -i PATH=/usr/bin:/bin HOME="$P" sh -c "$cmd") >"$TRASH/cmd.out" 2>&1
	expect_eq "as written: $cmd" 0 "$?"
done <"$TRASH/player-cmds"
sed -i "s|/usr/local/bin/|$PREFIX/bin/|g" "$P/.procmailrc"
cmd=$(grep '^postrider doctor ' "$TRASH/player-lines")
expect_eq "contrib/README.md ends the player's set-up with doctor" "postrider doctor ~/games" "$cmd"
player "$P" "$cmd"
expect_eq "doctor on the player's set-up: ready (exit 0)" 0 "$?"
expect_grep "... his copy opens, with its secret" "^ok    copy of game ww-[0-9a-f]* without a host in '$P/games/ww-bob' opens" "$TRASH/player.out"
expect_grep "... the filter hands its mails to it" "^ok    ~/.procmailrc hands the mails of this game to $PREFIX/bin/postrider-deliver --games '$P/games'" "$TRASH/player.out"
expect_grep "... his mailbox takes a mail of no copy" "^ok    the host's Maildir (host_mail) '$P/Maildir/' is writable" "$TRASH/player.out"
expect_no_grep "... nothing to fix" "^FAIL" "$TRASH/player.out"

# --- exit 78 through postrider-deliver -----------------------------------------
AM=$(report_for "$G" american) || die "no report to the American"
env -i PATH=/usr/bin:/bin HOME="$H" POSTRIDER_NOW="$POSTRIDER_NOW" \
	"$PREFIX/bin/postrider" options "$G" --plain >"$TRASH/opts" 2>&1 || :
reply_mail "$AM" "$AMERICAN" "$(sed -n 2p "$TRASH/opts")" >"$TRASH/order.eml"
echo "smtp_urll: smtp://wrong" >"$TRASH/bad.yaml"
env -i PATH=/usr/bin:/bin HOME="$H" POSTRIDER_CONFIG="$TRASH/bad.yaml" \
	"$PREFIX/bin/postrider-deliver" "$H/games" <"$TRASH/order.eml" \
	>"$TRASH/deliver.out" 2>"$TRASH/deliver.err"
expect_eq "78 (the host must mend the configuration): the wrapper exits 78, the mail system bounces" 78 "$?"
expect_fixed "... with a line for the sender: not played" "This message was NOT played" "$TRASH/deliver.out"
expect_fixed "... and why: the host must mend it" "needs mending by its host" "$TRASH/deliver.out"
expect_eq "... the message is kept in .failed/" 1 "$(ls "$H/games/.failed" | grep -c '^incoming\.')"
expect_fixed "... the host's log says so" "postrider exited 78" "$H/games/.deliver.log"
expect_eq "... nothing played" 1 "$(commit_count "$G")"
# mended, the kept message is fed again as contrib/README.md says
for f in "$H"/games/.failed/incoming.*; do
	env -i PATH=/usr/bin:/bin HOME="$H" POSTRIDER_NOW="$POSTRIDER_NOW" \
		"$PREFIX/bin/postrider-deliver" "$H/games" <"$f" >/dev/null 2>&1 && rm "$f"
done
expect_eq "mended and fed again: played" 2 "$(commit_count "$G")"

# --- the bare repository a game is published to (contrib/README.md) --------------
# as on Debian 12: a git whose own default branch is master
cmd=$(sed -n 's/^    \(git init --bare .*\)$/\1/p' contrib/README.md | head -n 1)
expect_ne "contrib/README.md says how to make the bare repository" "" "$cmd"
cmd=$(echo "$cmd" | sed "s|/srv/git/ww-XXXX.git|$TRASH/srv/club.git|")
env GIT_CONFIG_GLOBAL=/dev/null sh -c "$cmd" >"$TRASH/init.out" 2>&1 ||
	fail "the bare repository is made as written" "$(cat "$TRASH/init.out")"
expect_exit 0 env -i PATH="$PREFIX/bin:/usr/bin:/bin" HOME="$H" \
	postrider publish "$G" --remote "$TRASH/srv/club.git"
env GIT_CONFIG_GLOBAL=/dev/null git clone -q "$TRASH/srv/club.git" "$TRASH/clone" >"$TRASH/clone.out" 2>&1
expect_eq "a player's clone checks out the game" "$(git -C "$G" show HEAD:game.yaml)" \
	"$(cat "$TRASH/clone/game.yaml" 2>&1)"

test_done
