"""walk.py GAME N: plays N orders of GAME (each a legal order picked by a
fixed rule from `postrider options --plain`) and after each one checks the
two reports mailed:
  - the deciding side's grouped list of orders stands for exactly the
    legal orders (expand.py), no more and no fewer;
  - the other side's report has no list of orders, and outside the story
    it names no event card of the deciding side's hand.
Prints one line per finding, then "steps N kinds K" (the prompts seen)."""
import email, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(__file__))
from expand import expand, parse  # noqa: E402

game, steps = sys.argv[1], int(sys.argv[2])
outbox = os.path.join(game, ".git/postrider/outbox/new")


def run(*args):
    return subprocess.run(["postrider"] + list(args), capture_output=True, text=True)


def report_text(side):
    head = subprocess.run(["git", "-C", game, "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    names = [n for n in os.listdir(outbox) if n.startswith(head) and ("-%s." % side) in n]
    if not names:
        return None
    with open(os.path.join(outbox, names[0]), "rb") as f:
        m = email.message_from_binary_file(f)
    for part in m.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode()
    return None


def grouped(text):
    lines = text.splitlines()
    i = next((k for k, l in enumerate(lines) if l.startswith("Your orders now")), None)
    if i is None:
        return None
    i += 1
    while lines[i].startswith(("one value", "([WORD]")):
        i += 1
    return expand(parse(lines[i:]))


def hand_labels(text, start):
    """The card lines of the hand in text after the line starting start."""
    if start not in text:
        return []
    part = text.split(start, 1)[1].split("\n", 1)[1]
    out = []
    for line in part.splitlines():
        if not line.startswith(("  #", "* #")):
            if line.startswith("      "):
                continue
            break
        out.append(line[2:])
    return out


kinds, n, marked, choices = set(), 0, 0, 0
for n in range(1, steps + 1):
    opts = run("options", game, "--plain").stdout.splitlines()
    side = opts[0]
    if side == "none":
        break
    legal = set(opts[1:])
    kinds.add(run("show", game).stdout.split("Now: ", 1)[1].split(":", 1)[0]
              + " " + " ".join(sorted({o.split()[0] for o in legal})))
    other = "british" if side == "american" else "american"
    mine, theirs = report_text(side), report_text(other)
    if mine is None or theirs is None:
        print("step %d: no report mailed" % n)
    else:
        choices += "Your choice in step 1" in mine
        got = grouped(mine)
        if got != legal:
            print("step %d (%s): grouped list differs: missing %s, extra %s" % (
                n, side, sorted(legal - (got or set()))[:5], sorted((got or set()) - legal)[:5]))
        if "Your orders now" in theirs or "Your choice in step 1" in theirs:
            print("step %d: the %s report lists orders" % (n, other))
        for who, text in ((side, mine), (other, theirs)):
            own = hand_labels(run("show", game, "--as", who).stdout, "The %s hand:" % who.title())
            got = hand_labels(text, "Your hand")
            if got and sorted(own) != sorted(got):
                print("step %d: the %s report shows a hand not his: %s" % (n, who, got))
            marked += sum(1 for l in text.splitlines() if l.startswith("* #"))
        hand = run("show", game, "--as", side).stdout
        hand = hand.split("hand:\n", 1)[1].split("\n\n", 1)[0] if "hand:\n" in hand else ""
        after_story = theirs.split("\nNow: ", 1)[-1]
        for label in re.findall(r"^  (#\d+ [A-Z][^(\n]*)$", hand, re.M):
            if label.strip() in after_story:
                print("step %d: the %s report names %s" % (n, other, label.strip()))
    pick = sorted(legal)[(n * 7919) % len(legal)]
    with open(os.path.join(os.environ["TRASH"], "order"), "w") as f:
        f.write(pick + "\n")
    r = run("play", game, "--as", side, os.path.join(os.environ["TRASH"], "order"))
    if r.returncode:
        print("step %d: %r rejected: %s" % (n, pick, r.stderr.strip()))
        break
print("steps %d kinds %d" % (n, len(kinds)))
print("marked %d" % marked)
print("battle choices %d" % choices)
