"""The skill folders: skills/<name>/SKILL.md with YAML frontmatter, then the Markdown body.

A skill folder may also hold references/ (detail loaded only when SKILL.md links it),
scripts/ and assets/ (the Agent Skills layout)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from skills.errors import SkillNotFound, SkillsError

HERE = Path(__file__).resolve().parent
SKILL_FILE = "SKILL.md"


@dataclass
class Skill:
    name: str                 # the folder's name
    path: Path                # the folder
    meta: dict = field(default_factory=dict)
    body: str = ""
    body_line: int = 1        # line number in SKILL.md where the body starts
    problem: str = ""         # why the frontmatter could not be read ("" if it could)

    @property
    def description(self) -> str:
        value = self.meta.get("description")
        return value if isinstance(value, str) else ""

    @property
    def skill_md(self) -> Path:
        return self.path / SKILL_FILE

    def files(self) -> list[Path]:
        """Every file of the skill, relative to its folder, sorted (caches left out)."""
        return sorted(p.relative_to(self.path) for p in self.path.rglob("*")
                      if p.is_file() and "__pycache__" not in p.parts)

    def digest(self) -> str:
        """A hash of every file's path and bytes: equal digests, equal skills."""
        return tree_digest(self.path)


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and p.name != ".skills-install.json":
            h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def split_frontmatter(text: str) -> tuple[dict, str, int, str]:
    """(frontmatter mapping, body, body's first line number, problem or "")."""
    import yaml
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return {}, text, 1, "SKILL.md must start with a '---' line opening the YAML frontmatter"
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") == "---":
            try:
                meta = yaml.safe_load("".join(lines[1:i])) or {}
            except yaml.YAMLError as err:
                return {}, "".join(lines[i + 1:]), i + 2, f"the frontmatter is not YAML: {err}"
            if not isinstance(meta, dict):
                return {}, "".join(lines[i + 1:]), i + 2, "the frontmatter must be a YAML mapping"
            return meta, "".join(lines[i + 1:]), i + 2, ""
    return {}, text, 1, "the frontmatter has no closing '---' line"


def load(folder: Path) -> Skill:
    folder = Path(folder)
    skill_md = folder / SKILL_FILE
    if not skill_md.is_file():
        raise SkillNotFound(f"{folder} has no {SKILL_FILE}; a skill is a folder holding one")
    try:
        text = skill_md.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SkillsError(f"{skill_md} is not UTF-8 text")
    meta, body, body_line, problem = split_frontmatter(text)
    return Skill(folder.name, folder, meta, body, body_line, problem)


def all_skills(root: Path = HERE) -> list[Skill]:
    """Every skill folder directly under ROOT (default: the skills shipped here), by name."""
    return [load(p) for p in sorted(Path(root).iterdir())
            if p.is_dir() and (p / SKILL_FILE).is_file()]


def get(name: str, root: Path = HERE) -> Skill:
    folder = Path(root) / name
    if not (folder / SKILL_FILE).is_file():
        names = ", ".join(s.name for s in all_skills(root))
        raise SkillNotFound(f"no skill {name!r}; skills: {names} (skills list)")
    return load(folder)
