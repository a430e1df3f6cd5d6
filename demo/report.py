"""The HTML report: timeline, a thumbnail per beat, measured onset against each beat, loudness."""
from __future__ import annotations

import jinja2

_env = jinja2.Environment(loader=jinja2.PackageLoader("demo", "templates"), autoescape=True,
                          trim_blocks=True, lstrip_blocks=True)


def render(beats: list[dict], durations: dict[str, float], figures: dict, video: str) -> str:
    """A self-contained page (next to the MP4); narration text is escaped by Jinja's autoescape."""
    measured = {b["name"]: b for b in figures.get("beats", [])}
    end = max([b["t"] + durations.get(b["name"], 0) for b in beats] + [0.001])
    rows = []
    for i, b in enumerate(beats):
        m = measured.get(b["name"], {})
        rows.append({
            "index": i, "name": b["name"], "t": b["t"], "say": b.get("say", ""),
            "duration": durations.get(b["name"], 0.0), "onset": m.get("onset"), "error_ms": m.get("error_ms"),
            "peak_db": m.get("peak_db"), "thumb": f"thumbs/{i:03d}.jpg",
            "left": 100 * b["t"] / end, "width": 100 * durations.get(b["name"], 0.0) / end,
        })
    return _env.get_template("report.html").render(rows=rows, figures=figures, video=video, end=end)
