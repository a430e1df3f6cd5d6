"""`skills`: list, install and lint the agent skills; write the operating manual and keep its
rules. Thin: parse, call the module that owns the job, print (plumbing.cli.ToolGroup turns
named errors into one-line messages with exit code 1)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
from plumbing.cli import ToolGroup

CONTEXT = {"help_option_names": ["-h", "--help"]}
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
ROOT = click.option("--root", type=click.Path(file_okay=False, exists=True, path_type=Path),
                    help="A folder of skill folders (default: the skills shipped with soloshop).")


def _emit(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def _root(root: Path | None) -> Path:
    from skills.catalog import HERE
    return root or HERE


@click.group(cls=ToolGroup, context_settings=CONTEXT)
@click.version_option(package_name="soloshop", prog_name="skills")
def cli():
    """Agent skills that encode this shop's judgment, and its operating manual."""


@cli.command(name="list")
@ROOT
@JSON
def list_(root, as_json):
    """The skills: name, description and token counts (description, body)."""
    from skills.catalog import all_skills
    from skills.lint import figures
    rows = [{"name": s.name, "description": s.description, **figures(s)}
            for s in all_skills(_root(root))]
    if as_json:
        _emit(rows)
        return
    for row in rows:
        click.echo(f"{row['name']:<22} {row['description_tokens']:>4}+{row['body_tokens']:<5} "
                   f"{row['description'][:90]}")


@cli.command()
@click.argument("names", nargs=-1)
@click.option("--user", "where", flag_value="user", default=True,
              help="Into ~/.claude/skills (the default).")
@click.option("--project", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Into PROJECT/.claude/skills (a repository's own skills).")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path),
              help="Into this folder (another agent's skills folder).")
@click.option("--link", is_flag=True, help="Symlink to this checkout instead of copying.")
@click.option("--force", is_flag=True, help="Overwrite installed skills that were changed.")
@ROOT
@JSON
def install(names, where, project, directory, link, force, root, as_json):
    """Install skills (default: all) for Claude Code or any agent that reads SKILL.md folders."""
    from skills import catalog
    from skills.install import install as run, project_dir, user_dir
    if project and directory:
        raise click.UsageError("give --project or --dir, not both")
    target = directory or (project_dir(project) if project else user_dir())
    chosen = ([catalog.get(n, _root(root)) for n in names] if names
              else catalog.all_skills(_root(root)))
    rows = run(chosen, target, link=link, force=force)
    if as_json:
        _emit(rows)
        return
    for row in rows:
        click.echo(f"{row['action']:<11} {row['name']} -> {row['path']}")


@cli.command()
@click.option("--budget", type=click.IntRange(min=1), help="Tokens a body may use "
              "(default 1000; counted as cl100k_base BPE tokens).")
@click.option("--manual", "manuals", multiple=True,
              type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Also check the commands this manual names (repeatable).")
@ROOT
@JSON
def lint(budget, manuals, root, as_json):
    """Check every skill and the manual template; exit 1 on any fault."""
    from skills import catalog, lint as checks, manual
    began = time.monotonic()
    faults = []
    for skill in catalog.all_skills(_root(root)):
        faults += checks.lint_skill(skill, budget or checks.BODY_BUDGET)
    for path in (manual.TEMPLATES / manual.MANUAL, *manuals):
        faults += checks.lint_text(path.read_text(encoding="utf-8"), str(path))
    seconds = time.monotonic() - began
    if as_json:
        _emit({"faults": [vars(f) for f in faults], "seconds": round(seconds, 3)})
    else:
        for fault in faults:
            click.echo(str(fault))
        click.echo(f"{len(faults)} fault(s)" if faults else f"ok ({seconds:.2f} s)",
                   err=bool(faults))
    sys.exit(1 if faults else 0)


@cli.group(cls=ToolGroup)
def manual():
    """The operating manual (AGENTS.md, imported by CLAUDE.md)."""


@manual.command(name="init")
@click.argument("directory", required=False,
                type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Say what would be written; write nothing.")
@JSON
def manual_init(directory, dry_run, as_json):
    """Write the manual into DIRECTORY (default: this git repository's root). Never clobbers:
    merges the rules an existing manual lacks, or refuses and says why."""
    from skills import manual as m
    repo = directory or m.find_manual().parent
    rows = m.init(repo, dry_run=dry_run)
    if as_json:
        _emit(rows)
        return
    for row in rows:
        extra = f": {len(row['rules'])} rule(s)" if row["rules"] else ""
        click.echo(("would be " if dry_run else "") + f"{row['action']}: {row['file']}{extra}")


@cli.group(cls=ToolGroup)
def rule():
    """The manual's rules: each with the mistake it came from and an optional check."""


MANUAL = click.option("--manual", "manual_path", type=click.Path(dir_okay=False, path_type=Path),
                      help="The manual (default: AGENTS.md at this git repository's root).")


@rule.command(name="add")
@click.argument("text")
@click.option("--because", required=True, help="The mistake this rule came from.")
@click.option("--check", help="A shell command that exits non-zero when the mistake recurs.")
@MANUAL
@JSON
def rule_add(text, because, check, manual_path, as_json):
    """Append a rule to the manual."""
    from skills import manual as m
    path = manual_path or m.find_manual()
    new = m.add_rule(path, text, because, check)
    if as_json:
        _emit({"number": new.number, "title": new.title, "because": new.because,
               "check": new.check, "manual": str(path)})
    else:
        click.echo(f"R{new.number} added to {path}")


@rule.command(name="list")
@MANUAL
@JSON
def rule_list(manual_path, as_json):
    """The manual's rules."""
    from skills import manual as m
    rules = m.parse(Path(manual_path or m.find_manual()).read_text(encoding="utf-8"))
    if as_json:
        _emit([{"number": r.number, "title": r.title, "because": r.because, "check": r.check}
               for r in rules])
        return
    for r in rules:
        click.echo(f"R{r.number}. {r.title}" + ("  [check]" if r.check else ""))


@rule.command(name="check")
@MANUAL
@click.option("--timeout", type=float, default=120, show_default=True,
              help="Seconds one check may run.")
@JSON
def rule_check(manual_path, timeout, as_json):
    """Run every rule's check; name the ones that fail (exit 1 if any)."""
    from skills import manual as m
    path = Path(manual_path or m.find_manual())
    if not path.exists():
        from skills.errors import ManualRefused
        raise ManualRefused(f"{path} does not exist; skills manual init writes it")
    began = time.monotonic()
    results = m.run_checks(path, timeout=timeout)
    seconds = time.monotonic() - began
    failed = [r for r in results if not r.ok]
    if as_json:
        _emit({"seconds": round(seconds, 3), "checks": [
            {"number": r.rule.number, "title": r.rule.title, "check": r.rule.check,
             "ok": r.ok, "exit": r.exit_code, "seconds": round(r.seconds, 3),
             "output": r.output} for r in results]})
    else:
        for r in results:
            click.echo(f"{'ok  ' if r.ok else 'FAIL'} R{r.rule.number}. {r.rule.title}")
            if r.exit_code in (126, 127):
                click.echo(f"     check `{r.rule.check}` could not run (exit {r.exit_code}: "
                           "a command is missing or not executable), so it proves nothing")
            elif not r.ok:
                click.echo(f"     check `{r.rule.check}` exited {r.exit_code}; the mistake "
                           f"it guards against: {r.rule.because}")
                for line in r.output.strip().splitlines()[-5:]:
                    click.echo(f"     | {line}")
        click.echo(f"{len(failed)} of {len(results)} check(s) failed" if failed
                   else f"{len(results)} check(s) passed ({seconds:.2f} s)")
    sys.exit(1 if failed else 0)


def main(argv=None):
    cli.main(args=sys.argv[1:] if argv is None else list(argv), prog_name="skills")


if __name__ == "__main__":
    main()
