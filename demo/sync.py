"""Sync figures: speech onsets matched to beats, percentiles. Pure functions."""
from __future__ import annotations

import math
from dataclasses import dataclass

TARGET_P95 = 0.040  # one frame at 25 fps
MATCH_WINDOW = 0.5


@dataclass(frozen=True)
class Match:
    name: str
    t: float
    onset: float | None

    @property
    def error(self) -> float | None:
        return None if self.onset is None else self.onset - self.t


def match_onsets(beats: list[dict], onsets: list[float], window: float = MATCH_WINDOW) -> list[Match]:
    """For each narrated beat, the measured onset nearest to it (within `window`), or None."""
    out = []
    for beat in beats:
        if not beat.get("say"):
            continue
        near = [o for o in onsets if abs(o - beat["t"]) <= window]
        onset = min(near, key=lambda o: abs(o - beat["t"])) if near else None
        out.append(Match(beat["name"], beat["t"], onset))
    return out


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); inf when a value is missing."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(matches: list[Match]) -> dict:
    errors = [abs(m.error) if m.error is not None else math.inf for m in matches]
    p95 = percentile(errors, 95)
    return {
        "beats": len(matches),
        "missing": sum(1 for m in matches if m.onset is None),
        "p50_ms": _ms(percentile(errors, 50)),
        "p95_ms": _ms(p95),
        "max_ms": _ms(max(errors, default=0.0)),
        "target_ms": TARGET_P95 * 1000,
        "ok": p95 <= TARGET_P95,
    }


def _ms(value: float) -> float | None:
    return None if math.isinf(value) else round(value * 1000, 2)
