#!/bin/sh
#
# Concurrency: several `postrider play` started at once on one game, each
# with a different order that is legal in the current state, end with
# exactly one accepted (exit 0) and the others rejected (exit 1: the order
# no longer fits the new state; or 75: busy or stale, retry), exactly one
# new commit, mail for that commit only, and git fsck clean.
#
# Rounds: the American Committees of Correspondence (8 different 13-line
# orders), the British For The King (8 different 3-placement orders), then
# rounds at the next "play a card" prompts (up to 8 different single-line
# orders: once one is played the prompt is no longer "play a card" for
# that side, so the others cannot fit). Every candidate is first checked
# with `postrider check` (it must be legal), so a rejection in the round
# can only come from the race.

. tests/e2e/lib.sh
. tests/e2e/robust-lib.sh

PARALLEL=${CONCURRENCY_RUNS:-8}
PLAY_ROUNDS=${CONCURRENCY_PLAY_ROUNDS:-4}
G=$TRASH/game
new_game "$G"

rounds=0 total1=0 total75=0

# prompt_kind DIR: prompt.kind of state.yaml
prompt_kind() {
	sed -n '/^prompt:/,/^[^ ]/s/^  kind: *//p' "$1/state.yaml"
}

# round SIDE CANDIDATE-FILES...: the race itself
round() {
	side=$1
	shift
	rounds=$((rounds + 1))
	old=$(head_of "$G")
	ls "$(outbox "$G")/new" | LC_ALL=C sort >"$TRASH/mail.before"
	i=0 pids=
	for f in "$@"; do
		i=$((i + 1))
		(postrider play "$G" --as "$side" "$f" >"$TRASH/run$i.out" 2>&1
		echo $? >"$TRASH/run$i.rc") &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
	n0=0 n1=0 n75=0 other=
	j=0
	while [ $j -lt $i ]; do
		j=$((j + 1))
		rc=$(cat "$TRASH/run$j.rc")
		case $rc in
		0) n0=$((n0 + 1)) ;;
		1) n1=$((n1 + 1)) ;;
		75) n75=$((n75 + 1)) ;;
		*) other="$other run $j: exit $rc: $(head -n 3 "$TRASH/run$j.out")
" ;;
		esac
	done
	total1=$((total1 + n1)) total75=$((total75 + n75))
	what="round $rounds ($side, $i runs at once)"
	expect_eq "$what: exactly one accepted" 1 "$n0"
	expect_eq "$what: no exit status other than 0, 1, 75" "" "$other"
	expect_eq "$what: exactly one new commit" 1 \
		"$(git -C "$G" rev-list --count "$old..refs/heads/main" 2>&1)"
	expect_eq "$what: the new commit's parent is the old one" "$old" \
		"$(git -C "$G" rev-parse -q --verify refs/heads/main^ 2>&1)"
	new=$(head_of "$G")
	ls "$(outbox "$G")/new" | LC_ALL=C sort >"$TRASH/mail.after"
	added=$(LC_ALL=C comm -13 "$TRASH/mail.before" "$TRASH/mail.after" |
		grep -v "^$new-" | tr '\n' ' ')
	expect_eq "$what: no mail for a commit other than the new one" "" "$added"
	expect_eq "$what: two reports for the new commit" 2 \
		"$(ls "$(outbox "$G")/new" | grep -c "^$new-")"
	expect_eq "$what: outbox/tmp is empty" "" "$(ls -A "$(outbox "$G")/tmp")"
	if fsck_ok "$G"; then
		ok "$what: git fsck is clean"
	else
		fail "$what: git fsck is clean" "$(cat "$TRASH/fsck")"
	fi
	expect_clean "$G"
	echo "# $what: accepted $n0, rejected $n1, busy or stale $n75"
}

# candidates SIDE FILES...: keeps the files that `postrider check` accepts
# in $cands; a FAIL names any that it refuses
candidates() {
	side=$1
	shift
	cands=
	for f in "$@"; do
		if postrider check "$G" --as "$side" "$f" >"$TRASH/check.out" 2>&1; then
			cands="$cands $f"
		else
			fail "candidate order $(basename "$f") is legal now" \
				"$(cat "$f")" "$(head -n 8 "$TRASH/check.out")"
		fi
	done
}

# Round 1: the Committees of Correspondence, 8 different complete orders:
# order k takes, in each colony, the (k mod n)-th legal space.
[ "$(prompt_kind "$G")" = cc ] || die "the game does not start with the Committees of Correspondence"
legal_orders "$G" >"$TRASH/legal"
k=0 files=
while [ $k -lt "$PARALLEL" ]; do
	k=$((k + 1))
	awk -v k=$k '{ c = $NF; n[c]++; l[c, n[c]] = $0; if (!(c in o)) { o[c] = ++m; col[m] = c } }
		END { for (i = 1; i <= m; i++) { c = col[i]; print l[c, (k - 1) % n[c] + 1] } }' \
		"$TRASH/legal" >"$TRASH/cc$k"
	files="$files $TRASH/cc$k"
done
# shellcheck disable=SC2086
candidates american $files
# shellcheck disable=SC2086
round american $cands

# Round 2: For The King, 8 different orders of three placements.
[ "$(prompt_kind "$G")" = ftk ] || die "For The King does not follow (prompt: $(prompt_kind "$G"))"
legal_orders "$G" | grep '^place ' >"$TRASH/legal"
n=$(grep -c . "$TRASH/legal")
k=0 files=
while [ $k -lt "$PARALLEL" ]; do
	k=$((k + 1))
	awk -v k=$k -v n="$n" '{ l[NR - 1] = $0 } END { for (j = 0; j < 3; j++) print l[(2 * k + j) % n] }' \
		"$TRASH/legal" >"$TRASH/ftk$k"
	files="$files $TRASH/ftk$k"
done
# shellcheck disable=SC2086
candidates british $files
# shellcheck disable=SC2086
round british $cands

# Then: rounds at "play a card" prompts, reached by playing the first legal
# order at any other prompt.
r=0 steps=0
while [ $r -lt "$PLAY_ROUNDS" ] && [ $steps -lt 200 ]; do
	steps=$((steps + 1))
	side=$(side_to_move "$G")
	[ -n "$side" ] || die "no side to move (game over?) after $steps steps"
	legal_orders "$G" >"$TRASH/legal"
	if [ "$(prompt_kind "$G")" != play ]; then
		head -n 1 "$TRASH/legal" >"$TRASH/step"
		postrider play "$G" --as "$side" "$TRASH/step" >"$TRASH/step.out" 2>&1 ||
			die "playing '$(cat "$TRASH/step")' as $side: $(cat "$TRASH/step.out")"
		continue
	fi
	r=$((r + 1))
	n=$(grep -c . "$TRASH/legal")
	k=0 files=
	while [ $k -lt "$PARALLEL" ] && [ $k -lt "$n" ]; do
		sed -n "$((k * n / PARALLEL + 1))p" "$TRASH/legal" >"$TRASH/p$r-$k"
		files="$files $TRASH/p$r-$k"
		k=$((k + 1))
	done
	# shellcheck disable=SC2086
	candidates "$side" $files
	# shellcheck disable=SC2086
	round "$side" $cands
done
expect_eq "play-a-card rounds held" "$PLAY_ROUNDS" "$r"
echo "# $rounds rounds; the losers: $total1 rejected (exit 1), $total75 busy or stale (exit 75)"
test_done
