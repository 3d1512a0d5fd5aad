#!/bin/sh
# t-ended-midmove.sh - a game that ends in the middle of a move (issue 28,
# item 6): the side asked during the opponent's move (an interception, a
# battle card) resigns, or the host abandons the game there. What was in
# progress stops, as at the instant of 13.1; the finished game opens,
# reveals, audits, shows and archives, and a later mail is told the game
# is over (exit 1, rejected: nothing changes).

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# finished NAME DIR WINNER END: the ended game DIR opens, shows, audits,
# reveals (unless revealed), archives, and refuses a later mail
finished() {
	_what=$1 _g=$2
	expect_eq "$_what: the game is over" none "$(sed -n '/^prompt:/,/^[a-z]/s/^  kind: //p' "$_g/state.yaml")"
	expect_no_grep "$_what: no move is left in progress" "^move:" "$_g/state.yaml"
	expect_no_grep "$_what: no battle is left in progress" "^battle:" "$_g/state.yaml"
	expect_no_grep "$_what: no campaign is left in progress" "^campaign:" "$_g/state.yaml"
	expect_eq "$_what: the winner" "$3" "$(sed -n 's/^  winner: //p' "$_g/state.yaml")"
	expect_exit 0 postrider show "$_g" --as american
	expect_fixed "$_what: show tells the end" "The game is over" "$TRASH/out"
	expect_exit 4 postrider audit "$_g"
	expect_grep "$_what: the history audits before the reveal" "^verified: " "$TRASH/out"
	if ! git -C "$_g" log -1 --format=%s | grep -q "seed"; then
		expect_exit 0 postrider reveal "$_g"
		expect_fixed "$_what: the seed is revealed" "revealed the seed" "$TRASH/out"
	fi
	expect_exit 1 postrider reveal "$_g"
	expect_fixed "$_what: a second reveal is refused" "already public" "$TRASH/err"
	expect_exit 4 postrider audit "$_g"
	expect_grep "$_what: the history audits with the seed" "^verified: $(commit_count "$_g") commits" "$TRASH/out"
	expect_exit 0 postrider archive "$_g" "$TRASH/$_what.archive"
	expect_fixed "$_what: the archive says how it ended" "$4" "$TRASH/$_what.archive/result.txt"
	expect_exit 4 postrider audit "$TRASH/$_what.archive/game.bundle"
	# a later mail, with the token of the last report to the British
	_c=$(commit_count "$_g")
	_r=$(report_for "$_g" british) || die "$_what: no report to the British"
	reply_mail "$_r" "$BRITISH" "pass" "<late.$_what@example.org>" >"$TRASH/late.eml"
	expect_exit 1 postrider play "$_g" "$TRASH/late.eml"
	expect_fixed "$_what: a later mail is told the game is over" "the game is over" "$TRASH/err"
	expect_eq "$_what: the later mail changes nothing" "$_c" "$(commit_count "$_g")"
}

# --- at an interception: Howe enters Providence, Greene may intercept (7.8)
I=$TRASH/intercept
new_golden_game "$I"
play_golden_setup "$I" tests/golden/held-interception/setup
expect_eq "the American is asked during the British move" intercept \
	"$(sed -n '/^prompt:/,/^[a-z]/s/^  kind: //p' "$I/state.yaml")"
expect_grep "a British move is in progress" "^move:" "$I/state.yaml"
cp -R "$I" "$TRASH/intercept-copy" || die "copy"

printf 'resign confirm\n' >"$TRASH/resign"
expect_exit 0 postrider play "$I" --as american "$TRASH/resign"
expect_grep "the log says it" "^The American resigns: the British wins the game\\." "$I/log.txt"
finished resign-intercept "$I" british "The British win in 1775 (resignation)"

A=$TRASH/intercept-copy
expect_exit 0 postrider reveal --abandon "$A"
expect_fixed "the abandon is committed" "revealed the seed" "$TRASH/out"
finished abandon-intercept "$A" none "Abandoned in 1775: nobody wins."

# --- at a battle card: the British attacks Lexington with card 80 held, the
# American is asked for his card (9.4); the held card goes to the discards
B=$TRASH/battle
new_golden_game "$B"
play_golden_setup "$B" tests/golden/report-battle-prompt/setup tests/golden/report-battle-prompt/order
expect_eq "the American is asked for a battle card" battle-card \
	"$(sed -n '/^prompt:/,/^[a-z]/s/^  kind: //p' "$B/state.yaml")"
cp -R "$B" "$TRASH/battle-copy" || die "copy"

expect_exit 0 postrider play "$B" --as american "$TRASH/resign"
finished resign-battle "$B" british "The British win in 1775 (resignation)"
postrider show "$B" --as american >"$TRASH/show" 2>&1
expect_fixed "the held card is discarded" "Cards: deck 94, discard 2, removed 0" "$TRASH/show"

C=$TRASH/battle-copy
expect_exit 0 postrider reveal --abandon "$C"
finished abandon-battle "$C" none "Abandoned in 1775: nobody wins."
postrider show "$C" --as american >"$TRASH/show" 2>&1
expect_fixed "the held card is discarded" "Cards: deck 94, discard 2, removed 0" "$TRASH/show"

test_done
