"""The Go page's narrated demo script passes the demo tool's validation (no browser)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEMO = Path(sys.executable).with_name("demo")


def test_go_demo_script_validates_and_narrates_every_feature():
    result = subprocess.run(
        [str(DEMO), "plan", str(ROOT / "engines/demos/go.py"), "--base-url", "http://127.0.0.1:9/task-x/"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    for beat in ("board", "reply", "illegal", "analysis", "ownership", "timeline", "branch", "ai-vs-ai"):
        assert f"beat {beat} " in result.stdout
    assert "goto(url='http://127.0.0.1:9/task-x/go?" in result.stdout  # stays under the prefix
