#!/bin/sh
# t-hostcmd.sh - the host's commands for a running game (issue 18): a
# player's new address (a commit the audit accepts, orders from the new
# address only), and the default order for a late side.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/g
new_game "$G"
NEW="Alice Liddell <alice@new.example.net>"

# --- a new address ---------------------------------------------------------------
expect_exit 2 postrider player "$G" american "not an address"
expect_exit 1 postrider player "$G" american "$BRITISH"
expect_fixed "the other player's address is refused" "the other player's address" "$TRASH/err"
expect_exit 0 postrider player "$G" american "$NEW"
expect_eq "a commit of its own" 2 "$(commit_count "$G")"
expect_grep "game.yaml has the new address" "alice@new.example.net" "$G/game.yaml"
expect_grep "the log says it" "The host gives the American a new address: Alice Liddell <alice@new.example.net> (was Alice <alice@example.org>)" "$G/log.txt"
AM=$(report_for "$G" american) || die "no report to the American"
expect_eq "the report goes to the new address" "$NEW" "$(header "$AM" To)"
# the old address is told too (issue 30: a typo cut the player off silently)
OLD=$(grep -l "^To: $AMERICAN" "$(outbox "$G")"/new/address-* 2>/dev/null | head -n 1)
expect_ne "the old address gets a notice" "" "$OLD"
if [ -n "$OLD" ]; then
	expect_fixed "... saying the new address" "alice@new.example.net" "$OLD"
	mail_part "$OLD" text/plain >"$TRASH/old.txt"
	expect_fixed "... and what to do if it is a mistake" "If this is a mistake, tell the host" "$TRASH/old.txt"
	expect_no_fixed "... and no token, which the old address may not use" "token" "$OLD"
fi
# an order from the old address is a stranger's now; from the new one it counts
reply_mail "$AM" "$AMERICAN" "$(postrider options "$G" --plain | sed -n 2p)" >"$TRASH/old.eml"
expect_exit 1 postrider play "$G" "$TRASH/old.eml"
expect_fixed "the old address is no player" "is not a player" "$TRASH/err"
reply_mail "$AM" "$NEW" "$(postrider options "$G" --plain | sed -n 2p)" >"$TRASH/new.eml"
expect_exit 0 postrider play "$G" "$TRASH/new.eml"
expect_exit 4 postrider audit "$G"
expect_fixed "the audit accepts the address change" "verified: 3 commits" "$TRASH/out"
# a player's clone audits it too, without the seed
git clone -q "$G" "$TRASH/clone" || die "clone"
expect_exit 4 postrider audit "$TRASH/clone"
expect_fixed "and so does a player's clone" "verified" "$TRASH/out"
# an address change that slips in another change is caught
git clone -q "$G" "$TRASH/forged" || die "clone"
sed -i 's/^  tournament_rule: false/  tournament_rule: true/; s/alice@new.example.net/alice@evil.example.net/' "$TRASH/forged/game.yaml"
printf '\n-- The host gives the American a new address: Alice Liddell <alice@evil.example.net> (was Alice Liddell <alice@new.example.net>) --\n' \
	>>"$TRASH/forged/log.txt"
# the trailers of a host's commit at this order number
git -C "$G" log -1 --format=%B HEAD~1 | sed -n '/^Postrider-/p' |
	sed "s/^Postrider-Seq: .*/Postrider-Seq: $(state_field "$G" seq)/" >"$TRASH/trailers"
printf 'New address of the American\n\n%s\n' "$(cat "$TRASH/trailers")" >"$TRASH/forged.msg"
git -C "$TRASH/forged" commit -q -a -F "$TRASH/forged.msg" || die "commit"
expect_exit 1 postrider audit "$TRASH/forged"
expect_fixed "more than an address is named" "game.yaml changes in a way no address change may" "$TRASH/out"
# and one without its line in the log
git clone -q "$G" "$TRASH/silent" || die "clone"
sed -i 's/alice@new.example.net/alice@evil.example.net/' "$TRASH/silent/game.yaml"
git -C "$TRASH/silent" commit -q -a -F "$TRASH/forged.msg" || die "commit"
expect_exit 1 postrider audit "$TRASH/silent"
expect_fixed "a silent address change is named" "log.txt does not say so" "$TRASH/out"

# --- the default order for a late side ---------------------------------------
expect_exit 2 postrider play "$G" --default
expect_exit 1 postrider play "$G" --as american --default
expect_fixed "no default for a placement the rules ask of him" "there is no default order for the American now" "$TRASH/err"
expect_exit 1 postrider play "$G" --as british --default
expect_fixed "nor for the side not to move" "there is no default order for the British" "$TRASH/err"
i=0
while ! postrider play "$G" --as "$(postrider options "$G" --plain | head -n 1)" --default \
	>"$TRASH/out" 2>"$TRASH/err"; do
	play_first_legal "$G" || die "the game ended"
	i=$((i + 1))
	[ $i -lt 100 ] || die "no decision with a default in 100 orders"
done
ok "a decision with a default comes (after $i orders)"
expect_fixed "the default order is said" "the default order for the" "$TRASH/out"
git -C "$G" log -1 --format=%B >"$TRASH/msg"
expect_grep "the commit says the host played it for a late side" \
	"^Postrider-Via: host (play --as [a-z]* --default, the side being late)" "$TRASH/msg"
expect_exit 4 postrider audit "$G"
expect_fixed "and it audits" "verified" "$TRASH/out"

test_done
