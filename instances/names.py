"""Names: instance names are slugs that are safe in URLs, nginx config, file names and argv.

Everything here is pure. A branch name never reaches nginx or a file name; only the slug made
from it does, and a slug can only hold ``[a-z0-9-]``.
"""
import re
import unicodedata

from instances.errors import NameError_

MAX_NAME = 48
_NAME_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$")
# Reserved for the proxy's own endpoints (generation probe).
RESERVED = {"__instances"}


def slugify(text: str, max_len: int = MAX_NAME) -> str:
    """Lower-case ASCII words joined by single dashes: 'Fix: Ko rule (#3)' -> 'fix-ko-rule-3'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:max_len].rstrip("-")


def validate_name(name: str) -> str:
    """Return NAME if it is a valid instance name, else raise NameError_ saying what is allowed."""
    if not isinstance(name, str) or not _NAME_RE.match(name) or name in RESERVED:
        raise NameError_(
            f"invalid instance name {name!r}: use 1-{MAX_NAME} characters a-z, 0-9 and '-', "
            "starting and ending with a letter or digit"
        )
    return name


_BAD_REF_CHARS = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]")


def validate_branch(branch: str) -> str:
    """Return BRANCH if git accepts it as a branch name and it cannot pass for an option.

    Mirrors git's check-ref-format rules so a hostile name fails before any git call.
    """
    problems = (
        not branch
        or branch.startswith(("-", "/", "."))
        or branch.endswith(("/", ".", ".lock"))
        or ".." in branch
        or "//" in branch
        or "@{" in branch
        or branch == "@"
        or "/." in branch
        or ".lock/" in branch
        or _BAD_REF_CHARS.search(branch)
        or len(branch) > 200
    )
    if problems:
        raise NameError_(
            f"invalid branch name {branch!r}: git branch names cannot start with '-' or '.', "
            "or contain spaces, '..', '~', '^', ':', '?', '*', '[' or control characters"
        )
    return branch


def task_branch(task_id: int, title: str | None) -> str:
    """Branch for a pm task: 'task/412-fix-ko-rule' (or 'task/412' without a usable title)."""
    slug = slugify(title or "", max_len=40)
    return f"task/{task_id}-{slug}" if slug else f"task/{task_id}"


def task_instance_name(task_id: int) -> str:
    return f"task-{int(task_id)}"


_TASK_BRANCH_RE = re.compile(r"^task/(\d+)(?:-|$)")


def instance_name_for_branch(branch: str) -> str:
    """Instance name for a branch: 'task/412-x' -> 'task-412', 'feat/Login UI' -> 'feat-login-ui'."""
    match = _TASK_BRANCH_RE.match(branch)
    if match:
        return task_instance_name(int(match.group(1)))
    slug = slugify(branch)
    if not slug:
        raise NameError_(f"branch {branch!r} has no letters or digits to name an instance; pass --name")
    return validate_name(slug)


def task_id_of_branch(branch: str) -> int | None:
    match = _TASK_BRANCH_RE.match(branch)
    return int(match.group(1)) if match else None
