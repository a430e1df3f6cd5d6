"""Named errors of the skills tool; the CLI prints each as one line with exit code 1."""
from plumbing.errors import NamedError


class SkillsError(NamedError):
    """Base class: a failure the user can fix; str() names what and how."""


class SkillNotFound(SkillsError):
    """No skill folder of that name."""


class InstallRefused(SkillsError):
    """An installed skill was changed by hand and --force was not given."""


class ManualRefused(SkillsError):
    """The manual cannot be written or merged safely; nothing was written."""
