#!/bin/sh
# make bench: the cost of one accepted turn (`postrider play`) against the
# cost of a plain `git add && git commit` of the same files, and the speed
# of the engine alone (self-play). Prints the figures; asserts nothing, as
# timings belong to benchmarks, not tests.
set -eu
BUILD=${BUILD:-build}
P="$(pwd)/$BUILD/postrider"
export POSTRIDER_GAMES="$(pwd)/games" POSTRIDER_TEMPLATES="$(pwd)/templates"
export POSTRIDER_NOW=1767225600 TZ=UTC GIT_CONFIG_NOSYSTEM=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME="$T"
N=${BENCH_TURNS:-40}

now_ms() { date +%s%N | cut -c1-13; }

"$P" new "$T/game" --american "A <a@example.org>" --british "B <b@example.org>" \
	--seed 0000000000000000000000000000000000000000000000000000000000000001 >/dev/null
# Play N decisions, each a commit, always the first legal order.
i=0 total=0
while [ $i -lt $N ]; do
	side=$("$P" options "$T/game" --plain | head -n 1)
	order=$("$P" options "$T/game" --plain | sed -n 2p)
	[ "$side" = none ] && break
	t0=$(now_ms)
	echo "$order" | "$P" play "$T/game" --as "$side" >/dev/null
	t1=$(now_ms)
	total=$((total + t1 - t0))
	i=$((i + 1))
done
play_ms=$total
turns=$i

# The same files committed by git itself, one commit per turn.
git init -q "$T/plain"
git -C "$T/plain" config user.name bench
git -C "$T/plain" config user.email bench@example.org
git -C "$T/game" show HEAD:state.yaml >"$T/plain/state.yaml"
git -C "$T/game" show HEAD:log.txt >"$T/plain/log.txt"
mkdir -p "$T/plain/private" "$T/plain/orders"
git -C "$T/game" show HEAD:private/state.sealed >"$T/plain/private/state.sealed"
i=0 total=0
while [ $i -lt "$turns" ]; do
	echo "seq: $i" >>"$T/plain/state.yaml"
	echo "turn $i" >>"$T/plain/log.txt"
	echo "order $i" >"$T/plain/orders/$i.txt"
	echo "$i" >>"$T/plain/private/state.sealed"
	t0=$(now_ms)
	git -C "$T/plain" add -A
	git -C "$T/plain" commit -qm "turn $i"
	t1=$(now_ms)
	total=$((total + t1 - t0))
	i=$((i + 1))
done
git_ms=$total

echo "turns: $turns"
echo "postrider play: $play_ms ms in all, $((play_ms * 1000 / turns)) us per turn (includes reading the state, adjudicating, sealing, committing, two mails)"
echo "git add+commit: $git_ms ms in all, $((git_ms * 1000 / turns)) us per turn"
if [ "$git_ms" -gt 0 ]; then
	echo "ratio: $(awk "BEGIN { printf \"%.2f\", $play_ms / $git_ms }") (target: at most 1.5)"
fi

# Instructions are steadier than time on a shared machine: one more turn
# and one more git commit under callgrind (valgrind counts, never times).
if command -v valgrind >/dev/null 2>&1; then
	count() { # count LOG: the total instructions of every process logged
		awk '/Collected :/ { s += $NF } END { print s }' "$1"
	}
	side=$("$P" options "$T/game" --plain | head -n 1)
	"$P" options "$T/game" --plain | sed -n 2p >"$T/order"
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>"$T/cg1" || true
	echo "seq: x" >>"$T/plain/state.yaml"
	(cd "$T/plain" && valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file=/dev/null sh -c 'git add -A && git commit -qm x' \
		>/dev/null 2>"$T/cg2") || true
	a=$(count "$T/cg1") b=$(count "$T/cg2")
	echo "instructions: postrider play $a, git add+commit (with sh) $b"
fi
"$P" selfplay --games 200 --seed 3 | tail -n 1
