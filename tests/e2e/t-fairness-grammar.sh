#!/bin/sh
#
# The strict grammar of proofs.txt and of the log's draw lines
# (docs/fairness.md section 20; issue 28, item 10): lower-case hex only, no
# leading zero in a decimal number, LF alone at the end of a line, the
# last line included. A game of version 4 is played up to its first die;
# then its last commit is rewritten with one such fault at a time, and
# `postrider audit` (without the seed), verify_vrf.py and, for the log,
# verify_draws.py with the seed must all refuse it, where before they
# disagreed (the C reader took upper-case hex, the Python verifier a
# leading zero and a CR).

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

VRF=tests/verify/verify_vrf.py
DRAWS=tests/verify/verify_draws.py

G=$TRASH/game
new_game "$G"
printf 'words to be mixed in\n' >"$TRASH/words"
expect_exit 0 postrider play "$G" --as american "$TRASH/words"
play_moves_until "$G" "draw " 100
git -C "$G" diff HEAD~1 HEAD -- proofs.txt | grep -q '^+[0-9]' || die "no die in $PLAYED orders"
id=$(sed -n 's/^id: //p' "$G/game.yaml")

# The game as played passes all three.
git clone -q "$G" "$TRASH/clean"
expect_exit 4 postrider audit "$TRASH/clean"
expect_grep "the game as played passes the audit" '^verified [1-9][0-9]* di' "$TRASH/out"
expect_exit 0 "$PY" "$VRF" game "$TRASH/clean"
expect_exit 0 "$PY" "$DRAWS" "$SEED" "$G/log.txt" --vrf4 "$id"

# fault NAME FILE PROGRAM: a clone whose last commit has FILE rewritten by
# the shell PROGRAM (a filter from standard input to standard output)
fault() {
	_d=$TRASH/$1
	git clone -q "$G" "$_d" || die "clone"
	git -C "$_d" show "HEAD:$2" | sh -c "$3" >"$TRASH/faulty"
	cmp -s "$_d/$2" "$TRASH/faulty" && die "fault $1 changed nothing"
	cp "$TRASH/faulty" "$_d/$2"
	git -C "$_d" commit -q -a --amend -C HEAD || die "amend $1"
}

# refused NAME WHAT PATTERN: the audit and verify_vrf.py refuse clone NAME
refused() {
	expect_exit 1 postrider audit "$TRASH/$1"
	expect_grep "$2: the audit refuses it" "$3" "$TRASH/out"
	expect_exit 1 "$PY" "$VRF" game "$TRASH/$1"
	expect_grep "$2: verify_vrf.py refuses it" '^fails: .*malformed\|^fails: .*newline' "$TRASH/out"
}

# proofs.txt, its last line
fault upper proofs.txt "sed '\$s/ \\(.*\\)/ \\U\\1/'"
refused upper "upper-case hex in proofs.txt" 'proofs.txt: a malformed line'
fault zero proofs.txt "sed '\$s/^/0/'"
refused zero "a leading zero in proofs.txt" 'proofs.txt: a malformed line'
fault cr proofs.txt "sed '\$s/\$/\\r/'"
refused cr "a CR in proofs.txt" 'proofs.txt: a malformed line'
fault nolf proofs.txt "head -c -1"
refused nolf "proofs.txt without its last LF" 'proofs.txt: a malformed line\|has no proof'

# log.txt, its last draw line
last=$(grep -n '^draw ' "$G/log.txt" | tail -n 1 | cut -d: -f1)
fault logzero log.txt "sed '${last}s/^draw /draw 0/'"
refused logzero "a leading zero in a draw line" 'is a malformed draw line'
git -C "$TRASH/logzero" show HEAD:log.txt >"$TRASH/log-zero"
expect_exit 1 "$PY" "$DRAWS" "$SEED" "$TRASH/log-zero" --vrf4 "$id"
expect_grep "a leading zero in a draw line: verify_draws.py refuses it" '^mismatch: .*malformed' "$TRASH/out"
fault logcr log.txt "sed '${last}s/\$/\\r/'"
refused logcr "a CR in a draw line" 'is a malformed draw line'
git -C "$TRASH/logcr" show HEAD:log.txt >"$TRASH/log-cr"
expect_exit 1 "$PY" "$DRAWS" "$SEED" "$TRASH/log-cr" --vrf4 "$id"
expect_grep "a CR in a draw line: verify_draws.py refuses it" '^mismatch: .*malformed' "$TRASH/out"
fault logupper log.txt "sed '${last}s/^draw \\([0-9]*\\): d6/draw \\1: D6/'"
refused logupper "an upper-case kind in a draw line" 'is a malformed draw line'

# the words line (its hashes in upper case), rewritten in every commit
# from the one that added it
git clone -q "$G" "$TRASH/mixupper"
FILTER_BRANCH_SQUELCH_WARNING=1 git -C "$TRASH/mixupper" filter-branch --tree-filter \
	"sed -i 's/^\\(words mixed: american \\)\\([0-9a-f]*\\)/\\1\\U\\2/' log.txt" \
	HEAD >"$TRASH/fb.out" 2>&1 || { cat "$TRASH/fb.out"; die "filter-branch"; }
expect_grep "the words line is in upper case now" '^words mixed: american [0-9A-F]*[A-F]' \
	"$TRASH/mixupper/log.txt"
expect_exit 1 postrider audit "$TRASH/mixupper"
expect_grep "upper-case hex in the words line: the audit refuses it" \
	'is a malformed words line' "$TRASH/out"
expect_exit 1 "$PY" "$VRF" game "$TRASH/mixupper"
expect_grep "upper-case hex in the words line: verify_vrf.py refuses it" \
	'^fails: .*malformed words line' "$TRASH/out"
expect_exit 1 "$PY" "$DRAWS" "$SEED" "$TRASH/mixupper/log.txt" --vrf4 "$id"
expect_grep "upper-case hex in the words line: verify_draws.py refuses it" \
	'^mismatch: .*malformed words line' "$TRASH/out"

test_done
