#!/usr/bin/python3
"""An independent verifier of postrider's provable dice (docs/fairness.md,
sections 17 to 20), with the Python standard library only.

It was written from RFC 9381 and from docs/fairness.md, not from the C code,
so that the two check each other. The elliptic-curve arithmetic is plain
affine P-256: slow, but a game has a few hundred dice.

    verify_vrf.py --vectors
        checks RFC 9381's examples for ECVRF-P256-SHA256-TAI (appendix
        B.1, with the values on the way: H, k, U, V) and the vector of
        docs/fairness.md section 17.8; prints "ok: N vectors ..." (N the
        RFC's) or the first mismatch and exits 1.
    verify_vrf.py verify PK ALPHA PI
        (hex) prints beta and exits 0 if PI proves ALPHA under PK, else
        prints "invalid" and exits 1.
    verify_vrf.py prove SK ALPHA
        (hex) prints "PI BETA".
    verify_vrf.py game DIR [REV]
        checks every public draw of a game's clone (at REV, default HEAD)
        with the public key in its game.yaml: prints "verified N dice
        without any secret; K shuffles wait for the end", or the first draw
        that fails and exits 1.

Exit status 2 for bad usage.
"""

import hashlib
import hmac
import re
import subprocess
import sys

# ---- P-256 (SEC 2, FIPS 186) ----
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
Q = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)
INF = None

SUITE = b"\x01"
C_LEN = 16


def on_curve(pt):
    x, y = pt
    return (y * y - (x * x * x + A * x + B)) % P == 0


def add(p1, p2):
    if p1 is INF:
        return p2
    if p2 is INF:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return INF
        lam = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return (x3, (lam * (x1 - x3) - y1) % P)


def neg(pt):
    return INF if pt is INF else (pt[0], (-pt[1]) % P)


def mul(k, pt):
    acc = INF
    for bit in bin(k % Q)[2:]:
        acc = add(acc, acc)
        if bit == "1":
            acc = add(acc, pt)
    return acc


def encode_point(pt):
    """The 33-byte compressed form; the point at infinity has none."""
    if pt is INF:
        raise ValueError("point at infinity")
    x, y = pt
    return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")


def decode_point(b):
    """A compressed point of the curve, or None."""
    if len(b) != 33 or b[0] not in (2, 3):
        return None
    x = int.from_bytes(b[1:], "big")
    if x >= P:
        return None
    rhs = (x * x * x + A * x + B) % P
    y = pow(rhs, (P + 1) // 4, P)
    if y * y % P != rhs:
        return None
    if (y & 1) != (b[0] & 1):
        y = P - y
    return (x, y)


def sha256(*parts):
    return hashlib.sha256(b"".join(parts)).digest()


# ---- RFC 9381, suite 0x01 ----
def encode_to_curve(pk_bytes, alpha):
    """Try and increment: the first counter whose hash is an x-coordinate."""
    for ctr in range(256):
        h = sha256(SUITE, b"\x01", pk_bytes, alpha, bytes([ctr]), b"\x00")
        pt = decode_point(b"\x02" + h)
        if pt is not None:
            return pt
    raise ValueError("no point found")


def challenge(*points):
    return sha256(SUITE, b"\x02", *[encode_point(p) for p in points], b"\x00")[:C_LEN]


def nonce_rfc6979(x, h_string):
    """RFC 6979 section 3.2 with SHA-256; qlen = hlen = 256."""
    h1 = int.from_bytes(hashlib.sha256(h_string).digest(), "big") % Q
    xb, hb = x.to_bytes(32, "big"), h1.to_bytes(32, "big")
    v, k = b"\x01" * 32, b"\x00" * 32
    k = hmac.new(k, v + b"\x00" + xb + hb, "sha256").digest()
    v = hmac.new(k, v, "sha256").digest()
    k = hmac.new(k, v + b"\x01" + xb + hb, "sha256").digest()
    v = hmac.new(k, v, "sha256").digest()
    while True:
        v = hmac.new(k, v, "sha256").digest()
        cand = int.from_bytes(v, "big")
        if 1 <= cand < Q:
            return cand
        k = hmac.new(k, v + b"\x00", "sha256").digest()
        v = hmac.new(k, v, "sha256").digest()


def public_key(sk):
    return encode_point(mul(int.from_bytes(sk, "big"), G))


def gamma_to_beta(gamma_bytes):
    return sha256(SUITE, b"\x03", gamma_bytes, b"\x00")


def prove_steps(sk, alpha):
    """The proof of alpha with the values on the way: a dict of the bytes
    H, k (32 bytes), U, V, pi and beta, as RFC 9381's examples list them."""
    if len(sk) != 32:
        raise ValueError("a secret key is 32 bytes")
    x = int.from_bytes(sk, "big")
    if not 1 <= x < Q:
        raise ValueError("secret key out of range")
    y = mul(x, G)
    pk = encode_point(y)
    h = encode_to_curve(pk, alpha)
    gamma = mul(x, h)
    k = nonce_rfc6979(x, encode_point(h))
    u, v = mul(k, G), mul(k, h)
    c = challenge(y, h, gamma, u, v)
    s = (k + int.from_bytes(c, "big") * x) % Q
    pi = encode_point(gamma) + c + s.to_bytes(32, "big")
    return {"H": encode_point(h), "k": k.to_bytes(32, "big"),
            "U": encode_point(u), "V": encode_point(v),
            "pi": pi, "beta": gamma_to_beta(pi[:33])}


def prove(sk, alpha):
    """(pi, beta) for the 32-byte secret key sk; ValueError if it is not
    in [1, q-1]."""
    steps = prove_steps(sk, alpha)
    return steps["pi"], steps["beta"]


def verify(pk, pi, alpha):
    """beta, or None when the proof is not valid."""
    y = decode_point(pk)
    if y is None or len(pi) != 81:
        return None
    gamma = decode_point(pi[:33])
    c = int.from_bytes(pi[33:49], "big")
    s = int.from_bytes(pi[49:], "big")
    if gamma is None or s >= Q:
        return None
    h = encode_to_curve(pk, alpha)
    u = add(mul(s, G), neg(mul(c, y)))
    v = add(mul(s, h), neg(mul(c, gamma)))
    if u is INF or v is INF:
        return None
    if challenge(y, h, gamma, u, v) != pi[33:49]:
        return None
    return gamma_to_beta(pi[:33])


def proof_to_hash(pi):
    """ECVRF_proof_to_hash without verification: beta, or None when pi does
    not decode (81 bytes: a point, c, and s below q)."""
    if len(pi) != 81 or decode_point(pi[:33]) is None or \
            int.from_bytes(pi[49:], "big") >= Q:
        return None
    return gamma_to_beta(pi[:33])


# RFC 9381 appendix B.1 (ECVRF-P256-SHA256-TAI), its three examples: the
# secret key, the public key, alpha (hex), the values on the way (the point
# H, the nonce k, the points U = k*B and V = k*H) and the results pi, beta.
RFC_VECTORS = [
    {"sk": "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
     "pk": "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
     "alpha": b"sample".hex(),
     "H": "0272a877532e9ac193aff4401234266f59900a4a9e3fc3cfc6a4b7e467a15d06d4",
     "k": "0d90591273453d2dc67312d39914e3a93e194ab47a58cd598886897076986f77",
     "U": "02bb6a034f67643c6183c10f8b41dc4babf88bff154b674e377d90bde009c21672",
     "V": "02893ebee7af9a0faa6da810da8a91f9d50e1dc071240c9706726820ff919e8394",
     "pi": "035b5c726e8c0e2c488a107c600578ee75cb702343c153cb1eb8dec77f4b5071b4"
           "a53f0a46f018bc2c56e58d383f2305e0975972c26feea0eb122fe7893c15af376b"
           "33edf7de17c6ea056d4d82de6bc02f",
     "beta": "a3ad7b0ef73d8fc6655053ea22f9bede8c743f08bbed3d38821f0e16474b505e"},
    {"sk": "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
     "pk": "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
     "alpha": b"test".hex(),
     "H": "02173119b4fff5e6f8afed4868a29fe8920f1b54c2cf89cc7b301d0d473de6b974",
     "k": "5852353a868bdce26938cde1826723e58bf8cb06dd2fed475213ea6f3b12e961",
     "U": "022779a2cafcb65414c4a04a4b4d2adf4c50395f57995e89e6de823250d91bc48e",
     "V": "033b4a14731672e82339f03b45ff6b5b13dee7ada38c9bf1d6f8f61e2ce5921119",
     "pi": "034dac60aba508ba0c01aa9be80377ebd7562c4a52d74722e0abae7dc3080ddb56"
           "c19e067b15a8a8174905b13617804534214f935b94c2287f797e393eb0816969d8"
           "64f37625b443f30f1a5a33f2b3c854",
     "beta": "a284f94ceec2ff4b3794629da7cbafa49121972671b466cab4ce170aa365f26d"},
    {"sk": "2ca1411a41b17b24cc8c3b089cfd033f1920202a6c0de8abb97df1498d50d2c8",
     "pk": "03596375e6ce57e0f20294fc46bdfcfd19a39f8161b58695b3ec5b3d16427c274d",
     "alpha": b"Example using ECDSA key from Appendix L.4.2 of ANSI.X9-62-2005".hex(),
     "H": "0258055c26c4b01d01c00fb57567955f7d39cd6f6e85fd37c58f696cc6b7aa761d",
     "k": "5689e2e08e1110b4dda293ac21667eac6db5de4a46a519c73d533f69be2f4da3",
     "U": "020f465cd0ec74d2e23af0abde4c07e866ae4e5138bded5dd1196b8843f380db84",
     "V": "036cb6f811428fc4904370b86c488f60c280fa5b496d2f34ff8772f60ed24b2d1d",
     "pi": "03d03398bf53aa23831d7d1b2937e005fb0062cbefa06796579f2a1fc7e7b8c667"
           "d091c00b0f5c3619d10ecea44363b5a599cadc5b2957e223fec62e81f7b4825fc7"
           "99a771a3d7334b9186bdbee87316b1",
     "beta": "90871e06da5caa39a3c61578ebb844de8635e27ac0b13e829997d0d95dd98c19"},
]


def check_rfc_vectors():
    """None when every example of RFC_VECTORS is reproduced (prove, with
    the values on the way, and verify) and a changed proof is refused;
    otherwise a sentence naming the first mismatch."""
    for n, t in enumerate(RFC_VECTORS, 1):
        sk, pk, alpha = (bytes.fromhex(t[f]) for f in ("sk", "pk", "alpha"))
        if public_key(sk).hex() != t["pk"]:
            return "example %d: the public key is %s" % (n, public_key(sk).hex())
        steps = prove_steps(sk, alpha)
        for field in ("H", "k", "U", "V", "pi", "beta"):
            if steps[field].hex() != t[field]:
                return "example %d: %s is %s, the RFC says %s" % (
                    n, field, steps[field].hex(), t[field])
        pi = bytes.fromhex(t["pi"])
        beta = verify(pk, pi, alpha)
        if beta is None or beta.hex() != t["beta"]:
            return "example %d: verify gives %s" % (n, beta.hex() if beta else "invalid")
        if proof_to_hash(pi) != beta:
            return "example %d: proof_to_hash differs from verify" % n
        for at in (0, 1, 40, 60, 80):
            bad = bytearray(pi)
            bad[at] ^= 0x01
            if verify(pk, bytes(bad), alpha) is not None:
                return "example %d: the proof with byte %d changed verifies" % (n, at)
        if verify(pk, pi, alpha + b"x") is not None:
            return "example %d: the proof verifies for another alpha" % n
    return None


# ---- postrider's use of it (docs/fairness.md section 18) ----
TWO64 = 1 << 64


def game_secret_key(seed):
    """x = (OS2IP(HMAC(seed, "postrider-key-vrf")) mod (q - 1)) + 1."""
    k = hmac.new(seed, b"postrider-key-vrf", "sha256").digest()
    return ((int.from_bytes(k, "big") % (Q - 1)) + 1).to_bytes(32, "big")


def draw_alpha(game_id, words, index):
    """Version 2 (section 18.2): the input of draw index."""
    gid = game_id.encode()
    return (b"postrider-vrf-draw" + bytes([len(gid)]) + gid + words +
            index.to_bytes(8, "big"))


def draw_alpha3(game_id, words, side, n, place):
    """Version 3 (section 19.2): the input of the public draw at place of
    the order of side (0 the new game, 1 American, 2 British) that is that
    side's order number n, counted from 0."""
    gid = game_id.encode()
    return (b"postrider-vrf-draw-v3" + bytes([len(gid)]) + gid + words +
            bytes([side]) + n.to_bytes(8, "big") + place.to_bytes(8, "big"))


def draw_alpha4(game_id, words, n):
    """Version 4 (section 19b.2): the input of the public draw that is the
    game's n-th, counted from 0 (its place among every public draw of the
    game: the lines of proofs.txt before its own)."""
    gid = game_id.encode()
    return (b"postrider-vrf-draw-v4" + bytes([len(gid)]) + gid + words +
            n.to_bytes(8, "big"))


def value_from_beta(beta, index, n):
    """The rejection sampling of section 6.3, keyed by beta."""
    rem = TWO64 % n
    attempt = 0
    while True:
        msg = b"postrider-draw" + index.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        x = int.from_bytes(hmac.new(beta, msg, "sha256").digest()[:8], "big")
        if x < TWO64 - rem:
            return x % n
        attempt += 1


# The grammar of docs/fairness.md sections 6.6 and 20, strictly: decimal
# numbers without a leading zero, ASCII digits only, a purpose without
# control characters, lines ended by LF alone (a CR is a control character).
NUM = r"(0|[1-9][0-9]*)"
PURPOSE = r"(?: \([^\x00-\x1f\x7f]*\))?"
DRAW = re.compile(r"[ \t]*draw " + NUM + r": (?:d6 -> ([1-6])(?: forced, stream ([1-6]))?"
                  r"|uniform\(" + NUM + r"\) -> " + NUM + ")" + PURPOSE, re.ASCII)
SHUFFLE = re.compile(r"[ \t]*draws " + NUM + "-" + NUM + ": shuffle of " + NUM + PURPOSE,
                     re.ASCII)
MIX = re.compile(r"words mixed: american ([0-9a-f]{64}|-) british ([0-9a-f]{64}|-)")
PROOF = re.compile(NUM + r" ([0-9a-f]{162})", re.ASCII)
# Version 3: the heading that begins each order's lines in log.txt
HEADING = re.compile(r"-- " + NUM + ", order " + NUM + r" \((American|British)\) --",
                     re.ASCII)


def read_proofs(proofs):
    """[(index, pi)] of proofs.txt; ValueError for a line that breaks the
    grammar of section 20.2."""
    if proofs and not proofs.endswith("\n"):
        raise ValueError("proofs.txt does not end with a newline")
    out = []
    for no, line in enumerate(proofs.split("\n")[:-1], 1):
        m = PROOF.fullmatch(line)
        if not m:
            raise ValueError("proofs.txt line %d is malformed (a line is N, a space, "
                             "162 lowercase hex digits and LF)" % no)
        out.append((int(m.group(1)), bytes.fromhex(m.group(2))))
    return out


def check_game(game_id, pk, log, proofs, version=2):
    """(dice, shuffles), or raises ValueError naming the first failure.
    In version 3 each order heading of log.txt names the order of the
    draws that follow it (section 19.4); in version 4 a draw's place is
    the number of public draws above it in the log (section 19b)."""
    table = {}
    order = []
    for index, pi in read_proofs(proofs):
        table[index] = pi
        order.append(index)
    words = bytes(64)
    nxt, dice, shuffles, used = 0, 0, 0, []
    side, n_order, place, counts = 0, 0, 0, {"American": 0, "British": 0}
    if log and not log.endswith("\n"):
        raise ValueError("log.txt does not end with a newline")
    for no, line in enumerate(log.split("\n")[:-1], 1):
        m = HEADING.fullmatch(line)
        if m:
            side = 1 if m.group(3) == "American" else 2
            n_order, place = counts[m.group(3)], 0
            counts[m.group(3)] += 1
            continue
        if line.startswith("-- "):
            side = None     # a commit of the host: no order, no draw
            continue
        m = MIX.fullmatch(line)
        if not m and line.startswith("words mixed: "):
            raise ValueError("log.txt line %d is a malformed words line" % no)
        if m:
            words = b"".join(bytes(32) if h == "-" else bytes.fromhex(h)
                             for h in m.groups())
            continue
        m = SHUFFLE.fullmatch(line)
        if m:
            first, last, n = map(int, m.groups())
            if first != nxt or last != first + n - 2:
                raise ValueError("log.txt line %d: the draws do not run on" % no)
            nxt = last + 1
            shuffles += 1
            continue
        m = DRAW.fullmatch(line)
        if not m:
            if re.match(r"[ \t]*draws? ", line):
                raise ValueError("log.txt line %d is a malformed draw line" % no)
            continue
        index = int(m.group(1))
        if index != nxt:
            raise ValueError("log.txt line %d: draw %d where %d was due" % (no, index, nxt))
        nxt += 1
        if m.group(2):
            n, shown = 6, int(m.group(3) or m.group(2))
        else:
            n, shown = int(m.group(4)), int(m.group(5))
            if n < 1 or shown >= n:
                raise ValueError("log.txt line %d is a malformed draw line" % no)
        if index not in table:
            raise ValueError("log.txt line %d: draw %d has no proof" % (no, index))
        if version >= 3 and side is None:
            raise ValueError("log.txt line %d: draw %d outside an order" % (no, index))
        if version == 4:
            at = dice
            alpha = draw_alpha4(game_id, words, at)
        elif version == 3:
            at = place
            place += 1
            alpha = draw_alpha3(game_id, words, side, n_order, at)
        else:
            at, alpha = index, draw_alpha(game_id, words, index)
        beta = verify(pk, table[index], alpha)
        if beta is None:
            raise ValueError("log.txt line %d: the proof of draw %d does not verify%s"
                             % (no, index, {3: " for its order and place",
                                            4: " for its place among the game's dice"}
                                .get(version, "")))
        got = value_from_beta(beta, at, n) + (1 if m.group(2) else 0)
        if got != shown:
            raise ValueError("log.txt line %d: draw %d shows %d, but its proof gives %d"
                             % (no, index, shown, got))
        dice += 1
        used.append(index)
    if used != order:
        raise ValueError("proofs.txt holds proofs of draws the log does not show")
    return dice, shuffles


# docs/fairness.md section 17.8: the game key of the seed 00 01 ... 1f and
# the input of the first draw of game "ww-test" before any words.
DOC_VECTOR = {
    "seed": bytes(range(32)).hex(),
    "sk": "728b628227fe184c616947da81fcc4d1408a07bb9114b66deb24933d3431689b",
    "pk": "035960a54d84ad773022d3eb0e2af1c67d0b8422bfb81377aa7745d94c21282c39",
    "pi": "0284e2a30a9133eedbc18aff4fddcf5cf7af6ced4976c9f0993f4007f77db57f15"
          "95fb513d1d06c98b0dddd3e05995637ac067c2cf0b009b6216c40369396ae2f2"
          "6fab0cd4528abead91cd4e0e3fc73bfd",
    "beta": "f610e5b3ab9994de4b19b8e5b4daf9c1df2638ce025f3a458271060477c645d2",
}


# docs/fairness.md section 19.5: the same key, the input of version 3 for
# the American's order n = 4, place 0; the dice at places 0-2 of that order
# and of the new game's commit (side 0, n 0).
DOC_VECTOR3 = {
    "pi": "0252cfe97ba66b79839e75d243410c49b7b11ff93ad3eff1e6ea00411c4ce62634"
          "db1e2761499c5c7ebf5c7a232f9297e37a8bdb41009b9e07512d48a6517da9452f"
          "e73f3ffa9fd212d5efa7e794da5e8d",
    "beta": "91209bf4d1c9542c81bb1f13806311e6afff1117f1b70a8434bca6cb6f727c10",
    "dice": [6, 4, 3],
    "new_game_dice": [1, 3, 5],
}


# docs/fairness.md section 19b.5: the same key, the input of version 4 for
# the game's public draw 4 (its fifth); the dice at places 4-6 and 0-2.
DOC_VECTOR4 = {
    "pi": "02d68e8b108c588b482cb0881c84759281b5e54f4226f5a8896ea73539b30331aa"
          "8f8724729a42fddf50d6baea91f57555576c0999a73c084065437c012a3b39546f"
          "05434acf1b7fdde158a8a0f6f0fb25",
    "beta": "b1ae6d55853815495ae1644fbc9a761e62dfa206e20ca91cae3261b442e6c986",
    "dice": [5, 4, 6],
    "first_dice": [1, 1, 2],
}


def check_doc_vector():
    """None when DOC_VECTOR is reproduced, else a sentence."""
    t = DOC_VECTOR
    sk = game_secret_key(bytes.fromhex(t["seed"]))
    if sk.hex() != t["sk"] or public_key(sk).hex() != t["pk"]:
        return "17.8: the key of the seed differs"
    alpha = draw_alpha("ww-test", bytes(64), 0)
    pi, beta = prove(sk, alpha)
    if pi.hex() != t["pi"] or beta.hex() != t["beta"]:
        return "17.8: the proof or beta differs"
    if verify(bytes.fromhex(t["pk"]), pi, alpha) != beta:
        return "17.8: the proof does not verify"
    t3 = DOC_VECTOR3
    pi, beta = prove(sk, draw_alpha3("ww-test", bytes(64), 1, 4, 0))
    if pi.hex() != t3["pi"] or beta.hex() != t3["beta"]:
        return "19.5: the proof or beta differs"
    for side, n, dice in ((1, 4, t3["dice"]), (0, 0, t3["new_game_dice"])):
        got = [value_from_beta(prove(sk, draw_alpha3("ww-test", bytes(64), side, n, k))[1],
                               k, 6) + 1 for k in range(3)]
        if got != dice:
            return "19.5: the dice of side %d, order %d differ: %s" % (side, n, got)
    t4 = DOC_VECTOR4
    pi, beta = prove(sk, draw_alpha4("ww-test", bytes(64), 4))
    if pi.hex() != t4["pi"] or beta.hex() != t4["beta"]:
        return "19b.5: the proof or beta differs"
    for places, dice in ((range(4, 7), t4["dice"]), (range(3), t4["first_dice"])):
        got = [value_from_beta(prove(sk, draw_alpha4("ww-test", bytes(64), k))[1], k, 6) + 1
               for k in places]
        if got != dice:
            return "19b.5: the dice at places %s differ: %s" % (list(places), got)
    return None


def git_show(repo, rev, path):
    """The file's bytes as text, line endings untouched (a CR stays)."""
    return subprocess.run(["git", "-C", repo, "show", "%s:%s" % (rev, path)],
                          check=True, capture_output=True).stdout.decode("utf-8")


def main(argv):
    if argv == ["--vectors"]:
        wrong = check_rfc_vectors()
        if wrong:
            print("mismatch:", wrong)
            return 1
        wrong = check_doc_vector()
        if wrong:
            print("mismatch:", wrong)
            return 1
        print("ok: %d vectors, and the vectors of docs/fairness.md 17.8, 19.5 and 19b.5"
              % len(RFC_VECTORS))
        return 0
    if len(argv) in (3, 4) and argv[0] in ("verify", "prove"):
        try:
            args = [bytes.fromhex(a) for a in argv[1:]]
        except ValueError:
            print("verify_vrf.py: arguments must be hex", file=sys.stderr)
            return 2
        if argv[0] == "verify" and len(args) == 3:
            beta = verify(args[0], args[2], args[1])
            print(beta.hex() if beta else "invalid")
            return 0 if beta else 1
        if argv[0] == "prove" and len(args) == 2:
            try:
                pi, beta = prove(*args)
            except ValueError as e:
                print("verify_vrf.py:", e, file=sys.stderr)
                return 2
            print(pi.hex(), beta.hex())
            return 0
    if len(argv) in (2, 3) and argv[0] == "game":
        repo, rev = argv[1], argv[2] if len(argv) == 3 else "HEAD"
        yaml = git_show(repo, rev, "game.yaml")
        gid = re.search(r"^id: (\S+)$", yaml, re.M)
        pk = re.search(r"^  vrf_public_key: ([0-9a-f]{66})$", yaml, re.M)
        version = re.search(r"^  version: ([234])$", yaml, re.M)
        if not gid or not pk or not version:
            print("not a game of fairness version 2, 3 or 4 (no vrf_public_key in game.yaml)")
            return 1
        try:
            dice, shuffles = check_game(gid.group(1), bytes.fromhex(pk.group(1)),
                                        git_show(repo, rev, "log.txt"),
                                        git_show(repo, rev, "proofs.txt"),
                                        int(version.group(1)))
        except (ValueError, UnicodeDecodeError) as e:
            print("fails:", e)
            return 1
        print("verified %d dice without any secret; %d shuffles wait for the end"
              % (dice, shuffles))
        return 0
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
