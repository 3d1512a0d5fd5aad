#!/bin/sh
#
# Each report carries its commit as a patch that `git am` accepts, so a
# player's copy of the history stays in step: a clone at commit N plus the
# patch mailed with commit N+1 is the game at N+1, commit id and all; and
# the patches alone, applied to an empty repository, rebuild the whole
# history.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# the CC placements, the British placements, the first cards dealt and played
ORDERS=20
G=$TRASH/game
new_game "$G"
i=0
while [ $i -lt $ORDERS ]; do
	postrider options "$G" --plain >"$TRASH/options"
	sed -n 2p "$TRASH/options" |
		postrider play "$G" --as "$(head -n 1 "$TRASH/options")" \
		>"$TRASH/out" 2>&1 || die "play order $((i + 1)): $(cat "$TRASH/out")"
	i=$((i + 1))
done
git -C "$G" rev-list --reverse HEAD >"$TRASH/commits"
expect_eq "the game has $((ORDERS + 1)) commits" $((ORDERS + 1)) \
	"$(grep -c . "$TRASH/commits")"

mail_parts text/x-patch "$TRASH/patches" "$(outbox "$G")"/new/* \
	2>"$TRASH/parts.err"
expect_eq "every report carries a patch" "" "$(cat "$TRASH/parts.err")"

# patch_of COMMIT SIDE: the patch attached to SIDE's report of COMMIT, in
# $TRASH/patch.SIDE
patch_of() {
	_r=$(report_for "$G" "$2" "$1") || { fail "a $2 report for ${1%${1#???????}}"; return 1; }
	cp "$TRASH/patches/$(basename "$_r")" "$TRASH/patch.$2" 2>"$TRASH/patch.err" ||
		{ fail "the $2 report of ${1%${1#???????}} has a text/x-patch part" \
			"$(cat "$TRASH/patch.err")"; return 1; }
}

# am REPO COMMIT PATCH: git am PATCH in REPO as the host would commit it
# (committer and date of COMMIT in the game)
am() {
	GIT_COMMITTER_NAME=$(git -C "$G" log -1 --format=%cn "$2") \
	GIT_COMMITTER_EMAIL=$(git -C "$G" log -1 --format=%ce "$2") \
	GIT_COMMITTER_DATE=$(git -C "$G" log -1 --format='%ct %cz' "$2") \
		git -C "$1" am -q "$3" >"$TRASH/am.out" 2>&1
}

# --- clone at N, apply the patch of N+1 ---
C=$TRASH/clone
git clone -q "$G" "$C" || die "git clone the game"
n=0
prev=
while read -r c; do
	if [ -n "$prev" ]; then
		short=$(printf %.12s "$c")
		patch_of "$c" american || continue
		patch_of "$c" british || continue
		expect_file_eq "commit $n ($short): both players get the same patch" \
			"$TRASH/patch.american" "$TRASH/patch.british"
		git -C "$C" reset -q --hard "$prev" ||
			{ fail "reset the clone to commit $((n - 1))"; continue; }
		if am "$C" "$c" "$TRASH/patch.american"; then
			ok "commit $n ($short): git am applies the patch"
		else
			fail "commit $n ($short): git am applies the patch" \
				"$(cat "$TRASH/am.out")"
			git -C "$C" am --abort >/dev/null 2>&1
		fi
		expect_eq "commit $n ($short): the clone has the game's tree" \
			"$(git -C "$G" rev-parse "$c^{tree}")" \
			"$(git -C "$C" rev-parse HEAD^{tree})"
		expect_eq "commit $n ($short): the clone has the game's commit" \
			"$c" "$(git -C "$C" rev-parse HEAD)"
	fi
	prev=$c
	n=$((n + 1))
done <"$TRASH/commits"

# --- the first patch is lighter: the component data deflated ---
first=$(head -n 1 "$TRASH/commits")
patch_of "$first" american
expect_grep "the first patch gives data/ as git binary patches" \
	'^ data/cards.yaml *| Bin 0 -> [0-9]* bytes$' "$TRASH/patch.american"
expect_eq "... every file of it" 9 "$(grep -c '^ data/.*| Bin 0 -> ' "$TRASH/patch.american")"
expect_grep "... and the game's own files as text" '^+players:$' "$TRASH/patch.american"
expect_eq "... under half the whole patch's weight" 1 \
	"$([ "$(wc -c <"$TRASH/patch.american")" -lt "$(( $(git -C "$G" format-patch --root -1 --stdout "$first" | wc -c) / 2 ))" ] && echo 1)"

# --- the whole history from the patches alone ---
E=$TRASH/from-mail
git init -q "$E"
n=0
good=0
while read -r c; do
	patch_of "$c" british || break
	if ! am "$E" "$c" "$TRASH/patch.british"; then
		fail "from an empty repository: git am the patch of commit $n" \
			"$(cat "$TRASH/am.out")"
		break
	fi
	n=$((n + 1))
done <"$TRASH/commits"
expect_eq "from an empty repository, the patches rebuild the game's HEAD" \
	"$(git -C "$G" rev-parse HEAD)" "$(git -C "$E" rev-parse HEAD 2>&1)"
expect_eq "... and its files" "" "$(git -C "$E" diff --stat HEAD 2>&1; git -C "$E" status --porcelain)"
expect_fsck "$E"

test_done
