"""`instances`: a live, private review URL per task branch. Thin click layer over
instances.manager: it parses options, calls the manager and prints; named errors become
one-line messages with exit code 1 (plumbing.cli.ToolGroup)."""
import json
import sys
import time

import click

from instances.errors import ChecksFailed
from instances.fmt import fmt_age, fmt_bytes
from plumbing.cli import ToolGroup

CONTEXT = {"help_option_names": ["-h", "--help"]}


def _progress(msg: str):
    click.echo(f"  {msg}", err=True)


def _manager(quiet: bool = False):
    from instances.manager import Instances

    return Instances.from_cwd(progress=None if quiet else _progress)


@click.group(cls=ToolGroup, context_settings=CONTEXT)
def main():
    """A live, private review URL for every task branch.

    Run inside a git repository with an instances.toml. `instances up 412` (a pm task id) or
    `instances up BRANCH` makes a worktree for the branch, starts the app on a leased
    127.0.0.1 port, routes /NAME/ to it through a private nginx and prints the URL.
    Where a command takes NAME, the instance's branch or task id works too.
    """


@main.command()
@click.argument("target")
@click.option("--name", help="Instance name (default: task-ID for tasks, else the branch as a slug).")
@click.option("--no-checks", is_flag=True, help="Skip the sub-path checks through nginx.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def up(target, name, no_checks, as_json):
    """Start an instance for TARGET (a pm task id or a branch) and print its URL last."""
    mgr = _manager(quiet=as_json)
    try:
        result = mgr.up(target, name=name, run_checks=not no_checks)
    except ChecksFailed as exc:  # the instance is up: say what failed, still print the URL last
        click.echo(f"Error: {exc}", err=True)
        click.echo(json.dumps(exc.result) if as_json else exc.result["url"])
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result))
        return
    for check in result["checks"]:
        click.echo(f"  check {check['name']}: {'ok' if check['ok'] else 'FAILED'} ({check['detail']})", err=True)
    if not result["already_running"] and result["pm"] not in ("logged", "no task"):
        click.echo(f"  note: URL not logged on the task: {result['pm']}", err=True)
    click.echo(f"  ready in {result['seconds']:.2f}s", err=True)
    click.echo(result["url"])


@main.command()
@click.argument("name", required=False)
@click.option("--all", "all_", is_flag=True, help="Stop every instance.")
def down(name, all_):
    """Stop NAME's service and unroute it; the worktree stays."""
    if bool(name) == all_:
        raise click.UsageError("give an instance NAME or --all")
    mgr = _manager()
    names = sorted(mgr.registry.instances()) if all_ else [name]
    for one in names:
        result = mgr.down(one)
        click.echo(f"{result['name']} stopped" if result["was_running"] else f"{result['name']} was not running")


@main.command()
@click.argument("name")
@click.option("--force", is_flag=True, help="Remove even with uncommitted or unmerged work (the branch is kept).")
def rm(name, force):
    """Stop NAME and remove its worktree; refuses when it holds uncommitted or unmerged work."""
    mgr = _manager()
    result = mgr.rm(name, force=force)
    click.echo(f"removed {result['removed']} (branch {result['branch_kept']} kept)")


@main.command()
@click.argument("name")
@click.option("--no-checks", is_flag=True, help="Skip the sub-path checks through nginx.")
def restart(name, no_checks):
    """Stop and start NAME's service again, then print its URL."""
    result = _manager().restart(name, run_checks=not no_checks)
    click.echo(result["url"])


@main.command(name="ls")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array (see the README for its shape).")
def ls_cmd(as_json):
    """List instances: state, port, URL, uptime, memory (PSS), commits ahead, last request."""
    mgr = _manager(quiet=True)
    items = mgr.ls()
    if as_json:
        click.echo(json.dumps(items))
        return
    if not items:
        click.echo("no instances; start one with `instances up TASK-ID|BRANCH`")
        return
    header = f"{'NAME':<20} {'STATE':<10} {'PORT':>5} {'UPTIME':>7} {'MEMORY':>10} {'AHEAD':>5}  {'LAST REQUEST':<25} URL"
    click.echo(header)
    for it in items:
        mem = fmt_bytes(it["memory_bytes"]) + ("!" if it["over_memory_limit"] else "")
        click.echo(f"{it['name']:<20} {it['state']:<10} {it['port'] or '-':>5} {fmt_age(it['uptime_seconds']):>7} "
                   f"{mem:>10} {it['ahead'] if it['ahead'] is not None else '-':>5}  {it['last_request'] or '-':<25} {it['url']}")
    for it in items:
        if it["last_action"]:
            act = it["last_action"]
            click.echo(f"  {it['name']}: {act['by']} at {act['at']}: {act['text']}")
    adm = mgr.admission()
    if adm["budget"]:
        click.echo(f"memory: {fmt_bytes(adm['used'])} of {fmt_bytes(adm['budget'])} budget; "
                   f"about {adm['more_fit']} more fit at {fmt_bytes(adm['estimate'])} each")
    if mgr.config.supervise and mgr.config.nginx_mode == "private":
        sup = mgr.supervisor()
        click.echo(f"supervisor: running (pid {sup['pid']}, every {mgr.config.supervise_interval:g}s)" if sup else
                   "supervisor: not running; `instances doctor` starts it")


@main.command()
@click.argument("name")
@click.option("-f", "--follow", is_flag=True, help="Keep printing new lines until interrupted.")
@click.option("-n", "--lines", default=40, show_default=True, help="Lines of history to print first.")
def logs(name, follow, lines):
    """Print NAME's service log (stdout and stderr, and the setup command's output)."""
    from instances.procs import tail

    mgr = _manager(quiet=True)
    rec = mgr.resolve(name)
    path = mgr.log_path(rec["name"])
    text = tail(path, lines)
    if text:
        click.echo(text)
    if not follow:
        return
    pos = path.stat().st_size if path.exists() else 0
    try:
        while True:
            if path.exists() and path.stat().st_size > pos:
                with open(path, "rb") as fh:
                    fh.seek(pos)
                    chunk = fh.read()
                pos += len(chunk)
                click.echo(chunk.decode(errors="replace"), nl=False)
            time.sleep(0.25)
    except KeyboardInterrupt:
        pass


@main.command(name="open")
@click.argument("name")
def open_cmd(name):
    """Print NAME's URL and open it in the desktop's browser when there is a display."""
    import os
    import webbrowser

    mgr = _manager(quiet=True)
    rec = mgr.resolve(name)
    url = mgr.url(rec["name"])
    click.echo(url)
    # Without a display webbrowser may start a console browser in this terminal: only print.
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        try:
            webbrowser.open(url)
        except webbrowser.Error:
            pass


@main.command()
def dashboard():
    """Print the dashboard's URL: every instance on one page at the private nginx's root (same
    user and password as the review URLs), served by the supervisor."""
    mgr = _manager(quiet=True)
    if not mgr.config.supervise or mgr.config.nginx_mode != "private":
        raise click.ClickException("the dashboard runs in the supervisor of a private nginx: set [supervisor] "
                                   "enabled = true and [nginx] mode = \"private\" in instances.toml")
    if mgr.supervisor() is None:
        click.echo("  note: the supervisor is not running, so the dashboard is not served: "
                   "`instances doctor` starts it (or `instances up` starts nginx and it)", err=True)
    click.echo(mgr.dashboard_url())


@main.command()
@click.option("--restart", "restart_dead", is_flag=True, help="Restart services found dead instead of marking them stopped.")
@click.option("--json", "as_json", is_flag=True, help="Print the actions taken as a JSON array of strings.")
def doctor(restart_dead, as_json):
    """Reconcile after crashes: mark dead services stopped (PID-reuse safe) and kill their
    orphans, release leaked port leases, restart a dead nginx, drop orphaned nginx blocks,
    report orphaned worktrees; stop idle instances when idle_stop is set; start the supervisor
    when it should run and does not. --restart also restarts what an earlier doctor marked."""
    mgr = _manager(quiet=True)
    t0 = time.monotonic()
    actions = mgr.doctor(restart_dead=restart_dead)
    if as_json:
        click.echo(json.dumps(actions))
        return
    for action in actions:
        click.echo(action)
    click.echo(f"doctor: {len(actions)} fix(es) in {time.monotonic() - t0:.2f}s" if actions else
               f"doctor: everything consistent ({time.monotonic() - t0:.2f}s)")


@main.command()
@click.argument("name")
@click.option("--skip-checks", is_flag=True, help="Merge without running the checks command from instances.toml.")
def approve(name, skip_checks):
    """Run the app's checks on NAME's worktree, merge its branch into main (even when main is
    checked out in another worktree), stop and remove the instance and its merged branch, and
    log it on the task."""
    mgr = _manager()
    result = mgr.approve(name, run_app_checks=not skip_checks)
    how = "already merged" if result["already_merged"] else ("fast-forward" if result["fast_forward"] else "merge commit")
    click.echo(f"approved {result['branch']}: {result['main']} at {result['commit'][:10]} ({how}); instance {result['name']} removed")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print {\"user\", \"password\"} as JSON.")
def auth(as_json):
    """Print the user and password protecting the review URLs (basic auth)."""
    mgr = _manager(quiet=True)
    creds = mgr.credentials()
    if creds is None:
        raise click.ClickException("review URLs are not protected ([nginx] auth = \"none\" in instances.toml)")
    click.echo(json.dumps({"user": creds[0], "password": creds[1]}) if as_json else f"user: {creds[0]}\npassword: {creds[1]}")


@main.group()
def nginx():
    """The nginx in front of the instances (private server or system include)."""


@nginx.command(name="sync")
@click.option("--reload", "force", is_flag=True, help="Reload (and verify) even when nothing changed.")
def nginx_sync(force):
    """Start the private nginx if needed and make it route exactly the running instances."""
    mgr = _manager(quiet=True)
    click.echo(mgr.sync_nginx(force=force))


@nginx.command(name="stop")
def nginx_stop():
    """Stop the private nginx (running services keep running; `instances nginx sync` routes them again)."""
    mgr = _manager(quiet=True)
    click.echo("stopped" if mgr.stop_nginx() else "not running")


@nginx.command(name="conf")
def nginx_conf():
    """Print the include file that the registry renders to right now (nothing is applied)."""
    mgr = _manager(quiet=True)
    data = mgr.registry.load()
    click.echo(mgr.render_include(data, data["generation"]), nl=False)


@main.command(hidden=True)
@click.argument("root", type=click.Path(exists=True, file_okay=False))
@click.argument("state", type=click.Path(exists=True, file_okay=False))
def supervise(root, state):
    """Run the supervisor for STATE (started by `instances` itself with the private nginx)."""
    from pathlib import Path

    from instances.config import load_config
    from instances.manager import Instances
    from instances.supervisor import serve

    root, state = Path(root), Path(state)
    sys.exit(serve(state, lambda: Instances(root, load_config(root), state)))


if __name__ == "__main__":
    main()
