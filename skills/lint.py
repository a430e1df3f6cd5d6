"""`skills lint`: every skill against the Agent Skills format and this shop's rules, and the
manual's named commands against the real CLIs.

Per skill: the frontmatter (name 1-64 characters of lowercase letters, digits and single
hyphens, equal to the folder's name; description 1-1024 characters; only the format's keys),
the body within BODY_BUDGET tokens (skills.tokens: cl100k_base) and MAX_LINES lines, every
relative link resolving, every references/ file linked from SKILL.md (an unlinked one is
never loaded), and every pm/instances/demo/engines/skills command and flag named in SKILL.md
or a reference existing in that tool's click tree (skills.clitree)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from skills import clitree, markdown, tokens
from skills.catalog import Skill

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
KEYS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
BODY_BUDGET = 1000        # tokens; the format itself only recommends staying under 5,000
MAX_LINES = 500           # the format's recommended ceiling for SKILL.md


@dataclass(frozen=True)
class Fault:
    path: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}"


def frontmatter_faults(skill: Skill, rel: str) -> list[Fault]:
    if skill.problem:
        return [Fault(rel, 1, skill.problem)]
    meta, out = skill.meta, []

    def fault(problem):
        out.append(Fault(rel, 1, problem))

    for key in sorted(set(meta) - KEYS, key=str):
        fault(f"unknown frontmatter key {key!r}; the format allows {', '.join(sorted(KEYS))}")
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        fault("frontmatter needs name: (1-64 lowercase letters, digits, single hyphens)")
    else:
        if len(name) > 64:
            fault(f"name is {len(name)} characters; at most 64")
        if not NAME_RE.match(name):
            fault(f"name {name!r} must be lowercase letters, digits and single hyphens, "
                  "not starting or ending with a hyphen")
        if name != skill.path.name:
            fault(f"name {name!r} must equal the folder's name {skill.path.name!r}")
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        fault("frontmatter needs description: what the skill does and when to use it")
    elif len(description) > 1024:
        fault(f"description is {len(description)} characters; at most 1024")
    compatibility = meta.get("compatibility")
    if compatibility is not None and (not isinstance(compatibility, str)
                                      or not 1 <= len(compatibility) <= 500):
        fault("compatibility must be a string of 1-500 characters")
    metadata = meta.get("metadata")
    if metadata is not None and (not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())):
        fault("metadata must map strings to strings")
    return out


def body_faults(skill: Skill, rel: str, budget: int) -> list[Fault]:
    out = []
    if not skill.body.strip():
        out.append(Fault(rel, skill.body_line, "the body is empty; say how to do the job"))
    used = tokens.count(skill.body)
    if used > budget:
        out.append(Fault(rel, skill.body_line, f"the body is {used} tokens; the budget is "
                         f"{budget}: move detail into references/ and link it"))
    lines = skill.body.count("\n") + skill.body_line
    if lines > MAX_LINES:
        out.append(Fault(rel, MAX_LINES, f"SKILL.md is {lines} lines; at most {MAX_LINES}"))
    return out


def link_faults(folder: Path, path: Path, text: str, rel: str) -> list[Fault]:
    out = []
    for number, target in markdown.links(text):
        if target and not (path.parent / target).exists():
            out.append(Fault(rel, number, f"link {target!r} points at nothing in {folder.name}/"))
    return out


def command_faults(text: str, rel: str) -> list[Fault]:
    out = []
    for mention in markdown.mentions(text, set(clitree.tools())):
        problem = clitree.check(mention.argv)
        if problem:
            out.append(Fault(rel, mention.line, problem))
    return out


def lint_skill(skill: Skill, budget: int = BODY_BUDGET) -> list[Fault]:
    rel = f"{skill.name}/SKILL.md"
    out = frontmatter_faults(skill, rel) + body_faults(skill, rel, budget)
    text = skill.skill_md.read_text(encoding="utf-8")
    out += link_faults(skill.path, skill.skill_md, text, rel) + command_faults(text, rel)
    linked = {(skill.path / t).resolve() for _n, t in markdown.links(text)}
    refs = skill.path / "references"
    for ref in sorted(refs.rglob("*.md")) if refs.is_dir() else []:
        ref_rel = f"{skill.name}/{ref.relative_to(skill.path)}"
        if ref.resolve() not in linked:
            out.append(Fault(ref_rel, 1, "not linked from SKILL.md, so no agent ever loads it"))
        ref_text = ref.read_text(encoding="utf-8")
        out += link_faults(skill.path, ref, ref_text, ref_rel) + command_faults(ref_text, ref_rel)
    return out


def lint_text(text: str, rel: str) -> list[Fault]:
    """The commands named in a Markdown file (the manual) checked against the real CLIs."""
    return command_faults(text, rel)


def figures(skill: Skill) -> dict:
    """The token figures of one skill (skills list --json shows them)."""
    return {"description_tokens": tokens.count(skill.description),
            "body_tokens": tokens.count(skill.body)}
