"""Install skills into an agent's skill folder: a copy (the default) or a symbolic link to
this checkout's folder, so edits here show at once.

A copy carries .skills-install.json (the digest it was installed with). Reinstalling
replaces a copy that still has that digest (an upgrade) and refuses, unless forced, one that
was edited since: someone's local change is never overwritten silently. Replacing is
rename-based, so an interrupted install leaves the old skill or the new one, not a mix."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from plumbing.files import replace
from skills.catalog import Skill, tree_digest
from skills.errors import InstallRefused

MANIFEST = ".skills-install.json"


def user_dir() -> Path:
    return Path.home() / ".claude" / "skills"


def project_dir(project: Path) -> Path:
    return Path(project) / ".claude" / "skills"


def _manifest(dest: Path) -> dict:
    try:
        return json.loads((dest / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _changed_files(skill: Skill, dest: Path) -> list[str]:
    ours = {str(p): (skill.path / p).read_bytes() for p in skill.files()}
    theirs = {str(p.relative_to(dest)): p.read_bytes() for p in dest.rglob("*")
              if p.is_file() and p.name != MANIFEST and "__pycache__" not in p.parts}
    return sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))


def decide(skill: Skill, dest: Path, link: bool) -> tuple[str, str]:
    """(action, reason): action is "install", "replace", "up to date" or "refuse"."""
    if dest.is_symlink():
        target = Path(os.readlink(dest))
        target = (dest.parent / target).resolve() if not target.is_absolute() else target.resolve()
        if target == skill.path.resolve():
            return ("up to date", "already linked here") if link else ("replace", "was a link")
        return "refuse", f"{dest} is a link to {target}, not to this skill"
    if not dest.exists():
        return "install", ""
    if not dest.is_dir():
        return "refuse", f"{dest} is a file, not a skill folder"
    current = tree_digest(dest)
    if current == skill.digest():
        return ("replace", "same files, now as a link") if link else ("up to date", "same files")
    recorded = _manifest(dest).get("digest")
    if recorded and recorded == current:
        return "replace", "an older install, unchanged since"
    changed = _changed_files(skill, dest)
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    why = "changed since it was installed" if recorded else "not installed by skills"
    return "refuse", f"{dest} was {why} ({shown} differ)"


def _place(skill: Skill, dest: Path, link: bool) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.new-", dir=dest.parent))
    try:
        if link:
            staging.rmdir()
            os.symlink(skill.path.resolve(), staging, target_is_directory=True)
        else:
            shutil.copytree(skill.path, staging, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", MANIFEST))
            (staging / MANIFEST).write_text(json.dumps(
                {"name": skill.name, "source": str(skill.path.resolve()),
                 "digest": skill.digest()}, indent=1) + "\n", encoding="utf-8")
        old = None
        if dest.is_symlink() or dest.exists():
            old = dest.parent / f".{dest.name}.old-{os.getpid()}"
            replace(dest, old)  # a directory cannot be replaced in one step: move it aside
        replace(staging, dest)
        if old is not None:
            old.unlink() if old.is_symlink() or old.is_file() else shutil.rmtree(old)
    except BaseException:
        if staging.is_symlink():
            staging.unlink()
        elif staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
        raise


def install(skills: list[Skill], target: Path, link: bool = False, force: bool = False) -> list[dict]:
    """Install SKILLS into TARGET; [{"name", "path", "action", "reason"}]. Every skill is
    decided before any is written: one refusal (without FORCE) installs none."""
    target = Path(target).expanduser()
    plans = [(s, target / s.name, *decide(s, target / s.name, link)) for s in skills]
    refused = [(s, why) for s, _d, action, why in plans if action == "refuse"]
    if refused and not force:
        lines = "; ".join(why for _s, why in refused)
        raise InstallRefused(f"{lines}. Nothing installed; use --force to overwrite")
    out = []
    for skill, dest, action, why in plans:
        if action != "up to date":
            _place(skill, dest, link)
            action = {"install": "installed", "replace": "replaced", "refuse": "overwritten"}[action]
        out.append({"name": skill.name, "path": str(dest), "action": action, "reason": why,
                    "mode": "link" if link else "copy"})
    return out
