"""pm command line, its one definition (click): parse, call the Tracker, print through
pm.output. Each command imports what it needs when it runs, so `pm show` loads neither the
lint, git, web nor import code; plumbing.cli.ToolGroup turns pm's named errors into
"Error: message" with exit code 1 and a closed pipe (`pm ls | head -1`) into a quiet exit 0."""
from __future__ import annotations

import os
import sys

import click
from plumbing.cli import ToolGroup

from pm.errors import PmError

JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON (documented in README).")


def _tracker():
    from pm.tracker import Tracker
    return Tracker.find()


from pm.output import done as _done, emit as _emit, line as _line, listing as _listing  # noqa: E402


@click.group(cls=ToolGroup, context_settings={"help_option_names": ["-h", "--help"]},
             lazy={"mcp": "pm.mcp.command:mcp_command"})
@click.version_option(package_name="soloshop", prog_name="pm")
def cli():
    """pm: a git-backed HTML task tracker that many agent sessions share safely.

    The tracker is PM_DIR, or the nearest parent directory holding .pmtracker.
    Who acts: PM_ROLE (ceo, worker, human) and PM_SESSION."""


@cli.command()
@click.argument("directory", required=False)
def init(directory):
    """Create a tracker in DIRECTORY (default PM_DIR, else the current directory)."""
    from pm.tracker import Tracker
    tracker = Tracker.init(directory or os.environ.get("PM_DIR") or os.getcwd())
    click.echo(f"created tracker in {tracker.root}")


@cli.command()
@click.argument("title")
@click.option("--priority", "-p", default="P2", show_default=True, help="P0 (highest) to P3.")
@click.option("--kind", "-k", default="task", show_default=True)
@click.option("--problem", default="", help="HTML for the problem section.")
@click.option("--fix", default="", help="HTML for the fix section.")
@click.option("--verification", default="", help="HTML for the verification section.")
@click.option("--blocked-by", type=int, multiple=True, help="Task ids this one waits for.")
@click.option("--blocks", type=int, multiple=True, help="Task ids waiting for this one.")
@click.option("--related", type=int, multiple=True)
@click.option("--spawned-from", type=int, multiple=True)
@click.option("--parent", type=int, multiple=True, help="The task this one is a subtask of.")
@click.option("--label", "-l", "labels", multiple=True, help="A label (repeatable).")
@JSON
def new(title, priority, kind, problem, fix, verification, blocked_by, blocks, related,
        spawned_from, parent, labels, as_json):
    """Create a task; prints its number."""
    links = ([("blocked-by", i) for i in blocked_by] + [("blocks", i) for i in blocks]
             + [("related", i) for i in related] + [("spawned-from", i) for i in spawned_from]
             + [("parent", i) for i in parent])
    task = _tracker().new(title, priority=priority, kind=kind, problem=problem, fix=fix,
                          verification=verification, links=links, labels=labels)
    _done(task, as_json, str(task.id))


@cli.command()
@click.argument("task_id", type=int)
@JSON
def show(task_id, as_json):
    """Show one task: fields, sections, links and log."""
    task = _tracker().get(task_id)
    if as_json:
        _emit(task.full())
        return
    from pm.textview import task_text
    click.echo(task_text(task))


@cli.command(name="ls")
@click.option("--status", "-s", multiple=True, help="Keep these statuses (repeatable).")
@click.option("--priority", "-p", multiple=True, help="Keep these priorities (repeatable).")
@click.option("--kind", "-k", multiple=True, help="Keep these kinds (repeatable).")
@click.option("--sprint/--no-sprint", default=None, help="Only sprint tasks / only the others.")
@click.option("--text", "-t", help="Words the title must contain.")
@click.option("--label", "-l", multiple=True, help="Keep tasks carrying this label (repeatable: all).")
@click.option("--limit", type=int, help="At most this many.")
@JSON
def ls_(status, priority, kind, sprint, text, label, limit, as_json):
    """List tasks by id, filtered."""
    tasks = _tracker().list(status=status or None, priority=priority or None, kind=kind or None,
                            sprint=sprint, text=text, label=[l.lower() for l in label] or None,
                            rows=True)
    _listing(tasks[:limit] if limit else tasks, as_json)


@cli.command()
@JSON
def ready(as_json):
    """Open tasks with no open blocker, in work order (sprint rank, priority, id)."""
    _listing(_tracker().ready(rows=True), as_json)


@cli.command()
@JSON
def blocked(as_json):
    """Tasks waiting on open blockers or caught in a dependency cycle."""
    rows = _tracker().blocked()
    if as_json:
        _emit([dict(t.compact(), blocked_by=b, cycle=c) for t, b, c in rows])
        return
    for t, blockers, cycle in rows:
        why = "waits for " + ", ".join(f"#{b}" for b in blockers) if blockers else ""
        why += ("; " if why else "") + "in a dependency cycle" if cycle else ""
        click.echo(f"{_line(t)}  ({why})")
    if not rows:
        click.echo("no blocked tasks")


@cli.command()
@JSON
def sprint(as_json):
    """The sprint, ranked."""
    _listing(_tracker().sprint(), as_json)


@cli.command()
@click.argument("task_id", type=int)
@JSON
def start(task_id, as_json):
    """Start TASK_ID: open -> in-progress, owned by you (fails unless it is open)."""
    _done(_tracker().start(task_id), as_json)


@cli.command()
@click.argument("task_id", type=int, required=False)
@click.option("--next", "next_", is_flag=True, help="Claim the next ready task.")
@JSON
def claim(task_id, next_, as_json):
    """Claim a task (open -> in-progress, owner you); prints its id. Exit 1 if it is taken."""
    if (task_id is None) == (not next_):
        raise click.UsageError("give a TASK_ID or --next (not both)")
    task = _tracker().claim(None if next_ else task_id)
    _done(task, as_json, str(task.id))


@cli.command()
@click.argument("task_id", type=int)
@JSON
def done(task_id, as_json):
    """Mark TASK_ID done."""
    _done(_tracker().done(task_id), as_json)


@cli.command()
@click.argument("task_id", type=int)
@click.argument("new_status")
@click.option("--from", "from_", multiple=True, help="Fail unless the task is in this status.")
@JSON
def status(task_id, new_status, from_, as_json):
    """Set any status (open in-progress review done wontfix); --from makes it compare-and-set."""
    _done(_tracker().set_status(task_id, new_status, expect=from_ or None), as_json)


@cli.command(name="set")
@click.argument("task_id", type=int)
@click.option("--title")
@click.option("--priority", "-p")
@click.option("--kind", "-k")
@click.option("--status")
@click.option("--owner")
@click.option("--labels", help="Replace the labels: comma-separated words (\"\" for none).")
@click.option("--problem", help="Replace the problem section with this HTML.")
@click.option("--fix", help="Replace the fix section with this HTML.")
@click.option("--verification", help="Replace the verification section with this HTML.")
@JSON
def set_(task_id, as_json, **fields):
    """Set fields of TASK_ID (the sprint changes only through promote/demote/rank)."""
    fields = {k: v for k, v in fields.items() if v is not None}
    if not fields:
        raise click.UsageError("nothing to set; see pm set --help")
    _done(_tracker().set(task_id, **fields), as_json)


@cli.command()
@click.argument("task_id", type=int)
@click.argument("message")
@click.option("--html", "html_text", is_flag=True, help="MESSAGE is HTML (default: plain text).")
@JSON
def log(task_id, message, html_text, as_json):
    """Append MESSAGE ("-" reads stdin) to TASK_ID's log."""
    if message == "-":
        message = sys.stdin.read()
    _done(_tracker().log(task_id, message, html_text=html_text), as_json,
          f"logged on #{task_id}")


@cli.command()
@click.argument("task_id", type=int)
@click.argument("link_type")
@click.argument("other", type=int)
def link(task_id, link_type, other):
    """Link TASK_ID to OTHER: related, blocks, blocked-by, spawned-from, duplicates, parent,
    subtask."""
    _tracker().link(task_id, link_type, other)
    click.echo(f"#{task_id} {link_type} #{other}")


@cli.command()
@click.argument("task_id", type=int)
@click.argument("link_type")
@click.argument("other", type=int)
def unlink(task_id, link_type, other):
    """Remove a link (and its inverse)."""
    _tracker().unlink(task_id, link_type, other)
    click.echo(f"#{task_id} no longer {link_type} #{other}")


@cli.command()
@click.argument("task_id", type=int)
@click.option("--rank", type=int, help="Position in the sprint (1 = top); default last.")
def promote(task_id, rank):
    """Put TASK_ID into the sprint (ceo role only)."""
    task = _tracker().promote(task_id, rank)
    click.echo(f"#{task.id} in the sprint at rank {task.sprint_rank}")


@cli.command()
@click.argument("task_id", type=int)
def demote(task_id):
    """Take TASK_ID out of the sprint (ceo role only)."""
    _tracker().demote(task_id)
    click.echo(f"#{task_id} back in the backlog")


@cli.command()
@click.argument("task_id", type=int)
@click.argument("position", type=int)
def rank(task_id, position):
    """Move sprint task TASK_ID to POSITION (ceo role only)."""
    task = _tracker().rank(task_id, position)
    click.echo(f"#{task.id} at sprint rank {task.sprint_rank}")


@cli.command(name="next")
@JSON
def next_(as_json):
    """The next free task number."""
    number = _tracker().next_id()
    _emit({"next": number}) if as_json else click.echo(str(number))


@cli.command()
@click.argument("pattern")
@click.option("-i", "ignore_case", is_flag=True, help="Ignore case.")
@JSON
def grep(pattern, ignore_case, as_json):
    """Lines of task files matching the regular expression PATTERN."""
    import re
    try:
        hits = _tracker().grep(pattern, ignore_case)
    except re.error as err:
        raise click.BadParameter(f"not a regular expression: {err}", param_hint="PATTERN")
    if as_json:
        _emit([{"id": i, "path": p, "line": n, "text": t} for i, p, n, t in hits])
    else:
        for _i, path, number, text in hits:
            click.echo(f"{path}:{number}:{text}")


@cli.command()
@click.argument("words", nargs=-1, required=True)
@JSON
def search(words, as_json):
    """Tasks whose text contains every word (case-insensitive)."""
    _listing(_tracker().search(" ".join(words)), as_json)


@cli.command()
@click.argument("task_id", type=int)
@JSON
def history(task_id, as_json):
    """TASK_ID's commits, newest first, each with its diff."""
    entries = _tracker().history(task_id)
    if as_json:
        _emit([vars(e) for e in entries])
        return
    for e in entries:
        click.echo(f"commit {e.commit}\nwho:  {e.who}\ndate: {e.date}\n\n    "
                   + e.message.splitlines()[0] + "\n\n" + e.diff)


@cli.command()
@JSON
def lint(as_json):
    """Check every task file and the overview; exit 1 on any fault."""
    faults = _tracker().lint()
    if as_json:
        _emit([{"path": f.path, "line": f.line, "problem": f.problem, "repairable": f.repairable}
               for f in faults])
    else:
        for f in faults:
            click.echo(str(f))
        click.echo(f"{len(faults)} fault(s)" if faults else "ok", err=bool(faults))
    sys.exit(1 if faults else 0)


@cli.command()
@click.option("--renumber", is_flag=True,
              help="Give tasks that share an id (two clones merged) fresh numbers; links follow.")
@click.option("--shard", is_flag=True,
              help="Move task files into folders of a thousand (tasks/12xxx/), for big trackers.")
@JSON
def doctor(renumber, shard, as_json):
    """Repair what is safe to repair (overview, link targets, inverse links, temp files)."""
    tracker = _tracker()
    fixed, left = tracker.doctor(renumber=renumber, shard=shard)
    advice = tracker.shard_advice()
    if as_json:
        _emit({"fixed": fixed, "faults": [{"path": f.path, "line": f.line, "problem": f.problem}
                                          for f in left], "advice": advice})
    else:
        for line in fixed:
            click.echo(f"fixed: {line}")
        for f in left:
            click.echo(f"needs a person: {f}")
        if advice:
            click.echo(f"advice: {advice}")
        click.echo("ok" if not left else f"{len(left)} fault(s) left")
    sys.exit(1 if left else 0)


@cli.command()
@JSON
def audit(as_json):
    """Sprint changes made without the ceo's PM-Sprint trailer; exit 1 if any."""
    findings = _tracker().audit()
    if as_json:
        _emit([vars(f) for f in findings])
    else:
        for f in findings:
            click.echo(f"{f.commit[:12]} {f.date} {f.who}: #{f.task_id} sprint {f.change}: {f.problem}")
        click.echo(f"{len(findings)} sprint change(s) without the trailer" if findings else "ok")
    sys.exit(1 if findings else 0)


@cli.command()
@click.option("--static", "static", is_flag=True, help="Write the self-contained board page.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="File for --static (written atomically; default stdout).")
@click.option("--commit", "commit", is_flag=True, help="Regenerate overview.html and commit it.")
@click.option("--quiet", is_flag=True)
def overview(static, output, commit, quiet):
    """Regenerate overview.html (it is also regenerated in every change)."""
    tracker = _tracker()
    if static:
        try:
            from pm.web.static import render_board
        except ImportError as err:
            raise PmError(f"the static board needs pm.web, which is not available ({err})")
        # Card links are relative: from the output file's folder when there is one.
        page = render_board(tracker, for_path=os.path.abspath(output) if output else None)
        if not output:
            click.echo(page, nl=False)
            return
        from plumbing.files import atomic_write
        atomic_write(os.path.abspath(output), page)
        if not quiet:
            click.echo(f"wrote {output}")
        return
    if commit:
        changed = tracker.commit_overview()
    else:
        changed = tracker.write_overview()
    if not quiet:
        click.echo("overview.html regenerated" if changed else "overview.html is up to date")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8765, show_default=True)
@click.option("--allow-host", multiple=True,
              help="Another host name the browser may use (loopback names always work).")
def serve(host, port, allow_host):
    """Serve the web UI (overview, board, task pages, search; edits act as PM_ROLE/PM_SESSION)."""
    tracker = _tracker()
    try:
        from pm.web.serve import serve as run
    except ImportError as err:
        raise PmError(f"the web UI (pm.web) is not available ({err})")
    run(tracker, host, port, allowed_hosts=allow_host)


@cli.command(name="sync")
@click.argument("remote", required=False)
@JSON
def sync_(remote, as_json):
    """Fetch, merge and push the tracker (REMOTE: a git remote, path or URL; default the
    branch's upstream or origin); clashing new task numbers are renumbered on this side."""
    from pm.sync import sync
    report = sync(_tracker(), remote)
    _emit(report.as_json()) if as_json else click.echo("\n".join(report.lines()))


@cli.command(name="export")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File (default stdout).")
def export_(output):
    """Every task as JSONL (one `pm show --json` object a line)."""
    text = _tracker().export_jsonl()
    if output:
        from plumbing.files import atomic_write
        atomic_write(os.path.abspath(output), text)
    else:
        click.echo(text, nl=False)


@cli.command(name="import")
@click.argument("source", type=click.Path(exists=True))
@click.option("--backlog", is_flag=True, help="SOURCE is a Backlog.md project (backlog/tasks/*.md).")
def import_(source, backlog):
    """Add tasks from a JSONL file (or a Backlog.md project) in one commit."""
    from pm import bulk
    records = bulk.read_records(source, True if backlog else None)
    ids = _tracker().import_records(records)
    click.echo("\n".join(bulk.import_report(records, ids)))


@cli.command()
def prime():
    """A short text that teaches an agent session pm."""
    from pm.prime import PRIME
    click.echo(PRIME, nl=False)
