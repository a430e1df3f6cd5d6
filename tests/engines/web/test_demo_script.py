"""The arcade's narrated demo scripts pass the demo tool's validation (no browser)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DEMO = Path(sys.executable).with_name("demo")
BEATS = {
    "go": ("board", "reply", "illegal", "analysis", "ownership", "timeline", "branch", "ai-vs-ai"),
    "gomoku": ("board", "reply", "illegal", "forbidden", "refused", "threats", "proven", "branch",
               "ai-vs-ai", "end"),
    "quoridor": ("board", "step", "preview", "illegal-preview", "refused", "paths", "analysis",
                 "branch", "ai-vs-ai", "end"),
}


@pytest.mark.parametrize("game", sorted(BEATS))
def test_demo_script_validates_and_narrates_every_feature(game):
    result = subprocess.run(
        [str(DEMO), "plan", str(ROOT / f"engines/demos/{game}.py"), "--base-url", "http://127.0.0.1:9/task-x/"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    for beat in BEATS[game]:
        assert f"beat {beat} " in result.stdout
    assert f"goto(url='http://127.0.0.1:9/task-x/{game}?" in result.stdout  # stays under the prefix
