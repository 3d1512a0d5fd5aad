#!/bin/sh
#
# Issue 29: the player's mail is light. A whole game is played by mail:
# each order is a random legal one (a fixed seed), written as a player's
# reply to the last report he received (subject with its token, the
# report quoted below the order, a signature) and given to `postrider
# play` as a mail; the American is mailed every turn, the British in
# digest mode. Then every report of the game is weighed: none over 120 KB,
# the median under 60 KB, and the map in every report that asks for a
# decision (and in no report of the digest without one). The first report
# carries its commit's patch lighter (the component data deflated) and
# `git am` still applies it.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/game
new_game "$G" --mail-mode british=digest
OUT=$(outbox "$G")/new

# The game by mail: the driver prints one line per order ("order N SIDE
# exit STATUS") and "end ..." when the game is over or the orders run out.
"$PY" - "$G" "$OUT" "$AMERICAN" "$BRITISH" "$HOST" >"$TRASH/game.out" 2>"$TRASH/game.err" <<'EOF'
import email, os, random, re, subprocess, sys
from email import policy
game, out, american, british, host = sys.argv[1:6]
players = {"american": american, "british": british}
rnd = random.Random(29)

def last_report(side):
    """The newest report mailed to side: the highest order number."""
    best = None
    for name in os.listdir(out):
        m = re.match(r"[0-9a-f]{40}-(\d{4})-(american|british)\.", name)
        if m and m.group(2) == side and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), name)
    return os.path.join(out, best[1])

def reply(report, sender, order, n):
    with open(report, "rb") as f:
        m = email.message_from_binary_file(f, policy=policy.default)
    text = m.get_body(("plain",)).get_content()
    quoted = "\n".join("> " + l if l else ">" for l in text.splitlines())
    return ("From: %s\nTo: %s\nSubject: Re: %s\nDate: Wed, 15 Nov 2023 09:30:00 +0000\n"
            "Message-ID: <size.%d@example.org>\nIn-Reply-To: %s\nReferences: %s\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: 8bit\n\n%s\n\nOn Tue, 14 Nov 2023, Host wrote:\n%s\n\n-- \n%s\n"
            % (sender, host, m["Subject"], n, m["Message-ID"], m["Message-ID"], order,
               quoted, sender.split(" <")[0])).encode()

n = 0
while n < 600:
    opts = subprocess.run(["postrider", "options", game, "--plain"], capture_output=True, text=True)
    lines = opts.stdout.splitlines()
    if opts.returncode or not lines:
        print("end options failed:", opts.stderr.strip())
        break
    side = lines[0]
    if side == "none":
        print("end game over after", n, "orders")
        break
    order = rnd.choice(lines[1:])
    n += 1
    r = subprocess.run(["postrider", "play", game, "-"], input=reply(last_report(side), players[side], order, n),
                       capture_output=True)
    print("order", n, side, "exit", r.returncode, order)
    if r.returncode:
        sys.stderr.write(r.stdout.decode() + r.stderr.decode())
        break
else:
    print("end 600 orders")
EOF
expect_grep "the game was played to its end by mail" '^end game over after' "$TRASH/game.out"
expect_eq "every order was accepted" "" "$(grep '^order' "$TRASH/game.out" | grep -v ' exit 0 ')"
show_file "$TRASH/game.err"
orders=$(grep -c '^order' "$TRASH/game.out")
expect_eq "each order a commit" $((orders + 1)) "$(commit_count "$G")"

# Every report weighed, with what it carries
"$PY" - "$OUT" >"$TRASH/sizes" <<'EOF'
import email, os, re, statistics, sys
from email import policy
out = sys.argv[1]
for name in sorted(os.listdir(out)):
    m = re.match(r"[0-9a-f]{40}-(\d{4})-(american|british)\.", name)
    if not m:
        continue
    with open(os.path.join(out, name), "rb") as f:
        raw = f.read()
    msg = email.message_from_bytes(raw, policy=policy.default)
    types = [p.get_content_type() for p in msg.walk() if not p.is_multipart()]
    subject = msg["Subject"]
    kind = "decision" if "your move" in subject else "over" if "game over" in subject else "news"
    print(m.group(2), m.group(1), len(raw), kind, "map" if "image/png" in types else "nomap",
          "svg" if "image/svg+xml" in types else "-", "patch" if "text/x-patch" in types else "-")
EOF
reports=$(grep -c . "$TRASH/sizes")
max=$(awk '{ print $3 }' "$TRASH/sizes" | sort -n | tail -n 1)
median=$(awk '{ print $3 }' "$TRASH/sizes" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }')
echo "# $orders orders, $reports reports: largest $max bytes, median $median bytes"
awk '{ s[$1] += $3; n[$1]++ } END { for (k in s) printf "# %s: %d reports, %d bytes\n", k, n[k], s[k] }' "$TRASH/sizes"
expect_eq "every report carries its patch" "" "$(grep -v ' patch$' "$TRASH/sizes")"
expect_eq "no report over 120 KB" 1 "$([ "$max" -le 122880 ] && echo 1)"
expect_eq "the median report under 60 KB" 1 "$([ "$median" -lt 61440 ] && echo 1)"
expect_eq "the map in every report that asks for a decision" "" \
	"$(awk '$4 == "decision" && $5 != "map"' "$TRASH/sizes")"
expect_eq "... and in the last" "" "$(awk '$4 == "over" && $5 != "map"' "$TRASH/sizes")"
expect_eq "the digest's reports all ask or end (but the first)" "" "$(awk '$1 == "british" && $2 != "0000" && $4 == "news"' "$TRASH/sizes")"
expect_ne "some reports without a decision leave the unchanged map out" "" \
	"$(awk '$4 == "news" && $5 == "nomap"' "$TRASH/sizes")"
expect_eq "no report attaches the SVG" "" "$(awk '$6 == "svg"' "$TRASH/sizes")"

# A report without the map says why; one with a changed board has it.
f=$(awk '$4 == "news" && $5 == "nomap" { print $1, $2; exit }' "$TRASH/sizes")
R=$(ls "$OUT"/*-"${f#* }"-"${f% *}".*)
mail_part "$R" text/plain >"$TRASH/nomap.txt"
expect_grep "the report without a map says the board is unchanged" \
	'No map this time: the board is as the map of your last report shows it' "$TRASH/nomap.txt"

# The first report: the component data in the patch deflated, and the
# patch still rebuilds the first commit from nothing.
first=$(git -C "$G" rev-list --max-parents=0 HEAD)
mail_part "$(report_for "$G" american "$first")" text/x-patch >"$TRASH/first.patch"
expect_grep "the first patch carries the data as binary patches" \
	'^ data/cards.yaml *| Bin 0 -> [0-9]* bytes$' "$TRASH/first.patch"
expect_grep "... and game.yaml as text" '^+players:' "$TRASH/first.patch"
git init -q "$TRASH/copy"
GIT_COMMITTER_NAME=$(git -C "$G" log -1 --format=%cn "$first") \
GIT_COMMITTER_EMAIL=$(git -C "$G" log -1 --format=%ce "$first") \
GIT_COMMITTER_DATE=$(git -C "$G" log -1 --format='%ct %cz' "$first") \
	git -C "$TRASH/copy" am -q "$TRASH/first.patch" >"$TRASH/am.out" 2>&1 ||
	fail "git am of the first patch" "$(cat "$TRASH/am.out")"
expect_eq "git am of the first patch gives the first commit" "$first" \
	"$(git -C "$TRASH/copy" rev-parse HEAD 2>&1)"

test_done
