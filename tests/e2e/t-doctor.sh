#!/bin/sh
# t-doctor.sh - `postrider doctor` checks a host's set-up and says what to
# fix (issue 18): a real SMTP server reached or not, a wrong configuration,
# secrets other users can read, templates not found, mail waiting, a game
# that does not open; a player's copy of a game without a host (issue 40.5):
# its secret, the mail filter, the crontab line, the outbox. It changes
# nothing and sends nothing.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh
. tests/e2e/smtp-lib.sh

ROOT_G=$TRASH/games
mkdir -p "$ROOT_G"
G=$ROOT_G/g1
new_game "$G"
CFG=$TRASH/config.yaml
printf 'smtp_url: smtp://127.0.0.1:%s\nstarttls: false\nfrom: %s\nlog: %s/mail.log\n' \
	"$PORT" "$HOST" "$TRASH" >"$CFG"

# the server is down
expect_exit 1 postrider doctor --config "$CFG" "$ROOT_G"
expect_grep "a server that is down is a problem" "^FAIL  SMTP server smtp://127.0.0.1:$PORT: " "$TRASH/out"
expect_fixed "the game is looked at" "game $GAME_ID in '$G' opens, with its secret" "$TRASH/out"
expect_fixed "mail waiting is a warning" "2 messages wait in" "$TRASH/out"
expect_grep "the verdict" "^not ready: 1 problem, " "$TRASH/out"

# the server is up: ready, and nothing was sent
start_server
expect_exit 0 postrider doctor --config "$CFG" "$ROOT_G"
expect_grep "the server answers" "^ok    SMTP server smtp://127.0.0.1:$PORT answers" "$TRASH/out"
expect_grep "ready" "^ready: 0 problems" "$TRASH/out"
expect_eq "doctor sends no mail" 0 "$(ls "$MBOX/new" 2>/dev/null | grep -c .)"
expect_eq "doctor sends none of the waiting mail either" 2 "$(outbox_count "$G")"

# the host's mailbox (host_mail, issue 30)
printf 'transport: outbox\nhost_mail: %s/hostmail/\n' "$TRASH" >"$TRASH/hm.yaml"
expect_exit 0 postrider doctor --config "$TRASH/hm.yaml" "$G"
expect_fixed "host_mail: a Maildir that can be written" "the host's Maildir (host_mail) '$TRASH/hostmail/' is writable" "$TRASH/out"
printf 'transport: outbox\nhost_mail: /proc/nowhere/Maildir/\n' >"$TRASH/hm-bad.yaml"
expect_exit 1 postrider doctor --config "$TRASH/hm-bad.yaml" "$G"
expect_fixed "host_mail: a Maildir that cannot be made" "the host's Maildir (host_mail) '/proc/nowhere/Maildir/' cannot be made" "$TRASH/out"

# a remote's URL holding a password (set before postrider refused it)
git -C "$G" config remote.publish.url "https://u:hunter2@git.example.org/g.git"
expect_exit 1 postrider doctor --config "$TRASH/hm.yaml" "$G"
expect_fixed "a password in the remote's URL is a problem" "holds a password" "$TRASH/out"
expect_no_fixed "... which doctor does not print" "hunter2" "$TRASH/out"
git -C "$G" config --unset remote.publish.url

# secrets other users can read
chmod 644 "$G/.git/postrider/secret"
echo secret >"$TRASH/pw"
chmod 644 "$TRASH/pw"
printf 'transport: outbox\npublish:\n  username: u\n  password_file: %s\n' "$TRASH/pw" >"$TRASH/pw.yaml"
expect_exit 1 postrider doctor --config "$TRASH/pw.yaml" "$G"
expect_fixed "a readable seed is named with the fix" "can be read by other users (mode 644): chmod 600 '$G/.git/postrider/secret'" "$TRASH/out"
expect_fixed "a readable password file too" "the push password file '$TRASH/pw' can be read by other users" "$TRASH/out"
chmod 600 "$G/.git/postrider/secret" "$TRASH/pw"
expect_exit 0 postrider doctor --config "$TRASH/pw.yaml" "$G"

# templates not found, a wrong configuration, a broken game
expect_exit 1 env POSTRIDER_TEMPLATES="$TRASH/none" postrider doctor --config "$CFG"
expect_fixed "missing templates, with the fix" "(make install, or set POSTRIDER_TEMPLATES)" "$TRASH/out"
printf 'smtp_url: [\n' >"$TRASH/bad.yaml"
expect_exit 1 postrider doctor --config "$TRASH/bad.yaml"
expect_fixed "a wrong configuration is named" "the configuration does not load; fix it:" "$TRASH/out"
mkdir -p "$ROOT_G/broken" && git -C "$ROOT_G/broken" init -q
expect_exit 1 postrider doctor --config "$CFG" "$ROOT_G"
expect_fixed "a repository that is no game" "game '$ROOT_G/broken' does not open" "$TRASH/out"
expect_eq "doctor changed nothing in the game" 1 "$(commit_count "$G")"

# --- a player's copy of a game without a host (issue 40.5) ---------------------------
# README.md's folders: the American's copy in ~/games/ww-bob; the filter,
# the crontab line and host_mail of contrib/README.md, "A player without
# a host"
C=$HOME/games/ww-bob
mkdir -p "$HOME/games" "$TRASH/bin"
peer_pair "$C" "$TRASH/bob-copy"
postrider play "$C" "$(ls "$(outbox "$TRASH/bob-copy")/new/"*-peer-*)" >"$TRASH/join.out" 2>&1 ||
	die "the American's copy takes the join: $(cat "$TRASH/join.out")"
printf 'transport: outbox\nhost_mail: %s/Maildir/\n' "$HOME" >"$TRASH/peer.yaml"
expect_exit 0 postrider doctor --config "$TRASH/peer.yaml" "$C"
expect_grep "a peer copy opens, with its secret (not the host's seed)" \
	"^ok    copy of game ww-[0-9a-f]* without a host in '$C' opens: the american's, with its secret" "$TRASH/out"
expect_no_fixed "... and is not called a broken game" "does not open" "$TRASH/out"
expect_fixed "its secret is checked" "its secret '$C/.git/postrider/peer-secret' is private (mode 600)" "$TRASH/out"
expect_grep "no mail filter yet: a warning" "^warn  ~/.procmailrc has no recipe that runs postrider-deliver" "$TRASH/out"
expect_grep "no crontab: a warning" "^warn  no crontab" "$TRASH/out"
expect_grep "the outbox is looked at (the invitation, the join's notice and the report wait)" \
	"^warn  game ww-[0-9a-f]*: 3 messages wait in '$C/.git/postrider/outbox/new'" "$TRASH/out"
expect_exit 0 postrider doctor --config "$TRASH/peer.yaml" "$HOME/games"
expect_grep "a folder of copies: each is one" "^ok    copy of game ww-[0-9a-f]* without a host in '$HOME/games/ww-bob' opens" "$TRASH/out"

# the secret other users can read
chmod 644 "$C/.git/postrider/peer-secret"
expect_exit 1 postrider doctor --config "$TRASH/peer.yaml" "$C"
expect_fixed "a readable peer secret: FAIL, with the fix" \
	"FAIL  its secret '$C/.git/postrider/peer-secret' can be read by other users (mode 644): chmod 600" "$TRASH/out"
chmod 600 "$C/.git/postrider/peer-secret"

# the filter as contrib/README.md installs it (postrider-deliver beside
# postrider: here in $TRASH/bin)
cp contrib/postrider-deliver "$TRASH/bin/"
sed "s|/usr/local/bin/|$TRASH/bin/|g" contrib/procmailrc-peer >"$HOME/.procmailrc"
echo '"|exec /usr/bin/procmail"' >"$HOME/.forward"
# cron is not installed here: a crontab program on the PATH prints the
# player's crontab, the line of contrib/README.md, as `crontab -l` would
sed -n 's/^    \(\*\/30 \* \* \* \* .*postrider remind --quiet \$HOME\/games\/ww-bob\)$/\1/p' \
	contrib/README.md >"$TRASH/crontab"
expect_ne "contrib/README.md gives the player's crontab line" "" "$(cat "$TRASH/crontab")"
printf '#!/bin/sh\n[ "$1" = -l ] && exec cat "%s"\nexit 1\n' "$TRASH/crontab" >"$TRASH/bin/crontab"
chmod 755 "$TRASH/bin/crontab"
expect_exit 0 env PATH="$TRASH/bin:$PATH" postrider doctor --config "$TRASH/peer.yaml" "$C"
expect_grep "the filter hands the game's mails to its copy" \
	"^ok    ~/.procmailrc hands the mails of this game to $TRASH/bin/postrider-deliver --games '$HOME/games'" "$TRASH/out"
expect_grep "the crontab runs remind on it" "^ok    the crontab runs postrider remind on '$C'" "$TRASH/out"
expect_no_grep "... no other warning than the mail waiting" "^warn  [^g]" "$TRASH/out"
expect_grep "ready" "^ready: 0 problems, 1 warning" "$TRASH/out"

# a filter that gives the mails to another folder, a crontab without the line
sed -i 's|^GAMES=.*|GAMES=$HOME/other-games|' "$HOME/.procmailrc"
echo "*/30 * * * * /usr/local/bin/postrider remind --quiet \$HOME/games/ww-other" >"$TRASH/crontab"
expect_exit 1 env PATH="$TRASH/bin:$PATH" postrider doctor --config "$TRASH/peer.yaml" "$C"
expect_fixed "mails that would not reach the copy: FAIL, with the fix" \
	"FAIL  no recipe of ~/.procmailrc hands the mails of this game to its copy: run postrider-deliver --games '$HOME/games'" "$TRASH/out"
expect_grep "no crontab line for the copy: a warning with the line to add" \
	"^warn  no crontab line runs postrider remind on '$C': add \"\*/30 \* \* \* \* /usr/local/bin/postrider remind --quiet $C\"" "$TRASH/out"
rm -f "$TRASH/bin/postrider-deliver"
expect_exit 1 env PATH="$TRASH/bin:$PATH" postrider doctor --config "$TRASH/peer.yaml" "$C"
expect_fixed "a filter that runs a postrider-deliver not installed: FAIL" \
	"FAIL  ~/.procmailrc runs '$TRASH/bin/postrider-deliver', which is not there" "$TRASH/out"
printf 'transport: outbox\n' >"$TRASH/peer-no-mailbox.yaml"
expect_exit 1 env PATH="$TRASH/bin:$PATH" postrider doctor --config "$TRASH/peer-no-mailbox.yaml" "$C"
expect_grep "no host_mail: a warning" "^warn  no host_mail in the configuration" "$TRASH/out"
expect_eq "doctor changed nothing in the copy" 2 "$(commit_count "$C")"

test_done
