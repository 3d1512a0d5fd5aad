#!/usr/bin/python3
"""An independent verifier of postrider's random draws (docs/fairness.md).

Written from the specification with the Python standard library only, not
from the C code, so that the two can check each other.

    verify_draws.py SEED LOG [--start N] [--commitment HEX] [--allow-forced]
                    [--vrf GAME_ID | --vrf3 GAME_ID | --vrf4 GAME_ID [--place P]]
    verify_draws.py --vectors

The first form re-derives every "draw N: ..." line of LOG (a file, or - for
standard input) from the revealed SEED (64 hex digits) and checks that the
draw indices run on from N (default 0) without gap or repeat. It prints
"verified: N draws" and exits 0, or prints the first mismatch and exits 1
(2 for bad usage). With --vrf (fairness version 2), --vrf3 (version 3)
or --vrf4 (version 4) the dice and uniform draws are re-derived from the
game's VRF key (sections 18, 19 and 19b); in version 4 a draw's place
among the game's public draws is P (default 0: a whole log) plus the
number of public draws above it in LOG. The second form prints the test
vectors of section 11.
"""

import hashlib
import hmac
import re
import sys

ALPHABET32 = "abcdefghijklmnopqrstuvwxyz234567"
TWO64 = 1 << 64


def u8(x):
    return x.to_bytes(1, "big")


def u32be(x):
    return x.to_bytes(4, "big")


def u64be(x):
    return x.to_bytes(8, "big")


def hmac256(key, msg):
    return hmac.new(key, msg, hashlib.sha256).digest()


def first8(h):
    return int.from_bytes(h[:8], "big")


def parse_seed(text):
    text = text.strip()
    if not re.fullmatch(r"[0-9a-fA-F]{64}", text):
        raise ValueError("a seed is 64 hex digits")
    return bytes.fromhex(text)


def commitment(seed):
    return hashlib.sha256(b"postrider-commitment" + seed).hexdigest()


def keys(seed):
    return {name: hmac256(seed, b"postrider-key-" + name.encode())
            for name in ("draw", "seal", "token", "hand")}


class Stream:
    """The draw function of section 6, on K_draw."""

    def __init__(self, seed):
        self.base = keys(seed)["draw"]
        self.key = self.base

    def mix(self, american, british):
        """Section 6.8: the players' words (SHA-256 hashes, or None)."""
        if american is None and british is None:
            self.key = self.base
            return
        zero = bytes(32)
        self.key = hmac256(self.base, b"postrider-mix" + (american or zero)
                           + (british or zero))

    def raw(self, index, attempt):
        msg = b"postrider-draw" + u64be(index) + u32be(attempt)
        return first8(hmac256(self.key, msg))

    def uniform_trace(self, index, n):
        """(value, [raw values of every attempt, the accepted one last])."""
        if n < 1:
            raise ValueError("bound must be at least 1")
        limit = TWO64 - (TWO64 % n)
        raws = []
        attempt = 0
        while True:
            x = self.raw(index, attempt)
            raws.append(x)
            if x < limit:
                return x % n, raws
            attempt += 1

    def uniform(self, index, n):
        return self.uniform_trace(index, n)[0]

    def d6(self, index):
        return self.uniform(index, 6) + 1

    def shuffle(self, items, start):
        a = list(items)
        d = start
        for i in range(len(a) - 1, 0, -1):
            j = self.uniform(d, i + 1)
            d += 1
            a[i], a[j] = a[j], a[i]
        return a


def token(seed, game_id, seq, side):
    g = game_id.encode()
    msg = b"postrider-token" + u32be(len(g)) + g + u64be(seq) + u8(side)
    x = first8(hmac256(keys(seed)["token"], msg))
    chars = [ALPHABET32[(x >> (59 - 5 * k)) & 31] for k in range(12)]
    s = "".join(chars)
    return s[0:4] + "-" + s[4:8] + "-" + s[8:12]


def hand_commitment(seed, seq, side, text):
    msg = b"postrider-hand-salt" + u64be(seq) + u8(side)
    salt = hmac256(keys(seed)["hand"], msg)[:16]
    return salt.hex(), hashlib.sha256(salt + text.encode()).hexdigest()


def vectors():
    seed = bytes(range(32))
    st = Stream(seed)
    k = keys(seed)
    out = []
    out.append("seed " + seed.hex())
    out.append("commitment " + commitment(seed))
    for name in ("draw", "seal", "token", "hand"):
        out.append("K_%s %s" % (name, k[name].hex()))
    out.append("raw(0,0) %d" % st.raw(0, 0))
    out.append("d6 0-9: " + " ".join(str(st.d6(i)) for i in range(10)))
    out.append("uniform(110)@10: %d" % st.uniform(10, 110))
    out.append("shuffle of 0..9 from 11: "
               + " ".join(str(x) for x in st.shuffle(range(10), 11)))
    n = (1 << 63) + 1
    index = 0
    while True:
        value, raws = st.uniform_trace(index, n)
        if len(raws) > 1:
            break
        index += 1
    parts = ["raw %d = %d (rejected)" % (a, x) for a, x in enumerate(raws[:-1])]
    parts.append("raw %d = %d" % (len(raws) - 1, raws[-1]))
    out.append("rejection n=%d index %d: %s, value %d"
               % (n, index, ", ".join(parts), value))
    for side in (1, 2):
        out.append("token test-game seq 1 side %d: %s"
                   % (side, token(seed, "test-game", 1, side)))
    salt, digest = hand_commitment(seed, 3, 2, "12\n45\n67\n")
    out.append("hand seq 3 side 2 salt " + salt)
    out.append("hand seq 3 side 2 hash " + digest)
    return "\n".join(out) + "\n"


# ASCII digits only, no leading zero; a purpose holds no control character
# (so a CR before the LF breaks the line, section 20.1)
N = r"(0|[1-9][0-9]*)"
PURPOSE = r"( \([^\x00-\x1f\x7f]*\))?"
DRAW_RE = re.compile(r"draw " + N + r": (d6|uniform\(" + N + r"\)) -> " + N
                     + r"( forced, stream " + N + r")?" + PURPOSE, re.ASCII)
SHUFFLE_RE = re.compile(r"draws " + N + "-" + N + r": shuffle of " + N
                        + PURPOSE, re.ASCII)
HASH = r"([0-9a-f]{64}|-)"
MIX_RE = re.compile(r"words mixed: american " + HASH + r" british " + HASH)
HEADING_RE = re.compile(r"-- " + N + ", order " + N + r" \((American|British)\) --",
                        re.ASCII)


class Mismatch(Exception):
    pass


def vrf_value(seed, game_id, words, index, n, order=None, place=None):
    """Fairness version 2 (sections 17-18): the value of public draw index,
    from the VRF under the key the seed gives (verify_vrf.py beside this).
    Version 3 (section 19): order is (side, n, place), which names the
    input instead of the index. Version 4 (section 19b): place, the draw's
    place among the game's public draws, names it."""
    import verify_vrf
    sk = verify_vrf.game_secret_key(seed)
    if place is not None:
        alpha, at = verify_vrf.draw_alpha4(game_id, words, place), place
    elif order:
        alpha, at = verify_vrf.draw_alpha3(game_id, words, *order), order[2]
    else:
        alpha, at = verify_vrf.draw_alpha(game_id, words, index), index
    _, beta = verify_vrf.prove(sk, alpha)
    return verify_vrf.value_from_beta(beta, at, n)


def verify(seed, lines, start, allow_forced, vrf_game=None, version=2, place=0):
    """Returns (draws verified, forced dice); raises Mismatch. With
    vrf_game (a game id), dice and uniform draws come from the VRF of
    fairness version 2, 3 (each order heading names the order of the
    draws after it) or 4 (the place among the game's public draws, from
    place on); shuffles stay on the stream."""
    st = Stream(seed)
    expect = start
    forced = 0
    words = bytes(64)
    order, counts = [0, 0, 0], {"American": 0, "British": 0}
    counted = [place]

    def public(index, bound):
        if version == 4:
            if order is None:
                raise Mismatch(where + "draw %d outside an order" % index)
            counted[0] += 1
            return vrf_value(seed, vrf_game, words, index, bound, place=counted[0] - 1)
        if version != 3:
            return vrf_value(seed, vrf_game, words, index, bound)
        if order is None:
            raise Mismatch(where + "draw %d outside an order" % index)
        order[2] += 1
        return vrf_value(seed, vrf_game, words, index, bound,
                         (order[0], order[1], order[2] - 1))

    for lineno, line in enumerate(lines, 1):
        body = line.lstrip(" \t")
        where = "line %d: " % lineno
        m = HEADING_RE.fullmatch(line)
        if m:
            order = [1 if m.group(3) == "American" else 2, counts[m.group(3)], 0]
            counts[m.group(3)] += 1
            continue
        if line.startswith("-- "):
            order = None
            continue
        if body.startswith("words mixed: "):
            m = MIX_RE.fullmatch(body)
            if not m:
                raise Mismatch(where + "malformed words line: " + body)
            st.mix(*(None if h == "-" else bytes.fromhex(h)
                     for h in m.groups()))
            words = b"".join(bytes(32) if h == "-" else bytes.fromhex(h)
                             for h in m.groups())
            continue
        if not (body.startswith("draw ") or body.startswith("draws ")):
            continue
        m = DRAW_RE.fullmatch(body)
        if m:
            index = int(m.group(1))
            if index != expect:
                raise Mismatch(where + "draw %d, expected draw %d (%s)"
                               % (index, expect,
                                  "a gap" if index > expect else "a repeat"))
            kind, value = m.group(2), int(m.group(4))
            if kind == "d6":
                got = (public(index, 6) + 1 if vrf_game else st.d6(index))
                if value < 1 or value > 6:
                    raise Mismatch(where + "a d6 cannot show %d" % value)
                if m.group(5):
                    if not allow_forced:
                        raise Mismatch(where + "draw %d is a forced die "
                                       "(fixed-dice test mode): not a fair "
                                       "game" % index)
                    forced += 1
                    value = int(m.group(6))
                what = "d6"
            else:
                if m.group(5):
                    raise Mismatch(where + "only dice can be forced")
                bound = int(m.group(3))
                if bound < 1:
                    raise Mismatch(where + "uniform(0) is not a draw")
                got = (public(index, bound) if vrf_game else st.uniform(index, bound))
                what = "uniform(%d)" % bound
            if got != value:
                raise Mismatch(where + "draw %d: %s logged %d, the seed "
                               "gives %d" % (index, what, value, got))
            expect += 1
            continue
        m = SHUFFLE_RE.fullmatch(body)
        if m:
            a, b, n = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if n < 2:
                raise Mismatch(where + "a shuffle of %d uses no draw" % n)
            if b != a + n - 2:
                raise Mismatch(where + "a shuffle of %d uses %d draws, "
                               "not %d-%d" % (n, n - 1, a, b))
            if a != expect:
                raise Mismatch(where + "draws %d-%d, expected draw %d (%s)"
                               % (a, b, expect,
                                  "a gap" if a > expect else "a repeat"))
            expect = b + 1
            continue
        raise Mismatch(where + "malformed draw line: " + body)
    return expect - start, forced


USAGE = ("usage: verify_draws.py SEED LOG [--start N] [--commitment HEX] "
         "[--allow-forced] [--vrf GAME_ID | --vrf3 GAME_ID | --vrf4 GAME_ID [--place P]]\n"
         "       verify_draws.py --vectors\n")


def main(argv):
    if argv == ["--vectors"]:
        sys.stdout.write(vectors())
        return 0
    args, start, allow_forced, commit, vrf_game, version = [], 0, False, None, None, 2
    place = 0
    i = 0
    try:
        while i < len(argv):
            a = argv[i]
            if a == "--allow-forced":
                allow_forced = True
            elif a == "--start":
                i += 1
                start = int(argv[i])
            elif a in ("--vrf", "--vrf3", "--vrf4"):
                i += 1
                vrf_game = argv[i]
                version = {"--vrf": 2, "--vrf3": 3, "--vrf4": 4}[a]
            elif a == "--place":
                i += 1
                place = int(argv[i])
            elif a == "--commitment":
                i += 1
                commit = argv[i].strip().lower()
            elif a.startswith("--"):
                raise ValueError(a)
            else:
                args.append(a)
            i += 1
        if len(args) != 2 or start < 0 or place < 0 or (place and version != 4):
            raise ValueError("arguments")
        seed = parse_seed(args[0])
    except (ValueError, IndexError):
        sys.stderr.write(USAGE)
        return 2
    if commit is not None and commit != commitment(seed):
        print("mismatch: the seed does not match the commitment %s" % commit)
        return 1
    try:
        # LF alone ends a line: a CR stays in the line and breaks it
        if args[1] == "-":
            lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
        else:
            with open(args[1], encoding="utf-8", newline="") as f:
                lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write("error: cannot read '%s': %s\n" % (args[1], e))
        return 2
    try:
        n, forced = verify(seed, lines, start, allow_forced, vrf_game, version, place)
    except Mismatch as e:
        print("mismatch: " + str(e))
        return 1
    if forced:
        print("verified: %d draws (%d forced dice: test mode, not fair)"
              % (n, forced))
    else:
        print("verified: %d draws" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
