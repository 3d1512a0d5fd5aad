#!/bin/sh
#
# postrider new: a new game is one clean commit with the seed committed to
# but not revealed, the secret kept private, one report mailed to each
# player; bad arguments create nothing.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G"
ok "postrider new exits 0"

# --- the repository ---
expect_eq "one commit" 1 "$(commit_count "$G")"
expect_eq "HEAD is the branch main" refs/heads/main \
	"$(git -C "$G" symbolic-ref HEAD)"
expect_fsck "$G"
expect_clean "$G"
expect_eq "the commit's author and committer are the host, at POSTRIDER_NOW" \
	"Host <host@example.org> 1700000000 +0000|Host <host@example.org> 1700000000 +0000" \
	"$(git -C "$G" log -1 --format='%an <%ae> %ad|%cn <%ce> %cd' --date=raw)"
expect_eq "the commit's subject" \
	"New game $GAME_ID: Alice (American) v Bob (British)" \
	"$(git -C "$G" log -1 --format=%s)"
expect_eq "the commit's trailers" \
	"Postrider-Game: $GAME_ID
Postrider-Seq: 0
Postrider-Side: none" \
	"$(git -C "$G" log -1 --format='%(trailers:key=Postrider-Game,key=Postrider-Seq,key=Postrider-Side)' | sed '/^$/d')"
expect_eq "every tracked file is mode 100644" "" \
	"$(git -C "$G" ls-tree -r HEAD | grep -v '^100644 blob ' || :)"
for f in game.yaml state.yaml log.txt; do
	expect_eq "$f is committed" "$f" "$(git -C "$G" ls-files -- "$f")"
done

# --- randomness: committed, not revealed ---
expect_grep "game.yaml holds the seed commitment" \
	"^  seed_commitment: $SEED_COMMITMENT\$" "$G/game.yaml"
expect_grep "game.yaml marks the seed as given" \
	"^  seed_source: given\$" "$G/game.yaml"
expect_grep "game.yaml names the game" "^id: $GAME_ID\$" "$G/game.yaml"
expect_grep "game.yaml names the American player" \
	"^    address: $AMERICAN_ADDR\$" "$G/game.yaml"
expect_grep "game.yaml names the British player" \
	"^    address: $BRITISH_ADDR\$" "$G/game.yaml"
git -C "$G" log -p --all >"$TRASH/history"
git -C "$G" cat-file --batch-all-objects --batch >"$TRASH/objects"
expect_no_fixed "the seed is in no committed file, commit or object" \
	"$SEED" "$G/game.yaml" "$G/state.yaml" "$G/log.txt" \
	"$TRASH/history" "$TRASH/objects"
SECRET=$G/.git/postrider/secret
expect_eq "the secret file is mode 600" 600 "$(stat -c %a "$SECRET")"
expect_eq "the private folder is mode 700" 700 \
	"$(stat -c %a "$G/.git/postrider")"
expect_eq "the secret file holds the given seed" "$SEED" "$(cat "$SECRET")"

# --- the state ---
expect_eq "state.yaml: seq 0" 0 "$(state_field "$G" seq)"
expect_eq "state.yaml: year 1775" 1775 "$(state_field "$G" year)"
expect_eq "state.yaml: the prompt is the Committees of Correspondence" cc \
	"$(sed -n '/^prompt:/,/^[^ ]/s/^  kind: *//p' "$G/state.yaml")"
expect_eq "state.yaml: the American decides" american "$(prompt_side "$G")"
postrider options "$G" --plain >"$TRASH/options" 2>&1
expect_eq "options --plain: the American decides" american \
	"$(head -n 1 "$TRASH/options")"
expect_grep "options --plain lists a CC placement" '^place ' "$TRASH/options"

# --- the outbox ---
HEADC=$(git -C "$G" rev-parse HEAD)
expect_eq "two messages in the outbox" 2 "$(outbox_count "$G")"
expect_eq "their names start with the commit id" 2 \
	"$(outbox_list "$G" | grep -c "^$HEADC-" || :)"
A=$(report_for "$G" american) || fail "a report for the American"
B=$(report_for "$G" british) || fail "a report for the British"
expect_eq "the American's report goes to Alice" "$AMERICAN" "$(header "$A" To)"
expect_eq "the British report goes to Bob" "$BRITISH" "$(header "$B" To)"
expect_eq "the American's report is from the host" "$HOST" "$(header "$A" From)"
expect_eq "the British report is from the host" "$HOST" "$(header "$B" From)"
subj=$(header "$A" Subject)
token=$(printf '%s\n' "$subj" | sed -n 's/.*(token \([a-z0-9-]*\))$/\1/p')
expect_eq "the American's subject says it is their move, with a token" \
	"[$GAME_ID] 1775: your move, American (token $token)" "$subj"
expect_ne "the token is not empty" "" "$token"
expect_eq "the American's Reply-To carries the token" \
	"Host <host+$token@example.org>" "$(header "$A" Reply-To)"
case $(header "$B" Subject) in
"[$GAME_ID] 1775: American to move" | "[$GAME_ID] 1775: American to move (token "*")")
	ok "the British subject says whose move it is" ;;
*)	fail "the British subject says whose move it is" \
		"expected: [$GAME_ID] 1775: American to move [(token ...)]" \
		"actual:   $(header "$B" Subject)" ;;
esac
expect_no_fixed "the British report does not carry the American's token" \
	"$token" "$B"
expect_eq "both reports name the game" "$GAME_ID $GAME_ID" \
	"$(header "$A" X-Postrider-Game) $(header "$B" X-Postrider-Game)"
mid_a=$(header "$A" Message-ID)
mid_b=$(header "$B" Message-ID)
expect_ne "the two reports have different Message-IDs" "$mid_a" "$mid_b"
expect_no_fixed "no mail holds the seed" "$SEED" "$A" "$B"

# --- frozen clock and seed: the same game twice is the same commit ---
new_game "$TRASH/again"
expect_eq "the same seed and clock give the same commit id" "$HEADC" \
	"$(git -C "$TRASH/again" rev-parse HEAD)"

# --- an empty existing directory is fine (as for git init) ---
mkdir "$TRASH/new-empty"
expect_exit 0 postrider new "$TRASH/new-empty" --american "$AMERICAN" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED"
expect_eq "a game made in an empty directory" 1 \
	"$(commit_count "$TRASH/new-empty")"

# --- bad arguments create nothing ---
# nothing_made WHAT DIR: DIR does not exist (if it does, it is removed so
# that the next case starts afresh)
nothing_made() {
	if [ -e "$2" ]; then
		fail "$1: nothing is created" "$(ls -A "$2" 2>&1)"
		rm -rf "$2"
	else
		ok "$1: nothing is created"
	fi
}

D=$TRASH/bad
expect_exit 2 postrider new "$D" --british "$BRITISH" --host "$HOST" \
	--seed "$SEED"
expect_fixed "it says --american is required" "--american is required" \
	"$TRASH/err"
nothing_made "missing --american" "$D"

expect_exit 2 postrider new "$D" --american "$AMERICAN" --host "$HOST" \
	--seed "$SEED"
nothing_made "missing --british" "$D"

expect_exit 2 postrider new --american "$AMERICAN" --british "$BRITISH"
ok "no DIR: usage"

nl='
'
expect_exit "1|2" postrider new "$D" \
	--american "Alice <alice@example.org>${nl}Bcc: eve@example.net" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED"
nothing_made "an address with a newline" "$D"

expect_exit "1|2" postrider new "$D" \
	--american "Alice <alice@example.org>" \
	--british "Bob <bob@example.org>${nl}" --host "$HOST" --seed "$SEED"
nothing_made "an address ending in a newline" "$D"

expect_exit "1|2" postrider new "$D" --american "Alice" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED"
nothing_made "a name without an address" "$D"

expect_exit "1|2" postrider new "$D" --american "$AMERICAN" \
	--british "$AMERICAN" --host "$HOST" --seed "$SEED"
nothing_made "the same address for both players" "$D"

expect_exit 2 postrider new "$D" --american "$AMERICAN" \
	--british "$BRITISH" --host "$HOST" --seed 0001
nothing_made "a seed that is not 64 hex digits" "$D"

expect_exit 2 postrider new "$D" --american "$AMERICAN" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED" --no-such-option
nothing_made "an unknown option" "$D"

mkdir "$TRASH/full"
echo "someone's notes" >"$TRASH/full/notes.txt"
snapshot "$TRASH/full" full
expect_exit "1|2" postrider new "$TRASH/full" --american "$AMERICAN" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED"
expect_unchanged "an existing non-empty directory is left as it was" \
	"$TRASH/full" full
expect_eq "no .git is made in it" "notes.txt" "$(ls -A "$TRASH/full")"

# a failure after the repository was made (the templates are missing):
# nothing is left, least of all the secret
POSTRIDER_TEMPLATES=$TRASH/no-templates expect_exit 1 postrider new "$D" \
	--american "$AMERICAN" --british "$BRITISH" --host "$HOST" --seed "$SEED"
nothing_made "a failure after the repository was created" "$D"
mkdir "$TRASH/empty-fail"
POSTRIDER_TEMPLATES=$TRASH/no-templates expect_exit 1 postrider new \
	"$TRASH/empty-fail" --american "$AMERICAN" --british "$BRITISH" \
	--host "$HOST" --seed "$SEED"
expect_eq "a failure in an existing empty folder leaves it empty" "" \
	"$(ls -A "$TRASH/empty-fail")"

# a password in a config file others can read: warned, not silently used
printf 'username: referee\npassword: s3cret\n' \
	>"$TRASH/open-config.yaml"
chmod 644 "$TRASH/open-config.yaml"
expect_exit 0 postrider new "$TRASH/pw-game" --config "$TRASH/open-config.yaml" \
	--american "$AMERICAN" --british "$BRITISH" --host "$HOST" --seed "$SEED"
expect_fixed "a world-readable config with a password is warned about" \
	"holds a password and can be read by other users" "$TRASH/err"
chmod 600 "$TRASH/open-config.yaml"
expect_exit 0 postrider new "$TRASH/pw-game2" --config "$TRASH/open-config.yaml" \
	--american "$AMERICAN" --british "$BRITISH" --host "$HOST" --seed "$SEED"
expect_no_fixed "a private config is not warned about" "can be read by other users" "$TRASH/err"

# bare addresses, without a name
expect_exit 0 postrider new "$TRASH/bare" --american alice@example.org \
	--british bob@example.org --host referee@example.org --seed "$SEED"
expect_eq "bare addresses: both reports are written" 2 \
	"$(outbox_count "$TRASH/bare")"

snapshot "$G" game
expect_exit "1|2" postrider new "$G" --american "$AMERICAN" \
	--british "$BRITISH" --host "$HOST" --seed "$SEED"
expect_unchanged "new on an existing game leaves it as it was" "$G" game
expect_eq "... and its outbox too" 2 "$(outbox_count "$G")"

test_done
