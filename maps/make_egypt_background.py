#!/usr/bin/env python3
"""Draws maps/egypt_1895.png, the picture under maps/egypt_1895.toml.

Plain Python, no packages: the sea, the Nile with its delta branches, the
cultivated land along it, the Faiyum lake and the Suez canal, from latitude
and longitude turned into the map's miles as the map file says:
    x = (longitude - 29.50) * 60,  y = (31.70 - latitude) * 69.
Run from the repository's root: python3 maps/make_egypt_background.py
"""

import struct
import zlib

# The picture covers these map miles (the [background] table of the map file).
LEFT, TOP, RIGHT, BOTTOM = -20.0, -20.0, 520.0, 960.0
PX_PER_MILE = 1.5
W = int((RIGHT - LEFT) * PX_PER_MILE)
H = int((BOTTOM - TOP) * PX_PER_MILE)

DESERT = (232, 214, 168)
SEA = (150, 190, 215)
RIVER = (90, 150, 205)
FIELDS = (196, 214, 150)
SALT = (205, 215, 210)


def px(lat, lon):
    x = (lon - 29.50) * 60
    y = (31.70 - lat) * 69
    return ((x - LEFT) * PX_PER_MILE, (y - TOP) * PX_PER_MILE)


image = [bytearray(DESERT * W) for _ in range(H)]


def put(x, y, colour):
    if 0 <= x < W and 0 <= y < H:
        image[y][3 * x : 3 * x + 3] = bytes(colour)


def fill(points, colour):
    """Scanline fill of a polygon given in (lat, lon)."""
    poly = [px(*p) for p in points]
    ys = [p[1] for p in poly]
    for y in range(max(0, int(min(ys))), min(H, int(max(ys)) + 1)):
        cy = y + 0.5
        xs = []
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
            if (y1 <= cy < y2) or (y2 <= cy < y1):
                xs.append(x1 + (cy - y1) * (x2 - x1) / (y2 - y1))
        xs.sort()
        for a, b in zip(xs[0::2], xs[1::2]):
            for x in range(max(0, int(a)), min(W, int(b) + 1)):
                image[y][3 * x : 3 * x + 3] = bytes(colour)


def line(points, width_miles, colour):
    """A thick polyline given in (lat, lon): discs stamped along it."""
    r = max(0.7, width_miles * PX_PER_MILE / 2)
    pts = [px(*p) for p in points]
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        steps = int(max(abs(x2 - x1), abs(y2 - y1)) / max(r / 2, 0.5)) + 1
        for k in range(steps + 1):
            cx = x1 + (x2 - x1) * k / steps
            cy = y1 + (y2 - y1) * k / steps
            ri = int(r) + 1
            for dy in range(-ri, ri + 1):
                for dx in range(-ri, ri + 1):
                    if dx * dx + dy * dy <= r * r:
                        put(int(cx) + dx, int(cy) + dy, colour)


FAR_N, FAR_E = 33.0, 40.0

# The Mediterranean, west to east along the coast.
fill(
    [
        (FAR_N, 29.0), (30.95, 29.0), (31.1, 29.75), (31.2, 29.9), (31.32, 30.06),
        (31.45, 30.37), (31.58, 30.9), (31.6, 31.2), (31.52, 31.84), (31.26, 32.3),
        (31.1, 32.6), (31.15, 33.2), (31.13, 33.8), (31.3, 34.3), (FAR_N, 34.3),
    ],
    SEA,
)
# The Red Sea and the Gulf of Suez: the African shore, then Sinai's.
african = [
    (29.97, 32.55), (29.5, 32.4), (29.0, 32.65), (28.36, 33.08), (27.75, 33.5),
    (27.25, 33.8), (26.75, 33.93), (26.1, 34.28), (25.07, 34.9), (23.9, 35.5),
    (22.9, 35.7), (22.2, 36.6), (21.0, 37.0), (19.9, 37.2), (19.1, 37.33),
    (18.7, 37.6), (18.0, 38.4), (17.0, 39.0), (17.0, FAR_E),
]
# Arabia's shore and the Gulf of Aqaba, then Sinai's shores back to Suez.
sinai = [
    (20.0, 40.0), (22.0, 39.1), (25.0, 37.2), (27.0, 35.6), (28.0, 34.8),
    (29.5, 34.95), (28.5, 34.5), (27.73, 34.25), (28.2, 33.6), (29.0, 32.9),
    (29.8, 32.6),
]
fill(african + sinai, SEA)

# The Nile valley's fields, then the delta's, then the water over them.
valley = [
    (30.05, 31.25), (29.5, 31.2), (29.07, 31.1), (28.6, 30.85), (28.1, 30.75),
    (27.6, 30.85), (27.18, 31.18), (26.56, 31.69), (26.34, 31.89), (26.05, 32.24),
    (26.16, 32.72), (25.7, 32.64), (25.29, 32.55), (24.98, 32.87), (24.5, 32.95),
    (24.09, 32.9), (23.5, 32.85), (22.6, 32.32), (21.8, 31.35), (20.8, 30.4),
    (19.17, 30.48), (18.48, 31.82), (19.0, 32.6), (19.53, 33.33), (18.02, 33.98),
    (17.0, 33.9),
]
line(valley[:17], 12, FIELDS)
line(valley[16:], 5, FIELDS)
fill(
    [
        (30.1, 31.2), (30.7, 30.3), (31.1, 29.95), (31.3, 30.1), (31.45, 30.37),
        (31.55, 30.9), (31.5, 31.8), (31.3, 32.2), (30.9, 32.1), (30.55, 31.75),
        (30.2, 31.4),
    ],
    FIELDS,
)
fill([(29.6, 30.55), (29.05, 30.6), (29.0, 31.0), (29.35, 31.15), (29.6, 30.95)], FIELDS)
line(valley, 1.6, RIVER)
line([(30.15, 31.15), (30.5, 31.0), (30.82, 30.82), (31.1, 30.55), (31.45, 30.37)], 1.2, RIVER)
line([(30.15, 31.15), (30.46, 31.18), (31.04, 31.38), (31.3, 31.6), (31.52, 31.84)], 1.2, RIVER)
# Birket Qarun in the Faiyum.
fill([(29.52, 30.4), (29.45, 30.45), (29.43, 30.8), (29.5, 30.8)], SEA)
# Lakes of the delta coast: Mariut, Idku, Burullus, Manzala.
fill([(31.15, 29.85), (31.05, 29.9), (31.1, 30.05), (31.18, 30.0)], SALT)
fill([(31.5, 30.75), (31.35, 30.6), (31.3, 31.0), (31.5, 31.1)], SALT)
fill([(31.45, 31.85), (31.2, 31.9), (31.05, 32.2), (31.25, 32.25)], SALT)
# The Suez canal, the Bitter Lakes and the Sweet Water canal.
line([(31.26, 32.3), (30.95, 32.3), (30.6, 32.27), (30.35, 32.35), (30.0, 32.55)], 1.0, RIVER)
fill([(30.45, 32.3), (30.25, 32.35), (30.15, 32.5), (30.35, 32.45)], SEA)
line([(30.1, 31.25), (30.55, 31.75), (30.6, 32.27)], 0.6, RIVER)

raw = b"".join(b"\x00" + bytes(row) for row in image)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


png = (
    b"\x89PNG\r\n\x1a\n"
    + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(raw, 9))
    + chunk(b"IEND", b"")
)
with open("maps/egypt_1895.png", "wb") as f:
    f.write(png)
print(f"maps/egypt_1895.png: {W} x {H} pixels, {len(png)} bytes; covers x {LEFT}..{RIGHT}, y {TOP}..{BOTTOM} miles")
