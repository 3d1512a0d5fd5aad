#!/bin/sh
#
# Issue 28, items 1 and 2: no reply shows a draw before it counts. The
# British set-up order is the last before the first shuffle and deal, so
# it is where a player could grind the deal: a valid set-up followed by a
# bad line, sent by mail, must get the same rejection whatever the seed
# (the deal is not run for display), and `check` of the valid set-up must
# print the same. `words` written after the set-up lines (the natural
# place) is taken before the shuffle. The differential test of
# `selfplay --oracle` covers every other position; this one runs the real
# mail path.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# the American's set-up, one placement an order (the same in every game:
# nothing is drawn yet)
american_setup() {
	_k=0
	while [ "$(prompt_side "$1")" = american ] && [ $_k -lt 20 ]; do
		postrider options "$1" --plain >"$TRASH/opts" || die "options"
		sed -n 2p "$TRASH/opts" >"$TRASH/am-order"
		postrider play "$1" --as american "$TRASH/am-order" >/dev/null 2>"$TRASH/err" ||
			die "the American's set-up: $(cat "$TRASH/err")"
		_k=$((_k + 1))
	done
}

# the British's set-up: For The King without a placement
postrider_setup_order() {
	echo done
}

# normalize GAME: a rejection's text with the game's id and tokens blanked
normalize() {
	sed -e "s/$(sed -n 's/^id: //p' "$1/game.yaml")/GAME/g" \
	    -e 's/[a-z0-9]\{4\}-[a-z0-9]\{4\}-[a-z0-9]\{4\}/TOKEN/g'
}

n=0
for seed in $SEED \
	1111111111111111111111111111111111111111111111111111111111111111 \
	2222222222222222222222222222222222222222222222222222222222222222 \
	3333333333333333333333333333333333333333333333333333333333333333 \
	4444444444444444444444444444444444444444444444444444444444444444 \
	5555555555555555555555555555555555555555555555555555555555555555; do
	n=$((n + 1))
	G=$TRASH/g$n
	postrider new "$G" --american "$AMERICAN" --british "$BRITISH" --host "$HOST" \
		--seed "$seed" >/dev/null 2>&1 || die "new $n"
	american_setup "$G"
	[ "$(prompt_side "$G")" = british ] || die "the British sets up second"
	postrider_setup_order "$G" >"$TRASH/br-order"
	printf 'place Atlantis\n' >>"$TRASH/br-order"
	report=$(report_for "$G" british)
	reply_mail "$report" "$BRITISH" "$(cat "$TRASH/br-order")" >"$TRASH/reply$n.eml"
	outbox_list "$G" >"$TRASH/before$n"
	snapshot "$G" s$n
	expect_exit 1 postrider play "$G" "$TRASH/reply$n.eml"
	expect_unchanged "seed $n: a rejected set-up changes nothing" "$G" s$n
	normalize "$G" <"$TRASH/err" >"$TRASH/err$n"
	added=$(outbox_added "$G" "$TRASH/before$n")
	[ -n "$added" ] || die "seed $n: no rejection mailed"
	mail_part "$(outbox "$G")/new/$added" text/plain | normalize "$G" >"$TRASH/rejection$n"
	# check of the valid set-up: it shows nothing past the first shuffle
	postrider_setup_order "$G" >"$TRASH/br-valid"
	postrider check "$G" --as british "$TRASH/br-valid" >"$TRASH/check$n" 2>&1 ||
		die "check of the British set-up"
	normalize "$G" <"$TRASH/check$n" >"$TRASH/check$n.n"
done

expect_grep "the rejection names the bad line" "^line 2, column 7: unknown space 'Atlantis'" \
	"$TRASH/rejection1"
expect_grep "and says the set-up reaches the deal" \
	"^(line 1 reaches the dice, a card or the other side's decision" "$TRASH/rejection1"
expect_no_grep "it does not show the prompt after the deal" "^now:" "$TRASH/rejection1"
expect_grep "check stops at the shuffle" "what follows depends on it)" "$TRASH/check1.n"
for k in 2 3 4 5 6; do
	expect_file_eq "seed $k: the same rejection mail as seed 1" "$TRASH/rejection1" "$TRASH/rejection$k"
	expect_file_eq "seed $k: the same message on stderr as seed 1" "$TRASH/err1" "$TRASH/err$k"
	expect_file_eq "seed $k: the same check as seed 1" "$TRASH/check1.n" "$TRASH/check$k.n"
done

# --- item 2: words after the set-up lines feed the first shuffle ---
A=$TRASH/plain
B=$TRASH/words
new_game "$A"
new_game "$B"
american_setup "$A"
american_setup "$B"
postrider_setup_order "$A" >"$TRASH/plain-order"
{ postrider_setup_order "$B"; echo "words God save the King, 1775"; } >"$TRASH/words-order"
expect_exit 0 postrider play "$A" --as british "$TRASH/plain-order"
expect_exit 0 postrider play "$B" --as british "$TRASH/words-order"
expect_grep "words after the set-up are mixed in" \
	"^words mixed: american - british [0-9a-f]\{64\}$" "$B/log.txt"
expect_eq "before the first shuffle" "words mixed" \
	"$(grep -m1 -o '^words mixed\|^draws [0-9]*-[0-9]*: shuffle' "$B/log.txt")"
postrider show "$A" --as british >"$TRASH/hand-a"
postrider show "$B" --as british >"$TRASH/hand-b"
expect_ne "and the deal is another" \
	"$(grep -A1 '^The British hand' "$TRASH/hand-a")" \
	"$(grep -A1 '^The British hand' "$TRASH/hand-b")"
expect_exit 4 postrider audit "$B"
expect_grep "the audit replays words taken first" "^verified: " "$TRASH/out"

test_done
