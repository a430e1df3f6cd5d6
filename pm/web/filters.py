"""Query-string filters (status, priority, kind, sprint, text): parsed and validated, no I/O."""
from dataclasses import dataclass, field
from typing import Iterable, Mapping

FILTER_FIELDS = ("status", "priority", "kind", "sprint", "text")
_YES = {"1", "yes", "true", "on", "in"}
_NO = {"0", "no", "false", "off", "out"}


class BadFilter(ValueError):
    """A query-string filter holds a value pm does not know."""

    def __init__(self, name: str, value: str, allowed: Iterable[str]):
        self.name, self.value, self.allowed = name, value, list(allowed)
        super().__init__(f"unknown {name} {value!r}: use one of {', '.join(self.allowed)}")


@dataclass(frozen=True)
class Filters:
    status: frozenset = field(default_factory=frozenset)
    priority: frozenset = field(default_factory=frozenset)
    kind: frozenset = field(default_factory=frozenset)
    sprint: bool | None = None
    text: str = ""

    @property
    def active(self) -> bool:
        return bool(self.status or self.priority or self.kind or self.sprint is not None or self.text)

    def matches(self, task) -> bool:
        """True when the task passes every field filter (text is matched by the tracker)."""
        in_sprint = task.sprint_rank is not None
        return (
            (not self.status or task.status in self.status)
            and (not self.priority or task.priority in self.priority)
            and (not self.kind or task.kind in self.kind)
            and (self.sprint is None or self.sprint == in_sprint)
        )

    def query(self) -> dict:
        """The filters as query-string arguments (for links that keep them)."""
        args = {name: ",".join(sorted(getattr(self, name))) for name in ("status", "priority", "kind")}
        if self.sprint is not None:
            args["sprint"] = "yes" if self.sprint else "no"
        args["text"] = self.text
        return {name: value for name, value in args.items() if value}


def _values(args: Mapping, name: str) -> list[str]:
    getlist = getattr(args, "getlist", None)
    raw = getlist(name) if getlist else ([args[name]] if name in args else [])
    return [part.strip() for item in raw for part in item.split(",") if part.strip()]


def _choice(name: str, values: list[str], allowed: Iterable[str], fold) -> frozenset:
    by_folded = {fold(option): option for option in allowed}
    chosen = set()
    for value in values:
        if fold(value) not in by_folded:
            raise BadFilter(name, value, by_folded.values())
        chosen.add(by_folded[fold(value)])
    return frozenset(chosen)


def parse_filters(args: Mapping, statuses: Iterable[str], priorities: Iterable[str],
                  kinds: Iterable[str] | None = None) -> Filters:
    """Read filters from request args; raise BadFilter naming the first unknown value.

    `kinds=None` accepts any kind (the tracker does not restrict them)."""
    kind_values = _values(args, "kind")
    sprint_values = _values(args, "sprint")
    sprint = None
    if sprint_values:
        word = sprint_values[-1].lower()
        if word not in _YES | _NO:
            raise BadFilter("sprint", sprint_values[-1], ["yes", "no"])
        sprint = word in _YES
    return Filters(
        status=_choice("status", _values(args, "status"), statuses, str.lower),
        priority=_choice("priority", _values(args, "priority"), priorities, str.upper),
        kind=(_choice("kind", kind_values, kinds, str.lower) if kinds is not None
              else frozenset(kind_values)),
        sprint=sprint,
        text=(args.get("text") or args.get("q") or "").strip(),
    )
