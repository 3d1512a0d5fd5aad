#!/bin/sh
#
# Provable dice (issue 20, docs/fairness.md sections 17-19): a game of
# fairness version 4 (the default) is played through the command line
# with random legal orders (battles among them), and after every order a
# player's clone, which holds no secret, is audited; the independent
# Python verifier
# agrees at every tenth order and at the end. Then a changed die, a changed
# proof, a proof moved to another draw and a missing proof are each caught
# and named in a rewritten history; `audit --turn N` explains an order with
# dice; a game of version 1 audits as before.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

VERIFY=tests/verify/verify_vrf.py

# RFC 9381's vectors, by the Python verifier (the C side: test_vrf).
expect_exit 0 python3 "$VERIFY" --vectors
expect_grep "the Python verifier passes RFC 9381's examples" '^ok: 3 vectors' "$TRASH/out"

G=$TRASH/game
# the tests' fixed seed, so every run plays the same game; the audits say
# "not a fair game" for it (exit 4) after verifying everything
new_game "$G"
expect_grep "game.yaml says fairness version 4 (the default)" '^  version: 4$' "$G/game.yaml"
expect_grep "game.yaml publishes the VRF public key" '^  vrf_public_key: 0[23][0-9a-f]\{64\}$' "$G/game.yaml"
expect_eq "the new game has no dice yet, so no proofs" 0 "$(wc -c <"$G/proofs.txt")"

C=$TRASH/clone
git clone -q "$G" "$C"

# Both sides write words first: they go into every die's input.
printf 'words a dark and stormy night\n' >"$TRASH/words"
expect_exit 0 postrider play "$G" --as american "$TRASH/words"

# Random legal orders, moves preferred (battles roll dice), from a fixed
# pseudo-random sequence; the clone pulls and audits after every order.
n=0
british_words=
bad=0
while [ $n -lt 110 ]; do
	random_move_order "$G" || break
	side=$SIDE
	if [ "$side" = british ] && [ -z "$british_words" ]; then
		# the British words, with his first order
		british_words=yes
		cat "$TRASH/words" "$TRASH/order" >"$TRASH/o2" && mv "$TRASH/o2" "$TRASH/order"
	fi
	postrider play "$G" --as "$side" "$TRASH/order" >/dev/null 2>"$TRASH/err" ||
		die "order $n ($(cat "$TRASH/order")): $(cat "$TRASH/err")"
	n=$((n + 1))
	git -C "$C" pull -q --ff-only || die "pull"
	postrider audit "$C" >"$TRASH/audit" 2>&1
	rc=$?
	if [ $rc != 4 ] || ! grep -q '^verified without the seed' "$TRASH/audit"; then
		bad=$((bad + 1))
		show_file "$TRASH/audit"
	fi
	if [ $((n % 10)) = 0 ]; then
		python3 "$VERIFY" game "$C" >"$TRASH/py" 2>&1 || {
			bad=$((bad + 1))
			show_file "$TRASH/py"
		}
	fi
done
expect_eq "a player's clone passed the audit after each of $n orders" 0 "$bad"
expect_grep "both sides' words were mixed in" '^words mixed: american [0-9a-f]\{64\} british [0-9a-f]\{64\}$' "$G/log.txt"
dice=$(grep -c '^draw [0-9]*: ' "$G/log.txt")
shuffles=$(grep -c '^draws [0-9]*-[0-9]*: shuffle' "$G/log.txt")
[ "$dice" -ge 8 ] || die "only $dice public draws in $n orders: the test needs battles"
expect_grep "battles rolled dice" 'combat roll (9.2)' "$G/log.txt"
expect_eq "one proof per public draw" "$dice" "$(wc -l <"$C/proofs.txt")"

expect_exit 4 postrider audit "$C"
expect_grep "the clone's audit counts every die, with no secret" \
	"^verified $dice dice without any secret; $shuffles shuffles wait for the end" "$TRASH/out"
expect_exit 0 python3 "$VERIFY" game "$C"
expect_grep "the Python verifier agrees" \
	"^verified $dice dice without any secret; $shuffles shuffles wait for the end" "$TRASH/out"
expect_exit 4 postrider audit "$G"
expect_grep "the host's audit checks the proofs too" "^verified $dice dice without any secret$" "$TRASH/out"
expect_grep "and replays every commit with the seed" '^verified: ' "$TRASH/out"

# The commit that rolled the first die of a battle, and its order.
first=$(grep -m 1 'combat roll (9.2)' "$G/log.txt" | sed 's/^draw \([0-9]*\):.*/\1/')
target=$(git -C "$G" log --format='%H %s' | while read -r id rest; do
	if git -C "$G" show "$id:proofs.txt" | grep -q "^$first "; then echo "$id"; fi
done | tail -n 1)
[ -n "$target" ] || die "no commit holds the proof of draw $first"
seq=$(git -C "$G" show "$target:state.yaml" | sed -n 's/^seq: //p')

# audit --turn: the order, what happened, each die checked with its rule.
expect_exit 4 postrider audit "$C" --turn "$seq"
expect_grep "--turn names the order and its commit" "^order $seq of game .*commit $(echo "$target" | cut -c1-12)" "$TRASH/out"
expect_grep "--turn shows the order as given" '^  | ' "$TRASH/out"
expect_grep "--turn checks each die's proof and names its rule" \
	"^      draw $first: proof checked under the game's public key, it gives [1-6]; rule 9.2$" "$TRASH/out"
expect_exit 2 postrider audit "$C" --turn 9999
expect_grep "--turn of an order that does not exist says so" '^there is no order 9999' "$TRASH/out"

# tamper NAME PATH SED-EXPR WANT: rewrite PATH in the target commit of a
# fresh clone; the audit and the Python verifier must both fail there.
tamper() {
	name=$1 path=$2 expr=$3 want=$4
	dir=$TRASH/t-$name
	git clone -q "$G" "$dir"
	git -C "$dir" show "$target:$path" >"$TRASH/before"
	sed "$expr" "$TRASH/before" >"$TRASH/after"
	if cmp -s "$TRASH/before" "$TRASH/after"; then
		fail "tampering $name changed nothing (the test's sed did not match)"
		return
	fi
	blob=$(git -C "$dir" hash-object -w "$TRASH/after")
	FILTER_BRANCH_SQUELCH_WARNING=1 git -C "$dir" filter-branch --index-filter \
		"if [ \"\$GIT_COMMIT\" = $target ]; then git update-index --cacheinfo 100644,$blob,$path; fi" \
		HEAD >"$TRASH/fb.out" 2>&1 || { cat "$TRASH/fb.out"; die "filter-branch for $name"; }
	new=$(git -C "$dir" log --format=%H | while read -r id; do
		git -C "$dir" show "$id:state.yaml" | grep -q "^seq: $seq$" && echo "$id"
	done | tail -n 1)
	expect_exit 1 postrider audit "$dir"
	expect_grep "$name: the audit names the commit" "^commit $new " "$TRASH/out"
	expect_grep "$name: and says what is wrong" "$want" "$TRASH/out"
	expect_exit 1 python3 "$VERIFY" game "$dir" "$new"
	expect_grep "$name: the Python verifier fails too" '^fails: ' "$TRASH/out"
}
# a die the host changed after rolling it
tamper die log.txt "/^draw $first: /s/d6 -> \([1-6]\)/d6 -> X\1/;s/d6 -> X6/d6 -> 1/;s/d6 -> X\([1-5]\)/d6 -> 6/" \
	"draw $first shows the die [1-6], but its proof gives [1-6]"
# a proof changed in one hex digit
tamper proof proofs.txt "/^$first /s/ \(.\{100\}\)\(.\)/ \1X\2/;/^$first /s/X0/1/;/^$first /s/X[1-9a-f]/0/" \
	"the proof of draw $first in proofs.txt does not verify"
# the proof of another draw, put under this draw's number
tamper moved proofs.txt "/^$first /{s/.*//;N;s/^\n$((first + 1)) \(.*\)/$first \1\n$((first + 1)) \1/}" \
	"the proof of draw $first in proofs.txt does not verify"
# a proof left out
tamper missing proofs.txt "/^$first /d" "draw $first has no proof in proofs.txt"

# With the seed revealed, the stream's verifier re-derives every die by
# proving it again (deterministic), and agrees with the log.
expect_exit 0 postrider reveal --abandon "$G"
seed=$(sed -n 's/^ *revealed_seed: //p' "$G/game.yaml")
expect_exit 0 python3 tests/verify/verify_draws.py "$seed" "$G/log.txt" --vrf4 "$(sed -n 's/^id: //p' "$G/game.yaml")"
expect_grep "after the reveal every draw is re-derived from the seed" '^verified: [1-9][0-9]* draws' "$TRASH/out"
expect_exit 1 python3 tests/verify/verify_draws.py "$seed" "$G/log.txt"
expect_grep "read as version 1, the dice do not match" '^mismatch: ' "$TRASH/out"

# Version 1 games are as they were: no key, no proofs, the same audit.
V1=$TRASH/v1
expect_exit 0 postrider new "$V1" --american "$AMERICAN" --british "$BRITISH" --host "$HOST" --fairness 1
expect_no_grep "a version 1 game.yaml has no version line" 'version:' "$V1/game.yaml"
expect_no_grep "nor a VRF key" 'vrf_public_key' "$V1/game.yaml"
[ -e "$V1/proofs.txt" ] && fail "a version 1 game has a proofs.txt" || ok "a version 1 game has no proofs.txt"
play_first_legal "$V1" || die "v1 order"
git clone -q "$V1" "$TRASH/v1-clone"
expect_exit 0 postrider audit "$TRASH/v1-clone"
expect_grep "a version 1 clone audits as before" '^verified without the seed: 2 commits' "$TRASH/out"
expect_no_grep "and claims no proved dice" 'dice without any secret' "$TRASH/out"
expect_exit 2 postrider new "$TRASH/v5" --american "$AMERICAN" --british "$BRITISH" --fairness 5

test_done
