#!/bin/sh
#
# Issues 17 and 29: a map a player can plan from. For the set-up, a
# crowded position (the game played on into 1778), a game over, the last
# order's moves and battles, and the positions of self-play with the most
# armies in New Jersey and New York and in New England (build/tests/test_map
# --svg), the SVG is opened in headless Chromium, which measures every
# label with the browser's own fonts (getBBox, tests/e2e/map/geometry.html.in):
# every space has its name, each label is nearer its own space than any
# other, the pieces touch their space, no label overlaps a label or a
# space, no leader can be taken for a connection, no name runs along a
# connection and no connection passes over a space it does not join. The
# same positions are painted as PNG (as mailed), checked against the SVG
# pixel by pixel and kept in $BUILD/artifacts for a person to look at.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

ART=${BUILD:-build}/artifacts
mkdir -p "$ART" "$TRASH/svg"

# picture NAME DIR [--at REF]: the SVG kept for the geometry, the PNG
# checked and kept
picture() {
	_name=$1 _dir=$2
	shift 2
	postrider show "$_dir" --svg "$@" >"$TRASH/svg/$_name.svg" || die "show --svg $_name"
	postrider show "$_dir" --png "$@" >"$ART/map-$_name.png" || die "show --png $_name"
	png_matches "$_name" "$TRASH/svg/$_name.svg" "$ART/map-$_name.png"
}

# png_matches NAME SVG PNG: a PNG, decoded independently, every space
# painted in its SVG colour
png_matches() {
	expect_eq "$1: a PNG picture" "89504e470d0a1a0a" \
		"$(od -An -tx1 -N8 "$3" | tr -d ' \n')"
	/usr/bin/python3 tests/e2e/map/png-matches-svg.py "$2" "$3" 0.75 >"$TRASH/$1.png.out"
	expect_eq "$1: the PNG shows what the SVG says" "ok $(grep -c -e '<circle class="space"[^>]* r="9"' \
		-e '<rect class="space"[^>]* width="18"' "$2")" "$(cat "$TRASH/$1.png.out")"
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
	'<line class="last-move" [^>]*stroke="#9c2a1f"[^>]*marker-end' "$TRASH/svg/march.svg"
expect_grep "the battle it begins is marked" '<circle class="last-battle"' "$TRASH/svg/march.svg"
expect_eq "one arrow: only Howe moved, one step" 1 "$(grep -c 'class="last-move"' "$TRASH/svg/march.svg")"
picture battle-card "$B"
expect_no_grep "a card played in the battle moves nobody: no arrow" 'class="last-move"' \
	"$TRASH/svg/battle-card.svg"
expect_grep "the battle under way is still marked" 'class="last-battle"' "$TRASH/svg/battle-card.svg"
# the mailed report of order 5 carries the same picture
c5=$(git -C "$B" rev-list --reverse HEAD | sed -n 6p)
mail_part "$(report_for "$B" american "$c5")" image/png >"$TRASH/mailed.png"
png_matches mailed "$TRASH/svg/march.svg" "$TRASH/mailed.png"
expect_eq "the mailed map is the map of its turn" "$(md5sum <"$ART/map-march.png")" \
	"$(md5sum <"$TRASH/mailed.png")"

# A march of three steps in one order is drawn step by step along the
# connections it used: Washington from Lexington and Concord by
# Worcester and Springfield to Hartford, not one arrow that would
# suggest a connection from Lexington to Hartford.
W=$TRASH/walk
postrider new "$W" --american "$AMERICAN" --british "$BRITISH" --host "$HOST" \
	--seed 676f6c64656e2063617365732068617665206669786564207365656473212121 \
	>/dev/null 2>&1 || die "new $W"
i=0
while read -r side; do
	i=$((i + 1))
	[ $i -le 3 ] || break
	postrider play "$W" --as "$side" "$TRASH/block.$i" >/dev/null 2>&1 || die "setup order $i"
done <"$TRASH/sides"
echo "first american" | postrider play "$W" --as american >/dev/null 2>&1 || die "first american"
printf 'move 27 Washington\nto Worcester\nto Springfield\nto Hartford\n' |
	postrider play "$W" --as american >/dev/null 2>&1 || die "Washington's march"
picture walk "$W"
expect_eq "the march of three steps is three lines" 3 "$(grep -c 'class="last-move"' "$TRASH/svg/walk.svg")"
expect_eq "... with one arrow head, at its end" 1 "$(grep -c 'class="last-move"[^>]*marker-end' "$TRASH/svg/walk.svg")"

# Self-play's most crowded positions (the engine alone, armies drawn to
# New Jersey, New York and New England)
"$BUILD_DIR/tests/test_map" --svg "$TRASH/selfplay" >"$TRASH/selfplay.out" 2>&1 ||
	die "test_map --svg: $(cat "$TRASH/selfplay.out")"
for f in "$TRASH"/selfplay/*.svg; do
	name=$(basename "$f" .svg)
	cp "$f" "$TRASH/svg/$name.svg"
	cp "$TRASH/selfplay/$name.png" "$ART/map-$name.png"
	png_matches "$name" "$f" "$TRASH/selfplay/$name.png"
done
expect_eq "self-play gave six crowded positions" 6 "$(ls "$TRASH"/selfplay/*.svg | wc -l)"
expect_grep "one with five or more spaces of New Jersey and New York held" \
	'[5-9] pieces in NJ and NY' "$TRASH/selfplay.out"
expect_grep "one with seven or more spaces of New England held" \
	'[7-9] in New England' "$TRASH/selfplay.out"

# Every picture measured in one browser page
/usr/bin/python3 - "$TRASH/svg"/*.svg >"$TRASH/geometry.html" <<'PY'
import os, sys
page = open("tests/e2e/map/geometry.html.in").read()
cases = "".join('<div class="case" data-name="%s">%s</div>\n'
                % (os.path.basename(f)[:-4], open(f).read()) for f in sys.argv[1:])
sys.stdout.write(page.replace("@CASES@", cases))
PY
chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$TRASH/chrome" --dump-dom "file://$TRASH/geometry.html" \
	2>/dev/null | sed -n '/<pre id="result">/,/<\/pre>/p' |
	sed "s/<[^>]*>//g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&#39;/'/g" >"$TRASH/geometry"
for f in "$TRASH/svg"/*.svg; do
	name=$(basename "$f" .svg)
	awk -v name="$name" '/^== / { on = $2 == name; next } on' "$TRASH/geometry" >"$TRASH/$name.geometry"
	expect_grep "$name: the browser measured 79 spaces" '^spaces 79$' "$TRASH/$name.geometry"
	expect_grep "$name: every space has its name" '^names 79$' "$TRASH/$name.geometry"
	expect_eq "$name: every label by its own space, nothing overlaps, connections clear" "" \
		"$(grep -v '^[a-z]* [0-9]*$' "$TRASH/$name.geometry")"
done

# the report carries the PNG inline, as a mail client shows it
R=$(report_for "$G" american)
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
