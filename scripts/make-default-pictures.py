#!/usr/bin/env python3
"""Draws the six built-in profile pictures (PNG, 256x256): a round face
wearing a thinking cap on a coloured background. Run once; the output is
committed under Sources/ParlaServer/Resources/DefaultPictures/."""
import struct, sys, zlib, os

SIZE = 256
SCHEMES = [  # background, face, cap
    ((255, 214, 165), (255, 236, 210), (214, 69, 65)),
    ((186, 225, 255), (250, 226, 200), (52, 101, 164)),
    ((198, 239, 206), (240, 210, 180), (46, 139, 87)),
    ((230, 210, 250), (255, 230, 215), (123, 63, 160)),
    ((255, 245, 170), (225, 190, 160), (200, 140, 20)),
    ((255, 205, 220), (200, 160, 130), (60, 60, 70)),
]

def pixel(x, y, bg, face, cap):
    cx, cy, r = 128, 150, 70
    dx, dy = x - cx, y - cy
    # cap: a triangle above the face, with a brim
    if 60 <= y <= 96 and abs(x - 128) <= (y - 40) * 0.9:
        return cap
    if 92 <= y <= 104 and abs(x - 128) <= 95:
        return cap
    if dx * dx + dy * dy <= r * r:
        # eyes and a smile
        for ex in (104, 152):
            if (x - ex) ** 2 + (y - 140) ** 2 <= 64:
                return (40, 40, 40)
        if 168 <= y <= 176 and (x - 128) ** 2 + (y - 150) ** 2 <= 30 ** 2 and y > 150 + 0.4 * abs(x - 128) - 2:
            return (160, 50, 50)
        return face
    return bg

def png(scheme):
    bg, face, cap = scheme
    rows = b"".join(b"\x00" + bytes(c for x in range(SIZE) for c in pixel(x, y, bg, face, cap)) for y in range(SIZE))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")

out = sys.argv[1] if len(sys.argv) > 1 else "Sources/ParlaServer/Resources/DefaultPictures"
os.makedirs(out, exist_ok=True)
for number, scheme in enumerate(SCHEMES, start=1):
    with open(f"{out}/default-{number}.png", "wb") as f:
        f.write(png(scheme))
