#!/usr/bin/env python3
"""Two peer games that differ only in the British's secret, seen from the
American's copy (tests/e2e/t-peer-redteam.sh; the differential test of
the no-oracle issue, applied to peer mode: docs/peer.md 10).

usage: redteam-diff.py A1 B1 A2 B2 MAX_ORDERS

A1/B1 and A2/B2 are two games between the same American (same secret)
and a British whose secret differs. The same orders are played in both,
chosen in the first, until one of them is not legal in the second (the
hands differ: from then on the games may differ by rights) or until
MAX_ORDERS. After every order and mail, what the American sees must be
the same in both games: his copy's public files (state.yaml, log.txt,
the order files: byte for byte), the size of every file of his copy's
tree and of every mail he receives, their number, and what `postrider
peer status` tells him but the fingerprint and commit id. Prints
"same after N orders" or the first difference ("differs: ...").
"""
import os
import random
import re
import subprocess
import sys

g1 = {"american": sys.argv[1], "british": sys.argv[2]}
g2 = {"american": sys.argv[3], "british": sys.argv[4]}
max_orders = int(sys.argv[5])
other = {"american": "british", "british": "american"}
rnd = random.Random(3)
delivered = set()


def run(args, inp=None):
    p = subprocess.run(args, input=inp, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def outbox(copy):
    d = os.path.join(copy, ".git/postrider/outbox/new")
    # the mails between the postriders (a player's reports stay home)
    names = [n for n in os.listdir(d) if os.path.join(d, n) not in delivered and "-peer-" in n] \
        if os.path.isdir(d) else []
    names.sort(key=lambda n: (os.stat(os.path.join(d, n)).st_mtime_ns, n))
    return [os.path.join(d, n) for n in names]


def deliver(g):
    """Every mail to its receiver; the sizes of the mails the American got."""
    sizes = []
    while True:
        moved = False
        for side in ("american", "british"):
            for m in outbox(g[side]):
                delivered.add(m)
                if side == "british":
                    sizes.append(os.path.getsize(m))
                rc, _, err = run(["postrider", "play", g[other[side]], m])
                if rc not in (0, 3):
                    sys.exit("an honest mail was refused: " + err)
                moved = True
        if not moved:
            return sizes


def seen(copy):
    """What the American sees in his copy, but the cryptography's bytes."""
    out = {}
    for name in ("state.yaml", "log.txt"):
        out[name] = open(os.path.join(copy, name)).read()
    tree = subprocess.run(["git", "-C", copy, "ls-tree", "-r", "-l", "HEAD"],
                          capture_output=True, text=True).stdout
    out["sizes"] = [(l.split()[4], l.split()[3]) for l in tree.splitlines()]
    for path, _ in out["sizes"]:
        if path.startswith("orders/"):
            out[path] = open(os.path.join(copy, path)).read()
    st = run(["postrider", "peer", "status", copy])[1]
    out["status"] = re.sub(r"[0-9a-f]{16,40}", "X", st)
    return out


def waits(copy):
    out = run(["postrider", "peer", "status", copy])[1]
    return [l[7:] for l in out.splitlines() if l.startswith("waits: ")]


for g in (g1, g2):
    for side in g:
        for m in outbox(g[side]):
            delivered.add(m)
orders = 0
while orders < max_orders:
    w = waits(g1["american"])
    deciding = [x.split()[0] for x in w if x.endswith(" decision")]
    if not deciding or waits(g2["american"]) != w:
        if waits(g2["american"]) != w:
            print("differs: the waits after %d orders: %s / %s" % (orders, w, waits(g2["american"])))
            sys.exit(0)
        break
    s = deciding[0]
    legal = [l for l in run(["postrider", "options", g1[s], "--plain"])[1].splitlines()[1:] if l.strip()]
    order = rnd.choice(legal) + "\n"
    rc1, _, e1 = run(["postrider", "play", g1[s], "--as", s, "-"], order)
    rc2, _, e2 = run(["postrider", "play", g2[s], "--as", s, "-"], order)
    if rc1 not in (0, 3):
        sys.exit("an honest order was refused: " + e1)
    if rc2 not in (0, 3):
        # the hands differ: the games may part from here
        print("same after %d orders (order %r is not legal in the other game)" % (orders, order.strip()))
        sys.exit(0)
    orders += 1
    s1, s2 = deliver(g1), deliver(g2)
    if s1 != s2:
        print("differs: after order %d the American received mails of sizes %s / %s" % (orders, s1, s2))
        sys.exit(0)
    v1, v2 = seen(g1["american"]), seen(g2["american"])
    for k in sorted(set(v1) | set(v2)):
        if v1.get(k) != v2.get(k):
            print("differs: after order %d (%s), the American's %s" % (orders, order.strip(), k))
            sys.exit(0)
print("same after %d orders" % orders)
