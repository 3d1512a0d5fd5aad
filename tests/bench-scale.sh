#!/bin/sh
# make bench, second part (issue 33): a host with 10 and with 10,000
# games. Its table replaces the section "## Scaling" at the end of
# bench/results.md (tests/bench.sh writes the rest first). Asserts nothing.
#
#  - BENCH_BASES (100) real games made by `postrider new` (a deadline of
#    3 days each), and BENCH_GAMES (10,000) less those made from them by
#    bench/make-games.py (a new id each, objects and data hard-linked),
#    all cached in BENCH_CACHE (/tmp/postrider-bench-scale) and remade
#    only when the script that makes them or the counts change;
#  - a turn by mail (`play --games ROOT`, the order of the side to move
#    under its token) in the same 10 games, played once in a folder of
#    10 and once in the folder of 10,000, alternately: the same games,
#    the same orders, the same work but for the folder;
#  - `list` (the index made, then up to date, then after those turns, and
#    --no-index), `remind` and `doctor` over each folder;
#  - concurrency: an order for each of the 100 real games fed at once
#    (throughput, the slowest turn), and the same mail for one game fed
#    8 times at once (how many accepted: exactly one per token).
# Every run is timed by bench/run.c (issue 41): its CPU time and the
# load average as it ended are printed beside its wall-clock time.
set -eu
BUILD=${BUILD:-build}
P="$(pwd)/$BUILD/postrider"
RUN="$(pwd)/$BUILD/bench-run"
OUT=${BENCH_OUT:-bench/results.md}
CACHE=${BENCH_CACHE:-/tmp/postrider-bench-scale}
N=${BENCH_GAMES:-10000}
K=${BENCH_BASES:-100}
load0=$(cut -d" " -f1-3 /proc/loadavg)
export POSTRIDER_GAMES="$(pwd)/games" POSTRIDER_TEMPLATES="$(pwd)/templates"
export POSTRIDER_NOW=1767225600 TZ=UTC GIT_CONFIG_NOSYSTEM=1
T=$(mktemp -d)
BIG=$CACHE/fill
cleanup() {
	# the real games played here leave the cached folder as it was
	for d in "$CACHE"/base/ww-*; do
		[ -d "$d" ] && rm -rf "$BIG/${d##*/}"
	done
	rm -f "$BIG/.postrider-index"
	rm -rf "$T"
}
trap cleanup EXIT
export HOME="$T" XDG_CONFIG_HOME="$T/.config"
mkdir -p "$XDG_CONFIG_HOME/postrider"
echo "transport: outbox" >"$XDG_CONFIG_HOME/postrider/config.yaml"
now_us() { date +%s%6N; }
ms() { awk "BEGIN { printf \"%.1f\", $1 / 1000 }"; }

# --- the games, made once ------------------------------------------------------
stamp="2 $N $K $(sha256sum bench/make-games.py | cut -c1-16)"
if [ "$(cat "$CACHE/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "bench-scale: making $N games in $CACHE (once)..." >&2
	rm -rf "$CACHE"
	mkdir -p "$CACHE/base" "$CACHE/pattern" "$BIG"
	i=0
	while [ $i -lt "$K" ]; do
		i=$((i + 1))
		"$P" new "$CACHE/base/new" --american "Am $i <am$i@example.org>" \
			--british "Br $i <br$i@example.org>" --deadline 3d \
			--seed "$(printf '%064x' $((0xbe00 + i)))" >/dev/null
		id=$(sed -n 's/^id: //p' "$CACHE/base/new/game.yaml")
		mv "$CACHE/base/new" "$CACHE/base/$id"
	done
	# the patterns of the copies: ten of them, their objects packed
	for d in $(ls -d "$CACHE"/base/ww-* | head -n 10); do
		cp -a "$d" "$CACHE/pattern/"
		pd=$CACHE/pattern/${d##*/}
		git -C "$pd" repack -a -d -q
		git -C "$pd" prune-packed
		rm -rf "$pd/.git/postrider/outbox"
	done
	python3 bench/make-games.py "$BIG" $((N - K)) "$CACHE"/pattern/ww-*
	echo "$stamp" >"$CACHE/stamp"
fi
ids=$(ls "$CACHE/base")
for id in $ids; do
	rm -rf "${BIG:?}/$id"
	cp -a "$CACHE/base/$id" "$BIG/"
done
SMALL=$T/small
mkdir "$SMALL"
for id in $(echo "$ids" | head -n 10); do
	cp -a "$CACHE/base/$id" "$SMALL/"
done
n_big=$(ls "$BIG" | wc -l)

# --- one turn by mail ------------------------------------------------------------
# mail ROOT ID FILE: the mail of the side to move of ROOT/ID, its first
# legal order, answering the side's last report (its token)
mail() {
	"$P" options "$1/$2" --plain >"$T/opts"
	_side=$(head -n 1 "$T/opts")
	_rep=$(ls "$1/$2/.git/postrider/outbox/new" | grep -- "-$_side\." | sort -t- -k2,2n | tail -n 1)
	_subj=$(sed -n 's/^Subject: //p' "$1/$2/.git/postrider/outbox/new/$_rep" | head -n 1)
	{
		printf 'From: %s\nTo: postrider <postrider@localhost.localdomain>\n' \
			"$(sed -n "/^  $_side:/,/address:/s/^    address: //p" "$1/$2/game.yaml")"
		printf 'Subject: Re: %s\nMessage-ID: <bench.%s@example.org>\n\n' "$_subj" "$(now_us)"
		sed -n 2p "$T/opts"
	} >"$3"
}
# turn ROOT ID LOG: one turn by mail, timed into LOG (bench/run.c)
turn() {
	mail "$1" "$2" "$T/mail"
	"$RUN" "$3" "$P" play --games "$1" "$T/mail" >/dev/null 2>"$T/play.err" ||
		echo "bench-scale: a turn failed: $(head -n 2 "$T/play.err")" >&2
}
# timed CMD...: one run (output dropped): "WALL_MS ms (CPU CPU_MS ms, load L)"
timed() {
	rm -f "$T/timed"
	"$RUN" "$T/timed" "$@" >/dev/null 2>&1 || true
	awk '/^run / { printf "%.1f ms (CPU %.1f ms, load %.2f)", $2 / 1000, $3 / 1000, $6 }' "$T/timed"
}
# stats LOG: medians of the wall-clock and CPU times (ms) of its runs, the
# mean wall-clock time, and the load's range
stats() {
	awk '/^run / { print $2, $3, $6 }' "$1" | sort -n | awk '
		{ w[NR] = $1; s += $1; l = $3; if (NR == 1 || l < lo) lo = l; if (l > hi) hi = l; print $2 > "/dev/stderr" }
		END { printf "%.1f %.1f %.2f-%.2f ", (NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2) / 1000,
			s / NR / 1000, lo, hi }' 2>"$T/cpus"
	sort -n "$T/cpus" | awk '{ a[NR] = $1 } END { printf "%.1f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) / 1000 }'
}

# --- list, remind, doctor before the turns -----------------------------------------
rm -f "$SMALL/.postrider-index" "$BIG/.postrider-index"
list_small_cold=$(timed "$P" list "$SMALL")
list_small=$(timed "$P" list "$SMALL")
list_big_cold=$(timed "$P" list "$BIG")
list_big=$(timed "$P" list "$BIG")
/usr/bin/time -f %M -o "$T/rss_list" "$P" list "$BIG" >/dev/null
rss_list=$(tail -n 1 "$T/rss_list")
index_bytes=$(stat -c %s "$BIG/.postrider-index")

# --- turns at 10 and at 10,000, alternately ------------------------------------------
: >"$T/t_small"
: >"$T/t_big"
for round in 1 2; do
	for id in $(echo "$ids" | head -n 10); do
		turn "$SMALL" "$id" "$T/t_small"
		turn "$BIG" "$id" "$T/t_big"
	done
done
turns=$(grep -c '^run ' "$T/t_small")
set -- $(stats "$T/t_small")
turn_small_median=$1 turn_small_mean=$2 turn_small_load=$3 turn_small_cpu=$4
set -- $(stats "$T/t_big")
turn_big_median=$1 turn_big_mean=$2 turn_big_load=$3 turn_big_cpu=$4
turn_ratio=$(awk "BEGIN { printf \"%.2f\", $turn_big_median / $turn_small_median }")
turn_ratio_cpu=$(awk "BEGIN { printf \"%.2f\", $turn_big_cpu / $turn_small_cpu }")

list_big_stale=$(timed "$P" list "$BIG")
list_big_noindex=$(timed "$P" list --no-index "$BIG")
list_small_noindex=$(timed "$P" list --no-index "$SMALL")
"$P" list "$BIG" --format '%i|%a|%b|%y|%n|%s|%p|%t|%r|%d' >"$T/l1" 2>&1 || true
"$P" list "$BIG" --no-index --format '%i|%a|%b|%y|%n|%s|%p|%t|%r|%d' >"$T/l2" 2>&1 || true
agree=no
cmp -s "$T/l1" "$T/l2" && agree=yes
remind_small=$(timed "$P" remind "$SMALL")
remind_big=$(timed "$P" remind "$BIG")
rm -f "$BIG/.postrider-index"
remind_big_cold=$(timed "$P" remind "$BIG")
doctor_small=$(timed "$P" doctor "$SMALL")
doctor_big=$(timed "$P" doctor "$BIG")

# --- concurrency -----------------------------------------------------------------------
for id in $ids; do
	mail "$BIG" "$id" "$T/mail.$id"
done
t0=$(now_us)
for id in $ids; do
	(
		_t0=$(now_us) rc=0
		"$RUN" "$T/conc.log" "$P" play --games "$BIG" "$T/mail.$id" >/dev/null 2>&1 || rc=$?
		echo "$rc $(($(now_us) - _t0))" >"$T/conc.$id"
	) &
done
wait
t1=$(now_us)
conc_wall=$((t1 - t0))
conc_ok=$(cat "$T"/conc.ww-* | awk '$1 == 0' | wc -l)
conc_max=$(cat "$T"/conc.ww-* | sort -k2,2n | tail -n 1 | cut -d' ' -f2)
conc_n=$(echo "$ids" | wc -l)
throughput=$(awk "BEGIN { printf \"%.1f\", $conc_n / ($conc_wall / 1e6) }")
conc_cpu=$(awk '/^run / { s += $3; n++; if ($6 > l) l = $6 } END { printf "CPU of all %.1f ms, %.1f ms a turn; load up to %.2f", s / 1000, s / n / 1000, l }' "$T/conc.log")

one=$(echo "$ids" | head -n 1)
mail "$SMALL" "$one" "$T/same"
commits0=$(git -C "$SMALL/$one" rev-list --count HEAD)
i=0
while [ $i -lt 8 ]; do
	i=$((i + 1))
	sed "s/^Message-ID: .*/Message-ID: <same.$i@example.org>/" "$T/same" >"$T/same.$i"
done
i=0
while [ $i -lt 8 ]; do
	i=$((i + 1))
	(
		rc=0
		"$P" play --games "$SMALL" "$T/same.$i" >/dev/null 2>&1 || rc=$?
		echo $rc >"$T/same.$i.rc"
	) &
done
wait
# the mail system retries what was deferred (75)
for f in "$T"/same.*.rc; do
	if [ "$(cat "$f")" = 75 ]; then
		m=${f%.rc}
		rc=0
		"$P" play --games "$SMALL" "$m" >/dev/null 2>&1 || rc=$?
		echo $rc >"$f.retry"
	fi
done
same_ok=$(cat "$T"/same.*.rc | grep -c '^0$' || true)
same_rej=$(cat "$T"/same.*.rc | grep -c '^1$' || true)
same_busy=$(cat "$T"/same.*.rc | grep -c '^75$' || true)
same_retry_ok=$(cat "$T"/same.*.retry 2>/dev/null | grep -c '^0$' || true)
same_commits=$(($(git -C "$SMALL/$one" rev-list --count HEAD) - commits0))

# --- the table ---------------------------------------------------------------------------
{
	sed '/^## Scaling/,$d' "$OUT" 2>/dev/null || true
	echo "## Scaling: a host with 10 and with $n_big games (issue 33)"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, the load average $load0"
	echo "when the bench began (a busy machine's figures are worth less). The folder of $n_big:"
	echo "$K real games and $((n_big - K)) copies of ten of them under new ids"
	echo "(tests/bench-scale.sh, bench/make-games.py). Targets: a turn at $n_big"
	echo "games within 1.1 times its time at 10 (issue 41; 1.2 in issue 33); list and"
	echo "remind under 2 s. Each wall-clock time has beside it the CPU time of the"
	echo "run (bench/run.c) and the one-minute load average as it ended: on a busy"
	echo "machine the wall-clock times grow with the load, the CPU times less, and"
	echo "the ratio of the turns (both folders timed alternately) holds best."
	echo
	echo "| what | 10 games | $n_big games |"
	echo "|---|---|---|"
	echo "| a turn by mail (\`play --games ROOT\`), median of $turns (mean) | $turn_small_median ms ($turn_small_mean; CPU $turn_small_cpu ms, load $turn_small_load) | $turn_big_median ms ($turn_big_mean; CPU $turn_big_cpu ms, load $turn_big_load): ratio $turn_ratio, of the CPU times $turn_ratio_cpu (target at most 1.1) |"
	echo "| \`list\`, the index made (no index before) | $list_small_cold | $list_big_cold |"
	echo "| \`list\`, the index up to date | $list_small | $list_big (target under 2 s) |"
	echo "| \`list\` after the turns (10 games read again) | | $list_big_stale |"
	echo "| \`list --no-index\` (every game read) | $list_small_noindex | $list_big_noindex |"
	echo "| \`remind\` (a deadline in every game, nothing due), the index up to date | $remind_small | $remind_big (target under 2 s) |"
	echo "| \`remind\`, no index before | | $remind_big_cold |"
	echo "| \`doctor\` (every game opened with its secret) | $doctor_small | $doctor_big |"
	echo "| the index: its size, the peak RSS of \`list\` | | $index_bytes bytes, $rss_list KiB |"
	echo "| the index agrees with every game read (\`list\` = \`list --no-index\`, all fields) | | $agree |"
	echo
	echo "Concurrency on $(nproc) cores:"
	echo
	echo "| what | figure |"
	echo "|---|---|"
	echo "| an order for each of $conc_n games fed at once (\`play --games\`, the folder of $n_big) | $conc_ok accepted in $(ms $conc_wall) ms: $throughput turns/s ($conc_cpu) |"
	echo "| the slowest of those turns | $(ms $conc_max) ms |"
	echo "| the same mail (one token) fed 8 times at once to one game | $same_ok accepted, $same_rej rejected (the token spent), $same_busy deferred (75) and retried: $same_retry_ok of those accepted; $same_commits commit |"
} >"$T/results"
cp "$T/results" "$OUT"
sed -n '/^## Scaling/,$p' "$OUT"
