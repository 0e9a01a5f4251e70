"""Draw the site's app icons (docs/icons/): two dice showing a double 1, the roll that
always holds a Break test (BR-5), white on the theme's indigo.

One geometry gives the SVG and the PNGs; the PNGs are rasterised here, in Python's
standard library only (a signed distance per pixel gives smooth edges), so the icons are
ours and need no image tool. `python tools/draw_icons.py` rewrites them;
tests/test_offline.py checks the committed files are what it draws.
"""

import math
import struct
import sys
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "docs/icons"
SIZES = (192, 512)
INDIGO = (0x40, 0x51, 0xB5)  # Material's indigo: the site's primary colour
WHITE = (0xFF, 0xFF, 0xFF)
BOX = 512  # the drawing's units

# (x, y, width, height, corner radius, colour): the tile, then two dice
SQUARES = [
    (0, 0, 512, 512, 96, INDIGO),
    (88, 176, 160, 160, 32, WHITE),
    (264, 176, 160, 160, 32, WHITE),
]
PIPS = [(168, 256, 26, INDIGO), (344, 256, 26, INDIGO)]  # (x, y, radius, colour): a 1 each


def svg() -> str:
    shapes = [
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="#{bytes(c).hex()}"/>'
        for x, y, w, h, r, c in SQUARES
    ] + [f'<circle cx="{x}" cy="{y}" r="{r}" fill="#{bytes(c).hex()}"/>' for x, y, r, c in PIPS]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {BOX} {BOX}">'
        f"<title>rulesref</title>{''.join(shapes)}</svg>\n"
    )


def _square_distance(px: float, py: float, square: tuple) -> float:
    x, y, w, h, r, _ = square
    qx = abs(px - (x + w / 2)) - (w / 2 - r)
    qy = abs(py - (y + h / 2)) - (h / 2 - r)
    return math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r


def _pip_distance(px: float, py: float, pip: tuple) -> float:
    x, y, r, _ = pip
    return math.hypot(px - x, py - y) - r


def pixels(size: int) -> bytes:
    """RGBA rows of the icon at `size` pixels, each row led by PNG's filter byte 0."""
    scale = BOX / size
    shapes = [(s, _square_distance, s[5]) for s in SQUARES] + [
        (p, _pip_distance, p[3]) for p in PIPS
    ]
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            px, py = (i + 0.5) * scale, (j + 0.5) * scale
            colour, alpha = (0.0, 0.0, 0.0), 0.0
            for shape, distance, fill in shapes:
                cover = min(1.0, max(0.0, 0.5 - distance(px, py, shape) / scale))
                if cover:  # paint over what is below, by the pixel's share of the shape
                    out = cover + alpha * (1 - cover)
                    colour = tuple(
                        (f * cover + c * alpha * (1 - cover)) / out
                        for f, c in zip(fill, colour, strict=True)
                    )
                    alpha = out
            rows += bytes(round(c) for c in colour) + bytes([round(alpha * 255)])
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels(size), 9))
        + chunk(b"IEND", b"")
    )


def drawn() -> dict[str, bytes]:
    """Every icon file, by name."""
    return {"icon.svg": svg().encode(), **{f"icon-{size}.png": png(size) for size in SIZES}}


if __name__ == "__main__":
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, content in drawn().items():
        (ICONS / name).write_bytes(content)
        print(ICONS / name, len(content), "bytes", file=sys.stderr)
