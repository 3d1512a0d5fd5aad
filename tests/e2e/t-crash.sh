#!/bin/sh
#
# Crash safety (architecture.md, section 1; repository.md, "Crash
# safety"): `postrider play` killed with SIGKILL at any phase of a turn
# leaves the game at the old commit or the new one, never in between, and
# loses nothing. The kills come at the turn's own phases, not after a
# delay: POSTRIDER_FAULT=NAME makes the run kill itself at the crash point
# NAME (src/fault.h), so each phase is hit on every machine, however busy.
# For each point, on a copy of one game at the Committees of
# Correspondence (a 13-line order, the longest of the opening):
# - the run was killed there (SIGKILL: the point was reached);
# - refs/heads/main is the commit before or one child of it carrying the
#   order: before it for the points before the branch moves, the child
#   after;
# - git fsck finds no error; `postrider show` loads the state at HEAD;
# - the lock is free: the next `postrider play` runs;
# - killed before the commit: the same order is accepted when replayed;
#   after it: the next run releases the killed run's two reports;
#   either way outbox/new holds one report to each side of that commit
#   and none of a commit outside the history,
#   leaves outbox/tmp empty and the work tree matches HEAD (also when the
#   kill came before the checkout).
# Then a few kills after a pseudo-random delay, anywhere in the run, for
# what no named point reaches (inside the writes of objects): the same
# checks, with no count of where they fell. CRASH_TRIALS (default 8) and
# CRASH_SEED (default 1) change them.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh
. tests/e2e/robust-lib.sh

TRIALS=${CRASH_TRIALS:-8}
RSEED=${CRASH_SEED:-1}

BASE=$TRASH/base
new_game "$BASE"
cc_order "$BASE" >"$TRASH/order"
expect_eq "the opening order has 13 placements" 13 "$(grep -c . "$TRASH/order")"
expect_eq "the American decides first" american "$(side_to_move "$BASE")"

# check_after_kill G OLD RC WANT: the checks of the head for one killed
# run (WANT: before, after, or any); sets WHEN and adds to $errs
check_after_kill() {
	_g=$1 _old=$2 _rc=$3 _want=$4
	_new=$(head_of "$_g")
	if [ "$_new" = "$_old" ]; then
		WHEN=before
	elif [ "$(git -C "$_g" rev-parse -q --verify "$_new^" 2>/dev/null)" = "$_old" ] &&
		git -C "$_g" show "$_new:orders/0001-american.txt" >/dev/null 2>&1; then
		WHEN=after
	else
		WHEN=between
		errs="$errs
HEAD is neither the old commit $_old nor a child of it with the order: '$_new'"
	fi
	[ "$_rc" -eq 0 ] && [ "$WHEN" = before ] && errs="$errs
the run exited 0 but HEAD did not move"
	case $_want in
	any) ;;
	"$WHEN") ;;
	*) errs="$errs
killed at this point the game must be $_want the commit, it is $WHEN" ;;
	esac
	fsck_ok "$_g" || errs="$errs
git fsck:
$(cat "$TRASH/fsck")"
	postrider show "$_g" --as american >"$TRASH/show.out" 2>&1 ||
		errs="$errs
postrider show fails: $(head -n 5 "$TRASH/show.out")"
}

# check_next_run G OLD: the next run (the order again, or the British
# reply) and what it must leave; adds to $errs
check_next_run() {
	_g=$1 _old=$2
	if [ "$WHEN" = before ]; then
		postrider play "$_g" --as american "$TRASH/order" >"$TRASH/next.out" 2>&1
		_nrc=$?
		[ "$_nrc" -eq 0 ] || errs="$errs
replaying the order after the kill: exit $_nrc (want 0): $(head -n 5 "$TRASH/next.out")"
		[ "$(git -C "$_g" rev-list --count "$_old..refs/heads/main" 2>/dev/null)" = 1 ] ||
			errs="$errs
after the replay HEAD is not one commit past the old one"
		_killed=$(head_of "$_g")
	else
		_killed=$(head_of "$_g")
		_side=$(side_to_move "$_g")
		legal_orders "$_g" | head -n 1 >"$TRASH/next"
		postrider play "$_g" --as "${_side:-british}" "$TRASH/next" >"$TRASH/next.out" 2>&1
		_nrc=$?
		[ "$_nrc" -eq 0 ] || errs="$errs
the next run ($_side: $(cat "$TRASH/next")): exit $_nrc (want 0): $(head -n 5 "$TRASH/next.out")"
		[ "$(git -C "$_g" rev-list --count "$_old..refs/heads/main" 2>/dev/null)" = 2 ] ||
			errs="$errs
after the next run HEAD is not two commits past the old one"
	fi
	# one report to each side of the commit, not two (a mail staged by
	# the killed run and one by the next), not none
	for _s in american british; do
		_cnt=$(ls "$(outbox "$_g")/new/$_killed"-*-$_s.* 2>/dev/null | grep -c .)
		[ "$_cnt" = 1 ] || errs="$errs
$_cnt mails (want 1) to the $_s side for the commit $_killed in outbox/new: $(ls "$(outbox "$_g")/new" "$(outbox "$_g")/tmp" 2>&1 | tr '\n' ' ')"
	done
	# and none of a commit that is not in the history
	for _f in $(ls "$(outbox "$_g")/new"); do
		git -C "$_g" merge-base --is-ancestor "${_f%%-*}" refs/heads/main 2>/dev/null ||
			errs="$errs
the mail '$_f' in outbox/new is of no commit of the history"
	done
	_left=$(ls -A "$(outbox "$_g")/tmp" 2>/dev/null)
	[ -z "$_left" ] || errs="$errs
outbox/tmp is not empty after the next run: $_left"
	_st=$(git -C "$_g" status --porcelain --untracked-files=all 2>&1)
	[ -z "$_st" ] || errs="$errs
the work tree does not match HEAD after the next run:
$_st"
	[ ! -e "$_g/.git/postrider-checkout-pending" ] || errs="$errs
the marker of a checkout not finished is still there"
	fsck_ok "$_g" || errs="$errs
git fsck after the next run:
$(cat "$TRASH/fsck")"
}

# --- a kill at each phase of the turn ----------------------------------------
for point in commit-prepared:before mail-staged:before ref-moved:after \
	branch-moved:after mail-released:after; do
	name=${point%:*} want=${point#*:}
	G=$TRASH/p-$name
	cp -a "$BASE" "$G"
	old=$(head_of "$G")
	errs=
	POSTRIDER_FAULT=$name postrider play "$G" --as american "$TRASH/order" \
		>"$TRASH/kill.out" 2>&1
	rc=$?
	[ "$rc" -eq 137 ] || errs="$errs
the run was not killed at '$name' (exit $rc, not 137 for SIGKILL): the point was not reached
$(head -n 5 "$TRASH/kill.out")"
	check_after_kill "$G" "$old" "$rc" "$want"
	check_next_run "$G" "$old"
	if [ -z "$errs" ]; then
		ok "killed at $name: the game $WHEN the commit, the next run completes it, nothing lost"
	else
		fail "killed at $name: the game $want the commit, the next run completes it, nothing lost" "$errs"
	fi
done

# the points name phases that exist: a name that is no point kills nothing
G=$TRASH/p-none
cp -a "$BASE" "$G"
expect_exit 0 env POSTRIDER_FAULT=no-such-point postrider play "$G" --as american "$TRASH/order"
# ... and NAME@N is the Nth time: this run passes branch-moved once
G=$TRASH/p-second
cp -a "$BASE" "$G"
expect_exit 0 env POSTRIDER_FAULT=branch-moved@2 postrider play "$G" --as american "$TRASH/order"

# --- kills after a delay, anywhere ---------------------------------------------
# (spread over 0 to 300 ms; where they fall depends on the machine, and
# nothing is counted of it: each trial is checked as above)
rand_list "$RSEED" "$TRIALS" 0 300 >"$TRASH/delays"
trial=0
while read -r delay; do
	trial=$((trial + 1))
	G=$TRASH/g$trial
	rm -rf "$TRASH/g$((trial - 1))"
	cp -a "$BASE" "$G"
	old=$(head_of "$G")
	errs=
	postrider play "$G" --as american "$TRASH/order" >"$TRASH/kill.out" 2>&1 &
	pid=$!
	sleep "$(awk -v ms="$delay" 'BEGIN { printf "%.3f", ms / 1000 }')"
	kill -9 "$pid" 2>/dev/null
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	check_after_kill "$G" "$old" "$rc" any
	check_next_run "$G" "$old"
	if [ -z "$errs" ]; then
		ok "trial $trial: killed after $delay ms ($WHEN the commit, exit $rc)"
	else
		fail "trial $trial: killed after $delay ms ($WHEN the commit, exit $rc)" "$errs"
	fi
done <"$TRASH/delays"

# Issue 12.3: a turn the host undoes by hand (git reset) before its mail
# went out is never mailed: the next run sets its reports aside.
U=$TRASH/undone
new_game "$U"
postrider options "$U" --plain | sed -n 2p >"$TRASH/u-order"
postrider play "$U" --as american "$TRASH/u-order" >/dev/null 2>&1 || die "undone: play"
undone=$(git -C "$U" rev-parse HEAD)
expect_eq "the turn's two reports wait in the outbox" 2 \
	"$(outbox_list "$U" | grep -c "^$undone-")"
git -C "$U" reset -q --hard HEAD~1
printf 'never exchange\n' >"$TRASH/u-react"
expect_exit 0 postrider play "$U" --as british "$TRASH/u-react"
expect_eq "the undone turn's reports are no longer waiting to be sent" 0 \
	"$(outbox_list "$U" | grep -c "^$undone-")"
expect_eq "they are kept aside in dropped/" 2 \
	"$(ls "$(outbox "$U")/dropped" | grep -c "^$undone-")"
expect_fixed "the host is told" "no longer in the game's history" "$TRASH/err"

test_done
