#!/bin/sh
#
# Issue 34, docs/peer.md section 14: each way one side of a peer game can
# cheat is refused by the other side's postrider with its reason, and
# changes nothing in its copy. The cheater holds his own secret and signs
# what he forges (tests/e2e/peer_forge.py); the mails of an honest game
# between two copies are intercepted and forged on the way.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

A=$TRASH/alice
B=$TRASH/bob
peer_pair "$A" "$B"
JOIN=$(ls "$(outbox "$B")/new/"*)
# a rogue masking key (3.2): its key proof cannot be made; the joiner
# sends another in his signed join
"$PY" - "$JOIN" "$SB" "$B" "$TRASH/rogue-join.eml" <<'EOF'
import sys
sys.path.insert(0, "tests/e2e")
import peer_forge as pf
raw = open(sys.argv[1], "rb").read()
def rogue(p):
    i = p.index("\n+    mask_proof: ") + len("\n+    mask_proof: ")
    return pf.flip_hex(p, i + 10)
open(sys.argv[4], "wb").write(pf.forge(raw, bytes.fromhex(sys.argv[2]), edit_patch=rogue, repo=sys.argv[3]))
EOF
snapshot "$A" before-rogue
expect_exit 1 postrider play "$A" "$TRASH/rogue-join.eml"
expect_grep "rogue-key: refused because its key proof does not verify" "key proof does not verify" "$TRASH/err"
expect_unchanged "rogue-key: nothing changed" "$A" before-rogue
postrider play "$A" "$JOIN" >/dev/null 2>&1 || die "the join was refused"

# The game, mail by mail; each cheat is tried once on the first mail it
# fits, on a copy of the receiver's, before the honest mail goes. One line
# a cheat: NAME|EXIT|UNCHANGED|STDERR.
TRASH=$TRASH "$PY" - "$A" "$B" "$SA" "$SB" >"$TRASH/cheats.out" 2>"$TRASH/cheats.err" <<'EOF'
import os, random, re, subprocess, sys
sys.path.insert(0, "tests/e2e")
import peer_forge as pf
import verify_peer as vp

copies = {"american": sys.argv[1], "british": sys.argv[2]}
secret = {"american": bytes.fromhex(sys.argv[3]), "british": bytes.fromhex(sys.argv[4])}
other = {"american": "british", "british": "american"}
rnd = random.Random(14)
done = set()
delivered = set()

def run(args, inp=None):
    p = subprocess.run(args, input=inp, capture_output=True, text=isinstance(inp, str) or inp is None)
    return p.returncode, p.stdout, p.stderr

def snapshot(copy):
    out = []
    for args in (["rev-parse", "HEAD"], ["status", "--porcelain"], ["rev-parse", "HEAD^{tree}"]):
        out.append(subprocess.run(["git", "-C", copy] + args, capture_output=True, text=True).stdout)
    return out

def attempt(name, to, raw, path="/tmp"):
    """Offers a forged mail to side to's copy; records what happened."""
    f = os.path.join(os.environ["TRASH"], "forged-%s.eml" % name)
    open(f, "wb").write(raw)
    before = snapshot(copies[to])
    rc, out, err = run(["postrider", "play", copies[to], f])
    same = snapshot(copies[to]) == before
    print("%s|%d|%s|%s" % (name, rc, "yes" if same else "no", " ".join(err.split())))
    done.add(name)

def cheats(mail, sender):
    raw = open(mail, "rb").read()
    _, envp, patchp = pf.parts(raw)
    patch = pf.patch_text(patchp)
    env = pf.envelope_text(envp)
    to, key = other[sender], secret[sender]
    seq = int(re.search(r"^seq (\d+)$", env, re.M).group(1))
    if "modified-patch" not in done and "diff --git a/orders/" in patch:
        attempt("modified-patch", to, pf.forge(raw, key, rehash=False,
                edit_patch=lambda p: p.replace("\n+-- ", "\n+-- x ", 1)))
        attempt("modified-patch-signed", to, pf.forge(raw, key,
                edit_patch=lambda p: p.replace("\n+-- ", "\n+-- x ", 1)))
        attempt("modified-commit", to, pf.forge(raw, key, repo=copies[sender],
                edit_patch=lambda p: p.replace("\n+-- ", "\n+-- x ", 1)))
        attempt("forged-signature", to, pf.forge(raw, secret[to]))
    sh2 = re.search(r"diff --git a/peer/shuffles/(\d+)-2.txt", patch)
    if sh2 and "shuffle-not-permutation" not in done:
        path = "peer/shuffles/%s-2.txt" % sh2.group(1)
        outs = [l for l in pf.added_lines(patch, path) if l.startswith("out ")]
        attempt("shuffle-not-permutation", to, pf.forge(raw, key,
                edit_patch=lambda p: p.replace("+" + outs[1] + "\n", "+" + outs[0] + "\n", 1)))
    if pf.added_lines(patch, "peer/shares.txt") and "wrong-share" not in done:
        line = pf.added_lines(patch, "peer/shares.txt")[0]
        attempt("wrong-share", to, pf.forge(raw, key,
                edit_patch=lambda p: p.replace("+" + line, "+" + pf.flip_hex(line, len(line) - 3), 1)))
        # a share of a card of his own hand: nothing the rules called for
        state = open(os.path.join(copies[to], "state.yaml")).read()
        hand = re.search(r"^    %s: \[(.*)\]$" % sender, state.split("\npeer:\n")[1], re.M)
        slots = [s.strip() for s in hand.group(1).split(",") if s.strip().startswith("s")] if hand else []
        g = slots[0].split(".")[0][1:] if slots else None
        outs = pf.added_lines(patch, "peer/shuffles/%s-2.txt" % g) if g else []
        if not outs and g:
            outs = open(os.path.join(copies[to], "peer/shuffles/%s-2.txt" % g)).read().split("\n")
        outs = [l[4:] for l in outs if l.startswith("out ")]
        if slots and outs:
            slot = slots[0]
            ct = bytes.fromhex(outs[int(slot.split(".")[1])])
            ctx = ("%s share %s %s" % (re.search(r"^game (\S+)$", env, re.M).group(1), slot, sender)).encode()
            extra = "%s %s %s" % (slot, sender, vp.share(vp.keys(key), ctx, ct).hex())
            attempt("share-not-called-for", to, pf.forge(raw, key,
                    edit_patch=lambda p: p.replace("+" + line + "\n", "+" + line + "\n+" + extra + "\n", 1)))
    dice = pf.added_lines(patch, "peer/dice.txt")
    if dice and "forged-die" not in done:
        d = dice[0].split()
        mine = 2 if sender == "american" else 4
        theirs = 4 if mine == 2 else 2
        forged = list(d); forged[mine] = pf.flip_hex(d[mine], 100)
        attempt("forged-die", to, pf.forge(raw, key,
                edit_patch=lambda p: p.replace("+" + dice[0], "+" + " ".join(forged), 1)))
        reused = list(d); reused[mine] = d[theirs]
        attempt("reused-die", to, pf.forge(raw, key,
                edit_patch=lambda p: p.replace("+" + dice[0], "+" + " ".join(reused), 1)))
    if "asks-for-a-share" not in done and "Postrider-Waits: " in patch and seq > 3:
        attempt("asks-for-a-share", to, pf.forge(raw, key, repo=copies[sender],
                edit_patch=lambda p: p.replace("Postrider-Waits: ",
                                               "Postrider-Waits: %s shares\nPostrider-Waits: " % to, 1)))

def outbox(side):
    d = os.path.join(copies[side], ".git/postrider/outbox/new")
    names = sorted(os.listdir(d), key=lambda n: (os.stat(os.path.join(d, n)).st_mtime_ns, n))
    return [os.path.join(d, n) for n in names if os.path.join(d, n) not in delivered and "-peer-" in n]

for side in copies:
    for m in outbox(side):
        delivered.add(m)

held = None
orders = 0
while orders < 120 and len(done) < 14:
    moved = False
    for side in ("american", "british"):
        for m in outbox(side):
            delivered.add(m)
            moved = True
            cheats(m, side)
            if held is None and "out-of-order" not in done and side == "american" and orders >= 2:
                held = (m, side)   # the next mail of this side goes first
                continue
            rc, out, err = run(["postrider", "play", copies[other[side]], m])
            if rc not in (0, 3):
                sys.exit("honest mail refused: " + err)
            if held and held[0] != m:
                # m went before the held one: it was refused for now
                pass
            if "replayed" not in done:
                before = snapshot(copies[other[side]])
                rc2, _, err2 = run(["postrider", "play", copies[other[side]], m])
                print("replayed|%d|%s|%s" % (rc2, "yes" if snapshot(copies[other[side]]) == before else "no",
                                             " ".join(err2.split())))
                done.add("replayed")
            if "fork" not in done and orders >= 3:
                env = pf.envelope_text(pf.parts(open(m, "rb").read())[1])
                head = subprocess.run(["git", "-C", copies[side], "rev-parse", "HEAD~2"],
                                      capture_output=True, text=True).stdout.strip()
                attempt("fork", other[side], pf.forge(open(m, "rb").read(), secret[side],
                        edit_env=lambda e: pf.set_field(pf.set_field(e, "parent", head),
                                                        "commit", "ab" * 20)))
    if held and "out-of-order" not in done:
        # the held mail's successor: made by an order of the same side
        pass
    if not moved:
        status = run(["postrider", "peer", "status", copies["american"]])[1]
        waits = [l[7:] for l in status.splitlines() if l.startswith("waits: ")]
        deciding = [w.split()[0] for w in waits if w.endswith(" decision")]
        if not deciding:
            break
        s = deciding[0]
        legal = run(["postrider", "options", copies[s], "--plain"])[1].splitlines()[1:]
        rc, out, err = run(["postrider", "play", copies[s], "--as", s, "-"], rnd.choice(legal) + "\n")
        orders += 1
        if held and s == held[1]:
            # the mail after the held one: offered first, then the held
            new = outbox(s)
            if new:
                m2 = new[0]
                delivered.add(m2)
                before = snapshot(copies[other[s]])
                rc2, _, err2 = run(["postrider", "play", copies[other[s]], m2])
                print("out-of-order|%d|%s|%s" % (rc2, "yes" if snapshot(copies[other[s]]) == before else "no",
                                                 " ".join(err2.split())))
                done.add("out-of-order")
                for mm in (held[0], m2):
                    rc3, _, err3 = run(["postrider", "play", copies[other[s]], mm])
                    if rc3 not in (0, 3):
                        sys.exit("honest mail refused after the out-of-order one: " + err3)
                held = None
# the honest mails still on the way
if held:
    run(["postrider", "play", copies[other[held[1]]], held[0]])
for _ in range(6):
    for side in ("american", "british"):
        for m in outbox(side):
            delivered.add(m)
            run(["postrider", "play", copies[other[side]], m])
print("played|%d|yes|%s" % (orders, ",".join(sorted(done))))
EOF
cat "$TRASH/cheats.err" | tail -5 | sed 's/^/# /'

# cheat EXIT REASON: the line of the cheat NAME
check_cheat() {
	_name=$1 _exit=$2 _reason=$3
	_line=$(grep "^$_name|" "$TRASH/cheats.out" | head -n 1)
	if [ -z "$_line" ]; then
		fail "$_name: tried" "the game never gave the chance (see cheats.out)"
		return
	fi
	expect_eq "$_name: exit $_exit" "$_exit" "$(echo "$_line" | cut -d'|' -f2)"
	expect_eq "$_name: nothing changed" "yes" "$(echo "$_line" | cut -d'|' -f3)"
	case "$(echo "$_line" | cut -d'|' -f4)" in
	*$_reason*) ok "$_name: refused because $_reason" ;;
	*) fail "$_name: the reason" "expected: $_reason" "actual: $(echo "$_line" | cut -d'|' -f4)" ;;
	esac
}

check_cheat modified-patch 1 "the patch's SHA-256"
check_cheat modified-patch-signed 1 "is not the patch of commit"
check_cheat modified-commit 1 "does not replay"
check_cheat forged-signature 1 "signature of the envelope does not verify"
check_cheat replayed 0 "already applied"
check_cheat out-of-order 75 "not yet"
check_cheat fork 1 "forks the history"
check_cheat shuffle-not-permutation 1 "not a permutation of its input"
check_cheat wrong-share 1 "unmasking share of"
check_cheat share-not-called-for 1 "the rules did not call for"
check_cheat forged-die 1 "die proof for request"
check_cheat reused-die 1 "die proof for request"
check_cheat asks-for-a-share 1 "does not replay"
expect_ne "the player whose postrider refused a mail is told (8.5)" "" \
	"$(ls "$(outbox "$A")/new" "$(outbox "$B")/new" | grep -- '-refused-')"
expect_eq "both copies agree after the cheats" \
	"$(git -C "$A" rev-parse HEAD)" "$(git -C "$B" rev-parse HEAD)"
test_done
