# robust-lib.sh - helpers shared by t-crash.sh, t-concurrency.sh and
# t-bad-input.sh (issue: robustness). Source it after tests/e2e/lib.sh.

# fsck_ok DIR: git fsck --full --strict finds no error (dangling objects
# are allowed: a prepared commit that was never published is unreferenced
# garbage by design, src/repo.h). On failure its output is in $TRASH/fsck.
fsck_ok() {
	git -C "$1" fsck --full --strict --no-dangling --no-progress \
		>"$TRASH/fsck" 2>&1 || return 1
	! grep -q -v -E '^(Checking|notice:)' "$TRASH/fsck"
}

# head_of DIR: the commit refs/heads/main points to (empty if none)
head_of() {
	git -C "$1" rev-parse -q --verify refs/heads/main 2>/dev/null
}

# legal_orders DIR: the legal orders now, one per line (without the side)
legal_orders() {
	postrider options "$1" --plain 2>/dev/null | sed -n '2,$p'
}

# side_to_move DIR
side_to_move() {
	postrider options "$1" --plain 2>/dev/null | sed -n 1p
}

# cc_order DIR > FILE: the long opening order: one Committees of
# Correspondence placement in every colony (13 lines), taking for each
# colony the first legal space listed.
cc_order() {
	legal_orders "$1" | awk '{ c = $NF; if (!(c in seen)) { seen[c] = 1; print } }'
}

# rand_list SEED COUNT LO HI: COUNT pseudo-random integers in [LO, HI],
# one a line, the same for the same SEED (awk srand)
rand_list() {
	awk -v seed="$1" -v n="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) print lo + int(rand() * (hi - lo + 1))
	}'
}

# ms_now: milliseconds since the epoch (GNU date)
ms_now() {
	date +%s%3N
}

# expect_unchanged_visible WHAT DIR NAME: like lib.sh's expect_unchanged
# for snapshot NAME, but new loose objects under .git/objects are allowed:
# a commit prepared and then not published leaves unreferenced objects,
# garbage that changes no ref, index entry or file (src/repo.h).
expect_unchanged_visible() {
	snapshot "$2" "$3.after"
	grep -v ' \.git/objects/' "$TRASH/snap.$3" >"$TRASH/snap.$3.v"
	grep -v ' \.git/objects/' "$TRASH/snap.$3.after" >"$TRASH/snap.$3.after.v"
	if cmp -s "$TRASH/snap.$3.v" "$TRASH/snap.$3.after.v"; then
		ok "$1"
	else
		fail "$1" "the game changed (- before, + after):" \
			"$(diff -u "$TRASH/snap.$3.v" "$TRASH/snap.$3.after.v" |
				sed '1,2d' | grep '^[-+]' | head -n 30)"
	fi
}
