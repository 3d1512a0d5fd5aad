#!/bin/sh
#
# The host cannot choose which dice a battle uses (issue 28, item 5;
# docs/fairness.md section 19). A VRF proof shows that the die of an input
# is genuine; in version 2 the input is the shared draw index, so a host
# who inserts an undue shuffle before a battle moves the battle onto other
# dice, proves them with his key, and every check without the seed says
# "verified" (shown here: old games keep their version and this limit).
# In version 3 a public draw's input names its order and its place among
# the order's public draws: the same undue shuffle moves no die, dice taken
# from other places or another order are refused by `postrider audit` and
# both Python verifiers, and the replay with the seed names the undue
# shuffle. An undue die (a public draw) stays in the log for every player
# to see; only the replay with the seed can say the rules did not call
# for it, and it is named there. Version 4 (the default since issue 39)
# names a draw by its place among the game's public draws: the same
# undue shuffle moves no die, dice of other places or of version 3's
# input are refused, and an undue die is named by the replay.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

FORGE=tests/e2e/forge-shift.py
VRF=tests/verify/verify_vrf.py
DRAWS=tests/verify/verify_draws.py

# battle_game DIR VERSION: a game of that fairness version played with
# random legal orders (moves first, from a fixed sequence) up to the
# first order whose commit rolls a battle's dice; that order is HEAD.
battle_game() {
	new_game "$1" --fairness "$2"
	play_moves_until "$1" "draw .*combat roll \\(9\\.2\\)" 150 ||
		die "no battle in $PLAYED orders"
}

# dice FILE: the public draw lines a forgery reported, old and new values
# ("OLD => NEW" lines), as "old-values / new-values"
dice() {
	sed 's/^draw [0-9]*: [^ ]* -> \([0-9]*\).* => draw [0-9]*: [^ ]* -> \([0-9]*\).*/\1 \2/' "$1" |
		awk '{ o = o $1 " "; n = n $2 " " } END { print o "/ " n }'
}

# forge NAME GAME ARGS...: a player's clone of GAME with its last commit
# forged by forge-shift.py ARGS; the clone is $TRASH/NAME
forge() {
	_name=$1 _game=$2
	shift 2
	git clone -q "$_game" "$TRASH/$_name" || die "clone"
	"$PY" "$FORGE" "$TRASH/$_name" "$SEED" "$@" >"$TRASH/$_name.dice" 2>"$TRASH/$_name.err" ||
		die "forge $_name: $(cat "$TRASH/$_name.err")"
}

# with_secret CLONE GAME: the clone gets the host's secret (the replay)
with_secret() {
	mkdir -p "$1/.git/postrider"
	cp "$2/.git/postrider/secret" "$1/.git/postrider/secret"
}

# --- version 2: the limit this version keeps -------------------------------
V2=$TRASH/v2
battle_game "$V2" 2
id2=$(sed -n 's/^id: //p' "$V2/game.yaml")
forge v2-shuffle "$V2" --shuffle 5
set -- $(dice "$TRASH/v2-shuffle.dice")
expect_ne "version 2: an undue shuffle moves the battle onto other dice ($*)" \
	"$(echo "$*" | sed 's| / .*||')" "$(echo "$*" | sed 's|.* / ||')"
expect_exit 4 postrider audit "$TRASH/v2-shuffle"
expect_grep "version 2: the audit without the seed says verified" \
	'^verified without the seed' "$TRASH/out"
expect_grep "version 2: and counts the shifted dice as proved" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
expect_exit 0 "$PY" "$VRF" game "$TRASH/v2-shuffle"
expect_grep "version 2: verify_vrf.py says verified" '^verified ' "$TRASH/out"
git -C "$TRASH/v2-shuffle" show HEAD:log.txt >"$TRASH/v2.log"
expect_exit 0 "$PY" "$DRAWS" "$SEED" "$TRASH/v2.log" --vrf "$id2"
expect_grep "version 2: verify_draws.py, even with the seed, says verified" \
	'^verified: ' "$TRASH/out"
expect_exit 4 postrider audit "$V2"
expect_grep "version 2: the honest game still replays under its version" '^verified: ' "$TRASH/out"
with_secret "$TRASH/v2-shuffle" "$V2"
expect_exit 1 postrider audit "$TRASH/v2-shuffle"
expect_grep "version 2: only the replay with the seed finds the shift" \
	'differs from the replay' "$TRASH/out"

# --- version 3 ---------------------------------------------------------------
V3=$TRASH/v3
battle_game "$V3" 3
id3=$(sed -n 's/^id: //p' "$V3/game.yaml")
git clone -q "$V3" "$TRASH/v3-honest"
expect_exit 4 postrider audit "$TRASH/v3-honest"
expect_grep "version 3: the honest game passes the audit without the seed" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
expect_exit 0 "$PY" "$VRF" game "$TRASH/v3-honest"
expect_grep "version 3: and verify_vrf.py" '^verified ' "$TRASH/out"
git -C "$V3" show HEAD:log.txt >"$TRASH/v3.log"
expect_exit 0 "$PY" "$DRAWS" "$SEED" "$TRASH/v3.log" --vrf3 "$id3"
expect_grep "version 3: and verify_draws.py with the seed" '^verified: ' "$TRASH/out"
expect_exit 4 postrider audit "$V3"
expect_grep "version 3: and the host's replay" '^verified: ' "$TRASH/out"

# The same undue shuffle, every die proved anew for its input: no die moves.
forge v3-shuffle "$V3" --shuffle 5
set -- $(dice "$TRASH/v3-shuffle.dice")
expect_eq "version 3: an undue shuffle moves no die" \
	"$(echo "$*" | sed 's| / .*||')" "$(echo "$*" | sed 's|.* / ||')"
expect_exit 4 postrider audit "$TRASH/v3-shuffle"
expect_grep "version 3: the dice are the due ones, so the proofs pass" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
with_secret "$TRASH/v3-shuffle" "$V3"
expect_exit 1 postrider audit "$TRASH/v3-shuffle"
expect_grep "version 3: the replay with the seed finds the undue shuffle" \
	'differs from the replay' "$TRASH/out"

# The host moves the battle onto the dice of later places anyway.
for shift in 1 2; do
	forge v3-place$shift "$V3" --shuffle 5 --place-shift $shift
	expect_exit 1 postrider audit "$TRASH/v3-place$shift"
	expect_grep "version 3, dice of $shift places on: the audit without the seed refuses them" \
		"the proof of draw [0-9]* in proofs.txt does not verify" "$TRASH/out"
	expect_exit 1 "$PY" "$VRF" game "$TRASH/v3-place$shift"
	expect_grep "version 3, dice of $shift places on: verify_vrf.py refuses them" \
		'^fails: .*does not verify' "$TRASH/out"
	git -C "$TRASH/v3-place$shift" show HEAD:log.txt >"$TRASH/v3p.log"
	expect_exit 1 "$PY" "$DRAWS" "$SEED" "$TRASH/v3p.log" --vrf3 "$id3"
	expect_grep "version 3, dice of $shift places on: verify_draws.py refuses them" \
		'^mismatch: ' "$TRASH/out"
done

# A version 2 host's forgery of a version 3 game (the index in the input).
forge v3-as-v2 "$V3" --shuffle 5 --as-version 2
expect_exit 1 postrider audit "$TRASH/v3-as-v2"
expect_grep "version 3: proofs of the shifted index are refused" \
	"the proof of draw [0-9]* in proofs.txt does not verify" "$TRASH/out"
expect_exit 1 "$PY" "$VRF" game "$TRASH/v3-as-v2"
expect_grep "version 3: verify_vrf.py refuses them too" '^fails: ' "$TRASH/out"

# Another order's dice: the order named in the input is the side's count.
forge v3-order "$V3" --order-shift 1
expect_exit 1 postrider audit "$TRASH/v3-order"
expect_grep "version 3: the dice of another order are refused" \
	"the proof of draw [0-9]* in proofs.txt does not verify" "$TRASH/out"
expect_exit 1 "$PY" "$VRF" game "$TRASH/v3-order"
expect_grep "version 3: verify_vrf.py refuses another order's dice" '^fails: ' "$TRASH/out"

# An undue die: in the log for all to see, and the later dice of the same
# order take the next places; the replay with the seed names it.
forge v3-die "$V3" --die
expect_exit 4 postrider audit "$TRASH/v3-die"
expect_grep "version 3: an undue die is proved like any die without the seed" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
with_secret "$TRASH/v3-die" "$V3"
expect_exit 1 postrider audit "$TRASH/v3-die"
expect_grep "version 3: the replay with the seed names the undue die" \
	'differs from the replay' "$TRASH/out"

# --- version 4 ---------------------------------------------------------------
V4=$TRASH/v4
new_game "$TRASH/default"
expect_grep "a new game is of version 4 by default" '^  version: 4$' "$TRASH/default/game.yaml"
battle_game "$V4" 4
id4=$(sed -n 's/^id: //p' "$V4/game.yaml")
git clone -q "$V4" "$TRASH/v4-honest"
expect_exit 4 postrider audit "$TRASH/v4-honest"
expect_grep "version 4: the honest game passes the audit without the seed" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
expect_exit 0 "$PY" "$VRF" game "$TRASH/v4-honest"
expect_grep "version 4: and verify_vrf.py" '^verified ' "$TRASH/out"
git -C "$V4" show HEAD:log.txt >"$TRASH/v4.log"
expect_exit 0 "$PY" "$DRAWS" "$SEED" "$TRASH/v4.log" --vrf4 "$id4"
expect_grep "version 4: and verify_draws.py with the seed" '^verified: ' "$TRASH/out"
expect_exit 4 postrider audit "$V4"
expect_grep "version 4: and the host's replay" '^verified: ' "$TRASH/out"

forge v4-shuffle "$V4" --shuffle 5
set -- $(dice "$TRASH/v4-shuffle.dice")
expect_eq "version 4: an undue shuffle moves no die" \
	"$(echo "$*" | sed 's| / .*||')" "$(echo "$*" | sed 's|.* / ||')"
expect_exit 4 postrider audit "$TRASH/v4-shuffle"
expect_grep "version 4: the dice are the due ones, so the proofs pass" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
with_secret "$TRASH/v4-shuffle" "$V4"
expect_exit 1 postrider audit "$TRASH/v4-shuffle"
expect_grep "version 4: the replay with the seed finds the undue shuffle" \
	'differs from the replay' "$TRASH/out"

forge v4-place "$V4" --shuffle 5 --place-shift 1
expect_exit 1 postrider audit "$TRASH/v4-place"
expect_grep "version 4, dice of the next places: the audit without the seed refuses them" \
	"the proof of draw [0-9]* in proofs.txt does not verify" "$TRASH/out"
expect_exit 1 "$PY" "$VRF" game "$TRASH/v4-place"
expect_grep "version 4, dice of the next places: verify_vrf.py refuses them" \
	'^fails: .*does not verify' "$TRASH/out"
git -C "$TRASH/v4-place" show HEAD:log.txt >"$TRASH/v4p.log"
expect_exit 1 "$PY" "$DRAWS" "$SEED" "$TRASH/v4p.log" --vrf4 "$id4"
expect_grep "version 4, dice of the next places: verify_draws.py refuses them" \
	'^mismatch: ' "$TRASH/out"

forge v4-as-v3 "$V4" --as-version 3
expect_exit 1 postrider audit "$TRASH/v4-as-v3"
expect_grep "version 4: dice proved for version 3's input are refused" \
	"the proof of draw [0-9]* in proofs.txt does not verify" "$TRASH/out"
expect_exit 1 "$PY" "$VRF" game "$TRASH/v4-as-v3"
expect_grep "version 4: verify_vrf.py refuses them too" '^fails: ' "$TRASH/out"

forge v4-die "$V4" --die
expect_exit 4 postrider audit "$TRASH/v4-die"
expect_grep "version 4: an undue die is proved like any die without the seed" \
	'^verified [0-9]* dice without any secret' "$TRASH/out"
with_secret "$TRASH/v4-die" "$V4"
expect_exit 1 postrider audit "$TRASH/v4-die"
expect_grep "version 4: the replay with the seed names the undue die" \
	'differs from the replay' "$TRASH/out"

test_done
