#!/bin/sh
#
# ECVRF-P256-SHA256-TAI (docs/fairness.md section 17): the C code and the
# independent Python verifier agree with RFC 9381 and with each other.
#
# - tests/verify/verify_vrf.py --vectors reproduces RFC 9381's three
#   examples of appendix B.1, with the values on the way (H, k, U, V), and
#   the vector of section 17.8, which docs/fairness.md shows as written;
# - the twenty cases pasted into tests/unit/test_vrf.c are recomputed by
#   the Python now, and the C unit test passes on the same constants;
# - the verifier's command line: prove gives the RFC's proof, verify takes
#   it (exit 0, beta), and refuses it with one byte of Gamma, c or s, of
#   alpha or of the key changed (exit 1, "invalid"); bad arguments exit 2.
#
# Needs $BUILD/tests/test_vrf (`make units`), or TEST_VRF naming it.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

VERIFY=tests/verify/verify_vrf.py
TEST_VRF=${TEST_VRF:-$BUILD_DIR/tests/test_vrf}
DOC=docs/fairness.md

# RFC 9381 appendix B.1, example 1 (alpha = "sample").
SK=c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721
PK=0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6
ALPHA=73616d706c65
GAMMA=035b5c726e8c0e2c488a107c600578ee75cb702343c153cb1eb8dec77f4b5071b4
C=a53f0a46f018bc2c56e58d383f2305e0
S=975972c26feea0eb122fe7893c15af376b33edf7de17c6ea056d4d82de6bc02f
PI=$GAMMA$C$S
BETA=a3ad7b0ef73d8fc6655053ea22f9bede8c743f08bbed3d38821f0e16474b505e

# --- the vectors ------------------------------------------------------------

expect_exit 0 "$PY" "$VERIFY" --vectors
expect_grep "the Python reproduces RFC 9381's three examples and 17.8's vector" \
	'^ok: 3 vectors, and the vectors of docs/fairness.md 17.8, 19.5 and 19b.5$' "$TRASH/out"

# 17.8's vector in the document is the one the Python checks (the hex of
# the proof is split over three lines there).
"$PY" - "$VERIFY" >"$TRASH/doc-vector" <<'EOF' || fail "reading DOC_VECTOR"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("verify_vrf", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
t = v.DOC_VECTOR
print(t["sk"]); print(t["pk"])
print(t["pi"][:66]); print(t["pi"][66:130]); print(t["pi"][130:])
print(t["beta"])
EOF
while read -r hex; do
	expect_fixed "docs/fairness.md 17.8 shows ${hex%"${hex#????????????}"}..." "$hex" "$DOC"
done <"$TRASH/doc-vector"
expect_eq "six pieces of 17.8's vector were looked for" 6 "$(wc -l <"$TRASH/doc-vector")"
# and 19.5's (version 3) as well
"$PY" - "$VERIFY" >"$TRASH/doc-vector3" <<'EOF' || fail "reading DOC_VECTOR3"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("verify_vrf", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
t = v.DOC_VECTOR3
print(t["pi"][:66]); print(t["pi"][66:132]); print(t["pi"][132:])
print(t["beta"])
print("are %s, %s and %s;" % tuple(t["dice"]))
print("are %s, %s and %s." % tuple(t["new_game_dice"]))
EOF
while read -r text; do
	expect_fixed "docs/fairness.md 19.5 shows ${text%"${text#????????????}"}..." "$text" "$DOC"
done <"$TRASH/doc-vector3"
expect_eq "six pieces of 19.5's vector were looked for" 6 "$(wc -l <"$TRASH/doc-vector3")"

# --- the C and the Python on the same twenty cases ----------------------------

[ -x "$TEST_VRF" ] || die "no $TEST_VRF: run make units first"
"$PY" - "$VERIFY" tests/unit/test_vrf.c >"$TRASH/table" 2>&1 <<'EOF'
import hashlib, importlib.util, re, sys
spec = importlib.util.spec_from_file_location("verify_vrf", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
src = open(sys.argv[2]).read()
table = src[src.index("} python[] = {"):]
table = table[:table.index("};")]
rows = re.findall(r"\{((?:\s*\"[0-9a-f]+\",?)+)\s*\}", table)
bad = 0
for i, row in enumerate(rows):
    parts = re.findall(r"\"([0-9a-f]+)\"(,?)", row)
    # adjacent C strings concatenate; a comma ends a field
    fields, cur = [], ""
    for hexs, comma in parts:
        cur += hexs
        if comma:
            fields.append(cur)
            cur = ""
    if cur:
        fields.append(cur)
    raw = hashlib.sha256(b"postrider-vrf-test" + bytes([i])).digest()
    sk = ((int.from_bytes(raw, "big") % (v.Q - 1)) + 1).to_bytes(32, "big")
    alpha = ("alpha %d" % i).encode()
    pi, beta = v.prove(sk, alpha)
    want = [v.public_key(sk).hex(), pi.hex(), beta.hex()]
    if fields != want or v.verify(bytes.fromhex(want[0]), pi, alpha) != beta:
        print("case %d: test_vrf.c has %s, the Python gives %s" % (i, fields, want))
        bad += 1
print("%d cases, %d differ" % (len(rows), bad))
EOF
expect_grep "the Python recomputes test_vrf.c's twenty cases alike" '^20 cases, 0 differ$' "$TRASH/table"
expect_exit 0 "$TEST_VRF"
expect_grep "and the C passes on the same constants" '^\[       OK \] test_python_cases' "$TRASH/out"
expect_grep "the C passes RFC 9381's examples" '^\[       OK \] test_rfc_vectors' "$TRASH/out"

# --- the command line -----------------------------------------------------------

expect_exit 0 "$PY" "$VERIFY" prove "$SK" "$ALPHA"
expect_eq "prove prints the RFC's pi and beta" "$PI $BETA" "$(cat "$TRASH/out")"
expect_exit 0 "$PY" "$VERIFY" verify "$PK" "$ALPHA" "$PI"
expect_eq "verify prints beta" "$BETA" "$(cat "$TRASH/out")"

# flip HEX AT: HEX with the byte at offset AT (from 0) xor 01
flip() {
	_at=$((2 * $2))
	_pre=
	[ "$_at" -gt 0 ] && _pre=$(printf '%s' "$1" | cut -c "1-$_at")
	_byte=$(printf '%s' "$1" | cut -c "$((_at + 1))-$((_at + 2))")
	_post=$(printf '%s' "$1" | cut -c "$((_at + 3))-")
	printf '%s%02x%s' "$_pre" "$((0x$_byte ^ 1))" "$_post"
}

# refused WHAT PK ALPHA PI: verify says "invalid" and exits 1
refused() {
	expect_exit 1 "$PY" "$VERIFY" verify "$2" "$3" "$4"
	expect_eq "$1 is refused" invalid "$(cat "$TRASH/out")"
}
refused "a proof with Gamma's last byte changed" "$PK" "$ALPHA" "$(flip "$PI" 32)"
refused "a proof with Gamma's prefix changed (-Gamma)" "$PK" "$ALPHA" "$(flip "$PI" 0)"
refused "a proof with a byte of c changed" "$PK" "$ALPHA" "$(flip "$PI" 40)"
refused "a proof with a byte of s changed" "$PK" "$ALPHA" "$(flip "$PI" 80)"
refused "the proof for a changed alpha" "$PK" "$(flip "$ALPHA" 5)" "$PI"
refused "the proof under a changed key" "$(flip "$PK" 20)" "$ALPHA" "$PI"
refused "the proof under -Y" "$(flip "$PK" 0)" "$ALPHA" "$PI"
refused "an all-zero proof" "$PK" "$ALPHA" "$(printf '%0162d' 0)"
refused "a proof one byte short" "$PK" "$ALPHA" "$(printf '%s' "$PI" | cut -c 3-)"
# s = q: not below the order
refused "a proof with s = q" "$PK" "$ALPHA" \
	"$GAMMA${C}ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
# x = 1 has no point on P-256
refused "a key not on the curve" \
	020000000000000000000000000000000000000000000000000000000000000001 "$ALPHA" "$PI"

expect_exit 2 "$PY" "$VERIFY" verify "$PK" "$ALPHA" "${PI}x"
expect_grep "hex that is not hex is a usage error" 'must be hex' "$TRASH/err"
expect_exit 2 "$PY" "$VERIFY" prove "$(printf '%064d' 0)" "$ALPHA"
expect_grep "a secret key of zero is refused" 'out of range' "$TRASH/err"
expect_exit 2 "$PY" "$VERIFY" prove "$SK"
expect_exit 2 "$PY" "$VERIFY" verify "$PK" "$ALPHA"

test_done
