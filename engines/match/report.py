"""A match's report as one self-contained HTML page: the results table and a plot of the Elo
estimate (with its 95% band) and of the SPRT's log-likelihood ratio over the games played.

No external assets and no script: inline CSS and inline SVG. Every string that comes from the
data (conditions, names, decisions) is HTML-escaped; numbers are formatted here. Pure: the
caller writes the page where it wants.
"""
from __future__ import annotations

import math
from html import escape
from typing import Sequence

from engines.match.sprt import Sprt
from engines.match.stats import (PAIR_SCORES, elo_from_pentanomial, elo_from_trinomial,
                                 pentanomial, trinomial)

ELO_VIEW = 600.0  # the Elo axis shows at most +-this: early intervals are near infinite
WIDTH, PANEL_HEIGHT = 960, 300
LEFT, RIGHT, TOP, BOTTOM = 72, 150, 28, 46  # the plot area's margins in a panel
ELO_COLOUR, LLR_COLOUR, BOUND_COLOUR = "#1f5fa8", "#b3541e", "#555555"

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b;
       margin: 2em auto; max-width: 1000px; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { font-size: 1.15em; margin: 1.4em 0 .5em; }
table { border-collapse: collapse; margin: .3em 0 1em; }
th, td { text-align: left; padding: .28em .9em .28em 0; vertical-align: top;
         border-bottom: 1px solid #e4e4e4; }
th { font-weight: 600; color: #444; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.penta td, table.penta th { text-align: center; padding: .2em .8em; }
.decision { font-weight: 600; }
.h1 { color: #1c7c32; } .h0 { color: #a52a2a; } .open { color: #6b6b6b; }
code { font-size: .92em; word-break: break-all; }
svg { display: block; margin: .4em 0 1.2em; }
svg text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: #333; }
svg .title { font-size: 14px; font-weight: 600; }
.muted { color: #6b6b6b; }
"""

DECISIONS = {"H1": ("h1", "H1 accepted: the candidate is stronger (elo1)"),
             "H0": ("h0", "H0 accepted: not shown stronger (elo0)")}


def timeline_point(points_so_far: list[float], pair_points: list[float] | None,
                   sprt: Sprt | None) -> dict:
    """One entry of the report's timeline after the games POINTS_SO_FAR (the candidate's 1,
    0.5 or 0 each, in order): the Elo estimate and interval, from the pentanomial counts of
    PAIR_POINTS when there are complete pairs, else from the games' wins, draws and losses, and
    the SPRT's LLR on the same counts (None without an SPRT)."""
    if pair_points:
        counts = pentanomial(pair_points)
        elo = elo_from_pentanomial(counts)
        llr = sprt.llr_pentanomial(counts) if sprt else None
    else:
        wdl = trinomial(points_so_far)
        elo = elo_from_trinomial(*wdl)
        llr = sprt.llr_trinomial(*wdl) if sprt else None
    return {"games": len(points_so_far), "elo": elo["estimate"], "low": elo["low"],
            "high": elo["high"], "llr": llr}


def render_html(summary: dict, timeline: list[dict], title: str) -> str:
    """The report page: TITLE, the results table from SUMMARY and the plot of TIMELINE.

    SUMMARY may hold games, wins, draws, losses, score (the fraction of the points, 0..1),
    elo ({estimate, low, high}), pentanomial (5 counts in the order of PAIR_SCORES),
    per_colour ({black: {games, wins}, white: ...}, wins in points), sprt ({elo0, elo1, alpha,
    beta, lower, upper, llr, decision}) and conditions (a dict); a missing one is left out.
    TIMELINE is a list of {games, elo, low, high, llr} in game order (see `timeline_point`)."""
    # The figures, then the plot (what a reader looks at first), then the details.
    sections = [f"<h1>{escape(str(title))}</h1>", "<h2>Results</h2>", _results_table(summary),
                "<h2>Over the games</h2>", plot_svg(timeline, summary.get("sprt"))]
    if _is_sequence(summary.get("pentanomial")):
        sections += ["<h2>Game pairs (pentanomial)</h2>",
                     _pentanomial_table(summary["pentanomial"])]
    if isinstance(summary.get("conditions"), dict) and summary["conditions"]:
        sections += ["<h2>Conditions</h2>", _conditions_table(summary["conditions"])]
    body = "\n".join(sections)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(str(title))}</title>\n<style>{CSS}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


# --- The table -------------------------------------------------------------------------------

def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_sequence(value) -> bool:
    return isinstance(value, (list, tuple))


def _num(value, spec: str = "g") -> str:
    """A number formatted with SPEC; anything else as escaped text ('—' for None)."""
    if value is None:
        return "&mdash;"
    if _is_number(value):
        return format(value, spec).replace("-", "&minus;")
    return escape(str(value))


def _percent(part, whole) -> str:
    if _is_number(part) and _is_number(whole) and whole > 0:
        return f"{100 * part / whole:.1f}%"
    return ""


def format_elo_html(elo) -> str:
    """"+70.4 [+2.8, +143.9]"; one-sided or "unknown" where the interval is unbounded."""
    if not isinstance(elo, dict):
        return "unknown"
    estimate, low, high = elo.get("estimate"), elo.get("low"), elo.get("high")
    if _is_number(estimate):
        return (f"{_num(estimate, '+.1f')} <span class=\"muted\">(95%: {_num(low, '+.1f')} to "
                f"{_num(high, '+.1f')})</span>")
    if _is_number(low):
        return f"at least {_num(low, '+.1f')}"
    if _is_number(high):
        return f"at most {_num(high, '+.1f')}"
    return "unknown"


def _score(summary: dict):
    if _is_number(summary.get("score")):
        return summary["score"]
    wins, draws, losses = (summary.get(k) for k in ("wins", "draws", "losses"))
    if all(_is_number(v) for v in (wins, draws, losses)) and wins + draws + losses > 0:
        return (wins + draws / 2) / (wins + draws + losses)
    if _is_number(summary.get("win_rate")):
        return summary["win_rate"]
    return None


def _results_table(summary: dict) -> str:
    rows = []
    if "games" in summary:
        rows.append(("Games", _num(summary["games"])))
    if all(k in summary for k in ("wins", "draws", "losses")):
        rows.append(("Wins / draws / losses", " / ".join(
            _num(summary[k]) for k in ("wins", "draws", "losses"))))
    elif "wins" in summary:
        rows.append(("Points", _num(summary["wins"])))
    score = _score(summary)
    if score is not None:
        rows.append(("Score", _num(100 * score, ".1f") + "%"))
    if "elo" in summary:
        rows.append(("Elo", format_elo_html(summary["elo"])))
    colours = summary.get("per_colour")
    if isinstance(colours, dict):
        for colour, figures in colours.items():
            if isinstance(figures, dict):
                wins, games = figures.get("wins"), figures.get("games")
                share = _percent(wins, games)
                rows.append((f"As {escape(str(colour))}",
                             f"{_num(wins)} / {_num(games)}" + (f" ({share})" if share else "")))
    sprt = summary.get("sprt")
    if isinstance(sprt, dict):
        rows += _sprt_rows(sprt)
    if not rows:
        return '<p class="muted">No results yet.</p>'
    return "<table>\n" + "\n".join(f"<tr><th>{label}</th><td>{value}</td></tr>"
                                   for label, value in rows) + "\n</table>"


def _sprt_rows(sprt: dict) -> list[tuple[str, str]]:
    parts = [f"{name}={_num(sprt[name])}" for name in ("elo0", "elo1", "alpha", "beta")
             if name in sprt]
    if "lower" in sprt or "upper" in sprt:
        parts.append(f"bounds [{_num(sprt.get('lower'), '.2f')}, "
                     f"{_num(sprt.get('upper'), '.2f')}]")
    rows = [("SPRT", " ".join(parts) or "&mdash;")]
    if "llr" in sprt:
        rows.append(("LLR", _num(sprt["llr"], ".3f")))
    decision = sprt.get("decision")
    if decision in DECISIONS:
        css, text = DECISIONS[decision]
        rows.append(("Decision", f'<span class="decision {css}">{text}</span>'))
    elif decision is None:
        rows.append(("Decision", '<span class="decision open">none yet: the match goes on</span>'))
    else:
        rows.append(("Decision", f'<span class="decision">{escape(str(decision))}</span>'))
    return rows


def _pentanomial_table(counts: Sequence) -> str:
    head = "".join(f"<th>{score:g}</th>" for score in PAIR_SCORES)
    cells = "".join(f"<td>{_num(c)}</td>" for c in counts)
    pairs = sum(c for c in counts if _is_number(c))
    return (f'<table class="penta">\n<tr><th>pair points</th>{head}<th>pairs</th></tr>\n'
            f"<tr><th>count</th>{cells}<td>{_num(pairs)}</td></tr>\n</table>")


def _conditions_table(conditions: dict) -> str:
    rows = "\n".join(f"<tr><th>{escape(str(key))}</th>"
                     f"<td><code>{escape(str(value))}</code></td></tr>"
                     for key, value in conditions.items())
    return f"<table>\n{rows}\n</table>"


# --- The plot --------------------------------------------------------------------------------

def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) covering [LOW, HIGH]."""
    if not high > low:
        high = low + 1.0
    raw = (high - low) / max(1, count)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    ticks = []
    k = first
    while k * step <= high + 1e-9 * step:
        ticks.append(round(k * step, 10) + 0.0)
        k += 1
    return ticks


class _Panel:
    """One panel's coordinate mapping: games on x, a value range on y."""

    def __init__(self, top: float, x_max: float, y_low: float, y_high: float):
        self.top, self.x_max, self.y_low, self.y_high = top, x_max, y_low, y_high
        self.width = WIDTH - LEFT - RIGHT
        self.height = PANEL_HEIGHT - TOP - BOTTOM

    def x(self, games: float) -> float:
        return LEFT + self.width * games / self.x_max

    def y(self, value: float) -> float:
        share = (value - self.y_low) / (self.y_high - self.y_low)
        return self.top + TOP + self.height * (1.0 - share)

    def frame(self, name: str, title: str, y_label: str, y_ticks: list[float],
              x_ticks: list[float], y_format: str) -> list[str]:
        t, h, w = self.top + TOP, self.height, self.width
        out = [f'<clipPath id="clip-{name}"><rect x="{LEFT}" y="{t:.1f}" width="{w}" '
               f'height="{h}"/></clipPath>',
               f'<rect x="{LEFT}" y="{t:.1f}" width="{w}" height="{h}" fill="#fbfbfb" '
               f'stroke="#bbbbbb"/>',
               f'<text class="title" x="{LEFT}" y="{t - 10:.1f}">{escape(title)}</text>']
        for value in y_ticks:
            y = self.y(value)
            out.append(f'<line x1="{LEFT}" x2="{LEFT + w}" y1="{y:.1f}" y2="{y:.1f}" '
                       f'stroke="#e6e6e6"/>')
            label = "0" if value == 0 else format(value, y_format).replace("-", "&#8722;")
            out.append(f'<text x="{LEFT - 7}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        for games in x_ticks:
            x = self.x(games)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{t + h:.1f}" y2="{t + h + 5:.1f}" '
                       f'stroke="#888888"/>')
            out.append(f'<text x="{x:.1f}" y="{t + h + 18:.1f}" text-anchor="middle">'
                       f"{games:g}</text>")
        out.append(f'<text x="{LEFT + w / 2:.1f}" y="{t + h + 38:.1f}" text-anchor="middle">'
                   f"games played</text>")
        out.append(f'<text transform="translate({LEFT - 52},{t + h / 2:.1f}) rotate(-90)" '
                   f'text-anchor="middle">{escape(y_label)}</text>')
        return out

    def legend(self, entries: list[tuple[str, str]]) -> list[str]:
        """ENTRIES of (SVG swatch markup at 0,0 .. 24,10, label) right of the plot area."""
        out = []
        x0, y0 = LEFT + self.width + 14, self.top + TOP + 6
        for i, (swatch, label) in enumerate(entries):
            y = y0 + 22 * i
            out.append(f'<g transform="translate({x0},{y})">{swatch}'
                       f'<text x="30" y="9">{escape(label)}</text></g>')
        return out


def _runs(indices: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for i in indices:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _elo_panel(timeline: list[dict], top: float, x_max: float, x_ticks: list[float]) -> list[str]:
    values = [p[k] for p in timeline for k in ("elo", "low", "high") if _is_number(p.get(k))]
    low = max(min(values, default=-50.0), -ELO_VIEW)
    high = min(max(values, default=50.0), ELO_VIEW)
    low, high = min(low, 0.0), max(high, 0.0)
    pad = 0.06 * (high - low or 100.0)
    ticks = nice_ticks(low - pad, high + pad)
    panel = _Panel(top, x_max, min(ticks[0], low - pad), max(ticks[-1], high + pad))
    out = panel.frame("elo", "Elo difference (candidate − opponent)", "Elo", ticks, x_ticks, "+g")
    defined = [i for i, p in enumerate(timeline) if _is_number(p.get("elo"))]
    edge_low, edge_high = panel.y_low - 1e3, panel.y_high + 1e3  # an unbounded end: off the plot
    body = [f'<line x1="{LEFT}" x2="{LEFT + panel.width}" y1="{panel.y(0):.1f}" '
            f'y2="{panel.y(0):.1f}" stroke="#999999" stroke-width="1"/>']
    for run in _runs(defined):
        upper = [(timeline[i]["games"], timeline[i]["high"] if _is_number(timeline[i].get("high"))
                  else edge_high) for i in run]
        lower = [(timeline[i]["games"], timeline[i]["low"] if _is_number(timeline[i].get("low"))
                  else edge_low) for i in run]
        shape = upper + lower[::-1]
        body.append('<polygon class="elo-band" fill="%s" fill-opacity="0.18" stroke="none" '
                    'points="%s"/>' % (ELO_COLOUR, " ".join(
                        f"{panel.x(g):.1f},{panel.y(v):.1f}" for g, v in shape)))
    body += _series(panel, timeline, defined, "elo", ELO_COLOUR)
    out.append(f'<g clip-path="url(#clip-elo)">{"".join(body)}</g>')
    out += panel.legend([
        (f'<line x1="0" x2="24" y1="5" y2="5" stroke="{ELO_COLOUR}" stroke-width="2"/>'
         f'<circle cx="12" cy="5" r="2.6" fill="{ELO_COLOUR}"/>', "Elo estimate"),
        (f'<rect width="24" height="10" fill="{ELO_COLOUR}" fill-opacity="0.18"/>',
         "95% interval")])
    return out


def _series(panel, timeline: list[dict], defined: list[int], key: str, colour: str) -> list[str]:
    """KEY over the games: a line through each run of DEFINED entries, and a point on each."""
    out = ['<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
        colour, " ".join(f"{panel.x(timeline[i]['games']):.1f},{panel.y(timeline[i][key]):.1f}"
                         for i in run)) for run in _runs(defined)]
    radius = 2.6 if len(timeline) <= 100 else 1.4
    out += [f'<circle class="{key}-point" cx="{panel.x(timeline[i]["games"]):.1f}" '
            f'cy="{panel.y(timeline[i][key]):.1f}" r="{radius}" fill="{colour}"/>'
            for i in defined]
    return out


def _llr_panel(timeline: list[dict], sprt: dict | None, top: float, x_max: float,
               x_ticks: list[float]) -> list[str]:
    values = [p["llr"] for p in timeline if _is_number(p.get("llr"))]
    bounds = [(sprt or {}).get(k) for k in ("lower", "upper")]
    bounds = [b if _is_number(b) else None for b in bounds]
    low = min(values + [b for b in bounds if b is not None] + [0.0])
    high = max(values + [b for b in bounds if b is not None] + [0.0])
    pad = 0.08 * (high - low or 1.0)
    ticks = nice_ticks(low - pad, high + pad)
    panel = _Panel(top, x_max, min(ticks[0], low - pad), max(ticks[-1], high + pad))
    out = panel.frame("llr", "SPRT log-likelihood ratio", "LLR", ticks, x_ticks, "+g")
    body = []
    for bound, name in zip(bounds, ("H0", "H1")):
        if bound is None:
            continue
        y = panel.y(bound)
        body.append(f'<line class="sprt-bound" x1="{LEFT}" x2="{LEFT + panel.width}" '
                    f'y1="{y:.1f}" y2="{y:.1f}" stroke="{BOUND_COLOUR}" stroke-width="1.4" '
                    f'stroke-dasharray="6 4"/>')
        label_y = y - 6 if name == "H1" else y + 15
        body.append(f'<text x="{LEFT + panel.width - 6}" y="{label_y:.1f}" '
                    f'text-anchor="end" fill="{BOUND_COLOUR}">accept {name} '
                    f'({format(bound, "+.2f").replace("-", "&#8722;")})</text>')
    defined = [i for i, p in enumerate(timeline) if _is_number(p.get("llr"))]
    body += _series(panel, timeline, defined, "llr", LLR_COLOUR)
    out.append(f'<g clip-path="url(#clip-llr)">{"".join(body)}</g>')
    out += panel.legend([
        (f'<line x1="0" x2="24" y1="5" y2="5" stroke="{LLR_COLOUR}" stroke-width="2"/>'
         f'<circle cx="12" cy="5" r="2.6" fill="{LLR_COLOUR}"/>', "LLR"),
        (f'<line x1="0" x2="24" y1="5" y2="5" stroke="{BOUND_COLOUR}" stroke-width="1.4" '
         f'stroke-dasharray="6 4"/>', "SPRT bounds")])
    return out


def plot_svg(timeline: list[dict], sprt: dict | None = None) -> str:
    """The inline SVG: the Elo panel and, when the timeline has LLRs, the LLR panel below it
    with SPRT's bounds (from the summary's SPRT dict) as dashed lines."""
    timeline = [p for p in timeline if isinstance(p, dict) and _is_number(p.get("games"))]
    if not timeline:
        return '<p class="muted">No games played yet.</p>'
    x_max = max(max(p["games"] for p in timeline), 1)
    x_ticks = [t for t in nice_ticks(0, x_max, 8) if 0 <= t <= x_max]
    with_llr = any(_is_number(p.get("llr")) for p in timeline)
    height = PANEL_HEIGHT * (2 if with_llr else 1)
    parts = _elo_panel(timeline, 0, x_max, x_ticks)
    if with_llr:
        parts += _llr_panel(timeline, sprt if isinstance(sprt, dict) else None, PANEL_HEIGHT,
                            x_max, x_ticks)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="Elo and LLR over the games">\n'
            + "\n".join(parts) + "\n</svg>")
