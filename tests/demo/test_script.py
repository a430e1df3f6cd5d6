"""Script validation: every problem reported with its line, before any browser starts."""
import textwrap

import pytest
from click.testing import CliRunner

from demo.cli import main
from demo.errors import ScriptError
from demo.script import load_plan


def write(tmp_path, body, name="demo_script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def problems(path, base_url="http://127.0.0.1:9/"):
    with pytest.raises(ScriptError) as info:
        load_plan(path, base_url)
    return [(p.line, p.message) for p in info.value.problems]


def test_valid_script_becomes_a_plan_with_lines(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.goto("/app")
            d.beat("open", say="  Hello   there. ")
            d.click("#go")
            d.type("#name", "Ada", cps=20)
            d.beat("typed")
    """)
    plan = load_plan(path, "http://127.0.0.1:9/base/")
    assert [(s.kind, s.line) for s in plan.steps] == [
        ("goto", 2), ("beat", 3), ("click", 4), ("type", 5), ("beat", 6)]
    assert plan.steps[0].args == {"url": "http://127.0.0.1:9/base/app"}
    assert [(b.name, b.say) for b in plan.beats] == [("open", "Hello there."), ("typed", "")]


def test_every_error_is_reported_with_its_line(tmp_path):
    path = write(tmp_path, """\
        import time

        def run(d):
            d.goto("/app")
            d.beat("intro", say="Hi")
            d.click("")
            d.hover("#x")
            time.sleep(1)
            d.type("#name", "", cps=500)
            d.beat("intro", say="again")
    """)
    found = problems(path)
    lines = [line for line, _ in found]
    assert lines == [6, 7, 8, 9, 9]
    text = " | ".join(m for _, m in found)
    assert "click() needs a CSS selector" in text
    assert "unknown director call d.hover()" in text and "move_to" in text
    assert "use d.pause(seconds)" in text
    assert "type() needs the text" in text and "cps must be" in text


def test_plan_level_checks_run_when_calls_are_valid(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.goto("/a")
            d.beat("one", say="x")
            d.beat("one", say="y")
    """)
    assert problems(path) == [(4, "beat 'one' already used on line 3")]


def test_missing_goto_and_beats(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.click("#x")
    """)
    msgs = [m for _, m in problems(path)]
    assert "a demo must start with d.goto(url)" in msgs
    assert any("no d.beat" in m for m in msgs)


def test_syntax_error_and_missing_run(tmp_path):
    bad = write(tmp_path, "def run(d):\n    d.goto('/x'\n", "bad.py")
    (line, msg), = problems(bad)
    assert msg.startswith("syntax error") and line in (2, 3)
    none = write(tmp_path, "x = 1\n", "none.py")
    assert problems(none) == [(1, "the script must define `def run(d):` (d is the director)")]


def test_exception_in_script_reported_at_its_line(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.goto("/a")
            items = []
            d.beat(items[3], say="x")
    """)
    (line, msg), = problems(path)
    assert line == 4 and msg.startswith("IndexError")


def test_relative_url_defaults_to_the_script_folder(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.goto("site/index.html")
            d.beat("open", say="x")
            d.goto("ftp://example.invalid/")
    """)
    found = problems(path, base_url=None)
    assert found == [(4, "goto('ftp://example.invalid/'): only http, https and file URLs can be recorded")]


def test_record_reports_script_errors_before_any_browser(tmp_path, monkeypatch):
    import demo.recorder

    def no_browser(*a, **k):
        raise AssertionError("the browser must not start for an invalid script")
    monkeypatch.setattr(demo.recorder, "record", no_browser)
    path = write(tmp_path, """\
        def run(d):
            d.goto("/a")
            d.click(42)
            d.beat("b c", say="x")
    """)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["record", str(path), "--out", str(out), "--base-url", "http://127.0.0.1:9/"])
    assert result.exit_code == 1
    assert f"{path}:3: click() needs a CSS selector string" in result.output
    assert f"{path}:4: beat name 'b c'" in result.output
    assert not (out / ".demo" / "frames").exists()


def test_plan_command_lists_steps_and_json(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.goto("http://127.0.0.1:9/")
            d.beat("open", say="Hello")
    """)
    result = CliRunner().invoke(main, ["plan", str(path), "--json"])
    assert result.exit_code == 0
    assert '"kind":"beat"' in result.output and '"line":3' in result.output
    text = CliRunner().invoke(main, ["plan", str(path)])
    assert text.exit_code == 0 and '3  beat open  say "Hello"' in text.output


def test_the_example_script_is_valid_and_points_at_its_page():
    from pathlib import Path
    from urllib.parse import urlsplit

    import demo
    example = Path(demo.__file__).parent / "examples" / "tally.py"
    plan = load_plan(example)
    page = Path(urlsplit(plan.steps[0].args["url"]).path)
    assert page.is_file() and page.name == "index.html"
    assert [b.name for b in plan.beats] == ["open", "add", "greet", "end"]


def test_every_command_has_help():
    for command in ("record", "compose", "check", "plan"):
        result = CliRunner().invoke(main, [command, "--help"], prog_name="demo")
        assert result.exit_code == 0 and f"Usage: demo {command} [OPTIONS]" in result.output


def test_usage_errors_exit_2(tmp_path):
    result = CliRunner().invoke(main, ["record", str(tmp_path / "nope.py"), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "does not exist" in result.output


def test_an_empty_goto_is_the_base_url_and_needs_one(tmp_path):
    path = write(tmp_path, """\
        def run(d):
            d.goto("")
            d.beat("open", say="The review instance.")
    """)
    plan = load_plan(path, "http://127.0.0.1:9/task-3/")
    assert plan.steps[0].args == {"url": "http://127.0.0.1:9/task-3/"}
    assert problems(path, base_url=None) == [
        (2, 'goto(""): an empty URL means the --base-url, and none was given; pass --base-url '
            'or a path such as d.goto("index.html")')]
