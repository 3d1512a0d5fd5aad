#!/bin/sh
# make bench: how fast postrider is, against honest floors, written to
# bench/results.md (and printed). Asserts nothing: timings belong to
# benchmarks, not tests.
#
# Every process is timed by bench/run.c (issue 41): its wall-clock time,
# its CPU time (user + system, from wait4) and its peak RSS, and the load
# average as it ended; figures are medians. CPU times and instruction
# counts are what hold on a busy machine (the table says which figure
# does); callgrind (valgrind) counts the instructions of one turn, of
# the floor and of starting each program.
#
#  - a turn (`postrider play`, an accepted order with its two mails and
#    the map's PNG) against its floor: bench/floor.c run as a process per
#    turn, timed the same way right after each turn on a copy of the same
#    game, opens the game with libgit2 and commits the same files as
#    durably (fsync of objects, refs and folders) and delivers two mails
#    of the turn's size as the outbox does; the floor without the mails,
#    the commit alone in one process and `git -c core.fsync=all add &&
#    commit` are shown for reference; a turn without its map: its CPU
#    time less that of the thread that paints the PNG (which the turn
#    traces), its instructions less those of that thread (png_job);
#  - starting each program (`postrider --version`, the floor's usage),
#    alternately, its CPU time and instructions;
#  - self-play games per second (the engine alone, one core);
#  - `postrider audit` of the same game cut at 150, 300 and 600 orders
#    and whole (a random game rarely lasts 600), to see that it is linear;
#  - peak RSS of a turn and of the longest audit, and what of a turn's
#    resident memory is shared library pages (bench/rollup.c);
#  - a game without a host (issue 41): a game between two copies played
#    by tests/e2e/peer-driver.py, each command timed: a turn (an order
#    and the other copy accepting it), a deal (an order that asks for a
#    shuffle and the automatic answers until the next decision),
#    `options`, and `peer audit` of the whole game, each against the
#    scalar multiplications it counted times OpenSSL's own cost of one
#    (bench/peer-crypto.c);
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
RUN="$(pwd)/$BUILD/bench-run"
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
load0=$(cut -d" " -f1-3 /proc/loadavg)
CG=
command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 && CG=yes

now_us() { date +%s%6N; }
# med LOG FIELD: the median of a field of the runs in LOG (bench/run.c:
# 2 wall us, 3 CPU us, 4 peak RSS KiB, 6 the load)
med() {
	awk -v f="$2" '/^run / { print $f }' "$1" | sort -n |
		awk '{ a[NR] = $1 } END { if (NR) printf "%d", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# loads LOG: the range of the load average over its runs
loads() {
	awk '/^run / { if (!n++ || $6 < lo) lo = $6; if ($6 > hi) hi = $6 } END { printf "%.2f-%.2f", lo, hi }' "$1"
}
ms() { awk "BEGIN { printf \"%.1f\", $1 / 1000 }"; }
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }
# instr FILE: the instructions callgrind counted; instr_in FILE FN: those
# of function FN and what it called
instr() { callgrind_annotate "$1" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,; }
instr_in() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v fn=":$2 " 'index($0, fn) { gsub(",", "", $1); print $1; exit }'
}
mega() { awk "BEGIN { printf \"%.1f M\", $1 / 1e6 }"; }
# mean_mail: the mean size of the mails in the game's outbox so far
mean_mail() {
	find "$T/game/.git/postrider/outbox/new" -type f -printf '%s\n' |
		awk '{ n++; s += $1 } END { print n ? int(s / n) : 0 }'
}

# One game played with random legal orders (a fixed awk seed), as long as
# it lasts or MAX_ORDERS. The first N turns are timed, each followed by
# its floor on a copy of the same game (with and without the mails); the
# turns after them are measured otherwise (peak RSS, a trace, the heap,
# the shared pages, callgrind).
"$P" new "$T/game" --american "A <a@example.org>" --british "B <b@example.org>" \
	--seed 00000000000000000000000000000000000000000000000000000000000000a1 \
	--mail-mode british=digest >/dev/null
i=0
: >"$T/growth"
: >"$T/turns"
: >"$T/floors"
: >"$T/floors0"
while [ $i -lt "$MAX_ORDERS" ]; do
	# the disk of the repository's objects every 50 orders (issue 33)
	[ $((i % 50)) -eq 0 ] && echo "$i $(du -sk "$T/game/.git/objects" | cut -f1)" >>"$T/growth"
	"$P" options "$T/game" --plain >"$T/opts"
	side=$(head -n 1 "$T/opts")
	[ "$side" = none ] && break
	tail -n +2 "$T/opts" |
		awk -v s=$i 'BEGIN { srand(s) } { a[NR] = $0 } END { print a[int(rand() * NR) + 1] }' >"$T/order"
	if [ $i -lt "$N" ]; then
		BENCH_TRACE=1 "$RUN" "$T/turns" "$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
		rm -rf "$T/floor"
		cp -a "$T/game" "$T/floor"
		"$RUN" "$T/floors" "$FLOOR" "$T/floor" 1 "$(mean_mail)" >/dev/null
		"$RUN" "$T/floors0" "$FLOOR" "$T/floor" 1 >/dev/null
	elif [ $i -eq "$N" ]; then	# one turn past the timed ones: where its time goes
		POSTRIDER_TRACE_PERF=1 "$P" play "$T/game" --as "$side" "$T/order" 2>&1 >/dev/null |
			sed -n 's/^perf: *//p' >"$T/trace"
	elif [ $i -eq $((N + 1)) ] && [ -n "$CG" ]; then
		# and the next: its heap at the peak (the rest of its RSS is
		# the shared libraries' pages)
		valgrind -q --tool=massif --massif-out-file="$T/massif" \
			"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	elif [ $i -eq $((N + 2)) ]; then	# and the next: shared and private pages
		ROLLUP_OUT="$T/rollup" LD_PRELOAD="$(pwd)/$BUILD/bench-rollup.so" \
			"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	elif [ $i -eq $((N + 3)) ] && [ -n "$CG" ]; then
		# and the next: its instructions and its floor's, on copies of
		# the same game, the floor with two mails of the turn's mean
		cp -a "$T/game" "$T/cg-floor"
		valgrind -q --tool=callgrind --callgrind-out-file="$T/cg.floor" \
			"$FLOOR" "$T/cg-floor" 1 "$(mean_mail)" >/dev/null 2>&1
		valgrind -q --tool=callgrind --callgrind-out-file="$T/cg.turn" \
			"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
		rm -rf "$T/cg-floor"
	else
		"$P" play "$T/game" --as "$side" "$T/order" >/dev/null 2>&1
	fi
	i=$((i + 1))
done
orders=$i
timed=$(grep -c '^run ' "$T/turns")
# a turn without its map's PNG: its CPU time less its painter's (the
# trace's line "PNG painted (its own thread)" gives that thread's CPU
# time); without its map: less the drawing of the map too (the main
# thread's CPU time from "order adjudicated" to "map drawn")
median() {
	sort -n | awk '{ a[NR] = $1 } END { printf "%d", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
awk '/^run / { if (have) print cpu, png, draw; cpu = $3; png = draw = 0; have = 1 }
	/^trace .* CPU  PNG painted/ { png = $4 * 1000 }
	/^trace .* CPU  order adjudicated/ { adj = $4 * 1000 }
	/^trace .* CPU  map drawn/ { draw = $4 * 1000 - adj }
	END { if (have) print cpu, png, draw }' "$T/turns" >"$T/shares"
awk '{ print $1 - $2 }' "$T/shares" | median >"$T/nopng"
awk '{ print $1 - $2 - $3 }' "$T/shares" | median >"$T/nomap"
png_cpu=$(awk '{ print $2 }' "$T/shares" | median)
draw_cpu=$(awk '{ print $3 }' "$T/shares" | median)
play_us=$(med "$T/turns" 2)
play_cpu=$(med "$T/turns" 3)
play_nopng_cpu=$(cat "$T/nopng")
play_nomap_cpu=$(cat "$T/nomap")
play_load=$(loads "$T/turns")
rss_play=$(awk '/^run / && $4 > m { m = $4 } END { print m }' "$T/turns")
rss_play_med=$(med "$T/turns" 4)
floor_us=$(med "$T/floors" 2)
floor_cpu=$(med "$T/floors" 3)
floor_load=$(loads "$T/floors")
floor_commit_us=$(med "$T/floors0" 2)
floor_commit_cpu=$(med "$T/floors0" 3)
mail_bytes=$(mean_mail)
rm -rf "$T/floor"
cp -a "$T/game" "$T/floor"
floor_inproc_us=$("$FLOOR" "$T/floor" "$N")

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

# What starting a process costs before main(): postrider --version, and
# the floor with no arguments (it prints its usage), 20 times each,
# alternately.
: >"$T/start"
: >"$T/start_floor"
i=0
while [ $i -lt 20 ]; do
	"$RUN" "$T/start" "$P" --version >/dev/null 2>&1 || true
	"$RUN" "$T/start_floor" "$FLOOR" >/dev/null 2>&1 || true
	i=$((i + 1))
done
start_us=$(med "$T/start" 2)
start_cpu=$(med "$T/start" 3)
floor_start_us=$(med "$T/start_floor" 2)
floor_start_cpu=$(med "$T/start_floor" 3)
start_load=$(loads "$T/start")
libs=$(ldd "$P" | wc -l)
floor_libs=$(ldd "$FLOOR" | wc -l)
if [ -n "$CG" ]; then
	valgrind -q --tool=callgrind --callgrind-out-file="$T/cg.start" "$P" --version >/dev/null 2>&1 || true
	valgrind -q --tool=callgrind --callgrind-out-file="$T/cg.start_floor" "$FLOOR" >/dev/null 2>&1 || true
fi

# git itself, with every fsync git can do.
git clone -q "$T/game" "$T/plain"
git -C "$T/plain" config user.name bench
git -C "$T/plain" config user.email bench@example.org
i=0
: >"$T/git"
while [ $i -lt "$N" ]; do
	echo "seq: $i" >>"$T/plain/state.yaml"
	echo "turn $i" >>"$T/plain/log.txt"
	echo "order $i" >"$T/plain/orders/bench-$i.txt"
	echo "$i" >>"$T/plain/private/state.sealed"
	"$RUN" "$T/git.add" git -C "$T/plain" -c core.fsync=all add -A
	"$RUN" "$T/git.commit" git -C "$T/plain" -c core.fsync=all commit -qm "turn $i"
	i=$((i + 1))
done
git_us=$(($(med "$T/git.add" 2) + $(med "$T/git.commit" 2)))
git_cpu=$(($(med "$T/git.add" 3) + $(med "$T/git.commit" 3)))

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

# Self-play on one core (it prints its own rate, of the wall-clock time).
"$RUN" "$T/selfplay" taskset -c 0 "$P" selfplay --games 300 --seed 7 >"$T/sp"
sp=$(tail -n 1 "$T/sp" | sed 's/.*; \([0-9.]*\) games\/s$/\1/')
sp_cpu=$(awk '/^run / { printf "%.1f", 300 / ($3 / 1e6) }' "$T/selfplay")
sp_load=$(loads "$T/selfplay")

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
	rm -f "$T/audit"
	"$RUN" "$T/audit" "$P" audit "$T/cut" >/dev/null 2>&1 || true
	set -- $(awk '/^run / { print $2, $3, $4, $6 }' "$T/audit")
	rss_audit=$3
	audit_rows="$audit_rows
| audit of $cut orders (a player's clone, no seed) | $(($1 / 1000)) ms (CPU $(($2 / 1000)) ms, load $4) | $(($2 / cut)) us of CPU per order | roughly: the CPU time |"
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

# A game without a host (issue 41): two copies, the mails between them
# passed by tests/e2e/peer-driver.py (as tests/e2e/t-peer.sh plays one),
# every postrider it starts timed by bench/run.c with its trace (the
# scalar multiplications it counted); then `peer audit` of the whole game.
# Each against the count of its scalar multiplications times OpenSSL's
# own cost of one (bench/peer-crypto.c).
PEER=$T/peer
mkdir -p "$PEER/bin"
printf '#!/bin/sh\nBENCH_TRACE=1 exec "%s" "%s" "%s" "$@"\n' "$RUN" "$PEER/runs" "$P" >"$PEER/bin/postrider"
chmod +x "$PEER/bin/postrider"
SA=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
SB=202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
"$P" peer new "$PEER/a" --me american --american "A <a@example.org>" --british "B <b@example.org>" \
	--secret "$SA" >/dev/null 2>&1
"$P" peer join "$PEER/b" --secret "$SB" --address "B <b@example.org>" \
	"$(ls "$PEER/a/.git/postrider/outbox/new/"*-peer-*)" >/dev/null 2>&1
"$P" play "$PEER/a" "$(ls "$PEER/b/.git/postrider/outbox/new/"*-peer-*)" >/dev/null 2>&1 || true
PATH="$PEER/bin:$PATH" /usr/bin/python3 tests/e2e/peer-driver.py "$PEER/a" "$PEER/b" 1 \
	"${BENCH_PEER_ORDERS:-800}" >"$PEER/driver.out" 2>&1 || true
: >"$PEER/audit"
BENCH_TRACE=1 "$RUN" "$PEER/audit" "$P" peer audit "$PEER/a" >/dev/null 2>&1 || true
"$(pwd)/$BUILD/bench-peer-crypto" 110 3 >"$PEER/crypto"
mul_us=$(sed -n 's/^mul_us //p' "$PEER/crypto")
/usr/bin/python3 - "$PEER/runs" "$PEER/audit" "$mul_us" "$PEER/a" "$PEER/b" >"$PEER/figures" <<'EOF'
import re, statistics, sys
runs, audit, mul_us = sys.argv[1], sys.argv[2], float(sys.argv[3])
copies = sys.argv[4:]
def entries(path):
    out = []
    for line in open(path):
        if line.startswith("run "):
            head, _, args = line.partition(" :: ")
            f = head.split()
            out.append({"wall": int(f[1]), "cpu": int(f[2]), "load": float(f[5]),
                        "args": args.split(), "mults": 0})
        elif out and "scalar multiplications" in line:
            out[-1]["mults"] = int(re.search(r"(\d+) scalar", line).group(1))
    return out
e = entries(runs)
# an order (play COPY --as SIDE -) and the mails it set going (play COPY
# MAIL) until the next order: one step of the game (the driver tries an
# order on a scratch copy first: not counted)
steps, cur = [], None
for r in e:
    a = r["args"]
    if len(a) < 3 or a[1] != "play" or a[2] not in copies:
        continue
    if "--as" in a:
        cur = [r]
        steps.append(cur)
    elif cur is not None:
        cur.append(r)
def total(step, k): return sum(r[k] for r in step)
def row(name, group, what):
    cpu = statistics.median(total(s, "cpu") for s in group)
    wall = statistics.median(total(s, "wall") for s in group)
    m = statistics.median(total(s, "mults") for s in group)
    lo = min(r["load"] for s in group for r in s)
    hi = max(r["load"] for s in group for r in s)
    print("%s|%s|%.1f|%.1f|%d|%.1f|%.2f|%.2f-%.2f|%d" % (name, what, wall / 1000, cpu / 1000, m,
          m * mul_us / 1000, cpu / 1000 / (m * mul_us / 1000) if m else 0, lo, hi, len(group)))
# a turn: an order answered by nothing but the other copy's acceptance
turns = [s for s in steps if len(s) == 2 and total(s, "mults") < 100]
# a deal: a step with a shuffle (a proof or its verification counts
# hundreds of multiplications)
deals = [s for s in steps if total(s, "mults") >= 500]
options = [[r] for r in e if len(r["args"]) > 2 and r["args"][1] == "options" and r["args"][2] in copies]
if turns:
    row("turn", turns, "a turn: an order and the other copy accepting it (the median of %d)" % len(turns))
if deals:
    row("deal", deals[:1], "the first deal: the order that asks for it and the %d automatic answers until the next decision" % (len(deals[0]) - 1))
    row("deals", deals, "every step of the game with a shuffle, the median of %d" % len(deals))
if options:
    row("options", options, "`options` of a copy (its hand unmasked with its own key), the median of %d" % len(options))
a = entries(audit)
if a:
    row("audit", [a], "`peer audit` of the whole game")
EOF
peer_result=$(tail -n 1 "$PEER/driver.out")
peer_rows=$(awk -F'|' -v mul="$mul_us" '{ printf "| %s | %s ms (CPU %s ms, load %s) | %s scalar multiplications x %s us = %s ms: its CPU time is %s times that | yes: the CPU time and the count |\n", $2, $3, $4, $8, $5, mul, $6, $7 }' "$PEER/figures")
peer_crypto=$(awk '{ printf "%s%s", sep, $0; sep = "; " }' "$PEER/crypto")

ratio_cpu=$(ratio "$play_cpu" "$floor_cpu")
ratio_nomap_cpu=$(ratio "$play_nomap_cpu" "$floor_cpu")
ratio_nopng_cpu=$(ratio "$play_nopng_cpu" "$floor_cpu")
ratio_wall=$(ratio "$play_us" "$floor_us")
ratio_commit_cpu=$(ratio "$play_cpu" "$floor_commit_cpu")
ratio_start_cpu=$(ratio "$start_cpu" "$floor_start_cpu")
if [ -n "$CG" ]; then
	i_turn=$(instr "$T/cg.turn")
	i_png=$(instr_in "$T/cg.turn" png_job)
	i_draw=$(instr_in "$T/cg.turn" map_draw)
	i_floor=$(instr "$T/cg.floor")
	i_start=$(instr "$T/cg.start")
	i_start_floor=$(instr "$T/cg.start_floor")
	instr_turn="$(mega "$i_turn") against the floor's $(mega "$i_floor"): ratio $(ratio "$i_turn" "$i_floor")"
	i_nopng=$((i_turn - ${i_png:-0}))
	i_nomap=$((i_nopng - ${i_draw:-0}))
	instr_nomap="without the PNG (the painter's thread, $(mega "${i_png:-0}")) $(mega "$i_nopng"): ratio $(ratio "$i_nopng" "$i_floor"); without the drawing too (map_draw, $(mega "${i_draw:-0}")) $(mega "$i_nomap"): ratio $(ratio "$i_nomap" "$i_floor")"
	instr_start="$(mega "$i_start") against the floor's $(mega "$i_start_floor"): ratio $(ratio "$i_start" "$i_start_floor")"
else
	instr_turn="no valgrind here"
	instr_nomap="no valgrind here"
	instr_start="no valgrind here"
fi
rk() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" "$T/rollup" 2>/dev/null; }
{
	echo "# Benchmarks (\`make bench\`)"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), $("$P" --version 2>/dev/null || echo postrider);"
	echo "a game of $orders orders played with random legal orders (fixed seed). Targets from"
	echo "issues 15, 33 and 41. The load average was $load0 as the bench began."
	echo
	echo "Every process is timed from outside by bench/run.c: its wall-clock time,"
	echo "beside it its CPU time (user + system) and the one-minute load average"
	echo "(the range over the runs); the figures are medians. On a busy machine"
	echo "(a load above the $(nproc) cores) wall-clock times mostly measure the wait"
	echo "for a core; CPU times grow less (shared caches, hyperthreads: some 20%"
	echo "here at a load of 10), and a ratio of two CPU times taken in turn holds"
	echo "better; instruction counts (callgrind) do not move with the load at all."
	echo "The last column says which figure holds on a busy machine."
	echo
	echo "| what | figure | against | on a busy machine |"
	echo "|---|---|---|---|"
	echo "| a turn (\`postrider play\`, median of the first $timed) | $(ms $play_us) ms (CPU $(ms $play_cpu) ms, load $play_load) | the floor's CPU: ratio $ratio_cpu (target at most 2.0, issue 41); of the wall-clock times $ratio_wall | the CPU ratio |"
	echo "| the same turn without its map: its CPU less the painter's thread's ($(ms $png_cpu) ms) and less the drawing of the map ($(ms $draw_cpu) ms; the trace's CPU times) | CPU $(ms $play_nomap_cpu) ms; without the PNG alone $(ms $play_nopng_cpu) ms | the floor's CPU: ratio $ratio_nomap_cpu (target at most 1.3, issue 41); without the PNG alone $ratio_nopng_cpu | the CPU ratio |"
	echo "| instructions of a turn (callgrind, turn $((N + 4))) | $instr_turn | the floor on a copy of the same game | yes |"
	echo "| instructions of that turn without the map's PNG | $instr_nomap | | yes |"
	echo "| the floor: bench/floor.c as a process after each turn on a copy of the same game, the same commit and two mails of the turn's mean size ($mail_bytes bytes at the end), fsync'd | $(ms $floor_us) ms (CPU $(ms $floor_cpu) ms, load $floor_load) | | the CPU time |"
	echo "| the same floor without the mails | $(ms $floor_commit_us) ms (CPU $(ms $floor_commit_cpu) ms) | a turn's CPU is $ratio_commit_cpu times this | the CPU time |"
	echo "| the commit alone in one long-running process (no start-up) | $(ms $floor_inproc_us) ms | for reference | no |"
	echo "| \`git -c core.fsync=all add && commit\` | $(ms $git_us) ms (CPU $(ms $git_cpu) ms) | for reference | the CPU time |"
	echo "| starting the program and exiting (\`postrider --version\`, $libs shared libraries; 20 runs, median) | $(ms $start_us) ms (CPU $(ms $start_cpu) ms, load $start_load) | the floor's program: $(ms $floor_start_us) ms (CPU $(ms $floor_start_cpu) ms, $floor_libs libraries): CPU ratio $ratio_start_cpu (target at most 1.5, issue 41) | the CPU ratio |"
	echo "| instructions of starting it | $instr_start | | yes |"
	echo "| self-play (one core) | $sp games/s; of the CPU time $sp_cpu games/s (load $sp_load) | target at least 200 | of the CPU time |"
	printf '%s\n' "$audit_rows" | sed '/^$/d'
	echo "| a VRF proof of one die (bench/vrf.c, mean of 500) | ${vrf% *} us | paid once per public draw by \`play\`; this game had $dice | no |"
	echo "| a VRF verification of one die | ${vrf#* } us | paid per die by every \`audit\` (included above) | no |"
	echo "| peak RSS of a turn (the most of the $timed timed turns; their median) | $rss_play KiB; $rss_play_med KiB | target under 16 MiB (16384 KiB, issue 33) | yes |"
	echo "| of which the heap at its peak (valgrind massif) | $heap_play KiB | most of the rest: pages of the $libs shared libraries | yes |"
	echo "| a turn's resident memory as it exits: in all; shared library pages (Shared_Clean); its own (Private_Dirty) | $(rk Rss) KiB; $(rk Shared_Clean) KiB; $(rk Private_Dirty) KiB | /proc/self/smaps_rollup (bench/rollup.c) | yes |"
	echo "| peak RSS of the longest audit | $rss_audit KiB | | yes |"
	echo "| disk: the repository of this game of $orders orders (.git as postrider leaves it, objects loose) | $disk_git KB | packed by \`git gc\`: $disk_packed KB | yes |"
	echo "| disk: its objects' growth | $growth | log.txt ($disk_log bytes at the end) is committed whole each turn | yes |"
	echo "| disk: the work tree; the host's secret and clock | $disk_tree KB; $disk_host KB | | yes |"
	echo "| disk: the mail of the whole game ($n_mail reports, all kept here: transport outbox) | $disk_mail KB | a host that sends keeps two weeks of it, at least the last 20 (outbox/cur) | yes |"
	echo
	echo "## A game without a host (issue 41)"
	echo
	echo "Two copies on this machine, the mails between their postriders passed"
	echo "by tests/e2e/peer-driver.py ($peer_result); each postrider it started"
	echo "timed, with the scalar multiplications it counted (a double one counts 2,"
	echo "a multi-scalar one of n terms n). Against: that count times OpenSSL's own"
	echo "cost of one, $mul_us us of CPU (EC_POINT_mul of a point by a random"
	echo "scalar, bench/peer-crypto.c). A multi-scalar multiplication costs less"
	echo "than its terms one by one, so a verifier can come in under 1."
	echo
	echo "| what | figure | against | on a busy machine |"
	echo "|---|---|---|---|"
	printf '%s\n' "$peer_rows"
	echo
	echo "bench/peer-crypto.c (110 cards, CPU time): $peer_crypto."
	echo
	# what issue 41 changed, each change with its measured saving
	# (measured once; the file says how)
	cat bench/issue-41.md
	echo
	echo "What a turn does beyond the floor: reading and checking the state and"
	echo "the data (YAML, parsed at every run), adjudicating, sealing the private"
	echo "state, writing two reports with the map as a PNG (cairo, zlib), the"
	echo "patch for \`git am\`, and the outbox. Profiles: \`perf record\` on"
	echo "\`postrider play\`; see docs/robustness.md for where the time went before."
	if [ -s "$T/trace" ]; then
		echo
		echo "One turn traced (\`POSTRIDER_TRACE_PERF=1 postrider play ...\`: milliseconds"
		echo "since main() began, then the CPU time of the thread that traced, the"
		echo "start-up before main() included; the PNG is painted in a thread of its"
		echo "own while the commit is written):"
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
	echo "  names kept exact), zlib's best level with chains of 64 (512 before"
	echo "  issue 41: 4% lighter for half again the painter's time), at scale"
	echo "  0.75. 24-bit RGB as mailed before (rgb-fastest) is four times the"
	echo "  weight; 32 or 64 colours add a fifth to a third for no visible gain;"
	echo "  zlib's best level untuned saves 7% more for four times the time. A"
	echo "  smaller scale is lighter, but its letters fall under 7.5 pixels: not"
	echo "  taken. The map as mailed before issue 41 (fonts through fontconfig,"
	echo "  stroked halos, chains of 512) is the last row."
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
