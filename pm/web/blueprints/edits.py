"""Edits from the browser: status, fields and sections, a log entry, a new task, and (when
the server acts as the ceo) the sprint. Each is one call of pm's API, so it takes the lock,
makes one commit and is compare-and-set against the version the page showed (StaleEdit:
409 with what changed). Forms post and are redirected back (no script needed); the board's
script posts the same forms and asks for JSON."""
from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from pm.api import SECTIONS, Conflict, InvalidValue, PmError, RoleRefused, TaskNotFound
from pm.errors import StaleEdit
import pm.web.data as data

bp = Blueprint("edits", __name__)

FIELDS = ("title", "priority", "kind", "owner")


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _text(name: str) -> str:
    """A form value with the browser's CRLF line ends made LF."""
    return (request.form.get(name) or "").replace("\r\n", "\n")


def _done(number: int, what: str):
    if _wants_json():
        task, version = data.tracker().read(number)
        return jsonify(ok=True, message=what, id=number, status=task.status, version=version)
    return redirect(url_for("tasks.show", ref=number, done=what), code=303)


@bp.post("/tasks/<int:number>/status")
def status(number):
    """Move a task to another status (the board's drop and the task page's form)."""
    wanted = request.form.get("status", "")
    shown = request.form.get("from") or None  # the column the card was in
    data.tracker().set_status(number, wanted, expect=shown, version=request.form.get("version"))
    return _done(number, f"#{number} is {wanted}")


@bp.post("/tasks/<int:number>/edit")
def edit(number):
    """Set the fields and sections that differ from the version the page showed."""
    tracker = data.tracker()
    current, _version = tracker.read(number)
    changed = {}
    for name in FIELDS:
        if name in request.form and _text(name).strip() != getattr(current, name):
            changed[name] = _text(name).strip()
    if "labels" in request.form and _text("labels").replace(" ", "") != ",".join(current.labels):
        changed["labels"] = _text("labels")
    for name in SECTIONS:
        if name in request.form and _text(name).strip() != current.sections.get(name, "").strip():
            changed[name] = _text(name).strip()
    if changed:
        tracker.set(number, version=request.form.get("version"), **changed)
    return _done(number, f"#{number}: " + (", ".join(sorted(changed)) + " saved" if changed else "nothing changed"))


@bp.post("/tasks/<int:number>/log")
def log(number):
    """Append a log entry (plain text, escaped like `pm log`)."""
    data.tracker().log(number, _text("message"), version=request.form.get("version"))
    return _done(number, f"logged on #{number}")


@bp.post("/tasks/<int:number>/sprint")
def sprint(number):
    """Promote, rank or demote (the server must act as the ceo)."""
    tracker, action = data.tracker(), request.form.get("action")
    version = request.form.get("version")
    rank = request.form.get("rank", "").strip()
    if rank and not rank.isdigit():
        raise InvalidValue(f"rank {rank!r} is not a positive number")
    if action == "promote":
        task = tracker.promote(number, int(rank) if rank else None, version=version)
    elif action == "rank":
        task = tracker.rank(number, int(rank or 0), version=version)
    elif action == "demote":
        task = tracker.demote(number, version=version)
    else:
        raise InvalidValue(f"sprint action {action!r}: use promote, rank or demote")
    where = "out of the sprint" if task.sprint_rank is None else f"at sprint rank {task.sprint_rank}"
    return _done(number, f"#{number} {where}")


@bp.get("/new")
def new_form():
    """The form for a new task."""
    return render_template("tasks/new.html", vocab=data.vocabulary())


@bp.post("/new")
def new():
    """Create a task; its page comes next."""
    task = data.tracker().new(request.form.get("title", ""),
                              priority=request.form.get("priority") or "P2",
                              kind=request.form.get("kind") or "task",
                              problem=_text("problem").strip(),
                              labels=_text("labels").split(","))
    return _done(task.id, f"created #{task.id}")


def _refused(error: PmError, status: int, heading: str):
    changes = getattr(error, "changes", [])
    if _wants_json():
        return jsonify(ok=False, error=str(error), changes=changes), status
    number = request.view_args.get("number") if request.view_args else None
    return render_template("errors/refused.html", status=status, heading=heading,
                           message=str(error), changes=changes, number=number), status


@bp.errorhandler(StaleEdit)
def stale(error):
    return _refused(error, 409, "This task changed since your page showed it")


@bp.errorhandler(RoleRefused)
def role_refused(error):
    return _refused(error, 403, "Not allowed for the role this server acts as")


@bp.errorhandler(TaskNotFound)
def not_found(error):
    return _refused(error, 404, f"Task {error.task_id} not found")


@bp.errorhandler(PmError)
def refused(error):
    return _refused(error, 409 if isinstance(error, Conflict) else 400, "Not saved")
