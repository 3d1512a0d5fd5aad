"""expand.py REPORT: the orders that the grouped list "Your orders now"
of a report (src/report.c, report_options_grouped) stands for, one a
line, sorted: every form with each combination of the values listed under
it, as a player would write them. The test compares them with
`postrider options --plain`."""
import itertools, re, sys

WORDS = {"CARD", "GENERAL", "SPACE", "ZONE", "N", "F", "SIDE"}


def values(word, text):
    text = " ".join(text.split())
    out, optional = [], False
    if text.endswith(", or leave it out"):
        text, optional = text[: -len(", or leave it out")], True
    if word == "CARD":
        for part in text.split(";"):
            m = re.match(r"\s*((?:\d+(?:, | or ))*\d+)", part)
            out += re.findall(r"\d+", m.group(1))
    elif word in ("N", "F"):
        m = re.match(r"([0-9 ,-]+)", text)
        for r in m.group(1).split(","):
            r = r.strip()
            if "-" in r:
                a, b = r.split("-")
                out += [str(i) for i in range(int(a), int(b) + 1)]
            elif r:
                out.append(r)
        if word == "F":
            out = ["" if v == "0" else v for v in out]
    else:
        out = [v for v in re.split(r", | or ", text) if v]
    if optional:
        out.append("")
    return out


def parse(lines):
    forms, cur, word = [], None, None
    for line in lines:
        if not line.strip() or not line.startswith(" "):
            break  # the list ends with a blank line or a note
        if re.match(r"  \S", line):
            form = re.split(r"\s{2,}", line.strip())[0]
            cur = {"form": form, "choices": {}}
            forms.append(cur)
            word = None
            continue
        m = re.match(r"\s{8}([A-Z]+): (.*)", line)
        if m and m.group(1) in WORDS:
            word = m.group(1)
            rest = m.group(2)
            cur["choices"][word] = "" if rest.startswith("one of these, by colony:") else rest
            continue
        if word is None:
            continue  # what the form does, wrapped
        m = re.match(r"\s{10}[A-Z]{2}: (.*)", line)
        if m:
            sep = ", " if cur["choices"][word] else ""
            cur["choices"][word] += sep + m.group(1)
        else:
            cur["choices"][word] += " " + line.strip()
    return forms


def expand(forms):
    orders = set()
    for f in forms:
        toks = f["form"].split()
        slots = []
        for t in toks:
            w = t.strip("[]")
            if w in WORDS and w in f["choices"]:
                vals = values(w, f["choices"][w])
                if t.startswith("["):
                    vals = vals + [""]
                slots.append(vals)
            else:
                slots.append([t])
        for combo in itertools.product(*slots):
            orders.add(" ".join(c for c in combo if c))
    return orders


def main():
    text = open(sys.argv[1]).read().splitlines()
    start = next((i for i, l in enumerate(text) if l.startswith("Your orders now")), None)
    if start is None:
        return
    i = start + 1
    while text[i].startswith(("one value", "([WORD]")):
        i += 1
    for o in sorted(expand(parse(text[i:]))):
        print(o)


if __name__ == "__main__":
    main()
