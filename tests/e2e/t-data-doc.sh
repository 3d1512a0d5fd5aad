#!/bin/sh
# Issue 32: the counts of sourced and unsourced facts in docs/data.md are
# the output of `postrider data --check` on the shipped data, not written
# by hand: the committed doc must agree with the files.
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

postrider data --check >"$TRASH/check" || die "data --check failed"
sed -n '3,$p' "$TRASH/check" >"$TRASH/table"
sed -n '/^<!-- begin: postrider data --check -->$/,/^<!-- end: postrider data --check -->$/p' \
	docs/data.md | sed '1d;$d' >"$TRASH/doc"
[ -s "$TRASH/doc" ] || die "docs/data.md has no table between the markers"
diff -u "$TRASH/doc" "$TRASH/table" || die "docs/data.md's counts differ from 'postrider data --check': paste its output"
ok "docs/data.md holds the counts that data --check prints"

# a changed source changes the counts, and the doc then disagrees
mkdir -p "$TRASH/d" && cp games/washingtons-war/*.yaml "$TRASH/d/"
sed -i '0,/{from: Quebec, to: Montreal, source: unverified}/s//{from: Quebec, to: Montreal, source: "map (2014 printing)"}/' "$TRASH/d/connections.yaml"
postrider data --data "$TRASH/d" --check >"$TRASH/check2" || die "data --check failed on the copy"
grep -q '^| connections | 12 | 102 | 114 |$' "$TRASH/check2" || die "a sourced connection is not counted"
sed -n '3,$p' "$TRASH/check2" | cmp -s - "$TRASH/doc" && die "the changed counts match the doc"
ok "a changed source changes the counts"
test_done
