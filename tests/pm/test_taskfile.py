"""The task file format: render/parse round trips, edits that keep human text, strict errors."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pm import taskfile
from pm.errors import ParseError
from pm.model import LogEntry, Task

RESERVED = ("<section id=", "</section>", "</head>", "<meta name=\"pm:", "<title>", "<h1>",
            '<p class="pm-fields">', "<ul>", "</ul>", "<ol>", "</ol>", "<li data-", "<h2>",
            "</body>", "</html>")


def sample(**kw):
    base = dict(id=7, title="Fix the ko rule", status="open", priority="P1", kind="bug",
                created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z",
                sections={"problem": "<p>Ko is <em>wrong</em>.</p>\n", "fix": "", "verification": ""},
                links=[("blocks", 8)], log=[LogEntry("2026-01-01T00:00:00Z", "worker/a", "found it")])
    base.update(kw)
    return Task(**base)


def test_render_then_parse_gives_the_same_task():
    task = sample(path="tasks/7-fix-the-ko-rule.html")
    text = taskfile.render(task, {8: "8-other.html"})
    assert taskfile.parse(text, task.path).task() == task
    assert '<meta name="pm:status" content="open">\n' in text
    assert '<a href="8-other.html">#8</a>' in text


def test_every_field_is_one_greppable_line():
    text = taskfile.render(sample())
    for name, value in [("id", "7"), ("status", "open"), ("priority", "P1"), ("kind", "bug"),
                        ("sprint", ""), ("owner", "")]:
        assert f'<meta name="pm:{name}" content="{value}">' in text.splitlines()
    assert "<title>Fix the ko rule</title>" in text.splitlines()
    assert "<h1>Fix the ko rule</h1>" in text.splitlines()


def test_title_and_log_are_escaped():
    text = taskfile.render(sample(title="a <script>x</script> & b"))
    assert "<script>" not in text
    assert taskfile.parse(text).title() == "a <script>x</script> & b"


def test_slug():
    assert taskfile.slugify("Fix: the Ko rule (again)!") == "fix-the-ko-rule-again"
    assert taskfile.slugify("日本") == "task"


@pytest.mark.parametrize("mangle,line,problem", [
    (lambda t: t.replace('content="open"', 'content="opened"'), 8, "pm:status 'opened'"),
    (lambda t: t.replace('<meta name="pm:kind" content="bug">\n', ""), 15, 'missing <meta name="pm:kind"'),
    (lambda t: t.replace('<section id="fix">', '<section id="fixes">'), 24, 'unknown section "fixes"'),
    (lambda t: t.replace("<ol>\n", "<ol>\n<li>hand-written</li>\n"), 39, "a log line must read"),
    (lambda t: t.replace("</html>\n", "</html>\n<p>tail</p>\n"), 44, "followed by </body> and </html>"),
])
def test_parse_errors_name_the_line(mangle, line, problem):
    text = mangle(taskfile.render(sample()))
    with pytest.raises(ParseError) as err:
        taskfile.parse(text, "tasks/7-x.html")
    assert err.value.line == line
    assert problem in err.value.problem
    assert str(err.value).startswith(f"tasks/7-x.html:{line}: ")


# Human-written section text: any lines except the few that pm reserves for its structure.
human_line = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"),
                     max_size=40).filter(lambda l: not l.lstrip().startswith(RESERVED))
human_text = st.lists(human_line, max_size=6).map(lambda ls: "".join(l + "\n" for l in ls))


@settings(max_examples=150, deadline=None)
@given(problem=human_text, fix=human_text, verification=human_text,
       message=st.text(min_size=1, max_size=30).filter(lambda m: m.strip()))
def test_edits_keep_human_text_byte_for_byte(problem, fix, verification, message):
    task = sample(sections={"problem": problem, "fix": fix, "verification": verification})
    doc = taskfile.parse(taskfile.render(task, {8: "8-x.html"}))
    assert {n: doc.section(n) for n in ("problem", "fix", "verification")} == task.sections
    doc.set_meta("status", "in-progress")
    doc.set_meta("owner", "worker/b")
    doc.add_link("related", 9, "9-y.html")
    doc.append_log(LogEntry("2026-01-02T00:00:00Z", "worker/b", taskfile.html.escape(message)))
    doc.remove_link("blocks", 8)
    doc.refresh_fields()
    again = taskfile.parse(doc.to_text())
    assert {n: again.section(n) for n in ("problem", "fix", "verification")} == task.sections
    result = again.task()
    assert (result.status, result.owner, result.links) == ("in-progress", "worker/b", [("related", 9)])
    assert taskfile.html.unescape(result.log[-1].html) == message.replace("\r\n", "\n")


@settings(max_examples=60, deadline=None)
@given(text=human_text)
def test_set_section_replaces_only_that_section(text):
    original = taskfile.render(sample())
    doc = taskfile.parse(original)
    doc.set_section("fix", text)
    out = taskfile.parse(doc.to_text())
    assert out.section("fix") == text
    assert out.section("problem") == "<p>Ko is <em>wrong</em>.</p>\n"
    doc.set_section("fix", "")
    assert doc.to_text() == original


def test_crlf_files_keep_their_line_endings():
    text = taskfile.render(sample()).replace("\n", "\r\n")
    doc = taskfile.parse(text)
    doc.set_meta("status", "done")
    out = doc.to_text()
    assert "<p>Ko is <em>wrong</em>.</p>\r\n" in out
    assert taskfile.parse(out).value("status") == "done"


def test_summary_matches_full_parse():
    text = taskfile.render(sample(sprint_rank=2, owner="worker/a"))
    s = taskfile.summary(text)
    assert s == (7, "Fix the ko rule", "open", "P1", "bug", 2, "2026-01-01T00:00:00Z",
                 "2026-01-01T00:00:00Z", "worker/a", (("blocks", 8),), ())
    labelled = taskfile.render(sample(labels=["go", "ui"]))
    assert taskfile.summary(labelled)[10] == ("go", "ui")
    assert taskfile.parse(labelled).task().labels == ["go", "ui"]
    assert taskfile.summary("<html>not a task</html>") is None


def test_labels_are_an_optional_field_set_in_place():
    text = taskfile.render(sample())
    assert 'name="pm:labels"' not in text  # files without labels are unchanged
    doc = taskfile.parse(text)
    doc.set_meta("labels", "backend,go")
    doc.refresh_fields()
    again = taskfile.parse(doc.to_text())
    assert again.task().labels == ["backend", "go"] and "labels backend, go" in again.to_text()
    bad = doc.to_text().replace('content="backend,go"', 'content="Back End"')
    with pytest.raises(ParseError, match="pm:labels 'Back End' is not comma-separated"):
        taskfile.parse(bad)
