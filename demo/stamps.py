"""Which screencast frame shows the change a beat marks. Pure functions over small gray images.

Under load a frame can reach the screencast after an input although it was drawn before the page
handled it, so "the first frame after the click" can still show the old page. The recorder decodes
the frames around the trigger at a small size and takes the first one that differs from the frame
before it outside the drawn cursor (which moves and shrinks on its own).
"""
from __future__ import annotations

SMALL = (320, 180)  # decode size: a quarter of 1280x720 in each direction
CURSOR_BOX = (-20, -20, 44, 44)  # around the cursor tip, in page pixels: the arrow and JPEG blocks
PIXEL_DELTA = 18  # gray levels that count as a change (JPEG noise stays below)
MIN_PIXELS = 3  # changed pixels that make a change


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None when there is none."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        # SOF0-SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC)
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    return None


def cursor_mask(pos: tuple[float, float] | None, viewport: tuple[int, int], small=SMALL) -> tuple[int, int, int, int] | None:
    """The cursor's box (x0, y0, x1, y1) at the small size, or None."""
    if pos is None:
        return None
    sx, sy = small[0] / viewport[0], small[1] / viewport[1]
    x, y = pos
    return (int((x + CURSOR_BOX[0]) * sx), int((y + CURSOR_BOX[1]) * sy),
            int((x + CURSOR_BOX[2]) * sx) + 1, int((y + CURSOR_BOX[3]) * sy) + 1)


def changed_pixels(a: bytes, b: bytes, width: int, mask: tuple[int, int, int, int] | None) -> int:
    """How many gray pixels differ by more than PIXEL_DELTA, outside the mask."""
    count = 0
    for i, (p, q) in enumerate(zip(a, b)):
        if abs(p - q) > PIXEL_DELTA:
            if mask:
                x, y = i % width, i // width
                if mask[0] <= x < mask[2] and mask[1] <= y < mask[3]:
                    continue
            count += 1
    return count


def first_change(reference: bytes, candidates: list[bytes], width: int,
                 mask: tuple[int, int, int, int] | None) -> int | None:
    """Index of the first candidate that differs from the reference outside the mask."""
    for i, frame in enumerate(candidates):
        if changed_pixels(reference, frame, width, mask) >= MIN_PIXELS:
            return i
    return None
