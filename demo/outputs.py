"""Documents written next to the MP4: beats.json, WebVTT, SRT, chapters. Pure text builders."""
from __future__ import annotations

import json


def beats_json(beats: list[dict]) -> str:
    """The contract: a JSON array of {"name", "t", "say"}, t in seconds on the final MP4's clock."""
    return json.dumps([{"name": b["name"], "t": round(b["t"], 3), "say": b.get("say", "")} for b in beats],
                      indent=1) + "\n"


def cues(beats: list[dict], durations: dict[str, float]) -> list[tuple[float, float, str]]:
    return [(b["t"], b["t"] + durations[b["name"]], b["say"]) for b in beats if b.get("say") and b["name"] in durations]


def _clock(t: float, sep: str) -> str:
    ms = max(0, round(t * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def webvtt(items: list[tuple[float, float, str]]) -> str:
    lines = ["WEBVTT", ""]
    for i, (a, b, text) in enumerate(items, 1):
        # "-->" inside a cue would end its timing line; the text never contains markup we add
        safe = text.replace("-->", "->").replace("&", "&amp;").replace("<", "&lt;")
        lines += [str(i), f"{_clock(a, '.')} --> {_clock(b, '.')}", safe, ""]
    return "\n".join(lines)


def srt(items: list[tuple[float, float, str]]) -> str:
    lines = []
    for i, (a, b, text) in enumerate(items, 1):
        lines += [str(i), f"{_clock(a, ',')} --> {_clock(b, ',')}", text, ""]
    return "\n".join(lines)


def chapters(beats: list[dict], duration: float) -> list[tuple[str, float, float]]:
    """One chapter per beat, from its time (the first from 0) to the next beat (the last to the end)."""
    out = []
    for i, b in enumerate(beats):
        start = 0.0 if i == 0 else b["t"]
        end = beats[i + 1]["t"] if i + 1 < len(beats) else duration
        if end > start:
            out.append((b["name"], start, end))
    return out


def overruns(beats: list[dict], durations: dict[str, float], duration: float, gap: float = 0.05) -> list[str]:
    """Phrases longer than the time before the next beat (or the end): they would overlap."""
    problems = []
    for i, b in enumerate(beats):
        if not b.get("say") or b["name"] not in durations:
            continue
        nxt = next((n for n in beats[i + 1:] if n.get("say")), None)
        limit = (nxt["t"] if nxt else duration) - b["t"]
        if durations[b["name"]] > limit - gap:
            until = f"beat {nxt['name']!r}" if nxt else "the end of the video"
            problems.append(f"phrase of beat {b['name']!r} lasts {durations[b['name']]:.2f} s but {until} "
                            f"comes after {limit:.2f} s")
    return problems
