#!/usr/bin/python3
"""png-matches-svg.py SVG PNG SCALE: the PNG decoded here, independently of
postrider (every chunk's CRC, the zlib stream, the five row filters, the
palette), and
compared with the SVG it was painted beside: the pixels inside each
space (a circle or square of the map) must have the space's fill colour, the panel and the background theirs. Prints each problem and
exits 1, or prints 'ok N' with the number of spaces checked."""
import re, struct, sys, zlib

def decode(path):
    """The PNG's pixels as rows of RGB bytes: 8-bit RGB or RGBA, or a
    palette of 1, 2, 4 or 8 bits a pixel."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG signature")
    pos, idat, ihdr, plte, seen_end = 8, b"", None, None, False
    while pos < len(data):
        n, = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(kind + body) != crc:
            sys.exit("bad CRC in chunk %r" % kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            plte = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            seen_end = True
        pos += 12 + n
    if not ihdr or not seen_end:
        sys.exit("no IHDR or no IEND")
    w, h, depth, ctype, _, _, interlace = ihdr
    if interlace or not ((depth == 8 and ctype in (2, 6)) or (ctype == 3 and depth in (1, 2, 4, 8))):
        sys.exit("unexpected format %r" % (ihdr,))
    if ctype == 3 and (not plte or len(plte) % 3 or len(plte) // 3 > 1 << depth):
        sys.exit("a palette image without a fitting PLTE")
    bits = {2: 24, 6: 32, 3: depth}[ctype]
    stride, bpp = (w * bits + 7) // 8, max(bits // 8, 1)
    raw = zlib.decompress(idat)
    if len(raw) != (stride + 1) * h:
        sys.exit("image data of %d bytes, not %d" % (len(raw), (stride + 1) * h))
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, r = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = r[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: r[x] = (r[x] + a) & 255
            elif f == 2: r[x] = (r[x] + b) & 255
            elif f == 3: r[x] = (r[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                r[x] = (r[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif f != 0:
                sys.exit("filter %d" % f)
        prev = r
        if ctype == 3:
            out = bytearray()
            for x in range(w):
                i = (r[x * depth // 8] >> (8 - depth - (x * depth) % 8)) & ((1 << depth) - 1)
                if 3 * i >= len(plte):
                    sys.exit("pixel %d,%d: colour %d is not in the palette" % (x, y, i))
                out += plte[3 * i:3 * i + 3]
            r = out
        elif ctype == 6:
            r = bytearray(b for x in range(w) for b in r[4 * x:4 * x + 3])
        rows.append(r)
    return w, h, 3, rows

def rgb(hexcolour):
    v = int(hexcolour[1:], 16)
    return (v >> 16 & 255, v >> 8 & 255, v & 255)

svg = open(sys.argv[1]).read()
w, h, bpp, rows = decode(sys.argv[2])
scale = float(sys.argv[3])
m = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
problems = []
if (w, h) != (int(int(m.group(1)) * scale), int(int(m.group(2)) * scale)):
    problems.append("size %dx%d for an SVG of %sx%s" % (w, h, m.group(1), m.group(2)))

def pixel(x, y):
    px, py = int(x * scale), int(y * scale)
    return tuple(rows[py][px * bpp:px * bpp + 3])

def near(a, b):
    return all(abs(p - q) <= 2 for p, q in zip(a, b))

spaces = [(float(x), float(y), f) for x, y, f in re.findall(
    r'<circle class="space"[^>]* cx="([\d.]+)" cy="([\d.]+)" r="9" fill="(#[0-9a-f]{6})"', svg)]
spaces += [(float(x) + 9, float(y) + 9, f) for x, y, f in re.findall(
    r'<rect class="space"[^>]* x="([\d.]+)" y="([\d.]+)" width="18" height="18" fill="(#[0-9a-f]{6})"', svg)]
# eight points inside each space (a leader line or an arrow may cross
# one or two of them): at least six must have its colour
ring = [(4, 4), (-4, 4), (4, -4), (-4, -4), (5, 0), (-5, 0), (0, 5), (0, -5)]
def painted(x, y, f):
    return sum(near(pixel(x + dx, y + dy), rgb(f)) for dx, dy in ring) >= 6
bad = [(x, y, f, pixel(x, y)) for x, y, f in spaces if not painted(x, y, f)]
# the last order's arrows and battle rings are drawn over spaces: two
# spaces may be covered so
if len(bad) > 2:
  for x, y, f, got in bad[:5]:
    problems.append("space at %g,%g: %s painted as #%02x%02x%02x" % (x, y, f, *got))
bg = re.search(r'<rect x="0" y="0" [^>]*fill="(#[0-9a-f]{6})"', svg).group(1)
if not near(pixel(3, 3), rgb(bg)):
    problems.append("background not %s" % bg)
panel = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="250" [^>]*fill="(#[0-9a-f]{6})"', svg)
if not near(pixel(float(panel.group(1)) + 125, float(panel.group(2)) + 4), rgb(panel.group(3))):
    problems.append("panel not %s" % panel.group(3))
if not spaces:
    problems.append("no space found in the SVG")
print("\n".join(problems) if problems else "ok %d" % len(spaces))
sys.exit(1 if problems else 0)
