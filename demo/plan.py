"""The validated plan of a demo: the director calls a script made, in order, with their lines.

Pure data, no I/O. `Plan.steps` is what the recorder replays; `Plan.beats` are the narrated moments.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Step:
    kind: str
    args: dict
    line: int

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.args.items() if k != "say")
        return f"{self.kind}({shown})"


@dataclass(frozen=True)
class Beat:
    """A narrated moment: `index` is its position among the plan's steps."""

    name: str
    say: str
    line: int
    index: int


@dataclass
class Plan:
    script: str
    steps: list[Step] = field(default_factory=list)

    @property
    def beats(self) -> list[Beat]:
        return [
            Beat(s.args["name"], s.args.get("say", ""), s.line, i)
            for i, s in enumerate(self.steps)
            if s.kind == "beat"
        ]

    def action_signature(self) -> list[dict]:
        """Everything but the narration text: two plans with equal signatures record the same video."""
        out = []
        for s in self.steps:
            args = {k: v for k, v in s.args.items() if k != "say"}
            out.append({"kind": s.kind, "args": args})
        return out

    def to_json(self) -> str:
        return json.dumps({"script": self.script, "steps": [asdict(s) for s in self.steps]}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "Plan":
        data = json.loads(text)
        return cls(data["script"], [Step(s["kind"], s["args"], s["line"]) for s in data["steps"]])
