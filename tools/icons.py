#!/usr/bin/env python3
"""Draw the app's icons (our own design, the favicon's: two cards and a token on ink).

    python -m tools.icons     # rewrites public/icons/ icon-192.png, icon-512.png, maskable-512.png

Standard library only: each shape is a signed distance in the favicon's 64-unit square,
antialiased by its distance to the edge, written as an RGBA PNG with zlib and struct.
The maskable icon fills its square and keeps the drawing inside the central safe circle.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "public" / "icons"
INK = (0x1F, 0x1D, 0x1A)
PAPER = (0xF5, 0xF0, 0xE6)
RED = (0xB8, 0x32, 0x2A)


def rounded_rect(x, y, w, h, r, angle_deg, cx, cy):
    """Signed distance to a rounded rectangle rotated by angle_deg about (cx, cy)."""
    a = math.radians(-angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    hx, hy = w / 2, h / 2
    mx, my = x + hx, y + hy

    def sdf(px, py):
        dx, dy = px - cx, py - cy  # undo the rotation about (cx, cy)
        qx, qy = cx + dx * ca - dy * sa - mx, cy + dx * sa + dy * ca - my
        ex, ey = abs(qx) - hx + r, abs(qy) - hy + r
        return math.hypot(max(ex, 0), max(ey, 0)) + min(max(ex, ey), 0) - r

    return sdf


def circle(cx, cy, r):
    return lambda px, py: math.hypot(px - cx, py - cy) - r


def draw(size: int, maskable: bool) -> bytes:
    # The favicon's shapes (units of its 64 x 64 viewBox).
    shapes = [
        (rounded_rect(14, 12, 22, 32, 4, -12, 25, 28), PAPER),
        (rounded_rect(28, 18, 22, 32, 4, 10, 39, 34), RED),
        (circle(39, 34, 5), PAPER),
    ]
    background = rounded_rect(0, 0, 64, 64, 12, 0, 32, 32)
    # Maskable: the drawing (centred on 32,31) shrunk into the safe zone, square background.
    scale = 0.72 if maskable else 1.0
    unit = 64 / size  # viewBox units per pixel
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            px, py = (i + 0.5) * unit, (j + 0.5) * unit
            if maskable:
                bg_alpha = 1.0
            else:
                bg_alpha = min(max(0.5 - background(px, py) / unit, 0.0), 1.0)
            sx, sy = 32 + (px - 32) / scale, 31 + (py - 31) / scale
            colour = INK
            for sdf, fill in shapes:
                cover = min(max(0.5 - sdf(sx, sy) * scale / unit, 0.0), 1.0)
                if cover:
                    colour = tuple(round(c + (f - c) * cover)
                                   for c, f in zip(colour, fill, strict=True))
            row += bytes(colour) + bytes([round(255 * bg_alpha)])
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main() -> None:
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        (HERE / name).write_bytes(draw(size, maskable))
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
