#!/bin/sh
#
# Issue 17: a map a player can plan from. For the set-up, a crowded
# position (the game played on into 1778) and a game over, the SVG is
# opened in headless Chromium, which measures every label with the
# browser's own fonts (getBBox): no label may overlap another label or a
# space. The same positions are rendered to PNG (as mailed) and kept in
# $BUILD/artifacts for a person to look at; each report carries the PNG
# inline.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ART=${BUILD:-build}/artifacts
mkdir -p "$ART"

# overlaps NAME SVG: the labels of SVG measured in Chromium
overlaps() {
	/usr/bin/python3 -c '
import sys
page = open(sys.argv[1]).read().replace("@SVG@", open(sys.argv[2]).read())
open(sys.argv[3], "w").write(page)' tests/e2e/map/overlap.html.in "$2" "$TRASH/$1.html"
	chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TRASH/chrome" --dump-dom "file://$TRASH/$1.html" \
		2>/dev/null | sed -n '/<pre id="result">/,/<\/pre>/p' |
		sed 's/<[^>]*>//g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' >"$TRASH/$1.overlaps"
	expect_grep "$1: the browser measured the labels" '^labels [1-9][0-9]*$' "$TRASH/$1.overlaps"
	expect_eq "$1: no label overlaps a label or a space" "" \
		"$(grep -v '^labels ' "$TRASH/$1.overlaps")"
}

# picture NAME DIR [--at REF]: the SVG checked, the PNG kept
picture() {
	_name=$1 _dir=$2
	shift 2
	postrider show "$_dir" --svg "$@" >"$TRASH/$_name.svg" || die "show --svg $_name"
	overlaps "$_name" "$TRASH/$_name.svg"
	postrider show "$_dir" --png "$@" >"$ART/map-$_name.png" || die "show --png $_name"
	expect_eq "$_name: a PNG picture" "89504e470d0a1a0a" \
		"$(od -An -tx1 -N8 "$ART/map-$_name.png" | tr -d ' \n')"
	# decoded independently: every space painted in its SVG colour
	/usr/bin/python3 tests/e2e/map/png-matches-svg.py "$TRASH/$_name.svg" \
		"$ART/map-$_name.png" 0.75 >"$TRASH/$_name.png.out"
	expect_eq "$_name: the PNG shows what the SVG says" "ok $(grep -c -e '<circle [^>]*r="9"' \
		-e '<rect [^>]*width="18"' "$TRASH/$_name.svg")" "$(cat "$TRASH/$_name.png.out")"
}

G=$TRASH/game
new_game "$G"
picture setup "$G"

n=0
while [ "$(state_field "$G" year)" != 1778 ] && [ $n -lt 600 ]; do
	play_first_legal "$G" || break
	n=$((n + 1))
done
picture 1776 "$G" --at 1776/4
picture crowded "$G"
expect_exit 0 postrider reveal --abandon "$G"
picture over "$G"

# The last order drawn: the opening of tests/golden/battle-by-mail (its
# seed, so the same deal), where Howe marches from Boston into Lexington
# and Concord and a battle begins there.
B=$TRASH/battle
postrider new "$B" --american "$AMERICAN" --british "$BRITISH" --host "$HOST" \
	--seed 676f6c64656e2063617365732068617665206669786564207365656473212121 \
	>/dev/null 2>&1 || die "new $B"
awk -v dir="$TRASH" '
	/^--- / { n++; print $2 > (dir "/sides"); next }
	{ print > (dir "/block." n) }
' tests/golden/battle-by-mail/setup
i=0
while read -r side; do
	i=$((i + 1))
	touch "$TRASH/block.$i"
	postrider play "$B" --as "$side" "$TRASH/block.$i" >/dev/null 2>&1 || die "setup order $i"
done <"$TRASH/sides"
picture march "$B" --at 5
expect_grep "the march into Lexington is drawn as an arrow" \
	'<line class="last-move" [^>]*stroke="#9c2a1f"' "$TRASH/march.svg"
expect_grep "the battle it begins is marked" '<circle class="last-battle"' "$TRASH/march.svg"
expect_eq "one arrow: only Howe moved" 1 "$(grep -c 'class="last-move"' "$TRASH/march.svg")"
picture battle-card "$B"
expect_no_grep "a card played in the battle moves nobody: no arrow" 'class="last-move"' \
	"$TRASH/battle-card.svg"
expect_grep "the battle under way is still marked" 'class="last-battle"' "$TRASH/battle-card.svg"
# the mailed report of order 5 carries the same picture
c5=$(git -C "$B" rev-list --reverse HEAD | sed -n 6p)
mail_part "$(report_for "$B" american "$c5")" image/svg+xml >"$TRASH/mailed.svg"
expect_grep "the mailed map draws the last order too" 'class="last-move"' "$TRASH/mailed.svg"

# the report carries the PNG inline, as a mail client shows it
R=$(ls "$(outbox "$G")"/new/* | tail -n 1)
expect_grep "the report has the PNG inline" '^Content-Disposition: inline; filename="map.png"' "$R"
/usr/bin/python3 - "$R" >"$TRASH/png.out" <<'PY'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
for part in m.walk():
    if part.get_content_type() == "image/png":
        data = part.get_content()
        w = int.from_bytes(data[16:20], "big"); h = int.from_bytes(data[20:24], "big")
        print("png", data[:8] == b"\x89PNG\r\n\x1a\n", w > 600 and h > 600)
PY
expect_eq "the mailed PNG is a picture of a readable size" "png True True" "$(cat "$TRASH/png.out")"

test_done
