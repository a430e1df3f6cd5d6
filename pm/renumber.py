"""Giving a task another number: its file moves to the new name with the new pm:id, and every
link that pointed at its old file follows it (links name their target by file, so a link to
another task that shares the old number stays where it was). Used by `pm doctor --renumber`
(after two clones merged) and by `pm sync` (before merging, on the side that has not pushed)."""
from __future__ import annotations

import os

from pm import taskfile
from pm.layout import TASKS, href, name_of


def renumber(work, doc: taskfile.Doc, new_id: int, others: dict[str, taskfile.Doc]) -> tuple[str, list[str]]:
    """Inside a unit of work: write DOC (a task) as task NEW_ID and remove its old file; the
    links of OTHERS ({rel: Doc}, edited in place, the caller saves them) that pointed at the
    old file now point at the new one. (the new relative path, the rels of OTHERS changed)."""
    old_rel, old_id = doc.path, int(doc.value("id"))
    old_name = name_of(old_rel)
    new_name = work.paths.task_name(new_id, f"{new_id}-{os.path.basename(old_name).split('-', 1)[1]}")
    new_rel = f"{TASKS}/{new_name}"
    doc.path = new_rel
    doc.set_meta("id", str(new_id))
    doc.refresh_fields()
    work.create(new_rel, doc.to_text())
    work.remove(old_rel)
    changed = []
    for rel, other in others.items():
        for index, (_kind, target, link, _at) in enumerate(list(other.links)):
            if target == old_id and link == href(name_of(rel), old_name):
                other.set_link_href(index, href(name_of(rel), new_name), new_id)
                if rel not in changed:
                    changed.append(rel)
    return new_rel, changed
