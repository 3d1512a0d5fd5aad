#!/bin/sh
# The engine library's names (issue 15): build/libengine.a defines as
# global only the names of src/engine/api.syms, and every function of
# the public headers that the engine defines is in that list.
BUILD=${BUILD:-build}
lib=$BUILD/libengine.a
fail=0
# no library, or one with no names, would pass every test below
if [ ! -s "$lib" ]; then
	echo "no $lib: build it first (make check does)"
	exit 1
fi
nm -g --defined-only "$lib" | awk 'NF == 3 && $2 ~ /[TDBRV]/ { print $3 }' | sort -u >"$BUILD/engine-api.got"
grep -v '^#' src/engine/api.syms | sort -u >"$BUILD/engine-api.want"
extra=$(comm -23 "$BUILD/engine-api.got" "$BUILD/engine-api.want")
if [ -n "$extra" ]; then
	echo "global names of $lib outside the API:" $extra
	fail=1
fi
# an internal name, to be sure the list does not keep everything
if grep -qx flow_prompt "$BUILD/engine-api.got"; then
	echo "the internal flow_prompt is global in $lib"
	fail=1
fi
# the public headers' functions defined by the engine are all kept
nm --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u >"$BUILD/engine-api.all"
for h in src/engine/engine.h src/rng.h src/vrf.h src/codec.h; do
	grep -o '\b[a-z_][a-z0-9_]*(' "$h" | tr -d '(' 
done | sort -u | comm -12 - "$BUILD/engine-api.all" | comm -23 - "$BUILD/engine-api.want" >"$BUILD/engine-api.missing"
if [ -s "$BUILD/engine-api.missing" ]; then
	echo "declared in the public headers but hidden:" $(cat "$BUILD/engine-api.missing")
	fail=1
fi
if [ ! -s "$BUILD/engine-api.got" ]; then
	echo "$lib shows no global name at all"
	fail=1
fi
[ $fail = 0 ] && echo "the engine library shows $(wc -l <"$BUILD/engine-api.got") names, all of its API"
exit $fail
