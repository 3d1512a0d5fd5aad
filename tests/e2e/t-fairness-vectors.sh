#!/bin/sh
#
# The fairness specification, its C implementation and the independent
# Python verifier agree: the test vectors printed by the C unit test
# binaries and by tests/verify/verify_draws.py are the ones written in
# docs/fairness.md, and the verifier accepts a log drawn by the C stream
# and rejects it once tampered with.
#
# Needs the unit test binaries: $BUILD/tests/test_fair and test_rng
# (BUILD defaults to build; `make units` builds them), or TEST_FAIR and
# TEST_RNG naming them.

cd "$(dirname "$0")/../.." || exit 1

BUILD=${BUILD:-build}
TEST_FAIR=${TEST_FAIR:-$BUILD/tests/test_fair}
TEST_RNG=${TEST_RNG:-$BUILD/tests/test_rng}
PY=/usr/bin/python3
VERIFY=tests/verify/verify_draws.py
DOC=docs/fairness.md
SEED=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-fairness.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
}

# check DESCRIPTION EXPECTED-FILE ACTUAL-FILE
check() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff -u "$2" "$3" | sed 's/^/#   /'
	fi
}

# block BEGIN-MARKER END-MARKER: the lines between the markers in the
# document, without the code fence.
block() {
	sed -n "/^<!-- $1 -->\$/,/^<!-- $2 -->\$/p" "$DOC" |
		sed '1d;$d' | grep -v '^```'
}

# verify_expect DESCRIPTION EXPECTED-STATUS EXPECTED-OUTPUT-PATTERN ARGS...
verify_expect() {
	desc=$1 want_status=$2 pattern=$3
	shift 3
	"$PY" "$VERIFY" "$@" >"$tmp/out" 2>&1
	status=$?
	if [ "$status" -eq "$want_status" ] && grep -q -- "$pattern" "$tmp/out"
	then
		ok "$desc"
	else
		not_ok "$desc (status $status, wanted $want_status)"
		sed 's/^/#   /' "$tmp/out"
	fi
}

block "vectors begin" "vectors end" >"$tmp/doc.vec"
block "seal vector begin" "seal vector end" >"$tmp/doc.seal"
if [ "$(wc -l <"$tmp/doc.vec")" -ge 10 ] && [ -s "$tmp/doc.seal" ]; then
	ok "docs/fairness.md holds the vector blocks"
else
	not_ok "docs/fairness.md holds the vector blocks"
fi

if "$PY" "$VERIFY" --vectors >"$tmp/py.vec"; then
	check "python vectors match docs/fairness.md" "$tmp/doc.vec" "$tmp/py.vec"
else
	not_ok "verify_draws.py --vectors runs"
fi

for bin in "$TEST_FAIR" "$TEST_RNG"; do
	if [ ! -x "$bin" ]; then
		not_ok "unit test binary $bin exists (run make units)"
	fi
done

if [ -x "$TEST_FAIR" ]; then
	"$TEST_FAIR" --vectors >"$tmp/c.vec"
	check "C vectors match docs/fairness.md" "$tmp/doc.vec" "$tmp/c.vec"
	"$TEST_FAIR" --seal-vector >"$tmp/c.seal"
	check "C seal vector matches docs/fairness.md" "$tmp/doc.seal" "$tmp/c.seal"
fi

if [ -x "$TEST_RNG" ]; then
	"$TEST_RNG" --log >"$tmp/log"
	verify_expect "a C log with a forced die is not fair" 1 \
		"draw 142 is a forced die" "$SEED" "$tmp/log"
	verify_expect "a C log verifies with --allow-forced" 0 \
		"^verified: 144 draws (1 forced dice" \
		"$SEED" "$tmp/log" --allow-forced

	sed '/ forced, /,$d' "$tmp/log" >"$tmp/fair.log"
	verify_expect "a fair log verifies" 0 "^verified: 142 draws\$" \
		"$SEED" "$tmp/fair.log"
	{
		echo "1776 British impulse 3: some prose"
		sed 's/^/    /' "$tmp/fair.log"
		echo "end of log"
	} >"$tmp/prose.log"
	verify_expect "other lines are ignored, indented draws read" 0 \
		"^verified: 142 draws\$" "$SEED" "$tmp/prose.log"
	verify_expect "the commitment is checked" 0 "^verified: 142 draws\$" \
		"$SEED" "$tmp/fair.log" --commitment \
		3acbd4747869c0b5e48a0c0556c1f5b0525930d9c2f057a193476beca37ecf72
	verify_expect "a wrong commitment fails" 1 "does not match" \
		"$SEED" "$tmp/fair.log" --commitment \
		3acbd4747869c0b5e48a0c0556c1f5b0525930d9c2f057a193476beca37ecf73

	# the first die after the deck shuffle is a 6: claim a 5
	sed 's/^draw 109: d6 -> 6$/draw 109: d6 -> 5/' "$tmp/fair.log" \
		>"$tmp/bad.log"
	verify_expect "a changed die is caught" 1 \
		"draw 109: d6 logged 5, the seed gives 6" "$SEED" "$tmp/bad.log"
	sed 's/^\(draw 139: uniform(7) -> \)1/\12/' "$tmp/fair.log" >"$tmp/bad.log"
	verify_expect "a changed uniform value is caught" 1 \
		"draw 139: uniform(7) logged 2" "$SEED" "$tmp/bad.log"
	sed '/^draw 120:/d' "$tmp/fair.log" >"$tmp/bad.log"
	verify_expect "a gap is caught" 1 "draw 121, expected draw 120 (a gap)" \
		"$SEED" "$tmp/bad.log"
	sed '/^draw 120:/p' "$tmp/fair.log" >"$tmp/bad.log"
	verify_expect "a repeat is caught" 1 \
		"draw 120, expected draw 121 (a repeat)" "$SEED" "$tmp/bad.log"
	sed 's/^draws 0-108: shuffle of 110/draws 0-107: shuffle of 110/' \
		"$tmp/fair.log" >"$tmp/bad.log"
	verify_expect "a short shuffle range is caught" 1 \
		"a shuffle of 110 uses 109 draws" "$SEED" "$tmp/bad.log"
	sed 's/^draw 110: d6 -> 6/draw 110: d6 => 6/' "$tmp/fair.log" \
		>"$tmp/bad.log"
	verify_expect "a malformed draw line is caught" 1 \
		"malformed draw line" "$SEED" "$tmp/bad.log"
	verify_expect "a draw log for another start is caught" 1 \
		"draws 0-108, expected draw 5" "$SEED" "$tmp/fair.log" --start 5
	verify_expect "another seed fails" 1 "mismatch" \
		100102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
		"$tmp/fair.log"
	verify_expect "a malformed seed is a usage error" 2 "usage" \
		0001 "$tmp/fair.log"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
