#!/bin/sh
#
# Fairness end to end (issue: fair randomness): a game is played past its
# first winter (dice) into 1776 (a deal after a shuffle), audited with the
# host's secret, revealed, audited by anyone holding a clone, and checked
# by the independent Python verifier against its log. Then each kind of
# committed byte is tampered with in a clone's history (a state, an order,
# a log line, the sealed private state, the seed), and the audit must name
# the commit; fixed dice can never pass as a fair game.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G"

# Play the first legal order until the game reaches 1776.
n=0
while [ "$(state_field "$G" year)" = 1775 ] && [ $n -lt 300 ]; do
	postrider options "$G" --plain >"$TRASH/opts" || die "options"
	side=$(head -n 1 "$TRASH/opts")
	sed -n 2p "$TRASH/opts" >"$TRASH/order"
	postrider play "$G" --as "$side" "$TRASH/order" >/dev/null 2>"$TRASH/err" ||
		die "order $n ($(cat "$TRASH/order")): $(cat "$TRASH/err")"
	n=$((n + 1))
done
expect_eq "the game reached 1776" 1776 "$(state_field "$G" year)"
expect_grep "winter was resolved" 'Winter Attrition' "$G/log.txt"
expect_grep "the draws are logged with their indices" '^draws* [0-9]' "$G/log.txt"
commits=$(commit_count "$G")

# The game was made with --seed (tests need it): it replays, but it is
# not fair, and the audit says so with exit 4 (issue 12.4; issue 31: 3 means mail not sent).
expect_exit 4 postrider audit "$G"
expect_grep "the host's audit replays every commit" "^verified: $commits commits" "$TRASH/out"
expect_grep "before the reveal it says so" "not public yet" "$TRASH/out"
expect_grep "a given seed is not fair, said plainly" "^not a fair game: the seed was given by the host" "$TRASH/out"

# Without the secret (a player's clone) before the reveal: what needs no seed.
git clone -q "$G" "$TRASH/clone0"
expect_exit 4 postrider audit "$TRASH/clone0"
expect_grep "a clone is verified without the seed" "^verified without the seed: $commits commits" "$TRASH/out"
expect_grep "a clone also says the seed was given" "^not a fair game: the seed was given" "$TRASH/out"

# A game with a random seed, as a host makes it, audits as fair (exit 0),
# at the host's and in a clone.
R=$TRASH/random
expect_exit 0 postrider new "$R" --american "$AMERICAN" --british "$BRITISH" --host "$HOST"
for i in 1 2 3 4 5 6; do
	postrider options "$R" --plain >"$TRASH/opts" || die "options"
	sed -n 2p "$TRASH/opts" >"$TRASH/order"
	postrider play "$R" --as "$(head -n 1 "$TRASH/opts")" "$TRASH/order" >/dev/null 2>&1 || die "random-seed order $i"
done
expect_exit 0 postrider audit "$R"
expect_grep "a random seed: verified" "^verified: 7 commits" "$TRASH/out"
git clone -q "$R" "$TRASH/random-clone"
expect_exit 0 postrider audit "$TRASH/random-clone"

# --- Issue 12.6: the players find a history rewritten or cut short ---
# The outbox is a Maildir of every report sent: as a player's mailbox.
MB="$R/.git/postrider/outbox"
expect_exit 0 postrider audit --mail "$MB" "$TRASH/random-clone"
expect_grep "every report's commit is in the history" "^mail: every one of the 14 reports" "$TRASH/out"
for f in "$MB"/new/*; do
	sed 's/\r$//' "$f" | { echo "From postrider Thu Jan  1 00:00:00 2026"; cat; echo; }
done >"$TRASH/reports.mbox"
expect_exit 0 postrider audit --mail "$TRASH/reports.mbox" "$TRASH/random-clone"
expect_grep "an mbox is read too" "^mail: every one of the 14 reports" "$TRASH/out"
git clone -q "$R" "$TRASH/cut"
git -C "$TRASH/cut" reset -q --hard HEAD~2
expect_exit 1 postrider audit --mail "$MB" "$TRASH/cut"
expect_grep "a history cut short is found from the mail" "which is not in the history" "$TRASH/out"
git clone -q "$R" "$TRASH/rewritten"
git -C "$TRASH/rewritten" commit -q --amend -m "$(git -C "$R" log -1 --format=%B)
"
expect_exit 1 postrider audit --mail "$MB" "$TRASH/rewritten"
expect_grep "a rewritten history is found from the mail" "which is not in the history" "$TRASH/out"
# every order says how it came: by mail (with its Message-ID) or from the host
expect_grep "an order entered by the host says so" "^Postrider-Via: host (play --as " \
	"$(git -C "$R" log -1 --format=%B >"$TRASH/msg"; echo "$TRASH/msg")"
expect_grep "each report names its commit in a header" "^X-Postrider-Commit: $(git -C "$R" rev-parse HEAD)" \
	"$(grep -l "^X-Postrider-Commit: $(git -C "$R" rev-parse HEAD)" "$MB"/new/* | head -n 1)"

# --- Issue 12.4: every kind of commit may change only what it must ---
# host_commit NAME COMMAND...: in a fresh clone of the game, run COMMAND
# (in the clone) and commit the result on top as a commit without an
# order; the audit, with the seed and without, must fail and name it.
host_commit() {
	name=$1
	shift
	dir=$TRASH/h-$name
	rm -rf "$dir"
	git clone -q "$G" "$dir"
	cp "$G/.git/postrider/secret" "$dir/.git/postrider/secret" 2>/dev/null ||
		{ mkdir -p "$dir/.git/postrider" && cp "$G/.git/postrider/secret" "$dir/.git/postrider/secret"; }
	(cd "$dir" && "$@") || die "host_commit $name"
	git -C "$dir" add -A
	git -C "$dir" commit -q -m "Host: $name

Postrider-Game: $(sed -n 's/^id: //p' "$G/game.yaml")
Postrider-Seq: $(state_field "$G" seq)
Postrider-Side: none" || die "commit $name"
	expect_exit 1 postrider audit "$dir"
	expect_grep "host commit '$name': the audit names the commit" \
		"^commit $(git -C "$dir" rev-parse HEAD) " "$TRASH/out"
	cp "$TRASH/out" "$TRASH/h-$name.out"
	rm -f "$dir/.git/postrider/secret"
	expect_exit 1 postrider audit "$dir"
	expect_grep "host commit '$name': a player's audit names it too" \
		"^commit $(git -C "$dir" rev-parse HEAD) " "$TRASH/out"
}
rewrite_order() {
	f=$(ls orders | sed -n 3p)
	echo "pass" >"orders/$f"
}
host_commit old-order rewrite_order
expect_grep "rewriting an old order is named" "changes orders/" "$TRASH/h-old-order.out"
host_commit address sed -i 's/alice@example.org/mallory@example.net/' game.yaml
expect_grep "a new address is named" "game.yaml changes" "$TRASH/h-address.out"
host_commit relabel sed -i 's/seed_source: given/seed_source: random/' game.yaml
expect_grep "a given seed relabelled random is named" "game.yaml changes" "$TRASH/h-relabel.out"
swap_cards() {
	mkdir -p "$TRASH/swapped" && cp "$OLDPWD"/games/washingtons-war/*.yaml "$TRASH/swapped/"
	sed -i '0,/ops: 3/s/ops: 3/ops: 1/' "$TRASH/swapped/cards.yaml"
	cp "$TRASH/swapped/cards.yaml" data/cards.yaml
	h=$(postrider data --data "$TRASH/swapped" | sed -n 's/^hash: //p')
	[ -n "$h" ] && sed -i "s/^data_hash: .*/data_hash: $h/" game.yaml
}
host_commit cards swap_cards
expect_grep "swapped card data with a matching hash is named" "data/cards.yaml\|game.yaml changes" "$TRASH/h-cards.out"
host_commit extra-file sh -c 'echo hi >notes.txt'
expect_grep "a file no commit may add is named" "adds notes.txt" "$TRASH/h-extra-file.out"

# --- Issue 12.5: what a player checks before the reveal, without a seed ---
# public NAME PATH SED-EXPR: in a clone without the secret, rewrite PATH
# at HEAD with SED-EXPR (amending the last order's commit); the player's
# audit must fail and name that commit.
public() {
	name=$1 path=$2 expr=$3
	dir=$TRASH/p-$name
	rm -rf "$dir"
	git clone -q "$G" "$dir"
	last=$(git -C "$dir" log --format=%H --grep '^Postrider-Draws: ' -1)
	git -C "$dir" checkout -q "$last" 2>/dev/null
	sed -i "$expr" "$dir/$path"
	if git -C "$dir" diff --quiet; then
		fail "public $name: the test's sed changed nothing"
		return
	fi
	git -C "$dir" commit -q -a --amend --no-edit
	git -C "$dir" branch -f main HEAD && git -C "$dir" checkout -q main
	expect_exit 1 postrider audit "$dir"
	expect_grep "player's audit, $name: the commit is named" \
		"^commit $(git -C "$dir" rev-parse HEAD) " "$TRASH/out"
	cp "$TRASH/out" "$TRASH/p-$name.out"
}
public malformed log.txt '$s/$/\ndraw 7: d6 -> 9 (a die with nine sides)/'
expect_grep "a malformed draw line is named" "malformed draw line" "$TRASH/p-malformed.out"
# a die logged five indices ahead of the next one
public gap log.txt "\$s/\$/\\ndraw $(( $(state_field "$G" draws) + 5 )): d6 -> 3 (skipped ahead)/"
expect_grep "a gap in the draw index is named" "draws missing\|draw used twice" "$TRASH/p-gap.out"
public lowered state.yaml 's/^draws: [0-9]*/draws: 1/'
expect_grep "a lowered draws field is named" "draws" "$TRASH/p-lowered.out"
noorder() { git rm -q "$(git ls-files orders | tail -n 1)"; }
dir=$TRASH/p-noorder
git clone -q "$G" "$dir"
(cd "$dir" && noorder && git commit -q --amend --no-edit) || die "noorder"
expect_exit 1 postrider audit "$dir"
expect_grep "an order step without its order file is named" "has no order file" "$TRASH/out"

# Issue 12.2: a running game is not revealed (both hands and every future
# die would be known); the reveal must end it as abandoned.
expect_exit 1 postrider reveal "$G"
expect_grep "a reveal mid-game is refused" "still running" "$TRASH/err"
expect_eq "the refused reveal committed nothing" "$commits" "$(commit_count "$G")"
expect_exit 0 postrider reveal --abandon "$G"
expect_exit 1 postrider reveal "$G"
expect_grep "a second reveal is refused" "already public" "$TRASH/err"
commits=$((commits + 1))
expect_grep "the reveal ended the game" "end: abandoned" "$G/state.yaml"
git -C "$G" log -1 --format=%B >"$TRASH/msg"
expect_grep "the commit says the game was abandoned" "^Abandon game" "$TRASH/msg"
printf 'pass\n' >"$TRASH/order"
expect_exit 1 postrider play "$G" --as american "$TRASH/order"
cat "$TRASH/out" "$TRASH/err" >"$TRASH/both"
expect_grep "no order after the reveal" "game is over" "$TRASH/both"
seed=$(sed -n 's/^ *revealed_seed: //p' "$G/game.yaml")
expect_eq "the revealed seed is the game's secret" "$(cat "$G/.git/postrider/secret")" "$seed"

git clone -q "$G" "$TRASH/clone"
expect_exit 4 postrider audit "$TRASH/clone"
expect_grep "anyone with the history verifies after the reveal" "^verified: $commits commits" "$TRASH/out"
expect_exit 0 postrider show "$TRASH/clone" --as british
expect_grep "after the reveal the hands can be read" "^The British hand:" "$TRASH/out"

# The independent verifier (Python, from docs/fairness.md alone).
expect_exit 0 /usr/bin/python3 tests/verify/verify_draws.py "$seed" "$G/log.txt" --vrf4 "$(sed -n 's/^id: //p' "$G/game.yaml")" \
	--commitment "$(sed -n 's/^ *seed_commitment: //p' "$G/game.yaml")"
expect_grep "the Python verifier re-derives every draw" '^verified: [1-9][0-9]* draws' "$TRASH/out"
sed 's/^\(draw [0-9]*: d6 -> \)\([1-6]\)/\1X\2/' "$G/log.txt" >"$TRASH/bad-log"
if grep -q 'd6 -> X' "$TRASH/bad-log"; then
	sed -i '0,/-> X\([1-6]\)/s/-> X\([1-6]\)/-> 7/' "$TRASH/bad-log"
	sed -i 's/-> X\([1-6]\)/-> \1/' "$TRASH/bad-log"
	expect_exit 1 /usr/bin/python3 tests/verify/verify_draws.py "$seed" "$TRASH/bad-log" --vrf4 "$(sed -n 's/^id: //p' "$G/game.yaml")"
fi

# tamper NAME PATH SED-EXPR: in a fresh clone, rewrite PATH in the commit
# that holds order 5 (and only there) with SED-EXPR; the audit must name
# that commit.
target_of() { # the commit whose state.yaml has seq $1
	git -C "$1" log --format=%H --grep "^Postrider-Seq: $2\$" | tail -n 1
}
tamper() {
	name=$1 path=$2 expr=$3
	dir=$TRASH/t-$name
	git clone -q "$G" "$dir"
	target=$(target_of "$dir" 5)
	[ -n "$target" ] || die "no commit for order 5"
	git -C "$dir" show "$target:$path" | sed "$expr" >"$TRASH/tampered"
	if cmp -s "$TRASH/tampered" "$TRASH/untampered.$name" 2>/dev/null; then :; fi
	git -C "$dir" show "$target:$path" >"$TRASH/untampered.$name"
	if cmp -s "$TRASH/tampered" "$TRASH/untampered.$name"; then
		fail "tampering $name changed nothing (the test's sed did not match)"
		return
	fi
	blob=$(git -C "$dir" hash-object -w "$TRASH/tampered")
	FILTER_BRANCH_SQUELCH_WARNING=1 git -C "$dir" filter-branch --index-filter \
		"if [ \"\$GIT_COMMIT\" = $target ]; then git update-index --cacheinfo 100644,$blob,$path; fi" \
		HEAD >"$TRASH/fb.out" 2>&1 || { cat "$TRASH/fb.out"; die "filter-branch for $name"; }
	new=$(target_of "$dir" 5)
	expect_exit 1 postrider audit "$dir"
	expect_grep "tampered $name: the audit names the commit of order 5" "^commit $new " "$TRASH/out"
	expect_grep "tampered $name: and the file" "$path" "$TRASH/out"
}
tamper state state.yaml 's/^draws: \([0-9]*\)/draws: 9\1/'
tamper order "orders/$(git -C "$G" show "$(target_of "$G" 5):state.yaml" >/dev/null; \
	git -C "$G" ls-tree --name-only "$(target_of "$G" 5)" orders/ | sed -n 's|^orders/||; /^0005-/p')" 's/^\([a-z]*\) .*/\1 done/'
tamper log log.txt '$s/.*/a line nobody wrote/'
tamper sealed private/state.sealed '2s/^./A/;2s/^AA/AB/'

# The seed: a revealed seed that does not match the commitment.
dir=$TRASH/t-seed
git clone -q "$G" "$dir"
sed -i "s/revealed_seed: ./revealed_seed: 0/" "$dir/game.yaml"
sed -i "s/revealed_seed: 00/revealed_seed: 11/" "$dir/game.yaml"
git -C "$dir" commit -qam "change the seed" >/dev/null
expect_exit 1 postrider audit "$dir"
expect_grep "a false seed is named" "revealed seed does not match" "$TRASH/out" ||
	show_file "$TRASH/err"

# Fixed dice (test mode) are marked and never audit as fair.
F=$TRASH/fixed
new_game "$F"
postrider options "$F" --plain | sed -n 2p >"$TRASH/order"
expect_exit 0 postrider play "$F" --as american --fix-dice 1,2,3 "$TRASH/order"
expect_grep "game.yaml marks fixed dice" "fixed_dice: true" "$F/game.yaml"
expect_grep "the commit says which" "^Postrider-Fixed-Dice: 1,2,3" "$(git -C "$F" log -1 --format=%B >"$TRASH/msg"; echo "$TRASH/msg")"
expect_exit 4 postrider audit "$F"
expect_grep "the audit says the game is not fair" "not a fair game: fixed dice" "$TRASH/out"

# The same seed and orders give byte-identical commits.
H=$TRASH/again
new_game "$H"
for f in $(git -C "$G" log --reverse --format=%H | sed -n '2,6p'); do
	side=$(git -C "$G" show "$f" --format= --name-only | sed -n 's|^orders/[0-9]*-\([a-z]*\)\.txt$|\1|p')
	order=$(git -C "$G" show "$f" --format= --name-only | grep '^orders/')
	git -C "$G" show "$f:$order" >"$TRASH/order"
	postrider play "$H" --as "$side" "$TRASH/order" >/dev/null 2>&1 || die "replaying $order"
done
expect_eq "the same orders give the same commit" "$(git -C "$G" rev-parse HEAD~$((commits - 6)))" "$(git -C "$H" rev-parse HEAD)"

test_done
