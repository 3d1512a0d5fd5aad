#!/usr/bin/python3
"""Mutation test of the cards' machine form (issue 15), for t-data-typo.sh.

    mutate-cards.py DATA_DIR WORK_DIR

For every effect of every card in DATA_DIR/cards.yaml, and for each of its
fields (verb, where, count, amount, colonies), writes a copy of the data
with that field replaced by another value (a valid one of the same kind
and an invalid one, chosen with a fixed seed), runs `postrider data
--check` on it, and self-plays two games with each copy it accepts.
A copy must be refused with a message (exit 1) or played (exit 0); any
other exit (an abort is 134, a sanitizer's 1 comes with its report) is a
crash. Prints one line per crash and a total; exits 1 if anything crashed.
"""

import os
import random
import re
import shutil
import subprocess
import sys

VERBS = ["place_pc", "remove_pc", "flip_pc", "place_cu", "remove_cu",
         "require", "french_alliance", "reshuffle",
         "opponent_discards_random", "draw", "activate_generals",
         "activate_general", "battle_drm", "war_ends", "lose_regulars",
         "remove_general", "remove_french_navy", "move_french_navy",
         "no_american_pc_placement"]
WHERES = ["may", "port", "non_port", "each_colony", "one_per_colony",
          "one_colony", "one_space", "one_per_space", "no_general",
          "american_pc", "british_reinforcements", "this_turn",
          "european_war", "Boston MA", "may, non_port", "Arnold",
          "each-colony", "Bostn", "may,,port", ""]
NUMBERS = ["0", "1", "3", "-2", "20", "99", "x"]
COLONIES = ["[NY]", "[MA, VA]", "[XX]", "[]"]

EFFECT = re.compile(r"(\s*- \{)(verb: [^}]*)\}")


def fields(body):
    return [f.strip() for f in body.split(", ")]


def mutations(text, rnd):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = EFFECT.fullmatch(line)
        if not m or "colonies: [" in line and line.count("[") > 1:
            continue
        parts = [p for p in re.split(r", (?=\w+: )", m.group(2))]
        keys = [p.split(":", 1)[0] for p in parts]
        for k in ("verb", "where", "count", "amount", "colonies"):
            pool = {"verb": VERBS + ["plce_pc"], "where": WHERES,
                    "count": NUMBERS, "amount": NUMBERS,
                    "colonies": COLONIES}[k]
            for value in rnd.sample(pool, 2):
                if k == "where":
                    value = '"%s"' % value
                new = [p for p in parts if not p.startswith(k + ":")]
                new.append("%s: %s" % (k, value))
                out = list(lines)
                out[i] = m.group(1) + ", ".join(new) + "}"
                yield i + 1, k, value, "\n".join(out)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    src, work = argv
    postrider = shutil.which("postrider")
    text = open(os.path.join(src, "cards.yaml")).read()
    rnd = random.Random(15)
    refused = played = crashed = 0
    d = os.path.join(work, "washingtons-war")
    os.makedirs(work, exist_ok=True)
    for line, key, value, mutated in mutations(text, rnd):
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(src, d)
        with open(os.path.join(d, "cards.yaml"), "w") as f:
            f.write(mutated)
        what = "cards.yaml:%d %s: %s" % (line, key, value)
        r = subprocess.run([postrider, "data", "--data", d, "--check"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode == 1 and r.stderr:
            refused += 1
            continue
        if r.returncode != 0:
            crashed += 1
            print("crash: data --check exit %d on %s" % (r.returncode, what))
            continue
        r = subprocess.run([postrider, "selfplay", "--data", d, "--games",
                            "2", "--seed", str(line)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            crashed += 1
            print("crash: selfplay exit %d on %s: %s" % (
                r.returncode, what, r.stderr.decode()[-300:]))
            continue
        played += 1
    print("mutations: %d refused by data --check, %d played, %d crashed"
          % (refused, played, crashed))
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
