#!/bin/sh
# t-data-typo.sh - the component data can never crash the engine (issue
# 15): a typo in a card's machine form is an error of `data --check` with
# its file, line and column, and nothing plays with it; then every effect
# field of every card is mutated (other valid values and invalid ones, a
# fixed seed) and each mutated set is either refused by `data --check`
# with a message or self-played to the end without an abort.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

D=$TRASH/data/washingtons-war
mkdir -p "$TRASH/data"
cp -r games/washingtons-war "$D"
line=$(grep -n 'verb: place_pc, count: 1, where: each_colony' "$D/cards.yaml" | cut -d: -f1)
[ -n "$line" ] || die "card #99's each_colony is not in cards.yaml"
sed -i "${line}s/each_colony/each-colony/" "$D/cards.yaml"

expect_exit 1 postrider data --data "$D" --check
expect_grep "a typo in where: is named with file, line and column" \
	"cards.yaml:$line:[0-9]*: .*unknown qualifier 'each-colony'" "$TRASH/err"
expect_exit 1 postrider selfplay --data "$D" --games 1 --seed 1
expect_exit 1 postrider new "$TRASH/g" --data "$D" --american "$AMERICAN" \
	--british "$BRITISH" --seed "$SEED"
expect_eq "no game is made from broken data" "" "$(ls -A "$TRASH/g" 2>/dev/null)"

# An unknown general in remove_general, an unknown verb, an unknown handler.
cp "$TRASH/data/washingtons-war/cards.yaml" "$TRASH/cards.bad"
cp games/washingtons-war/cards.yaml "$D/cards.yaml"
sed -i 's/verb: remove_general, where: Arnold/verb: remove_general, where: Arnlod/' "$D/cards.yaml"
expect_exit 1 postrider data --data "$D" --check
expect_grep "an unknown general is named" "cards.yaml:[0-9]*:[0-9]*: .*unknown general 'Arnlod'" "$TRASH/err"
cp games/washingtons-war/cards.yaml "$D/cards.yaml"
sed -i 's/handler: kosciuszko/handler: kosciusko/' "$D/cards.yaml"
expect_exit 1 postrider data --data "$D" --check
expect_grep "an unknown handler is named" "cards.yaml:[0-9]*:[0-9]*: .*unknown handler 'kosciusko'" "$TRASH/err"

# The mutation run (tests/e2e/mutate-cards.py): nothing may abort.
cp games/washingtons-war/cards.yaml "$D/cards.yaml"
"$PY" tests/e2e/mutate-cards.py "$D" "$TRASH/mut" >"$TRASH/mut.log" 2>&1
rc=$?
tail -n 3 "$TRASH/mut.log" | sed 's/^/# /'
expect_eq "no mutated card data crashes the engine" 0 "$rc"
expect_grep "the mutations were both refused and played" \
	"^mutations: [0-9]* refused by data --check, [1-9][0-9]* played, 0 crashed" "$TRASH/mut.log"

test_done
