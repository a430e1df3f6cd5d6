"""The base of every failure a user can fix; each tool's errors derive from it."""


class NamedError(Exception):
    """A failure the user can fix: str() names what is wrong and how to fix it.

    CLIs built on `plumbing.cli` print the message on one line and exit with code 1."""
