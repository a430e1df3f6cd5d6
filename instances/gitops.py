"""git through argv lists (never a shell): worktrees, work-at-risk checks, and merging into the
main branch even when it is checked out in another worktree."""
import subprocess
from pathlib import Path

from instances.errors import GitError, UnsafeToRemove
from plumbing import git as plumbing_git


def git(*args, cwd: Path, check: bool = True, input: str | None = None) -> subprocess.CompletedProcess:
    """`git ARGS` in CWD through plumbing.git; a failure is instances' GitError (git's own words)."""
    try:
        return plumbing_git.run(cwd, *args, input=input, check=check)
    except plumbing_git.GitError as exc:
        raise GitError(str(exc)) from None


def out(*args, cwd: Path) -> str:
    return git(*args, cwd=cwd).stdout.strip()


def repo_root(cwd: Path) -> Path:
    """The top of the *main* worktree (so instances created from a worktree land in one place)."""
    try:
        common = Path(out("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=cwd))
    except GitError:
        raise GitError(f"{cwd} is not inside a git repository: run instances from your app's repo") from None
    if common.name == ".git":
        return common.parent
    return Path(out("rev-parse", "--show-toplevel", cwd=cwd))


def common_dir(root: Path) -> Path:
    return Path(out("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=root))


def branch_exists(root: Path, branch: str) -> bool:
    return git("show-ref", "--verify", "--quiet", f"refs/heads/{branch}", cwd=root, check=False).returncode == 0


def rev(root: Path, ref: str) -> str:
    return out("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", cwd=root)


def worktrees(root: Path) -> list[dict]:
    """`git worktree list --porcelain` as dicts with path, head and branch (short name or None)."""
    items, cur = [], {}
    for line in out("worktree", "list", "--porcelain", cwd=root).splitlines() + [""]:
        if not line:
            if cur:
                items.append(cur)
            cur = {}
            continue
        key, _, value = line.partition(" ")
        if key == "worktree":
            cur = {"path": value, "head": None, "branch": None}
        elif key == "HEAD":
            cur["head"] = value
        elif key == "branch":
            cur["branch"] = value.removeprefix("refs/heads/")
    return items


def add_worktree(root: Path, path: Path, branch: str, base: str) -> bool:
    """Check BRANCH out at PATH, creating it from BASE when it does not exist. True if created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    git("worktree", "prune", cwd=root, check=False)  # forget worktrees whose directory was deleted
    if branch_exists(root, branch):
        for wt in worktrees(root):
            if wt["branch"] == branch:
                raise GitError(f"branch {branch} is already checked out at {wt['path']}; "
                               "a branch can be checked out in one worktree only")
        git("worktree", "add", "--", str(path), branch, cwd=root)
        return False
    if not branch_exists(root, base):
        raise GitError(f"cannot branch {branch} from {base}: there is no branch {base} in {root}; "
                       "set main_branch in instances.toml")
    git("worktree", "add", "-b", branch, "--", str(path), base, cwd=root)
    return True


def ahead(root: Path, main: str, branch: str) -> int | None:
    result = git("rev-list", "--count", f"{main}..{branch}", "--", cwd=root, check=False)
    return int(result.stdout.strip()) if result.returncode == 0 else None


def dirty_paths(worktree: Path, ignore: tuple[str, ...] = ()) -> list[str]:
    """Uncommitted changes and untracked files (ignored files excluded), minus IGNORE (copied files).

    Read with -z: entries are "XY PATH" split by NUL, unquoted, and nothing is stripped (a
    leading space is the X column of " M file"); a rename's original path follows as its own entry.
    """
    entries = git("status", "--porcelain=v1", "-z", "--untracked-files=all", cwd=worktree).stdout.split("\0")
    paths, skip = [], False
    for entry in entries:
        if skip or not entry:
            skip = False
            continue
        paths.append(entry[3:])
        skip = entry[0] in "RC"
    return [p for p in paths if not any(p == i or p.startswith(i.rstrip("/") + "/") for i in ignore)]


def check_safe_to_remove(root: Path, worktree: Path, branch: str, main: str, ignore=(), name: str = "") -> None:
    """Refuse to remove a worktree with uncommitted files (they would be lost) or with commits
    not merged into MAIN (not lost: the branch keeps them, but the review is not done)."""
    name = name or worktree.name
    problems = []
    if worktree.exists():
        dirty = dirty_paths(worktree, ignore)
        if dirty:
            shown = ", ".join(dirty[:5]) + (" ..." if len(dirty) > 5 else "")
            problems.append(f"{len(dirty)} uncommitted file(s) ({shown}) would be lost: commit them on {branch}, "
                            f"or `instances rm --force {name}` discards them")
    count = ahead(root, main, branch)
    if count:
        problems.append(f"{count} commit(s) on {branch} not merged into {main} stay on the branch either way: "
                        f"`instances approve {name}` merges them, `instances rm --force {name}` removes only the worktree")
    if problems:
        raise UnsafeToRemove(f"not removing {worktree}: {'; '.join(problems)}")


def remove_worktree(root: Path, path: Path) -> None:
    if path.exists():
        git("worktree", "remove", "--force", "--", str(path), cwd=root)
    git("worktree", "prune", cwd=root, check=False)


def merge_into(root: Path, main: str, branch: str, message: str) -> dict:
    """Merge BRANCH into MAIN without checking MAIN out here.

    The merge is computed with `git merge-tree --write-tree` (no worktree needed), committed with
    commit-tree and published with a compare-and-swap update-ref. If MAIN is checked out in some
    worktree, that worktree's files and index are moved from the old to the new commit first
    with a two-tree `read-tree -m -u`, which refuses (changing nothing) when its local changes
    touch the merged files; local changes elsewhere are kept.
    """
    old = rev(root, main)
    tip = rev(root, branch)
    base = git("merge-base", old, tip, cwd=root, check=False).stdout.strip()
    if base == tip:
        return {"commit": old, "fast_forward": False, "already_merged": True}
    if base == old:
        new, ff = tip, True
    else:
        result = git("merge-tree", "--write-tree", "--name-only", "--messages", old, tip, cwd=root, check=False)
        if result.returncode == 1:
            conflicts = result.stdout.strip().splitlines()[1:]
            raise GitError(f"{branch} conflicts with {main} ({', '.join(c for c in conflicts if c)[:300]}); "
                           f"merge {main} into {branch}, resolve, commit, and approve again")
        if result.returncode != 0:
            raise GitError(f"git merge-tree failed: {result.stderr.strip()}")
        tree = result.stdout.split()[0]
        new = out("commit-tree", tree, "-p", old, "-p", tip, "-m", message, cwd=root)
        ff = False
    checked_out = [Path(wt["path"]) for wt in worktrees(root) if wt["branch"] == main]
    for wt in checked_out:
        result = git("read-tree", "-m", "-u", old, new, cwd=wt, check=False)
        if result.returncode != 0:
            raise GitError(f"{main} is checked out at {wt} with local changes the merge would overwrite "
                           f"({result.stderr.strip()}); commit or move them, then approve again")
    result = git("update-ref", "-m", f"instances approve: {message}", f"refs/heads/{main}", new, old,
                 cwd=root, check=False)
    if result.returncode != 0:
        for wt in checked_out:  # put the files back: main moved under us
            git("read-tree", "-m", "-u", new, old, cwd=wt, check=False)
        raise GitError(f"{main} moved while merging ({result.stderr.strip()}); approve again")
    return {"commit": new, "fast_forward": ff, "already_merged": False}
