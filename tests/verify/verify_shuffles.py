#!/usr/bin/python3
"""An independent verifier of every shuffle of a revealed postrider game.

Written from docs/fairness.md (sections 6, 9, 12 and 13) with the Python
standard library only, not from the C code. It reads the game's history
with git(1), opens every sealed private state with the revealed seed
(AES-256-GCM, written out below), and checks, commit by commit:

  - each sealed state opens: header (format v4 or v3, padded, or the
    older v2),
    sequence number, tag, synthetic nonce, the padding, and byte-exact
    encoding (section 9);
  - each shuffle the log names (`draws A-B: shuffle of n (purpose)`) is
    recorded, with the list it permuted, in the private state of the
    commit that made it, and each record is in the log (version 2 states);
  - the list is the one section 13 prescribes for the purpose: all cards
    but the set-aside ones in ascending order; the deck as it stood plus
    the set-aside cards; the deck as it stood plus the discard pile, oldest
    first. "The deck as it stood" is what was left of the deck before it
    (its bottom part: cards are drawn from the top);
  - the permuted deck is the Fisher-Yates shuffle of that list by the
    stream (section 6.5), from the draw the log names, with the players'
    words mixed in as the log says (section 6.8);
  - the deck at the end of the commit is the bottom part of the deck after
    its last shuffle (or of the parent's deck), every card taken off the
    top is now in a hand or in a public place, and no card is lost or
    doubled between the deck and the hands.

    verify_shuffles.py GAME_DIR [--rev REV]
    verify_shuffles.py --self-test

Prints "verified: N shuffles in M commits" and exits 0, or "mismatch:
commit C (order S): ..." naming the first failure and exits 1 (2 for bad
usage or an unreadable game).
"""

import base64
import hashlib
import hmac
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify_draws as vd  # noqa: E402  (the stream of section 6)


class Mismatch(Exception):
    pass


# --- AES-256 (FIPS 197), encryption only: GCM needs no decryption ---------

def _xtime(a):
    a <<= 1
    return (a ^ 0x11B) if a & 0x100 else a


def _gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = _xtime(a)
        b >>= 1
    return r


def _make_sbox():
    inv = [0] * 256
    for a in range(1, 256):
        for b in range(1, 256):
            if _gmul(a, b) == 1:
                inv[a] = b
                break
    box = []
    for a in range(256):
        x = inv[a]
        s = x
        for k in range(1, 5):
            s ^= ((x << k) | (x >> (8 - k))) & 0xFF
        box.append(s ^ 0x63)
    return box


SBOX = _make_sbox()


def _expand_key(key):
    assert len(key) == 32
    words = [list(key[4 * i:4 * i + 4]) for i in range(8)]
    rcon = 1
    for i in range(8, 60):
        t = list(words[i - 1])
        if i % 8 == 0:
            t = t[1:] + t[:1]
            t = [SBOX[b] for b in t]
            t[0] ^= rcon
            rcon = _xtime(rcon)
        elif i % 8 == 4:
            t = [SBOX[b] for b in t]
        words.append([a ^ b for a, b in zip(words[i - 8], t)])
    return [sum(words[4 * r:4 * r + 4], []) for r in range(15)]


def _encrypt_block(rk, block):
    s = [b ^ k for b, k in zip(block, rk[0])]
    for rnd in range(1, 15):
        s = [SBOX[b] for b in s]
        # ShiftRows: the state is column-major, s[r + 4c]
        s = [s[(i + 4 * (i % 4)) % 16] for i in range(16)]
        if rnd != 14:
            m = []
            for c in range(4):
                a = s[4 * c:4 * c + 4]
                m += [_xtime(a[0]) ^ _xtime(a[1]) ^ a[1] ^ a[2] ^ a[3],
                      a[0] ^ _xtime(a[1]) ^ _xtime(a[2]) ^ a[2] ^ a[3],
                      a[0] ^ a[1] ^ _xtime(a[2]) ^ _xtime(a[3]) ^ a[3],
                      _xtime(a[0]) ^ a[0] ^ a[1] ^ a[2] ^ _xtime(a[3])]
            s = [b & 0xFF for b in m]
        s = [b ^ k for b, k in zip(s, rk[rnd])]
    return bytes(s)


# --- GCM (NIST SP 800-38D) with a 96-bit nonce ------------------------------

def _ghash_mul(x, y):
    r = 0xE1 << 120
    z = 0
    v = y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ r if v & 1 else v >> 1
    return z


def _ghash(h, aad, ct):
    def blocks(data):
        for i in range(0, len(data), 16):
            yield int.from_bytes(data[i:i + 16].ljust(16, b"\0"), "big")
    y = 0
    for b in list(blocks(aad)) + list(blocks(ct)):
        y = _ghash_mul(y ^ b, h)
    lens = ((8 * len(aad)) << 64) | (8 * len(ct))
    return _ghash_mul(y ^ lens, h)


def _ctr(rk, j0, data):
    out = bytearray()
    counter = int.from_bytes(j0, "big")
    for i in range(0, len(data), 16):
        counter = (counter & ~0xFFFFFFFF) | ((counter + 1) & 0xFFFFFFFF)
        ks = _encrypt_block(rk, counter.to_bytes(16, "big"))
        out += bytes(a ^ b for a, b in zip(data[i:i + 16], ks))
    return bytes(out)


def gcm_encrypt(key, nonce, aad, plaintext):
    rk = _expand_key(key)
    h = int.from_bytes(_encrypt_block(rk, bytes(16)), "big")
    j0 = nonce + b"\0\0\0\1"
    ct = _ctr(rk, j0, plaintext)
    s = _ghash(h, aad, ct)
    tag = (s ^ int.from_bytes(_encrypt_block(rk, j0), "big")).to_bytes(16, "big")
    return ct, tag


def gcm_decrypt(key, nonce, aad, ct, tag):
    rk = _expand_key(key)
    h = int.from_bytes(_encrypt_block(rk, bytes(16)), "big")
    j0 = nonce + b"\0\0\0\1"
    s = _ghash(h, aad, ct)
    want = (s ^ int.from_bytes(_encrypt_block(rk, j0), "big")).to_bytes(16, "big")
    if not hmac.compare_digest(want, tag):
        return None
    return _ctr(rk, j0, ct)


# --- section 9: sealing ----------------------------------------------------

def pad(text, size):
    """Format v4's and v3's plain text: u32be(len) || text || zero bytes, size
    bytes (the host chooses size from public facts, section 9b)."""
    if size < len(text) + 4:
        raise ValueError("a size of %d cannot hold %d bytes" % (size, len(text)))
    return (len(text).to_bytes(4, "big") + text).ljust(size, b"\0")


def unpad(padded):
    n = int.from_bytes(padded[:4], "big")
    if len(padded) < 4 or n > len(padded) - 4 or padded[4 + n:].strip(b"\0"):
        raise Mismatch("the sealed state is not padded as section 9 says")
    return padded[4:4 + n]


def seal(seed, seq, plaintext, fmt=4, size=None):
    """The sealed text of section 9 in format fmt (4 or 3, padded to size
    bytes, by default 4 more than the text; or the older 2), used by the
    tests to forge states. The nonce's message begins with the aad in
    format 4, with u64be(seq) in the older ones."""
    if fmt >= 3:
        plaintext = pad(plaintext, len(plaintext) + 4 if size is None else size)
    k = vd.keys(seed)
    k_nonce = vd.hmac256(seed, b"postrider-key-seal-nonce")
    aad = b"postrider-sealed v%d" % fmt + vd.u64be(seq)
    nonce = vd.hmac256(k_nonce, (aad if fmt >= 4 else vd.u64be(seq)) + plaintext)[:12]
    ct, tag = gcm_encrypt(k["seal"], nonce, aad, plaintext)
    raw = nonce + ct + tag
    lines = [base64.b64encode(raw[i:i + 57]).decode()
             for i in range(0, len(raw), 57)]
    return ("postrider-sealed v%d seq %d\n" % (fmt, seq)
            + "".join(line + "\n" for line in lines)).encode()


def unseal(seed, seq, text):
    """The private state's text from a sealed state of format 4, 3 or 2."""
    head, sep, body = text.partition(b"\n")
    for fmt in (4, 3, 2):
        if head == b"postrider-sealed v%d seq %d" % (fmt, seq):
            break
    else:
        raise Mismatch("the sealed state's header is not "
                       "'postrider-sealed v4 seq %d' (or v3, v2)" % seq)
    try:
        raw = base64.b64decode(body.replace(b"\n", b""), validate=True)
    except ValueError:
        raise Mismatch("the sealed state is not base64")
    if len(raw) < 28:
        raise Mismatch("the sealed state is too short")
    nonce, ct, tag = raw[:12], raw[12:-16], raw[-16:]
    aad = b"postrider-sealed v%d" % fmt + vd.u64be(seq)
    pt = gcm_decrypt(vd.keys(seed)["seal"], nonce, aad, ct, tag)
    if pt is None:
        raise Mismatch("the sealed state does not open (GCM tag)")
    size = len(pt)
    if fmt >= 3:
        pt = unpad(pt)
    if seal(seed, seq, pt, fmt, size) != text:
        raise Mismatch("the sealed state is not what sealing its "
                       "plaintext writes (nonce or encoding)")
    return pt.decode("utf-8")


# --- reading a game ------------------------------------------------------

def git(repo, *args):
    r = subprocess.run(["git", "-C", repo] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        return None
    return r.stdout


LIST_RE = r"\[([0-9, ]*)\]"


def card_list(text):
    return [int(x) for x in text.split(",") if x.strip()]


def parse_private(text):
    """seq, deck, hands, shuffles [(first, list)] of section 13's text."""
    out = {"seq": None, "deck": None, "hands": {}, "shuffles": []}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.fullmatch(r"seq: (\d+)", line)
        if m:
            out["seq"] = int(m.group(1))
        m = re.fullmatch(r"deck: " + LIST_RE, line)
        if m:
            out["deck"] = card_list(m.group(1))
        m = re.fullmatch(r"  (american|british): " + LIST_RE, line)
        if m:
            out["hands"][m.group(1)] = card_list(m.group(2))
        m = re.fullmatch(r"  - draws: (\d+)-(\d+)", line)
        if m:
            m2 = (re.fullmatch(r"    list: " + LIST_RE, lines[i + 1])
                  if i + 1 < len(lines) else None)
            if not m2:
                raise Mismatch("a shuffle record without its list")
            lst = card_list(m2.group(1))
            a, b = int(m.group(1)), int(m.group(2))
            if b != a + len(lst) - 2:
                raise Mismatch("shuffle record draws %d-%d for %d cards"
                               % (a, b, len(lst)))
            out["shuffles"].append((a, lst))
            i += 1
        i += 1
    if out["seq"] is None or out["deck"] is None or len(out["hands"]) != 2:
        raise Mismatch("the private state lacks seq, deck or hands")
    return out




def parse_public(text):
    """The cards section of state.yaml: version, lists by name, and every
    card number shown in a public place."""
    out = {"version": None, "discard": [], "set_aside": [], "public": set()}
    in_cards = False
    for line in text.split("\n"):
        m = re.fullmatch(r"version: (\d+)", line)
        if m:
            out["version"] = int(m.group(1))
        if line == "cards:":
            in_cards = True
            continue
        if in_cards and line and not line.startswith(" "):
            in_cards = False
        if not in_cards:
            continue
        m = re.fullmatch(r"\s*(\w+): " + LIST_RE, line)
        if m:
            cards = card_list(m.group(2))
            if m.group(1) in ("discard", "set_aside"):
                out[m.group(1)] = cards
            out["public"].update(cards)
        m = re.fullmatch(r"\s*war_ends: (\d+)", line)
        if m and int(m.group(1)):
            out["public"].add(int(m.group(1)))
    return out


SHUFFLE_LINE = re.compile(r"\s*draws (\d+)-(\d+): shuffle of (\d+)(?: \((.*)\))?")


def log_shuffles(seed, log_text):
    """{first draw: (n, purpose, stream key at that point)} from the log."""
    st = vd.Stream(seed)
    out = {}
    for line in log_text.split("\n"):
        body = line.strip()
        if body.startswith("words mixed: "):
            m = vd.MIX_RE.fullmatch(body)
            if not m:
                raise Mismatch("malformed words line: " + body)
            st.mix(*(None if h == "-" else bytes.fromhex(h)
                     for h in m.groups()))
            continue
        m = SHUFFLE_LINE.fullmatch(line)
        if m:
            a, n = int(m.group(1)), int(m.group(3))
            out[a] = (n, m.group(4) or "", st.key)
    return out


def shuffle_with(key, items, start):
    st = vd.Stream(bytes(32))
    st.key = key
    return st.shuffle(items, start)


def check_input(purpose, lst, cur, discard, set_aside, all_cards):
    """Section 13: is lst the list this purpose shuffles, given the deck
    as it stood (cur, top first), the parent's discard pile and set-aside
    cards? Returns None or the reason."""
    if purpose == "the strategy deck (4.0)":
        want = sorted(set(all_cards) - set(set_aside))
        return None if lst == want else \
            "the first shuffle permutes %s..., not every card but the " \
            "set-aside ones in ascending order" % lst[:5]
    # the deck as it stood: a bottom part of cur, first in the list
    in_cur = set(cur)
    j = 0
    while j < len(lst) and lst[j] in in_cur:
        j += 1
    if lst[:j] != cur[len(cur) - j:]:
        return "the list does not begin with what was left of the deck"
    rest = lst[j:]
    if purpose == "set-aside cards into the strategy deck":
        return None if rest == sorted(set_aside) and rest else \
            "the cards added are %s, not the set-aside cards %s" % (
                rest, sorted(set_aside))
    if purpose == "reshuffle of the strategy deck":
        if rest[:len(discard)] != discard:
            return "the cards added do not begin with the discard pile " \
                "%s (oldest first)" % discard[:8]
        return None
    return "no shuffle is documented for the purpose '%s'" % purpose


def verify_game(repo, rev="refs/heads/main"):
    """Returns (shuffles verified, commits); raises Mismatch."""
    commits = git(repo, "rev-list", "--reverse", "--first-parent", rev)
    if commits is None:
        raise OSError("'%s' is not a git repository with %s" % (repo, rev))
    commits = commits.decode().split()
    game = git(repo, "show", "%s:game.yaml" % commits[-1]).decode()
    m = re.search(r"revealed_seed: *([0-9a-f]{64})", game)
    if not m:
        raise Mismatch("the game's seed is not revealed (game.yaml "
                       "fairness.revealed_seed): nothing can be opened yet")
    seed = bytes.fromhex(m.group(1))
    m = re.search(r"seed_commitment: *([0-9a-f]{64})", game)
    if not m or m.group(1) != vd.commitment(seed):
        raise Mismatch("the revealed seed does not match the commitment")
    log = git(repo, "show", "%s:log.txt" % commits[-1])
    logged = log_shuffles(seed, log.decode() if log else "")
    cards_yaml = git(repo, "show", "%s:data/cards.yaml" % commits[-1])
    all_cards = sorted({int(x) for x in re.findall(
        rb"number: *(\d+)", cards_yaml or b"")})
    recorded = set()
    prev_priv, prev_pub, prev_text = None, None, None
    prev_log = b""
    n_checked = 0
    for c in commits:
        pub_text = git(repo, "show", "%s:state.yaml" % c)
        sealed = git(repo, "show", "%s:private/state.sealed" % c)
        if pub_text is None or sealed is None:
            prev_priv, prev_pub = None, None
            continue
        pub = parse_public(pub_text.decode())
        seq = int(re.search(rb"(?m)^seq: (\d+)", pub_text).group(1))
        where = "commit %.12s (order %d): " % (c, seq)
        try:
            priv_text = unseal(seed, seq, sealed)
            priv = parse_private(priv_text)
        except Mismatch as e:
            raise Mismatch(where + str(e))
        if prev_priv is not None and seq == prev_priv["seq"]:
            # a commit that plays no order (the reveal, section 14): the
            # private state is the parent's, unchanged
            if priv_text != prev_text:
                raise Mismatch(where + "a commit without an order changes "
                               "the private state")
            prev_pub = pub
            prev_log = git(repo, "show", "%s:log.txt" % c) or b""
            continue
        if priv["seq"] != seq:
            raise Mismatch(where + "the private state says seq %d"
                           % priv["seq"])
        log_now = git(repo, "show", "%s:log.txt" % c) or b""
        new_lines = log_now[len(prev_log):].decode()
        prev_log = log_now
        here = sorted(int(m.group(1)) for m in
                      map(SHUFFLE_LINE.fullmatch, new_lines.split("\n")) if m)
        if pub["version"] and pub["version"] >= 2 and prev_priv is not None:
            if here != [first for first, _ in priv["shuffles"]]:
                raise Mismatch(where + "the log's shuffles from draws %s are "
                               "not the ones its private state records (%s)"
                               % (here or "none", [f for f, _ in priv["shuffles"]]
                                  or "none"))
            cur = list(prev_priv["deck"])
            for first, lst in priv["shuffles"]:
                if first not in logged:
                    raise Mismatch(where + "a shuffle from draw %d is "
                                   "recorded but not in the log" % first)
                n, purpose, key = logged[first]
                if n != len(lst):
                    raise Mismatch(where + "the log's shuffle of %d from draw "
                                   "%d permuted %d cards" % (n, first, len(lst)))
                why = check_input(purpose, lst, cur, prev_pub["discard"],
                                  prev_pub["set_aside"], all_cards)
                if why:
                    raise Mismatch(where + "shuffle from draw %d (%s): %s"
                                   % (first, purpose, why))
                cur = shuffle_with(key, lst, first)
                recorded.add(first)
                n_checked += 1
            deck = priv["deck"]
            if len(deck) > len(cur) or cur[len(cur) - len(deck):] != deck:
                raise Mismatch(where + "the deck is not what is left of the "
                               "shuffled deck: the order of the cards "
                               "differs from the stream's")
            drawn = cur[:len(cur) - len(deck)]
            held = set(priv["hands"]["american"] + priv["hands"]["british"])
            for card in drawn:
                if card not in held and card not in pub["public"]:
                    raise Mismatch(where + "card #%d left the deck but is in "
                                   "no hand and no public place" % card)
        hands = priv["hands"]["american"] + priv["hands"]["british"]
        if len(set(hands + priv["deck"])) != len(hands) + len(priv["deck"]):
            raise Mismatch(where + "a card is twice among the deck and hands")
        prev_priv, prev_pub, prev_text = priv, pub, priv_text
    last_pub = parse_public(git(repo, "show", "%s:state.yaml" % commits[-1])
                            .decode())
    if last_pub["version"] and last_pub["version"] >= 2:
        missing = sorted(set(logged) - recorded)
        if missing:
            raise Mismatch("the log's shuffle from draw %d is recorded in no "
                           "private state" % missing[0])
    return n_checked, len(commits)


# --- self-test: FIPS 197 and the GCM test case of SP 800-38D's spec ----------

def self_test():
    key = bytes(range(32))
    ct = _encrypt_block(_expand_key(key), bytes.fromhex(
        "00112233445566778899aabbccddeeff"))
    assert ct.hex() == "8ea2b7ca516745bfeafc49904b496089", ct.hex()
    # The GCM specification's test case 13 and 14 (AES-256, zero key)
    k = bytes(32)
    ct, tag = gcm_encrypt(k, bytes(12), b"", b"")
    assert tag.hex() == "530f8afbc74536b9a963b4f1c4cb738b", tag.hex()
    ct, tag = gcm_encrypt(k, bytes(12), b"", bytes(16))
    assert ct.hex() == "cea7403d4d606b6e074ec5d3baf39d18", ct.hex()
    assert tag.hex() == "d0d1c8a799996bf0265b98b5d48ab919", tag.hex()
    assert gcm_decrypt(k, bytes(12), b"", ct, tag) == bytes(16)
    assert gcm_decrypt(k, bytes(12), b"x", ct, tag) is None
    # section 11's sealing vectors: v4 and v3 by their SHA-256, v2 whole
    seed = bytes(range(32))
    plain = (b"deck: [3, 1, 2]\nhands:\n  american: [12, 45]\n"
             b"  british: [7, 88, 101]\n")
    v4 = seal(seed, 12, plain, 4, 4096)
    assert len(v4) == 5600 and hashlib.sha256(v4).hexdigest() == (
        "2d9121a271e833563861f9cdc038e518a4c86f335682f05dde867becad26db8f")
    assert unseal(seed, 12, v4) == plain.decode()
    v3 = seal(seed, 12, plain, 3, 4096)
    assert len(v3) == 5600 and hashlib.sha256(v3).hexdigest() == (
        "45f80c9602d62ce4a09957733630431786a0cf3be647779faccd3f483f9493c7")
    assert seal(seed, 12, plain, 2) == (
        b"postrider-sealed v2 seq 12\n"
        b"sX/UpnauBheN7irpoWQJtvhBinhs7p2/el8EK677Dl/u6VLtsZqz98Y4hVCSkNE4Ldd+Wqse3rH1\n"
        b"9NDuQM3ujBy+5kydkRnbMvilHAiKf9dEcyGBsfFa0XlkDhUjjTsS\n")
    assert unseal(seed, 12, v3) == plain.decode()
    print("self-test: AES-256 (FIPS 197 C.3), GCM (test cases 13, 14) and "
          "the sealing vectors (v4, v3, v2) ok")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    rev = "refs/heads/main"
    if len(argv) == 3 and argv[1] == "--rev":
        rev = argv[2]
        argv = argv[:1]
    if len(argv) != 1:
        sys.stderr.write("usage: verify_shuffles.py GAME_DIR [--rev REV]\n"
                         "       verify_shuffles.py --self-test\n")
        return 2
    try:
        n, commits = verify_game(argv[0], rev)
    except Mismatch as e:
        print("mismatch: " + str(e))
        return 1
    except (OSError, AttributeError, UnicodeDecodeError) as e:
        sys.stderr.write("error: cannot read the game: %s\n" % e)
        return 2
    print("verified: %d shuffles in %d commits" % (n, commits))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
