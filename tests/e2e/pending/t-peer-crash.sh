#!/bin/sh
#
# Crash safety of a copy of a game without a host (issue 40.8): the
# American's `postrider play --as american` killed at each phase of its
# commit (POSTRIDER_FAULT, src/fault.h), and the British copy killed after
# it accepted that commit (head-moved). After each kill: the copy is at
# the old commit or the new one; the next run (`postrider send`, and the
# order typed again if it was not committed) leaves outbox/tmp empty and
# exactly one mail of the order in outbox/new, whose commit is the head;
# the other copy, given that mail, reaches the same head: nothing lost.
#
# PENDING: kept out of tests/e2e/ (and so out of the suite) until the
# `pipe` branch (peer commits through turn_publish() and notify_recover(),
# issue 40) is merged and the crash points sit where both modes pass them
# (mail-staged: at the head of turn_publish()); then move it to
# tests/e2e/. On `mailtest` alone it fails at mail-staged, ref-moved and
# branch-moved: the mail stays in outbox/tmp for good (no run of a peer
# copy recovers it), and after the branch moved the other copy never
# gets the commit. With `pipe` as it stood (uncommitted, 18:30), the
# next `play` on the copy releases it, but neither `remind` (the
# crontab's run) nor `send` does: a copy whose player waits for the
# other still never mails it.

cd "$(dirname "$0")/../../.." || exit 1
. tests/e2e/lib.sh
. tests/e2e/robust-lib.sh

A=$TRASH/a B=$TRASH/b
peer_pair "$A" "$B"
postrider play "$A" "$(ls "$(outbox "$B")/new/"*-peer-*)" >/dev/null 2>&1 ||
	die "the American's copy takes the join"
postrider options "$A" --plain | sed -n 2p >"$TRASH/order"

# order_mail DIR: the copy's mails of commit 3 (the order) in outbox/new
order_mails() {
	grep -l "^Subject: \[ww-[0-9a-f]*\] peer 3 american order" "$(outbox "$1")"/new/* 2>/dev/null
}

for point in commit-prepared:before mail-staged:before ref-moved:after \
	branch-moved:after mail-released:after; do
	name=${point%:*} want=${point#*:}
	G=$TRASH/a-$name H=$TRASH/b-$name
	rm -rf "$G" "$H"
	cp -a "$A" "$G"
	cp -a "$B" "$H"
	old=$(head_of "$G")
	errs=
	POSTRIDER_FAULT=$name postrider play "$G" --as american "$TRASH/order" >"$TRASH/kill.out" 2>&1
	rc=$?
	[ "$rc" -eq 137 ] || errs="$errs
not killed at '$name' (exit $rc): $(head -n 3 "$TRASH/kill.out")"
	new=$(head_of "$G")
	if [ "$new" = "$old" ]; then when=before
	elif [ "$(git -C "$G" rev-parse -q --verify "$new^")" = "$old" ]; then when=after
	else when=between; fi
	[ "$when" = "$want" ] || errs="$errs
the copy is $when the commit, not $want"
	fsck_ok "$G" || errs="$errs
git fsck: $(cat "$TRASH/fsck")"
	# the next runs: the player's crontab line (remind, docs/peer.md 11),
	# a send, and the order typed again if it was lost
	postrider remind --quiet "$G" >"$TRASH/remind.out" 2>&1
	postrider send "$G" >"$TRASH/send.out" 2>&1
	if [ "$when" = before ]; then
		postrider play "$G" --as american "$TRASH/order" >"$TRASH/next.out" 2>&1 ||
			errs="$errs
the order typed again: $(head -n 3 "$TRASH/next.out")"
	fi
	left=$(ls -A "$(outbox "$G")/tmp" 2>/dev/null)
	[ -z "$left" ] || errs="$errs
outbox/tmp holds mail after the next runs: $left"
	mails=$(order_mails "$G")
	[ "$(echo "$mails" | grep -c .)" = 1 ] || errs="$errs
not one mail of the order in outbox/new: '$mails'"
	m=$(echo "$mails" | head -n 1)
	if [ -n "$m" ]; then
		[ "$(header "$m" X-Postrider-Commit)" = "$(head_of "$G")" ] || errs="$errs
the mail's commit $(header "$m" X-Postrider-Commit) is not the head $(head_of "$G")"
		postrider play "$H" "$m" >"$TRASH/other.out" 2>&1
		[ "$(head_of "$H")" = "$(head_of "$G")" ] || errs="$errs
the British copy, given the mail, is not at the American's head: $(head -n 3 "$TRASH/other.out")"
	fi
	if [ -z "$errs" ]; then
		ok "the American killed at $name: $when the commit, nothing lost"
	else
		fail "the American killed at $name: $want the commit, nothing lost" "$errs"
	fi
done

# the British copy killed as it accepts the order (head-moved): the mail
# given again is a copy, and both copies are on one head
G=$TRASH/a-ok H=$TRASH/b-head
rm -rf "$G" "$H"
cp -a "$A" "$G"
cp -a "$B" "$H"
postrider play "$G" --as american "$TRASH/order" >/dev/null 2>&1 || die "the order"
m=$(order_mails "$G" | head -n 1)
POSTRIDER_FAULT=head-moved postrider play "$H" "$m" >"$TRASH/kill.out" 2>&1
expect_eq "the British copy killed at head-moved (SIGKILL)" 137 "$?"
postrider play "$H" "$m" >"$TRASH/again.out" 2>&1
expect_eq "... the mail given again: taken (exit 0)" 0 "$?"
expect_eq "... both copies on one head" "$(head_of "$G")" "$(head_of "$H")"
fsck_ok "$H" && ok "... git fsck is clean" || fail "... git fsck is clean" "$(cat "$TRASH/fsck")"

test_done
