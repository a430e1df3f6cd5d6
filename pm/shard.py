"""pm doctor --shard: a flat tracker's task files moved into folders of a thousand
(tasks/<N // 1000>xxx/, see pm.layout), in one unit of work and one commit.

Every file moves to its folder with its links rewritten to the new relative places and its
overview link one level up; the marker says the tracker is sharded (so new tasks go into
folders); .gitattributes gains the merge driver for the overview's pages; the overview is
made again as overview.html plus one page per folder. Moves are written without an fsync
each and synced once before the commit: a crash before the commit is rolled back like any
other unit of work (the undo log), and 100,000 fsyncs would cost minutes.
"""
from __future__ import annotations

import os

from pm import reposetup, taskfile
from pm.layout import MARKER, TASKS, href, shard_name, task_names

MARKER_TEXT = ("pm tracker, format 2, sharded: tasks/<N // 1000>xxx/<id>-<slug>.html; "
               "see docs/pm-format.md\n")


def shard(work) -> list[str]:
    """Inside a unit of work: shard the tracker; what was done (empty if it already is)."""
    paths = work.paths
    if paths.sharded:
        return []
    names = task_names(paths.tasks_dir)
    flat = {i: n for i, n in names.items() if "/" not in n}
    new = {i: shard_name(i, os.path.basename(n)) for i, n in names.items()}
    rels = []
    for task_id, name in sorted(flat.items()):
        doc = taskfile.parse(_read(os.path.join(paths.tasks_dir, name)), f"{TASKS}/{name}")
        doc.path = f"{TASKS}/{new[task_id]}"
        for index, (_kind, other, _old, _at) in enumerate(list(doc.links)):
            if other in new:
                doc.set_link_href(index, href(new[task_id], new[other]))
        doc.refresh_fields()
        os.makedirs(os.path.dirname(paths.path(doc.path)), exist_ok=True)
        work.create(doc.path, doc.to_text(), durable=False)
        work.remove(f"{TASKS}/{name}", durable=False)
        rels += [f"{TASKS}/{name}", doc.path]
    work.write(MARKER, MARKER_TEXT)
    reposetup.split_index(paths.root)
    missing = reposetup.missing_attributes(paths)
    if missing:
        attributes = _read(paths.path(".gitattributes"))
        work.write(".gitattributes", attributes + ("" if attributes.endswith("\n") or not attributes else "\n")
                   + "".join(missing))
    written = work.refresh_overview()
    os.sync()  # the moves, durable at once before the commit records them
    for stale in (paths.listing, paths.cache):  # the flat listing caches name the old places
        try:
            os.unlink(stale)
        except FileNotFoundError:
            pass
    work.commit(rels + [MARKER, ".gitattributes", *written],
                f"pm: shard tasks/ into folders of a thousand ({len(flat)} files moved)", overview=False)
    return [f"moved {len(flat)} task files into {len({n.split('/')[0] for n in new.values()})} folders "
            "of a thousand (tasks/<N // 1000>xxx/)", f"overview.html and {len(written) - 1} pages regenerated"]


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""
