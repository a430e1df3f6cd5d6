"""The operating manual: AGENTS.md (read by Codex, Cursor, Gemini CLI and others) holding the
shop's standing rules, and CLAUDE.md, which imports it (`@AGENTS.md`) for Claude Code, so the
rules live in one file.

Each rule is a heading under the rules marker, the mistake it came from, and optionally a
command that fails when that mistake recurs:

    ### R3. Nothing merges without `instances approve` after a look
    - Because: a branch merged on its diff alone showed a blank page under /task-7/.
    - Check: `! git log --merges --format=%s main | grep -v 'approved with instances'`

`init` never clobbers: it writes what is missing, merges the template's rules a manual lacks
(by title), and refuses with the reason when it cannot tell what a file holds."""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from plumbing.files import atomic_write
from plumbing.lock import locked
from skills.errors import ManualRefused

TEMPLATES = Path(__file__).resolve().parent / "templates"
MANUAL = "AGENTS.md"
CLAUDE = "CLAUDE.md"
IMPORT_LINE = "@AGENTS.md"
MARKER = "<!-- skills:rules -->"
_RULE = re.compile(r"^### R(\d+)\. (.+?)\s*$")
_BECAUSE = re.compile(r"^- Because: (.+?)\s*$")
_CHECK = re.compile(r"^- Check: `([^`]+)`\s*$")


@dataclass
class Rule:
    number: int
    title: str
    because: str = ""
    check: str | None = None
    line: int = 0

    def render(self) -> str:
        text = f"### R{self.number}. {self.title}\n- Because: {self.because}\n"
        return text + (f"- Check: `{self.check}`\n" if self.check else "")


def template() -> str:
    return (TEMPLATES / MANUAL).read_text(encoding="utf-8")


def _section(lines: list[str]) -> tuple[int, int]:
    """(index of the marker line, index after the rules section's last line)."""
    marks = [i for i, line in enumerate(lines) if line.strip() == MARKER]
    if not marks:
        raise ManualRefused(f"no {MARKER} line: the manual has no rules section to add to "
                            "(skills manual init adds one)")
    if len(marks) > 1:
        raise ManualRefused(f"{MARKER} appears {len(marks)} times (lines "
                            f"{', '.join(str(m + 1) for m in marks)}); keep one")
    end = next((i for i in range(marks[0] + 1, len(lines))
                if lines[i].startswith("## ") or lines[i].startswith("# ")), len(lines))
    return marks[0], end


def parse(text: str) -> list[Rule]:
    """The rules of a manual, in order; ManualRefused names a malformed one."""
    lines = text.splitlines()
    start, end = _section(lines)
    rules: list[Rule] = []
    for i in range(start + 1, end):
        line = lines[i]
        m = _RULE.match(line)
        if m:
            rules.append(Rule(int(m.group(1)), m.group(2), line=i + 1))
            continue
        if not rules:
            continue
        if (b := _BECAUSE.match(line)):
            rules[-1].because = b.group(1)
        elif (c := _CHECK.match(line)):
            rules[-1].check = c.group(1)
        elif line.startswith("- Check:"):
            raise ManualRefused(f"line {i + 1}: a Check must be one command in backticks")
    seen = set()
    for rule in rules:
        if rule.number in seen:
            raise ManualRefused(f"line {rule.line}: rule R{rule.number} appears twice")
        seen.add(rule.number)
        if not rule.because:
            raise ManualRefused(f"line {rule.line}: rule R{rule.number} has no '- Because:' "
                                "line (the mistake it came from)")
    return rules


def _insert(text: str, rules: list[Rule]) -> str:
    """TEXT with RULES appended at the end of its rules section (one blank line apart)."""
    lines = text.splitlines(keepends=True)
    start, end = _section([line.rstrip("\r\n") for line in lines])
    cut = end
    while cut > start + 1 and not lines[cut - 1].strip():
        cut -= 1
    head = "".join(lines[:cut])
    head += "" if head.endswith("\n") else "\n"
    tail = "".join(lines[end:])
    return head + "".join("\n" + r.render() for r in rules) + ("\n" + tail if tail else "")


def _lock(manual: Path):
    key = hashlib.sha256(str(manual.resolve()).encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"skills-manual-{key}.lock"
    return locked(path, holder=f"pid {os.getpid()} skills", timeout=30, what="manual lock")


def _read(path: Path) -> str | None:
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_symlink() or not path.is_file():
        raise ManualRefused(f"{path} is not a regular file (a link or a folder); nothing "
                            "written: point at the real file or remove it")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ManualRefused(f"{path} is not UTF-8 text; nothing written")


def init(repo: Path, dry_run: bool = False) -> list[dict]:
    """Write or merge the manual into REPO; [{"file", "action", "rules"}] of what was done.

    AGENTS.md missing: the template. Present with a rules section: the template's rules
    whose titles it lacks are appended, renumbered after its own. Present without one: the
    template's rules section is appended below its text. CLAUDE.md missing: the import stub;
    present without the import line: the line is appended. Every file is checked before
    either is written, so a refusal writes nothing."""
    repo = Path(repo)
    if not repo.is_dir():
        raise ManualRefused(f"{repo} is not a folder")
    manual, claude = repo / MANUAL, repo / CLAUDE
    with _lock(manual):
        current, claude_text = _read(manual), _read(claude)
        plan: list[tuple[Path, str, str, list]] = []
        if current is None:
            plan.append((manual, template(), "created", [r.title for r in parse(template())]))
        else:
            if MARKER in current:
                have = parse(current)
                titles = {r.title.casefold() for r in have}
                missing = [r for r in parse(template()) if r.title.casefold() not in titles]
                nxt = max((r.number for r in have), default=0) + 1
                for offset, rule in enumerate(missing):
                    rule.number = nxt + offset
                if missing:
                    plan.append((manual, _insert(current, missing), "merged",
                                 [r.title for r in missing]))
            else:
                rules = template()[template().index("## Rules"):]
                sep = "" if current.endswith("\n\n") else ("\n" if current.endswith("\n") else "\n\n")
                merged = current + sep + rules
                parse(merged)
                plan.append((manual, merged, "appended rules section",
                             [r.title for r in parse(merged)]))
        if claude_text is None:
            plan.append((claude, (TEMPLATES / CLAUDE).read_text(encoding="utf-8"), "created", []))
        elif not any(line.strip() == IMPORT_LINE for line in claude_text.splitlines()):
            sep = "" if claude_text.endswith("\n") or not claude_text else "\n"
            plan.append((claude, claude_text + sep + f"\n{IMPORT_LINE}\n", "import appended", []))
        if not dry_run:
            for path, text, _action, _rules in plan:
                atomic_write(path, text)
    done = [{"file": str(p), "action": a, "rules": r} for p, _t, a, r in plan]
    return done or [{"file": str(manual), "action": "up to date", "rules": []}]


def add_rule(manual: Path, text: str, because: str, check: str | None = None) -> Rule:
    """Append a rule (numbered after the last) to MANUAL's rules section; the rule."""
    title, because = " ".join(text.split()), " ".join(because.split())
    if not title:
        raise ManualRefused("a rule needs its text")
    if not because:
        raise ManualRefused("a rule needs --because: the mistake it came from")
    if check is not None:
        check = check.strip()
        if not check or "`" in check or "\n" in check:
            raise ManualRefused("--check must be one line without backticks (a shell command "
                                "that exits non-zero when the mistake recurs)")
    manual = Path(manual)
    with _lock(manual):
        current = _read(manual)
        if current is None:
            raise ManualRefused(f"{manual} does not exist; skills manual init writes it")
        rules = parse(current)
        if any(r.title.casefold() == title.casefold() for r in rules):
            raise ManualRefused(f"{manual} already has the rule {title!r}")
        rule = Rule(max((r.number for r in rules), default=0) + 1, title, because, check)
        atomic_write(manual, _insert(current, [rule]))
    return rule


@dataclass
class CheckResult:
    rule: Rule
    exit_code: int
    seconds: float
    output: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


def run_checks(manual: Path, cwd: Path | None = None, timeout: float = 120) -> list[CheckResult]:
    """Run every rule's check with bash in CWD (default: the manual's folder)."""
    manual = Path(manual)
    text = _read(manual)
    if text is None:
        raise ManualRefused(f"{manual} does not exist; skills manual init writes it")
    results = []
    for rule in parse(text):
        if not rule.check:
            continue
        began = time.monotonic()
        try:
            proc = subprocess.run(["bash", "-c", rule.check], cwd=cwd or manual.parent,
                                  capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
            code, output = proc.returncode, (proc.stdout + proc.stderr)
        except subprocess.TimeoutExpired:
            code, output = 124, f"timed out after {timeout:g} s"
        results.append(CheckResult(rule, code, time.monotonic() - began, output[-2000:]))
    return results


def find_manual(start: Path | None = None) -> Path:
    """AGENTS.md at the root of the git work tree holding START (else START itself)."""
    start = Path(start or os.getcwd())
    proc = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=start,
                          capture_output=True, text=True)
    root = Path(proc.stdout.strip()) if proc.returncode == 0 else start
    return root / MANUAL
