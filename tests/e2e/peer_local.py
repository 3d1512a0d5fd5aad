"""A game without a host between two copies on one machine, for the end
to end tests of issue 34 (tests/e2e/t-peer-oracle.sh): the mails of each
copy's outbox are handed to the other copy's `postrider play` (the mail
system's part), in the order they were written, a mail whose predecessor
has not arrived (75) kept for the next round.

Everything runs in the test's fixed environment (tests/e2e/lib.sh): the
transport is the outbox, POSTRIDER_NOW is fixed, so a game is a function
of the two secrets and the orders.
"""

import email
import os
import re
import subprocess
from email import policy

SIDES = ("american", "british")


def postrider(*args, stdin=None):
    r = subprocess.run(("postrider",) + args, input=stdin, capture_output=True)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


class Pair:
    """The American's copy and the British's, in DIR/american, DIR/british."""

    def __init__(self, top, american, british):
        self.top = top
        self.dir = {s: os.path.join(top, s) for s in SIDES}
        self.addr = {"american": american, "british": british}
        self.seen = set()
        # every mail passed: (from side, to side, file name, size, subject)
        self.passed = []
        # every mail a copy wrote for its own player: (side, file name, size, subject)
        self.reports = []

    def start(self, secret_am, secret_br):
        rc, out, err = postrider("peer", "new", self.dir["american"], "--me", "american",
                                 "--american", self.addr["american"],
                                 "--british", self.addr["british"], "--secret", secret_am)
        if rc:
            raise RuntimeError("peer new: exit %d: %s" % (rc, err.strip()))
        invitation = self.new_mails("american")
        if len(invitation) != 1:
            raise RuntimeError("peer new: %d mails in the outbox, not the invitation" % len(invitation))
        self.seen.add(invitation[0])
        self.passed.append(self.describe("american", "british", invitation[0]))
        rc, out, err = postrider("peer", "join", self.dir["british"], "--secret", secret_br,
                                 "--address", self.addr["british"], invitation[0])
        if rc:
            raise RuntimeError("peer join: exit %d: %s" % (rc, err.strip()))
        self.pump()

    def outbox(self, side):
        return os.path.join(self.dir[side], ".git", "postrider", "outbox", "new")

    def new_mails(self, side):
        folder = self.outbox(side)
        if not os.path.isdir(folder):
            return []
        names = [os.path.join(folder, n) for n in os.listdir(folder)]
        names = [n for n in names if n not in self.seen]
        return sorted(names, key=lambda n: (os.stat(n).st_mtime_ns, n))

    def describe(self, side, to, path):
        with open(path, "rb") as f:
            raw = f.read()
        msg = email.message_from_bytes(raw, policy=policy.compat32)
        return (side, to, os.path.basename(path), len(raw), str(msg["Subject"] or ""))

    def recipient(self, path):
        with open(path, "rb") as f:
            msg = email.message_from_binary_file(f, policy=policy.compat32)
        to = str(msg["To"] or "").lower()
        for side in SIDES:
            if re.search("<%s>" % re.escape(self.addr[side].split("<")[1][:-1].lower()), to):
                return side
        return None

    def pump(self, rounds=50):
        """Hands every mail to its copy until none is left; returns the
        number passed. A mail that gets 75 waits for the next round."""
        waiting, passed = [], 0
        for _ in range(rounds):
            moved = False
            for side in SIDES:
                for path in self.new_mails(side):
                    self.seen.add(path)
                    to = self.recipient(path)
                    if to == side:
                        self.reports.append(self.describe(side, to, path)[:1] +
                                            self.describe(side, to, path)[2:])
                    elif to is not None:
                        waiting.append((side, to, path))
            still = []
            for side, to, path in waiting:
                rc, out, err = postrider("play", self.dir[to], path)
                if rc == 75:
                    still.append((side, to, path))
                    continue
                if rc not in (0, 3):
                    raise RuntimeError("play %s %s: exit %d: %s"
                                       % (to, os.path.basename(path), rc, err.strip()))
                self.passed.append(self.describe(side, to, path))
                passed += 1
                moved = True
            waiting = still
            if not moved and not waiting and not any(self.new_mails(s) for s in SIDES):
                return passed
        raise RuntimeError("mails still waiting: %s" % [os.path.basename(p) for _, _, p in waiting])

    def head(self, side):
        return subprocess.run(["git", "-C", self.dir[side], "rev-parse", "HEAD"],
                              capture_output=True, text=True).stdout.strip()

    def options(self, side):
        return postrider("options", self.dir[side], "--plain")

    def play(self, side, order):
        rc, out, err = postrider("play", self.dir[side], "--as", side, "-", stdin=(order + "\n").encode())
        if rc in (0, 3):
            self.pump()
        return rc, out, err

    def check(self, side, order):
        return postrider("check", self.dir[side], "--as", side, "-", stdin=(order + "\n").encode())

    def deciding(self):
        """The side to decide as both copies see it, or None when they disagree."""
        sides = set()
        for side in SIDES:
            rc, out, err = self.options(side)
            sides.add(out.splitlines()[0] if rc == 0 and out else "error: " + err.strip())
        return sides.pop() if len(sides) == 1 else None
