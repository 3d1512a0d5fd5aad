#!/bin/sh
#
# The game walk of tests/verify/verify_peer.py (docs/peer.md 9.12, issue
# 34): `verify_peer.py game DIR` checks a finished peer game from one
# player's copy. Here on the record of a small game built by
# tests/e2e/peer-record.py with the same Python cryptography and the
# secrets of the vectors (docs/peer.md 16: the C prints the same vectors,
# t-peer-vectors.sh), then on copies of it with one thing changed: one
# byte of a shuffle, of a share, of a die proof, and the other ways a
# record can lie (a key proof, the joint key, a slot, a request, a logged
# die, a card played, a key). Then on the copies of a game made by the peer commands,
# to its first deal.
# Each is refused with its reason, exit 1, and never "valid".
# tests/e2e/t-peer-postfix.sh runs the walk on a whole game played through
# mail.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

V="$PY tests/verify/verify_peer.py"
R=$TRASH/record
"$PY" tests/e2e/peer-record.py "$R" >"$TRASH/record.out" 2>"$TRASH/record.err" ||
	die "peer-record.py builds the record: $(cat "$TRASH/record.err")"

expect_exit 0 $V game "$R"
expect_grep "the record is valid" '^valid$' "$TRASH/out"
expect_grep "... both key proofs and the joint key" \
	'^game ww-test: peer version 1; both key proofs valid, the joint key right$' "$TRASH/out"
expect_grep "... two generations, each shuffled by both" \
	'^generation 2: 8 cards, shuffled by the british then the american: both proofs valid$' "$TRASH/out"
expect_grep "... the shares, two slots opened by both" \
	'^shares: 9, each valid for its side.s key and slot; 2 slots opened by both$' "$TRASH/out"
expect_grep "... the die request, a commit of the history" \
	'^dice: 1 requests, both VRF proofs of each valid and each a commit of the history$' "$TRASH/out"
expect_grep "... the draws of the log, from the request's dice" \
	'^draws: 2 in the log, each the value of its request.s dice; 1 requests drew$' "$TRASH/out"
expect_grep "... the cards played, named by the log" \
	'^cards opened by both shares: 2, each named by the log of the commit that opened it or of the next$' "$TRASH/out"
expect_grep "... every slot opened with the keys" '^keys: .* 20 slots opened' "$TRASH/out"
expect_eq "... nothing on stderr" "" "$(cat "$TRASH/err")"

# the cards the builder put in the slots are the ones the keys open: the
# walk opens them the same way (a slot's card from its two shares)
expect_eq "the builder's generation 1 is a permutation of 1..12" \
	"1 2 3 4 5 6 7 8 9 10 11 12" \
	"$(sed -n 's/^slot s1\.[0-9]* card //p' "$TRASH/record.out" | sort -n | tr '\n' ' ' | sed 's/ $//')"

# a running game (no keys yet) only with --running
mv "$R/peer/keys.txt" "$TRASH/keys.txt"
expect_exit 1 $V game "$R"
expect_grep "no peer/keys.txt: not a finished game" '^invalid: peer/keys.txt: none: the game is not finished' "$TRASH/out"
expect_exit 0 $V game "$R" --running
expect_grep "... with --running: valid, the slots closed" '^keys: not published yet' "$TRASH/out"
mv "$TRASH/keys.txt" "$R/peer/keys.txt"

# tampered COPY WHAT REASON: the copy is refused with REASON, exit 1
n=0
tampered() {
	expect_exit 1 $V game "$1"
	expect_grep "$2: refused with its reason" "^invalid: $3" "$TRASH/out"
	expect_no_grep "$2: never valid" '^valid$' "$TRASH/out"
}
# copy: a fresh copy of the record in $C
copy() {
	n=$((n + 1))
	C=$TRASH/c$n
	cp -a "$R" "$C"
}
# flip FILE LINE COLUMN: one hex digit changed (0 <-> 1, else to 0)
flip() {
	"$PY" - "$@" <<'EOF'
import sys
path, line, col = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path) as f:
    lines = f.read().split("\n")
s = lines[line - 1]
ch = s[col - 1]
lines[line - 1] = s[:col - 1] + {"0": "1", "1": "0"}.get(ch, "0") + s[col:]
with open(path, "w") as f:
    f.write("\n".join(lines))
EOF
}

# one byte of a shuffle: an output, a point of the proof, a scalar of the
# proof, a turn-2 output
copy
flip "$C/peer/shuffles/1-1.txt" 19 60
tampered "$C" "a byte of a turn-1 output" "peer/shuffles/1-1.txt: the shuffle proof does not verify"
copy
proof=$(grep -n '^proof ' "$C/peer/shuffles/1-2.txt" | sed -n 3p | cut -d: -f1)
flip "$C/peer/shuffles/1-2.txt" "$proof" 100
tampered "$C" "a byte of a turn-2 proof" "peer/shuffles/1-2.txt: the shuffle proof does not verify"
copy
flip "$C/peer/shuffles/2-1.txt" "$(grep -c . "$C/peer/shuffles/2-1.txt")" 8
tampered "$C" "a byte of the last proof line" "peer/shuffles/2-1.txt: the shuffle proof does not verify"
# two outputs swapped: the same cards, not the proven order
copy
"$PY" - "$C/peer/shuffles/2-2.txt" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
outs = [i for i, l in enumerate(lines) if l.startswith("out ")]
lines[outs[0]], lines[outs[1]] = lines[outs[1]], lines[outs[0]]
open(sys.argv[1], "w").write("\n".join(lines))
EOF
tampered "$C" "two outputs swapped" "peer/shuffles/2-2.txt: the shuffle proof does not verify"
# the chain of generations: a turn-1 input names another card face up
copy
sed -i 's/^in #1$/in #13/' "$C/peer/shuffles/1-1.txt"
tampered "$C" "a card face up replaced in an input" "peer/shuffles/1-1.txt: the shuffle proof does not verify"
copy
sed -i '0,/^in s1\.6$/s//in s1.7/' "$C/peer/shuffles/2-1.txt"
tampered "$C" "a slot shuffled twice" "peer/shuffles/2-1.txt: in s1.7: the slot was shuffled before"
copy
sed -i 's/^in s1\.6$/in s2.0/' "$C/peer/shuffles/2-1.txt"
tampered "$C" "an input from its own generation" "peer/shuffles/2-1.txt: in s2.0 is no slot of an earlier generation"
copy
rm "$C/peer/shuffles/1-2.txt"
tampered "$C" "a generation without its turn 2" "peer/shuffles: generation 1 has no turn 2"
copy
sed -i 's/^side british$/side american/' "$C/peer/shuffles/1-2.txt"
tampered "$C" "both turns by one side" "peer/shuffles/1-2.txt: turn 2 by the side of turn 1"

# one byte of a share
copy
flip "$C/peer/shares.txt" 2 40
tampered "$C" "a byte of a share" "peer/shares.txt line 2: the british share of s1.2 does not verify"
copy
sed -i '1s/^s1\.0 british/s1.2 british/' "$C/peer/shares.txt"
tampered "$C" "a share moved to another slot" "peer/shares.txt line 1: the british share of s1.2 does not verify"
copy
sed -i '1s/^s1\.0 british/s1.0 american/' "$C/peer/shares.txt"
tampered "$C" "a share given in the other side's name" "peer/shares.txt line 1: the american share of s1.0 does not verify"
copy
sed -n 1p "$C/peer/shares.txt" >>"$C/peer/shares.txt"
tampered "$C" "a share given twice" "peer/shares.txt line 10: a second british share of s1.0"
copy
sed -i '1s/^s1\.0 /s3.0 /' "$C/peer/shares.txt"
tampered "$C" "a share of a slot nobody dealt" "peer/shares.txt line 1: s3.0 is no slot of the record"

# one byte of a die proof, either side's; a proof of another request
copy
flip "$C/peer/dice.txt" 1 100
tampered "$C" "a byte of the American die proof" "peer/dice.txt line 1: the american die proof for request [0-9a-f]* does not verify"
copy
flip "$C/peer/dice.txt" 1 300
tampered "$C" "a byte of the British die proof" "peer/dice.txt line 1: the british die proof for request [0-9a-f]* does not verify"
copy
"$PY" - "$C/peer/dice.txt" <<'EOF'
import sys
f = sys.argv[1]
oid, am, pa, br, pb = open(f).read().split()
open(f, "w").write(" ".join((oid, am, pb, br, pa)) + "\n")
EOF
tampered "$C" "the two die proofs exchanged" "peer/dice.txt line 1: the american die proof for request [0-9a-f]* does not verify"
copy
parent=$(git -C "$C" rev-parse HEAD~3)
sed -i "s/^[0-9a-f]\{40\} /$parent /" "$C/peer/dice.txt"
tampered "$C" "die proofs moved to another commit" "peer/dice.txt line 1: the american die proof for request $parent does not verify"
copy
sed -i 's/^[0-9a-f]\{40\} /0123456789012345678901234567890123456789 /' "$C/peer/dice.txt"
tampered "$C" "a request that is no commit of the history" "peer/dice.txt line 1: request 0123456789012345678901234567890123456789 is no commit of the history"

# a draw the log shows with another value than its request's dice give
# (a later commit rewrites the die), and a forced die
copy
d0=$(sed -n 's/^draw 0 d6 //p' "$TRASH/record.out")
sed -i "s/^draw 0: d6 -> $d0 /draw 0: d6 -> $((d0 % 6 + 1)) /" "$C/log.txt"
git -C "$C" commit -qam "a die changed"
tampered "$C" "a logged die changed" "commit [0-9a-f]* logs draw 0 as $((d0 % 6 + 1)); request [0-9a-f]*'s dice give $d0"
copy
echo "draw 2: d6 -> 3 forced, stream 5 (a die)" >>"$C/log.txt"
git -C "$C" commit -qam "a forced die"
tampered "$C" "a forced die" "commit [0-9a-f]* logs a forced die (draw 2)"

# a card played whose log names another card than its slot opens to: the
# answer commit rewritten (the request before it stays), the end after it
copy
p1=$(sed -n 's/^played \([0-9]*\) .*/\1/p' "$TRASH/record.out")
other=$((p1 % 12 + 1))
end=$(git -C "$C" rev-parse HEAD)
git -C "$C" checkout -q HEAD~1
sed -i "s/^The american plays #$p1\.$/The american plays #$other./" "$C/log.txt"
git -C "$C" commit -q --amend -am "answer 4, another card named"
git -C "$C" cherry-pick "$end" >/dev/null 2>&1 || fail "the end commit after the rewritten answer"
tampered "$C" "the log names another card than the slot played" \
	"commit [0-9a-f]* gives the second share of s1\.0, which opens #$p1, and neither its log nor the next commit's names #$p1"

# the keys
copy
am_proof=$(sed -n 's/^    mask_proof: //p' "$C/game.yaml" | sed -n 1p)
br_proof=$(sed -n 's/^    mask_proof: //p' "$C/game.yaml" | sed -n 2p)
sed -i "s/$br_proof/$am_proof/" "$C/game.yaml"
tampered "$C" "the American key proof given for the British" "game.yaml: the british key proof does not verify"
copy
am_key=$(sed -n 's/^    mask_key: //p' "$C/game.yaml" | sed -n 1p)
sed -i "s/^  joint_key: .*/  joint_key: $am_key/" "$C/game.yaml"
tampered "$C" "a joint key that is not the sum" "game.yaml: joint_key is not the sum of the two masking keys"
copy
flip "$C/peer/keys.txt" 2 70
tampered "$C" "a wrong masking key at the end" "peer/keys.txt: the british key is not the one of his mask_key"
copy
sed -i 2d "$C/peer/keys.txt"
tampered "$C" "one key missing at the end" "peer/keys.txt: british key missing"

# a game made by the peer commands (peer new, peer join, random legal
# orders, tests/e2e/peer_local.py handing the mails over; the secrets and
# the seed fixed): the walk checks the C's keys, shuffles, shares, dice
# and logged draws, and with the keys published at the end every slot.
# Its copies have one tree, so one is walked.
"$PY" - "$TRASH/pg" "$AMERICAN" "$BRITISH" >"$TRASH/pg.out" 2>&1 <<'PY'
import os, random, sys
sys.path.insert(0, "tests/e2e")
import peer_local
pair = peer_local.Pair(sys.argv[1], sys.argv[2], sys.argv[3])
pair.start("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
           "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")
rnd = random.Random(34)
n = 0
while n < 150:
    side = pair.deciding()
    if side == "none":
        break
    rc, out, err = pair.options(side)
    order = rnd.choice(out.splitlines()[1:])
    n += 1
    rc, out, err = pair.play(side, order)
    if rc:
        sys.exit("order %d, %s: %s" % (n, order, err))
print("orders", n, "over" if side == "none" else "not over")
print("heads", pair.head("american") == pair.head("british"))
print("trees", pair.head("american") and
      os.popen("git -C %s rev-parse HEAD^{tree}" % pair.dir["american"]).read() ==
      os.popen("git -C %s rev-parse HEAD^{tree}" % pair.dir["british"]).read())
PY
show_file "$TRASH/pg.out"
expect_grep "the peer commands play a game to its end" '^orders [0-9]* over$' "$TRASH/pg.out"
expect_grep "... one head in both copies" '^heads True$' "$TRASH/pg.out"
expect_grep "... one tree" '^trees True$' "$TRASH/pg.out"
expect_exit 0 $V game "$TRASH/pg/british"
expect_grep "the copy made by postrider: valid" '^valid$' "$TRASH/out"
expect_grep "... its keys and key proofs, made by the C, checked here" \
	'^game ww-[0-9a-f]*: peer version 1; both key proofs valid, the joint key right$' "$TRASH/out"
expect_grep "... the shuffles of the deck" \
	'^generation 1: 108 cards, shuffled by the british then the american: both proofs valid$' "$TRASH/out"
expect_grep "... the shares" '^shares: [1-9][0-9]*, each valid' "$TRASH/out"
expect_grep "... the die requests" '^dice: [1-9][0-9]* requests, both VRF proofs of each valid and each a commit of the history$' "$TRASH/out"
expect_grep "... the draws of the log" '^draws: [1-9][0-9]* in the log, each the value of its request.s dice' "$TRASH/out"
expect_grep "... the cards played, each named by its commit's log" \
	'^cards opened by both shares: [1-9][0-9]*, each named by the log of the commit that opened it or of the next$' "$TRASH/out"
expect_grep "... every slot opened with the keys published at the end" \
	'^keys: both masking keys published and right; [0-9]* slots opened, each generation a permutation of the cards of its input$' "$TRASH/out"
copy_pg() {
	n=$((n + 1))
	C=$TRASH/c$n
	cp -a "$TRASH/pg/british" "$C"
}
copy_pg
line=$(grep -n 'mask_proof' "$C/game.yaml" | sed -n 2p | cut -d: -f1)
flip "$C/game.yaml" "$line" 30
tampered "$C" "postrider's copy with a byte of a key proof changed" "game.yaml: the british key proof does not verify"
copy_pg
line=$(grep -n 'joint_key' "$C/game.yaml" | cut -d: -f1)
flip "$C/game.yaml" "$line" 40
tampered "$C" "postrider's copy with a byte of the joint key changed" "game.yaml: joint_key is not the sum of the two masking keys"
copy_pg
flip "$C/peer/shuffles/1-2.txt" "$(grep -n '^proof ' "$C/peer/shuffles/1-2.txt" | sed -n 20p | cut -d: -f1)" 50
tampered "$C" "postrider's copy with a byte of a shuffle proof changed" "peer/shuffles/1-2.txt: the shuffle proof does not verify"
copy_pg
flip "$C/peer/shares.txt" 5 80
tampered "$C" "postrider's copy with a byte of a share changed" "peer/shares.txt line 5: the [a-z]* share of s1\.[0-9]* does not verify"
copy_pg
flip "$C/peer/dice.txt" 1 150
tampered "$C" "postrider's copy with a byte of a die proof changed" "peer/dice.txt line 1: the american die proof for request [0-9a-f]* does not verify"

test_done
