#!/usr/bin/python3
"""An independent implementation of the cryptography of a game without a
host (docs/peer.md, sections 2 to 5), with the Python standard library only.

It was written from docs/peer.md (and docs/fairness.md, which it cites), not
from the C code, so that the two check each other: it proves and verifies
everything the C does (key proofs, signatures, shuffles, unmasking shares,
the two-sided dice) and reproduces the vectors of docs/peer.md section 16.
The P-256 arithmetic is its own: Jacobian coordinates and windowed sums.

    verify_peer.py --vectors
        prints the vector block of docs/peer.md section 16, each value
        computed here and each proof verified here (and refused once
        tampered with); exits 1 on the first check that fails.
    verify_peer.py shuffle CTX Y IN OUT PROOF
        checks one shuffle: CTX text, Y the joint key (hex), IN and OUT
        files of masked cards (132 hex digits a line), PROOF a file of
        hex; prints "valid" (exit 0) or "invalid" (exit 1).
    verify_peer.py share CTX KEY CT SHARE
        checks one unmasking share (hex arguments); "valid" or "invalid".
    verify_peer.py game DIR [--running]
        the game walk of docs/peer.md 9.12: checks a peer game from one
        player's copy DIR (its work tree) with what the copy holds (the
        envelopes' signatures travel in the mails, not in the copy):
        game.yaml's keys, key proofs and joint key (3.2, 6.1); every
        shuffle file (6.3) and its proof (4.4), and the chain of
        generations (turn 1's inputs are slots of earlier generations and
        cards face up, turn 2's are turn 1's outputs); every share of
        peer/shares.txt against its side's key and its slot (4.5); every
        line of peer/dice.txt (both VRF proofs for alpha of its request,
        5.1, and the dice key, 5.2; with a .git, the request is a commit
        of the history, and every draw the log shows, docs/fairness.md
        6.6, is the value the last request before it gives; a slot opened
        by both shares opens to the card the log of the commit that gave
        the second share names, or of the next, 9.6); and with
        peer/keys.txt (9.12) both masking keys,
        every slot opened to a card, each generation a permutation of the
        cards of its input (a game ended by a claim, 11: the claimant's
        key alone, the slots closed). Prints a summary and "valid" (exit 0), or
        "invalid: " and the first failure (exit 1). A finished game has
        peer/keys.txt; --running checks a game still being played, whose
        slots stay closed.

Exit status 2 for bad usage.
"""

import hashlib
import hmac
import os
import re
import subprocess
import sys

# ---- P-256 (SEC 2, FIPS 186; docs/fairness.md 17.1) ----
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
A = P - 3
B_COEF = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
Q = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
BX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
BY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5

# A point is None (infinity) or Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3.
INF = None
BASE = (BX, BY, 1)


def jdouble(pt):
    if pt is INF:
        return INF
    x, y, z = pt
    if y == 0:
        return INF
    delta = z * z % P
    gamma = y * y % P
    beta = x * gamma % P
    alpha = 3 * (x - delta) * (x + delta) % P
    x3 = (alpha * alpha - 8 * beta) % P
    z3 = ((y + z) * (y + z) - gamma - delta) % P
    y3 = (alpha * (4 * beta - x3) - 8 * gamma * gamma) % P
    return (x3, y3, z3)


def jadd(p1, p2):
    if p1 is INF:
        return p2
    if p2 is INF:
        return p1
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    z1z1, z2z2 = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2z2 % P, x2 * z1z1 % P
    s1, s2 = y1 * z2 * z2z2 % P, y2 * z1 * z1z1 % P
    h = (u2 - u1) % P
    r = 2 * (s2 - s1) % P
    if h == 0:
        return jdouble(p1) if r == 0 else INF
    i = 4 * h * h % P
    j = h * i % P
    v = u1 * i % P
    x3 = (r * r - j - 2 * v) % P
    y3 = (r * (v - x3) - 2 * s1 * j) % P
    z3 = ((z1 + z2) * (z1 + z2) - z1z1 - z2z2) * h % P
    return (x3, y3, z3)


def jneg(pt):
    return INF if pt is INF else (pt[0], (-pt[1]) % P, pt[2])


def jsub(p1, p2):
    return jadd(p1, jneg(p2))


def affine(pt):
    x, y, z = pt
    zi = pow(z, -1, P)
    zi2 = zi * zi % P
    return (x * zi2 % P, y * zi2 * zi % P)


def msm(pairs):
    """sum of k*P over (k, P) pairs: one run of doublings, 4-bit windows
    (Straus)."""
    tables = []
    for k, pt in pairs:
        k %= Q
        if k == 0 or pt is INF:
            continue
        tab = [INF, pt]
        for _ in range(14):
            tab.append(jadd(tab[-1], pt))
        tables.append((k, tab))
    acc = INF
    for shift in range(252, -1, -4):
        for _ in range(4):
            acc = jdouble(acc)
        for k, tab in tables:
            d = (k >> shift) & 15
            if d:
                acc = jadd(acc, tab[d])
    return acc


def mul(k, pt):
    return msm([(k, pt)])


def is_inf(pt):
    return pt is INF or pt[2] % P == 0


# ---- encodings (docs/peer.md 2) ----
def pt(point):
    """pt(P): 33 bytes compressed; the point at infinity has none."""
    if is_inf(point):
        raise ValueError("point at infinity")
    x, y = affine(point)
    return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")


def unpt(b):
    """The point of 33 bytes, or None (fairness 17.1)."""
    if len(b) != 33 or b[0] not in (2, 3):
        return None
    x = int.from_bytes(b[1:], "big")
    if x >= P:
        return None
    rhs = (x * x * x + A * x + B_COEF) % P
    y = pow(rhs, (P + 1) // 4, P)
    if y * y % P != rhs:
        return None
    if (y & 1) != (b[0] & 1):
        y = P - y
    return (x, y, 1)


def sc(n):
    return n.to_bytes(32, "big")


def unsc(b):
    """A scalar of 32 bytes, or None when it is not below q."""
    n = int.from_bytes(b, "big")
    return n if len(b) == 32 and n < Q else None


def u8(n):
    return bytes([n])


def u16(n):
    return n.to_bytes(2, "big")


def lctx(ctx):
    return u16(len(ctx)) + ctx


def sha256(*parts):
    return hashlib.sha256(b"".join(parts)).digest()


def hmac256(key, *parts):
    return hmac.new(key, b"".join(parts), "sha256").digest()


# ---- scalars and points from hashes (2.1) ----
def h2s(m):
    return int.from_bytes(sha256(m, b"\x00") + sha256(m, b"\x01"), "big") % Q


def w(key, m):
    v = int.from_bytes(hmac256(key, m, b"\x00") + hmac256(key, m, b"\x01"), "big") % Q
    if v == 0:
        raise ValueError("W gave 0")
    return v


def tai(m):
    for ctr in range(256):
        point = unpt(b"\x02" + sha256(m, u8(ctr)))
        if point is not None:
            return point
    raise ValueError("no point")


# ---- the keyed stream of docs/fairness.md 6.2, 6.3 ----
def uniform(key, index, n):
    rem = (2**64) % n
    limit = 2**64 - rem
    attempt = 0
    while True:
        x = int.from_bytes(hmac256(key, b"postrider-draw", index.to_bytes(8, "big"),
                                   attempt.to_bytes(4, "big"))[:8], "big")
        if x < limit:
            return x % n
        attempt += 1


# ---- ECVRF-P256-SHA256-TAI, docs/fairness.md 17 ----
def vrf_h(pk, alpha):
    for ctr in range(256):
        point = unpt(b"\x02" + sha256(b"\x01\x01", pk, alpha, u8(ctr), b"\x00"))
        if point is not None:
            return point
    raise ValueError("no point")


def vrf_nonce(x, h_string):
    h1 = int.from_bytes(sha256(h_string), "big") % Q
    xb, hb = sc(x), sc(h1)
    v, k = b"\x01" * 32, b"\x00" * 32
    for rnd in (b"\x00", b"\x01"):
        k = hmac256(k, v, rnd, xb, hb)
        v = hmac256(k, v)
    while True:
        v = hmac256(k, v)
        cand = int.from_bytes(v, "big")
        if 1 <= cand < Q:
            return cand
        k = hmac256(k, v, b"\x00")
        v = hmac256(k, v)


def vrf_challenge(*points):
    return sha256(b"\x01\x02", *[pt(p) for p in points], b"\x00")[:16]


def vrf_prove(x, alpha):
    y = mul(x, BASE)
    h = vrf_h(pt(y), alpha)
    gamma = mul(x, h)
    k = vrf_nonce(x, pt(h))
    c = vrf_challenge(y, h, gamma, mul(k, BASE), mul(k, h))
    s = (k + int.from_bytes(c, "big") * x) % Q
    return pt(gamma) + c + sc(s)


def vrf_verify(pk, pi, alpha):
    """beta, or None."""
    y = unpt(pk)
    if y is None or len(pi) != 81:
        return None
    gamma = unpt(pi[:33])
    c = int.from_bytes(pi[33:49], "big")
    s = unsc(pi[49:])
    if gamma is None or s is None:
        return None
    h = vrf_h(pk, alpha)
    u = msm([(s, BASE), (-c, y)])
    v = msm([(s, h), (-c, gamma)])
    if is_inf(u) or is_inf(v) or vrf_challenge(y, h, gamma, u, v) != pi[33:49]:
        return None
    return sha256(b"\x01\x03", pi[:33], b"\x00")


# ---- keys (3) ----
def key_scalar(b):
    return int.from_bytes(b, "big") % (Q - 1) + 1


def keys(secret):
    k = {name: key_scalar(hmac256(secret, b"postrider-peer-key-" + name.encode()))
         for name in ("vrf", "mask", "sign")}
    k["rand"] = hmac256(secret, b"postrider-peer-key-random")
    for name in ("vrf", "mask", "sign"):
        k[name + "_key"] = pt(mul(k[name], BASE))
    return k


def schnorr_prove(x, rand, nonce_msg, front, back):
    k = w(rand, nonce_msg)
    c = h2s(front + pt(mul(k, BASE)) + back)
    return sc(c) + sc((k + c * x) % Q)


def schnorr_verify(key, front, back, proof):
    y = unpt(key)
    if y is None or len(proof) != 64:
        return False
    c, s = unsc(proof[:32]), unsc(proof[32:])
    if c is None or s is None:
        return False
    t = msm([(s, BASE), (-c, y)])
    return not is_inf(t) and h2s(front + pt(t) + back) == c


def key_prove(k, ctx):
    front = b"postrider-peer-key" + lctx(ctx) + k["mask_key"]
    return schnorr_prove(k["mask"], k["rand"], b"postrider-peer-key-nonce" + front,
                         front, b"")


def key_verify(key, ctx, proof):
    return schnorr_verify(key, b"postrider-peer-key" + lctx(ctx) + key, b"", proof)


def sign(k, msg):
    front, back = b"postrider-peer-sign" + k["sign_key"], sha256(msg)
    return schnorr_prove(k["sign"], k["rand"],
                         b"postrider-peer-sign-nonce" + front + back, front, back)


def sign_verify(key, msg, sig):
    return schnorr_verify(key, b"postrider-peer-sign" + key, sha256(msg), sig)


def joint_key(am, br):
    ya, yb = unpt(am), unpt(br)
    if ya is None or yb is None or am == br:
        return None
    y = jadd(ya, yb)
    return None if is_inf(y) else pt(y)


# ---- cards (4) ----
def card_point(c):
    return tai(b"postrider-peer-card" + u16(c))


def card_of(point, n_cards):
    want = pt(point)
    for c in range(1, n_cards + 1):
        if pt(card_point(c)) == want:
            return c
    return None


def open_card(y, c):
    return pt(BASE) + pt(jadd(card_point(c), unpt(y)))


def split(ct):
    """The two points of a masked card, or None."""
    if len(ct) != 66:
        return None
    a, b = unpt(ct[:33]), unpt(ct[33:])
    return None if a is None or b is None else (a, b)


def shuffle_d0(ctx, y, cards):
    return sha256(b"postrider-peer-shuffle", lctx(ctx), y, u16(len(cards)), *cards)


def shuffle_secrets(k, ctx, y, cards):
    """(perm, rho) of docs/peer.md 4.3."""
    n = len(cards)
    ks = hmac256(k["rand"], b"postrider-peer-shuffle-secret", shuffle_d0(ctx, y, cards))
    kpi = hmac256(ks, b"perm")
    perm = list(range(n))
    d = 0
    for i in range(n - 1, 0, -1):
        j = uniform(kpi, d, i + 1)
        d += 1
        perm[i], perm[j] = perm[j], perm[i]
    rho = [w(ks, b"rho" + u16(i)) for i in range(n)]
    return perm, rho


def generators(n):
    return [tai(b"postrider-peer-generator" + u16(i)) for i in range(n)], \
        tai(b"postrider-peer-chain")


def challenges(d2, n):
    return [h2s(b"postrider-peer-shuffle-u" + d2 + u16(j)) for j in range(n)]


def final_challenge(d2, ch, t, th):
    return h2s(b"postrider-peer-shuffle-c" + d2 + b"".join(pt(p) for p in ch) +
               b"".join(pt(p) for p in t) + b"".join(pt(p) for p in th))


def shuffle_prove(k, ctx, y, cards, perm, rho):
    """(outputs, proof) of docs/peer.md 4.4."""
    n = len(cards)
    yp = unpt(y)
    ins = [split(c) for c in cards]
    outs = []
    for i in range(n):
        a, b = ins[perm[i]]
        outs.append((jadd(a, mul(rho[i], BASE)), jadd(b, mul(rho[i], yp))))
    out = [pt(a) + pt(b) for a, b in outs]
    d0 = shuffle_d0(ctx, y, cards)
    d1 = sha256(d0, *out)
    kp = hmac256(k["rand"], b"postrider-peer-shuffle-proof", d1)
    r = [w(kp, b"r" + u16(j)) for j in range(n)]
    rh = [w(kp, b"rhat" + u16(i)) for i in range(n)]
    om = [w(kp, b"omega" + u16(i)) for i in range(1, 5)]
    wh = [w(kp, b"what" + u16(i)) for i in range(n)]
    wp = [w(kp, b"wprime" + u16(i)) for i in range(n)]
    g, hc = generators(n)
    c = [mul(r[j], BASE) for j in range(n)]
    for i in range(n):
        c[perm[i]] = jadd(c[perm[i]], g[i])
    d2 = sha256(d1, *[pt(p) for p in c])
    u = challenges(d2, n)
    up = [u[perm[i]] for i in range(n)]
    ch, prev = [], hc
    for i in range(n):
        prev = msm([(rh[i], BASE), (up[i], prev)])
        ch.append(prev)
    t = [mul(om[0], BASE), mul(om[1], BASE),
         msm([(om[2], BASE)] + [(wp[i], g[i]) for i in range(n)]),
         msm([(-om[3], BASE)] + [(wp[i], outs[i][0]) for i in range(n)]),
         msm([(-om[3], yp)] + [(wp[i], outs[i][1]) for i in range(n)])]
    th = [msm([(wh[i], BASE), (wp[i], ch[i - 1] if i else hc)]) for i in range(n)]
    chal = final_challenge(d2, ch, t, th)
    v, rsum = 1, 0
    for i in range(n - 1, -1, -1):
        rsum = (rsum + rh[i] * v) % Q
        v = v * up[i] % Q
    s = [(om[0] + chal * sum(r)) % Q, (om[1] + chal * rsum) % Q,
         (om[2] + chal * sum(r[j] * u[j] for j in range(n))) % Q,
         (om[3] + chal * sum(rho[i] * up[i] for i in range(n))) % Q]
    sh = [(wh[i] + chal * rh[i]) % Q for i in range(n)]
    sp = [(wp[i] + chal * up[i]) % Q for i in range(n)]
    proof = b"".join(pt(p) for p in c) + b"".join(pt(p) for p in ch) + sc(chal) + \
        b"".join(sc(x) for x in s) + b"".join(sc(x) for x in sh) + \
        b"".join(sc(x) for x in sp)
    return out, proof


def shuffle_verify(ctx, y, cards, out, proof):
    n = len(cards)
    if not 2 <= n <= 255 or len(out) != n or len(proof) != 130 * n + 160:
        return False
    yp = unpt(y)
    ins, outs = [split(x) for x in cards], [split(x) for x in out]
    if yp is None or None in ins or None in outs:
        return False
    pts = [unpt(proof[33 * i:33 * i + 33]) for i in range(2 * n)]
    scs = [unsc(proof[66 * n + 32 * i:66 * n + 32 * i + 32]) for i in range(5 + 2 * n)]
    if None in pts or None in scs:
        return False
    c, ch = pts[:n], pts[n:]
    chal, s1, s2, s3, s4 = scs[:5]
    sh, sp = scs[5:5 + n], scs[5 + n:]
    d2 = sha256(sha256(shuffle_d0(ctx, y, cards), *out), *[pt(p) for p in c])
    u = challenges(d2, n)
    g, hc = generators(n)
    prod = 1
    for x in u:
        prod = prod * x % Q
    cbar = INF
    for j in range(n):
        cbar = jsub(jadd(cbar, c[j]), g[j])
    t = [msm([(s1, BASE), (-chal, cbar)]),
         msm([(s2, BASE), (-chal, ch[-1]), (chal * prod, hc)]),
         msm([(s3, BASE)] + [(sp[i], g[i]) for i in range(n)] +
             [(-chal * u[j], c[j]) for j in range(n)]),
         msm([(-s4, BASE)] + [(sp[i], outs[i][0]) for i in range(n)] +
             [(-chal * u[j], ins[j][0]) for j in range(n)]),
         msm([(-s4, yp)] + [(sp[i], outs[i][1]) for i in range(n)] +
             [(-chal * u[j], ins[j][1]) for j in range(n)])]
    th = [msm([(sh[i], BASE), (sp[i], ch[i - 1] if i else hc), (-chal, ch[i])])
          for i in range(n)]
    if any(is_inf(p) for p in t + th):
        return False
    return final_challenge(d2, ch, t, th) == chal


def share(k, ctx, ct):
    """The unmasking share of docs/peer.md 4.5."""
    c1 = split(ct)[0]
    d = pt(mul(k["mask"], c1))
    nonce = w(k["rand"], b"postrider-peer-share-nonce" + lctx(ctx) + ct)
    front = b"postrider-peer-share" + lctx(ctx) + k["mask_key"] + ct + d
    c = h2s(front + pt(mul(nonce, BASE)) + pt(mul(nonce, c1)))
    return d + sc(c) + sc((nonce + c * k["mask"]) % Q)


def share_verify(key, ctx, ct, sh):
    y, parts = unpt(key), split(ct)
    if y is None or parts is None or len(sh) != 97:
        return False
    d, c, s = unpt(sh[:33]), unsc(sh[33:65]), unsc(sh[65:])
    if d is None or c is None or s is None:
        return False
    a1 = msm([(s, BASE), (-c, y)])
    a2 = msm([(s, parts[0]), (-c, d)])
    if is_inf(a1) or is_inf(a2):
        return False
    front = b"postrider-peer-share" + lctx(ctx) + key + ct + sh[:33]
    return h2s(front + pt(a1) + pt(a2)) == c


def unmask(ct, sh_a, sh_b, n_cards):
    c1, c2 = split(ct)
    m = jsub(jsub(c2, unpt(sh_a[:33])), unpt(sh_b[:33]))
    return None if is_inf(m) else card_of(m, n_cards)


def unmask_own(k, ct, other, n_cards):
    c1, c2 = split(ct)
    m = jsub(jsub(c2, mul(k["mask"], c1)), unpt(other[:33]))
    return None if is_inf(m) else card_of(m, n_cards)


# ---- dice (5) ----
def dice_alpha(game, side, oid):
    return b"postrider-peer-dice" + u8(len(game)) + game + u8(side) + u8(len(oid)) + oid


def dice_key(beta_am, beta_br):
    return sha256(b"postrider-peer-dice-key", beta_am, beta_br)


# ---- the vectors of docs/peer.md 16 ----
GAME = b"ww-test"


def flip(b, at):
    return b[:at] + bytes([b[at] ^ 1]) + b[at + 1:]


def vectors(out):
    """Prints the block; returns the number of checks that failed."""
    bad = []

    def check(what, ok):
        if not ok:
            bad.append(what)

    am, br = keys(bytes(range(32))), keys(bytes(range(32, 64)))
    for side, k in (("american", am), ("british", br)):
        for name in ("vrf", "mask", "sign"):
            out("%s %s_key %s" % (side, name, k[name + "_key"].hex()))
    for side, k, other in (("american", am, br), ("british", br, am)):
        ctx = GAME + b" key " + side.encode()
        proof = key_prove(k, ctx)
        out("%s key_proof %s" % (side, proof.hex()))
        check(side + " key proof", key_verify(k["mask_key"], ctx, proof))
        check(side + " key proof under the other key",
              not key_verify(other["mask_key"], ctx, proof))
        check(side + " key proof flipped", not key_verify(k["mask_key"], ctx, flip(proof, 40)))
    y = joint_key(am["mask_key"], br["mask_key"])
    out("joint_key %s" % y.hex())
    check("two equal keys", joint_key(am["mask_key"], am["mask_key"]) is None)
    for c in (1, 2, 110):
        out("card %d %s" % (c, pt(card_point(c)).hex()))
    out("open 7 %s" % open_card(y, 7).hex())

    deck = [open_card(y, c) for c in range(1, 6)]
    ctx1 = GAME + b" shuffle 1 1 american"
    perm1, rho1 = shuffle_secrets(am, ctx1, y, deck)
    out1, proof1 = shuffle_prove(am, ctx1, y, deck, perm1, rho1)
    out("shuffle 1 1 perm %s" % " ".join(str(x) for x in perm1))
    out("shuffle 1 1 rho_0 %s" % sc(rho1[0]).hex())
    for i, x in enumerate(out1):
        out("shuffle 1 1 out %d %s" % (i, x.hex()))
    out("shuffle 1 1 proof sha256 %s" % sha256(proof1).hex())
    check("shuffle 1 1", shuffle_verify(ctx1, y, deck, out1, proof1))
    check("shuffle 1 1 in another context",
          not shuffle_verify(GAME + b" shuffle 1 1 british", y, deck, out1, proof1))
    swapped = [out1[1], out1[0]] + out1[2:]
    check("shuffle 1 1 with two outputs swapped", not shuffle_verify(ctx1, y, deck, swapped, proof1))
    for at in (0, 33 * 5, 66 * 5, 66 * 5 + 32 * 5, len(proof1) - 1):
        check("shuffle 1 1 proof flipped at %d" % at,
              not shuffle_verify(ctx1, y, deck, out1, flip(proof1, at)))
    dup = [0, 0, 2, 3, 4]
    o_dup, p_dup = shuffle_prove(am, ctx1, y, deck, dup, rho1)
    check("a shuffle that is not a permutation", not shuffle_verify(ctx1, y, deck, o_dup, p_dup))

    ctx2 = GAME + b" shuffle 1 2 british"
    perm2, rho2 = shuffle_secrets(br, ctx2, y, out1)
    out2, proof2 = shuffle_prove(br, ctx2, y, out1, perm2, rho2)
    out("shuffle 1 2 perm %s" % " ".join(str(x) for x in perm2))
    out("shuffle 1 2 out sha256 %s" % sha256(*out2).hex())
    out("shuffle 1 2 proof sha256 %s" % sha256(proof2).hex())
    check("shuffle 1 2", shuffle_verify(ctx2, y, out1, out2, proof2))

    ct = out2[0]
    sh_am = share(am, GAME + b" share s1.0 american", ct)
    sh_br = share(br, GAME + b" share s1.0 british", ct)
    out("share s1.0 american %s" % sh_am.hex())
    out("share s1.0 british %s" % sh_br.hex())
    check("share american", share_verify(am["mask_key"], GAME + b" share s1.0 american", ct, sh_am))
    check("share british", share_verify(br["mask_key"], GAME + b" share s1.0 british", ct, sh_br))
    check("share under the other key",
          not share_verify(br["mask_key"], GAME + b" share s1.0 american", ct, sh_am))
    check("share for another card",
          not share_verify(am["mask_key"], GAME + b" share s1.0 american", out2[1], sh_am))
    check("share with D changed",
          not share_verify(am["mask_key"], GAME + b" share s1.0 american", ct, flip(sh_am, 32)))
    card = unmask(ct, sh_am, sh_br, 110)
    out("s1.0 is card %d" % card)
    check("the card is the one the permutations put there", card == perm1[perm2[0]] + 1)
    check("the owner opens it with the other share", unmask_own(br, ct, sh_am, 110) == card)
    check("one share twice opens nothing", unmask(ct, sh_am, sh_am, 110) is None)

    big = [open_card(y, c) for c in range(1, 111)]
    ctx3 = GAME + b" shuffle 2 1 american"
    perm3, rho3 = shuffle_secrets(am, ctx3, y, big)
    out3, proof3 = shuffle_prove(am, ctx3, y, big, perm3, rho3)
    out("shuffle 2 1 of 110: out sha256 %s" % sha256(*out3).hex())
    out("shuffle 2 1 of 110: proof %d bytes, sha256 %s" % (len(proof3), sha256(proof3).hex()))
    check("shuffle 2 1 of 110", shuffle_verify(ctx3, y, big, out3, proof3))

    oid = bytes(range(20))
    alpha_am, alpha_br = dice_alpha(GAME, 1, oid), dice_alpha(GAME, 2, oid)
    out("dice alpha american %s" % alpha_am.hex())
    pi_am, pi_br = vrf_prove(am["vrf"], alpha_am), vrf_prove(br["vrf"], alpha_br)
    out("dice pi american %s" % pi_am.hex())
    out("dice pi british %s" % pi_br.hex())
    beta_am = vrf_verify(am["vrf_key"], pi_am, alpha_am)
    beta_br = vrf_verify(br["vrf_key"], pi_br, alpha_br)
    check("dice proofs verify", beta_am is not None and beta_br is not None)
    check("a share for the other side's input",
          vrf_verify(am["vrf_key"], pi_am, alpha_br) is None)
    check("a share reused for another request",
          vrf_verify(am["vrf_key"], pi_am, dice_alpha(GAME, 1, flip(oid, 19))) is None)
    key = dice_key(beta_am, beta_br)
    out("dice key %s" % key.hex())
    out("dice d6 0-9: %s" % " ".join(str(uniform(key, i, 6) + 1) for i in range(10)))
    out("dice uniform(110)@10: %d" % uniform(key, 10, 110))

    msg = b"postrider-peer 1\ngame ww-test\n"
    sig = sign(am, msg)
    out("sign american %s" % sig.hex())
    check("signature", sign_verify(am["sign_key"], msg, sig))
    check("signature of another message", not sign_verify(am["sign_key"], msg + b"x", sig))
    check("signature under the other key", not sign_verify(br["sign_key"], msg, sig))
    for what in bad:
        print("check failed:", what, file=sys.stderr)
    return len(bad)


# ---- the game walk (docs/peer.md 6, 9.12) ----
SIDES = ("american", "british")
SIDE_NO = {"american": 1, "british": 2}


class Invalid(Exception):
    """The first failure of the walk."""


def read_text(path, what):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise Invalid("%s: cannot read: %s" % (what, e.strerror))
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise Invalid("%s: not ASCII" % what)
    if "\r" in text:
        raise Invalid("%s: a CR in it (LF line ends only)" % what)
    if text and not text.endswith("\n"):
        raise Invalid("%s: the last line has no LF" % what)
    return text.split("\n")[:-1]


def yaml_tree(lines):
    """The mappings of a block-style YAML file as nested dicts (keys and
    plain scalars: the part of game.yaml the walk reads)."""
    root, stack = {}, [(-1, None)]
    stack[0] = (-1, root)
    for line in lines:
        body = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not body.strip():
            continue
        indent = len(body) - len(body.lstrip(" "))
        key, sep, value = body.strip().partition(":")
        if not sep:
            continue
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if not isinstance(parent, dict):
            continue
        value = value.strip()
        if value:
            parent[key] = value.strip('"')
        else:
            parent[key] = {}
            stack.append((indent, parent[key]))
    return root


def hex_of(text, digits, what):
    if len(text) != digits or any(ch not in "0123456789abcdef" for ch in text):
        raise Invalid("%s: not %d lowercase hex digits" % (what, digits))
    return bytes.fromhex(text)


def read_keys(dirname, say):
    tree = yaml_tree(read_text(dirname + "/game.yaml", "game.yaml"))
    game = tree.get("id")
    if not isinstance(game, str) or not 1 <= len(game) <= 255:
        raise Invalid("game.yaml: no game id")
    if tree.get("mode") != "peer":
        raise Invalid("game.yaml: mode is not peer")
    peer = tree.get("peer")
    if not isinstance(peer, dict) or peer.get("version") != "1":
        raise Invalid("game.yaml: no peer block of version 1")
    keys = {}
    for side in SIDES:
        block = peer.get(side)
        if not isinstance(block, dict):
            raise Invalid("game.yaml: no peer keys for the %s" % side)
        k = {}
        for name in ("vrf_key", "mask_key", "sign_key"):
            k[name] = hex_of(block.get(name, ""), 66, "game.yaml: %s %s" % (side, name))
            if unpt(k[name]) is None:
                raise Invalid("game.yaml: the %s %s is no point" % (side, name))
        proof = hex_of(block.get("mask_proof", ""), 128, "game.yaml: %s mask_proof" % side)
        if not key_verify(k["mask_key"], ("%s key %s" % (game, side)).encode(), proof):
            raise Invalid("game.yaml: the %s key proof does not verify" % side)
        keys[side] = k
    joint = hex_of(peer.get("joint_key", ""), 66, "game.yaml: joint_key")
    want = joint_key(keys["american"]["mask_key"], keys["british"]["mask_key"])
    if want is None:
        raise Invalid("game.yaml: the two masking keys give no joint key")
    if joint != want:
        raise Invalid("game.yaml: joint_key is not the sum of the two masking keys")
    say("game %s: peer version 1; both key proofs valid, the joint key right" % game)
    return game, keys, joint


def read_cards(dirname):
    numbers = set()
    for line in read_text(dirname + "/data/cards.yaml", "data/cards.yaml"):
        at = line.find("number:")
        if at >= 0:
            digits = line[at + 7:].strip().split(",")[0].split("}")[0].strip()
            if digits.isdigit():
                numbers.add(int(digits))
    if not numbers or max(numbers) > 65535 or 0 in numbers:
        raise Invalid("data/cards.yaml: no card numbers")
    return {pt(card_point(c)): c for c in sorted(numbers)}


def parse_shuffle(name, lines, gen, turn):
    what = "peer/shuffles/" + name
    head = ["postrider-peer shuffle", "generation %d" % gen, "turn %d" % turn]
    if lines[:3] != head:
        raise Invalid("%s: does not begin with the lines %s" % (what, " / ".join(head)))
    if len(lines) < 5 or not lines[3].startswith("side ") or lines[3][5:] not in SIDES:
        raise Invalid("%s: no side line" % what)
    side = lines[3][5:]
    n_text = lines[4][6:] if lines[4].startswith("cards ") else ""
    if not n_text.isdigit() or n_text != str(int(n_text)) or not 2 <= int(n_text) <= 255:
        raise Invalid("%s: no cards line (2 to 255)" % what)
    n = int(n_text)
    at, refs = 5, []
    if turn == 1:
        for line in lines[at:at + n]:
            if not line.startswith("in "):
                raise Invalid("%s: %d in lines expected" % (what, n))
            refs.append(line[3:])
        at += n
    out = []
    for i, line in enumerate(lines[at:at + n]):
        if not line.startswith("out "):
            raise Invalid("%s: %d out lines expected" % (what, n))
        out.append(hex_of(line[4:], 132, "%s: out line %d" % (what, i)))
    if len(out) != n:
        raise Invalid("%s: %d out lines expected" % (what, n))
    at += n
    proof_lines = lines[at:]
    proof = b""
    for k, line in enumerate(proof_lines):
        if not line.startswith("proof "):
            raise Invalid("%s: an unexpected line after the outputs: %r" % (what, line[:40]))
        text = line[6:]
        last = k == len(proof_lines) - 1
        if (not last and len(text) != 128) or (last and not 0 < len(text) <= 128) or len(text) % 2:
            raise Invalid("%s: proof lines of 128 hex digits, the last shorter" % what)
        proof += hex_of(text, len(text), "%s: proof line %d" % (what, k))
    if len(proof) != 130 * n + 160:
        raise Invalid("%s: the proof has %d bytes, not %d" % (what, len(proof), 130 * n + 160))
    return {"side": side, "n": n, "refs": refs, "out": out, "proof": proof}


def parse_slot(ref):
    """(G, i) of a slot sG.i, or None."""
    if not ref.startswith("s") or "." not in ref:
        return None
    g, _, i = ref[1:].partition(".")
    if not (g.isdigit() and i.isdigit()) or g != str(int(g)) or i != str(int(i)) or int(g) < 1:
        return None
    return int(g), int(i)


def walk_shuffles(dirname, game, joint, say):
    folder = dirname + "/peer/shuffles"
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    files = {}
    for name in names:
        g, dash, rest = name.partition("-")
        if not (dash and g.isdigit() and g == str(int(g)) and rest in ("1.txt", "2.txt")):
            raise Invalid("peer/shuffles/%s: not a shuffle file's name (G-K.txt)" % name)
        files[(int(g), int(rest[0]))] = name
    gens = sorted({g for g, _ in files})
    if gens != list(range(1, len(gens) + 1)):
        raise Invalid("peer/shuffles: the generations are not 1, 2, ... in a row")
    slots, used, sizes = {}, set(), []
    for g in gens:
        if (g, 1) not in files:
            raise Invalid("peer/shuffles: generation %d has no turn 1" % g)
        t1 = parse_shuffle(files[(g, 1)], read_text(folder + "/" + files[(g, 1)],
                                                    "peer/shuffles/" + files[(g, 1)]), g, 1)
        cards, faceup = [], set()
        for ref in t1["refs"]:
            slot = parse_slot(ref)
            if slot is not None:
                if slot not in slots:
                    raise Invalid("peer/shuffles/%s: in %s is no slot of an earlier generation"
                                  % (files[(g, 1)], ref))
                if slot in used:
                    raise Invalid("peer/shuffles/%s: in %s: the slot was shuffled before"
                                  % (files[(g, 1)], ref))
                used.add(slot)
                cards.append(slots[slot])
            elif ref.startswith("#") and ref[1:].isdigit() and ref[1:] == str(int(ref[1:])) \
                    and 1 <= int(ref[1:]) <= 65535:
                if ref in faceup:
                    raise Invalid("peer/shuffles/%s: in %s twice" % (files[(g, 1)], ref))
                faceup.add(ref)
                cards.append(open_card(joint, int(ref[1:])))
            else:
                raise Invalid("peer/shuffles/%s: in %r is neither a slot nor a card" % (files[(g, 1)], ref))
        ctx1 = ("%s shuffle %d 1 %s" % (game, g, t1["side"])).encode()
        if not shuffle_verify(ctx1, joint, cards, t1["out"], t1["proof"]):
            raise Invalid("peer/shuffles/%s: the shuffle proof does not verify" % files[(g, 1)])
        t1["cards"] = cards
        if (g, 2) not in files:
            if g != gens[-1]:
                raise Invalid("peer/shuffles: generation %d has no turn 2" % g)
            say("generation %d: turn 1 by the %s (%d cards) valid; no turn 2 yet"
                % (g, t1["side"], t1["n"]))
            sizes.append((g, t1, None))
            break
        t2 = parse_shuffle(files[(g, 2)], read_text(folder + "/" + files[(g, 2)],
                                                    "peer/shuffles/" + files[(g, 2)]), g, 2)
        if t2["side"] == t1["side"]:
            raise Invalid("peer/shuffles/%s: turn 2 by the side of turn 1" % files[(g, 2)])
        if t2["n"] != t1["n"]:
            raise Invalid("peer/shuffles/%s: %d cards, turn 1 had %d"
                          % (files[(g, 2)], t2["n"], t1["n"]))
        ctx2 = ("%s shuffle %d 2 %s" % (game, g, t2["side"])).encode()
        if not shuffle_verify(ctx2, joint, t1["out"], t2["out"], t2["proof"]):
            raise Invalid("peer/shuffles/%s: the shuffle proof does not verify" % files[(g, 2)])
        for i, ct in enumerate(t2["out"]):
            slots[(g, i)] = ct
        say("generation %d: %d cards, shuffled by the %s then the %s: both proofs valid"
            % (g, t1["n"], t1["side"], t2["side"]))
        sizes.append((g, t1, t2))
    if not gens:
        say("generations: none yet (the deck was never shuffled)")
    return slots, sizes


def walk_shares(dirname, game, keys, slots, cards, say):
    path = dirname + "/peer/shares.txt"
    lines = read_text(path, "peer/shares.txt") if os.path.exists(path) else []
    shares = {}
    for k, line in enumerate(lines, 1):
        parts = line.split(" ")
        if len(parts) != 3 or parts[1] not in SIDES:
            raise Invalid("peer/shares.txt line %d: not SLOT SIDE HEX" % k)
        slot = parse_slot(parts[0])
        if slot is None or slot not in slots:
            raise Invalid("peer/shares.txt line %d: %s is no slot of the record" % (k, parts[0]))
        if (slot, parts[1]) in shares:
            raise Invalid("peer/shares.txt line %d: a second %s share of %s" % (k, parts[1], parts[0]))
        sh = hex_of(parts[2], 194, "peer/shares.txt line %d" % k)
        ctx = ("%s share %s %s" % (game, parts[0], parts[1])).encode()
        if not share_verify(keys[parts[1]]["mask_key"], ctx, slots[slot], sh):
            raise Invalid("peer/shares.txt line %d: the %s share of %s does not verify"
                          % (k, parts[1], parts[0]))
        shares[(slot, parts[1])] = sh
    opened = {}
    for (slot, side), sh in sorted(shares.items()):
        if side == "american" and (slot, "british") in shares:
            c1, c2 = split(slots[slot])
            m = jsub(jsub(c2, unpt(sh[:33])), unpt(shares[(slot, "british")][:33]))
            if is_inf(m) or pt(m) not in cards:
                raise Invalid("peer/shares.txt: the two shares of s%d.%d open no card" % slot)
            opened["s%d.%d" % slot] = cards[pt(m)]
    say("shares: %d, each valid for its side's key and slot; %d slots opened by both"
        % (len(shares), len(opened)))
    return shares, opened


def is_commit_of_history(dirname, oid):
    r = subprocess.run(["git", "-C", dirname, "merge-base", "--is-ancestor", oid, "HEAD"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0


def walk_dice(dirname, game, keys, say):
    path = dirname + "/peer/dice.txt"
    lines = read_text(path, "peer/dice.txt") if os.path.exists(path) else []
    git = os.path.exists(dirname + "/.git")
    seen, dice_keys = set(), {}
    for k, line in enumerate(lines, 1):
        parts = line.split(" ")
        if len(parts) != 5 or parts[1] != "american" or parts[3] != "british":
            raise Invalid("peer/dice.txt line %d: not OID american HEX british HEX" % k)
        oid = hex_of(parts[0], 40, "peer/dice.txt line %d: the request" % k)
        if oid in seen:
            raise Invalid("peer/dice.txt line %d: request %s twice" % (k, parts[0]))
        seen.add(oid)
        if git and not is_commit_of_history(dirname, parts[0]):
            raise Invalid("peer/dice.txt line %d: request %s is no commit of the history"
                          % (k, parts[0]))
        betas = []
        for side, text in (("american", parts[2]), ("british", parts[4])):
            pi = hex_of(text, 162, "peer/dice.txt line %d: the %s proof" % (k, side))
            beta = vrf_verify(keys[side]["vrf_key"], pi, dice_alpha(game.encode(), SIDE_NO[side], oid))
            if beta is None:
                raise Invalid("peer/dice.txt line %d: the %s die proof for request %s does not verify"
                              % (k, side, parts[0]))
            betas.append(beta)
        dice_keys[line] = dice_key(*betas)
    say("dice: %d requests, both VRF proofs of each valid%s"
        % (len(lines), " and each a commit of the history" if git else ""))
    return dice_keys


DRAW = re.compile(r"^[ \t]*draw ([0-9]+): (d6|uniform\(([0-9]+)\)) -> ([0-9]+)( forced.*)? \(")


def walk_draws(dirname, dice_keys, opened, say):
    """Every draw line of the log (docs/fairness.md 6.6) against the key of
    the request before it (5.2): commit by commit, a draw logged in a
    commit takes its value from the last request whose line peer/dice.txt
    holds by then (one request gives all the draws of its action). And
    the cards the log says were played: the commit that gives a slot's
    second share (the card played, taken or shown, 9.6 to 9.8) names in
    its log lines the card the two shares open ("#c")."""
    if not os.path.exists(dirname + "/.git"):
        say("draws: no history in this copy: the logged draws are not checked")
        return
    commits = subprocess.run(["git", "-C", dirname, "rev-list", "--reverse", "HEAD"],
                             capture_output=True, text=True).stdout.split()
    key, key_oid, n_draws, used = None, None, 0, set()
    have, named, waiting = set(), 0, []
    for c in commits:
        diff = subprocess.run(["git", "-C", dirname, "show", "--format=", "--unified=0",
                               "--no-renames", c, "--", "peer/dice.txt", "log.txt"],
                              capture_output=True, text=True).stdout
        path = None
        for line in diff.split("\n"):
            if line.startswith("+++ "):
                path = line[6:] if line.startswith("+++ b/") else None
            elif line.startswith("+") and not line.startswith("+++") and path == "peer/dice.txt":
                if line[1:] not in dice_keys:
                    raise Invalid("commit %s adds a line to peer/dice.txt that the walk does not know"
                                  % c[:12])
                key, key_oid = dice_keys[line[1:]], line[1:41]
        added_log, completed = [], []
        for line in subprocess.run(["git", "-C", dirname, "show", "--format=", "--unified=0",
                                    c, "--", "peer/shares.txt"],
                                   capture_output=True, text=True).stdout.split("\n"):
            if line.startswith("+") and not line.startswith("+++"):
                slot = line[1:].split(" ")[0]
                have.add((slot, line[1:].split(" ")[1]))
                if (slot, "american") in have and (slot, "british") in have and slot in opened:
                    completed.append(slot)
        for line in diff.split("\n"):
            if line.startswith("+++ "):
                path = line[6:] if line.startswith("+++ b/") else None
                continue
            if not line.startswith("+") or path != "log.txt":
                continue
            added_log.append(line[1:])
            m = DRAW.match(line[1:])
            if not m:
                continue
            index, bound, value = int(m.group(1)), int(m.group(3) or 6), int(m.group(4))
            if m.group(5):
                raise Invalid("commit %s logs a forced die (draw %d): none in a game without a host"
                              % (c[:12], index))
            if key is None:
                raise Invalid("commit %s logs draw %d before any request's dice" % (c[:12], index))
            want = uniform(key, index, bound) + (1 if m.group(2) == "d6" else 0)
            if value != want:
                raise Invalid("commit %s logs draw %d as %d; request %s's dice give %d"
                              % (c[:12], index, value, key_oid, want))
            used.add(key_oid)
            n_draws += 1
        # named in that commit's log, or in the next one's (a play that
        # calls for dice gives its share with the request, and the answer
        # applies it, 9.5)
        text = "\n".join(added_log)
        for slot, at in waiting + [(slot, c) for slot in completed]:
            if re.search(r"#%d\b" % opened[slot], text):
                named += 1
            elif at != c:
                raise Invalid("commit %s gives the second share of %s, which opens #%d, and neither "
                              "its log nor the next commit's names #%d"
                              % (at[:12], slot, opened[slot], opened[slot]))
        waiting = [(slot, c) for slot in completed
                   if not re.search(r"#%d\b" % opened[slot], text)]
    if waiting:
        slot, at = waiting[0]
        raise Invalid("commit %s gives the second share of %s, which opens #%d, and its log names "
                      "no #%d" % (at[:12], slot, opened[slot], opened[slot]))
    say("draws: %d in the log, each the value of its request's dice; %d requests drew"
        % (n_draws, len(used)))
    say("cards opened by both shares: %d, each named by the log of the commit that opened it "
        "or of the next" % named)


def forfeit_winner(dirname):
    """The winner of a game ended by a claim (state.yaml: end forfeit), or None."""
    if not os.path.exists(dirname + "/state.yaml"):
        return None
    state = "\n".join(read_text(dirname + "/state.yaml", "state.yaml"))
    if not re.search(r"^  end: forfeit$", state, re.M):
        return None
    m = re.search(r"^  winner: (american|british)$", state, re.M)
    return m.group(1) if m else None


def walk_keys(dirname, keys, slots, sizes, shares, cards, joint, say):
    lines = read_text(dirname + "/peer/keys.txt", "peer/keys.txt")
    x = {}
    for k, line in enumerate(lines, 1):
        side, _, text = line.partition(" ")
        if side not in SIDES or side in x:
            raise Invalid("peer/keys.txt line %d: not one SIDE HEX line per side" % k)
        v = unsc(hex_of(text, 64, "peer/keys.txt line %d" % k))
        if not v:
            raise Invalid("peer/keys.txt line %d: not a scalar below q and above 0" % k)
        if pt(mul(v, BASE)) != keys[side]["mask_key"]:
            raise Invalid("peer/keys.txt: the %s key is not the one of his mask_key" % side)
        x[side] = v
    if len(x) == 1 and forfeit_winner(dirname) in x:
        say("keys: a game ended by a claim (docs/peer.md 11): the claimant's masking key "
            "published and right; the other's slots stay closed")
        return {}
    if len(x) != 2:
        raise Invalid("peer/keys.txt: %s key missing" % ("american" if "american" not in x else "british"))
    xsum = (x["american"] + x["british"]) % Q
    of_slot = {}
    for slot, ct in sorted(slots.items()):
        c1, c2 = split(ct)
        m = jsub(c2, mul(xsum, c1))
        if is_inf(m) or pt(m) not in cards:
            raise Invalid("peer/keys.txt: slot s%d.%d opens to no card" % slot)
        of_slot[slot] = cards[pt(m)]
    for (slot, side), sh in shares.items():
        if sh[:33] != pt(mul(x[side], split(slots[slot])[0])):
            raise Invalid("peer/keys.txt: the %s share of s%d.%d is not his key's" % ((side,) + slot))
    for g, t1, t2 in sizes:
        if t2 is None:
            continue
        given = []
        for ref in t1["refs"]:
            slot = parse_slot(ref)
            given.append(of_slot[slot] if slot else int(ref[1:]))
        got = [of_slot[(g, i)] for i in range(t2["n"])]
        if sorted(got) != sorted(given) or len(set(got)) != len(got):
            raise Invalid("peer/keys.txt: generation %d is not a permutation of its input" % g)
    say("keys: both masking keys published and right; %d slots opened, each generation "
        "a permutation of the cards of its input" % len(of_slot))
    return of_slot


def game_walk(dirname, running, say):
    try:
        game, keys, joint = read_keys(dirname, say)
        cards = read_cards(dirname)
        slots, sizes = walk_shuffles(dirname, game, joint, say)
        shares, opened = walk_shares(dirname, game, keys, slots, cards, say)
        dice_keys = walk_dice(dirname, game, keys, say)
        walk_draws(dirname, dice_keys, opened, say)
        if os.path.exists(dirname + "/peer/keys.txt"):
            walk_keys(dirname, keys, slots, sizes, shares, cards, joint, say)
        elif not running:
            raise Invalid("peer/keys.txt: none: the game is not finished (--running checks it so far)")
        else:
            say("keys: not published yet (a running game): slots stay closed")
    except Invalid as e:
        say("invalid: %s" % e)
        return 1
    say("valid")
    return 0


def read_hex_lines(path):
    with open(path) as f:
        return [bytes.fromhex(line.strip()) for line in f if line.strip()]


def main(argv):
    try:
        if argv == ["--vectors"]:
            return 1 if vectors(print) else 0
        if len(argv) == 6 and argv[0] == "shuffle":
            cards, out = read_hex_lines(argv[3]), read_hex_lines(argv[4])
            proof = b"".join(read_hex_lines(argv[5]))
            ok = shuffle_verify(argv[1].encode(), bytes.fromhex(argv[2]), cards, out, proof)
            print("valid" if ok else "invalid")
            return 0 if ok else 1
        if argv[:1] == ["game"] and (len(argv) == 2 or argv[2:] == ["--running"]):
            return game_walk(argv[1].rstrip("/") or "/", len(argv) == 3, print)
        if len(argv) == 5 and argv[0] == "share":
            ok = share_verify(bytes.fromhex(argv[2]), argv[1].encode(),
                              bytes.fromhex(argv[3]), bytes.fromhex(argv[4]))
            print("valid" if ok else "invalid")
            return 0 if ok else 1
    except (ValueError, OSError) as e:
        print("verify_peer.py:", e, file=sys.stderr)
        return 2
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
