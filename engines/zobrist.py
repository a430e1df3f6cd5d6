"""The random stream every core's Zobrist keys come from, written once for the readable rules.

splitmix64 (Steele, Lea and Flood's generator, as the C cores implement it): each game draws
its keys from the stream of its own seed, in an order its rules.py documents and its C core
follows, so the two give equal hashes (the parity tests check it).
"""
from __future__ import annotations

from typing import Iterator

MASK = (1 << 64) - 1


def splitmix64(state: int) -> Iterator[int]:
    """The endless splitmix64 stream from seed STATE, as 64-bit integers."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)
