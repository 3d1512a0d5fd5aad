#!/usr/bin/env python3
"""The dishonest player of a peer game (tests/e2e/t-peer-redteam.sh).

usage: redteam-attack.py AMERICAN_COPY BRITISH_COPY SECRET_A SECRET_B WORK

Plays a peer game between two copies on one machine (as
tests/e2e/peer-driver.py does, its orders biased towards moves so that
dice are drawn early), the American being the cheater: he holds his own
secret, changes what his postrider mailed and signs the envelope again
(docs/peer.md 3.3, 8.1), as a postrider of his own making would. Each
attack is offered to a copy of the British's copy taken just before the
honest mail would reach it (so that the game goes on honestly), and what
happened is printed as one line:

    NAME|EXIT|UNCHANGED|WHAT THE VICTIM SAID

UNCHANGED is "yes" when the victim's copy (head, tree, work tree, refs,
its private files but the kept forks) is the same after as before. Where
the cheater needs the id of the commit the victim's replay makes of his
facts, he asks the victim itself (a refusal names it: "the same facts
give X"), then mails the commit with that id, and with the patch that
git gives of it: what a cheater who runs a modified postrider computes
alone.
"""
import base64
import email
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
from email import policy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify"))
import verify_peer as vp  # noqa: E402

copies = {"american": sys.argv[1], "british": sys.argv[2]}
secret = {"american": bytes.fromhex(sys.argv[3]), "british": bytes.fromhex(sys.argv[4])}
work = sys.argv[5]
other = {"american": "british", "british": "american"}
rnd = random.Random(7)
done = set()
delivered = set()
MAX_ORDERS = int(os.environ.get("REDTEAM_MAX_ORDERS", "160"))


def run(args, inp=None):
    p = subprocess.run(args, input=inp, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def git(copy, *args):
    return subprocess.run(["git", "-C", copy] + list(args), capture_output=True,
                          text=True).stdout


# ---- the mail -------------------------------------------------------------

def parts(raw):
    m = email.message_from_bytes(raw, policy=policy.compat32)
    env = patch = None
    for p in m.walk():
        name = p.get_filename() or ""
        if name.startswith("peer-") and name.endswith(".txt"):
            env = p
        elif name.endswith(".patch"):
            patch = p
    return m, env, patch


def unpack(raw):
    _, e, p = parts(raw)
    return (e.get_payload(decode=True).decode().replace("\r\n", "\n"),
            p.get_payload(decode=True).decode())


def field(env, key):
    m = re.search(r"^%s (.*)$" % key, env, re.M)
    return m.group(1) if m else None


def set_field(env, key, value):
    """env with its line KEY set to value (None: the line removed)."""
    out = []
    for l in env.split("\n"):
        if l.startswith(key + " "):
            if value is not None:
                out.append(key + " " + value)
        else:
            out.append(l)
    return "\n".join(out)


def seal(env, patch, signer):
    """The envelope naming patch's hash, signed again by signer's secret."""
    env = set_field(env, "patch", hashlib.sha256(patch.encode()).hexdigest())
    body = env[:env.index("sig ")]
    return body + "sig " + vp.sign(vp.keys(secret[signer]), body.encode()).hex() + "\n"


def pack(raw, env, patch, headers=None):
    """The mail raw with envelope env and patch (as given: not re-signed)."""
    m, envp, patchp = parts(raw)
    envp.set_payload(env)
    del patchp["Content-Transfer-Encoding"]
    patchp["Content-Transfer-Encoding"] = "base64"
    patchp.set_payload(base64.encodebytes(patch.encode()).decode())
    for k, v in (headers or {}).items():
        del m[k]
        m[k] = v
    return m.as_bytes()


def forge(raw, signer, env_fn=None, patch_fn=None, headers=None, sign=True):
    env, patch = unpack(raw)
    if patch_fn:
        patch = patch_fn(patch)
    if env_fn:
        env = env_fn(env)
    if sign:
        env = seal(env, patch, signer)
    return pack(raw, env, patch, headers)


def sections(patch):
    """The patch's head (up to its first diff) and its diffs by path."""
    i = patch.find("\ndiff --git ")
    head, rest = patch[:i + 1], patch[i + 1:]
    out = []
    for chunk in re.split(r"(?=^diff --git )", rest, flags=re.M):
        if chunk:
            m = re.match(r"diff --git a/(\S+) ", chunk)
            out.append((m.group(1), chunk))
    return head, out


def keep_only(patch, paths):
    head, secs = sections(patch)
    body = "".join(c for p, c in secs if p in paths)
    if not body.endswith("--\nlibgit2 1.5.1\n\n"):
        body = re.sub(r"--\nlibgit2 1\.5\.1\n\n$", "", body)
        body += "--\nlibgit2 1.5.1\n\n"
    return head + body


def added(patch, path):
    for p, c in sections(patch)[1]:
        if p == path:
            return [l[1:] for l in c.split("\n") if l.startswith("+") and not l.startswith("+++")]
    return []


def flip(h, at):
    return h[:at] + ("1" if h[at] != "1" else "2") + h[at + 1:]


def git_patch(copy, commit):
    """The patch of commit as postrider writes it (repo_format_patch(),
    libgit2's): git's, with libgit2's signature, and the diffstat's counts
    as wide as the total of changed lines."""
    p = subprocess.run(["git", "-C", copy, "format-patch", "--always", "--stdout", "--stat=100000",
                        "--stat-graph-width=100000", "--summary",
                        "--signature=libgit2 1.5.1", "-1", commit],
                       capture_output=True, text=True).stdout
    p = re.sub(r"^-- $", "--", p, flags=re.M)
    if "\n---\n" not in p:
        # an empty commit: libgit2 writes its (empty) diffstat all the same
        p = p.replace("\n--\nlibgit2", "\n---\n 0 files changed, 0 insertions(+), 0 deletions(-)\n\n"
                      "--\nlibgit2", 1)
    m = re.search(r"^ \d+ files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$",
                  p, re.M)
    if m:
        w = len(str(int(m.group(1) or 0) + int(m.group(2) or 0)))
        p = re.sub(r"^( \S+ +\| +)(\d+)( |$)",
                   lambda x: x.group(1).rstrip() + " " + x.group(2).rjust(w) + x.group(3), p,
                   flags=re.M)
    return p


# ---- the victim ---------------------------------------------------------------

def snapshot(copy):
    out = [git(copy, "rev-parse", "HEAD"), git(copy, "rev-parse", "HEAD^{tree}"),
           git(copy, "status", "--porcelain"), git(copy, "for-each-ref")]
    priv = os.path.join(copy, ".git", "postrider")
    for d, dirs, files in sorted(os.walk(priv)):
        dirs.sort()
        if "/forks" in d or d.endswith("/tmp"):
            continue
        for f in sorted(files):
            if "/outbox" in d and "-refused-" in f:
                continue    # the notice of 8.5 to the victim: no change of his game
            path = os.path.join(d, f)
            out.append("%s %d" % (path[len(priv):], os.path.getsize(path)))
    return out


def scratch(copy, name):
    """A copy of the victim's copy to attack."""
    d = os.path.join(work, "victim-" + name)
    if os.path.exists(d):
        shutil.rmtree(d)
    shutil.copytree(copy, d, symlinks=True)
    return d


def offer(name, to, raw, tag=None, where=None):
    """Offers raw to a scratch copy of side to's copy (or of the copy
    where); (rc, err, same, dir)."""
    d = scratch(where or copies[to], tag or name)
    f = os.path.join(work, "forged-%s.eml" % (tag or name))
    open(f, "wb").write(raw)
    before = snapshot(d)
    rc, out, err = run(["postrider", "play", d, f])
    return rc, " ".join(err.split()), snapshot(d) == before, d


def report(name, rc, err, same):
    print("%s|%d|%s|%s" % (name, rc, "yes" if same else "no", err), flush=True)
    done.add(name)


def attempt(name, to, raw, where=None):
    rc, err, same, _ = offer(name, to, raw, where=where)
    report(name, rc, err, same)


def attempt_replayed(name, to, raw, signer, env_fn=None, patch_fn=None):
    """The cheater's commit, its id and patch made to be the victim's
    replay of its facts: only the rule's own checks can refuse it."""
    env, patch = unpack(raw)
    if patch_fn:
        patch = patch_fn(patch)
    if env_fn:
        env = env_fn(env)
    rc, err, same = 1, "", True
    for _ in range(4):
        rc, err, same, d = offer(name, to, pack(raw, seal(env, patch, signer), patch), name)
        m = re.search(r"the same facts give ([0-9a-f]{40}), not", err)
        if m and m.group(1) != field(env, "commit"):
            env = set_field(env, "commit", m.group(1))
            continue
        m = re.search(r"is not the patch of commit ([0-9a-f]{12})", err)
        if m:
            full = git(d, "rev-parse", m.group(1)).strip()
            p2 = git_patch(d, full)
            if p2 and p2 != patch:
                patch = p2
                continue
        break
    report(name, rc, err, same)


# ---- the attacks -------------------------------------------------------------

def head_seq(copy):
    return int(re.search(r"^Postrider-Seq: (\d+)$", git(copy, "log", "-1", "--format=%B"),
                         re.M).group(1))


def attacks_on_mail(mail, sender):
    """The attacks that fit the honest mail of sender about to be given
    to the other (the American cheats)."""
    raw = open(mail, "rb").read()
    env, patch = unpack(raw)
    kind = field(env, "kind")
    to = other[sender]
    if sender != "american":
        attacks_either_side(raw, env, patch, sender, to)
        return

    if field(env, "dice") and "sealed-line-changed" not in done:
        sealed_line_changed(raw, env)

    if field(env, "dice") and "request-without-proof" not in done:
        # 5.1: a request whose own die proof is left out, wrong, or for
        # another commit: the answerer cannot answer, and the record says
        # he owes the dice
        attempt("request-without-proof", to, forge(raw, sender, lambda e: set_field(e, "dice", None)))
        d = field(env, "dice").split()
        attempt("request-wrong-proof", to, forge(raw, sender, lambda e: set_field(
            e, "dice", d[0] + " " + flip(d[1], 100))))
        parent = field(env, "parent")
        attempt("request-proof-for-another-commit", to, forge(raw, sender, lambda e: set_field(
            e, "dice", parent + " " + d[1])))

    if kind == "order" and "backdated-commit" not in done and head_seq(copies[to]) > 8:
        # the commit's date is the cheater's to choose: the deadlines of
        # section 11 count from it
        def back(days):
            def fn(p):
                from email.utils import format_datetime, parsedate_to_datetime
                import datetime
                m = re.search(r"^Date: (.*)$", p, re.M)
                t = parsedate_to_datetime(m.group(1)) + datetime.timedelta(days=days)
                return p.replace(m.group(0), "Date: " + format_datetime(t), 1)
            return fn
        attempt_replayed("backdated-commit", to, raw, sender, patch_fn=back(-30))
        attempt_replayed("future-dated-commit", to, raw, sender, patch_fn=back(+30))
        # 8.1: a commit whose envelope names another kind than the one the
        # rules give (an order mailed as the end of the game)
        attempt_replayed("order-relabelled-end", to, raw, sender,
                         env_fn=lambda e: set_field(e, "kind", "end"))

        # a commit that another game's envelope carries
        attempt("envelope-of-another-game", to, forge(raw, sender, lambda e: set_field(
            e, "game", "ww-00000000")))
        # the seq one more than it is
        attempt("seq-skipped", to, forge(raw, sender, lambda e: set_field(
            e, "seq", str(int(field(e, "seq")) + 1))))
        # the same commit, and a patch that adds files its kind may not
        # (game.yaml, a symlink, a path out of the work tree, .git)
        evil = ("diff --git a/game.yaml b/game.yaml\n--- a/game.yaml\n+++ b/game.yaml\n"
                "@@ -1 +1,2 @@\n id: x\n+mode: host\n"
                "diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n"
                "@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n"
                "diff --git a/../evil b/../evil\nnew file mode 100644\n--- /dev/null\n+++ b/../evil\n"
                "@@ -0,0 +1 @@\n+x\n"
                "diff --git a/.git/hooks/post-commit b/.git/hooks/post-commit\n"
                "new file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-commit\n"
                "@@ -0,0 +1 @@\n+touch /tmp/pwned\n")
        attempt("same-commit-patch-adds-files", to, forge(
            raw, sender, patch_fn=lambda p: p.replace("\n--\nlibgit2", "\n" + evil + "--\nlibgit2", 1)))
        # a mail of the opponent relayed from a stranger's address: only
        # the signature counts, and an answer goes to the game's address
        rc, err, same, d = offer("stranger-relays-a-true-mail", to, pack(
            raw, env, patch, {"From": "Mallory <mallory@evil.example>",
                              "Reply-To": "mallory@evil.example"}))
        to_lines = []
        box = os.path.join(d, ".git/postrider/outbox/new")
        for n in os.listdir(box) if os.path.isdir(box) else []:
            to_lines += re.findall(r"^To: .*$", open(os.path.join(box, n)).read(), re.M)
        report("stranger-relays-a-true-mail", rc,
               err + (" mailed to mallory" if any("mallory" in t for t in to_lines) else ""),
               True)
        # a mail too big for any mail
        big = raw.replace(b"\r\nThis is a MIME message.", b"\r\n" + b"x" * (2 << 20), 1)
        attempt("huge-mail", to, big)

    attacks_either_side(raw, env, patch, sender, to)


def sealed_line_changed(raw, env):
    """6.4: the American's request is played again on copies of both
    copies at its parent, with one more line (sealed past the die); once
    the answer comes, his postrider shows the line (run or dropped) with
    the salt, and the cheater mails another line in its place."""
    parent = field(env, "parent")
    a, b = scratch(copies["american"], "sealed-own"), scratch(copies["british"], "sealed")
    git(a, "reset", "-q", "--hard", parent)
    onum = int(re.search(r"^seq: (\d+)$", git(b, "show", "HEAD:state.yaml"), re.M).group(1)) + 1
    for f in os.listdir(os.path.join(a, ".git/postrider")):
        if f.startswith("peer-request-") or f == "peer-order-%04d" % onum:
            os.remove(os.path.join(a, ".git/postrider", f))
    shutil.rmtree(os.path.join(a, ".git/postrider/outbox/new"), ignore_errors=True)
    order = added(unpack(raw)[1], "orders/%04d-american.txt" % onum)
    legal = [l for l in run(["postrider", "options", a, "--plain"])[1].splitlines()[1:] if l.strip()]
    if not order or not legal:
        return
    first = order[0]
    extra = [l for l in legal if l != first]
    if not extra:
        return
    rc, out, err = run(["postrider", "play", a, "--as", "american", "-"],
                       ("%s\n%s\n" % (first, extra[0])).encode())
    if rc not in (0, 3):
        return
    # the mails back and forth (and the first legal order of whoever
    # decides), until the American's postrider closes the order
    seen = set()
    for it in range(120):
        moved = False
        for side, d, o in (("american", a, b), ("british", b, a)):
            bx = os.path.join(d, ".git/postrider/outbox/new")
            for n in sorted(os.listdir(bx) if os.path.isdir(bx) else [],
                            key=lambda n: os.stat(os.path.join(bx, n)).st_mtime_ns):
                m = os.path.join(bx, n)
                if "-peer-" not in n or m in seen:
                    continue
                seen.add(m)
                moved = True
                mraw = open(m, "rb").read()
                menv, mpatch = unpack(mraw)
                lines = [l for p2, c in sections(mpatch)[1] if p2.startswith("orders/")
                         and p2.endswith("-american.txt") for l in c.split("\n")
                         if l.startswith("+# salt ")]
                if side == "american" and field(menv, "kind") == "answer" and lines:
                    shown_line = [l for p2, c in sections(mpatch)[1] if p2.startswith("orders/")
                                  for l in c.split("\n") if l.startswith("+") and extra[0] in l]
                    if shown_line:
                        other_line = [l for l in legal if l not in (first, extra[0])]
                        new = shown_line[0].replace(extra[0], other_line[0] if other_line else "pass")
                        print("# sealed-line-changed after %d steps" % it, file=sys.stderr)
                        attempt("sealed-line-changed", "british", forge(
                            mraw, "american", patch_fn=lambda p: p.replace(shown_line[0] + "\n",
                                                                           new + "\n", 1)),
                            where=b)
                        return
                run(["postrider", "play", o, m])
        if not moved:
            w = waits(a)
            deciding = [x.split()[0] for x in w if x.endswith(" decision")]
            if not deciding:
                return
            d = a if deciding[0] == "american" else b
            legal2 = [l for l in run(["postrider", "options", d, "--plain"])[1].splitlines()[1:]
                      if l.strip()]
            if not legal2:
                return
            quick = [l for l in legal2 if l.split()[0] in ("pass", "done", "stop")]
            run(["postrider", "play", d, "--as", deciding[0], "-"],
                (rnd.choice(quick or legal2) + "\n").encode())


def attacks_either_side(raw, env, patch, sender, to):
    """The attacks on facts that either side gives: here the sender cheats."""
    if added(patch, "peer/dice.txt") and "dice-given-twice" not in done:
        line = added(patch, "peer/dice.txt")[0]
        attempt("dice-given-twice", to, forge(raw, sender, patch_fn=lambda p: p.replace(
            "+" + line + "\n", "+" + line + "\n+" + line + "\n", 1)))

    if added(patch, "peer/shares.txt") and "share-of-a-deck-slot" not in done:
        # a share of the cheater for a slot still in the deck (the rules
        # moved it nowhere): nothing the victim should take
        state = open(os.path.join(copies[to], "state.yaml")).read()
        gen = int(re.search(r"^  generation: (\d+)$", state, re.M).group(1))
        top = int(re.search(r"^  deck_top: (\d+)$", state, re.M).group(1))
        f2 = os.path.join(copies[to], "peer/shuffles/%d-2.txt" % gen)
        outs = [l[4:] for l in open(f2) if l.startswith("out ")] if os.path.exists(f2) else []
        if top < len(outs):
            slot = "s%d.%d" % (gen, top)
            gid = field(env, "game")
            ctx = ("%s share %s %s" % (gid, slot, sender)).encode()
            sh = vp.share(vp.keys(secret[sender]), ctx, bytes.fromhex(outs[top].strip()))
            first = added(patch, "peer/shares.txt")[0]
            attempt("share-of-a-deck-slot", to, forge(raw, sender, patch_fn=lambda p: p.replace(
                "+" + first + "\n", "+" + first + "\n+%s %s %s\n" % (slot, sender, sh.hex()), 1)))

    sh = re.search(r"diff --git a/peer/shuffles/(\d+)-1.txt", patch)
    if sh and "shuffle-short-by-one" not in done:
        path = "peer/shuffles/%s-1.txt" % sh.group(1)
        lines = added(patch, path)
        n = int([l for l in lines if l.startswith("cards ")][0].split()[1])
        last_in = [l for l in lines if l.startswith("in ")][-1]
        last_out = [l for l in lines if l.startswith("out ")][-1]

        def short(p):
            p = re.sub(r"(b/%s\n(?:.*\n)*?@@ -0,0 \+1,)(\d+)( @@)" % re.escape(path),
                       lambda m: m.group(1) + str(int(m.group(2)) - 2) + m.group(3), p, count=1)
            p = p.replace("+cards %d\n" % n, "+cards %d\n" % (n - 1), 1)
            p = p.replace("+" + last_in + "\n", "", 1)
            return p.replace("+" + last_out + "\n", "", 1)
        attempt("shuffle-short-by-one", to, forge(raw, sender, patch_fn=short))
        attempt("shuffle-count-huge", to, forge(raw, sender, patch_fn=lambda p: p.replace(
            "+cards %d\n" % n, "+cards 99999\n", 1)))


def honest_pair(name, side, text):
    """side's honest order text played on copies of both copies: exit of
    the other's postrider given its mail, and whether both heads agree."""
    a, b = scratch(copies[side], name + "-own"), scratch(copies[other[side]], name)
    box = os.path.join(a, ".git/postrider/outbox/new")
    old = set(os.listdir(box)) if os.path.isdir(box) else set()
    rc, out, err = run(["postrider", "play", a, "--as", side, "-"], text.encode())
    if rc not in (0, 3):
        report(name, 9, "its own postrider refused it: " + " ".join(err.split()), True)
        return
    new = [os.path.join(box, n) for n in os.listdir(box) if n not in old and "-peer-" in n]
    before = snapshot(b)
    rc = 0
    for m in sorted(new, key=lambda n: os.stat(n).st_mtime_ns):
        rc, out, err = run(["postrider", "play", b, m])
    agree = git(a, "rev-parse", "HEAD") == git(b, "rev-parse", "HEAD")
    report(name, rc, " ".join(err.split()) + (" heads agree" if agree else " heads differ"),
           snapshot(b) == before)


def attacks_at_american_decision():
    """An honest order of the American whose text holds comment lines that
    look like the protocol's own marks (6.4)."""
    if "order-with-a-sealed-comment" in done:
        return
    legal = [l for l in run(["postrider", "options", copies["american"], "--plain"])[1]
             .splitlines()[1:] if l.strip()]
    if not legal:
        return
    honest_pair("order-with-a-sealed-comment", "american",
                legal[0] + "\n# (a line sealed until it runs or the game ends)\n")
    honest_pair("order-with-a-salt-comment", "american", legal[0] + "\n# salt 00\n")


def attacks_at_rest():
    """Attacks when both copies wait for the British's decision."""
    if "commit-out-of-turn" in done:
        return
    mails = [m for m in sorted(delivered) if "-american." in m]
    if not mails:
        return
    raw = open(mails[-1], "rb").read()
    env, patch = unpack(raw)
    b = copies["british"]
    head = git(b, "rev-parse", "HEAD").strip()
    seq = head_seq(b) + 1

    def env_fn(kind):
        return lambda e: set_field(set_field(set_field(set_field(set_field(
            e, "parent", head), "seq", str(seq)), "kind", kind), "dice", None), "commit", "ab" * 20)
    # an answer nobody asked for, made while the British decides: it
    # changes nothing of the game but moves the head (and its date)
    attempt_replayed("commit-out-of-turn", "british", raw, "american", env_fn=env_fn("answer"),
                     patch_fn=lambda p: keep_only(p, ("log.txt", "state.yaml")))
    # an order of the American while the British decides
    attempt_replayed("order-out-of-turn", "british", raw, "american", env_fn=env_fn("order"))
    # a join answered twice: the British joins again with other keys
    join2 = os.path.join(work, "join2")
    inv = sorted(delivered, key=lambda m: os.stat(m).st_mtime_ns)[0]
    run(["postrider", "peer", "join", join2, "--secret", "77" * 32, inv])
    box = os.path.join(join2, ".git/postrider/outbox/new")
    sent = [n for n in os.listdir(box) if "-peer-" in n] if os.path.isdir(box) else []
    if sent:
        attempt("second-join", "american", open(os.path.join(box, sent[0]), "rb").read())
    # the invitation seen by a stranger (a relay, a forwarded mail): he
    # joins first, as the British, from his own address
    inv_copy = scratch(copies["american"], "stranger-joins")
    git(inv_copy, "reset", "-q", "--hard", git(inv_copy, "rev-list", "--max-parents=0", "HEAD").strip())
    for f in os.listdir(os.path.join(inv_copy, ".git/postrider")):
        if f.startswith("peer-request") or f.startswith("peer-order"):
            os.remove(os.path.join(inv_copy, ".git/postrider", f))
    join3 = os.path.join(work, "join3")
    run(["postrider", "peer", "join", join3, "--secret", "66" * 32, inv])
    box = os.path.join(join3, ".git/postrider/outbox/new")
    sent = [n for n in os.listdir(box) if "-peer-" in n] if os.path.isdir(box) else []
    if sent:
        raw = open(os.path.join(box, sent[0]), "rb").read()
        raw = re.sub(rb"(?m)^From: .*$", b"From: Mallory <mallory@evil.example>", raw, count=1)
        f = os.path.join(work, "stranger-join.eml")
        open(f, "wb").write(raw)
        rc, out, err = run(["postrider", "play", inv_copy, f])
        fp = run(["postrider", "peer", "status", join3])[1]
        fp = re.search(r"british: .*fingerprint ([0-9a-f]{16})", fp)
        report("stranger-joins-first", rc, " ".join(err.split()) +
               (" [the joiner's fingerprint is shown]" if fp and fp.group(1) in err + out else
                " [the joiner's fingerprint is not shown]"), True)


# ---- the game -----------------------------------------------------------------

def outbox_mails(side):
    d = os.path.join(copies[side], ".git/postrider/outbox/new")
    if not os.path.isdir(d):
        return []
    # the mails between the postriders (a player's reports stay home)
    names = [n for n in os.listdir(d) if os.path.join(d, n) not in delivered and "-peer-" in n]
    names.sort(key=lambda n: (os.stat(os.path.join(d, n)).st_mtime_ns, n))
    return [os.path.join(d, n) for n in names]


def deliver():
    while True:
        moved = False
        for side in ("american", "british"):
            for m in outbox_mails(side):
                delivered.add(m)
                attacks_on_mail(m, side)
                rc, out, err = run(["postrider", "play", copies[other[side]], m])
                if rc not in (0, 3):
                    sys.exit("an honest mail was refused: " + err)
                moved = True
        if not moved:
            return


def waits(copy):
    out = run(["postrider", "peer", "status", copy])[1]
    return [l[7:] for l in out.splitlines() if l.startswith("waits: ")]


def choose(legal):
    """Moves and attacks first: dice come sooner."""
    pref = [l for l in legal if re.match(r"(to|move|land|sail|attack|battle|intercept) ", l)]
    return rnd.choice(pref if pref and rnd.random() < 0.85 else legal)


for side in copies:
    for m in outbox_mails(side):
        delivered.add(m)
wanted = {"request-without-proof", "order-with-a-sealed-comment", "sealed-line-changed", "backdated-commit", "commit-out-of-turn", "dice-given-twice",
          "share-of-a-deck-slot", "shuffle-short-by-one"}
orders = 0
while orders < MAX_ORDERS and not wanted <= done:
    deliver()
    w = waits(copies["american"])
    if w != waits(copies["british"]):
        sys.exit("the copies disagree: %s" % w)
    deciding = [x.split()[0] for x in w if x.endswith(" decision")]
    if not deciding:
        break
    s = deciding[0]
    if s == "british" and orders > 6:
        attacks_at_rest()
    if s == "american" and orders > 3:
        attacks_at_american_decision()
    rc, out, err = run(["postrider", "options", copies[s], "--plain"])
    legal = [l for l in out.splitlines()[1:] if l.strip()]
    if not legal:
        sys.exit("no options for %s" % s)
    rc, out, err = run(["postrider", "play", copies[s], "--as", s, "-"], (choose(legal) + "\n").encode())
    orders += 1
    if rc not in (0, 3):
        sys.exit("an honest order was refused: " + err)
deliver()
print("played|%d|yes|%s" % (orders, ",".join(sorted(done))))
