"""The app repository for `instances`: inspection and history through GitPython; worktrees,
status and the merge into a checked-out main through git's own commands (argv lists, never a
shell), where GitPython has no API or only wraps the same command.

GitPython reads refs, commits and merge bases itself (no process for a branch lookup); it keeps
`git cat-file` processes for object reads, so every use is inside `repository()`, which closes them.
git is still run directly (through plumbing.git) for `worktree add/remove/prune/list`, `status -z`
(the exact XY columns and paths, renames included), and the merge: `merge-tree --write-tree`,
`commit-tree`, a compare-and-swap `update-ref` and `read-tree -m -u` have no GitPython equivalent
that works without checking main out.
"""
import contextlib
import subprocess
from pathlib import Path
from typing import Iterator

import git as gitpython  # GitPython

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


@contextlib.contextmanager
def repository(path: Path) -> Iterator[gitpython.Repo]:
    """GitPython's Repo for the repository around PATH, closed after the block."""
    try:
        repo = gitpython.Repo(path, search_parent_directories=True)
    except (gitpython.InvalidGitRepositoryError, gitpython.NoSuchPathError):
        raise GitError(f"{path} is not inside a git repository: run instances from your app's repo") from None
    try:
        yield repo
    finally:
        repo.close()


def repo_root(cwd: Path) -> Path:
    """The top of the *main* worktree (so instances created from a worktree land in one place)."""
    with repository(cwd) as repo:
        common = Path(repo.common_dir).resolve()
        if common.name == ".git":
            return common.parent
        return Path(repo.working_tree_dir or common)


def common_dir(root: Path) -> Path:
    with repository(root) as repo:
        return Path(repo.common_dir).resolve()


def branch_exists(root: Path, branch: str) -> bool:
    with repository(root) as repo:
        return any(head.name == branch for head in repo.heads)


def branches(root: Path, *patterns: str) -> list[str]:
    """Local branch names equal to a pattern or under it ('task/3', 'task/3-' prefixes)."""
    with repository(root) as repo:
        names = [head.name for head in repo.heads]
    return sorted(n for n in names if any(n == p or (p.endswith("-") and n.startswith(p)) for p in patterns))


def rev(root: Path, ref: str) -> str:
    with repository(root) as repo:
        try:
            return repo.commit(ref).hexsha
        except (gitpython.BadName, ValueError):
            raise GitError(f"{ref} does not name a commit in {root}") from None


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
    """Commits on BRANCH that MAIN does not have; None when either is missing."""
    with repository(root) as repo:
        try:
            return sum(1 for _ in repo.iter_commits(f"{main}..{branch}"))
        except (gitpython.GitCommandError, gitpython.BadName, ValueError):
            return None


def history(root: Path, main: str, branch: str, limit: int = 5) -> list[dict]:
    """The newest LIMIT commits on BRANCH not in MAIN: {"sha", "subject", "author", "date"}."""
    with repository(root) as repo:
        try:
            commits = list(repo.iter_commits(f"{main}..{branch}", max_count=limit))
        except (gitpython.GitCommandError, gitpython.BadName, ValueError):
            return []
        return [{"sha": c.hexsha[:10], "subject": c.summary, "author": c.author.name,
                 "date": c.committed_datetime.isoformat(timespec="seconds")} for c in commits]


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
    with repository(root) as repo:
        try:
            old, tip = repo.commit(main).hexsha, repo.commit(branch).hexsha
        except (gitpython.BadName, ValueError) as exc:
            raise GitError(f"cannot merge {branch} into {main}: {exc}") from None
        bases = repo.merge_base(old, tip)
    base = bases[0].hexsha if bases else ""
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
