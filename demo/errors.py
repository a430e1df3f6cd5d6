"""Named exceptions; the CLI turns each into a one-line message and an exit code."""
from __future__ import annotations

from dataclasses import dataclass

from plumbing.errors import NamedError


class DemoError(NamedError):
    """Base for every failure the user can fix (exit code 1)."""


@dataclass(frozen=True)
class ScriptProblem:
    """One problem in a demo script, located by line."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class ScriptError(DemoError):
    """The demo script is invalid; carries every problem found, each with its line."""

    def __init__(self, path: str, problems: list[ScriptProblem]):
        self.path = path
        self.problems = sorted(problems, key=lambda p: p.line)
        lines = "\n".join(f"  {path}:{p.line}: {p.message}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in {path}:\n{lines}")


class ToolMissing(DemoError):
    """A required program is not installed."""


class FFmpegError(DemoError):
    """ffmpeg (or ffprobe) exited non-zero; the message carries its last stderr lines."""


class VoiceError(DemoError):
    """Narration could not be synthesized; the message says what to fix."""


class RecordError(DemoError):
    """The browser recording failed (a selector was not found, navigation failed...)."""


class SyncError(DemoError):
    """Measured speech onsets miss their beats by more than the target."""


class OverrunError(DemoError):
    """A phrase is longer than the time its beat holds before the next one."""


class ComposeError(DemoError):
    """A recording directory cannot be re-composed (missing files, steps changed)."""
