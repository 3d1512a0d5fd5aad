#!/usr/bin/python3
"""An independent verifier of the mail postrider keeps with each order
(docs/fairness.md, section 22): the DKIM signatures of a kept mail
(RFC 6376, ed25519-sha256 of RFC 8463) checked against the key records
kept with it, and the record's verdict derived again.

Written from RFC 6376, RFC 8463 and docs/fairness.md, not from the C code.
It needs the Python standard library and the `cryptography` package
(Debian: python3-cryptography) for RSA and Ed25519.

    verify_dkim.py --vectors
        checks the signed message of RFC 8463 appendix A (both
        signatures pass; a changed body and a changed From fail).
    verify_dkim.py check RECORD MAIL [--seed HEX]
        one kept mail (mail/NNNN-SIDE.eml) against its record
        (mail/NNNN-SIDE.txt); with the revealed seed, the commitment too.
    verify_dkim.py game DIR
        every record of a game's clone (branch HEAD), and every kept mail
        its reveal commit published, with the seed of its game.yaml; prints
        the senders per side.

Exit 0 verified, 1 a mismatch (named), 2 bad usage.
"""

import base64
import hashlib
import hmac
import re
import struct
import subprocess
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, padding, rsa

WSP = b" \t"


# ---- the message (RFC 6376 3.4, 5.3) ----

def crlf(msg):
    """Line ends made CRLF: a lone LF becomes CRLF; an mbox envelope line
    ("From " first) left out (docs/fairness.md 22.2)."""
    if msg.startswith(b"From "):
        msg = msg[msg.find(b"\n") + 1:] if b"\n" in msg else b""
    return re.sub(rb"(?<!\r)\n", b"\r\n", msg)


def split(msg):
    """[(name, raw field without its final CRLF)], body."""
    fields, pos = [], 0
    while pos < len(msg):
        if msg.startswith(b"\r\n", pos):
            return fields, msg[pos + 2:]
        end = pos
        while True:
            eol = msg.find(b"\r\n", end)
            if eol < 0:
                eol = len(msg)
                break
            if eol + 2 < len(msg) and msg[eol + 2:eol + 3] in (b" ", b"\t"):
                end = eol + 2
                continue
            break
        raw = msg[pos:eol]
        if b":" not in raw or raw[:1] in (b" ", b"\t"):
            raise ValueError("the header cannot be read")
        fields.append((raw.split(b":", 1)[0].rstrip(WSP), raw))
        pos = eol + 2
    return fields, b""


def canon_header(relaxed, raw):
    if not relaxed:
        return raw + b"\r\n"
    name, value = raw.split(b":", 1)
    value = re.sub(rb"\r\n", b"", value)
    value = re.sub(rb"[ \t]+", b" ", value).strip(b" ")
    return name.strip(WSP).lower() + b":" + value + b"\r\n"


def canon_body(relaxed, body):
    if relaxed:
        lines = body.split(b"\r\n")
        lines = [re.sub(rb"[ \t]+", b" ", l).rstrip(b" ") for l in lines]
        body = b"\r\n".join(lines)
    while body.endswith(b"\r\n\r\n"):
        body = body[:-2]
    if body == b"\r\n":
        body = b""
    if body and not body.endswith(b"\r\n"):
        body += b"\r\n"
    if not relaxed and not body:
        body = b"\r\n"
    return body


def tags(value):
    """A tag list (RFC 6376 3.2) as a dict; ValueError if malformed."""
    out = {}
    specs = value.split(b";")
    for i, spec in enumerate(specs):
        if not spec.strip(b" \t\r\n"):
            if i == len(specs) - 1:
                continue
            raise ValueError("an empty tag")
        m = re.fullmatch(rb"[ \t\r\n]*([A-Za-z][A-Za-z0-9_]*)[ \t\r\n]*=(.*)", spec, re.S)
        if not m:
            raise ValueError("a malformed tag")
        name = m.group(1).decode()
        if name in out:
            raise ValueError("a tag twice")
        out[name] = m.group(2).strip(b" \t\r\n")
    return out


def nofws(v):
    return re.sub(rb"[ \t\r\n]", b"", v)


def b64(v):
    v = nofws(v)
    if len(v) % 4 or not re.fullmatch(rb"[A-Za-z0-9+/]*={0,2}", v):
        raise ValueError("not base64")
    return base64.b64decode(v)


def aligned(d, dom):
    """docs/fairness.md 22.3: the same domain, or one below the other where
    the shorter has two labels or more."""
    d, dom = d.lower(), dom.lower()
    if d == dom:
        return True
    if dom.endswith("." + d):
        return "." in d
    if d.endswith("." + dom):
        return "." in dom
    return False


def domain_ok(s):
    return (0 < len(s) <= 253 and not s.startswith(".") and not s.endswith(".")
            and ".." not in s and re.fullmatch(r"[A-Za-z0-9._-]+", s) is not None)


def load_key(record, alg, i_dom, d):
    t = tags(record)
    if "v" in t and (t["v"] != b"DKIM1" or list(t)[0] != "v"):
        raise ValueError("v= is not DKIM1 first")
    if "p" not in t or not t["p"]:
        raise ValueError("no key (revoked)")
    k = t.get("k", b"rsa").decode()
    if k != ("ed25519" if alg == "ed25519-sha256" else "rsa"):
        raise ValueError("the key's type does not fit")
    if "h" in t and b"sha256" not in nofws(t["h"]).split(b":"):
        raise ValueError("h= does not allow sha256")
    if "s" in t and not set(nofws(t["s"]).split(b":")) & {b"*", b"email"}:
        raise ValueError("not for email")
    if "t" in t and b"s" in nofws(t["t"]).split(b":") and i_dom is not None and \
            i_dom.lower() != d.lower():
        raise ValueError("t=s: i= must be d=")
    der = b64(t["p"])
    if alg == "ed25519-sha256":
        if len(der) != 32:
            raise ValueError("an ed25519 key is 32 bytes")
        return ed25519.Ed25519PublicKey.from_public_bytes(der)
    key = serialization.load_der_public_key(der)
    if not isinstance(key, rsa.RSAPublicKey) or key.key_size < 1024:
        raise ValueError("not an RSA key of 1024 bits or more")
    return key


def without_b(raw):
    """The field with the value of its b= tag emptied (RFC 6376 3.7)."""
    name, value = raw.split(b":", 1)
    parts = value.split(b";")
    for i, p in enumerate(parts):
        m = re.match(rb"([ \t\r\n]*b[ \t\r\n]*=)", p)
        if m:
            parts[i] = m.group(1)
    return name + b":" + b";".join(parts)


def check_sig(fields, index, body, keys, now):
    """(verdict, d, s, a, c) of the signature in fields[index]; keys(name)
    gives a list of records, None (none) or "temp" (not fetched)."""
    raw = fields[index][1]
    d = s = a = "-"
    c = "simple/simple"
    try:
        t = tags(raw.split(b":", 1)[1])
    except ValueError:
        return "fail", d, s, a, "-"
    if "d" in t and domain_ok(t["d"].decode("latin-1")):
        d = t["d"].decode().lower()
    if "s" in t and domain_ok(t["s"].decode("latin-1")):
        s = t["s"].decode().lower()
    if "a" in t:
        a = nofws(t["a"]).decode("latin-1")
    if "c" in t:
        c = t["c"].decode("latin-1")
    show = (d, s, a if re.fullmatch(r"[A-Za-z0-9/-]{1,40}", a) else "-",
            c if re.fullmatch(r"[A-Za-z0-9/-]{1,40}", c) else "-")
    fail = ("fail",) + show
    if not all(k in t for k in ("v", "a", "b", "bh", "d", "h", "s")) or t["v"] != b"1":
        return fail
    if d == "-" or s == "-" or a not in ("rsa-sha256", "ed25519-sha256"):
        return fail
    cs = c.split("/")
    if len(cs) == 1:
        cs.append("simple")
    if len(cs) != 2 or any(x not in ("simple", "relaxed") for x in cs):
        return fail
    hrel, brel = cs[0] == "relaxed", cs[1] == "relaxed"
    if "q" in t and b"dns/txt" not in nofws(t["q"]).split(b":"):
        return fail
    i_dom = None
    if "i" in t:
        i = t["i"].decode("latin-1")
        if "@" not in i:
            return fail
        i_dom = i.rsplit("@", 1)[1]
        if not domain_ok(i_dom) or not (i_dom.lower() == d or i_dom.lower().endswith("." + d)):
            return fail
    if "x" in t:
        if not re.fullmatch(rb"[0-9]{1,18}", t["x"]) or int(t["x"]) < now:
            return fail
        if "t" in t and re.fullmatch(rb"[0-9]{1,18}", t["t"]) and int(t["t"]) > int(t["x"]):
            return fail
    names = [n for n in nofws(t["h"]).split(b":")]
    if not any(n.lower() == b"from" for n in names):
        return fail
    recs = keys("%s._domainkey.%s" % (s, d))
    if recs == "temp":
        return ("temperror",) + show
    key = None
    for r in recs or []:
        try:
            key = load_key(r, a, i_dom, d)
            break
        except Exception:
            continue
    if key is None:
        return fail
    cb = canon_body(brel, body)
    if "l" in t:
        if not re.fullmatch(rb"[0-9]{1,18}", t["l"]) or int(t["l"]) > len(cb):
            return fail
        cb = cb[:int(t["l"])]
    try:
        if hashlib.sha256(cb).digest() != b64(t["bh"]):
            return fail
        sig = b64(t["b"])
    except ValueError:
        return fail
    used, data = set(), b""
    for n in names:
        for j in range(len(fields) - 1, -1, -1):
            if j in used or j == index or fields[j][0].lower() != n.lower():
                continue
            used.add(j)
            data += canon_header(hrel, fields[j][1])
            break
    data += canon_header(hrel, without_b(raw))[:-2]
    try:
        if a == "ed25519-sha256":
            key.verify(sig, hashlib.sha256(data).digest())
        else:
            key.verify(sig, data, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return fail
    return ("pass",) + show


def check_mail(msg, keys, now, max_sigs=4):
    msg = crlf(msg)
    fields, body = split(msg)
    out = []
    for j, (name, _) in enumerate(fields):
        if name.lower() != b"dkim-signature":
            continue
        if len(out) >= max_sigs:
            out.append(("unchecked", "-", "-", "-", "-"))
            continue
        out.append(check_sig(fields, j, body, keys, now))
    return out


def mta_pass(ar, dom):
    """The aligned domain an Authentication-Results value says dkim=pass
    for, or None."""
    for clause in ar.split(";")[1:]:
        words = clause.split()
        if not words or words[0].lower() != "dkim=pass":
            continue
        for w in words[1:]:
            lw = w.lower()
            if lw.startswith("header.d=") or lw.startswith("header.i="):
                v = lw[9:].rsplit("@", 1)[-1]
                if v and aligned(v, dom):
                    return v
    return None


def result_of(sigs, from_addr, ar):
    """The record's result (docs/fairness.md 22.2)."""
    dom = from_addr.rsplit("@", 1)[-1]
    passed = [s[1] for s in sigs if s[0] == "pass" and aligned(s[1], dom)]
    al = [s for s in sigs if s[1] != "-" and aligned(s[1], dom)]
    if passed:
        return "pass " + passed[0]
    if ar and not any(s[0] == "fail" for s in al) and mta_pass(ar, dom):
        return "pass-mta " + mta_pass(ar, dom)
    if any(s[0] in ("temperror", "unchecked") for s in al):
        return "temperror"
    other = []
    for s in sigs:
        if s[0] == "pass" and s[1] not in other:
            other.append(s[1])
    if other:
        return "other " + " ".join(other)
    return "fail" if sigs else "none"


def parse_record(text):
    rec = {"keys": {}, "sigs": []}
    for line in text.split("\n"):
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "key":
            name, _, txt = rest.partition(" ")
            if txt == "(temporary failure)":
                rec["keys"][name] = "temp"
            elif txt == "(none)":
                rec["keys"].setdefault(name, None)
            else:
                v = rec["keys"].get(name)
                rec["keys"][name] = (v if isinstance(v, list) else []) + [txt.encode()]
        elif word == "signature":
            rec["sigs"].append(rest.split(":", 1)[0])
        else:
            rec[word] = rest
    return rec


def kept_hash(seed, seq, side, mail):
    k = hmac.new(seed, b"postrider-key-mail", hashlib.sha256).digest()
    salt = hmac.new(k, b"postrider-mail-salt" + struct.pack(">QB", seq, side),
                    hashlib.sha256).digest()[:16]
    return hashlib.sha256(salt + mail).hexdigest()


def check_record(rec_text, mail, seed=None, now=0):
    """Raises ValueError on a mismatch."""
    rec = parse_record(rec_text)
    seq, side = rec["order"].split()
    if seed is not None:
        want = kept_hash(seed, int(seq), 1 if side == "american" else 2, mail)
        if rec.get("kept") != want:
            raise ValueError("the kept mail is not the one the record commits to")
    sigs = check_mail(mail, lambda n: rec["keys"].get(n), now)
    lines = ["%d %s d=%s s=%s a=%s c=%s" % ((i + 1,) + s) for i, s in enumerate(sigs)]
    if lines != rec["sigs"]:
        raise ValueError("the signatures checked again give %s, the record says %s"
                         % (lines, rec["sigs"]))
    res = result_of(sigs, rec["from"], rec.get("authentication-results"))
    if res != rec["result"]:
        raise ValueError("the result is '%s', the record says '%s'" % (res, rec["result"]))
    fields, _ = split(crlf(mail))
    froms = [f for n, f in fields if n.lower() == b"from"]
    if not froms or rec["from"].encode() not in froms[0].lower():
        raise ValueError("the kept mail is not from %s" % rec["from"])
    return rec


# ---- RFC 8463 appendix A ----
RFC8463 = b"""DKIM-Signature: v=1; a=ed25519-sha256; c=relaxed/relaxed;
 d=football.example.com; i=@football.example.com;
 q=dns/txt; s=brisbane; t=1528637909; h=from : to :
 subject : date : message-id : from : subject : date;
 bh=2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=;
 b=/gCrinpcQOoIfuHNQIbq4pgh9kyIK3AQUdt9OdqQehSwhEIug4D11Bus
 Fa3bT3FY5OsU7ZbnKELq+eXdp1Q1Dw==
DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;
 d=football.example.com; i=@football.example.com;
 q=dns/txt; s=test; t=1528637909; h=from : to : subject :
 date : message-id : from : subject : date;
 bh=2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=;
 b=F45dVWDfMbQDGHJFlXUNB2HKfbCeLRyhDXgFpEL8GwpsRe0IeIixNTe3
 DhCVlUrSjV4BwcVcOF6+FF3Zo9Rpo1tFOeS9mPYQTnGdaSGsgeefOsk2Jz
 dA+L10TeYt9BgDfQNZtKdN1WO//KgIqXP7OdEFE4LjFYNcUxZQ4FADY+8=
From: Joe SixPack <joe@football.example.com>
To: Suzie Q <suzie@shopping.example.net>
Subject: Is dinner ready?
Date: Fri, 11 Jul 2003 21:00:37 -0700 (PDT)
Message-ID: <20030712040037.46341.5F8J@football.example.com>

Hi.

We lost the game.  Are you hungry yet?

Joe.
"""
RFC8463_KEYS = {
    "brisbane._domainkey.football.example.com":
        [b"v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="],
    "test._domainkey.football.example.com":
        [b"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWR"
         b"iGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutAC"
         b"DfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3"
         b"Ip3G+2kryOTIKT+l/K4w3QIDAQAB"],
}


def vectors():
    keys = RFC8463_KEYS.get
    got = [s[0] for s in check_mail(RFC8463, keys, 1528637909)]
    if got != ["pass", "pass"]:
        raise ValueError("RFC 8463's message: %s, not both pass" % got)
    got = [s[0] for s in check_mail(RFC8463.replace(b"We lost", b"We won"), keys, 0)]
    if got != ["fail", "fail"]:
        raise ValueError("a changed body: %s" % got)
    got = [s[0] for s in check_mail(RFC8463.replace(b"Joe SixPack", b"Joe Sixpack"), keys, 0)]
    if got != ["fail", "fail"]:
        raise ValueError("a changed From: %s" % got)
    print("ok: RFC 8463's signed message (ed25519-sha256 and rsa-sha256) verifies, "
          "a changed body and a changed From do not")


def git(repo, *args):
    r = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode:
        raise ValueError("git %s: %s" % (" ".join(args), r.stderr.decode().strip()))
    return r.stdout


def game(repo):
    gy = git(repo, "show", "HEAD:game.yaml").decode()
    m = re.search(r"^  revealed_seed: ([0-9a-f]{64})$", gy, re.M)
    seed = bytes.fromhex(m.group(1)) if m else None
    counts = {"american": [0, 0, 0], "british": [0, 0, 0]}
    checked = sealed = 0
    for c in git(repo, "rev-list", "--reverse", "HEAD").decode().split():
        msg = git(repo, "show", "-s", "--format=%B%n%at", c).decode()
        side = re.search(r"^Postrider-Side: (\w+)$", msg, re.M)
        via = re.search(r"^Postrider-Via: (\S+)", msg, re.M)
        seq = re.search(r"^Postrider-Seq: (\d+)$", msg, re.M)
        if not side or side.group(1) not in counts or not via:
            continue
        side, seq = side.group(1), int(seq.group(1))
        if via.group(1) == "host":
            counts[side][2] += 1
            continue
        path = "mail/%04d-%s" % (seq, side)
        try:
            rec = git(repo, "show", "%s:%s.txt" % (c, path)).decode()
        except ValueError:
            continue
        res = parse_record(rec)["result"]
        counts[side][0 if res.startswith("pass") else 1] += 1
        try:
            mail = git(repo, "show", "HEAD:%s.eml" % path)
        except ValueError:
            sealed += 1
            continue
        now = int(msg.strip().split("\n")[-1])
        try:
            check_record(rec, mail, seed, now)
        except ValueError as e:
            raise ValueError("order %d (%s): %s" % (seq, side, e))
        checked += 1
    for side in ("american", "british"):
        p, u, h = counts[side]
        print("%s: %d by mail signed by his domain, %d without that signature, %d typed "
              "by the host" % (side, p, u, h))
    print("verified: %d kept mails checked again%s" %
          (checked, "; %d sealed until the reveal" % sealed if sealed else ""))


def main(argv):
    try:
        if argv[1:] == ["--vectors"]:
            vectors()
        elif len(argv) in (4, 6) and argv[1] == "check":
            seed = bytes.fromhex(argv[5]) if len(argv) == 6 and argv[4] == "--seed" else None
            with open(argv[2]) as f:
                rec = f.read()
            with open(argv[3], "rb") as f:
                mail = f.read()
            check_record(rec, mail, seed)
            print("verified: the kept mail agrees with its record")
        elif len(argv) == 3 and argv[1] == "game":
            game(argv[2])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (ValueError, KeyError) as e:
        print("mismatch: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
