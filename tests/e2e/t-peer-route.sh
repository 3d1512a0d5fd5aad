#!/bin/sh
#
# A player with several games without a host (issue 40.3): his mail
# filter gives every mail of his postrider to `postrider-deliver --games
# ~/games` (contrib/procmailrc-peer), which finds the copy of the game the
# mail names among the folders there, however they are named: a game's
# mails go to its own copy, never to another game's. A mail for a game of
# which he holds no copy goes to his mailbox (host_mail) with a header
# saying why, not refused as a forgery; without host_mail it waits in the
# mail system (75) until he mends his set-up. Mails passed by hand, as
# the mail system would, to contrib/postrider-deliver.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# postrider-deliver beside the binary it is to run (it looks there first)
mkdir -p "$TRASH/bin"
cp contrib/postrider-deliver "$TRASH/bin/" && ln -s "$BUILD_DIR/postrider" "$TRASH/bin/postrider" ||
	die "postrider-deliver beside postrider"
GA=$TRASH/alice/games	# Alice's copies (the American in each game)
GB=$TRASH/bob/games	# Bob's
mkdir -p "$GA" "$GB" "$TRASH/alice/elsewhere"
printf 'transport: outbox\nhost_mail: %s/alice/Maildir/\n' "$TRASH" >"$TRASH/alice.yaml"
printf 'transport: outbox\nhost_mail: %s/bob/Maildir/\n' "$TRASH" >"$TRASH/bob.yaml"
printf 'transport: outbox\n' >"$TRASH/no-mailbox.yaml"

# deliver CONFIG ROOT MAIL: the mail system hands MAIL to the player's
# filter; its exit status in $status, its log in ROOT/.deliver.log
deliver() {
	POSTRIDER_CONFIG=$1 "$TRASH/bin/postrider-deliver" --games "$2" <"$3" \
		>"$TRASH/deliver.out" 2>&1
	status=$?
}
# mail_of DIR SEQ SIDE KIND: the copy's outbox mail of that commit
mail_of() {
	grep -l "^Subject: \[[-a-z0-9]*\] peer $2 $3 $4" "$(outbox "$1")"/new/* 2>/dev/null | head -n 1
}
# new_pair NAME-A NAME-B SECRET-A SECRET-B: a game, Alice's copy in
# NAME-A, Bob's (joined from her invitation) in NAME-B; prints the id
new_pair() {
	POSTRIDER_CONFIG=$TRASH/alice.yaml postrider peer new "$1" --me american \
		--american "$AMERICAN" --british "$BRITISH" --secret "$3" >"$TRASH/new.out" 2>&1 ||
		die "peer new $1: $(cat "$TRASH/new.out")"
	POSTRIDER_CONFIG=$TRASH/bob.yaml postrider peer join "$2" --secret "$4" --address "$BRITISH" \
		"$(mail_of "$1" 1 american invite)" >"$TRASH/join.out" 2>&1 ||
		die "peer join $2: $(cat "$TRASH/join.out")"
	sed -n 's/^created peer game \(ww-[0-9a-f]*\) .*/\1/p' "$TRASH/new.out"
}
S1A=$SA S1B=$SB
S2A=101112131415161718191a1b1c1d1e1f000102030405060708090a0b0c0d0e0f
S2B=303132333435363738393a3b3c3d3e3f202122232425262728292a2b2c2d2e2f
S3A=0f0e0d0c0b0a090807060504030201001f1e1d1c1b1a19181716151413121110
S3B=2f2e2d2c2b2a292827262524232221203f3e3d3c3b3a39383736353433323130
ID1=$(new_pair "$GA/ww-bob" "$GB/ww-alice" "$S1A" "$S1B")
ID2=$(new_pair "$GA/second-with-bob" "$GB/alice-again" "$S2A" "$S2B")
# a third game, whose copy Alice keeps outside ~/games
ID3=$(new_pair "$TRASH/alice/elsewhere/ww-bob3" "$GB/third" "$S3A" "$S3B")
expect_ne "two games between the same players: two ids" "$ID1" "$ID2"

# --- each game's join reaches its own copy --------------------------------------
h1=$(git -C "$GA/ww-bob" rev-parse HEAD) h2=$(git -C "$GA/second-with-bob" rev-parse HEAD)
deliver "$TRASH/alice.yaml" "$GA" "$(mail_of "$GB/alice-again" 2 british join)"
expect_eq "game 2's join, through the filter: delivered (exit 0)" 0 "$status"
expect_eq "... into game 2's copy, named as she likes" "$(git -C "$GB/alice-again" rev-parse HEAD)" \
	"$(git -C "$GA/second-with-bob" rev-parse HEAD)"
expect_eq "... and game 1's copy is untouched" "$h1" "$(git -C "$GA/ww-bob" rev-parse HEAD)"
expect_grep "... said in the filter's log" "^accepted: the british joined" "$GA/.deliver.log"
deliver "$TRASH/alice.yaml" "$GA" "$(mail_of "$GB/ww-alice" 2 british join)"
expect_eq "game 1's join: delivered" 0 "$status"
expect_eq "... into game 1's copy" "$(git -C "$GB/ww-alice" rev-parse HEAD)" "$(git -C "$GA/ww-bob" rev-parse HEAD)"
expect_ne "... game 2's copy did not take it" "$(git -C "$GA/ww-bob" rev-parse HEAD)" \
	"$(git -C "$GA/second-with-bob" rev-parse HEAD)"

# --- an order of game 2 reaches Bob's copy of game 2 ------------------------------
postrider options "$GA/second-with-bob" --plain | sed -n 2p >"$TRASH/order"
expect_exit 0 env POSTRIDER_CONFIG="$TRASH/alice.yaml" postrider play "$GA/second-with-bob" \
	--as american "$TRASH/order"
b1=$(git -C "$GB/ww-alice" rev-parse HEAD)
deliver "$TRASH/bob.yaml" "$GB" "$(mail_of "$GA/second-with-bob" 3 american order)"
expect_eq "game 2's order, through Bob's filter: delivered" 0 "$status"
expect_eq "... into Bob's copy of game 2" "$(git -C "$GA/second-with-bob" rev-parse HEAD)" \
	"$(git -C "$GB/alice-again" rev-parse HEAD)"
expect_eq "... and his copy of game 1 is untouched" "$b1" "$(git -C "$GB/ww-alice" rev-parse HEAD)"

# --- a mail for a game of which ~/games holds no copy ------------------------------
snapshot "$GA/ww-bob" g1
snapshot "$GA/second-with-bob" g2
J3=$(mail_of "$GB/third" 2 british join)
deliver "$TRASH/no-mailbox.yaml" "$GA" "$J3"
expect_eq "no copy and no mailbox (host_mail): the mail system keeps it (75)" 75 "$status"
expect_fixed "... saying how to mend it" "no host_mail is set to take the mail (your mailbox): set it" "$GA/.deliver.log"
deliver "$TRASH/alice.yaml" "$GA" "$J3"
expect_eq "no copy: delivered to her mailbox (exit 0)" 0 "$status"
M=$(grep -l "^Subject: \[$ID3\] peer 2 british join" "$TRASH/alice/Maildir/new"/* 2>/dev/null | head -n 1)
expect_ne "... the mail is in her Maildir" "" "$M"
[ -n "$M" ] || M=$TRASH/none
expect_grep "... with a header that says why" \
	"^X-Postrider-Host-Mail: .*there is no game $ID3 in '$GA'" "$M"
expect_grep "... said in the filter's log too" "there is no game $ID3 in '$GA'.*handed to the host's Maildir" \
	"$GA/.deliver.log"
expect_no_fixed "... not called a forgery" "forged" "$M" "$GA/.deliver.log"
expect_unchanged "... and no copy changed: game 1" "$GA/ww-bob" g1
expect_unchanged "... nor game 2" "$GA/second-with-bob" g2
expect_eq "... nothing kept in .failed/" "" "$(ls "$GA/.failed")"

# --- two copies of one game in ~/games: neither is guessed ----------------------------
cp -a "$GA/ww-bob" "$GA/copy-of-ww-bob"
snapshot "$GA/ww-bob" g1
cp "$(mail_of "$GB/ww-alice" 2 british join)" "$TRASH/join1.eml"
deliver "$TRASH/alice.yaml" "$GA" "$TRASH/join1.eml"
expect_eq "two copies of one game: delivered to her mailbox (exit 0)" 0 "$status"
expect_grep "... saying which folders" "2 folders of '$GA' hold game $ID1" "$GA/.deliver.log"
expect_unchanged "... and neither copy changed" "$GA/ww-bob" g1

test_done
