"""Unified diffs turned into typed lines, so templates can colour them without parsing."""
from dataclasses import dataclass


@dataclass(frozen=True)
class DiffLine:
    kind: str  # "file", "hunk", "add", "del", "ctx" or "meta"
    text: str


def diff_lines(diff: str) -> list[DiffLine]:
    """Classify each line of a unified diff (as printed by `git show`/`git log -p`)."""
    lines: list[DiffLine] = []
    in_header = False
    for raw in (diff or "").splitlines():
        if raw.startswith("diff --git "):
            in_header = True
            paths = raw[len("diff --git "):]
            # "a/tasks/x.html b/tasks/x.html" -> "tasks/x.html" (the new name, if renamed)
            lines.append(DiffLine("file", paths.split(" b/", 1)[1] if " b/" in paths else paths))
        elif raw.startswith("@@"):
            in_header = False
            lines.append(DiffLine("hunk", raw))
        elif in_header:
            # index, mode, ---/+++ lines: noise for a reader; "new file" etc. is worth keeping.
            if not raw.startswith(("index ", "--- ", "+++ ")):
                lines.append(DiffLine("meta", raw))
        elif raw.startswith("+"):
            lines.append(DiffLine("add", raw[1:]))
        elif raw.startswith("-"):
            lines.append(DiffLine("del", raw[1:]))
        elif raw.startswith("\\"):
            lines.append(DiffLine("meta", raw))
        else:
            lines.append(DiffLine("ctx", raw[1:] if raw.startswith(" ") else raw))
    return lines


def diff_stats(lines: list[DiffLine]) -> tuple[int, int]:
    """(added, removed) line counts."""
    return sum(line.kind == "add" for line in lines), sum(line.kind == "del" for line in lines)
