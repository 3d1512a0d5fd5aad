#!/bin/sh
# make bench: how fast postrider is, against honest floors, written to
# bench/results.md (and printed). Asserts nothing: timings belong to
# benchmarks, not tests.
#
#  - a turn (`postrider play`, an accepted order with its two mails and
#    the map's PNG) against its floor: bench/floor.c run as a process per
#    turn, timed the same way, opens the game with libgit2 and commits the
#    same files as durably (fsync of objects, refs and folders) and
#    delivers two mails of the turn's size as the outbox does; the floor
#    without the mails, the commit alone in one process and
#    `git -c core.fsync=all add && commit` are shown for reference;
#  - self-play games per second (the engine alone, one core);
#  - `postrider audit` of the same game cut at 150, 300 and 600 orders
#    and whole (a random game rarely lasts 600), to see that it is linear;
#  - peak RSS of a turn and of the longest audit, and what of a turn's
#    resident memory is shared library pages (bench/rollup.c);
#  - a game's disk (issue 33): the repository loose and packed, the
#    objects' growth per order early and late, the work tree, the host's
#    files and the game's mail;
#  - the weight of the reports (issue 29) over the same game, the British
#    in digest mode: the largest, the median, each player's total, each
#    part; the map's PNG each way the issue names (bench/map.c), the first
#    commit's patch whole and lighter, the reports left without the map.
set -eu
BUILD=${BUILD:-build}
P="$(pwd)/$BUILD/postrider"
FLOOR="$(pwd)/$BUILD/bench-floor"
OUT=${BENCH_OUT:-bench/results.md}
export POSTRIDER_GAMES="$(pwd)/games" POSTRIDER_TEMPLATES="$(pwd)/templates"
export POSTRIDER_NOW=1767225600 TZ=UTC GIT_CONFIG_NOSYSTEM=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME="$T" XDG_CONFIG_HOME="$T/.config"
mkdir -p "$XDG_CONFIG_HOME/postrider"
echo "transport: outbox" >"$XDG_CONFIG_HOME/postrider/config.yaml"
N=${BENCH_TURNS:-40}
MAX_ORDERS=${BENCH_ORDERS:-600}

now_us() { date +%s%6N; }

# One game played with random legal orders (a fixed awk seed), as long as
# it lasts or MAX_ORDERS; each play timed.
"$P" new "$T/game" --american "A <a@example.org>" --british "B <b@example.org>" \
	--seed 00000000000000000000000000000000000000000000000000000000000000a1 \
	--mail-mode british=digest >/dev/null
i=0 total=0 timed=0
: >"$T/growth"
while [ $i -lt "$MAX_ORDERS" ]; do
	# the disk of the repository's objects every 50 orders (issue 33)
	[ $((i % 50)) -eq 0 ] && echo "$i $(du -sk "$T/game/.git/objects" | cut -f1)" >>"$T/growth"
	"$P" options "$T/game" --plain >"$T/opts"
	side=$(head -n 1 "$T/opts")
	[ "$side" = none ] && break
	tail -n +2 "$T/opts" |
		awk -v s=$i 'BEGIN { srand(s) } { a[NR] = $0 } END { print a[int(rand() * NR) + 1] }' >"$T/order"
	t0=$(now_us)
	if [ $i -eq "$N" ]; then	# one turn past the timed ones: its peak RSS
		/usr/bin/time -f %M -o "$T/rss_play" "$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	elif [ $i -eq $((N + 1)) ]; then	# and the next: where its time goes
		POSTRIDER_TRACE_PERF=1 "$P" play "$T/game" --as "$side" "$T/order" 2>&1 >/dev/null |
			sed -n 's/^perf: *//p' >"$T/trace"
	elif [ $i -eq $((N + 3)) ]; then	# and the next: shared and private pages
		ROLLUP_OUT="$T/rollup" LD_PRELOAD="$(pwd)/$BUILD/bench-rollup.so" \
			"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	elif [ $i -eq $((N + 2)) ] && command -v valgrind >/dev/null 2>&1; then
		# and the next: its heap at the peak (the rest of its RSS is
		# the shared libraries' pages)
		valgrind -q --tool=massif --massif-out-file="$T/massif" \
			"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	else
		"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	fi
	t1=$(now_us)
	if [ $i -lt "$N" ]; then
		total=$((total + t1 - t0))
		timed=$((timed + 1))
	fi
	i=$((i + 1))
done
orders=$i
play_us=$((total / timed))

# A game's disk (issue 33): the repository as postrider leaves it (loose
# objects), the same packed by `git gc`, the work tree, the host's own
# files and the mail; the objects' growth per order early and late.
echo "$orders $(du -sk "$T/game/.git/objects" | cut -f1)" >>"$T/growth"
disk_git=$(du -sk --exclude=postrider "$T/game/.git" | cut -f1)
disk_tree=$(du -sk --exclude=.git "$T/game" | cut -f1)
disk_host=$(du -sk --exclude=outbox "$T/game/.git/postrider" | cut -f1)
disk_mail=$(du -sk "$T/game/.git/postrider/outbox" | cut -f1)
n_mail=$(find "$T/game/.git/postrider/outbox/new" -type f | wc -l)
disk_log=$(stat -c %s "$T/game/log.txt")
cp -a "$T/game" "$T/packed"
git -C "$T/packed" gc -q
disk_packed=$(du -sk --exclude=postrider "$T/packed/.git" | cut -f1)
rm -rf "$T/packed"
growth=$(awk 'NR > 1 && $1 - o == 50 { d = ($2 - k) / 50; if (NR == 2) first = d; last = d; lo = o; lt = $1 } { o = $1; k = $2 }
	END { printf "%.1f KB per order over orders 0-50, %.1f KB over orders %d-%d", first, last, lo, lt }' "$T/growth")

# The floor, measured as a turn is: one process per turn, timed from
# outside (libgit2's start-up, the repository opened, the same kind of
# commit, as durably), once without and once with two mails of the
# turn's mean mail size delivered as the outbox does. For reference, the
# commit alone inside one long-running process (no start-up at all).
mail_bytes=$(find "$T/game/.git/postrider/outbox/new" -type f -printf '%s\n' |
	awk '{ n++; s += $1 } END { print n ? int(s / n) : 0 }')
cp -a "$T/game" "$T/floor"
floor_time() {	# floor_time [MAILBYTES]: mean us of N floor processes
	_i=0 _total=0
	while [ $_i -lt "$N" ]; do
		_t0=$(now_us)
		"$FLOOR" "$T/floor" 1 "$@" >/dev/null
		_t1=$(now_us)
		_total=$((_total + _t1 - _t0))
		_i=$((_i + 1))
	done
	echo $((_total / N))
}
floor_commit_us=$(floor_time)
floor_us=$(floor_time "$mail_bytes")
floor_inproc_us=$("$FLOOR" "$T/floor" "$N")
# What starting a process costs before main(): postrider --version, and
# the floor with no arguments (it prints its usage), each 20 times.
start_time() {
	_i=0 _t0=$(now_us)
	while [ $_i -lt 20 ]; do
		"$@" >/dev/null 2>&1 || true
		_i=$((_i + 1))
	done
	echo $(( ($(now_us) - _t0) / 20 ))
}
start_us=$(start_time "$P" --version)
floor_start_us=$(start_time "$FLOOR")
libs=$(ldd "$P" | wc -l)
floor_libs=$(ldd "$FLOOR" | wc -l)

# git itself, with every fsync git can do.
git clone -q "$T/game" "$T/plain"
git -C "$T/plain" config user.name bench
git -C "$T/plain" config user.email bench@example.org
i=0 total=0
while [ $i -lt "$N" ]; do
	echo "seq: $i" >>"$T/plain/state.yaml"
	echo "turn $i" >>"$T/plain/log.txt"
	echo "order $i" >"$T/plain/orders/bench-$i.txt"
	echo "$i" >>"$T/plain/private/state.sealed"
	t0=$(now_us)
	git -C "$T/plain" -c core.fsync=all add -A
	git -C "$T/plain" -c core.fsync=all commit -qm "turn $i"
	t1=$(now_us)
	total=$((total + t1 - t0))
	i=$((i + 1))
done
git_us=$((total / N))

rss_play=$(tail -n 1 "$T/rss_play" 2>/dev/null || echo -)
heap_play=$(sed -n 's/^mem_heap_B=//p' "$T/massif" 2>/dev/null | sort -n | tail -n 1)
heap_play=$(( ${heap_play:-0} / 1024 ))
# Where a turn's time goes, by library (perf, if it may sample here).
profile=""
if command -v perf >/dev/null 2>&1; then
	"$P" options "$T/game" --plain >"$T/opts" 2>/dev/null || true
	side=$(head -n 1 "$T/opts")
	if [ "$side" != none ] && [ -n "$side" ]; then
		cp -a "$T/game" "$T/prof"
		sed -n 2p "$T/opts" >"$T/order"
		if perf record -q -o "$T/perf.data" "$P" play "$T/prof" --as "$side" "$T/order" >/dev/null 2>&1; then
			profile=$(perf report -i "$T/perf.data" --no-children --sort dso -g none 2>/dev/null |
				grep '%' | grep -v '^#' | head -n 8 | awk '{ printf "%s %s; ", $1, $2 }')
		fi
	fi
fi

# Self-play on one core.
sp=$(taskset -c 0 "$P" selfplay --games 300 --seed 7 | tail -n 1 | sed 's/.*; \([0-9.]*\) games\/s$/\1/')

# Audit of the game cut at 150, 300, 600 orders (clones at those commits);
# a random game ends sooner (a War Ends card, an automatic victory), so
# its whole length is measured too.
"$P" reveal --abandon "$T/game" >/dev/null 2>&1 || "$P" reveal "$T/game" >/dev/null 2>&1 || true
audit_rows=""
rss_audit=-
cuts=""
for cut in 150 300 600; do
	[ "$cut" -lt "$orders" ] && cuts="$cuts $cut"
done
for cut in $cuts $orders; do
	c=$(git -C "$T/game" log --format=%H --reverse refs/heads/main | sed -n "$((cut + 1))p")
	rm -rf "$T/cut"
	git clone -q "$T/game" "$T/cut"
	git -C "$T/cut" reset -q --hard "$c"
	t0=$(now_us)
	/usr/bin/time -f %M -o "$T/rss" "$P" audit "$T/cut" >/dev/null 2>&1 || true
	t1=$(now_us)
	rss_audit=$(tail -n 1 "$T/rss")
	audit_rows="$audit_rows
| audit of $cut orders (a player's clone, no seed) | $(((t1 - t0) / 1000)) ms | $(((t1 - t0) / cut)) us per order |"
done

# The weight of the reports: every report of the game, its parts.
first=$(git -C "$T/game" rev-list --max-parents=0 HEAD)
last=$(git -C "$T/game" rev-parse HEAD)
/usr/bin/python3 - "$T/game/.git/postrider/outbox/new" "$first" >"$T/sizes" <<'EOF'
import email, os, re, statistics, sys
from email import policy
out, first = sys.argv[1], sys.argv[2]
rows = []
for name in sorted(os.listdir(out)):
    m = re.match(r"([0-9a-f]{40})-(\d{4})-(american|british)\.", name)
    if not m:
        continue
    raw = open(os.path.join(out, name), "rb").read()
    msg = email.message_from_bytes(raw, policy=policy.default)
    parts = {p.get_content_type(): len(p.get_payload(decode=False)) for p in msg.walk() if not p.is_multipart()}
    rows.append((m.group(3), len(raw), parts, m.group(1) == first,
                 "your move" in msg["Subject"]))
def kb(v): return "%.1f KB" % (v / 1024)
sizes = [r[1] for r in rows]
print("reports", len(rows))
print("largest", kb(max(sizes)))
print("median", kb(statistics.median(sizes)))
print("mean", kb(statistics.mean(sizes)))
for side, mode in (("american", "every"), ("british", "digest")):
    s = [r[1] for r in rows if r[0] == side]
    print("side %s (%s) %d reports, %.2f MB in all" % (side, mode, len(s), sum(s) / 1048576))
for t, what in (("text/plain", "the text"), ("text/x-patch", "the patch"), ("image/png", "the map (PNG)")):
    v = [r[2][t] for r in rows if t in r[2]]
    print("part %s: in %d reports, median %s as sent" % (what, len(v), kb(statistics.median(v))))
first_patch = [r[2]["text/x-patch"] for r in rows if r[3]]
print("firstpatch", first_patch[0] if first_patch else 0)
nomap = [r for r in rows if "image/png" not in r[2]]
png = [r[2]["image/png"] for r in rows if "image/png" in r[2]]
print("nomap %d %d" % (len(nomap), len(nomap) * statistics.mean(png) if png else 0))
print("decisions %d %d" % (sum(1 for r in rows if r[4]), sum(1 for r in rows if r[4] and "image/png" in r[2])))
EOF
whole_patch=$(git -C "$T/game" format-patch --root -1 --stdout "$first" | wc -c)
"$(pwd)/$BUILD/bench-map" "$T/game" "$first" "$last" >"$T/maps"
sz() { sed -n "s/^$1 //p" "$T/sizes"; }
map_rows=$(awk -v n="$(grep -c . "$T/maps")" '
	NR <= n / 2 { a[NR] = $0; next }
	{ split(a[NR - n / 2], f, " ")
	  printf "| %s | %.1f KB, %.1f ms | %.1f KB, %.1f ms |\n", f[1], f[2] / 1024, f[3], $2 / 1024, $3 }' "$T/maps")

# One provable die (fairness version 2): a proof and its verification.
vrf=$("$(pwd)/$BUILD/bench-vrf" 500)
dice=$(grep -c '^draw [0-9]*: ' "$T/game/log.txt" || true)

ratio=$(awk "BEGIN { printf \"%.2f\", $play_us / $floor_us }")
ratio_commit=$(awk "BEGIN { printf \"%.2f\", $play_us / $floor_commit_us }")
ms() { awk "BEGIN { printf \"%.1f\", $1 / 1000 }"; }
rk() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" "$T/rollup" 2>/dev/null; }
{
	echo "# Benchmarks (\`make bench\`)"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$P" --version 2>/dev/null || echo postrider);"
	echo "a game of $orders orders played with random legal orders (fixed seed). Targets from issue 15."
	echo
	echo "| what | figure | against |"
	echo "|---|---|---|"
	echo "| a turn (\`postrider play\`, mean of the first $timed) | $(ms $play_us) ms | the floor $(ms $floor_us) ms: ratio $ratio (target at most 1.3, issue 33) |"
	echo "| the floor: bench/floor.c as a process per turn, the same commit and two mails of $mail_bytes bytes, fsync'd | $(ms $floor_us) ms | |"
	echo "| the same floor without the mails | $(ms $floor_commit_us) ms | a turn is $ratio_commit times this |"
	echo "| the commit alone in one long-running process (no start-up) | $(ms $floor_inproc_us) ms | for reference |"
	echo "| \`git -c core.fsync=all add && commit\` | $(ms $git_us) ms | for reference |"
	echo "| starting the program and exiting (\`postrider --version\`, $libs shared libraries) | $(ms $start_us) ms | the floor's program: $(ms $floor_start_us) ms ($floor_libs libraries) |"
	echo "| self-play (one core) | $sp games/s | target at least 200 |"
	printf '%s\n' "$audit_rows" | sed '/^$/d'
	echo "| a VRF proof of one die (bench/vrf.c, mean of 500) | ${vrf% *} us | paid once per public draw by \`play\`; this game had $dice |"
	echo "| a VRF verification of one die | ${vrf#* } us | paid per die by every \`audit\` (included above) |"
	echo "| peak RSS of a turn | $rss_play KiB | target under 16 MiB (issue 33) |"
	echo "| of which the heap at its peak (valgrind massif) | $heap_play KiB | most of the rest: pages of the $libs shared libraries |"
	echo "| a turn's resident memory as it exits: in all; shared library pages (Shared_Clean); its own (Private_Dirty) | $(rk Rss) KiB; $(rk Shared_Clean) KiB; $(rk Private_Dirty) KiB | /proc/self/smaps_rollup (bench/rollup.c) |"
	echo "| peak RSS of the longest audit | $rss_audit KiB | |"
	echo "| disk: the repository of this game of $orders orders (.git as postrider leaves it, objects loose) | $disk_git KB | packed by \`git gc\`: $disk_packed KB |"
	echo "| disk: its objects' growth | $growth | log.txt ($disk_log bytes at the end) is committed whole each turn |"
	echo "| disk: the work tree; the host's secret and clock | $disk_tree KB; $disk_host KB | |"
	echo "| disk: the mail of the whole game ($n_mail reports, all kept here: transport outbox) | $disk_mail KB | a host that sends keeps two weeks of it, at least the last 20 (outbox/cur) |"
	echo
	echo "What a turn does beyond the floor: reading and checking the state and"
	echo "the data (YAML, parsed at every run), adjudicating, sealing the private"
	echo "state, writing two reports with the map as a PNG (cairo, zlib), the"
	echo "patch for \`git am\`, and the outbox. Profiles: \`perf record\` on"
	echo "\`postrider play\`; see docs/robustness.md for where the time went before."
	if [ -s "$T/trace" ]; then
		echo
		echo "One turn traced (\`POSTRIDER_TRACE_PERF=1 postrider play ...\`: milliseconds"
		echo "since main() began; the PNG is painted in a thread of its own while"
		echo "the commit is written):"
		echo
		echo '```'
		cat "$T/trace"
		echo '```'
	fi
	if [ -n "$profile" ]; then
		echo
		echo "A turn's samples by library (perf): $profile"
	fi
	echo
	echo "## The weight of a report (issue 29)"
	echo
	echo "The reports of the same game, the American mailed every turn and the"
	echo "British in digest mode (a report when he must decide). Targets: no"
	echo "report over 120 KB, the median under 60 KB, the map in every report"
	echo "that asks for a decision; before issue 29 a report weighed 250 KB"
	echo "on average and 330 KB at the start."
	echo
	echo "| what | figure |"
	echo "|---|---|"
	echo "| reports | $(sz reports) |"
	echo "| the largest | $(sz largest) (target at most 120 KB) |"
	echo "| the median | $(sz median) (target under 60 KB) |"
	echo "| the mean | $(sz mean) |"
	sed -n 's/^side \([a-z]*\) (\([a-z]*\)) \(.*\)$/| the \1 (mode \2) | \3 |/p' "$T/sizes"
	sed -n 's/^part \([^:]*\): \(.*\)$/| \1 | \2 |/p' "$T/sizes"
	echo "| reports asking for a decision, with the map | $(sz decisions | awk '{ print $2 " of " $1 }') |"
	echo
	echo "The choices measured (the map of the opening and of the game's last"
	echo "position, painted and written by bench/map.c; CPU time, the least of"
	echo "three):"
	echo
	echo "| the map's PNG | the opening | the last position |"
	echo "|---|---|---|"
	printf '%s\n' "$map_rows"
	echo
	echo "- Chosen: a palette of 16 colours (4 bits a pixel; the colours the map"
	echo "  names kept exact), zlib's best level with chains of 512, at scale 0.75."
	echo "  24-bit RGB as mailed before (rgb-fastest) is four times the weight;"
	echo "  32 or 64 colours add a fifth to a third for no visible gain; zlib's"
	echo "  best level saves 3% more for twice the time. A smaller scale is"
	echo "  lighter, but its letters fall under 7.5 pixels: not taken."
	echo "- The map only when the board changed since the player's last report:"
	echo "  $(sz nomap | awk '{ print $1 }') reports that ask nothing went without it,"
	echo "  $(sz nomap | awk '{ printf "%.0f KB", $2 / 1024 }') in all; a report that asks for a decision always has it."
	echo "- The first commit's patch without what the player already has: its"
	echo "  component data (data/, the same in every copy of postrider) as deflated"
	echo "  git binary patches, which \`git am\` applies to the same commit:"
	echo "  $(sz firstpatch | awk '{ printf "%.1f KB", $1 / 1024 }') in the first report (base64), against $(awk -v b="$whole_patch" 'BEGIN { printf "%.1f KB", b * 4 / 3 / 1024 }') whole."
	echo "- The SVG is no longer attached (it weighed 33 KB in base64, as much"
	echo "  as the PNG): \`postrider show DIR --svg\` draws it from any copy."
} >"$OUT"
cat "$OUT"
