"""pm sync [REMOTE]: the round trip through a git remote - fetch, merge, push - under the
tracker lock, retried when the remote moved in between.

Before merging, tasks this clone created that share a number with tasks the remote gained
meanwhile are renumbered here (this side has not pushed them: nobody else knows their
numbers), with every link to them following (pm.renumber). git then merges; a task file both
sides changed is merged by pm.merge3 (every log entry kept), and overview.html is regenerated
from the merged task files, never merged by hand. A fresh `git clone` of the remote is a
working tracker; its first pm change installs the merge driver and hook (pm.reposetup).
"""
from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field

from plumbing import git as plumbing_git

from pm import gitrepo, numbers
from pm.errors import GitError, PmError
from pm.layout import OVERVIEW, OVERVIEW_PAGES, TASKS
from pm.model import now

ATTEMPTS = 10
_NO_HOOKS = ("-c", "core.hooksPath=/dev/null")  # the post-merge hook would wait for our lock
_REJECTED = ("rejected", "fetch first", "non-fast-forward", "failed to update ref",
             "cannot lock ref", "stale info")


class SyncRefused(PmError):
    """pm sync cannot merge this on its own (unrelated histories, a conflict outside the
    task files, a task file deleted on one side)."""


@dataclass
class SyncReport:
    remote: str
    branch: str
    received: int = 0
    sent: int = 0
    attempts: int = 0
    renumbered: list = field(default_factory=list)  # [(old id, new id, new path)]
    merged: list = field(default_factory=list)  # task files pm merged
    overview: bool = False
    notes: list = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"pm sync {self.remote} {self.branch}: received {self.received} commit(s), "
               f"sent {self.sent}" + (f" ({self.attempts} attempts: the remote moved)"
                                       if self.attempts > 1 else "")]
        out += [f"#{old} (made here, not pushed yet) is now #{new} ({path}): the remote has its own #{old}"
                for old, new, path in self.renumbered]
        out += [f"merged {path}: both sides changed it" for path in self.merged]
        if self.overview:
            out.append("overview.html regenerated from the merged tasks")
        return out + self.notes

    def as_json(self) -> dict:
        return {"remote": self.remote, "branch": self.branch, "received": self.received,
                "sent": self.sent, "attempts": self.attempts,
                "renumbered": [{"from": o, "to": n, "path": p} for o, n, p in self.renumbered],
                "merged": self.merged}


def _git(root, *args, check=True, env=None, input=None):
    """git ARGS in ROOT; with CHECK, GitError naming the command when it fails."""
    proc = plumbing_git.run(root, *args, check=False, env=env, input=input)
    if check and proc.returncode != 0:
        shown = " ".join(a for a in args if not a.startswith("core.hooksPath") and a != "-c")[:60]
        raise GitError(f"git {shown} failed: {(proc.stderr or proc.stdout).strip()}")
    return proc


def _checked(root, *args, env=None, input=None):
    return _git(root, *args, env=env, input=input)


def _branch(root: str) -> str:
    proc = _git(root, "symbolic-ref", "--short", "-q", "HEAD", check=False)
    if proc.returncode != 0:
        raise SyncRefused("HEAD is detached; check out the tracker's branch (git checkout main)")
    return proc.stdout.strip()


def default_remote(root: str, branch: str) -> str:
    """The branch's upstream remote, else origin; SyncRefused when there is none."""
    configured = _git(root, "config", f"branch.{branch}.remote", check=False).stdout.strip()
    remotes = _git(root, "remote").stdout.split()
    if configured:
        return configured
    if "origin" in remotes:
        return "origin"
    raise SyncRefused("no remote to sync with: give one (pm sync PATH-OR-URL) or add it "
                      "(git remote add origin URL)")


def _fetch(root: str, remote: str, branch: str) -> str:
    """The remote branch's commit after fetching it ("" when the remote has no such branch)."""
    proc = _git(root, "fetch", "-q", remote, f"refs/heads/{branch}", check=False)
    if proc.returncode != 0:
        if "couldn't find remote ref" in proc.stderr:
            return ""
        raise GitError(f"cannot fetch {branch} from {remote}: {proc.stderr.strip()}; check the "
                       "remote's name, path or URL (git remote -v)")
    return _git(root, "rev-parse", "FETCH_HEAD^{commit}").stdout.strip()


def _is_ancestor(root: str, a: str, b: str) -> bool:
    return _git(root, "merge-base", "--is-ancestor", a, b, check=False).returncode == 0


def _count(root: str, spec: str) -> int:
    return int(_git(root, "rev-list", "--count", spec).stdout.strip() or 0)


def _added_ids(root: str, base: str, rev: str) -> dict[int, str]:
    """{id: path} of task files REV added since BASE."""
    names = _git(root, "diff", "--no-renames", "--name-only", "--diff-filter=A", "-z", base, rev,
                 "--", f"{TASKS}/").stdout.split("\0")
    out = {}
    for rel in filter(None, names):
        number = os.path.basename(rel).split("-", 1)[0]
        if number.isdigit() and rel.endswith(".html"):
            out[int(number)] = rel
    return out


def _remote_top(root: str, rev: str) -> int:
    names = _git(root, "ls-tree", "-r", "--name-only", "-z", rev, f"{TASKS}/").stdout.split("\0")
    return max((int(n.split("/")[-1].split("-", 1)[0]) for n in names
                if n.split("/")[-1].split("-", 1)[0].isdigit()), default=0)


def _renumber_clashes(work, root: str, base: str, remote_head: str, report: SyncReport) -> None:
    """Give this clone's new tasks whose numbers the remote also gained fresh numbers, in one
    commit, before the merge."""
    from pm.renumber import renumber
    clash = sorted(set(_added_ids(root, base, "HEAD")) & set(_added_ids(root, base, remote_head)))
    if not clash:
        return
    top = max(_remote_top(root, remote_head), numbers.next_id(work.paths) - 1)
    paths, moved, stamp = [], [], now()
    for old in clash:
        top += 1
        doc = work.doc(old)
        linking = {t.path: work.doc(t.id) for t in work.tasks()  # as written by earlier moves
                   if t.id != old and any(i == old for _k, i in t.links)}
        old_rel = doc.path
        new_rel, changed = renumber(work, doc, top, linking)
        for rel in changed:
            work.save(linking[rel], stamp)
        paths += [old_rel, new_rel, *changed]
        moved.append((old, top, new_rel))
    work.write_state(work.paths.reserved, f"{top}\n")
    work.commit(paths, "pm: sync renumbers " + ", ".join(
        f"#{o} as #{n}" for o, n, _p in moved) + " (the remote has its own)")
    report.renumbered += moved


def _show(root: str, stage: int, rel: str) -> str | None:
    proc = _git(root, "show", f":{stage}:{rel}", check=False)
    return proc.stdout if proc.returncode == 0 else None


def _merge(work, root: str, remote: str, remote_head: str, report: SyncReport) -> None:
    """Merge REMOTE_HEAD into HEAD: task files by pm.merge3, the overview regenerated."""
    from plumbing.files import atomic_write

    from pm.merge3 import merge_task
    actor = work.actor
    env = {"GIT_AUTHOR_NAME": actor.name, "GIT_AUTHOR_EMAIL": f"{actor.session}@{actor.role}.pm.invalid",
           "GIT_COMMITTER_NAME": actor.name, "GIT_COMMITTER_EMAIL": f"{actor.session}@{actor.role}.pm.invalid"}
    work.changed_outside()
    _git(root, *_NO_HOOKS, "merge", "-q", "--no-commit", "--no-ff", remote_head, check=False, env=env)
    try:
        if not os.path.exists(os.path.join(root, ".git", "MERGE_HEAD")):
            raise SyncRefused(f"git could not start merging {remote}; run git status in {root}")
        unmerged = [r for r in _git(root, "diff", "--name-only", "--diff-filter=U", "-z")
                    .stdout.split("\0") if r]
        resolved = []
        for rel in unmerged:
            if rel == OVERVIEW or rel.startswith(f"{OVERVIEW_PAGES}/"):
                continue  # regenerated below
            ours, theirs = _show(root, 2, rel), _show(root, 3, rel)
            if not (rel.startswith(f"{TASKS}/") and rel.endswith(".html")) or ours is None or theirs is None:
                raise SyncRefused(f"{rel} conflicts in a way pm does not merge (changed outside pm, "
                                  f"or deleted on one side); merge it yourself: git -C {root} merge "
                                  f"{remote_head[:12]}, fix {rel}, commit, then pm sync again")
            atomic_write(os.path.join(root, rel), merge_task(_show(root, 1, rel), ours, theirs, rel, now()))
            resolved.append(rel)
        reranked = _normalise_ranks(work, report)
        written = work.refresh_overview()
        _checked(root, "add", "-A", "--", *resolved, *reranked, OVERVIEW, *written)
        sprint = ("\nPM-Sprint: sync renumbers the merged sprint ranks 1..n (order kept)"
                  if reranked else "")
        message = (f"pm: sync with {remote}" + (f", merged {', '.join(resolved)}" if resolved else "")
                   + f"\n\nPM-Role: {actor.role}\nPM-Session: {actor.session}{sprint}\n")
        _checked(root, *_NO_HOOKS, "commit", "-q", "--no-verify", "-F", "-", env=env, input=message)
        report.merged += resolved
        report.overview = True
    except BaseException:
        _git(root, "merge", "--abort", check=False)
        raise


def _normalise_ranks(work, report: SyncReport) -> list[str]:
    """After merging two clones' sprint changes (both promoted at rank 1, one demoted what
    the other ranked), ranks can clash or leave gaps: renumber them 1..n in the merged
    order (rank, then id). The task files rewritten."""
    from pm.sprint import normalised
    changes = normalised(work.tasks())
    rels, stamp = [], now()
    for task_id, old, new in changes:
        doc = work.doc(task_id)
        doc.set_meta("sprint", str(new))
        work.save(doc, stamp)
        rels.append(doc.path)
    if changes:
        report.notes.append("sprint ranks renumbered after the merge (they clashed or had gaps): "
                            + ", ".join(f"#{i} {o} -> {n}" for i, o, n in changes))
    return rels


def _push(root: str, remote: str, branch: str) -> tuple[bool, str]:
    proc = _git(root, "push", "-q", remote, f"HEAD:refs/heads/{branch}", check=False)
    if proc.returncode == 0:
        return True, ""
    text = (proc.stderr or proc.stdout).strip()
    if any(word in text for word in _REJECTED):
        return False, text
    raise GitError(f"cannot push to {remote}: {text}")


def sync(tracker, remote: str | None = None, attempts: int = ATTEMPTS) -> SyncReport:
    """Fetch, merge and push until the remote takes our branch (pm sync)."""
    root = tracker.root
    branch = _branch(root)
    remote = remote or default_remote(root, branch)
    report = SyncReport(remote, branch)
    remote = _remember(root, remote, branch, report)
    for attempt in range(1, attempts + 1):
        report.attempts = attempt
        with tracker.unit_of_work() as work:
            remote_head = _fetch(root, remote, branch)
            head = gitrepo.head_commit(root)
            if remote_head and not _is_ancestor(root, remote_head, head):
                base = _git(root, "merge-base", head, remote_head, check=False).stdout.strip()
                if not base:
                    raise SyncRefused(f"{remote}'s {branch} shares no history with this tracker: "
                                      f"clone it instead (git clone {remote} DIR), or sync with "
                                      "an empty remote")
                report.received += _count(root, f"{head}..{remote_head}")
                if _is_ancestor(root, head, remote_head):
                    work.changed_outside()
                    _checked(root, *_NO_HOOKS, "merge", "-q", "--ff-only", remote_head)
                    _refresh_overview(work)
                else:
                    _renumber_clashes(work, root, base, remote_head, report)
                    _merge(work, root, remote, remote_head, report)
            head = gitrepo.head_commit(root)
            if remote_head == head:
                return report
            ahead = _count(root, f"{remote_head}..{head}" if remote_head else head)
            pushed, _why = _push(root, remote, branch)
        if pushed:
            report.sent = ahead
            _point_bare_head(root, remote, branch)
            return report
        time.sleep(random.uniform(0.05, 0.25) * attempt)  # someone else pushed: fetch again
    raise PmError(f"{remote} moved on {attempts} times while pm sync was merging; run pm sync again")


def _remember(root: str, remote: str, branch: str, report: SyncReport) -> str:
    """A path or URL given while the clone has no origin becomes origin, the branch's
    upstream: the next `pm sync` needs no argument."""
    remotes = _git(root, "remote").stdout.split()
    if remote in remotes or "origin" in remotes:
        return remote
    _checked(root, "remote", "add", "origin", remote)
    _checked(root, "config", f"branch.{branch}.remote", "origin")
    _checked(root, "config", f"branch.{branch}.merge", f"refs/heads/{branch}")
    report.notes.append(f"{remote} is now this clone's origin (pm sync needs no argument next time)")
    return "origin"


def _point_bare_head(root: str, remote: str, branch: str) -> None:
    """A bare remote on this machine whose HEAD names no branch (git init --bare makes
    'master') is pointed at ours, so a plain `git clone` of it checks the tracker out."""
    url = _git(root, "remote", "get-url", remote, check=False).stdout.strip() or remote
    path = os.path.join(root, url) if not os.path.isabs(url) and "://" not in url else url
    if not os.path.isfile(os.path.join(path, "HEAD")):
        return
    head = _git(path, "symbolic-ref", "-q", "HEAD", check=False).stdout.strip()
    if head and _git(path, "rev-parse", "-q", "--verify", head, check=False).returncode != 0:
        _git(path, "symbolic-ref", "HEAD", f"refs/heads/{branch}", check=False)


def _refresh_overview(work) -> None:
    """After a fast-forward the overview is the remote's own, which matches its tasks; make
    sure, as a hand-merged remote could have pushed a stale one."""
    written = work.refresh_overview()
    if written:
        work.commit(written, "pm: regenerate overview", overview=False)
