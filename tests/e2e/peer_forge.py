#!/usr/bin/env python3
"""Forged mails between the postriders of a peer game (tests/e2e/t-peer-cheat.sh).

A cheater holds his own secret: he can change what his postrider mailed
and sign the envelope again. forge(mail, secret, edit) takes a mail as
postrider wrote it, applies edit to its patch text (and to the envelope's
fields), puts the patch's new SHA-256 in the envelope and signs it again
with the cheater's key (docs/peer.md 3.3, 8.1), as a cheating postrider
would. Uses tests/verify/verify_peer.py for the signature.
"""
import base64
import email
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from email import policy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify"))
import verify_peer as vp  # noqa: E402


def parts(raw):
    """The message, its envelope part and its patch part."""
    m = email.message_from_bytes(raw, policy=policy.compat32)
    env = patch = None
    for p in m.walk():
        name = p.get_filename() or ""
        if name.startswith("peer-") and name.endswith(".txt"):
            env = p
        elif name.endswith(".patch"):
            patch = p
    return m, env, patch


def envelope_text(part):
    return part.get_payload(decode=True).decode().replace("\r\n", "\n")


def patch_text(part):
    return part.get_payload(decode=True).decode()


def resign(env, secret):
    """The envelope with its sig line made again by the holder of secret."""
    body = env[:env.index("sig ")]
    k = vp.keys(secret)
    return body + "sig " + vp.sign(k, body.encode()).hex() + "\n"


def set_field(env, key, value):
    lines = env.split("\n")
    for i, l in enumerate(lines):
        if l.startswith(key + " "):
            lines[i] = key + " " + value
            break
    return "\n".join(lines)


def recommit(patch, repo, parent):
    """The id of the commit git am makes of patch on parent, in a clone
    of repo: what a cheater who changed his commit would mail."""
    tmp = tempfile.mkdtemp()
    try:
        subprocess.run(["git", "clone", "-q", "--no-checkout", repo, tmp + "/c"], check=True)
        subprocess.run(["git", "-C", tmp + "/c", "checkout", "-q", parent], check=True)
        who = re.search(r"^From: (.*) <(.*)>$", patch, re.M)
        env = dict(os.environ, GIT_COMMITTER_NAME=who.group(1), GIT_COMMITTER_EMAIL=who.group(2))
        subprocess.run(["git", "-C", tmp + "/c", "am", "-q", "--committer-date-is-author-date"],
                       input=patch.encode(), env=env, check=True)
        return subprocess.run(["git", "-C", tmp + "/c", "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    finally:
        shutil.rmtree(tmp)


def forge(raw, secret, edit_patch=None, edit_env=None, sign=True, rehash=True, repo=None):
    """A forged copy of raw (bytes). rehash: the envelope names the new
    patch's hash; repo: the envelope names the commit the new patch makes
    (recommit) on its parent in repo."""
    m, envp, patchp = parts(raw)
    env, patch = envelope_text(envp), patch_text(patchp)
    if edit_patch:
        patch = edit_patch(patch)
    if rehash:
        env = set_field(env, "patch", hashlib.sha256(patch.encode()).hexdigest())
    if repo:
        parent = re.search(r"^parent (\S+)$", env, re.M).group(1)
        env = set_field(env, "commit", recommit(patch, repo, parent))
    if edit_env:
        env = edit_env(env)
    if sign:
        env = resign(env, secret)
    envp.set_payload(env)
    del patchp["Content-Transfer-Encoding"]
    patchp["Content-Transfer-Encoding"] = "base64"
    patchp.set_payload(base64.encodebytes(patch.encode()).decode())
    return m.as_bytes()


def flip_hex(line, at):
    """line with the hex digit at position at changed."""
    c = line[at]
    return line[:at] + ("1" if c != "1" else "2") + line[at + 1:]


def edit_added_line(patch, path, fn):
    """Applies fn to the first '+' line of path's diff (a new text)."""
    head = "diff --git a/%s b/%s\n" % (path, path)
    i = patch.index(head)
    j = patch.index("\n@@ ", i)
    k = patch.index("\n+", j) + 1
    e = patch.index("\n", k)
    return patch[:k] + "+" + fn(patch[k + 1:e]) + patch[e:]


def added_lines(patch, path):
    head = "diff --git a/%s b/%s\n" % (path, path)
    if head not in patch:
        return []
    i = patch.index(head)
    end = patch.find("\ndiff --git ", i + 1)
    body = patch[i:end if end > 0 else len(patch)]
    return [l[1:] for l in body.split("\n") if l.startswith("+") and not l.startswith("+++")]
