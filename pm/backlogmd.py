"""Reading a Backlog.md project (pure but for reading its files): every task file becomes a
pm import record, and nothing Backlog.md holds is dropped.

    backlog/tasks/task-3 - Title.md          a task (any prefix: back-3, TASK-3 ...)
    backlog/tasks/task-3.1 - Title.md        a subtask: a pm task linked "parent" to task-3
    backlog/drafts/draft-1 - Title.md        a draft: open, labelled "draft"
    backlog/completed/, backlog/archive/tasks/   done and archived tasks ("archived": wontfix)

Backlog.md ids are strings; pm's are numbers. A top-level task keeps its number when the
tracker has it free, anything else (subtasks, drafts, taken numbers) gets a fresh one; each
record carries a "backlog" entry (ref, want, file, links by ref) that pm.bulk resolves under
the lock. Every refusal names the file and what to change.
"""
from __future__ import annotations

import html
import os
import re

from pm.errors import InvalidValue
from pm.model import KINDS, now

_STATUS = {"to do": "open", "todo": "open", "in progress": "in-progress", "done": "done",
           "review": "review", "in review": "review", "draft": "open"}
_PRIORITY = {"high": "P1", "medium": "P2", "low": "P3"}
_KIND_WORDS = {**{k: k for k in KINDS}, "enhancement": "feature", "documentation": "docs",
               "defect": "bug", "bugfix": "bug", "epic": "feature"}
_HEADING = re.compile(r"^## +(.+?)\s*$", re.M)
_FILE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)-(\d+(?:\.\d+)*) - .*\.md$")
# Folder inside the project -> (labels every task there gets, archived?)
_FOLDERS = (("tasks", (), False), ("drafts", ("draft",), False), ("completed", (), False),
            ("archive/tasks", ("archived",), True), ("archive/drafts", ("archived", "draft"), True))
# Front matter pm maps onto its own fields; any other key is kept in the import log entry.
_MAPPED = {"id", "title", "status", "priority", "labels", "assignee", "created_date",
           "updated_date", "dependencies", "parent_task_id", "parent_task", "parent", "type",
           "subtasks"}
IMPORTER = "import/backlog.md"


def _project(path: str) -> str:
    """The folder holding tasks/, drafts/ ...: PATH/backlog, PATH, or PATH's parent when PATH
    is a tasks folder itself."""
    for root in (os.path.join(path, "backlog"), path):
        if any(os.path.isdir(os.path.join(root, f)) for f, _l, _a in _FOLDERS):
            return root
    return path


def task_files(path: str) -> list[tuple[str, tuple, bool]]:
    """[(file, labels for its folder, archived?)] of a Backlog.md project."""
    root = _project(path)
    found = []
    folders = [(os.path.join(root, f), labels, archived) for f, labels, archived in _FOLDERS]
    if not any(os.path.isdir(f) for f, _l, _a in folders):
        folders = [(root, (), False)]  # PATH is a folder of task files
    for folder, labels, archived in folders:
        if os.path.isdir(folder):
            found += [(os.path.join(folder, n), labels, archived)
                      for n in sorted(os.listdir(folder)) if _FILE.match(n)]
    if not found:
        raise InvalidValue(
            f"{path}: no Backlog.md task files (PREFIX-N - Title.md, e.g. 'task-1 - Title.md') in "
            f"{root} or its tasks/, drafts/, completed/, archive/tasks/ folders; give pm import "
            "the project folder (the one holding backlog/) or its backlog/tasks folder")
    return found


def canonical(ref, prefix: str) -> str:
    """A Backlog.md id as one spelling: "task-2.1", "TASK-2.1" and "2.1" (in a task-prefixed
    project) are all TASK-2.1."""
    text = str(ref).strip().strip("'\"")
    if re.fullmatch(r"\d+(\.\d+)*", text):
        text = f"{prefix}-{text}"
    return text.upper()


def read(path: str) -> list[dict]:
    """Import records (pm.transfer's shape plus a "backlog" entry) for every task file."""
    import yaml  # lazy: only imports of Backlog.md need them
    from markdown_it import MarkdownIt

    from pm.transfer import normalise
    md = MarkdownIt("commonmark", {"html": False})
    records, where = [], {}
    for file, folder_labels, archived in task_files(path):
        front, body = _split(file, yaml)
        record = _record(front, body, md, file, folder_labels, archived)
        ref = record["backlog"]["ref"]
        if ref in where:
            raise InvalidValue(f"{file}: id {ref} is also the id of {where[ref]}; give one of the "
                               "two files another id (its id: line and file name), or delete the copy")
        where[ref] = file
        extra = record.pop("backlog")
        record = normalise(record, file)
        record["backlog"] = extra
        records.append(record)
    for record in records:
        info = record["backlog"]
        for kind, ref in info["links"]:
            if ref not in where:
                field = "parent_task_id" if kind == "parent" else "dependencies"
                raise InvalidValue(f"{info['file']}: {field} names {ref}, which is not among the "
                                   f"project's task files; add {ref}'s file or remove it from {field}")
    return records


def _split(file: str, yaml) -> tuple[dict, str]:
    with open(file, encoding="utf-8") as fh:
        text = fh.read()
    m = re.match(r"^\ufeff?---\r?\n(.*?)\r?\n---\r?\n?(.*)$", text, re.S)
    if not m:
        raise InvalidValue(f"{file}: no YAML front matter; Backlog.md task files start with "
                           "a '---' line, the fields (id:, title:, status: ...) and another '---'")
    try:
        front = yaml.safe_load(m.group(1)) or {}
    except yaml.YAMLError as err:
        raise InvalidValue(f"{file}: the front matter is not YAML ({' '.join(str(err).split())}); "
                           "fix that line (quote values holding ': ' or '#')") from None
    if not isinstance(front, dict):
        raise InvalidValue(f"{file}: the front matter must be 'key: value' lines")
    return front, m.group(2)


def _slug(value) -> str:
    return re.sub(r"[^a-z0-9._+-]+", "-", str(value).strip().lower()).strip("-._+")


def _list(value) -> list:
    if value is None or value == "":
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _record(front: dict, body: str, md, file: str, folder_labels: tuple, archived: bool) -> dict:
    m = _FILE.match(os.path.basename(file))
    prefix = m.group(1)
    ref = canonical(front.get("id") or f"{prefix}-{m.group(2)}", prefix)
    number = ref.rsplit("-", 1)[-1]
    sections = _sections(body, md)
    labels = [_slug(l) for l in _list(front.get("labels"))] + list(folder_labels)
    raw_status = str(front.get("status") or "").strip()
    status = _STATUS.get(raw_status.lower())
    if raw_status.lower() == "draft":
        labels.append("draft")
    if status is None:
        status = "open"
        if raw_status:
            labels.append("status-" + _slug(raw_status))
    if archived and status not in ("done", "wontfix"):
        status = "wontfix"
    kind, type_label = _kind(front, labels)
    if type_label:
        labels.append(type_label)
    links = [("blocked-by", canonical(d, prefix)) for d in _list(front.get("dependencies"))]
    parent = front.get("parent_task_id") or front.get("parent_task") or front.get("parent")
    if parent is None and "." in number:
        parent = f"{ref.rsplit('-', 1)[0]}-{number.rsplit('.', 1)[0]}"
    if parent is not None:
        links.append(("parent", canonical(parent, prefix)))
    assignees = [str(a) for a in _list(front.get("assignee"))]
    owner = re.sub(r"[^A-Za-z0-9._@+-]", "", assignees[0] if assignees else "").lstrip("@.-_+")
    record = {
        "title": str(front.get("title") or os.path.basename(file)[:-3]),
        "status": status,
        "priority": _PRIORITY.get(str(front.get("priority") or "").strip().lower(), "P2"),
        "kind": kind, "owner": owner, "labels": [l for l in labels if l],
        "problem": sections.pop("description", "") + "".join(
            f"<h3>{html.escape(h)}</h3>\n{sections.pop(k)}" for k, h in list(sections.items())
            if k.startswith("_other:")),
        "fix": _join(sections, ("implementation plan", "implementation notes")),
        "verification": _join(sections, ("acceptance criteria", "definition of done")),
        "log": [{"time": now(), "who": IMPORTER, "html": _provenance(ref, file, front, assignees)}],
    }
    created = _stamp(front.get("created_date"))
    if created:
        record["created"] = created
        record["log"][0]["time"] = created
    updated = _stamp(front.get("updated_date"))
    if updated:
        record["updated"] = updated
    want = int(number) if "." not in number and "draft" not in folder_labels \
        and not ref.startswith("DRAFT-") else None
    record["backlog"] = {"ref": ref, "want": want, "file": file, "links": links}
    return record


def _kind(front: dict, labels: list[str]) -> tuple[str, str | None]:
    """pm's kind from type: (or from a label naming one); a type pm has no kind for is kept
    as a label type-<name>."""
    kind_type = front.get("type")
    if kind_type:
        word = _slug(kind_type)
        if word in _KIND_WORDS:
            return _KIND_WORDS[word], None
        return "task", "type-" + word
    return next((_KIND_WORDS[l] for l in labels if l in ("bug", "feature", "docs", "chore")), "task"), None


def _sections(body: str, md) -> dict[str, str]:
    """{lower-case heading: HTML}; headings pm has no section for as "_other:<heading>"
    (in order, with the text before the first heading as "_other:")."""
    parts = _HEADING.split(body)
    pairs = [("", parts[0])] + list(zip(parts[1::2], parts[2::2]))
    known = {"description", "implementation plan", "implementation notes", "acceptance criteria",
             "definition of done"}
    out = {}
    for heading, content in pairs:
        content = re.sub(r"<!--.*?-->", "", content, flags=re.S).strip()
        if not content:
            continue
        key = re.sub(r"\s*\(optional\)$", "", heading.strip().lower())
        rendered = md.render(content)
        if key in known:
            out[key] = out.get(key, "") + rendered
        else:
            out[f"_other:{heading.strip() or 'Notes'}"] = rendered
    return out


def _join(sections: dict, names: tuple) -> str:
    present = [n for n in names if sections.get(n)]
    if len(present) == 1:
        return sections[present[0]]
    return "".join(f"<h3>{n.capitalize()}</h3>\n{sections[n]}" for n in present)


def _stamp(value) -> str:
    text = str(value or "").strip()
    if re.fullmatch(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?", text):
        return text.replace(" ", "T")[:16] + (text[16:19] if len(text) > 16 else ":00") + "Z"
    if re.fullmatch(r"\d{4}-\d\d-\d\d", text):
        return text + "T00:00:00Z"
    return ""


def _provenance(ref: str, file: str, front: dict, assignees: list[str]) -> str:
    """The import's log entry: where the task came from, and every front matter value pm has
    no field for (reporter, milestone, references, ordinal, more assignees ...)."""
    rest = [(k, front[k]) for k in front if k not in _MAPPED and front[k] not in (None, "", [])]
    if len(assignees) > 1:
        rest.append(("assignee", assignees))
    shown = "; ".join(f"{k}: {', '.join(map(str, _list(v))) if isinstance(v, list) else v}"
                      for k, v in rest)
    text = f"imported from Backlog.md {ref} ({os.path.basename(file)})" + (f"; {shown}" if shown else "")
    return html.escape(text, quote=False)
