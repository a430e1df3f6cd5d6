"""engines.match.report: the HTML page's figures, escaping, the plot's points, missing parts."""
import re
import xml.etree.ElementTree as ET

from engines.match.report import render_html, timeline_point
from engines.match.sprt import Sprt
from engines.match.stats import (elo_from_pentanomial, elo_from_trinomial, pentanomial,
                                 trinomial)

SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert(1)</script>"


def svg_of(page):
    match = re.search(r"<svg .*?</svg>", page, re.S)
    assert match, "no SVG in the page"
    return ET.fromstring(match.group(0))  # well-formed XML, too


def circles(svg, css_class):
    return [c for c in svg.iter(f"{SVG}circle") if c.get("class") == css_class]


def a_match(games=40, sprt=Sprt(0, 20)):
    pattern = [0.5, 1, 1, 0, 1, 1, 0.5, 0]  # a draw first: every entry has an Elo
    points, pairs, timeline = [], [], []
    for game in range(games):
        points.append(pattern[game % len(pattern)])
        if len(points) % 2 == 0:
            pairs.append(points[-1] + points[-2])
        timeline.append(timeline_point(points, pairs, sprt))
    return points, pairs, timeline


def full_summary():
    points, pairs, timeline = a_match()
    wins, draws, losses = trinomial(points)
    sprt = Sprt(0, 20)
    llr = timeline[-1]["llr"]
    return {"games": len(points), "wins": wins, "draws": draws, "losses": losses,
            "score": (wins + draws / 2) / len(points),
            "elo": elo_from_pentanomial(pentanomial(pairs)), "pentanomial": pentanomial(pairs),
            "per_colour": {"black": {"games": 20, "wins": 13.5},
                           "white": {"games": 20, "wins": 11}},
            "sprt": {"elo0": 0, "elo1": 20, "alpha": 0.05, "beta": 0.05, "lower": sprt.lower,
                     "upper": sprt.upper, "llr": llr, "decision": sprt.decide(llr)},
            "conditions": {"candidate": EVIL, "size": 9, EVIL: "key"}}, timeline


def test_the_page_holds_the_figures():
    summary, timeline = full_summary()
    assert (summary["wins"], summary["draws"], summary["losses"]) == (20, 10, 10)
    page = render_html(summary, timeline, "soloshop vs GNU Go")
    assert page.startswith("<!DOCTYPE html>") and "<title>soloshop vs GNU Go</title>" in page
    assert ">40<" in page and "20 / 10 / 10" in page and "62.5%" in page
    assert f"{summary['elo']['estimate']:+.1f}" in page
    assert f"{summary['elo']['low']:+.1f}" in page and f"{summary['elo']['high']:+.1f}" in page
    assert "".join(f"<td>{c}</td>" for c in summary["pentanomial"]) in page
    assert "13.5 / 20 (67.5%)" in page and "11 / 20 (55.0%)" in page
    assert "elo0=0 elo1=20 alpha=0.05 beta=0.05" in page and "2.94]" in page
    assert f"{summary['sprt']['llr']:.3f}" in page
    assert "none yet" in page  # 40 games do not decide this one
    # self-contained: no scripts, no external assets
    assert "<script" not in page.lower()
    assert not re.search(r"\b(src|href)=|@import|url\((?!#)", page)


def test_data_strings_are_escaped():
    summary, timeline = full_summary()
    summary["sprt"]["decision"] = EVIL
    page = render_html(summary, timeline, f"a & b {EVIL}")
    assert EVIL not in page and "<script" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("&lt;script&gt;") == 5  # title twice, a condition's value and key, decision
    assert "a &amp; b" in page


def test_the_plot_has_one_point_per_timeline_entry():
    summary, timeline = full_summary()
    svg = svg_of(render_html(summary, timeline, "t"))
    assert len(circles(svg, "elo-point")) == len(timeline) == 40
    assert len(circles(svg, "llr-point")) == 40
    assert len([l for l in svg.iter(f"{SVG}line") if l.get("class") == "sprt-bound"]) == 2
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "Elo estimate" in texts and "95% interval" in texts and "LLR" in texts
    assert "games played" in texts and {"0", "20", "40"} <= set(texts)  # x tick labels
    assert any(t and "accept H1" in t for t in texts)
    # the points run left to right in game order
    xs = [float(c.get("cx")) for c in circles(svg, "elo-point")]
    assert xs == sorted(xs) and len(set(xs)) == 40


def test_higher_elo_is_drawn_higher():
    timeline = [{"games": 1, "elo": -50.0, "low": -90.0, "high": -10.0, "llr": None},
                {"games": 2, "elo": 120.0, "low": 60.0, "high": 180.0, "llr": None}]
    ys = [float(c.get("cy")) for c in circles(svg_of(render_html({}, timeline, "t")), "elo-point")]
    assert ys[1] < ys[0]  # SVG's y grows downwards


def test_missing_sections_render():
    page = render_html({}, [], "empty")
    assert "<h1>empty</h1>" in page and "No results yet" in page and "No games played yet" in page
    points, _, timeline = a_match(sprt=None)
    wins, draws, losses = trinomial(points)
    page = render_html({"games": 40, "wins": wins, "draws": draws, "losses": losses,
                        "elo": elo_from_trinomial(wins, draws, losses)}, timeline, "no sprt")
    assert "SPRT" not in page and "pentanomial" not in page and "Conditions" not in page
    svg = svg_of(page)
    assert len(circles(svg, "elo-point")) == 40 and not circles(svg, "llr-point")
    assert "log-likelihood" not in page
    # only the old summary's keys: points as wins, no draws or losses
    page = render_html({"games": 4, "wins": 3.5, "win_rate": 0.875, "elo": {"estimate": None,
                        "low": 120.0, "high": None}, "per_colour": {"black": {}}}, [], "old")
    assert "87.5%" in page and "at least +120.0" in page


def test_undefined_elo_points_are_left_out():
    timeline = [timeline_point([1.0] * k, None, Sprt(0, 10)) for k in range(1, 4)]
    assert all(p["elo"] is None for p in timeline)  # 100%: no finite Elo
    timeline.append(timeline_point([1.0, 1.0, 1.0, 0.0], None, Sprt(0, 10)))
    svg = svg_of(render_html({}, timeline, "t"))
    assert len(circles(svg, "elo-point")) == 1 and len(circles(svg, "llr-point")) == 4


def test_timeline_point_uses_pairs_when_there_are_some():
    sprt = Sprt(0, 10)
    points, pairs = [1, 0.5, 0, 1, 1, 0.5], [1.5, 1, 1.5]
    point = timeline_point(points, pairs, sprt)
    elo = elo_from_pentanomial([0, 0, 1, 2, 0])
    assert point == {"games": 6, "elo": elo["estimate"], "low": elo["low"], "high": elo["high"],
                     "llr": sprt.llr_pentanomial([0, 0, 1, 2, 0])}
    point = timeline_point(points[:1], [], sprt)
    assert point["games"] == 1 and point["llr"] == sprt.llr_trinomial(1, 0, 0)
    point = timeline_point(points, None, None)
    assert point["llr"] is None and point["elo"] == elo_from_trinomial(3, 2, 1)["estimate"]
