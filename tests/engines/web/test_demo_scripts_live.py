"""The arcade's demo scripts' steps (Go, Gomoku, Quoridor) run in real Chromium against the arcade behind
nginx under /task-x/ (as the tour records them): every selector is found, every wait is met, and
at the narrated beats the page shows what the narration says. No video is made."""
from pathlib import Path

import pytest

from demo.script import load_plan

ROOT = Path(__file__).resolve().parents[3]
# Beat -> (selector, text it must contain) at that moment.
CHECKS = {
    "go": {
        "illegal": ("#message", "illegal"),
        "analysis": ("#candidates tr", ""),
        "ownership": ("#board .heat", ""),
        "branch": ("#branches [data-branch-ply]", ""),
    },
    "gomoku": {
        "illegal": ("#message", "occupied"),
        "forbidden": ('#board [data-forbidden="h8"]', ""),
        "refused": ("#message", "forbidden for black (double-three)"),
        "threats": ("#board [data-threat]", ""),
        "proven": ("#proven", "black wins in"),
        "branch": ("#branches [data-variation]", ""),
    },
    "quoridor": {
        "step": ('#board [data-pawn="0"][data-at="e2"]', ""),
        "illegal-preview": ('#board [data-wall="e7h"][data-legal="0"]', ""),
        "refused": ("#message", "overlaps a wall"),
        "paths": ("#board [data-path]", ""),
        "analysis": ("#candidates tr", ""),
        "branch": ("#branches [data-variation]", ""),
    },
}


def run_step(page, step):
    args = step.args
    if step.kind == "goto":
        page.goto(args["url"])
    elif step.kind == "click":
        page.click(args["selector"])
    elif step.kind == "move_to":
        page.hover(args["selector"])
    elif step.kind == "press":
        page.keyboard.press(args["key"])
    elif step.kind == "wait_for":
        page.wait_for_selector(args["selector"], timeout=args["timeout"] * 1000)
    elif step.kind in ("settle", "pause"):
        page.wait_for_timeout(1000 * (args.get("quiet") or args.get("seconds")))
    elif step.kind != "beat":
        raise AssertionError(f"the test does not replay {step.kind} steps yet")


@pytest.mark.parametrize("game", sorted(CHECKS))
def test_demo_steps_run_and_show_what_they_narrate(page, proxied_url, game):
    plan = load_plan(ROOT / f"engines/demos/{game}.py", base_url=proxied_url)
    seen = []
    for step in plan.steps:
        run_step(page, step)
        if step.kind == "beat" and step.args["name"] in CHECKS[game]:
            selector, text = CHECKS[game][step.args["name"]]
            locator = page.locator(selector).first
            assert locator.count() == 1, f"beat {step.args['name']}: nothing matches {selector}"
            assert text in (locator.text_content() or ""), f"beat {step.args['name']}"
            seen.append(step.args["name"])
        if step.kind == "beat" and step.args["name"] == "ai-vs-ai":
            moves = page.get_attribute(f"#{game}-app", "data-moves").split()
            assert len(moves) >= 2, "AI vs AI played nothing during the pause"
    assert seen == list(CHECKS[game])
