#!/bin/sh
#
# No reply is an oracle, in a game without a host (issue 34; docs/peer.md
# section 10, docs/fairness.md's oracle test, tests/e2e/t-oracle.sh).
#
# The same game twice, on one machine (tests/e2e/peer_local.py passes the
# mails between the two copies): the same British secret, two American
# secrets, hence two American hands (and two deals), and the same British
# orders. Everything the British copy shows its player that depends
# neither on a die nor on a card already public must be the same bytes in
# both (the game's id, commit ids, reply tokens and fingerprints, which
# come from the American's keys, replaced by names):
#  - before the deal: his options, `check` of his set-up with a bad line
#    after it, the rejection of a bad set-up order, and his reports'
#    sizes and subjects;
#  - at the deal and after it: the size and subject of every mail his
#    postrider receives from the other (the shuffle, the shares), in
#    order, and the subjects of his reports;
#  - after the deal: for every card that is in his hand in neither game
#    (so in the American's hand in one and in the deck in the other, or
#    in both hands...), `check` of a play of it as an event and as OPS,
#    and the rejection of such a play: "you do not hold it" must not say
#    where it is;
#  - at his first card play (issue 38): his postrider's report, the
#    host's report (templates/turn.txt), with the parts that show his own
#    hand left out (his hand, the orders it allows): the story, the
#    board, the prompt, the map (its PNG's bytes); and the answers to
#    'board', 'discards' and 'log' mailed to his own copy.
# The two games must really differ: the American hands (opened here with
# the American secrets and the British shares, docs/peer.md 4.6) are not
# the same.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

SB=202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
SA1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
SA2=1111111111111111111111111111111111111111111111111111111111111111

for k in 1 2; do
	eval "sa=\$SA$k"
	"$PY" - "$TRASH/run$k" "$AMERICAN" "$BRITISH" "$sa" "$SB" "$TRASH/hands" \
		>"$TRASH/seen$k" 2>"$TRASH/driver$k.err" <<'EOF'
import os, re, sys
sys.path.insert(0, "tests/e2e")
sys.path.insert(0, "tests/verify")
import peer_local
import verify_peer as vp

top, american, british, secret_am, secret_br, hands_file = sys.argv[1:7]
pair = peer_local.Pair(top, american, british)
pair.start(secret_am, secret_br)
B = pair.dir["british"]

def norm(text):
    text = re.sub(r"ww-[0-9a-f]{8}", "GAME", text)
    # a reply token is keyed by the game's id too (docs/fairness.md 8)
    text = re.sub(r"\b[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}\b", "TOKEN", text)
    text = re.sub(r"\b[0-9a-f]{40}\b", "OID", text)
    text = re.sub(r"\b[0-9a-f]{16}\b", "FP", text)
    return re.sub(r"\b[0-9a-f]{12}\b", "OID", text)

def say(*parts):
    print(norm(" ".join(str(p) for p in parts)).replace("\n", "\n  "))

def dealt():
    return os.path.exists(os.path.join(B, "peer", "shuffles", "1-2.txt"))

def first_legal(side):
    rc, out, err = pair.options(side)
    lines = out.splitlines()
    if rc or len(lines) < 2 or lines[0] != side:
        raise SystemExit("options of the %s: %s %s" % (side, out, err))
    return lines[1]

# the set-up: the American's orders are the same in both games (nothing
# is hidden yet), the British tries bad ones first
n = 0
while not dealt() and n < 60:
    n += 1
    side = pair.deciding()
    if side not in ("american", "british"):
        raise SystemExit("the copies disagree, or nobody decides: %s" % side)
    order = first_legal(side)
    if side == "british":
        rc, out, err = pair.options("british")
        say("british options", rc, out)
        rc, out, err = pair.check("british", order + "\nplace Atlantis")
        say("british check with a bad line", rc, out, err)
        head = pair.head("british")
        rc, out, err = pair.play("british", "place Atlantis")
        say("british play of a bad order", rc, out, err)
        if pair.head("british") != head:
            raise SystemExit("a rejected order changed the British copy")
    # the reports he has before this order, all from before the deal
    before_deal = [r for r in pair.reports if r[0] == "british"]
    rc, out, err = pair.play(side, order)
    if rc not in (0, 3):
        raise SystemExit("the %s's set-up order %r: exit %d: %s" % (side, order, rc, err))
if not dealt():
    raise SystemExit("no deal after %d set-up orders" % n)
pair.pump()
if pair.head("american") != pair.head("british"):
    raise SystemExit("the copies differ after the deal")

# the hands, opened with the secrets (docs/peer.md 4.6)
def slots_of(side):
    text = open(os.path.join(B, "state.yaml")).read()
    text = text[text.index("\npeer:"):]
    m = re.search(r"\n  hands:\n(?:    .*\n)*?    %s: \[([^]]*)\]" % side, text)
    return [s.strip() for s in m.group(1).split(",") if s.strip()] if m else []

def masked(slot):
    g, i = slot[1:].split(".")
    lines = open(os.path.join(B, "peer", "shuffles", "%s-2.txt" % g)).read().split("\n")
    return bytes.fromhex([l[4:] for l in lines if l.startswith("out ")][int(i)])

def shares():
    got = {}
    for line in open(os.path.join(B, "peer", "shares.txt")).read().split("\n"):
        if line:
            slot, side, hexa = line.split(" ")
            got[(slot, side)] = bytes.fromhex(hexa)
    return got

def hand(side, secret):
    k, sh, other = vp.keys(bytes.fromhex(secret)), shares(), \
        "british" if side == "american" else "american"
    cards = []
    for ref in slots_of(side):
        if ref.startswith("#"):
            cards.append(int(ref[1:]))
        else:
            cards.append(vp.unmask_own(k, masked(ref), sh[(ref, other)], 110))
    return sorted(cards)

am_hand, br_hand = hand("american", secret_am), hand("british", secret_br)
with open(hands_file, "a") as f:
    f.write("american %s\nbritish %s\n" % (" ".join(map(str, am_hand)), " ".join(map(str, br_hand))))
print("# hands: american", am_hand, "british", br_hand, file=sys.stderr)

for side, to, name, size, subject in pair.passed:
    if to == "british":
        say("mail to the british postrider", size, subject)
say("reports to the british", len([r for r in pair.reports if r[0] == "british"]))
for side, name, size, subject in before_deal:
    say("report to the british before the deal:", size, "bytes", subject)
for side, name, size, subject in pair.reports:
    if side == "british":
        say("report to the british:", subject)
print("DEALT")
EOF
	[ -s "$TRASH/driver$k.err" ] && sed 's/^/# run '$k': /' "$TRASH/driver$k.err"
	grep -q '^DEALT$' "$TRASH/seen$k" ||
		die "run $k: the game reaches the deal: $(tail -n 3 "$TRASH/driver$k.err")"
done

# the cards in the British hand in either game are left out of the probes;
# one in his hand in game 1 and not in game 2 is the control: there the
# answers must differ (the probe does see a hand, his own)
br1=$(sed -n 's/^british //p' "$TRASH/hands" | sed -n 1p)
br2=$(sed -n 's/^british //p' "$TRASH/hands" | sed -n 2p)
exclude=$(printf '%s %s\n' "$br1" "$br2" | tr ' ' '\n' | sort -un | tr '\n' ' ')
control=$(for c in $br1; do case " $br2 " in *" $c "*) ;; *) echo "$c" ;; esac; done | head -n 1)
am1=$(sed -n 's/^american //p' "$TRASH/hands" | sed -n 1p)
am2=$(sed -n 's/^american //p' "$TRASH/hands" | sed -n 2p)
expect_ne "the two games deal the American two different hands" "$am1" "$am2"
expect_ne "... each of some cards" "" "$am1"
[ -n "$control" ] || die "a card in the British hand of game 1 only"

# After the deal, the same British and American orders, named (the first
# legal one may name a card of a hand): the British does not declare
# himself first (5.3.a), the American lets him play first. Then, at the
# British card play, every card of neither British hand is tried: the
# answer's reason, the line and the prompt (not the list of his own
# legal orders that follows, which shows his own hand).
for k in 1 2; do
	"$PY" - "$TRASH/run$k" "$AMERICAN" "$BRITISH" "$exclude" "$control" \
		>>"$TRASH/seen$k" 2>>"$TRASH/driver$k.err" 3>"$TRASH/control$k" <<'EOF'
import os, re, sys
sys.path.insert(0, "tests/e2e")
import peer_local

top, american, british, exclude, control = sys.argv[1:6]
pair = peer_local.Pair(top, american, british)
skip = {int(c) for c in exclude.split()}
ctl = os.fdopen(3, "w")

def norm(text):
    text = re.sub(r"ww-[0-9a-f]{8}", "GAME", text)
    text = re.sub(r"\b[0-9a-f]{40}\b", "OID", text)
    text = re.sub(r"\b[0-9a-f]{12}\b", "OID", text)
    # a reply token is keyed by the game's id too (docs/fairness.md 8)
    text = re.sub(r"\b[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}\b", "TOKEN", text)
    # a rejection's list of the legal orders shows the player's own hand
    return re.sub(r"Your orders now.*", "(his legal orders)", text, flags=re.S)

for side, order in (("british", "pass"), ("american", "first british")):
    if pair.deciding() != side:
        raise SystemExit("the %s does not decide before %r" % (side, order))
    rc, out, err = pair.play(side, order)
    print(norm("%s plays %s: exit %d %s" % (side, order, rc, err)))
    if rc not in (0, 3):
        raise SystemExit("the %s's %r: exit %d: %s" % (side, order, rc, err))
if pair.deciding() != "british":
    raise SystemExit("the British does not play the first card")
rc, out, err = pair.options("british")
print(norm("the british prompt: " + (err or out.splitlines()[0])))

# his report at this decision, and his questions by mail to his own copy
import email, hashlib
from email import policy

def newest(kind):
    folder = pair.outbox("british")
    names = [n for n in os.listdir(folder) if "-%s-" % kind in n]
    if not names:
        raise SystemExit("no %s in the British outbox" % kind)
    return os.path.join(folder, max(names, key=lambda n: os.stat(os.path.join(folder, n)).st_mtime_ns))

def parts(path):
    with open(path, "rb") as f:
        m = email.message_from_binary_file(f, policy=policy.default)
    text = m.get_body(("plain",)).get_content()
    png = [p.get_content() for p in m.walk() if p.get_content_type() == "image/png"]
    return m, text, png

report = newest("report")
m, text, png = parts(report)
if "Your hand" not in text or not png:
    raise SystemExit("the British report has no hand or no map: " + report)
# his own hand, and the orders and numbers it gives, are his alone
public = re.sub(r"Your orders now.*?\(Every order one a line[^\n]*\n", "(his legal orders)\n", text, flags=re.S)
public = re.sub(r"\nYour hand \(.*?\n\nThe board:", "\n(his hand)\n\nThe board:", public, flags=re.S)
print(norm("british report subject: " + str(m["Subject"])))
print(norm("british report, without his hand:\n" + public))
print("british report map: %d bytes, sha256 %s" % (len(png[0]), hashlib.sha256(png[0]).hexdigest()))
for n, question in enumerate(("board", "discards", "log 30"), 1):
    mail = os.path.join(top, "ask%d.eml" % n)
    with open(mail, "w") as f:
        f.write("From: %s\nTo: %s\nSubject: Re: %s\nMessage-ID: <ask.%d@example.org>\n\n%s\n"
                % (british, british, m["Subject"], n, question))
    rc, out, err = peer_local.postrider("play", pair.dir["british"], mail)
    if rc != 0:
        raise SystemExit("the question %r: exit %d: %s" % (question, rc, err))
    am, answer, _ = parts(newest("answer"))
    print(norm("answer to %s: %s\n%s" % (question, am["Subject"], answer)))

probes = 0
head = pair.head("british")
for c in range(1, 111):
    if c in skip:
        continue
    for verb in ("event", "pc"):
        rc, out, err = pair.check("british", "%s %d" % (verb, c))
        print(norm("check %s %d: exit %d\n%s%s" % (verb, c, rc, out, err)))
        probes += 1
    if c % 10 == 0:
        rc, out, err = peer_local.postrider("play", pair.dir["british"], "--as", "british", "-",
                                            stdin=("event %d\n" % c).encode())
        print(norm("play event %d: exit %d\n%s%s" % (c, rc, out, err)))
for verb in ("event", "pc"):
    rc, out, err = pair.check("british", "%s %s" % (verb, control))
    ctl.write(norm("check %s %s: exit %d\n%s%s" % (verb, control, rc, out, err)))
if pair.head("british") != head:
    raise SystemExit("a probe changed the British copy")
print("PROBES", probes)
EOF
	[ -s "$TRASH/driver$k.err" ] && sed 's/^/# run '$k': /' "$TRASH/driver$k.err" | tail -n 3
done

expect_grep "run 1: every card of neither British hand was tried" "^PROBES $(( (110 - $(echo $exclude | wc -w)) * 2 ))\$" "$TRASH/seen1"
expect_grep "run 1: the British saw the mails of the deal" '^mail to the british postrider [0-9]* \[GAME\] peer [0-9]* american answer' "$TRASH/seen1"
expect_grep "run 1: the British set-up was tried with a bad line" '^british check with a bad line 1' "$TRASH/seen1"
expect_grep "run 1: the probes ran at the British card play" '^the british prompt: british' "$TRASH/seen1"
expect_grep "run 1: the British report carries the board" '^The board:' "$TRASH/seen1"
expect_grep "run 1: ... and the map" '^british report map: [1-9][0-9]* bytes' "$TRASH/seen1"
expect_grep "run 1: 'board' by mail to his own copy is answered" '^answer to board: \[GAME\] board' "$TRASH/seen1"
expect_grep "run 1: 'discards' too" '^answer to discards: ' "$TRASH/seen1"
expect_grep "run 1: a card of the American hand is refused as not his" \
	"^check pc $(echo "$am1" | cut -d' ' -f1): exit 1" "$TRASH/seen1"
if cmp -s "$TRASH/control1" "$TRASH/control2"; then
	fail "control: a card in the British hand in game 1 only gets different answers" "$(cat "$TRASH/control1")"
else
	ok "control: a card in the British hand in game 1 only gets different answers"
fi
if cmp -s "$TRASH/seen1" "$TRASH/seen2"; then
	ok "the British copy shows the same bytes whatever the American hand ($(grep -c . "$TRASH/seen1") lines compared)"
else
	fail "the British copy shows the same bytes whatever the American hand" \
		"$(diff "$TRASH/seen1" "$TRASH/seen2" | head -n 30)"
fi

test_done
