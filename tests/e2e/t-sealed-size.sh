#!/bin/sh
#
# Issue 28, item 4, and issue 39, item 1: a sealed choice does not show in the size of anything
# the other side sees. Two games are played alike except for one side's
# sealed lines: held-over lines of different lengths (`discard 80` or
# `discard paul revere`), and a standing order (`if battle: none` or `if battle:
# discard robert morris`). After the order, the other side's view of each
# game is weighed: every blob of the commit, the commit object, the patch
# of the commit, and every mail the order put in the outbox for the other
# side (whole, its text and its patch). The two lists of sizes must be
# equal, while the games did differ (their sealed files and the sender's
# own report are not the same bytes). docs/fairness.md, "Sizes".

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# setup_to_battle DIR: the golden case's way to the first battle
setup_to_battle() {
	play_golden_setup "$1" tests/golden/held-over-wait/setup
}

# weigh DIR SIDE BEFORE: what SIDE can see of the game's last commit, one
# "what size" a line: the blobs, the commit object, its patch, and the
# mails for SIDE added to the outbox since the list BEFORE was taken
weigh() {
	git -C "$1" ls-tree -r -l HEAD | awk '{ print "blob " $5 " " $4 }'
	echo "commit $(git -C "$1" cat-file commit HEAD | wc -c)"
	echo "patch $(git -C "$1" format-patch -1 --stdout HEAD | wc -c)"
	outbox_added "$1" "$3" >"$TRASH/added"
	_k=0
	while read -r _f; do
		case $_f in
		*-"$2".*) ;;
		*) continue ;;
		esac
		_k=$((_k + 1))
		_m=$(outbox "$1")/new/$_f
		echo "mail $_k $(wc -c <"$_m")"
		echo "mail $_k text $(mail_part "$_m" text/plain | wc -c)"
		echo "mail $_k patch $(mail_part "$_m" text/x-patch 2>/dev/null | wc -c)"
	done <"$TRASH/added"
	echo "mails $_k"
}

# play_both ORDER-A ORDER-B SIDE OTHER: plays ORDER-A in game A and ORDER-B
# in game B as SIDE, and weighs what OTHER sees of each
play_both() {
	for _g in A B; do
		outbox_list "$TRASH/$_g" >"$TRASH/before.$_g"
		[ $_g = A ] && _o=$1 || _o=$2
		printf '%s\n' "$_o" >"$TRASH/order.$_g"
		postrider play "$TRASH/$_g" --as "$3" "$TRASH/order.$_g" >/dev/null 2>"$TRASH/err" ||
			die "game $_g, the $3's order: $(cat "$TRASH/err")"
		weigh "$TRASH/$_g" "$4" "$TRASH/before.$_g" >"$TRASH/sizes.$_g"
	done
}

# differ WHAT: the two games did not play the same sealed lines
differ() {
	expect_ne "$1: the sealed files differ" \
		"$(git -C "$TRASH/A" rev-parse HEAD:private/state.sealed)" \
		"$(git -C "$TRASH/B" rev-parse HEAD:private/state.sealed)"
}

# fresh_pair: games A and B, alike, at the first battle
fresh_pair() {
	rm -rf "$TRASH/A" "$TRASH/B"
	new_golden_game "$TRASH/A"
	new_golden_game "$TRASH/B"
	setup_to_battle "$TRASH/A"
	setup_to_battle "$TRASH/B"
}

fresh_pair

# 1. held-over lines of different lengths: the American sees the same sizes
play_both "$(printf 'move 23 Howe\nto Lexington\ndiscard 80')" \
	"$(printf 'move 23 Howe\nto Lexington\ndiscard paul revere')" british american
differ "held-over lines"
expect_grep "the held line waits in game A" "discard 80" "$(report_for "$TRASH/A" british)"
expect_grep "the held line waits in game B" "discard paul revere" "$(report_for "$TRASH/B" british)"
expect_grep "the American is mailed" '^mails [1-9]' "$TRASH/sizes.A"
expect_file_eq "held-over lines: every size the American sees is the same" \
	"$TRASH/sizes.A" "$TRASH/sizes.B"

# 1b. a comment of its own line in the held-over part is sealed with it
# (it may speak of the held lines): neither its text nor its length shows
fresh_pair
play_both "$(printf 'move 23 Howe\nto Lexington\n# short\ndiscard 80')" \
	"$(printf 'move 23 Howe\nto Lexington\n# keep Paul Revere: he will stand\ndiscard 80')" \
	british american
git -C "$TRASH/B" show HEAD >"$TRASH/commit-b"
expect_no_grep "the comment is not in the commit" 'Paul Revere: he will' "$TRASH/commit-b"
expect_no_grep "nor in the American's mail" 'Paul Revere: he will' "$(report_for "$TRASH/B" american)"
expect_eq "the order file marks it sealed" 2 \
	"$(git -C "$TRASH/B" show HEAD:orders/0005-british.txt | grep -c '^# (a line sealed until it runs')"
expect_file_eq "a held-over comment: every size the American sees is the same" \
	"$TRASH/sizes.A" "$TRASH/sizes.B"
printf 'stand\n' >"$TRASH/stand"
expect_exit 0 postrider play "$TRASH/B" --as american "$TRASH/stand"
expect_exit 4 postrider audit "$TRASH/B"
expect_grep "the replay puts the sealed comment back" '^verified: ' "$TRASH/out"

# 1c. issue 39, item 4: everything after the first sealed line is sealed:
# a comment and a sign-off written after a held-over line (after the last
# order line, where they used to stay in clear in the order file and the
# patch) show neither their text nor their length
# seen_by DIR SIDE: what SIDE receives and can fetch of the last commit, as
# text: the commit with its files, his mail's text and its patch
seen_by() {
	git -C "$1" show HEAD
	git -C "$1" show HEAD:log.txt
	mail_part "$(report_for "$1" "$2")" text/plain
	mail_part "$(report_for "$1" "$2")" text/x-patch
}
fresh_pair
play_both "$(printf 'move 23 Howe\nto Lexington\ndiscard 80\n# x\n\nBest,\nB.')" \
	"$(printf 'move 23 Howe\nto Lexington\ndiscard 80\n# Paul Revere rides for this one\n\nYours ever, and thanks for the game\nBanastre')" \
	british american
seen_by "$TRASH/B" american >"$TRASH/seen-b"
expect_no_fixed "the comment after the held line reaches the American nowhere" 'Revere rides' "$TRASH/seen-b"
expect_no_fixed "nor the sign-off" 'thanks for the game' "$TRASH/seen-b"
expect_no_fixed "nor the name under it" 'Banastre' "$TRASH/seen-b"
expect_eq "the order file marks the held line, the comment and the two lines of the sign-off" 4 \
	"$(git -C "$TRASH/B" show HEAD:orders/0005-british.txt | grep -c '^# (a line sealed until it runs')"
expect_file_eq "a comment and a sign-off after the held line: every size the American sees is the same" \
	"$TRASH/sizes.A" "$TRASH/sizes.B"
expect_exit 0 postrider play "$TRASH/B" --as american "$TRASH/stand"
expect_exit 4 postrider audit "$TRASH/B"
expect_grep "the replay puts the sealed notes back" '^verified: ' "$TRASH/out"

# 2. standing orders of different lengths: the British sees the same sizes
fresh_pair
play_both "$(printf 'if attacked at lexington: stand\nif battle: none')" \
	"$(printf 'if attacked at lexington: stand\nif battle: discard robert morris')" \
	american british
differ "standing orders"
expect_grep "the American's own report lists game A's order" '^  if battle: none' \
	"$(report_for "$TRASH/A" american)"
expect_grep "and game B's" '^  if battle: discard 107' "$(report_for "$TRASH/B" american)"
expect_grep "the British is mailed" '^mails [1-9]' "$TRASH/sizes.A"
expect_file_eq "standing orders: every size the British sees is the same" \
	"$TRASH/sizes.A" "$TRASH/sizes.B"

# 2b. the same around a standing order (a sealed line): the comment before
# it, a comment after it (of its own line, or at the end of a line that
# runs) and the sign-off are sealed, and the sign-off is not quoted in the
# log's "Set aside" line either
fresh_pair
play_both "$(printf '# x\nif attacked at lexington: stand\nif battle: none\nnever intercept # y\n# x\nAl')" \
	"$(printf '# I hold Morris back\nif attacked at lexington: stand\nif battle: discard robert morris\nnever intercept # keep Morris\n# Morris pays for this battle\nAll the best, Abigail')" \
	american british
seen_by "$TRASH/B" british >"$TRASH/seen-b"
expect_no_fixed "the comment before a standing order reaches the British nowhere" 'hold Morris' "$TRASH/seen-b"
expect_no_fixed "nor one at the end of a line after it, which ran" 'keep Morris' "$TRASH/seen-b"
expect_fixed "while what that line did is in the log" 'American standing reaction: never intercept' "$TRASH/B/log.txt"
expect_no_fixed "the comment after a standing order reaches the British nowhere" 'Morris pays' "$TRASH/seen-b"
expect_no_fixed "nor the sign-off" 'All the best' "$TRASH/seen-b"
expect_no_fixed "the log quotes no sealed sign-off" 'Set aside' "$TRASH/B/log.txt"
expect_file_eq "a comment and a sign-off after a standing order: every size the British sees is the same" \
	"$TRASH/sizes.A" "$TRASH/sizes.B"

# 3. the audit still replays both (the padding is reproduced byte for byte)
for _g in A B; do
	expect_exit 4 postrider audit "$TRASH/$_g"
	expect_grep "game $_g: the host's replay verifies every commit" '^verified: ' "$TRASH/out"
done

# 3b. issue 39, item 1: the size class is no probe. The British seals a
# standing order (`if battle: none` or `if battle: discard 80`); the
# American then pads his own standing order one blank at a time (a
# standing order keeps the blanks he types in his sealed lines). With one
# room for both sides, the public size of private/state.sealed jumped at
# another pad in each game, which told him whether the British holds a card
# back. Each side's room is padded on its own now: at every pad the size is
# the same in both games. The fine window holds the pads where the shared
# room changed class (815 and 827); the coarse one goes through the
# American's own classes, which his pads may move.
probe_pads() {
	_p=808
	while [ $_p -le 834 ]; do
		echo $_p
		_p=$((_p + 1))
	done
	_p=0
	while [ $_p -le 950 ]; do
		echo $_p
		_p=$((_p + 95))
	done
}
for _pg in A B; do
	rm -rf "$TRASH/P$_pg"
	new_golden_game "$TRASH/P$_pg"
	setup_to_battle "$TRASH/P$_pg"
	[ $_pg = A ] && _o='if battle: none' || _o='if battle: discard 80'
	printf '%s\n' "$_o" >"$TRASH/order.$_pg"
	postrider play "$TRASH/P$_pg" --as british "$TRASH/order.$_pg" >/dev/null 2>"$TRASH/err" ||
		die "game $_pg, the British standing order: $(cat "$TRASH/err")"
	: >"$TRASH/probe.$_pg"
	for _p in $(probe_pads); do
		printf 'if attacked at lexington:%*sstand\n' "$_p" '' >"$TRASH/order.$_pg"
		postrider play "$TRASH/P$_pg" --as american "$TRASH/order.$_pg" >/dev/null 2>"$TRASH/err" ||
			die "game $_pg, pad $_p: $(cat "$TRASH/err")"
		echo "pad $_p: $(git -C "$TRASH/P$_pg" cat-file -s HEAD:private/state.sealed)" >>"$TRASH/probe.$_pg"
	done
done
expect_ne "the probe's two games differ in what the British sealed" \
	"$(git -C "$TRASH/PA" rev-parse HEAD:private/state.sealed)" \
	"$(git -C "$TRASH/PB" rev-parse HEAD:private/state.sealed)"
expect_file_eq "the probe: at every pad of the American the sealed size is the same whatever the British sealed" \
	"$TRASH/probe.A" "$TRASH/probe.B"
expect_ne "the American's own pads do move his size class" 1 \
	"$(sed 's/^pad [0-9]*: //' "$TRASH/probe.A" | sort -u | awk 'END { print NR }')"
for _pg in A B; do
	expect_exit 4 postrider audit "$TRASH/P$_pg"
	expect_grep "game $_pg of the probe: the replay verifies every commit" '^verified: ' "$TRASH/out"
done

# 4. a game sealed before the padding (format v2, tests/fixtures/sealed-v2:
# made by the postrider of commit 271c1b5) loads, plays on in v4, audits
# and verifies; its last v2 commit holds a standing order and a held line
OLD_SEED=676f6c64656e2063617365732068617665206669786564207365656473212121
O=$TRASH/old
git clone -q -b main tests/fixtures/sealed-v2/game.bundle "$O" || die "clone the old game"
mkdir -p "$O/.git/postrider"
(umask 077 && echo "$OLD_SEED" >"$O/.git/postrider/secret")
expect_eq "the old game is sealed in v2" "postrider-sealed v2 seq 6" "$(head -n 1 "$O/private/state.sealed")"
expect_exit 4 postrider audit "$O"
expect_grep "the old game audits as it was written" '^verified: 7 commits' "$TRASH/out"
expect_exit 0 postrider show "$O" --as british
expect_grep "its sealed hand opens" '#80 Paul Revere' "$TRASH/out"
printf 'stand\n' >"$TRASH/stand"
expect_exit 0 postrider play "$O" --as american "$TRASH/stand"
expect_grep "the sealed standing order and held line run" \
	'The Americans discard #107 Robert Morris' "$O/log.txt"
expect_eq "the new commit is sealed in v4" "postrider-sealed v4 seq 7" "$(head -n 1 "$O/private/state.sealed")"
expect_exit 4 postrider audit "$O"
expect_grep "v2 then v4 audits" '^verified: 8 commits' "$TRASH/out"
expect_exit 0 postrider reveal --abandon "$O"
expect_exit 0 "$PY" tests/verify/verify_shuffles.py "$O"
expect_grep "the independent verifier opens both formats" '^verified: 1 shuffles in 9 commits' "$TRASH/out"

# 4b. a game sealed before each side had a room of its own (format v3,
# fairness version 3, tests/fixtures/sealed-v3: made by the postrider of
# commit 3a1c728) audits as it was written, plays on in v4, audits and
# verifies; one of its v3 commits seals both sides' standing orders and a
# held line, its last the battle's dice
O=$TRASH/old3
git clone -q -b main tests/fixtures/sealed-v3/game.bundle "$O" || die "clone the v3 game"
mkdir -p "$O/.git/postrider"
(umask 077 && echo "$OLD_SEED" >"$O/.git/postrider/secret")
expect_eq "the v3 game is sealed in v3" "postrider-sealed v3 seq 8" "$(head -n 1 "$O/private/state.sealed")"
expect_exit 4 postrider audit "$O"
expect_grep "the v3 game audits as it was written" '^verified: 9 commits' "$TRASH/out"
expect_grep "its dice are proved under fairness version 3" '^verified 6 dice without any secret' "$TRASH/out"
printf 'retreat worcester\n' >"$TRASH/retreat"
expect_exit 0 postrider play "$O" --as american "$TRASH/retreat"
expect_eq "the new commit is sealed in v4" "postrider-sealed v4 seq 9" "$(head -n 1 "$O/private/state.sealed")"
expect_exit 4 postrider audit "$O"
expect_grep "v3 then v4 audits" '^verified: 10 commits' "$TRASH/out"
expect_exit 0 "$PY" tests/verify/verify_vrf.py game "$O"
expect_grep "the independent verifier checks the v3 dice" '^verified 6 dice' "$TRASH/out"
expect_exit 0 postrider reveal --abandon "$O"
expect_exit 0 "$PY" tests/verify/verify_shuffles.py "$O"
expect_grep "the independent verifier opens v3 and v4" '^verified: 1 shuffles in 11 commits' "$TRASH/out"

# 5. a v2 or v3 state after a v4 one is an error of the audit: the last
# order of game A sealed again in v3, then in v2 (the same text, by the
# Python verifier)
git -C "$TRASH/A" show HEAD:private/state.sealed >"$TRASH/v4"
for _fmt in 3 2; do
	"$PY" - "$OLD_SEED" "$(state_field "$TRASH/A" seq)" "$TRASH/v4" $_fmt >"$TRASH/old.sealed" <<'PYEOF' || die "resealing"
import sys
sys.path.insert(0, "tests/verify")
import verify_shuffles as v
seed, seq, fmt = bytes.fromhex(sys.argv[1]), int(sys.argv[2]), int(sys.argv[4])
sealed = open(sys.argv[3], "rb").read()
text = v.unseal(seed, seq, sealed).encode()
# v3: the same size as the v4 file held (its padded plain text)
size = len(v.base64.b64decode(sealed.partition(b"\n")[2].replace(b"\n", b""))) - 28
sys.stdout.buffer.write(v.seal(seed, seq, text, fmt, size))
PYEOF
	cp "$TRASH/old.sealed" "$TRASH/A/private/state.sealed"
	git -C "$TRASH/A" commit -q --amend -a --no-edit || die "amend"
	expect_exit 0 postrider show "$TRASH/A" --as american
	expect_exit 1 postrider audit "$TRASH/A"
	cat "$TRASH/err" >>"$TRASH/out"
	expect_grep "the audit names the step back to v$_fmt" "format v$_fmt after one of format v4" "$TRASH/out"
done

test_done
