#!/bin/sh
# t-verify-shuffles.sh - every shuffle of a revealed game checked by the
# independent verifier (tests/verify/verify_shuffles.py), written from
# docs/fairness.md alone (issue 12, item 8).
#
# A game is played through the command line with random legal orders (a
# fixed awk seed) until the strategy deck has been reshuffled with the
# discard pile, so that it holds all three kinds of shuffle of section 13:
# the first shuffle, the set-aside cards shuffled in, and a reshuffle. It is
# revealed and verified. Then a host holding the seed forges the private
# state of the reshuffle's commit (sealed again, so it opens) in three
# ways, and the verifier names each: the deck's order changed, the list
# that was shuffled changed, the record of the shuffle left out.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

V=tests/verify/verify_shuffles.py
expect_exit 0 "$PY" "$V" --self-test

G=$TRASH/g
SEED_G=00000000000000000000000000000000000000000000000000000000000000a1
postrider new "$G" --american "$AMERICAN" --british "$BRITISH" --seed "$SEED_G" \
	>/dev/null 2>&1 || die "postrider new"
i=0
while [ $i -lt 600 ]; do
	postrider options "$G" --plain >"$TRASH/opts" || die "options"
	side=$(head -n 1 "$TRASH/opts")
	[ "$side" = none ] && break
	tail -n +2 "$TRASH/opts" |
		awk -v s=$i 'BEGIN { srand(s) } { a[NR] = $0 } END { print a[int(rand() * NR) + 1] }' \
		>"$TRASH/order"
	postrider play "$G" --as "$side" "$TRASH/order" >"$TRASH/play.out" 2>&1 ||
		die "order $i ($side: $(cat "$TRASH/order")): $(head -n 5 "$TRASH/play.out")"
	i=$((i + 1))
	grep -q 'shuffle of [0-9]* (reshuffle of the strategy deck)' "$G/log.txt" && break
done
echo "# $i orders played"
expect_eq "the game has all three kinds of shuffle" 3 \
	"$(grep -c 'shuffle of [0-9]* (\(the strategy deck (4.0)\|set-aside cards into the strategy deck\|reshuffle of the strategy deck\))' "$G/log.txt")"
RESHUFFLE=$(git -C "$G" rev-parse HEAD)
expect_exit 0 postrider reveal --abandon "$G"

expect_exit 0 "$PY" "$V" "$G"
expect_grep "the verifier checks the three shuffles" "^verified: 3 shuffles in [0-9]* commits" "$TRASH/out"
# postrider's own audit agrees (exit 4: the seed was given, so not fair)
expect_exit 4 postrider audit "$G"

# forge MODE: a copy of the game whose reshuffle commit carries a private
# state changed by MODE and sealed again with the seed, and the reveal on
# top of it; prints the copy's folder
forge() {
	_f=$TRASH/forged-$1
	rm -rf "$_f"
	cp -a "$G" "$_f"
	_seq=$(git -C "$_f" show "$RESHUFFLE:state.yaml" | sed -n 's/^seq: //p')
	git -C "$_f" show "$RESHUFFLE:private/state.sealed" >"$TRASH/sealed"
	"$PY" - "$SEED_G" "$_seq" "$1" "$TRASH/sealed" "$TRASH/forged" <<'EOF' || die "forging $1"
import re, sys
sys.path.insert(0, "tests/verify")
import verify_shuffles as v
seed, seq, mode = bytes.fromhex(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
text = v.unseal(seed, seq, open(sys.argv[4], "rb").read())
def swap(m):
    cards = m.group(2).split(", ")
    cards[0], cards[1] = cards[1], cards[0]
    return m.group(1) + ", ".join(cards) + "]"
if mode == "deck":
    new = re.sub(r"(?m)^(deck: \[)([^]]*)\]", swap, text)
elif mode == "list":
    i = text.rindex("    list: [") + len("    list: [")
    j = text.index("]", i)
    cards = text[i:j].split(", ")
    cards[0], cards[1] = cards[1], cards[0]
    new = text[:i] + ", ".join(cards) + text[j:]
elif mode == "record":
    new = text.split("shuffles:\n")[0]
assert new != text, mode
open(sys.argv[5], "wb").write(v.seal(seed, seq, new.encode()))
EOF
	git -C "$_f" checkout -q "$RESHUFFLE" 2>/dev/null || die "checkout"
	cp "$TRASH/forged" "$_f/private/state.sealed"
	git -C "$_f" commit -q --amend -a -m "forged" || die "amend"
	git -C "$_f" checkout -q main -- game.yaml log.txt || die "reveal files"
	git -C "$_f" commit -q -a -m "reveal (forged history)" || die "reveal commit"
	git -C "$_f" branch -q -f forged HEAD
	echo "$_f"
}

F=$(forge deck)
expect_exit 1 "$PY" "$V" "$F" --rev forged
expect_grep "a changed deck order is named" "^mismatch: commit [0-9a-f]* (order [0-9]*): the deck is not what is left of the shuffled deck" "$TRASH/out"
F=$(forge list)
expect_exit 1 "$PY" "$V" "$F" --rev forged
expect_grep "a changed shuffled list is named" "^mismatch: commit [0-9a-f]* (order [0-9]*): \(shuffle from draw [0-9]*\|the deck is not\)" "$TRASH/out"
F=$(forge record)
expect_exit 1 "$PY" "$V" "$F" --rev forged
expect_grep "a shuffle left out of the private state is named" "^mismatch: commit [0-9a-f]* (order [0-9]*): the log's shuffles from draws \[[0-9]*\] are not the ones its private state records (none)" "$TRASH/out"

# A game whose seed is not revealed cannot be opened: said, not passed.
U=$TRASH/unrevealed
new_game "$U"
expect_exit 1 "$PY" "$V" "$U"
expect_fixed "an unrevealed game is not verified" "is not revealed" "$TRASH/out"

test_done
