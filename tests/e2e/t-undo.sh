#!/bin/sh
# t-undo.sh - taking back an order (issue 18): the side that just gave an
# order may mail "undo" while no die was rolled, no card dealt or seen and
# the opponent has not answered; the undo is a new commit restoring the
# state before the order (history is never rewritten) with a fresh token,
# which the audit replays. Refused, with the reason and nothing changed,
# after a die, for the other side, and for an undo.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# the state without the counters an undo carries on (and the hand
# commitments, which depend on them)
game_part() {
	git -C "$G" show "$1:state.yaml" | sed -e '/^seq:/d; /^orders:/d' -e '/hand_commitments:/,$d'
}

G=$TRASH/g
new_game "$G"
AM=$(report_for "$G" american) || die "no report to the American"
reply_mail "$AM" "$AMERICAN" "$(postrider options "$G" --plain | sed -n 2p)" "<first@example.org>" >"$TRASH/o1.eml"
expect_exit 0 postrider play "$G" "$TRASH/o1.eml"

# the British may not take back the American's order
BR=$(report_for "$G" british) || die "no report to the British"
reply_mail "$BR" "$BRITISH" "undo" >"$TRASH/br-undo.eml"
expect_exit 1 postrider play "$G" "$TRASH/br-undo.eml"
expect_fixed "not the British's order" "only the side that gave the last order" "$TRASH/err"

# the American takes it back by mail
AM=$(report_for "$G" american) || die "no report to the American"
reply_mail "$AM" "$AMERICAN" "undo" >"$TRASH/undo.eml"
expect_exit 0 postrider play "$G" "$TRASH/undo.eml"
expect_eq "the undo is a new commit" 3 "$(commit_count "$G")"
expect_eq "history is not rewritten: the order is still there" 1 \
	"$(git -C "$G" log --format=%s | grep -c 'American: place')"
game_part HEAD~2 >"$TRASH/before"
game_part HEAD >"$TRASH/after"
expect_file_eq "the game is as it was before the order" "$TRASH/before" "$TRASH/after"
expect_eq "the counters carry on" 2 "$(state_field "$G" seq)"
expect_grep "the log says it" "^The American takes back order 1: the game is as it was before it\\.$" "$G/log.txt"
BR=$(report_for "$G" british) || die "no report to the British"
mail_part "$BR" text/plain >"$TRASH/br.txt"
expect_fixed "the British is told" "takes back order 1" "$TRASH/br.txt"

# the undone order's mail cannot be played again: its token is spent
expect_exit 1 postrider play "$G" "$TRASH/o1.eml"
expect_fixed "the old mail is stale" "not valid for this turn" "$TRASH/err"
# an undo is not undone
AM=$(report_for "$G" american) || die "no report to the American"
reply_mail "$AM" "$AMERICAN" "undo" >"$TRASH/undo2.eml"
expect_exit 1 postrider play "$G" "$TRASH/undo2.eml"
expect_fixed "an undo of an undo is refused" "the last order is itself an undo" "$TRASH/err"
expect_eq "nothing committed by the refusals" 3 "$(commit_count "$G")"

# --- issue 28, item 3 ----------------------------------------------------------
echo undo >"$TRASH/undo.txt"
# The opponent's standing reaction in between does not cancel the undo,
# and is kept.
AM=$(report_for "$G" american) || die "no report to the American"
reply_mail "$AM" "$AMERICAN" "$(postrider options "$G" --plain | sed -n 2p)" >"$TRASH/o2.eml"
expect_exit 0 postrider play "$G" "$TRASH/o2.eml"
printf 'never exchange\n' >"$TRASH/react"
expect_exit 0 postrider play "$G" --as british "$TRASH/react"
AM=$(report_for "$G" american) || die "no report to the American"
reply_mail "$AM" "$AMERICAN" "undo" >"$TRASH/undo3.eml"
expect_exit 0 postrider play "$G" "$TRASH/undo3.eml"
expect_grep "a reaction of the opponent does not stop the undo" \
	"^The American takes back order 4" "$G/log.txt"
expect_grep "and is kept" "^  british: {exchange: never" "$G/state.yaml"

# A decision the opponent was asked for becomes void: he is told in every
# mail mode. The American's last Committee hands For The King to the
# British (in my-move mode); the American takes it back.
V=$TRASH/void
new_game "$V" --mail-mode british=my-move
k=0
while [ "$(prompt_side "$V")" = american ] && [ $k -lt 20 ]; do
	postrider options "$V" --plain | sed -n 2p >"$TRASH/v-order"
	postrider play "$V" --as american "$TRASH/v-order" >/dev/null 2>&1 || die "set-up $k"
	k=$((k + 1))
done
[ "$(prompt_side "$V")" = british ] || die "For The King is the British's"
outbox_list "$V" >"$TRASH/v-before"
expect_exit 0 postrider play "$V" --as american "$TRASH/undo.txt"
for f in $(outbox_added "$V" "$TRASH/v-before"); do
	mail_part "$(outbox "$V")/new/$f" text/plain
done >"$TRASH/v-mail"
expect_fixed "the British (my-move) is told his decision is void" \
	"The decision you were asked for (British: place For The King PCs" "$TRASH/v-mail"

# A card played has been named to the opponent: no undo.
i=0
while [ $i -lt 200 ]; do
	postrider options "$G" --plain >"$TRASH/opts" || die "options"
	side=$(head -n 1 "$TRASH/opts")
	grep -m1 '^discard ' "$TRASH/opts" >"$TRASH/disc" && break
	play_first_legal "$G" || die "the game ended before a discard"
	i=$((i + 1))
done
[ -s "$TRASH/disc" ] || die "no discard in 200 orders"
expect_exit 0 postrider play "$G" --as "$side" "$TRASH/disc"
n=$(commit_count "$G")
expect_exit 1 postrider play "$G" --as "$side" "$TRASH/undo.txt"
expect_fixed "after a card is named the order stands" "left or entered a hand" "$TRASH/err"
expect_eq "and nothing is committed" "$n" "$(commit_count "$G")"

# --- after a die: refused -----------------------------------------------------
# play the first legal order until one of them rolls a die
i=0
while [ $i -lt 400 ]; do
	play_first_legal "$G" || die "the game ended before any die"
	git -C "$G" show HEAD -- log.txt | grep -q '^+draw [0-9]*: d6' && break
	i=$((i + 1))
done
[ $i -lt 400 ] || die "no die in 400 orders"
side=$(git -C "$G" show --name-only --format= HEAD -- orders | sed -n 's,orders/[0-9]*-\(.*\)\.txt,\1,p')
n=$(commit_count "$G")
echo undo >"$TRASH/undo.txt"
expect_exit 1 postrider play "$G" --as "$side" "$TRASH/undo.txt"
expect_fixed "after a die the order stands" "rolled a die or shuffled cards" "$TRASH/err"
expect_eq "and nothing is committed" "$n" "$(commit_count "$G")"

# --- the audit replays the undo ------------------------------------------------
expect_exit 4 postrider audit "$G"
expect_fixed "the history with an undo audits" "verified: $n commits" "$TRASH/out"
# a forged undo (one a die forbids, committed by hand) is caught; the
# rule itself is pinned by test_engine's test_undo_rules
git clone -q "$G" "$TRASH/forged" || die "clone"
cp "$G/.git/postrider/secret" "$TRASH/forged/.git/postrider/secret" 2>/dev/null ||
	{ mkdir -p "$TRASH/forged/.git/postrider" && cp "$G/.git/postrider/secret" "$TRASH/forged/.git/postrider/"; }
seq=$(state_field "$G" seq)
printf 'undo\n' >"$TRASH/forged/orders/$(printf %04d $((seq + 1)))-$side.txt"
git -C "$TRASH/forged" show HEAD~1:state.yaml | sed "s/^seq: .*/seq: $((seq + 1))/" >"$TRASH/forged/state.yaml"
git -C "$TRASH/forged" add -A && git -C "$TRASH/forged" commit -q -m "forged undo" || die "commit"
expect_exit 1 postrider audit "$TRASH/forged"
expect_fixed "a forged undo is caught" "does not pass the audit" "$TRASH/out"

test_done
