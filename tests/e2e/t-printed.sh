#!/bin/sh
# t-printed.sh - an owner puts the printed game in (issue 32): the shipped
# data written as sheets, changed as an owner would change them (other
# titles, other card numbers, a changed connection, a card carried out by
# primitive actions, sources that cite the card), imported into a data set
# that two hosts get byte for byte alike; a whole self-play run on it; a
# game made with it records its name and hash, names it in every report,
# shows the new titles unmarked, and passes the audit.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

S=$TRASH/sheets
postrider data sheet "$S" >"$TRASH/sheet.out" 2>&1 || die "data sheet: $(cat "$TRASH/sheet.out")"
for f in cards colonies connections generals numbers setup spaces turns zones; do
	[ -s "$S/$f.tsv" ] || die "no sheet $f.tsv"
done
ok "data sheet writes the nine sheets"

# The owner's changes, one cell at a time, as in a spreadsheet.
$PY - "$S" <<'PY' || die "changing the sheets"
import sys
d = sys.argv[1]
def edit(name, fn):
    rows = [r.split('\t') for r in open(f"{d}/{name}", encoding="utf-8").read().split('\n')]
    head = rows[0]
    for r in rows[1:]:
        if len(r) == len(head):
            fn(dict(zip(head, range(len(head)))), r)
    open(f"{d}/{name}", "w", encoding="utf-8").write('\n'.join('\t'.join(r) for r in rows))
def cards(c, r):
    n = r[c['number']]
    # other numbers: Revere's Ride and Tory Raids swap theirs
    if n == '80': r[c['number']] = '110'
    elif n == '110': r[c['number']] = '80'
    # other titles, and sources that cite the owner's card
    if r[c['ops']] == '' and n not in ('95', '96', '99') and r[c['title']]:
        r[c['title']] = 'Printed ' + r[c['title']]
    # every card checked against the owner's deck
    r[c['source']] = 'card (owner\'s 2014 printing)'
    if n == '86':
        # carried out by the player from its primitive actions
        r[c['title']] = 'Printed Committee of Safety'
        r[c['by_player']] = 'yes'
        r[c['text']] = 'Remove one British PC marker, then place up to two American PC markers in spaces without British CUs.'
        r[c['effects']] = '{verb: remove_pc, count: 1}, {verb: place_pc, count: 2, where: "no_british_cu"}'
edit('cards.tsv', cards)
def conns(c, r):
    if r[c['from']] == 'White Plains NY' and r[c['to']] == 'New Haven CT':
        r[c['to']] = 'New London CT'
        r[c['source']] = "map (owner's 2014 printing)"
edit('connections.tsv', conns)
PY
ok "the sheets are changed as an owner would"

postrider data import "$S" "$TRASH/printed" >"$TRASH/import.out" 2>"$TRASH/import.err"
expect_eq "data import accepts the owner's sheets" 0 $?
show_file "$TRASH/import.err"
h1=$(sed -n 's/.*ok (hash \([0-9a-f]*\)).*/\1/p' "$TRASH/import.out")
[ -n "$h1" ] || die "data import names no hash: $(cat "$TRASH/import.out")"
# a second host imports the same sheets elsewhere
cp -r "$S" "$TRASH/sheets-host2"
postrider data import "$TRASH/sheets-host2" "$TRASH/elsewhere/printed" >"$TRASH/import2.out" 2>&1 ||
	die "the second import"
h2=$(sed -n 's/.*ok (hash \([0-9a-f]*\)).*/\1/p' "$TRASH/import2.out")
expect_eq "two hosts importing the same sheets get the same hash" "$h1" "$h2"
expect_eq "the data set's hash is data --check's" "$h1" \
	"$(postrider data --data "$TRASH/printed" --check | sed -n 's/.*ok (hash \([0-9a-f]*\)).*/\1/p')"
expect_grep "the imported data has the new numbers" '^  - {number: 110, title: "Printed Paul Revere' "$TRASH/printed/cards.yaml"
expect_grep "the imported data has the changed connection" 'White Plains NY", to: "New London CT"' "$TRASH/printed/connections.yaml"
expect_grep "the imported data has the card by primitives" 'number: 86, .*by_player: true' "$TRASH/printed/cards.yaml"

# a sheet with a mistake changes nothing in the data set
sed -i 's/^White Plains NY\tNew London CT/White Plains NY\tNew Londn CT/' "$S/connections.tsv"
cp "$TRASH/printed/connections.yaml" "$TRASH/conn.before"
expect_exit 1 postrider data import "$S" "$TRASH/printed"
expect_grep "the mistake is named with its sheet, row and column" \
	"connections.tsv:27:2: to: unknown space 'New Londn CT'" "$TRASH/err"
expect_file_eq "a refused import leaves the data set as it was" "$TRASH/conn.before" "$TRASH/printed/connections.yaml"

# a whole self-play run on the owner's data
postrider selfplay --data "$TRASH/printed" --games 30 --seed 5 >"$TRASH/self.out" 2>&1
expect_eq "30 self-played games on the owner's data end without a broken invariant" 0 $?
tail -n 2 "$TRASH/self.out" | sed 's/^/# /'

# a game with it
G=$TRASH/game
postrider new "$G" --american "$AMERICAN" --british "$BRITISH" --host "$HOST" \
	--data "$TRASH/printed" >"$TRASH/new.out" 2>"$TRASH/new.err" || die "new --data: $(cat "$TRASH/new.err")"
expect_grep "game.yaml records the data set's name" "^data_name: printed$" "$G/game.yaml"
expect_grep "game.yaml records the data set's hash" "^data_hash: $h1$" "$G/game.yaml"
for i in $(seq 1 80); do
	play_first_legal "$G" || break
done
for f in "$(outbox "$G")"/new/*; do
	tr -d '\r' <"$f" | grep -q "^Played with the data set printed (hash $(echo "$h1" | cut -c1-12))\.$" ||
		die "a report does not name the data set: $f"
done
ok "every report names the data set"
cat "$(outbox "$G")"/new/* | tr -d '\r' >"$TRASH/all-reports"
expect_grep "the reports show the new titles" "Printed " "$TRASH/all-reports"
expect_no_grep "the owner's cards are not marked unsourced" "Printed [^(]*(?)" "$TRASH/all-reports"
expect_no_grep "the first report does not call the owner's deck a reconstruction" \
	"This data set is not the printed game" "$TRASH/all-reports"
postrider audit "$G" >"$TRASH/audit.out" 2>&1
expect_eq "the game on the owner's data passes the audit" 0 $?
expect_grep "the audit names the data set" "^data set printed, hash $h1: data/ matches it$" "$TRASH/audit.out"

# the shipped data: the first report says once that the deck is not the printed one
new_game "$TRASH/shipped"
first=$(ls "$(outbox "$TRASH/shipped")"/new/* | head -n 1)
expect_grep "the first report of a game on the shipped data says it is not the printed game" \
	"This data set is not the printed game" "$first"
play_first_legal "$TRASH/shipped"
last=$(ls -t "$(outbox "$TRASH/shipped")"/new/* | head -n 1)
expect_no_grep "a later report does not say it again" "This data set is not the printed game" "$last"
test_done
