#!/usr/bin/python3
"""A dishonest host's forgery, for t-vrf-shift.sh (issue 28, item 5).

    forge-shift.py CLONE SEED (--shuffle M | --die) [--place-shift S]

CLONE is a work tree of a game whose last commit (HEAD) rolled public
dice; SEED the game's seed in hex, which the host holds. The script
rewrites HEAD as a host who wants other dice for it would: before the
commit's first public draw it inserts an undue draw, either a shuffle of
M cards (`--shuffle M`: sealed draws, M-1 indices) or one more die
(`--die`, "interception (7.8.A)"); every later draw line of the commit
moves on by the indices the undue draw took, and each public draw is
given the value and the proof that the game's version computes for its
new position, with the host's key:

- version 2: the VRF input of the draw's index (docs/fairness.md 18.2);
- version 3: the input of the order and the draw's place in it (section
  19.2), the places moved on by S (`--place-shift`, default 0: the place
  each draw now has; an inserted die itself takes place 0 and moves the
  others by one), and the order's count moved on by K (`--order-shift`:
  the dice of the side's K-th order after this one);
- version 4: the input of the draw's place among the game's public draws
  (section 19b.2), moved on by S as in version 3 (an inserted die takes
  the first place of the commit).

`--as-version V` computes the inputs of version V (2 or 3) in a game of a
later version.

proofs.txt gets the commit's proofs anew, state.yaml its draw counter,
the commit message its Postrider-Draws trailer, and the commit is amended
(author and dates kept). The narrative lines that retell the dice are left
as they were: no check without the seed reads them. Prints the commit's
public draw lines before and after, one per line, as "old => new".
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "verify"))
import verify_vrf  # noqa: E402

DRAW = re.compile(r"^draw ([0-9]+): (d6|uniform\(([0-9]+)\)) -> ([0-9]+)(.*)$")
SHUFFLE = re.compile(r"^draws ([0-9]+)-([0-9]+): shuffle of ([0-9]+)(.*)$")
MIX = re.compile(r"^words mixed: american ([0-9a-f]{64}|-) british ([0-9a-f]{64}|-)$")
HEADING = re.compile(r"^-- [0-9]+, order [0-9]+ \((American|British)\) --$")


def git(repo, *args, env=None):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True, env=env).stdout


def words_of(log):
    words = bytes(64)
    for line in log.split("\n"):
        m = MIX.match(line)
        if m:
            words = b"".join(bytes(32) if h == "-" else bytes.fromhex(h)
                             for h in m.groups())
    return words


def alpha3(gid, words, side, n, place):
    g = gid.encode()
    return (b"postrider-vrf-draw-v3" + bytes([len(g)]) + g + words +
            bytes([side]) + n.to_bytes(8, "big") + place.to_bytes(8, "big"))


def alpha4(gid, words, place):
    g = gid.encode()
    return (b"postrider-vrf-draw-v4" + bytes([len(g)]) + g + words +
            place.to_bytes(8, "big"))


def main(argv):
    repo, seed = argv[0], bytes.fromhex(argv[1])
    shuffle, die, pshift, as_version, oshift = 0, False, 0, None, 0
    i = 2
    while i < len(argv):
        if argv[i] == "--shuffle":
            shuffle = int(argv[i + 1])
            i += 2
        elif argv[i] == "--die":
            die = True
            i += 1
        elif argv[i] == "--place-shift":
            pshift = int(argv[i + 1])
            i += 2
        elif argv[i] == "--as-version":
            as_version = int(argv[i + 1])
            i += 2
        elif argv[i] == "--order-shift":
            oshift = int(argv[i + 1])
            i += 2
        else:
            raise SystemExit("forge-shift.py: unknown argument " + argv[i])
    game = git(repo, "show", "HEAD:game.yaml")
    gid = re.search(r"^id: (\S+)$", game, re.M).group(1)
    m = re.search(r"^  version: ([0-9]+)$", game, re.M)
    if not m or m.group(1) not in ("2", "3", "4"):
        raise SystemExit("forge-shift.py: not a game of fairness version 2, 3 or 4")
    version = as_version or int(m.group(1))
    sk = verify_vrf.game_secret_key(seed)
    before = git(repo, "show", "HEAD~1:log.txt")
    log = git(repo, "show", "HEAD:log.txt")
    proofs_before = git(repo, "show", "HEAD~1:proofs.txt")
    added = log[len(before):].split("\n")
    words = words_of(before)
    side_name = next(HEADING.match(l).group(1) for l in added if HEADING.match(l))
    side = 1 if side_name == "American" else 2
    n_order = sum(1 for l in before.split("\n")
                  if HEADING.match(l) and HEADING.match(l).group(1) == side_name)
    n_order += oshift

    first = next(k for k, l in enumerate(added) if DRAW.match(l))
    index0 = int(DRAW.match(added[first]).group(1))
    undue, moved = [], 0
    if shuffle:
        undue.append("draws %d-%d: shuffle of %d (reshuffle of the strategy deck)"
                     % (index0, index0 + shuffle - 2, shuffle))
        moved = shuffle - 1
    if die:
        undue.append("draw %d: d6 -> 1 (interception (7.8.A))" % index0)
        moved = 1
    lines = [(l, False) for l in added]
    lines[first:first] = [(l, True) for l in undue]
    out, proofs, place, report = [], [], 0, []
    counted = len(proofs_before.split("\n")) - 1    # the game's public draws so far
    for line, is_undue in lines:
        m, s = DRAW.match(line), SHUFFLE.match(line)
        if s and not is_undue:
            a, b = int(s.group(1)) + moved, int(s.group(2)) + moved
            line = "draws %d-%d: shuffle of %s%s" % (a, b, s.group(3), s.group(4))
        elif m:
            index = int(m.group(1)) + (0 if is_undue else moved)
            bound = 6 if m.group(2) == "d6" else int(m.group(3))
            if version == 4:
                at = counted + place + pshift
                alpha = alpha4(gid, words, at)
            elif version == 3:
                at = place + pshift
                alpha = alpha3(gid, words, side, n_order, at)
            else:
                at = index
                alpha = verify_vrf.draw_alpha(gid, words, index)
            pi, beta = verify_vrf.prove(sk, alpha)
            value = (verify_vrf.value_from_beta(beta, at, bound) +
                     (1 if m.group(2) == "d6" else 0))
            new = "draw %d: %s -> %d%s" % (index, m.group(2), value, m.group(5))
            if not is_undue:
                report.append("%s => %s" % (line, new))
            line = new
            proofs.append("%d %s\n" % (index, pi.hex()))
            place += 1
        out.append(line)
    log = before + "\n".join(out)
    state = git(repo, "show", "HEAD:state.yaml")
    draws = int(re.search(r"^draws: ([0-9]+)$", state, re.M).group(1))
    state = re.sub(r"^draws: [0-9]+$", "draws: %d" % (draws + moved), state,
                   flags=re.M)
    msg = git(repo, "log", "-1", "--format=%B", "HEAD")
    m = re.search(r"^Postrider-Draws: ([0-9]+)-([0-9]+)$", msg, re.M)
    msg = msg.replace(m.group(0), "Postrider-Draws: %s-%d"
                      % (m.group(1), int(m.group(2)) + moved))
    for path, text in (("log.txt", log), ("proofs.txt", proofs_before + "".join(proofs)),
                       ("state.yaml", state)):
        with open(os.path.join(repo, path), "w") as f:
            f.write(text)
    git(repo, "add", "log.txt", "proofs.txt", "state.yaml")
    env = dict(os.environ)
    env["GIT_COMMITTER_DATE"] = git(repo, "log", "-1", "--format=%cd",
                                    "--date=raw", "HEAD").strip()
    subprocess.run(["git", "-C", repo, "commit", "-q", "--amend", "--no-verify",
                    "-F", "-"], input=msg, text=True, check=True, env=env)
    sys.stdout.write("".join(r + "\n" for r in report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
