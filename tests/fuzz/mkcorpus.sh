#!/bin/sh
# Rewrites the seed corpora in tests/fuzz/corpus/ from the test fixtures
# and the states of fuzz_common.h. Run from the repository root after
# `make` (links build/libpostrider.a); the corpora are committed, so this
# is only needed when the state format or the harnesses change.
set -e
BUILD=${BUILD:-build}
c=tests/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$c/order" "$c/state" "$c/mail" "$c/data"
mkdir -p "$c/order" "$c/state" "$c/mail" "$c/data"
${CC:-cc} -std=c11 -D_GNU_SOURCE -Isrc -Itests/fuzz -o "$tmp/mkcorpus" \
	tests/fuzz/mkcorpus.c "$BUILD/libpostrider.a" \
	$(pkg-config --libs libgit2 yaml-0.1 libcurl libcrypto)
"$tmp/mkcorpus" games/washingtons-war "$c"
# hand-written order lines: comments, prefixes, errors
n=0
for line in '# a comment only' 'place bos' 'PLACE Boston MA # the hub' \
	'pc #12' 'event Declaration of Independence' 'first brit' 'flip' \
	'place' 'done' 'pass' 'congress Phil' 'move 3 Boston' 'queue 5' \
	'reinforce 7' 'discard 99999999999999999999' 'pc -1' 'place Wilm' \
	"$(printf 'place\tBoston')" "$(printf 'place Bo\342\200\231ston')"; do
	n=$((n + 1))
	printf '\000%s\n' "$line" >"$c/order/line-$n"
	printf '\005%s\n' "$line" >"$c/order/line-$n-play"
done
# mail: every fixture message
cp tests/fixtures/mail/*.eml "$c/mail/"
# data: selector byte (index in fuzz_data.c's list) + the real file
i=0
for f in cards colonies connections counters generals setup spaces turns zones; do
	printf "\\$(printf %03o $i)" >"$c/data/$f"
	cat "games/washingtons-war/$f.yaml" >>"$c/data/$f"
	i=$((i + 1))
done
for f in tests/fixtures/data-bad/*/*.yaml; do
	b=$(basename "$f" .yaml)
	i=0
	for g in cards colonies connections counters generals setup spaces turns zones; do
		[ "$g" = "$b" ] && break
		i=$((i + 1))
	done
	[ $i -lt 9 ] || continue
	cmp -s "$f" "games/washingtons-war/$b.yaml" && continue
	printf "\\$(printf %03o $i)" >"$c/data/bad-$(basename "$(dirname "$f")")-$b"
	cat "$f" >>"$c/data/bad-$(basename "$(dirname "$f")")-$b"
done
echo "corpora: $(ls "$c/order" | wc -l) order, $(ls "$c/state" | wc -l) state, $(ls "$c/mail" | wc -l) mail, $(ls "$c/data" | wc -l) data"
