#!/usr/bin/python3
"""Signs a mail with DKIM for the tests (RFC 6376; ed25519-sha256 of RFC
8463): a player's mail provider. The canonical forms are those of
tests/verify/verify_dkim.py (checked there against RFC 8463's example).

    dkim_sign.py KEY.pem DOMAIN SELECTOR [--canon C] [--headers H:H:...]
                 [--length] < mail > signed mail

KEY.pem: an RSA or Ed25519 private key (openssl genpkey). --length signs
the body's length (l=) as it is. The mail keeps its line ends; the new
DKIM-Signature field goes on top.
"""

import base64
import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify"))
import verify_dkim as v  # noqa: E402

from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ed25519, padding  # noqa: E402


def main(argv):
    keyfile, domain, selector = argv[1:4]
    canon, names, length = "relaxed/relaxed", "from:to:subject:date:message-id", False
    rest = argv[4:]
    while rest:
        if rest[0] == "--canon":
            canon, rest = rest[1], rest[2:]
        elif rest[0] == "--headers":
            names, rest = rest[1], rest[2:]
        elif rest[0] == "--length":
            length, rest = True, rest[1:]
        else:
            sys.exit("unknown option %s" % rest[0])
    with open(keyfile, "rb") as f:
        key = serialization.load_pem_private_key(f.read(), None)
    ed = isinstance(key, ed25519.Ed25519PrivateKey)
    raw = sys.stdin.buffer.read()
    lf = b"\r\n" not in raw
    msg = v.crlf(raw)
    fields, body = v.split(msg)
    hrel, brel = (x == "relaxed" for x in canon.split("/"))
    cb = v.canon_body(brel, body)
    bh = base64.b64encode(hashlib.sha256(cb).digest()).decode()
    sig = ("DKIM-Signature: v=1; a=%s; c=%s; d=%s; s=%s;\r\n h=%s;%s\r\n bh=%s;\r\n b="
           % ("ed25519-sha256" if ed else "rsa-sha256", canon, domain, selector, names,
              " l=%d;" % len(cb) if length else "", bh))
    used, data = set(), b""
    for n in names.encode().split(b":"):
        for j in range(len(fields) - 1, -1, -1):
            if j not in used and fields[j][0].lower() == n.lower():
                used.add(j)
                data += v.canon_header(hrel, fields[j][1])
                break
    data += v.canon_header(hrel, sig.encode())[:-2]
    if ed:
        b = key.sign(hashlib.sha256(data).digest())
    else:
        b = key.sign(data, padding.PKCS1v15(), hashes.SHA256())
    b64 = base64.b64encode(b).decode()
    sig += "\r\n ".join(b64[i:i + 64] for i in range(0, len(b64), 64)) + "\r\n"
    out = sig.encode() + msg
    if lf:
        out = out.replace(b"\r\n", b"\n")
    sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main(sys.argv)
