#!/bin/sh
#
# Issue 19: a finished game, played through the command line, becomes a
# record: `postrider archive` writes the history as a git bundle (cloned
# and audited from the bundle here), the result, a summary and a replay
# page, which headless Chromium opens from the file: no console error, the
# arrow keys step forward and back and change the board, the last step
# shows the result, a deep link opens its step. Screenshots are kept in
# $BUILD/artifacts for a person to look at.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ART=${BUILD:-build}/artifacts
mkdir -p "$ART"
G=$TRASH/game
new_game "$G"
n=0
while [ $n -lt 3000 ]; do
	play_first_legal "$G" || break
	n=$((n + 1))
done
expect_eq "the game was played to its end" none "$(head -n 1 "$TRASH/opts")"

A=$TRASH/archive
expect_exit 1 postrider archive "$G" "$A"
expect_fixed "a game whose seed is secret is not archived" "run 'postrider reveal" "$TRASH/err"
expect_exit 0 postrider reveal "$G"
expect_exit 0 postrider archive "$G" "$A"
for f in game.bundle result.txt summary.yaml replay.html; do
	expect_eq "the archive holds $f" yes "$([ -s "$A/$f" ] && echo yes)"
done
expect_exit 1 postrider archive "$G" "$A"
expect_fixed "an existing folder is not overwritten" "exists already" "$TRASH/err"

winner=$(sed -n 's/^  winner: //p' "$G/state.yaml")
expect_grep "result.txt names the winner" \
	"^The $( [ "$winner" = american ] && echo Americans || echo British) win in " "$A/result.txt"
expect_grep "summary.yaml counts the orders" "^orders: {american: [0-9]*, british: [0-9]*, total: $n}" "$A/summary.yaml"
expect_grep "summary.yaml gives the result" "^result: {winner: $winner, " "$A/summary.yaml"

# the colonies: those the board shows at the end, whatever the ending
# (issue 30: an abandoned game said 0/0 while the replay showed 11/2)
colonies_shown() {	# the board's "If the war ended now" count, as summary.yaml writes it
	postrider show "$1" --as american |
		sed -n 's/^If the war ended now: the Americans control \([0-9]*\) colonies.*/\1/p;
			s/^the British \([0-9]*\) (they need.*/\1/p' | tr '\n' ' '
}
expect_eq "summary.yaml: the colonies the board shows at the end" "$(colonies_shown "$G")" \
	"$(sed -n 's/^colonies_at_end: {american: \([0-9]*\), british: \([0-9]*\)}$/\1 \2 /p' "$A/summary.yaml")"
G2=$TRASH/abandoned
new_game "$G2"
for i in 1 2 3 4 5 6 7 8; do play_first_legal "$G2"; done
expect_exit 0 postrider reveal --abandon "$G2"
expect_exit 0 postrider archive "$G2" "$TRASH/archive2"
shown=$(colonies_shown "$G2")
expect_ne "an abandoned game: the board shows colonies" "0 0 " "$shown"
expect_eq "an abandoned game: summary.yaml has the board's colonies" "$shown" \
	"$(sed -n 's/^colonies_at_end: {american: \([0-9]*\), british: \([0-9]*\)}$/\1 \2 /p' "$TRASH/archive2/summary.yaml")"
expect_eq "an abandoned game: result.txt has them too" \
	"Colonies controlled at the end (Canada counts): American ${shown%% *}, British $(echo $shown | cut -d' ' -f2)." \
	"$(grep '^Colonies controlled' "$TRASH/archive2/result.txt")"

# the bundle: cloned with plain git, audited by postrider
git clone -q "$A/game.bundle" "$TRASH/from-bundle" 2>"$TRASH/clone.err"
expect_eq "git clone of the bundle gives the whole history" \
	"$(git -C "$G" rev-parse HEAD)" "$(git -C "$TRASH/from-bundle" rev-parse HEAD 2>&1)"
expect_exit 4 postrider audit "$A/game.bundle"
expect_grep "audit from the bundle replays every commit" \
	"^verified: $(commit_count "$G") commits" "$TRASH/out"
printf 'not a bundle\n' >"$TRASH/junk.bundle"
expect_exit 1 postrider audit "$TRASH/junk.bundle"

# the replay, in a real browser
chrome() {
	chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --user-data-dir="$TRASH/chrome" \
		--enable-logging=stderr --v=0 "$@"
}
URL="file://$(cd "$A" && pwd)/replay.html"
chrome --dump-dom "$URL#selftest" >"$TRASH/selftest.html" 2>"$TRASH/chrome.err"
sed -n 's/.*<pre id="selftest"[^>]*>\([^<]*\)<\/pre>.*/\1/p' "$TRASH/selftest.html" |
	sed 's/&quot;/"/g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' >"$TRASH/selftest.json"
expect_ne "the page ran its self-test" "" "$(cat "$TRASH/selftest.json")"
/usr/bin/python3 - "$TRASH/selftest.json" "$(commit_count "$G")" >"$TRASH/selftest.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
print("steps", r["steps"] == n)
print("keys", [r[k]["step"] for k in ("start", "right", "right2", "left", "end")] == [0, 1, 2, 1, n - 1])
print("board", r["start"]["status"] != r["right2"]["status"] or r["start"]["now"] != r["right2"]["now"])
print("back", r["left"]["status"] == r["right"]["status"] and r["left"]["now"] == r["right"]["now"])
print("over", r["end"]["now"] == "The game is over." and "result" in r["end"]["status"].lower() or "win" in r["end"]["status"].lower())
PY
expect_eq "one step per commit" "steps True" "$(grep '^steps' "$TRASH/selftest.out")"
expect_eq "the arrow keys step forward and back" "keys True" "$(grep '^keys' "$TRASH/selftest.out")"
expect_eq "stepping changes the board" "board True" "$(grep '^board' "$TRASH/selftest.out")"
expect_eq "a step back shows that step again" "back True" "$(grep '^back' "$TRASH/selftest.out")"
expect_eq "the last step shows the end" "over True" "$(grep '^over' "$TRASH/selftest.out")"
expect_no_grep "no console message at all (errors included)" ":CONSOLE" "$TRASH/chrome.err"

chrome --dump-dom "$URL#step-5" >"$TRASH/step5.html" 2>"$TRASH/chrome5.err"
expect_grep "a deep link opens its step" '<body data-step="5"' "$TRASH/step5.html"
expect_grep "the deep link's step names its order" 'step 5 of ' "$TRASH/step5.html"

chrome --screenshot="$ART/replay-step-5.png" --window-size=1500,1100 "$URL#step-5" >/dev/null 2>&1
chrome --screenshot="$ART/replay-last.png" --window-size=1500,1100 "$URL#step-$(( $(commit_count "$G") - 1 ))" >/dev/null 2>&1
expect_eq "screenshots are kept for review" yes \
	"$([ -s "$ART/replay-step-5.png" ] && [ -s "$ART/replay-last.png" ] && echo yes)"

test_done
