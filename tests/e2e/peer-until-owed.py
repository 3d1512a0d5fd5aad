#!/usr/bin/env python3
"""Plays a peer game (tests/e2e/t-peer-silence.sh) until an order leaves
the other side's postrider owing an automatic answer, and stops before
that mail is delivered.

usage: peer-until-owed.py AMERICAN_COPY BRITISH_COPY SEED MAX_ORDERS

As peer-driver.py: the side whose decision is due plays a random legal
order on its own copy, every new mail between the postriders is given to
the other copy, until one order's commit says (Postrider-Waits) that the
other side owes something that is not a decision. Prints "SIDE MAIL":
the side that made that commit and its mail, not delivered. Exit 1 when
no order did so within MAX_ORDERS.
"""
import os
import random
import subprocess
import sys

copies = {"american": sys.argv[1], "british": sys.argv[2]}
rnd = random.Random(int(sys.argv[3]))
other = {"american": "british", "british": "american"}
seen = set()


def run(args, inp=None):
    p = subprocess.run(args, input=inp, capture_output=True, text=True)
    return p.returncode, p.stdout


def waits(copy):
    return [l[7:] for l in run(["postrider", "peer", "status", copy])[1].splitlines()
            if l.startswith("waits: ")]


def mails(side):
    d = os.path.join(copies[side], ".git/postrider/outbox/new")
    names = [n for n in os.listdir(d) if "-peer-" in n and os.path.join(d, n) not in seen]
    names.sort(key=lambda n: (os.stat(os.path.join(d, n)).st_mtime_ns, n))
    return [os.path.join(d, n) for n in names]


for side in copies:
    seen.update(mails(side))
for _ in range(int(sys.argv[4])):
    w = waits(copies["american"])
    if len(w) != 1 or not w[0].endswith(" decision"):
        sys.exit("unexpected waits %r" % w)
    side = w[0].split()[0]
    legal = [l for l in run(["postrider", "options", copies[side], "--plain"])[1].splitlines()[1:] if l.strip()]
    rc, _ = run(["postrider", "play", copies[side], "--as", side, "-"], rnd.choice(legal) + "\n")
    if rc not in (0, 3):
        sys.exit("an order was refused")
    if any(x.startswith(other[side] + " ") and not x.endswith(" decision") for x in waits(copies[side])):
        print(side, mails(side)[-1])
        sys.exit(0)
    moved = True
    while moved:
        moved = False
        for s in copies:
            for m in mails(s):
                seen.add(m)
                run(["postrider", "play", copies[other[s]], m])
                moved = True
sys.exit(1)
