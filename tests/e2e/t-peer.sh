#!/bin/sh
#
# Issue 34: a game between two players with no host (docs/peer.md). Two
# copies in two folders, each with its own secret; the mails between
# their postriders are passed by hand (files from one outbox given to the
# other's `postrider play`). Both copies end with the same commits.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

A=$TRASH/alice
B=$TRASH/bob

# the newest mail in a copy's outbox
last_mail() {
	_d=$(outbox "$1")/new
	ls -t "$_d" | head -n 1 | sed "s|^|$_d/|"
}

# --- 9.1: the invitation ---------------------------------------------------
expect_exit 0 postrider peer new "$A" --me american --american "$AMERICAN" \
	--british "$BRITISH" --secret "$SA"
expect_grep "peer new says the game and the side" "^created peer game ww-[0-9a-f]\{8\} in .*: the american" "$TRASH/out"
expect_grep "peer new prints the fingerprint" "^fingerprint: [0-9a-f]\{16\} " "$TRASH/out"
expect_grep "peer new prints the data, its hash and options" \
	"^data: washingtons-war, hash [0-9a-f]\{64\}, options: none$" "$TRASH/out"
FP=$(sed -n 's/^fingerprint: \([0-9a-f]*\) .*/\1/p' "$TRASH/out")
ID=$(sed -n 's/^created peer game \(ww-[0-9a-f]*\) .*/\1/p' "$TRASH/out")
SECRET=$A/.git/postrider/peer-secret
expect_eq "the secret is the player's alone (0600)" "600" "$(stat -c %a "$SECRET")"
expect_eq "the secret is never committed" "" "$(git -C "$A" ls-files | grep -c secret | grep -v '^0$')"
expect_eq "the invitation is one mail in the outbox" "1" "$(outbox_count "$A")"
INV=$(last_mail "$A")
expect_grep "the invitation is addressed to the British" "^To: .*bob@example.org" "$INV"
expect_grep "the invitation is automatic mail" "^Auto-Submitted: auto-generated" "$INV"
expect_grep "the invitation's subject" "^Subject: \[$ID\] peer 1 american invite" "$INV"
expect_fixed "game.yaml says mode peer" "mode: peer" "$A/game.yaml"
expect_no_fixed "game.yaml has no host" "host:" "$A/game.yaml"
expect_eq "the invitation's trailers" "Postrider-Kind: invite|Postrider-Waits: british join" \
	"$(git -C "$A" log -1 --format=%B | grep -E '^Postrider-(Kind|Waits)' | tr '\n' '|' | sed 's/|$//')"

# a second invitation from the same secret at the same time: the same commit
postrider peer new "$TRASH/again" --me american --american "$AMERICAN" \
	--british "$BRITISH" --secret "$SA" >/dev/null 2>&1
expect_eq "the invitation is a function of its facts" \
	"$(git -C "$A" rev-parse HEAD)" "$(git -C "$TRASH/again" rev-parse HEAD)"

# --- 9.1: the join -----------------------------------------------------------
expect_exit 1 postrider peer join "$TRASH/nothing" "$A/game.yaml"
expect_eq "a file that is no invitation makes no copy" "no" \
	"$(test -e "$TRASH/nothing" && echo yes || echo no)"

expect_exit 1 postrider peer join "$TRASH/bob0" --secret "$SB" "$INV"
expect_grep "peer join needs the joiner's own address" \
	"needs --address ADDR, your own address: the invitation names Bob <bob@example.org> for the british" "$TRASH/err"
expect_eq "no copy without the joiner's address" "no" \
	"$(test -e "$TRASH/bob0" && echo yes || echo no)"
expect_exit 0 postrider peer join "$B" --secret "$SB" --address "$BRITISH" "$INV"
expect_grep "peer join prints the inviter's fingerprint" "^fingerprint: $FP " "$TRASH/out"
expect_grep "peer join prints the data it accepts (9.1)" \
	"^data: washingtons-war, hash [0-9a-f]\{64\}, options: none$" "$TRASH/out"
expect_grep "peer join prints the joiner's own address (9.1)" "^your address: Bob <bob@example.org> " "$TRASH/out"
expect_eq "the joiner's copy holds the invitation" \
	"$(git -C "$A" rev-parse HEAD)" "$(git -C "$B" rev-parse HEAD~1)"
expect_eq "the joiner's secret is his alone (0600)" "600" "$(stat -c %a "$B/.git/postrider/peer-secret")"
JOIN=$(last_mail "$B")
expect_grep "the join goes to the American" "^To: .*alice@example.org" "$JOIN"
expect_grep "the join is commit 2" "^Subject: \[$ID\] peer 2 british join" "$JOIN"
expect_fixed "the joint key is in the joiner's game.yaml" "joint_key: " "$B/game.yaml"

# an invitation to another address than the joiner's own (--address), or
# with other rules data than his: refused, no copy made
expect_exit 1 postrider peer join "$TRASH/bob3" --secret "$SB" --address "Bob <bob@elsewhere.example>" "$INV"
expect_grep "--address: an invitation to another address is refused" "not yours (bob@elsewhere.example)" "$TRASH/err"
expect_eq "no copy from an invitation to another address" "no" \
	"$(test -e "$TRASH/bob3" && echo yes || echo no)"
expect_exit 0 postrider peer join "$TRASH/bob4" --secret "$SB" --address "bob@EXAMPLE.org" \
	--data "$POSTRIDER_GAMES/washingtons-war" "$INV"
cp -r "$POSTRIDER_GAMES/washingtons-war" "$TRASH/otherdata"
printf '\n' >>"$TRASH/otherdata/cards.yaml"
expect_exit 1 postrider peer join "$TRASH/bob5" --secret "$SB" --address "$BRITISH" --data "$TRASH/otherdata" "$INV"
expect_grep "--data: other data than the invitation's is refused" "is not the data given with --data" "$TRASH/err"
expect_eq "no copy from an invitation with other data" "no" \
	"$(test -e "$TRASH/bob5" && echo yes || echo no)"

# a tampered invitation is refused, and no copy is made
"$PY" - "$INV" "$TRASH/bad-inv.eml" <<'EOF'
import sys, email, base64
from email import policy
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=policy.compat32)
for part in m.walk():
    if (part.get_filename() or "").endswith(".patch"):
        t = base64.b64decode(part.get_payload())
        t = t.replace(b"invites the British", b"invites the Britosh")
        part.set_payload(base64.encodebytes(t).decode())
open(sys.argv[2], "wb").write(m.as_bytes())
EOF
expect_exit 1 postrider peer join "$TRASH/bob2" --secret "$SB" --address "$BRITISH" "$TRASH/bad-inv.eml"
expect_eq "no copy from a tampered invitation" "no" \
	"$(test -e "$TRASH/bob2" && echo yes || echo no)"

# --- the inviter accepts the join ------------------------------------------
expect_exit 0 postrider play "$A" "$JOIN"
BFP=$(postrider peer status "$B" | sed -n 's/^british: .*fingerprint \([0-9a-f]*\).*/\1/p')
expect_grep "the inviter is told the joiner's fingerprint (9.1)" \
	"accepted: the british joined .*fingerprint: $BFP " "$TRASH/err"
NOTICE=$(ls "$(outbox "$A")/new/"*-joined-* 2>/dev/null | head -n 1)
expect_ne "the inviter's player is mailed a notice of the join" "" "$NOTICE"
expect_grep "the notice gives the joiner's fingerprint" "^ *$BFP" "$NOTICE"
expect_grep "the notice goes to the inviter" "^To: .*alice@example.org" "$NOTICE"
expect_eq "both copies have the same head" \
	"$(git -C "$A" rev-parse HEAD)" "$(git -C "$B" rev-parse HEAD)"
expect_eq "both copies have the same tree" \
	"$(git -C "$A" rev-parse HEAD^{tree})" "$(git -C "$B" rev-parse HEAD^{tree})"
expect_exit 0 postrider play "$A" "$JOIN"
expect_grep "a mail given twice is a copy" "already applied" "$TRASH/err"
expect_exit 0 postrider peer status "$A"
expect_grep "status: the American's copy" "this copy is the american's" "$TRASH/out"
expect_grep "status: the American decides" "^waits: american decision" "$TRASH/out"
expect_exit 0 postrider peer status "$B"
expect_grep "status: the British copy" "this copy is the british's" "$TRASH/out"

# --- the player's order by mail to his own postrider (8.4, 8.5) ------------
REPORT=$(ls "$(outbox "$A")/new/"*-report-* 2>/dev/null | tail -n 1)
expect_ne "the American's postrider reports his decision to him" "" "$REPORT"
expect_grep "the report goes to its own player" "^To: .*alice@example.org" "$REPORT"
expect_grep "the report lists his legal orders, grouped as host mode's" "^  place SPACE " "$REPORT"
expect_grep "... with every space he may name" "MA: Falmouth MA," "$REPORT"
expect_grep "the report carries the map (a PNG)" "^Content-Type: image/png" "$REPORT"
expect_grep "the report carries the board" "^The board:" "$REPORT"
expect_grep "the report carries the patch of the head" "^Content-Type: text/x-patch" "$REPORT"
# an order with no decision (an empty mail, comments only): refused, as
# the other copy would refuse an order commit with no line
_head=$(git -C "$A" rev-parse HEAD)
reply_mail "$REPORT" "$AMERICAN" "# only a comment" >"$TRASH/order0.eml"
expect_exit 1 postrider play "$A" "$TRASH/order0.eml"
expect_grep "an order with no decision is refused" "the order holds no decision" "$TRASH/err"
printf '' >"$TRASH/empty.txt"
expect_exit 1 postrider play "$A" --as american "$TRASH/empty.txt"
expect_eq "an order with no decision changes nothing" "$_head" "$(git -C "$A" rev-parse HEAD)"
reply_mail "$REPORT" "$AMERICAN" "place Falmouth MA" >"$TRASH/order1.eml"
expect_exit 0 postrider play "$A" "$TRASH/order1.eml"
expect_grep "a mailed order is played" "accepted: order 1 of the american" "$TRASH/out"
expect_exit 1 postrider play "$A" "$TRASH/order1.eml"
expect_grep "its token does not serve twice" "stale" "$TRASH/err"
reply_mail "$REPORT" "$BRITISH" "place Falmouth MA" >"$TRASH/order-bob.eml"
expect_exit 1 postrider play "$A" "$TRASH/order-bob.eml"
expect_grep "the opponent cannot order for the American" "is not this copy's player" "$TRASH/err"
ORDER_MAIL=$(ls -t "$(outbox "$A")/new/"*-peer-* | head -n 1)
expect_exit 0 postrider play "$B" "$ORDER_MAIL"
expect_eq "the mailed order reached the other copy" \
	"$(git -C "$A" rev-parse HEAD)" "$(git -C "$B" rev-parse HEAD)"

# --- a whole game, the mails passed by a driver (7, 9) ----------------------
"$PY" tests/e2e/peer-driver.py "$A" "$B" 1 800 >"$TRASH/game.out" 2>&1
tail -n 1 "$TRASH/game.out" | sed 's/^/# /'
expect_grep "the game is played to its end" "^orders [0-9]* automatic [0-9]* end over$" "$TRASH/game.out"
expect_no_grep "no mail between the postriders is refused" "exit [^03]" "$TRASH/game.out"
expect_eq "both copies end with the same head" \
	"$(git -C "$A" rev-parse HEAD)" "$(git -C "$B" rev-parse HEAD)"
expect_eq "both copies end with the same tree" \
	"$(git -C "$A" rev-parse HEAD^{tree})" "$(git -C "$B" rev-parse HEAD^{tree})"
expect_eq "both work trees are their commits" "" \
	"$(git -C "$A" status --porcelain; git -C "$B" status --porcelain)"
# the end, told to each player once by his own postrider (the host's
# report of a game over)
for _c in "$A" "$B"; do
	_last=$(ls -t "$(outbox "$_c")/new/"*-report-* | head -n 1)
	expect_grep "the end is reported to the player of $(basename "$_c")" \
		"^Subject: \[ww-[0-9a-f]*\] [0-9]*: game over" "$_last"
	expect_eq "... once" 1 "$(grep -l "^Subject: .*: game over" "$(outbox "$_c")/new/"*-report-* | wc -l)"
done
AUTO=$(sed -n 's/^orders [0-9]* automatic \([0-9]*\) end .*/\1/p' "$TRASH/game.out")
ORDERS=$(sed -n 's/^orders \([0-9]*\) automatic.*/\1/p' "$TRASH/game.out")
echo "# automatic mails: $AUTO in a game of $ORDERS orders"
expect_ne "some dice were drawn by request and answer" "0" \
	"$(grep -c . "$A/peer/dice.txt" 2>/dev/null || echo 0)"
expect_grep "the deck had more than one generation" "." "$A/peer/shuffles/2-2.txt"
expect_eq "both keys are published at the end (9.12)" "american british" \
	"$(cut -d' ' -f1 "$A/peer/keys.txt" | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "the last commit is the end" "Postrider-Kind: end" \
	"$(git -C "$A" log -1 --format=%B | grep '^Postrider-Kind')"
expect_eq "nobody owes anything after the end" "" \
	"$(git -C "$A" log -1 --format=%B | grep '^Postrider-Waits')"
expect_ne "some order had sealed lines, shown as they ran and salted (6.4)" "" \
	"$(grep -rl "^# salt " "$A/orders")"
expect_eq "every order file left with its lines shown" "" \
	"$(grep -rl "sealed until it runs" "$A/orders")"
# no slot still in a hand has both shares in the record: nobody but its
# owner knows it (10)
"$PY" - "$A" >"$TRASH/open.out" <<'EOF'
import re, sys
top = sys.argv[1]
state = open(top + "/state.yaml").read()
hands = re.findall(r"^    (american|british): \[(.*)\]$", state.split("\npeer:\n")[1], re.M)
shares = {}
for line in open(top + "/peer/shares.txt"):
    slot, side, _ = line.split()
    shares.setdefault(slot, set()).add(side)
for side, items in hands:
    for x in [i.strip() for i in items.split(",") if i.strip()]:
        if x.startswith("s") and len(shares.get(x, ())) == 2:
            print("open", side, x)
        if x.startswith("s") and side in shares.get(x, ()):
            print("own share given", side, x)
EOF
expect_eq "no card in a hand is open to both, no owner gave a share of a card he holds" "" "$(cat "$TRASH/open.out")"

# --- the audit of a copy, by anyone (9.12) ------------------------------------
expect_exit 0 postrider peer audit "$A"
expect_grep "the audit replays every commit" "commits replayed by the rule of section 7" "$TRASH/out"
expect_grep "the audit opens every card with the published keys" "slots opened, every share is its key's" "$TRASH/out"
git clone -q "$A" "$TRASH/tampered" 2>/dev/null
git -C "$TRASH/tampered" checkout -q -B main origin/main 2>/dev/null
echo "an extra line" >>"$TRASH/tampered/log.txt"
git -C "$TRASH/tampered" commit -q -a --amend --no-edit
expect_exit 1 postrider peer audit "$TRASH/tampered"
expect_grep "the audit finds a changed commit" "does not replay" "$TRASH/out"

test_done
