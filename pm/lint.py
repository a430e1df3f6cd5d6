"""pm lint and pm doctor: every rule of the format checked over the whole tracker.

lint_tracker() only reads. repair() (pm doctor) fixes what is safe to fix without
guessing intent: stale temp files, link hrefs, missing inverse links, the overview, in one
unit of work (pm.unitofwork), the same one every other change runs in.

Both take a pm Tracker (anything with root, tasks_dir, paths, overview_html() and
unit_of_work()).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from pm import graph, numbers, reposetup, taskfile
from pm.errors import ParseError
from pm.layout import (OVERVIEW, OVERVIEW_PAGES, SHARD, TASKS, is_temp_name, name_of,
                       shard_dirs, shard_name, task_names)
from pm.layout import href as href_to
from pm.model import INVERSE_LINK, now
from pm.renumber import renumber

NAME_RE = re.compile(r"^([1-9]\d*)-[a-z0-9]+(?:-[a-z0-9]+)*\.html$")


@dataclass
class Fault:
    path: str
    line: int
    problem: str
    repairable: bool = False

    def __str__(self) -> str:
        fix = " (pm doctor repairs this)" if self.repairable else ""
        return f"{self.path}:{self.line}: {self.problem}{fix}"


def _read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def load_docs(tracker) -> tuple[dict[str, taskfile.Doc], list[Fault]]:
    """Parse every task file fully: {relative path: Doc} and the faults found on the way."""
    docs, faults = {}, []
    sharded = tracker.paths.sharded
    for name in _names(tracker.tasks_dir):
        rel = f"tasks/{name}"
        base = os.path.basename(name)
        if is_temp_name(base):
            faults.append(Fault(rel, 1, "temp file left by an interrupted pm", True))
            continue
        if base.startswith(".") or not base.endswith(".html"):
            continue
        try:
            doc = taskfile.parse(_read(os.path.join(tracker.tasks_dir, name)), rel)
        except ParseError as err:
            faults.append(Fault(rel, err.line, err.problem))
            continue
        except UnicodeDecodeError as err:
            faults.append(Fault(rel, 1, f"not UTF-8 text ({err.reason})"))
            continue
        docs[rel] = doc
        m = NAME_RE.match(base)
        if not m:
            faults.append(Fault(rel, 1, "file name must be <id>-<slug>.html (lower-case slug)"))
        elif int(m.group(1)) != int(doc.value("id")):
            faults.append(Fault(rel, doc.meta["id"] + 1,
                                f"file name says {m.group(1)} but pm:id says {doc.value('id')}"))
        elif name != (shard_name(int(m.group(1)), base) if sharded else base):
            faults.append(Fault(rel, 1, "task file outside its folder: this tracker keeps task N in "
                                + ("tasks/<N // 1000>xxx/; run pm doctor --shard" if sharded else
                                   "tasks/ itself (not sharded); move it there")))
    return docs, faults


def _names(tasks_dir: str) -> list[str]:
    """Every entry of tasks/ and of its shard folders, as names relative to tasks/."""
    out = []
    for name in sorted(os.listdir(tasks_dir)):
        path = os.path.join(tasks_dir, name)
        if SHARD.fullmatch(name) and os.path.isdir(path):
            out += [f"{name}/{inner}" for inner in sorted(os.listdir(path))]
        else:
            out.append(name)
    return out


def lint_tracker(tracker) -> list[Fault]:
    docs, faults = load_docs(tracker)
    by_id: dict[int, list[str]] = {}
    for rel, doc in docs.items():
        by_id.setdefault(int(doc.value("id")), []).append(rel)
    for task_id, paths in sorted(by_id.items()):
        if len(paths) > 1:
            for rel in paths:
                faults.append(Fault(rel, docs[rel].meta["id"] + 1,
                                    f"duplicate id {task_id}: also in {', '.join(p for p in paths if p != rel)}"))
    tasks = []
    for rel, doc in docs.items():
        task = doc.task()
        tasks.append(task)
        for kind, other, href, at in doc.links:
            if other == task.id:
                faults.append(Fault(rel, at + 1, f"task links to itself ({kind} #{other})"))
            elif other not in by_id:
                faults.append(Fault(rel, at + 1, f"broken link: {kind} #{other} does not exist"))
            else:
                target = href_to(name_of(rel), name_of(by_id[other][0]))
                if href != target:
                    faults.append(Fault(rel, at + 1, f"link to #{other} points at {href!r}, "
                                                     f"the file is {target!r}", True))
                inverse = INVERSE_LINK.get(kind)
                peer_links = docs[by_id[other][0]].links
                if inverse and not any(k == inverse and i == task.id for k, i, _h, _a in peer_links):
                    faults.append(Fault(rel, at + 1, f"#{other} lacks the inverse link "
                                                     f"{inverse} #{task.id}", True))
    for cycle in graph.cycles(graph.blockers_map(tasks)):
        first = next(rel for rel, doc in docs.items() if int(doc.value("id")) == cycle[0])
        faults.append(Fault(first, 1, "dependency cycle: " + " -> ".join(f"#{i}" for i in cycle)))
    expected = tracker.overview_files()
    pages = os.path.join(tracker.root, OVERVIEW_PAGES)
    present = [f"{OVERVIEW_PAGES}/{n}" for n in sorted(os.listdir(pages))] if os.path.isdir(pages) else []
    for rel in sorted(set(expected) | {p for p in present if p.endswith(".html")}):
        try:
            current = _read(os.path.join(tracker.root, rel))
        except FileNotFoundError:
            current = None
        if current != expected.get(rel):
            problem = ("no tasks are listed on this page any more" if rel not in expected else
                       "missing" if current is None else "differs from the task files")
            faults.append(Fault(rel, 1, f"{rel} {problem}", True))
    for line in reposetup.missing_attributes(tracker.paths):
        faults.append(Fault(".gitattributes", 1, f"no '{line.strip()}' line: merges "
                                                 "of two clones would conflict in the overview", True))
    return sorted(faults, key=lambda f: (f.path, f.line, f.problem))


def repair(tracker, renumber: bool = False) -> tuple[list[str], list[Fault]]:
    """Fix the repairable faults in one unit of work and one commit; (fixes made, faults
    left). With renumber, a task whose id another task also has (two clones merged) gets the
    next free number, and links that pointed at its file follow it."""
    fixed: list[str] = []
    with tracker.unit_of_work() as work:
        docs, _faults = load_docs(tracker)
        _remove_temp_files(tracker, fixed)
        touched, removed = {}, []
        if renumber:
            _renumber_duplicates(work, docs, touched, removed, fixed)
        _repair_links(docs, touched, fixed)
        stamp = now()
        for doc in touched.values():
            work.save(doc, stamp)
        overview_changed = work.refresh_overview()
        fixed += [f"{rel} regenerated" for rel in overview_changed]
        paths = removed + list(touched) + [OVERVIEW] + overview_changed
        missing = reposetup.missing_attributes(work.paths)
        if missing:
            path = work.paths.path(".gitattributes")
            text = _read(path) if os.path.exists(path) else ""
            work.write(".gitattributes", text + ("" if not text or text.endswith("\n") else "\n")
                       + "".join(missing))
            paths.append(".gitattributes")
            fixed.append(".gitattributes: added the overview merge driver line"
                         + ("s" if len(missing) > 1 else ""))
        if len(paths) > 1 or overview_changed or work.dirty(OVERVIEW):
            work.commit(paths, "pm: doctor repairs", overview=False)
        reposetup.ensure(work.paths, force=True)
    return fixed, [f for f in lint_tracker(tracker) if not f.repairable]


def _remove_temp_files(tracker, fixed: list) -> None:
    """Under the lock no pm is writing: every temp file of an atomic write is a leftover."""
    folders = [(tracker.tasks_dir, f"{TASKS}/"), (tracker.root, "")]
    folders += [(os.path.join(tracker.tasks_dir, d), f"{TASKS}/{d}/") for d in shard_dirs(tracker.tasks_dir)]
    if os.path.isdir(os.path.join(tracker.root, OVERVIEW_PAGES)):
        folders.append((os.path.join(tracker.root, OVERVIEW_PAGES), f"{OVERVIEW_PAGES}/"))
    for folder, prefix in folders:
        for name in sorted(os.listdir(folder)):
            if is_temp_name(name) and os.path.isfile(os.path.join(folder, name)):
                os.unlink(os.path.join(folder, name))
                fixed.append(f"removed {prefix}{name}")


def _repair_links(docs: dict, touched: dict, fixed: list) -> None:
    """Point each link at its target's file and add missing inverse links."""
    by_id, duplicated = {}, set()
    for rel, doc in docs.items():
        task_id = int(doc.value("id"))
        if task_id in by_id:
            duplicated.add(task_id)
        by_id.setdefault(task_id, rel)
    for rel, doc in list(docs.items()):
        for index, (kind, other, href, _at) in enumerate(list(doc.links)):
            if other not in by_id or other == int(doc.value("id")) or other in duplicated:
                continue  # a duplicated id is ambiguous: leave its links for a person
            target = href_to(name_of(rel), name_of(by_id[other]))
            if href != target:
                doc.set_link_href(index, target)
                touched[rel] = doc
                fixed.append(f"{rel}: link to #{other} now points at {target}")
            inverse = INVERSE_LINK.get(kind)
            peer = docs[by_id[other]]
            if inverse and peer.add_link(inverse, int(doc.value("id")), href_to(name_of(by_id[other]), name_of(rel))):
                touched[by_id[other]] = peer
                fixed.append(f"{by_id[other]}: added {inverse} #{doc.value('id')}")


def _renumber_duplicates(work, docs: dict, touched: dict, removed: list, fixed: list) -> None:
    """Keep the oldest task of each duplicated id; give the others fresh numbers."""
    groups: dict[int, list[str]] = {}
    for rel, doc in docs.items():
        groups.setdefault(int(doc.value("id")), []).append(rel)
    for old_id, rels in sorted(groups.items()):
        if len(rels) < 2:
            continue
        rels.sort(key=lambda r: (docs[r].value("created"), r))
        for rel in rels[1:]:
            doc = docs.pop(rel)
            new_id = numbers.reserve(work, task_names(work.paths.tasks_dir))
            new_rel, changed = renumber(work, doc, new_id, docs)
            removed.append(rel)
            docs[new_rel] = touched[new_rel] = doc
            touched.update({r: docs[r] for r in changed})
            fixed.append(f"{rel} is now #{new_id} ({new_rel}); #{old_id} stays {rels[0]}")
