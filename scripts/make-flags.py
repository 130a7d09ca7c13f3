#!/usr/bin/env python3
"""Draws the flags of the alphabets' countries (seed 003: "the image of this
language's main country's flag", 115x79) as SVG and as PNG from the same
geometry: us, gb, fr, it, de, es. Run once; the output is committed under
Corpora/flags/. Spain's is its civil flag (no coat of arms): at 115x79 the
arms would be a smudge."""
import math, os, struct, sys, zlib

W, H = 115, 79
RED_US, BLUE_US, WHITE = (178, 34, 52), (60, 59, 110), (255, 255, 255)
RED_GB, BLUE_GB = (200, 16, 46), (1, 33, 105)


def star(cx, cy, r):
    """The five points and five inner corners of a star, point up."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.382
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def inside(polygon, x, y):
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


GB_TRIANGLES = [[(30, 15), (60, 15), (60, 30)], [(30, 15), (30, 30), (0, 30)], [(30, 15), (0, 15), (0, 0)], [(30, 15), (30, 0), (60, 0)]]


def us_stars():
    # 50 stars: 9 rows alternating 6 and 5 in the canton (0.4 of the width, 7 stripes high).
    cw, ch = W * 0.4, H * 7 / 13
    stars = []
    for row in range(9):
        for col in range(6 if row % 2 == 0 else 5):
            x = cw * (col * 2 + (1 if row % 2 == 0 else 2)) / 12
            y = ch * (row + 1) / 10
            stars.append(star(x, y, H * 0.0308))  # a star is 0.0616 of the hoist across
    return cw, ch, stars


def colour(flag, x, y):
    """The colour at (x, y) in flag coordinates (W x H)."""
    if flag == "fr":
        return [(0, 35, 149), WHITE, (237, 41, 57)][min(2, int(x * 3 / W))]
    if flag == "it":
        return [(0, 146, 70), WHITE, (206, 43, 55)][min(2, int(x * 3 / W))]
    if flag == "de":
        return [(0, 0, 0), (221, 0, 0), (255, 206, 0)][min(2, int(y * 3 / H))]
    if flag == "es":
        return (170, 21, 27) if y < H / 4 or y >= H * 3 / 4 else (241, 191, 0)
    if flag == "us":
        cw, ch, stars = us_stars()
        if x < cw and y < ch:
            return WHITE if any(inside(s, x, y) for s in stars) else BLUE_US
        return RED_US if int(y * 13 / H) % 2 == 0 else WHITE
    if flag == "gb":
        # 60 x 30 units, stretched to the picture as the seed's flags are.
        sx, sy = x * 60 / W, y * 30 / H
        if abs(sx - 30) < 3 or abs(sy - 15) < 3:
            return RED_GB
        if abs(sx - 30) < 5 or abs(sy - 15) < 5:
            return WHITE
        # The saltire: white 6 units wide on each diagonal; the red 2 units
        # beside its centre line, on the side the counterchange keeps
        # (GB_TRIANGLES, the clip path of the SVG).
        for dx, dy in ((60, 30), (60, -30)):
            across = ((sx - 30) * dy - (sy - 15) * dx) / math.hypot(dx, dy)
            if abs(across) < 3:
                red = abs(across) < 2 and any(inside(t, sx, sy) for t in GB_TRIANGLES)
                return RED_GB if red else WHITE
        return BLUE_GB
    raise ValueError(flag)


def svg(flag):
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
    parts = [head]
    if flag in ("fr", "it"):
        for i in range(3):
            r, g, b = colour(flag, (i + 0.5) * W / 3, 0)
            parts.append(f'<rect x="{i * W / 3:.3f}" y="0" width="{W / 3 + 0.01:.3f}" height="{H}" fill="rgb({r},{g},{b})"/>')
    elif flag == "de":
        for i in range(3):
            r, g, b = colour(flag, 0, (i + 0.5) * H / 3)
            parts.append(f'<rect x="0" y="{i * H / 3:.3f}" width="{W}" height="{H / 3 + 0.01:.3f}" fill="rgb({r},{g},{b})"/>')
    elif flag == "es":
        parts.append(f'<rect width="{W}" height="{H}" fill="rgb(170,21,27)"/>')
        parts.append(f'<rect y="{H / 4:.3f}" width="{W}" height="{H / 2:.3f}" fill="rgb(241,191,0)"/>')
    elif flag == "us":
        parts.append(f'<rect width="{W}" height="{H}" fill="rgb{WHITE}"/>')
        for i in range(0, 13, 2):
            parts.append(f'<rect y="{i * H / 13:.3f}" width="{W}" height="{H / 13:.3f}" fill="rgb{RED_US}"/>')
        cw, ch, stars = us_stars()
        parts.append(f'<rect width="{cw:.3f}" height="{ch:.3f}" fill="rgb{BLUE_US}"/>')
        for s in stars:
            parts.append('<polygon fill="#fff" points="' + " ".join(f"{px:.2f},{py:.2f}" for px, py in s) + '"/>')
    elif flag == "gb":
        parts.append(f'<g transform="scale({W / 60:.5f} {H / 30:.5f})">')
        parts.append('<clipPath id="t"><path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z"/></clipPath>')
        parts.append('<path d="M0,0 v30 h60 v-30 z" fill="rgb(1,33,105)"/>')
        parts.append('<path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" stroke-width="6"/>')
        parts.append('<path d="M0,0 L60,30 M60,0 L0,30" clip-path="url(#t)" stroke="rgb(200,16,46)" stroke-width="4"/>')
        parts.append('<path d="M30,0 v30 M0,15 h60" stroke="#fff" stroke-width="10"/>')
        parts.append('<path d="M30,0 v30 M0,15 h60" stroke="rgb(200,16,46)" stroke-width="6"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png(flag, samples=4):
    rows = []
    for py in range(H):
        row = bytearray([0])
        for px in range(W):
            total = [0, 0, 0]
            for i in range(samples):
                for j in range(samples):
                    c = colour(flag, px + (i + 0.5) / samples, py + (j + 0.5) / samples)
                    total = [t + v for t, v in zip(total, c)]
            row += bytes(round(t / samples / samples) for t in total)
        rows.append(bytes(row))
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Corpora", "flags")
    os.makedirs(out, exist_ok=True)
    for flag in ["us", "gb", "fr", "it", "de", "es"]:
        with open(os.path.join(out, f"{flag}.svg"), "w") as f:
            f.write(svg(flag))
        with open(os.path.join(out, f"{flag}.png"), "wb") as f:
            f.write(png(flag))
