#!/bin/sh
#
# One host address for many games: `postrider new --games ROOT` puts each
# game in ROOT/<game id>, and `postrider play --games ROOT` finds the game
# from the message itself (its subject, X-Postrider-Game or the Message-ID
# it answers). A message can never name a path outside ROOT.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

R=$TRASH/games
mkdir -p "$R"
expect_exit 0 postrider new --games "$R" --american "$AMERICAN" --british "$BRITISH" \
	--host "$HOST" --seed "$SEED"
G=$R/$GAME_ID
expect_eq "the game is in ROOT/<game id>" yes "$( [ -d "$G/.git" ] && echo yes || echo no)"
expect_exit 0 postrider new --games "$R" --american "$AMERICAN" --british "$BRITISH" \
	--host "$HOST" --seed 1111111111111111111111111111111111111111111111111111111111111111
expect_eq "two games side by side" 2 "$(ls "$R" | wc -l | tr -d ' ')"

report=$(report_for "$G" american)
reply_mail "$report" "$AMERICAN" "place Savannah" >"$TRASH/reply.eml"
before=$(commit_count "$G")
expect_exit 0 postrider play --games "$R" "$TRASH/reply.eml"
expect_eq "the reply went to its own game" $((before + 1)) "$(commit_count "$G")"

# A subject naming no game, a game that is not there, a path in disguise.
sed 's/^Subject: .*/Subject: my orders/; /^In-Reply-To:/d; /^References:/d' \
	"$TRASH/reply.eml" >"$TRASH/nogame.eml"
expect_exit 1 postrider play --games "$R" "$TRASH/nogame.eml"
expect_grep "no game named: said so" "names no game" "$TRASH/err"
sed "s/\[$GAME_ID\]/[ww-0000beef]/; /^In-Reply-To:/d; /^References:/d" \
	"$TRASH/reply.eml" >"$TRASH/other.eml"
expect_exit 1 postrider play --games "$R" "$TRASH/other.eml"
expect_grep "an unknown game: said so" "there is no game ww-0000beef" "$TRASH/err"
{
	echo "X-Postrider-Game: ../../etc"
	sed "s/\[$GAME_ID\]/[..\/..\/etc]/; /^In-Reply-To:/d; /^References:/d" "$TRASH/reply.eml"
} >"$TRASH/escape.eml"
expect_exit 1 postrider play --games "$R" "$TRASH/escape.eml"
expect_grep "a path for a game id is no game" "names no game" "$TRASH/err"
expect_exit 2 postrider play --games "$R" --as american "$TRASH/reply.eml"

# contrib/postrider-deliver, as a mail system runs it: the message on
# standard input, 0 when it was dealt with, 75 to be delivered again.
report=$(report_for "$G" american)
reply_mail "$report" "$AMERICAN" "place Camden" >"$TRASH/reply2.eml"
before=$(commit_count "$G")
expect_exit 0 sh contrib/postrider-deliver "$R" <"$TRASH/reply2.eml"
expect_eq "delivered through contrib/postrider-deliver" $((before + 1)) "$(commit_count "$G")"
expect_exit 0 sh contrib/postrider-deliver "$R" <"$TRASH/reply2.eml"
expect_eq "a replay through it changes nothing" $((before + 1)) "$(commit_count "$G")"
expect_eq "nothing was kept as failed" 0 "$(ls "$R/.failed" | wc -l | tr -d ' ')"

test_done
