"""The task file format: render, parse and edit one task's HTML (pure, no I/O).

pm owns a fixed set of lines (see docs/pm-format.md); everything between a section's <h2>
line and its closing </section> line belongs to whoever wrote it and is never touched by an
edit. Parsing is line-based and strict: a file that does not follow the format raises
ParseError with the line number, and pm never rewrites it.
"""
from __future__ import annotations

import functools
import html
import re

from pm.errors import ParseError
from pm.model import (KINDS, LINK_TYPES, META_FIELDS, OPTIONAL_META, PRIORITIES, SECTIONS,
                      STATUSES, LogEntry, Task)

STYLE = ("<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;"
         "padding:0 1rem}.pm-fields{color:#555}section{margin-top:1.5rem}</style>")
SECTION_TITLES = {"problem": "Problem", "fix": "Fix", "verification": "Verification",
                  "links": "Links", "log": "Log"}
ALL_SECTIONS = SECTIONS + ("links", "log")

META_RE = re.compile(r'^<meta name="pm:([a-z]+)" content="([^"]*)">$')
TITLE_RE = re.compile(r"^<title>(.*)</title>$")
H1_RE = re.compile(r"^<h1>(.*)</h1>$")
SECTION_RE = re.compile(r'^<section id="([a-z]+)">$')
LINK_RE = re.compile(r'^<li data-type="([a-z-]+)" data-id="(\d+)">[a-z-]+ <a href="([^"]*)">#\d+</a></li>$')
LOG_RE = re.compile(r'^<li data-time="([^"]+)" data-who="([^"]+)"><time datetime="[^"]+">[^<]*</time> '
                    r"<b>[^<]*</b>: (.*)</li>$")
FIELDS_PREFIX = '<p class="pm-fields">'


def split_labels(value: str) -> list[str]:
    """The labels of a pm:labels value (comma-separated)."""
    return [label for label in value.split(",") if label] if value else []


def slugify(title: str, limit: int = 48) -> str:
    """File-name slug: ascii, lower case, dashes; never empty."""
    import unicodedata
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    slug = slug[:limit].rstrip("-")
    return slug or "task"


def file_name(task_id: int, title: str) -> str:
    return f"{task_id}-{slugify(title)}.html"


def _meta_line(name: str, value: str) -> str:
    return f'<meta name="pm:{name}" content="{html.escape(value, quote=True)}">\n'


def _meta_value(task: Task, name: str) -> str:
    if name == "sprint":
        return "" if task.sprint_rank is None else str(task.sprint_rank)
    if name == "labels":
        return ",".join(task.labels)
    return str(getattr(task, name))


def fields_line(task: Task) -> str:
    up = "../" * max(1, (task.path or "tasks/x").count("/"))  # tasks/12xxx/ in a sharded tracker
    parts = [f"#{task.id}", f'<a href="{up}overview.html">overview</a>', task.status,
             task.priority, task.kind]
    if task.sprint_rank is not None:
        parts.append(f"sprint #{task.sprint_rank}")
    if task.owner:
        parts.append(f"owner {html.escape(task.owner)}")
    if task.labels:
        parts.append("labels " + html.escape(", ".join(task.labels)))
    return FIELDS_PREFIX + " · ".join(parts) + "</p>\n"


def link_line(kind: str, other: int, href: str) -> str:
    return (f'<li data-type="{kind}" data-id="{other}">{kind} '
            f'<a href="{html.escape(href, quote=True)}">#{other}</a></li>\n')


def log_line(entry: LogEntry) -> str:
    shown = entry.time.replace("T", " ")[:16] + "Z" if "T" in entry.time else entry.time
    # One line per entry: line breaks become character references (same rendering).
    body = entry.html.replace("\r\n", "\n").replace("\n", "&#10;").replace("\r", "&#13;")
    return (f'<li data-time="{html.escape(entry.time, quote=True)}" '
            f'data-who="{html.escape(entry.who, quote=True)}"><time datetime="'
            f'{html.escape(entry.time, quote=True)}">{html.escape(shown)}</time> '
            f"<b>{html.escape(entry.who)}</b>: {body}</li>\n")


def _section_body(text: str) -> list[str]:
    if not text:
        return []
    return [text if text.endswith("\n") else text + "\n"]


# Agents write task HTML; a task file opened straight from disk must not run a script or load
# anything from elsewhere (links to other task files still work).
@functools.cache
def _csp_line(style: str) -> str:
    import base64
    import hashlib  # only writers need it: reads (pm ls, pm show) skip ~3 ms of imports
    inner = style[len("<style>"):-len("</style>")]
    digest = base64.b64encode(hashlib.sha256(inner.encode()).digest()).decode()
    return (f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            f'style-src \'sha256-{digest}\'; img-src data:">\n')


def render(task: Task, hrefs: dict[int, str] | None = None) -> str:
    """The whole file for a new task. hrefs maps linked ids to their file names."""
    hrefs = hrefs or {}
    out = ["<!DOCTYPE html>\n", '<html lang="en">\n', "<head>\n", '<meta charset="utf-8">\n',
           _csp_line(STYLE),  # pm's own stylesheet (by its hash) and nothing an agent adds
           f"<title>{html.escape(task.title, quote=False)}</title>\n"]
    out += [_meta_line(name, _meta_value(task, name)) for name in META_FIELDS]
    out += [_meta_line(name, _meta_value(task, name)) for name in OPTIONAL_META
            if _meta_value(task, name)]
    out += [STYLE + "\n", "</head>\n", "<body>\n",
            f"<h1>{html.escape(task.title, quote=False)}</h1>\n", fields_line(task)]
    for name in SECTIONS:
        out += [f'<section id="{name}">\n', f"<h2>{SECTION_TITLES[name]}</h2>\n"]
        out += _section_body(task.sections.get(name, ""))
        out.append("</section>\n")
    out += ['<section id="links">\n', "<h2>Links</h2>\n", "<ul>\n"]
    out += [link_line(k, i, hrefs.get(i, f"{i}.html")) for k, i in task.links]
    out += ["</ul>\n", "</section>\n", '<section id="log">\n', "<h2>Log</h2>\n", "<ol>\n"]
    out += [log_line(e) for e in task.log]
    out += ["</ol>\n", "</section>\n", "</body>\n", "</html>\n"]
    return "".join(out)


class Doc:
    """A parsed task file: its lines plus where pm's own lines are.

    Edits change only pm's lines; to_text() joins the lines back, so every other byte
    is kept as it was.
    """

    def __init__(self, lines: list[str], path: str):
        self.lines = lines
        self.path = path
        self.meta: dict[str, int] = {}  # field -> line index
        self.values: dict[str, str] = {}  # field -> value (unescaped)
        self.title_at = self.h1_at = self.fields_at = -1
        self.sections: dict[str, tuple[int, int]] = {}  # name -> (first content line, end line)
        self.links: list[tuple[str, int, str, int]] = []  # (type, id, href, line index)
        self.log: list[LogEntry] = []
        self.ul_end = self.ol_end = -1

    def to_text(self) -> str:
        return "".join(self.lines)

    # -- reading -------------------------------------------------------------------------
    def value(self, name: str) -> str:
        return self.values[name] if name not in OPTIONAL_META else self.values.get(name, "")

    def title(self) -> str:
        return html.unescape(TITLE_RE.match(self.lines[self.title_at].rstrip("\r\n")).group(1))

    def section(self, name: str) -> str:
        start, end = self.sections[name]
        return "".join(self.lines[start:end])

    def task(self) -> Task:
        sprint = self.value("sprint")
        return Task(
            id=int(self.value("id")), title=self.title(), status=self.value("status"),
            priority=self.value("priority"), kind=self.value("kind"),
            sprint_rank=int(sprint) if sprint else None, created=self.value("created"),
            updated=self.value("updated"), owner=self.value("owner"), path=self.path,
            sections={name: self.section(name) for name in SECTIONS},
            links=[(k, i) for k, i, _h, _at in self.links], log=list(self.log),
            labels=split_labels(self.value("labels")))

    # -- editing (pm's lines only) -------------------------------------------------------
    def set_meta(self, name: str, value: str) -> None:
        if name not in self.meta:  # an optional field the file does not have yet
            at = max(self.meta.values()) + 1
            self.lines.insert(at, _meta_line(name, value))
            self._shift(at, 1)
            self.meta[name] = at
        else:
            self.lines[self.meta[name]] = _meta_line(name, value)
        self.values[name] = value

    def set_title(self, title: str) -> None:
        self.lines[self.title_at] = f"<title>{html.escape(title, quote=False)}</title>\n"
        self.lines[self.h1_at] = f"<h1>{html.escape(title, quote=False)}</h1>\n"

    def set_section(self, name: str, text: str) -> None:
        start, end = self.sections[name]
        body = _section_body(text)
        self.lines[start:end] = body
        self._shift(start, len(body) - (end - start))
        self.sections[name] = (start, start + len(body))

    def add_link(self, kind: str, other: int, href: str) -> bool:
        if any(k == kind and i == other for k, i, _h, _a in self.links):
            return False
        at = self.ul_end
        self.lines.insert(at, link_line(kind, other, href))
        self._shift(at, 1)
        self.links.append((kind, other, href, at))
        return True

    def remove_link(self, kind: str, other: int) -> bool:
        for k, i, _h, at in self.links:
            if k == kind and i == other:
                del self.lines[at]
                self.links = [l for l in self.links if l[3] != at]
                self._shift(at + 1, -1)
                return True
        return False

    def set_link_href(self, index: int, href: str, other: int | None = None) -> None:
        """Point link number `index` at href (and at task `other`, when it was renumbered)."""
        kind, old_other, _old, at = self.links[index]
        other = old_other if other is None else other
        self.lines[at] = link_line(kind, other, href)
        self.links[index] = (kind, other, href, at)

    def append_log(self, entry: LogEntry) -> None:
        at = self.ol_end
        self.lines.insert(at, log_line(entry))
        self._shift(at, 1)
        self.log.append(entry)

    def set_log(self, entries: list[LogEntry]) -> None:
        """Replace the whole log with ENTRIES (a merge of two clones' logs)."""
        start = next(i for i in range(self.sections["log"][0], self.ol_end)
                     if self.lines[i].rstrip("\r\n") == "<ol>")
        body = [log_line(e) for e in entries]
        old = self.ol_end - start - 1
        self.lines[start + 1:self.ol_end] = body
        self._shift(start + 1, len(body) - old)
        self.ol_end = start + 1 + len(body)
        self.log = list(entries)

    def refresh_fields(self) -> None:
        self.lines[self.fields_at] = fields_line(self.task())

    def _shift(self, at: int, delta: int) -> None:
        """Keep recorded line indexes right after lines were inserted/removed at `at`."""
        if not delta:
            return
        move = lambda i: i + delta if i >= at else i  # noqa: E731
        self.meta = {k: move(v) for k, v in self.meta.items()}
        self.title_at, self.h1_at, self.fields_at = map(move, (self.title_at, self.h1_at, self.fields_at))
        self.sections = {k: (s if s < at else s + delta, e if e < at else e + delta)
                         for k, (s, e) in self.sections.items()}
        self.links = [(k, i, h, move(a)) for k, i, h, a in self.links]
        self.ul_end, self.ol_end = move(self.ul_end), move(self.ol_end)


def parse(text: str, path: str = "<task>") -> Doc:
    """Parse and validate a task file; raise ParseError naming the first fault."""
    # Split on \n only (str.splitlines also breaks on \x85, \u2028... inside human text).
    lines = re.findall(r"[^\n]*\n|[^\n]+$", text)
    doc = Doc(lines, path)
    if "\r" in text:
        bare = [l.rstrip("\r\n") for l in lines]
    else:  # the same list, built at C speed (lint parses every file)
        bare = text.split("\n")
        if text.endswith("\n"):
            bare.pop()

    def fail(index: int, problem: str):
        raise ParseError(path, index + 1, problem)

    section_at, head_end = _scan_lines(doc, bare, fail)
    order = _check_outline(doc, len(lines), section_at, head_end, fail)
    _bound_sections(doc, bare, order, fail)
    _parse_links(doc, bare, fail)
    _parse_log(doc, bare, fail)
    _check_tail(doc, bare, fail)
    _check_values(doc, fail)
    return doc


def _scan_lines(doc: Doc, bare: list[str], fail) -> tuple[dict[str, int], int | None]:
    """One pass over the lines: the head's meta and title lines, then the body's landmarks
    (h1, the fields line, each section's opening line); ({section: line}, </head> line)."""
    section_at: dict[str, int] = {}
    head_end = None
    for i, line in enumerate(bare):
        if head_end is None:
            if line == "</head>":
                head_end = i
                continue
            m = META_RE.match(line)
            if m:
                name = m.group(1)
                if name not in META_FIELDS and name not in OPTIONAL_META:
                    fail(i, f'unknown field "pm:{name}"')
                if name in doc.meta:
                    fail(i, f'field "pm:{name}" appears twice')
                doc.meta[name] = i
                doc.values[name] = html.unescape(m.group(2))
            elif TITLE_RE.match(line):
                if doc.title_at >= 0:
                    fail(i, "<title> appears twice")
                doc.title_at = i
            continue
        m = SECTION_RE.match(line) if line.startswith("<section") else None
        if m:
            name = m.group(1)
            if name in section_at:
                fail(i, f'section "{name}" appears twice (its opening line is reserved)')
            if name not in ALL_SECTIONS:
                fail(i, f'unknown section "{name}"; sections are {", ".join(ALL_SECTIONS)}')
            section_at[name] = i
        elif doc.h1_at < 0 and H1_RE.match(line):
            doc.h1_at = i
        elif doc.fields_at < 0 and line.startswith(FIELDS_PREFIX):
            doc.fields_at = i
    return section_at, head_end


def _check_outline(doc: Doc, count: int, section_at: dict[str, int], head_end: int | None,
                   fail) -> list[int]:
    """Every required line is there and in order; the sections' opening lines, in order."""
    if head_end is None:
        fail(count - 1 if count else 0, "no </head> line")
    for name in META_FIELDS:
        if name not in doc.meta:
            fail(head_end, f'missing <meta name="pm:{name}" content="..."> line')
    if doc.title_at < 0:
        fail(head_end, "missing <title>...</title> line")
    if doc.h1_at < 0:
        fail(head_end, "missing <h1>...</h1> line")
    if doc.fields_at < 0:
        fail(doc.h1_at, f'missing {FIELDS_PREFIX}...</p> line after <h1>')
    for name in ALL_SECTIONS:
        if name not in section_at:
            fail(count - 1, f'missing <section id="{name}"> line')
    order = [section_at[n] for n in ALL_SECTIONS]
    if order != sorted(order):
        fail(min(order), f"sections must appear in this order: {', '.join(ALL_SECTIONS)}")
    if not doc.h1_at < doc.fields_at < order[0]:
        fail(doc.h1_at, "<h1> and the pm-fields line must come before the sections")
    return order


def _bound_sections(doc: Doc, bare: list[str], order: list[int], fail) -> None:
    """Each section's body: from after its <h2> line to its closing </section> line."""
    ends = order[1:] + [None]
    for name, start, nxt in zip(ALL_SECTIONS, order, ends):
        if start + 1 >= len(bare) or not bare[start + 1].startswith("<h2>"):
            fail(start + 1, f'section "{name}" must start with an <h2> line')
        limit = nxt if nxt is not None else len(bare)
        close = next((j for j in range(limit - 1, start + 1, -1) if bare[j] == "</section>"), None)
        if close is None:
            fail(limit - 1, f'section "{name}" has no closing </section> line')
        if nxt is not None and any(bare[j].strip() for j in range(close + 1, nxt)):
            fail(close + 1, f'text between section "{name}" and the next section')
        doc.sections[name] = (start + 2, close)


def _check_tail(doc: Doc, bare: list[str], fail) -> None:
    tail = [j for j in range(doc.sections["log"][1] + 1, len(bare)) if bare[j].strip()]
    for position, expected in enumerate(["</body>", "</html>", None]):
        at = tail[position] if position < len(tail) else None
        if (bare[at] if at is not None else None) != expected:
            fail(at if at is not None else len(bare) - 1,
                 "the log section must be followed by </body> and </html> only")


def _parse_links(doc: Doc, bare: list[str], fail) -> None:
    start, end = doc.sections["links"]
    body = [j for j in range(start, end) if bare[j].strip()]
    if not body or bare[body[0]] != "<ul>" or bare[body[-1]] != "</ul>":
        fail(start, "the links section must hold one <ul> ... </ul> list")
    for j in body[1:-1]:
        m = LINK_RE.match(bare[j])
        if not m:
            fail(j, 'a link line must read <li data-type="TYPE" data-id="N">TYPE <a href="FILE">#N</a></li>')
        if m.group(1) not in LINK_TYPES:
            fail(j, f"link type {m.group(1)!r} is not one of {', '.join(LINK_TYPES)}")
        doc.links.append((m.group(1), int(m.group(2)), html.unescape(m.group(3)), j))
    doc.ul_end = body[-1]


def _parse_log(doc: Doc, bare: list[str], fail) -> None:
    start, end = doc.sections["log"]
    body = [j for j in range(start, end) if bare[j].strip()]
    if not body or bare[body[0]] != "<ol>" or bare[body[-1]] != "</ol>":
        fail(start, "the log section must hold one <ol> ... </ol> list")
    for j in body[1:-1]:
        m = LOG_RE.match(bare[j])
        if not m:
            fail(j, 'a log line must read <li data-time="T" data-who="W"><time ...>...</time> <b>W</b>: TEXT</li>')
        doc.log.append(LogEntry(html.unescape(m.group(1)), html.unescape(m.group(2)), m.group(3)))
    doc.ol_end = body[-1]


def _check_values(doc: Doc, fail) -> None:
    checks = {"status": STATUSES, "priority": PRIORITIES, "kind": KINDS}
    for name, allowed in checks.items():
        value = doc.value(name)
        if value not in allowed:
            fail(doc.meta[name], f"pm:{name} {value!r} is not one of {', '.join(allowed)}")
    if not re.fullmatch(r"[1-9]\d*", doc.value("id")):
        fail(doc.meta["id"], f"pm:id {doc.value('id')!r} is not a positive number")
    labels = doc.value("labels")
    if labels and not re.fullmatch(r"[a-z0-9][a-z0-9._+-]*(,[a-z0-9][a-z0-9._+-]*)*", labels):
        fail(doc.meta["labels"], f"pm:labels {labels!r} is not comma-separated lower-case words")
    sprint = doc.value("sprint")
    if sprint and not re.fullmatch(r"[1-9]\d*", sprint):
        fail(doc.meta["sprint"], f"pm:sprint {sprint!r} is not empty or a positive rank")


# -- fast summary for the listing cache: head metas + link lines, no full validation ----------
_FAST_META = re.compile(r'^<meta name="pm:([a-z]+)" content="([^"]*)">\r?$', re.M)
_FAST_TITLE = re.compile(r"^<title>(.*)</title>\r?$", re.M)
_FAST_LINK = re.compile(r'^<li data-type="([a-z-]+)" data-id="(\d+)">', re.M)


def summary(text: str) -> tuple | None:
    """(id, title, status, priority, kind, sprint, created, updated, owner, links, labels) or None
    when the file is not a well-formed task (lint then names the fault)."""
    head_end = text.find("</head>")
    if head_end < 0:
        return None
    head = text[:head_end]
    meta = {k: html.unescape(v) for k, v in _FAST_META.findall(head)}
    title = _FAST_TITLE.search(head)
    if title is None or not all(k in meta for k in META_FIELDS) or not (meta["id"].isascii() and meta["id"].isdigit()):
        return None
    links = tuple((k, int(i)) for k, i in _FAST_LINK.findall(text, head_end))
    sprint = meta["sprint"]
    return (int(meta["id"]), html.unescape(title.group(1)), meta["status"], meta["priority"],
            meta["kind"], int(sprint) if sprint.isascii() and sprint.isdigit() else None, meta["created"],
            meta["updated"], meta["owner"], links, tuple(split_labels(meta.get("labels", ""))))
