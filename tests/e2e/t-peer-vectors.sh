#!/bin/sh
#
# The cryptography of a game without a host (docs/peer.md sections 2 to 5):
# the C (src/peer-crypto.c) and the independent Python
# (tests/verify/verify_peer.py, written from the document) agree with each
# other and with the document.
#
# - the vector block printed by `test_peer_crypto --vectors` is the one
#   verify_peer.py --vectors prints (every value computed by each, every
#   proof proved by each, byte for byte) and the one docs/peer.md section
#   16 shows; the Python also checks its own proofs and refuses them
#   tampered with (it exits 1 if a check fails);
# - the Python verifies a shuffle of the whole deck made by the C, and
#   refuses it with one output, one byte of the proof, or the context
#   changed; it verifies an unmasking share of the vectors and refuses it
#   for another card.
#
# Needs $BUILD/tests/test_peer_crypto (`make units`), or TEST_PEER naming it.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

VERIFY=tests/verify/verify_peer.py
TEST_PEER=${TEST_PEER:-$BUILD_DIR/tests/test_peer_crypto}
DOC=docs/peer.md

[ -x "$TEST_PEER" ] || die "no $TEST_PEER: run make units first"

# --- the vectors ----------------------------------------------------------------

expect_exit 0 "$TEST_PEER" --vectors
cp "$TRASH/out" "$TRASH/c-vectors"
expect_exit 0 "$PY" "$VERIFY" --vectors
cp "$TRASH/out" "$TRASH/py-vectors"
expect_file_eq "the C and the Python print the same vectors" \
	"$TRASH/py-vectors" "$TRASH/c-vectors"
sed -n '/^<!-- peer vectors begin -->$/,/^<!-- peer vectors end -->$/p' "$DOC" |
	sed '1d;$d' | grep -v '^```' >"$TRASH/doc-vectors"
expect_file_eq "docs/peer.md section 16 shows those vectors" \
	"$TRASH/py-vectors" "$TRASH/doc-vectors"
expect_eq "the block has its 36 lines" 36 "$(wc -l <"$TRASH/doc-vectors")"

# --- a shuffle of the whole deck, made by the C, checked by the Python ---------

mkdir "$TRASH/s"
expect_exit 0 "$TEST_PEER" --shuffle-files "$TRASH/s"
Y=$(cat "$TRASH/s/y")
CTX="ww-test shuffle 2 1 american"
expect_eq "110 masked cards in, 110 out" "110 110" \
	"$(wc -l <"$TRASH/s/in" | tr -d ' ') $(wc -l <"$TRASH/s/out" | tr -d ' ')"
expect_exit 0 "$PY" "$VERIFY" shuffle "$CTX" "$Y" "$TRASH/s/in" "$TRASH/s/out" "$TRASH/s/proof"
expect_eq "the Python verifies the C's shuffle of 110 cards" valid "$(cat "$TRASH/out")"

# refused WHAT CTX IN OUT PROOF
refused() {
	expect_exit 1 "$PY" "$VERIFY" shuffle "$2" "$Y" "$3" "$4" "$5"
	expect_eq "$1 is refused" invalid "$(cat "$TRASH/out")"
}
# two outputs swapped
awk 'NR == 1 { first = $0; next } NR == 2 { print; print first; next } { print }' \
	"$TRASH/s/out" >"$TRASH/s/swapped"
expect_eq "the swapped list has the first two outputs swapped" \
	"$(sed -n 2p "$TRASH/s/out")" "$(sed -n 1p "$TRASH/s/swapped")"
refused "the shuffle with two outputs swapped" "$CTX" "$TRASH/s/in" "$TRASH/s/swapped" "$TRASH/s/proof"
# an output replaced by another input (a card twice)
{ sed -n '1p' "$TRASH/s/in"; sed -n '2,$p' "$TRASH/s/out"; } >"$TRASH/s/twice"
refused "the shuffle with an output replaced by an input card" "$CTX" "$TRASH/s/in" "$TRASH/s/twice" "$TRASH/s/proof"
# one hex digit of the proof changed (the first response scalar's last)
awk 'NR == 200 { c = substr($0, 60, 1); $0 = substr($0, 1, 59) (c == "0" ? "1" : "0") } { print }' \
	"$TRASH/s/proof" >"$TRASH/s/proof2"
expect_ne "the tampered proof differs" "$(cat "$TRASH/s/proof")" "$(cat "$TRASH/s/proof2")"
refused "the shuffle with one digit of its proof changed" "$CTX" "$TRASH/s/in" "$TRASH/s/out" "$TRASH/s/proof2"
refused "the shuffle under another context (the British's turn)" \
	"ww-test shuffle 2 1 british" "$TRASH/s/in" "$TRASH/s/out" "$TRASH/s/proof"

# --- an unmasking share of the vectors -------------------------------------------

field() { sed -n "s/^$1 //p" "$TRASH/py-vectors"; }
KEY=$(field "american mask_key")
SHARE=$(field "share s1.0 american")
# s1.0 is the first output of shuffle 1 2, whose outputs the block gives
# only as a hash: recompute the masked card with the Python
"$PY" - "$VERIFY" >"$TRASH/ct" <<'EOF' || fail "recomputing s1.0"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("verify_peer", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
am, br = v.keys(bytes(range(32))), v.keys(bytes(range(32, 64)))
y = v.joint_key(am["mask_key"], br["mask_key"])
deck = [v.open_card(y, c) for c in range(1, 6)]
ctx1, ctx2 = b"ww-test shuffle 1 1 american", b"ww-test shuffle 1 2 british"
out1, _ = v.shuffle_prove(am, ctx1, y, deck, *v.shuffle_secrets(am, ctx1, y, deck))
out2, _ = v.shuffle_prove(br, ctx2, y, out1, *v.shuffle_secrets(br, ctx2, y, out1))
print(out2[0].hex())
print(out2[1].hex())
EOF
CT0=$(sed -n 1p "$TRASH/ct")
CT1=$(sed -n 2p "$TRASH/ct")
expect_exit 0 "$PY" "$VERIFY" share "ww-test share s1.0 american" "$KEY" "$CT0" "$SHARE"
expect_eq "the Python verifies the vectors' share" valid "$(cat "$TRASH/out")"
expect_exit 1 "$PY" "$VERIFY" share "ww-test share s1.0 american" "$KEY" "$CT1" "$SHARE"
expect_eq "the same share for another card is refused" invalid "$(cat "$TRASH/out")"
expect_exit 1 "$PY" "$VERIFY" share "ww-test share s1.1 american" "$KEY" "$CT0" "$SHARE"
expect_eq "the same share for another slot is refused" invalid "$(cat "$TRASH/out")"

expect_exit 2 "$PY" "$VERIFY" share "ctx" "zz" "$CT0" "$SHARE"
expect_exit 2 "$PY" "$VERIFY" shuffle

test_done
