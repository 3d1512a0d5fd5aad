#!/bin/sh
#
# Issue 33: the index of a folder of games (ROOT/.postrider-index) that
# lets `list` and `remind` answer for 10,000 games. It must never
# disagree with the repositories: `list` with it says exactly what
# `list --no-index` (every game read) says after turns, after a game is
# deleted, added by hand or replaced, after the host's clock changes,
# after the index is damaged in any way; `remind` over the folder sends
# what it sends game by game, once.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ROOT=$TRASH/club
IX=$ROOT/.postrider-index
ALL='%i|%a|%b|%y|%n|%s|%p|%t|%r|%d'
mkdir "$ROOT"

# agrees WHAT: list through the index, in both formats, is list reading
# every game; and the index is then up to date (a second run reads
# nothing again).
agrees() {
	postrider list "$ROOT" --format "$ALL" >"$TRASH/with" 2>"$TRASH/with.err"
	s1=$?
	postrider list "$ROOT" --no-index --format "$ALL" >"$TRASH/without" 2>"$TRASH/without.err"
	s2=$?
	expect_file_eq "$1: list agrees with every game read" "$TRASH/without" "$TRASH/with"
	expect_file_eq "$1: and says the same on stderr" "$TRASH/without.err" "$TRASH/with.err"
	expect_eq "$1: and exits alike" "$s2" "$s1"
	postrider list "$ROOT" >"$TRASH/with" 2>/dev/null
	postrider list "$ROOT" --no-index >"$TRASH/without" 2>/dev/null
	expect_file_eq "$1: the plain format too" "$TRASH/without" "$TRASH/with"
	run_cmd postrider index "$ROOT"
	# (a repository that is no game is read every time)
	expect_grep "$1: the index is then up to date" "games, [0-9]* read from the repositor[a-z]*; up to date" "$TRASH/out"
}

new_game "$ROOT/one"
postrider new "$ROOT/two" --american "Carol <carol@example.org>" \
	--british "Dan <dan@example.org>" --host "$HOST" --seed "$SEED" \
	>/dev/null 2>&1 || die "new two"
new_game "$ROOT/three" --deadline 3d
mkdir "$ROOT/notes"	# not a repository: left alone

expect_exit 0 postrider list "$ROOT"
expect_eq "three games listed" 3 "$(grep -c . "$TRASH/out")"
expect_eq "the index is made" yes "$(test -f "$IX" && echo yes)"
expect_eq "the index is the host's alone" 600 "$(stat -c %a "$IX")"
expect_exit 0 postrider index "$ROOT"
expect_fixed "a second run reads no game" "3 games, 0 read from the repositories; up to date" "$TRASH/out"
agrees "new games"

# --- turns --------------------------------------------------------------------
play_first_legal "$ROOT/one"
play_first_legal "$ROOT/one"
expect_exit 0 postrider index "$ROOT"
expect_fixed "after two turns, that game alone is read again" \
	"3 games, 1 read from the repository; written" "$TRASH/out"
play_first_legal "$ROOT/three"
agrees "after turns"
expect_exit 0 postrider reveal --abandon "$ROOT/two"
agrees "after a game ends"

# --- the host's clock, not in the history ---------------------------------------
expect_exit 0 postrider deadline "$ROOT/one" 2d
agrees "after a deadline is set"
# --- games deleted, added by hand, replaced -----------------------------------
rm -rf "$ROOT/two"
agrees "after a game is deleted"
expect_eq "it is gone from the list" 2 "$(postrider list "$ROOT" | grep -c .)"
cp -a "$ROOT/one" "$ROOT/copy"
agrees "after a game is copied in by hand"
git clone -q "$ROOT/three" "$ROOT/clone"
agrees "after a player's clone is put there (no secret)"
rm -rf "$ROOT/copy"
mv "$ROOT/three" "$ROOT/copy"	# another game under a known name
agrees "after a game is renamed over a deleted one"
git -C "$ROOT/one" pack-refs --all
expect_exit 0 postrider index "$ROOT"
expect_fixed "a ref moved to packed-refs is still read cheaply" \
	"3 games, 0 read from the repositories; up to date" "$TRASH/out"
play_first_legal "$ROOT/one"
agrees "after a turn on a packed ref"
git -C "$ROOT/one" checkout -q --detach
agrees "after HEAD leaves main"
git -C "$ROOT/one" checkout -q main
git init -q "$ROOT/broken"
agrees "with a repository that is no game"
expect_exit 1 postrider list "$ROOT"
expect_fixed "it is named" "broken: not a sound game" "$TRASH/err"
rm -rf "$ROOT/broken"

# --- the index damaged --------------------------------------------------------
damaged() {
	expect_exit 0 postrider index "$ROOT"
	expect_fixed "$1: all read again" "3 games, 3 read from the repositories; written" "$TRASH/out"
	agrees "$1"
}
sed -i 's/Alice/Mallory/' "$IX"
damaged "an entry edited (its checksum fails)"
head -c 300 "$IX" >"$TRASH/half" && cp "$TRASH/half" "$IX"
damaged "the index cut short"
echo garbage >>"$IX"
damaged "garbage after it"
: >"$IX"
damaged "the index empty"
printf 'postrider-index 1 0.1.0+1.2.3.4\nsha256 %s\n' \
	"$(printf 'postrider-index 1 0.1.0+1.2.3.4\n' | sha256sum | cut -d' ' -f1)" >"$IX"
damaged "an index written by another build"
# an entry whose checksum holds but whose key names another commit (as if
# a game had been restored from a backup behind the index's back)
awk -F '\t' 'BEGIN { OFS = "\t" } NR > 1 && NF > 2 { $2 = "0000000000000000000000000000000000000000" substr($2, 41); $4 = "Mallory" } /^sha256 / { next } { print }' \
	"$IX" >"$TRASH/forged"
printf 'sha256 %s\n' "$(sha256sum <"$TRASH/forged" | cut -d' ' -f1)" >>"$TRASH/forged"
cp "$TRASH/forged" "$IX"
expect_exit 0 postrider index "$ROOT"
expect_fixed "entries whose key does not match are read again" \
	"3 games, 3 read from the repositories; written" "$TRASH/out"
agrees "entries whose key does not match"
rm -f "$IX"
mkdir "$IX"
agrees_dir() {
	postrider list "$ROOT" >"$TRASH/with"
	postrider list "$ROOT" --no-index >"$TRASH/without"
	expect_file_eq "an index that cannot be written: list still right" "$TRASH/without" "$TRASH/with"
}
agrees_dir
expect_exit 75 postrider index "$ROOT"
expect_fixed "index says it cannot write it" "cannot write" "$TRASH/err"
rmdir "$IX"
expect_exit 0 postrider index "$ROOT" --rebuild
expect_fixed "--rebuild reads every game" "3 games, 3 read from the repositories; written" "$TRASH/out"
expect_exit 2 postrider index "$ROOT/one"
expect_exit 75 postrider index "$TRASH/nowhere"

# a folder whose name holds a tab and a backslash is kept, not read each time
ODD=$TRASH/odd
mkdir "$ODD"
cp -a "$ROOT/one" "$ODD/$(printf 'a\tb\\c')"
expect_exit 0 postrider index "$ODD"
expect_exit 0 postrider index "$ODD"
expect_fixed "an odd folder name is kept in the index" \
	"1 game, 0 read from the repositories; up to date" "$TRASH/out"
expect_exit 0 postrider list "$ODD" --format '%d'
expect_eq "and listed as it is" "$ODD/$(printf 'a\tb\\c')" "$(cat "$TRASH/out")"

# --- remind through the index -----------------------------------------------------
T0=$POSTRIDER_NOW
H=3600
D=86400
at() { _t=$1; shift; env POSTRIDER_NOW=$((T0 + _t)) "$@"; }
R=$TRASH/deadlines
mkdir "$R"
new_game "$R/late" --deadline 3d
new_game "$R/none"
expect_exit 0 at $((D)) postrider remind "$R"
cp "$TRASH/out" "$TRASH/remind1"
expect_fixed "a day in, nothing to send" "nothing to send" "$TRASH/out"
expect_exit 0 postrider index "$R"
expect_fixed "remind made the index" "2 games, 0 read" "$TRASH/out"
expect_exit 0 at $((D)) postrider remind "$R"
expect_file_eq "through the index, remind says the same" "$TRASH/remind1" "$TRASH/out"
expect_exit 0 at $((60 * H)) postrider remind "$R"
expect_fixed "18 hours before, the index does not hide the reminder" \
	"reminded the side to move" "$TRASH/out"
expect_exit 0 at $((61 * H)) postrider remind "$R"
expect_fixed "an hour later, nothing to send" "nothing to send" "$TRASH/out"
expect_eq "one reminder" 1 "$(outbox_list "$R/late" | grep -c '^remind-')"
expect_exit 0 at $((73 * H)) postrider remind "$R"
expect_fixed "past the deadline, both are told" "told both sides the deadline has passed" "$TRASH/out"
expect_exit 0 at $((80 * H)) postrider remind "$R"
expect_eq "never twice" 2 "$(outbox_list "$R/late" | grep -c '^late-')"
expect_exit 0 postrider deadline "$R/none" 1d
expect_exit 0 at $((2 * D)) postrider remind "$R"
expect_fixed "a deadline set since the index was made is seen" \
	"told both sides the deadline has passed" "$TRASH/out"
expect_eq "the other game's notices went" 2 "$(outbox_list "$R/none" | grep -c '^late-')"

test_done
