#!/usr/bin/env python3
"""Sprint suspects: read `pm export` (JSONL on stdin) and list the tasks a ceo should look at.

    pm export | python3 suspects.py [--stale-days 3] [--now 2026-12-01T12:00:00Z] [--json]

It proposes, never decides: every line names the task, the suspicion and the evidence. Needs
only the standard library, so it runs wherever the skill is installed."""
from __future__ import annotations

import argparse
import html
import json
import re
import sys
from datetime import datetime, timedelta, timezone

FINISHED = {"done", "wontfix"}
DISPROVED = re.compile(r"premise disproved|not a bug|works as intended|as designed|"
                       r"could not reproduce|cannot reproduce|can't reproduce|"
                       r"correct behaviou?r", re.I)


def _time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment or "")).split())


def _words(title: str) -> frozenset:
    return frozenset(w for w in re.findall(r"[a-z0-9]+", title.lower()) if len(w) > 2)


def suspects(tasks: list[dict], now: datetime, stale_days: float) -> list[dict]:
    by_id = {t["id"]: t for t in tasks}
    live = [t for t in tasks if t["status"] not in FINISHED]
    out = []

    def add(task, kind, evidence):
        out.append({"id": task["id"], "title": task["title"], "sprint": task.get("sprint"),
                    "suspect": kind, "evidence": evidence})

    for t in live:
        for entry in reversed(t.get("log") or []):
            text = _plain(entry["html"])
            if DISPROVED.search(text):
                add(t, "premise disproved", f"{entry['time']} {entry['who']}: {text[:120]}")
                break
        if t["status"] == "in-progress":
            last = max([_time(t["updated"])] + [_time(e["time"]) for e in t.get("log") or []])
            if now - last > timedelta(days=stale_days):
                add(t, "stale", f"in progress ({t.get('owner') or 'no owner'}), nothing since "
                    f"{last:%Y-%m-%d}")
        if not _plain(t.get("verification", "")):
            add(t, "no verification plan", "its verification section is empty")
        open_blockers = [l["id"] for l in t.get("links") or [] if l["type"] == "blocked-by"
                         and by_id.get(l["id"], {}).get("status") not in FINISHED]
        outside = [b for b in open_blockers if by_id.get(b, {}).get("sprint") is None]
        if t.get("sprint") is not None and outside:
            add(t, "blocked from outside the sprint",
                "waits for " + ", ".join(f"#{b}" for b in outside))
    for t in tasks:
        if t["status"] in FINISHED and t.get("sprint") is not None:
            add(t, "finished but ranked", f"{t['status']}, still at sprint rank {t['sprint']}")
    seen = []
    for t in live:
        words = _words(t["title"])
        for other in seen:
            common = words & other[1]
            if words and len(common) / len(words | other[1]) >= 0.6:
                add(t, "duplicate?", f"title close to #{other[0]['id']} {other[0]['title']!r}")
        seen.append((t, words))
    for cycle in _cycles(live):
        first = by_id[cycle[0]]
        add(first, "dependency cycle", " -> ".join(f"#{i}" for i in cycle + [cycle[0]]))
    return out


def _cycles(live: list[dict]) -> list[list[int]]:
    """Each dependency cycle once (blocked-by edges among unfinished tasks)."""
    ids = {t["id"] for t in live}
    edges = {t["id"]: sorted(l["id"] for l in t.get("links") or []
                             if l["type"] == "blocked-by" and l["id"] in ids) for t in live}
    found, reported = [], set()
    for start in sorted(edges):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in edges.get(node, []):
                if nxt == start and frozenset(path) not in reported:
                    reported.add(frozenset(path))
                    found.append(path)
                elif nxt not in path and nxt > start:
                    stack.append((nxt, path + [nxt]))
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stale-days", type=float, default=3.0)
    parser.add_argument("--now", help="the time to judge staleness at (default: now, UTC)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    now = _time(args.now) if args.now else datetime.now(timezone.utc)
    tasks = [json.loads(line) for line in sys.stdin if line.strip()]
    found = suspects(tasks, now, args.stale_days)
    if args.json:
        print(json.dumps(found))
    else:
        for s in found:
            rank = f" [sprint {s['sprint']}]" if s["sprint"] is not None else ""
            print(f"#{s['id']}{rank} {s['suspect']}: {s['evidence']}  ({s['title']})")
        print(f"{len(found)} suspect(s) in {len(tasks)} task(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
