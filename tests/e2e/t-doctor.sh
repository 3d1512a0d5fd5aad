#!/bin/sh
# t-doctor.sh - `postrider doctor` checks a host's set-up and says what to
# fix (issue 18): a real SMTP server reached or not, a wrong configuration,
# secrets other users can read, templates not found, mail waiting, a game
# that does not open. It changes nothing and sends nothing.

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

test_done
