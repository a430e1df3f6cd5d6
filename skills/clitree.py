"""The real command trees: a tool's click group loaded from its module, and the check that an
argv names commands and options that exist there.

The check walks click's own objects (groups, their commands, each parameter's option
strings), never help text: a renamed flag or command fails it the moment the code changes."""
from __future__ import annotations

import functools
import importlib

import click

DISTRIBUTION = "soloshop"


@functools.lru_cache(maxsize=1)
def tools() -> dict[str, str]:
    """{console script: "module:object"} for every CLI this distribution installs: the tools a
    skill or the manual may name. Read from the installed entry points, so a new tool is
    checked as soon as pyproject.toml declares it."""
    from importlib.metadata import distribution
    return {ep.name: ep.value for ep in distribution(DISTRIBUTION).entry_points
            if ep.group == "console_scripts"}


def load(tool: str) -> click.Command:
    """TOOL's click command: the entry point itself, or (for a plain main() wrapper, like
    pm's) the module's `cli`."""
    module_name, _, attr = tools()[tool].partition(":")
    module = importlib.import_module(module_name)
    command = getattr(module, attr)
    if not isinstance(command, click.Command):
        command = getattr(module, "cli", None)
    if not isinstance(command, click.Command):
        raise TypeError(f"{tools()[tool]} is not a click command and its module has no `cli`")
    return command


def _options(command: click.Command, ctx: click.Context) -> dict[str, click.Option]:
    opts = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                opts[name] = param
    return opts


def _takes_value(option: click.Option) -> bool:
    return not option.is_flag and not option.count and option.nargs != 0


def _check_options(path: str, command: click.Command, ctx, args: list[str]) -> tuple[list[str], str | None]:
    """Consume ARGS' options for COMMAND up to its first positional; (the rest, a problem)."""
    opts = _options(command, ctx)
    rest = list(args)
    while rest:
        token = rest[0]
        if token == "--":
            return rest[1:], None
        if not token.startswith("-") or token == "-" or _is_number(token):
            return rest, None
        name = token.split("=", 1)[0] if token.startswith("--") else token[:2]
        option = opts.get(name)
        if option is None:
            known = ", ".join(sorted(o for o in opts if o.startswith("--"))) or "none"
            return rest, f"`{path}` has no option {name} (its options: {known})"
        rest.pop(0)
        inline_value = "=" in token if token.startswith("--") else len(token) > 2
        if _takes_value(option) and not inline_value:
            if not rest:
                return rest, f"`{path} {name}` needs a value"
            rest.pop(0)
        elif not _takes_value(option) and token.startswith("--") and "=" in token:
            return rest, f"`{path} {name}` is a flag and takes no value"
    return rest, None


def _is_number(token: str) -> bool:
    try:
        float(token)
        return True
    except ValueError:
        return False


def check(argv: list[str] | tuple) -> str | None:
    """None if ARGV (tool, subcommands..., options, arguments) names only commands and options
    that exist in the tool's click tree; else what is wrong."""
    tool, args = argv[0], list(argv[1:])
    command = load(tool)
    ctx = click.Context(command, info_name=tool, resilient_parsing=True)
    path = tool
    while True:
        # Options may come anywhere among a leaf command's arguments (click allows that).
        if not isinstance(command, click.Group):
            while args:
                args, problem = _check_options(path, command, ctx, args)
                if problem:
                    return problem
                if args:
                    args.pop(0)      # a positional argument
            return None
        args, problem = _check_options(path, command, ctx, args)
        if problem:
            return problem
        if not args:
            return None              # the group alone (prints its help)
        name = args.pop(0)
        sub = command.get_command(ctx, name)
        if sub is None:
            names = ", ".join(command.list_commands(ctx))
            return f"`{path}` has no command {name!r} (its commands: {names})"
        path = f"{path} {name}"
        ctx = click.Context(sub, parent=ctx, info_name=name, resilient_parsing=True)
        command = sub
