#!/usr/bin/env python3
"""Plays a peer game between two copies on one machine (tests/e2e/t-peer.sh).

usage: peer-driver.py AMERICAN_COPY BRITISH_COPY SEED MAX_ORDERS

The side whose decision is due (`postrider peer status`) is asked for its
legal orders (`postrider options COPY --plain`, from its own copy, which
knows its own hand); a random one is played on its copy (`postrider play
COPY --as SIDE -`); then every mail in either outbox that was not yet
delivered is given to the other copy's `postrider play COPY MAIL`, in the
order they were written, until no mail is left (the automatic answers).
Prints one line per order and per delivered mail, then a summary:
"orders N automatic M end REASON".
"""
import os
import random
import shutil
import subprocess
import sys

copies = {"american": sys.argv[1], "british": sys.argv[2]}
rnd = random.Random(int(sys.argv[3]))
max_orders = int(sys.argv[4])
other = {"american": "british", "british": "american"}
delivered = set()


def run(args, inp=None):
    p = subprocess.run(args, input=inp, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def status(copy):
    rc, out, err = run(["postrider", "peer", "status", copy])
    if rc:
        sys.exit("peer status %s failed: %s" % (copy, err))
    waits = [l[7:] for l in out.splitlines() if l.startswith("waits: ")]
    return waits


def outbox_mails(side):
    d = os.path.join(copies[side], ".git/postrider/outbox/new")
    if not os.path.isdir(d):
        return []
    # the mails between the postriders; a player's reports stay
    names = [n for n in os.listdir(d) if os.path.join(d, n) not in delivered and "-peer-" in n]
    names.sort(key=lambda n: (os.stat(os.path.join(d, n)).st_mtime_ns, n))
    return [os.path.join(d, n) for n in names]


def deliver():
    """Gives every undelivered mail to the other copy; the count of mails."""
    n = 0
    while True:
        moved = False
        for side in ("american", "british"):
            for m in outbox_mails(side):
                delivered.add(m)
                rc, out, err = run(["postrider", "play", copies[other[side]], m])
                print("mail %s -> %s exit %d %s" % (os.path.basename(m), other[side], rc,
                                                    err.strip().splitlines()[-1] if err.strip() else ""))
                if rc not in (0, 3):
                    print("end refused")
                    sys.exit(1)
                n += 1
                moved = True
        if not moved:
            return n


def longer(side, first, legal):
    """Sometimes an order of two or three lines: the first is played on a
    scratch copy of the decider's copy; if the decision is still his, a
    legal line of the new prompt follows; if the first line called for
    dice, a line of the old prompt follows (sealed, then run or dropped)."""
    scratch = copies[side] + ".scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(copies[side], scratch, symlinks=True)
    lines = [first]
    try:
        for _ in range(2):
            rc, out, err = run(["postrider", "play", scratch, "--as", side, "-"], lines[-1] + "\n")
            if rc not in (0, 3):
                break
            waits = status(scratch)
            if waits == ["%s decision" % side]:
                rc, out, err = run(["postrider", "options", scratch, "--plain"])
                nxt = [l for l in out.splitlines()[1:] if l.strip()]
                if not nxt:
                    break
                lines.append(rnd.choice(nxt))
            elif any(w.endswith(" dice") for w in waits):
                lines.append(rnd.choice(legal))
                break
            else:
                break
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return "\n".join(lines)


automatic = 0
orders = 0
# the invitation and the join were delivered by the caller
for side in ("american", "british"):
    for m in outbox_mails(side):
        delivered.add(m)
end = "orders"
while orders < max_orders:
    waits = status(copies["american"])
    wb = status(copies["british"])
    if waits != wb:
        print("the copies disagree on waits: %s / %s" % (waits, wb))
        end = "disagree"
        break
    deciding = [w.split()[0] for w in waits if w.endswith(" decision")]
    if not deciding:
        end = "over" if not waits else "stuck " + ";".join(waits)
        break
    side = deciding[0]
    rc, out, err = run(["postrider", "options", copies[side], "--plain"])
    legal = [l for l in out.splitlines()[1:] if l.strip()]
    if rc or not legal:
        print("no options for %s: %s" % (side, err.strip()))
        end = "no-options"
        break
    order = rnd.choice(legal)
    if rnd.random() < 0.3:
        order = longer(side, order, legal)
    rc, out, err = run(["postrider", "play", copies[side], "--as", side, "-"], order + "\n")
    orders += 1
    print("order %d %s exit %d: %s %s" % (orders, side, rc, order.replace("\n", " / "),
                                          err.strip().splitlines()[-1] if err.strip() else ""))
    if rc not in (0, 3):
        end = "order-refused"
        break
    automatic += max(0, deliver() - 1)
print("orders %d automatic %d end %s" % (orders, automatic, end))
