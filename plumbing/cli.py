"""click groups every tool's CLI is built on.

`ToolGroup` turns a NamedError into its one-line message and exit code 1 (usage errors stay
exit 2, click's own), and a closed pipe (`pm ls | head`) into a quiet exit 0. It loads each
command's module only when that command runs (`lazy={"serve": "pm.web.cli:serve"}`), so a CLI
whose commands import heavy libraries still starts fast and lists every command in --help.
"""
from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Iterator

import click

from plumbing.errors import NamedError


class ToolGroup(click.Group):
    """A click group with named errors as clean exits and optionally lazy commands."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx, name: str):
        if name in self.lazy and name not in self.commands:
            module, _, attr = self.lazy[name].partition(":")
            command = getattr(importlib.import_module(module), attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy[name]} is not a click command")
            self.add_command(command, name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        with named_errors():
            return super().invoke(ctx)


@contextlib.contextmanager
def named_errors() -> Iterator[None]:
    """Inside this block a NamedError becomes click's one-line error (exit 1)."""
    try:
        yield
    except NamedError as exc:
        raise click.ClickException(str(exc)) from None
    except BrokenPipeError:
        # The reader went away (`pm ls | head`): point stdout at /dev/null so the flush at
        # exit cannot fail again, and leave quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
