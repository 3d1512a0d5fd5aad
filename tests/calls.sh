#!/bin/sh
# The calls between the files of src/, read from the built objects (make
# first): one line "FILE CALLED-FILE" for each file that calls a function
# another file defines. `sh tests/calls.sh | tsort >/dev/null` says every
# loop of files that call each other (docs/architecture.md 9); the only
# loop is meant to be the engine's own, between its parts of the rules.
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in "$BUILD"/src/*.o "$BUILD"/src/engine/*.o; do
	f=${o#"$BUILD"/}
	nm --defined-only -g "$o" | awk -v f="${f%.o}.c" 'NF == 3 && $2 == "T" { print $3, f }'
done | sort >"$tmp/defined"
for o in "$BUILD"/src/*.o "$BUILD"/src/engine/*.o; do
	f=${o#"$BUILD"/}
	nm -u "$o" | awk -v f="${f%.o}.c" '{ print $2, f }'
done | sort >"$tmp/used"
join "$tmp/used" "$tmp/defined" | awk '$2 != $3 { print $2, $3 }' | sort -u
