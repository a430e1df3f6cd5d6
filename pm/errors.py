"""Named exceptions of pm; the CLI turns each into a one-line message and exit code 1."""
from plumbing import lock as _plumbing_lock
from plumbing.errors import NamedError


class PmError(NamedError):
    """Base class: a failure the user can fix; str() is the message shown."""


class TrackerNotFound(PmError):
    """No tracker at PM_DIR or in any parent directory."""


class TaskNotFound(PmError):
    """No task file carries the requested id."""

    def __init__(self, task_id):
        self.task_id = task_id
        super().__init__(f"task {task_id} not found (pm ls lists the tasks)")


class ParseError(PmError):
    """A task file does not follow the format; pm refuses to rewrite it."""

    def __init__(self, path, line, problem):
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}")


class InvalidValue(PmError):
    """A field value outside the allowed set (status, priority, kind, link type...)."""


class Conflict(PmError):
    """A compare-and-set failed: the task is no longer in the expected state."""


class StaleEdit(Conflict):
    """An edit made against a version of the task that is no longer the current one."""

    def __init__(self, task_id, changes):
        self.task_id, self.changes = task_id, list(changes)
        super().__init__(f"task {task_id} changed since you read it ({'; '.join(self.changes)}); "
                         "nothing was written: read it again (reload the page) and redo your edit")


class NothingReady(PmError):
    """claim --next found no ready task (or another caller won it)."""


class RoleRefused(PmError):
    """The acting role may not do this (only ceo changes the sprint)."""


class LockTimeout(PmError, _plumbing_lock.LockTimeout):
    """The tracker lock stayed held longer than the bounded wait."""


class GitError(PmError):
    """A git command failed."""
