"""Named failures of `instances`; the CLI turns each into a one-line message and exit code 1."""
from plumbing import git as plumbing_git
from plumbing.errors import NamedError


class InstancesError(NamedError):
    """Base class: a failure the user can fix; the message names the object and the fix."""


class ConfigError(InstancesError):
    """instances.toml is missing or holds an invalid value."""


class NameError_(InstancesError):
    """A branch or instance name is not acceptable."""


class NotFound(InstancesError):
    """No instance matches the given name, branch or task id."""


class AlreadyExists(InstancesError):
    """An instance with that name already exists."""


class BudgetExceeded(InstancesError):
    """Starting one more instance would exceed the memory budget."""


class StartFailed(InstancesError):
    """The service did not become healthy; the message carries the log's tail."""


class NginxError(InstancesError):
    """nginx refused a configuration, failed to start, or a reload did not take effect."""


class GitError(InstancesError, plumbing_git.GitError):
    """A git command failed; the message carries git's own words."""


class UnsafeToRemove(InstancesError):
    """The worktree holds uncommitted or unmerged work."""


class ChecksFailed(InstancesError):
    """The app's checks or the sub-path checks failed."""
