#!/bin/sh
#
# The opening of 1775 played by the host for both sides with
# `options --plain` and `play --as`, always the first legal order: the
# Committees of Correspondence, the British placements, the choice of who
# goes first and the first card impulses. Every accepted order is exactly
# one commit with the expected subject, author, trailers, order file and
# state, two new reports in the outbox and a longer log.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ORDERS=${ORDERS:-40}
G=$TRASH/game
new_game "$G"

side_title() {
	case $1 in
	american) echo American ;;
	british) echo British ;;
	*) echo "?$1" ;;
	esac
}
player_of() {
	case $1 in
	american) echo "$AMERICAN" ;;
	british) echo "$BRITISH" ;;
	esac
}

: >"$TRASH/expected-subjects"
git -C "$G" log -1 --format=%s >>"$TRASH/expected-subjects"
: >"$TRASH/expected-sides"
bad=0
i=1
while [ $i -le "$ORDERS" ]; do
	run_cmd postrider options "$G" --plain
	[ $status -eq 0 ] || die "options --plain before order $i: $(cat "$TRASH/err")"
	cp "$TRASH/out" "$TRASH/options"
	side=$(head -n 1 "$TRASH/options")
	order=$(sed -n 2p "$TRASH/options")
	[ -n "$order" ] || die "options --plain lists a legal order before order $i"
	echo "$side" >>"$TRASH/expected-sides"

	year=$(state_field "$G" year)
	commits=$(commit_count "$G")
	loglines=$(wc -l <"$G/log.txt")
	outbox_list "$G" >"$TRASH/outbox.before"
	prompt=$(prompt_side "$G")

	[ "$prompt" = "$side" ] ||
		fail "order $i: options names the side of state.yaml's prompt" \
			"options: $side, state.yaml: $prompt"

	if ! printf '%s\n' "$order" | postrider play "$G" --as "$side" \
		>"$TRASH/out" 2>"$TRASH/err"; then
		fail "order $i: play --as $side accepts '$order'" \
			"$(cat "$TRASH/err")"
		bad=1
		break
	fi
	head=$(git -C "$G" rev-parse HEAD)
	echo "$year $(side_title "$side"): $order" >>"$TRASH/expected-subjects"

	# one commit, on top of the last one
	[ "$(commit_count "$G")" -eq $((commits + 1)) ] ||
		{ fail "order $i: exactly one new commit" \
			"commits before $commits, after $(commit_count "$G")"; bad=1; }
	# the state's sequence number counts the orders
	[ "$(state_field "$G" seq)" = "$i" ] ||
		{ fail "order $i: state.yaml seq is $i" \
			"actual: $(state_field "$G" seq)"; bad=1; }
	[ "$(git -C "$G" show HEAD:state.yaml | sed -n 's/^seq: //p')" = "$i" ] ||
		{ fail "order $i: the committed state.yaml has seq $i"; bad=1; }
	# the order, verbatim, in orders/NNNN-side.txt
	f=$(printf 'orders/%04d-%s.txt' "$i" "$side")
	[ "$(git -C "$G" show "HEAD:$f" 2>&1)" = "$order" ] ||
		{ fail "order $i: $f holds the order" \
			"expected: $order" "actual: $(git -C "$G" show "HEAD:$f" 2>&1)"; bad=1; }
	# author the player, committer the host
	who=$(git -C "$G" log -1 --format='%an <%ae>|%cn <%ce>|%at|%ct')
	[ "$who" = "$(player_of "$side")|$HOST|1700000000|1700000000" ] ||
		{ fail "order $i: author the player, committer the host, at POSTRIDER_NOW" \
			"actual: $who"; bad=1; }
	trailers=$(git -C "$G" log -1 \
		--format='%(trailers:key=Postrider-Game,key=Postrider-Seq,key=Postrider-Side,separator=%x2c)')
	[ "$trailers" = "Postrider-Game: $GAME_ID,Postrider-Seq: $i,Postrider-Side: $side" ] ||
		{ fail "order $i: the commit's trailers" "actual: $trailers"; bad=1; }
	# the log grows, and says what happened
	[ "$(wc -l <"$G/log.txt")" -gt "$loglines" ] ||
		{ fail "order $i: log.txt grows"; bad=1; }
	grep -q "^-- $year, order $i ($(side_title "$side")) --\$" "$G/log.txt" ||
		{ fail "order $i: log.txt has the heading of order $i"; bad=1; }
	# two new reports, one per player, named after the commit
	outbox_added "$G" "$TRASH/outbox.before" >"$TRASH/added"
	printf '%s\n' "$head-$(printf %04d "$i")-american.1" \
		"$head-$(printf %04d "$i")-british.1" >"$TRASH/added.expected"
	cmp -s "$TRASH/added.expected" "$TRASH/added" ||
		{ fail "order $i: two new reports in the outbox" \
			"$(diff "$TRASH/added.expected" "$TRASH/added")"; bad=1; }
	# the one to decide next is asked, with its token; the other is not
	# asked and never gets that token
	next=$(prompt_side "$G")
	mover_token=
	for s in american british; do
		r=$(report_for "$G" "$s") || { fail "order $i: a report for $s"; bad=1; continue; }
		subj=$(header "$r" Subject)
		if [ "$s" = "$next" ]; then
			mover_token=$(printf '%s\n' "$subj" | sed -n 's/.*(token \([a-z0-9-]*\))$/\1/p')
			case $subj in
			*"your move, $(side_title "$s") (token "?*")") ;;
			*) fail "order $i: the $s report asks for a move, with a token" \
				"subject: $subj"; bad=1 ;;
			esac
		else
			case $subj in
			*"your move"*) fail "order $i: the $s report does not ask for a move" \
				"subject: $subj"; bad=1 ;;
			esac
		fi
	done
	if [ -n "$mover_token" ]; then
		o=british
		[ "$next" = british ] && o=american
		if grep -q -F "$mover_token" "$(report_for "$G" $o)"; then
			fail "order $i: the $o report does not hold the $next token"
			bad=1
		fi
	fi
	i=$((i + 1))
done
played=$((i - 1))
[ $bad -eq 0 ] && ok "$played orders played, each checked: commit, seq, order file, author, trailers, log, two reports"
expect_eq "$ORDERS orders were accepted" "$ORDERS" "$played"

# both sides played, and the game went beyond the set-up
expect_eq "both sides decided" "american british" \
	"$(sort -u "$TRASH/expected-sides" | tr '\n' ' ' | sed 's/ $//')"
cat "$G"/orders/*.txt >"$TRASH/all-orders"
expect_grep "cards were played (the first impulses of 1775)" \
	'^\(pc\|event\|ops\|discard\) ' "$TRASH/all-orders"
runs=$(ls "$G/orders" | sed 's/^[0-9]*-//; s/\.txt$//' | uniq | wc -l)
if [ "$runs" -gt 3 ]; then
	ok "the sides took turns ($runs runs of orders by one side)"
else
	fail "the sides took turns" "expected more than 3 runs, got $runs"
fi

# the history, whole
git -C "$G" log --reverse --format=%s >"$TRASH/subjects"
expect_file_eq "git log: one subject per accepted order, in order" \
	"$TRASH/expected-subjects" "$TRASH/subjects"
expect_eq "git log is one straight line of $((ORDERS + 1)) commits" \
	"$((ORDERS + 1)) 0" \
	"$(git -C "$G" rev-list --count HEAD) $(git -C "$G" rev-list --merges --count HEAD)"
git -C "$G" log --reverse --format=%H | while read -r c; do
	git -C "$G" show "$c:state.yaml" | sed -n 's/^seq: //p'
done >"$TRASH/seqs"
seq 0 "$ORDERS" >"$TRASH/seqs.expected"
expect_file_eq "the committed states count 0, 1, 2, ..." \
	"$TRASH/seqs.expected" "$TRASH/seqs"
expect_eq "the outbox holds two reports per commit" \
	$((2 * (ORDERS + 1))) "$(outbox_count "$G")"
expect_fsck "$G"
expect_clean "$G"

# postrider log shows the log
postrider log "$G" >"$TRASH/log" 2>"$TRASH/log.err"
expect_file_eq "postrider log prints log.txt" "$G/log.txt" "$TRASH/log"
expect_eq "log.txt has a heading per order" "$ORDERS" \
	"$(grep -c '^-- 17[0-9][0-9], order [0-9]* (\(American\|British\)) --$' "$G/log.txt")"

# the same game again gives the same history, commit for commit
G2=$TRASH/again
new_game "$G2"
git -C "$G" log --reverse --format=%H | sed 1d >"$TRASH/ids"
n=1
while read -r c; do
	side=$(git -C "$G" log -1 --format='%(trailers:key=Postrider-Side,valueonly)' "$c" | sed '/^$/d')
	f=$(printf 'orders/%04d-%s.txt' "$n" "$side")
	git -C "$G" show "$c:$f" | postrider play "$G2" --as "$side" >/dev/null 2>&1 ||
		break
	n=$((n + 1))
done <"$TRASH/ids"
expect_eq "replaying the orders gives the same commit ids (frozen clock and seed)" \
	"$(git -C "$G" rev-parse HEAD)" "$(git -C "$G2" rev-parse HEAD)"

test_done
