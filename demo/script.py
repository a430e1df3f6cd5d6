"""Load a demo script and turn it into a validated Plan, before any browser starts.

A demo script is Python that defines `run(d)`; `d` is the director. Here the script runs against a
dry director that only records calls (with the script line of each), then static checks (ast) and
plan checks collect every problem; all are reported together, each with its line.
"""
from __future__ import annotations

import ast
import inspect
import re
import traceback
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from demo.errors import ScriptError, ScriptProblem
from demo.plan import Plan, Step

BEAT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Calls that would stall the recording: with Playwright's sync API a sleeping thread gets no frames.
BLOCKING_CALLS = {("time", "sleep"): "use d.pause(seconds): time.sleep stops frame delivery"}


class DryDirector:
    """The director API as the script sees it; records each call with the script line."""

    def __init__(self, script_path: str, base_url: str | None):
        self._path = script_path
        self._base_url = base_url
        self.steps: list[Step] = []
        self.problems: list[ScriptProblem] = []

    # --- the director API (keep in sync with demo.recorder.LiveDirector) ---
    def goto(self, url: str) -> None:
        """Open `url` (absolute, or relative to --base-url; "" is the base URL itself) and wait until
        it has painted and settled."""
        if not self._check(isinstance(url, str), "goto() needs a URL string"):
            return
        if url == "" and not self._base_url:
            self._problem('goto(""): an empty URL means the --base-url, and none was given; pass --base-url '
                          "or a path such as d.goto(\"index.html\")")
            return
        resolved = self._resolve(url)
        if resolved:
            self._add("goto", url=resolved)

    def move_to(self, selector: str) -> None:
        """Glide the drawn cursor to the centre of the element."""
        if self._selector(selector, "move_to"):
            self._add("move_to", selector=selector)

    def click(self, selector: str) -> None:
        """Glide to the element and click it."""
        if self._selector(selector, "click"):
            self._add("click", selector=selector)

    def type(self, selector: str, text: str, cps: float = 12.0) -> None:
        """Click into the element and type `text` at a human pace (`cps` characters a second)."""
        ok = self._selector(selector, "type")
        ok &= self._check(isinstance(text, str) and text != "", "type() needs the text to type")
        ok &= self._check(_number(cps) and 1 <= cps <= 50, "type() cps must be a number from 1 to 50")
        if ok:
            self._add("type", selector=selector, text=text, cps=float(cps))

    def press(self, key: str) -> None:
        """Press one key (Playwright key name, e.g. "Enter")."""
        if self._check(isinstance(key, str) and key, "press() needs a key name such as 'Enter'"):
            self._add("press", key=key)

    def scroll(self, y: int | None = None, selector: str | None = None) -> None:
        """Scroll smoothly by `y` pixels, or until the element is in view."""
        if not self._check((y is None) != (selector is None), "scroll() takes either y=PIXELS or selector=..."):
            return
        if selector is not None:
            if self._selector(selector, "scroll"):
                self._add("scroll", selector=selector)
        elif self._check(_number(y) and y != 0, "scroll(y=...) must be a non-zero number of pixels"):
            self._add("scroll", y=int(y))

    def wait_for(self, selector: str, timeout: float = 10.0) -> None:
        """Wait until the element is visible (at most `timeout` seconds)."""
        ok = self._selector(selector, "wait_for")
        ok &= self._check(_number(timeout) and 0 < timeout <= 120, "wait_for() timeout must be 0-120 s")
        if ok:
            self._add("wait_for", selector=selector, timeout=float(timeout))

    def settle(self, quiet: float = 0.3) -> None:
        """Wait until nothing on the page has changed for `quiet` seconds."""
        if self._check(_number(quiet) and 0 < quiet <= 5, "settle() quiet must be 0-5 s"):
            self._add("settle", quiet=float(quiet))

    def pause(self, seconds: float) -> None:
        """Hold the picture for `seconds`."""
        if self._check(_number(seconds) and 0 < seconds <= 60, "pause() seconds must be 0-60"):
            self._add("pause", seconds=float(seconds))

    def beat(self, name: str, say: str = "") -> None:
        """Mark this moment (the visible change of the step before) and narrate `say` from it."""
        ok = self._check(isinstance(name, str) and bool(BEAT_NAME.match(name)),
                         f"beat name {name!r} must be 1-64 letters, digits, '-', '_' or '.'")
        ok &= self._check(isinstance(say, str), "beat() say must be a string")
        if ok:
            self._add("beat", name=name, say=" ".join(say.split()))

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        known = ", ".join(n for n in API if n != name)
        self._problem(f"unknown director call d.{name}(); the director has: {known}")
        return lambda *a, **k: None

    # --- recording helpers ---
    def _line(self) -> int:
        frame = inspect.currentframe()
        while frame is not None:
            if frame.f_code.co_filename == self._path:
                return frame.f_lineno
            frame = frame.f_back
        return 0

    def _problem(self, message: str) -> None:
        self.problems.append(ScriptProblem(self._line(), message))

    def _check(self, ok, message: str) -> bool:
        if not ok:
            self._problem(message)
        return bool(ok)

    def _selector(self, selector, verb: str) -> bool:
        return self._check(isinstance(selector, str) and selector.strip(), f"{verb}() needs a CSS selector string")

    def _resolve(self, url: str) -> str | None:
        if urlsplit(url).scheme in ("http", "https", "file"):
            return url
        if urlsplit(url).scheme:
            self._problem(f"goto({url!r}): only http, https and file URLs can be recorded")
            return None
        if not self._base_url:  # relative to the script's own folder
            return urljoin(Path(self._path).parent.as_uri() + "/", url)
        return urljoin(self._base_url.rstrip("/") + "/", url.lstrip("/"))

    def _add(self, kind: str, **args) -> None:
        self.steps.append(Step(kind, args, self._line()))


API = [n for n in vars(DryDirector) if not n.startswith("_")]


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def static_problems(source: str, path: str) -> list[ScriptProblem]:
    """Checks that need no execution: syntax, a `run(d)` function, no blocking sleeps."""
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return [ScriptProblem(exc.lineno or 1, f"syntax error: {exc.msg}")]
    problems = []
    runs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run"]
    if not runs:
        problems.append(ScriptProblem(1, "the script must define `def run(d):` (d is the director)"))
    elif len(runs[0].args.args) != 1:
        problems.append(ScriptProblem(runs[0].lineno, "run() must take exactly one argument, the director"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and (owner.id, node.func.attr) in BLOCKING_CALLS:
                problems.append(ScriptProblem(node.lineno, BLOCKING_CALLS[(owner.id, node.func.attr)]))
    return problems


def plan_problems(plan: Plan) -> list[ScriptProblem]:
    """Checks on the whole sequence of calls."""
    problems = []
    if not plan.steps or plan.steps[0].kind != "goto":
        line = plan.steps[0].line if plan.steps else 1
        problems.append(ScriptProblem(line, "a demo must start with d.goto(url)"))
    beats = plan.beats
    if not beats:
        problems.append(ScriptProblem(1, "the demo has no d.beat(...): nothing to narrate or mark"))
    seen: dict[str, int] = {}
    for beat in beats:
        if beat.name in seen:
            problems.append(ScriptProblem(beat.line, f"beat {beat.name!r} already used on line {seen[beat.name]}"))
        seen.setdefault(beat.name, beat.line)
    return problems


def load_plan(path: str | Path, base_url: str | None = None) -> Plan:
    """Read, check and dry-run the script; raise ScriptError listing every problem with its line."""
    path = str(Path(path).resolve())
    try:
        source = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(path, [ScriptProblem(0, f"cannot read the script: {exc.strerror}")]) from None
    problems = static_problems(source, path)
    if any(p.message.startswith(("syntax error", "the script must define", "run() must take")) for p in problems):
        raise ScriptError(path, problems)
    director = DryDirector(path, base_url)
    namespace = {"__name__": "demo_script", "__file__": path}
    try:
        exec(compile(source, path, "exec"), namespace)  # noqa: S102 - the user's own demo script
        namespace["run"](director)
    except Exception as exc:  # the script's own bug: report it at its line
        director.problems.append(ScriptProblem(_script_line(exc, path), f"{type(exc).__name__}: {exc}"))
    plan = Plan(path, director.steps)
    problems += director.problems
    if not director.problems:
        problems += plan_problems(plan)
    if problems:
        raise ScriptError(path, problems)
    return plan


def _script_line(exc: BaseException, path: str) -> int:
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    return lines[-1] if lines else 0
