#!/usr/bin/python3
"""make-games.py ROOT N BASE... - a folder of N games for the scaling bench
(tests/bench-scale.sh, issue 33), made cheaply from a few real ones.

Game i is a copy of BASE[i % len(BASE)] under a new id (ww- and 8 hex
digits of SHA-256("bench-" i)), in ROOT/<id>: its objects and its data/
hard-linked (git never writes an object in place, and the component data
never changes), every other file copied (the work tree, refs, the host's
clock and secret; not the outbox), and one commit in place of its head
whose game.yaml and message carry the new id, with the same parents,
author, committer and date (the index names the new game.yaml). Pack a
BASE's objects first (git repack -a -d; git prune-packed) to spare each
copy its folders of loose objects. Such a game opens, lists, reminds and
checks as a real one; its history (the VRF proofs of its draws name the
old id) would not pass an audit, which the bench does not run on it.
Games already in ROOT are left as they are, so a cache of 10,000 is made
once.
"""
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib


def read_object(gitdir, oid):
    """The raw body of a commit or tree (loose or packed)."""
    kind = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "-t", oid], check=True,
                          capture_output=True).stdout.decode().strip()
    return subprocess.run(["git", "--git-dir", gitdir, "cat-file", kind, oid], check=True,
                          capture_output=True).stdout


class Pattern:
    """What every copy of one base shares: its id, head commit and tree."""
    def __init__(self, base):
        gitdir = os.path.join(base, ".git")
        self.base = base
        self.old_id = re.search(r"^id: (\S+)$", open(os.path.join(base, "game.yaml")).read(),
                                re.M).group(1)
        head = open(os.path.join(gitdir, "refs", "heads", "main")).read().strip()
        self.commit = read_object(gitdir, head)
        self.tree_id = re.match(rb"tree ([0-9a-f]{40})\n", self.commit).group(1).decode()
        self.tree = read_object(gitdir, self.tree_id)
        self.game_yaml = open(os.path.join(base, "game.yaml"), "rb").read()


def fix_index(path, name, oid):
    """The index entry of name gets blob oid (version 2; extensions,
    such as a cached tree, dropped); its checksum is written anew."""
    data = open(path, "rb").read()
    sig, ver, n = struct.unpack(">4sII", data[:12])
    assert sig == b"DIRC" and ver == 2
    i = 12
    for _ in range(n):
        flags = struct.unpack(">H", data[i + 60:i + 62])[0]
        nlen = flags & 0xfff
        if data[i + 62:i + 62 + nlen] == name:
            data = data[:i + 40] + bytes.fromhex(oid) + data[i + 60:]
        i += (62 + nlen + 8) // 8 * 8
    body = data[:i]
    with open(path, "wb") as f:
        f.write(body + hashlib.sha1(body).digest())


def write_object(gitdir, kind, body):
    raw = b"%s %d\0" % (kind.encode(), len(body)) + body
    oid = hashlib.sha1(raw).hexdigest()
    path = os.path.join(gitdir, "objects", oid[:2], oid[2:])
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(zlib.compress(raw))
        os.chmod(tmp, 0o444)
        os.rename(tmp, path)
    return oid


def copy_game(pat, dest, new_id):
    base = pat.base
    tmp = dest + ".making"
    shutil.rmtree(tmp, ignore_errors=True)
    for top, dirs, files in os.walk(base):
        rel = os.path.relpath(top, base)
        if rel == os.path.join(".git", "postrider"):
            dirs[:] = [d for d in dirs if d != "outbox"]
        os.makedirs(os.path.join(tmp, rel), exist_ok=True)
        shutil.copystat(top, os.path.join(tmp, rel))
        parts = rel.split(os.sep)
        link = parts[:2] == [".git", "objects"] or parts[0] == "data"
        for name in files:
            src, dst = os.path.join(top, name), os.path.join(tmp, rel, name)
            if link:
                os.link(src, dst)
            else:
                shutil.copy2(src, dst)
    gitdir = os.path.join(tmp, ".git")
    text = pat.game_yaml.replace(("id: %s\n" % pat.old_id).encode(),
                                 ("id: %s\n" % new_id).encode())
    blob = write_object(gitdir, "blob", text)
    out, i, tree = b"", 0, pat.tree
    while i < len(tree):
        nul = tree.index(b"\0", i)
        mode_name, oid = tree[i:nul], tree[nul + 1:nul + 21]
        if mode_name == b"100644 game.yaml":
            oid = bytes.fromhex(blob)
        out += mode_name + b"\0" + oid
        i = nul + 21
    new_tree = write_object(gitdir, "tree", out)
    commit = pat.commit.replace(b"tree " + pat.tree_id.encode(), b"tree " + new_tree.encode(), 1)
    commit = commit.replace(pat.old_id.encode(), new_id.encode())
    new_head = write_object(gitdir, "commit", commit)
    with open(os.path.join(gitdir, "refs", "heads", "main"), "w") as f:
        f.write(new_head + "\n")
    os.unlink(os.path.join(tmp, "game.yaml"))
    with open(os.path.join(tmp, "game.yaml"), "wb") as f:
        f.write(text)
    fix_index(os.path.join(gitdir, "index"), b"game.yaml", blob)
    os.rename(tmp, dest)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    root, n = sys.argv[1], int(sys.argv[2])
    bases = [Pattern(b) for b in sys.argv[3:]]
    os.makedirs(root, exist_ok=True)
    for i in range(n):
        new_id = "ww-" + hashlib.sha256(b"bench-%d" % i).hexdigest()[:8]
        dest = os.path.join(root, new_id)
        if not os.path.exists(dest):
            copy_game(bases[i % len(bases)], dest, new_id)


if __name__ == "__main__":
    main()
