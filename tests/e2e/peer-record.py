#!/usr/bin/python3
"""Builds the record of a small finished peer game (docs/peer.md 6) with
the cryptography of tests/verify/verify_peer.py and the secrets of its
vectors (section 16), for tests/e2e/t-peer-verify.sh until the peer
commands make games:

    peer-record.py DIR [CARDS]

DIR becomes a git repository of four commits (invite, join, an order
that is a die request, its answer), holding game.yaml with both sides'
keys and key proofs and the joint key, data/cards.yaml with CARDS cards
(default 12), two generations of the deck (6.2: the first over every
card face up, the second over the first's undealt slots and the cards
played), the shares of a deal (each side's for the other's slots) and of
the cards played (the owner's), one die request with both proofs, and
both masking keys (peer/keys.txt). It prints, one a line, "slot SLOT
card C" for every slot, and "dice OID" for the request. This is a record
for the verifier, not a game of the rules: which slot goes where is
fixed here, not by the engine. The answer logs two draws of the request
(a die and a uniform draw, docs/fairness.md 6.6) with their values.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify"))
import verify_peer as vp  # noqa: E402

GAME = "ww-test"


def git(dirname, *args, when=1700000000):
    env = dict(os.environ, GIT_AUTHOR_NAME="Alice", GIT_AUTHOR_EMAIL="alice@example.org",
               GIT_COMMITTER_NAME="Alice", GIT_COMMITTER_EMAIL="alice@example.org",
               GIT_AUTHOR_DATE="%d +0000" % when, GIT_COMMITTER_DATE="%d +0000" % when)
    r = subprocess.run(["git", "-C", dirname] + list(args), env=env, capture_output=True, text=True)
    if r.returncode:
        sys.exit("git %s: %s" % (" ".join(args), r.stderr))
    return r.stdout.strip()


def commit(dirname, kind, seq):
    git(dirname, "add", "-A")
    git(dirname, "commit", "-q", "-m", "%s %d" % (kind, seq), when=1700000000 + 60 * seq)
    return git(dirname, "rev-parse", "HEAD")


def write(dirname, name, text, append=False):
    path = os.path.join(dirname, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a" if append else "w") as f:
        f.write(text)


def shuffle_file(k, gen, turn, side, joint, cards_in, refs):
    ctx = ("%s shuffle %d %d %s" % (GAME, gen, turn, side)).encode()
    perm, rho = vp.shuffle_secrets(k, ctx, joint, cards_in)
    out, proof = vp.shuffle_prove(k, ctx, joint, cards_in, perm, rho)
    text = ["postrider-peer shuffle", "generation %d" % gen, "turn %d" % turn,
            "side " + side, "cards %d" % len(cards_in)]
    text += ["in " + r for r in refs]
    text += ["out " + x.hex() for x in out]
    h = proof.hex()
    text += ["proof " + h[i:i + 128] for i in range(0, len(h), 128)]
    return "\n".join(text) + "\n", out


def share_line(k, side, gen, i, ct):
    slot = "s%d.%d" % (gen, i)
    sh = vp.share(k, ("%s share %s %s" % (GAME, slot, side)).encode(), ct)
    return "%s %s %s\n" % (slot, side, sh.hex())


def main(argv):
    dirname = argv[0]
    n_cards = int(argv[1]) if len(argv) > 1 else 12
    keys = {"american": vp.keys(bytes(range(32))), "british": vp.keys(bytes(range(32, 64)))}
    am, br = keys["american"], keys["british"]
    joint = vp.joint_key(am["mask_key"], br["mask_key"])
    os.makedirs(dirname, exist_ok=True)
    git(dirname, "init", "-q")

    block = ["peer:", "  version: 1"]
    for side in ("american", "british"):
        k = keys[side]
        block += ["  %s:" % side, "    vrf_key: " + k["vrf_key"].hex(),
                  "    mask_key: " + k["mask_key"].hex(),
                  "    mask_proof: " + vp.key_prove(k, ("%s key %s" % (GAME, side)).encode()).hex(),
                  "    sign_key: " + k["sign_key"].hex()]
    head = ("# A game of Washington's War adjudicated by postrider.\npostrider: 1\nid: %s\n"
            "game: washingtons-war\nmode: peer\nplayers:\n  american:\n    name: Alice\n"
            "    address: alice@example.org\n  british:\n    name: Bob\n"
            "    address: bob@example.org\noptions:\n  tournament_rule: false\n" % GAME)
    write(dirname, "game.yaml", head + "\n".join(block[:7]) + "\n")
    write(dirname, "log.txt", "A game without a host, for the verifier.\n")
    write(dirname, "data/cards.yaml", "cards:\n" + "".join(
        "  - {number: %d, ops: %d}\n" % (c, 1 + c % 3) for c in range(1, n_cards + 1)))
    commit(dirname, "invite", 1)
    write(dirname, "game.yaml", head + "\n".join(block) + "\n  joint_key: %s\n" % joint.hex())
    commit(dirname, "join", 2)

    # generation 1: the American over every card face up, the British
    # after him; a deal of 3 cards a side (American first, from the top)
    deck = [vp.open_card(joint, c) for c in range(1, n_cards + 1)]
    text, out1 = shuffle_file(am, 1, 1, "american", joint, deck,
                              ["#%d" % c for c in range(1, n_cards + 1)])
    write(dirname, "peer/shuffles/1-1.txt", text)
    text, gen1 = shuffle_file(br, 1, 2, "british", joint, out1, [])
    write(dirname, "peer/shuffles/1-2.txt", text)
    hands = {"american": [0, 2, 4], "british": [1, 3, 5]}
    for owner, other in (("american", "british"), ("british", "american")):
        for i in hands[owner]:
            write(dirname, "peer/shares.txt", share_line(keys[other], other, 1, i, gen1[i]), True)
    request = commit(dirname, "order", 3)

    # the request's dice, and each side plays its first card (his share)
    alpha = {s: vp.dice_alpha(GAME.encode(), vp.SIDE_NO[s], bytes.fromhex(request))
             for s in ("american", "british")}
    pis = {s: vp.vrf_prove(keys[s]["vrf"], alpha[s]) for s in alpha}
    write(dirname, "peer/dice.txt", "%s american %s british %s\n"
          % (request, pis["american"].hex(), pis["british"].hex()), True)
    # the request's draws, at the game's draw counter (fairness 6.6, peer 5.2)
    key = vp.dice_key(*[vp.vrf_verify(keys[s]["vrf_key"], pis[s], alpha[s]) for s in ("american", "british")])
    d0, u1 = vp.uniform(key, 0, 6) + 1, vp.uniform(key, 1, n_cards)
    write(dirname, "log.txt", "draw 0: d6 -> %d (a die)\ndraw 1: uniform(%d) -> %d (a card at random)\n"
          % (d0, n_cards, u1), True)
    played = []
    xsum = (am["mask"] + br["mask"]) % vp.Q
    cards = {vp.pt(vp.card_point(c)): c for c in range(1, n_cards + 1)}

    def card_of_ct(ct):
        c1, c2 = vp.split(ct)
        return cards[vp.pt(vp.jsub(c2, vp.mul(xsum, c1)))]

    for side in ("american", "british"):
        i = hands[side][0]
        write(dirname, "peer/shares.txt", share_line(keys[side], side, 1, i, gen1[i]), True)
        played.append(card_of_ct(gen1[i]))
        write(dirname, "log.txt", "The %s plays #%d.\n" % (side, played[-1]), True)
    commit(dirname, "answer", 4)

    # generation 2: the British over the undealt slots and the cards played
    refs = ["s1.%d" % i for i in range(6, n_cards)] + ["#%d" % c for c in sorted(played)]
    ins = gen1[6:] + [vp.open_card(joint, c) for c in sorted(played)]
    text, out2 = shuffle_file(br, 2, 1, "british", joint, ins, refs)
    write(dirname, "peer/shuffles/2-1.txt", text)
    text, gen2 = shuffle_file(am, 2, 2, "american", joint, out2, [])
    write(dirname, "peer/shuffles/2-2.txt", text)
    write(dirname, "peer/shares.txt", share_line(am, "american", 2, 0, gen2[0]), True)
    write(dirname, "peer/keys.txt", "american %s\nbritish %s\n"
          % (vp.sc(am["mask"]).hex(), vp.sc(br["mask"]).hex()))
    commit(dirname, "end", 5)

    for gen, outs in ((1, gen1), (2, gen2)):
        for i, ct in enumerate(outs):
            print("slot s%d.%d card %d" % (gen, i, card_of_ct(ct)))
    print("dice", request)
    print("draw 0 d6 %d" % d0)
    print("played", *played)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
