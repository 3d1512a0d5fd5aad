#!/bin/sh
#
# Issue 12.7: the players' words close seed grinding at `new`. Each side
# may send `words ANY TEXT` before the first draw; their SHA-256 hashes are
# mixed into the key of the random stream (docs/fairness.md 6.8), so the
# first shuffle depends on text the host did not know when he committed
# to the seed. Two games with one seed and different words deal different
# hands; the audit replays the mixed stream, and so does the independent
# verifier from the log alone.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# play_setup DIR AMERICAN-WORDS BRITISH-WORDS: the set-up decisions by the
# first legal orders, each side's words in its first order (none if "").
play_setup() {
	_said_a=$2 _said_b=$3 _n=0
	while [ "$(state_field "$1" draws)" = 0 ] && [ $_n -lt 40 ]; do
		postrider options "$1" --plain >"$TRASH/opts" || die "options"
		_side=$(head -n 1 "$TRASH/opts")
		: >"$TRASH/order"
		if [ "$_side" = american ] && [ -n "$_said_a" ]; then
			echo "words $_said_a" >>"$TRASH/order"
			_said_a=
		elif [ "$_side" = british ] && [ -n "$_said_b" ]; then
			echo "words $_said_b" >>"$TRASH/order"
			_said_b=
		fi
		sed -n 2p "$TRASH/opts" >>"$TRASH/order"
		postrider play "$1" --as "$_side" "$TRASH/order" >/dev/null 2>"$TRASH/err" ||
			die "order $_n: $(cat "$TRASH/err")"
		_n=$((_n + 1))
	done
}

A=$TRASH/plain
B=$TRASH/words
new_game "$A"
new_game "$B"
play_setup "$A" "" ""
play_setup "$B" "the tea is in the harbour" "God save the King, 1775"
expect_eq "both games reached the first shuffle" "yes yes" \
	"$([ "$(state_field "$A" draws)" != 0 ] && echo yes) $([ "$(state_field "$B" draws)" != 0 ] && echo yes)"
expect_grep "the words' hashes are in the public state" \
	"^words: {american: [0-9a-f]\{64\}, british: [0-9a-f]\{64\}}" "$B/state.yaml"
expect_grep "the log says the words were mixed in" \
	"^words mixed: american [0-9a-f]\{64\} british [0-9a-f]\{64\}$" "$B/log.txt"
postrider show "$A" --as british >"$TRASH/hand-a"
postrider show "$B" --as british >"$TRASH/hand-b"
expect_ne "the same seed with words deals another hand" \
	"$(grep -A1 '^The British hand' "$TRASH/hand-a")" \
	"$(grep -A1 '^The British hand' "$TRASH/hand-b")"

# the audit replays the mixed stream (exit 4: the seed was given)
expect_exit 4 postrider audit "$B"
expect_grep "the audit verifies a game with words" "^verified: " "$TRASH/out"
# the independent verifier re-derives every draw from the log
expect_exit 0 /usr/bin/python3 tests/verify/verify_draws.py "$SEED" "$B/log.txt" --vrf4 "$(sed -n 's/^id: //p' "$B/game.yaml")"
expect_grep "the Python verifier follows the words" '^verified: [1-9][0-9]* draws' "$TRASH/out"
# too late, twice, empty
printf 'words too late\n' >"$TRASH/late"
expect_exit 1 postrider play "$B" --as american "$TRASH/late"
expect_fixed "words after the first draw are refused" "too late for words" "$TRASH/err"
C=$TRASH/twice
new_game "$C"
printf 'words one\nwords two\n' >"$TRASH/twice-order"
expect_exit 1 postrider play "$C" --as american "$TRASH/twice-order"
expect_fixed "words twice are refused" "mixed in already" "$TRASH/err"
printf 'words\n' >"$TRASH/empty-words"
expect_exit 1 postrider play "$C" --as american "$TRASH/empty-words"
expect_fixed "empty words are refused" "must follow 'words'" "$TRASH/err"
printf 'words from the side not to move\n' >"$TRASH/other"
expect_exit 0 postrider play "$C" --as british "$TRASH/other"

test_done
