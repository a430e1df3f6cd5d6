"""`instances approve`: the app's checks, a merge into main that works while main is checked out
elsewhere, then stop, remove and log on the task."""
import subprocess
from pathlib import Path

from instances import gitops, pm_link, procs
from instances.config import fill
from instances.errors import ChecksFailed, InstancesError


def run_checks(mgr, name: str, path: Path, port: int | None):
    argv = fill(mgr.config.checks, mgr.python)
    mgr.progress(f"checks: {' '.join(argv)}")
    try:
        result = subprocess.run(argv, cwd=path, capture_output=True, text=True, env=mgr.service_env(name, port or 0),
                                stdin=subprocess.DEVNULL)
    except OSError as exc:
        raise ChecksFailed(f"cannot run checks command {argv[0]!r} ({exc.strerror}); fix checks in instances.toml") from None
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise ChecksFailed(f"checks for {name} failed (exit {result.returncode}); nothing merged:\n{tail}")


def approve(mgr, target: str, run_app_checks: bool = True) -> dict:
    rec = mgr.resolve(target)
    name, path, branch = rec["name"], Path(rec["worktree"]), rec["branch"]
    if not path.exists():
        raise InstancesError(f"{name}'s worktree {path} is missing: `instances up {name}` recreates it from its branch")
    dirty = gitops.dirty_paths(path, mgr.config.copy)
    if dirty:
        raise InstancesError(f"{path} has uncommitted changes ({', '.join(dirty[:5])}); commit them first, then approve")
    if run_app_checks and mgr.config.checks:
        run_checks(mgr, name, path, rec.get("port"))
    main = mgr.config.main_branch
    merged = gitops.merge_into(mgr.root, main, branch, f"Merge {branch} (approved with instances)")
    mgr.progress(f"merged {branch} into {main} at {merged['commit'][:10]}")
    procs.stop(rec.get("process"))
    mgr.mark(name, state="stopped", port=None, process=None)
    mgr.sync_nginx()
    with mgr.registry.lock("git"):
        gitops.remove_worktree(mgr.root, path)
        gitops.git("branch", "-d", "--", branch, cwd=mgr.root, check=False)
    with mgr.registry.transaction() as data:
        data["instances"].pop(name, None)
    note = pm_link.log_on_task(rec.get("task"), f"Approved: {branch} merged into {main} at {merged['commit'][:10]}")
    return {"name": name, "branch": branch, "main": main, **merged, "pm": note or "logged"}
