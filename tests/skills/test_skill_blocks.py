"""Doc-tests: every shell block of every skill runs, in order, against a scratch world (a
tracker, a git repo, a review instance, the arcade) and does what the skill says it does.

Each skill file with shell blocks has a Scenario here: a setup that builds the world the skill
expects, and one check per block, run right after it. A block without a check, or a check
without a block, fails test_every_block_has_a_check: the skills cannot drift from the tools."""
from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from skills import catalog, markdown
from tests.skills.blockrun import GIT_ENV, make_world, run_block

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Scenario:
    setup: Callable            # (world) -> context manager
    checks: list               # one (ran, world) -> None per block, in order
    marks: tuple = field(default_factory=tuple)


def skill_files() -> dict[str, list[markdown.Block]]:
    """{"skill/file.md": its shell blocks} for every skill file that has any."""
    found = {}
    for skill in catalog.all_skills():
        for path in [skill.skill_md, *sorted((skill.path / "references").glob("*.md"))]:
            blocks = markdown.blocks(path.read_text(encoding="utf-8"))
            if blocks:
                found[f"{skill.name}/{path.relative_to(skill.path)}"] = blocks
    return found


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def last_log(task) -> str:
    return plain(task.log[-1].html) if task.log else ""


# -- worker-pm ----------------------------------------------------------------------------
@contextlib.contextmanager
def worker_world(world):
    t = world.tracker()
    t.new("Go: ko recapture returns 500", priority="P1", kind="bug",
          problem="<p>Recapturing a ko at once answers 500.</p>")
    t.new("Docs: the API caps", priority="P3", kind="docs")
    yield


def w_claim(ran, world):
    assert "Go: ko recapture returns 500" in ran.stdout
    task = world.tracker().get(1)
    assert (task.status, task.owner) == ("in-progress", "worker/eng-1")
    assert world.env["N"] == "1"


def w_verification(ran, world):
    assert "play E5 twice" in world.tracker().get(1).sections["verification"]


def w_new(ran, world):
    task = world.tracker().get(3)
    assert task.title == "Go: undo after a pass loses the ko point" and task.kind == "bug"
    assert ("spawned-from", 1) in task.links
    assert "Seen while working #1" in task.sections["problem"]
    assert world.tracker().get(1).status == "in-progress"    # the current task did not grow


def w_log(ran, world):
    log = [plain(entry.html) for entry in world.tracker().get(1).log]
    assert len(log) == 2 and log[1].startswith("premise disproved")


def w_done(ran, world):
    task = world.tracker().get(1)
    assert task.status == "review" and last_log(task).startswith("verification:")
    assert task.sprint_rank is None                          # a worker never promotes


# -- update-active-sprint ------------------------------------------------------------------
SPRINT_RECORDS = [
    {"id": 1, "title": "Go: ko recapture returns 500", "status": "in-progress", "sprint": 2,
     "owner": "worker/eng-2", "created": "2026-11-18T09:00:00Z", "updated": "2026-11-20T09:00:00Z",
     "verification": "<p>Recapture on the instance.</p>"},
    {"id": 2, "title": "Arcade: board page loads slowly", "sprint": 3,
     "links": [{"type": "blocked-by", "id": 6}], "verification": "<p>Under 1 s.</p>"},
    {"id": 3, "title": "Docs: explain the API caps", "kind": "docs"},
    {"id": 4, "title": "Go API: 422 on a legal move", "sprint": 1, "kind": "bug",
     "verification": "<p>Play it.</p>",
     "log": [{"time": "2026-11-30T10:00:00Z", "who": "worker/eng-1",
              "html": "premise disproved: the 422 is correct validation (occupied)"}]},
    {"id": 5, "title": "Gomoku: renju double-three", "status": "done", "sprint": 4,
     "verification": "<p>x</p>"},
    {"id": 6, "title": "Arcade: cache compiled engines between requests",
     "links": [{"type": "blocks", "id": 2}], "verification": "<p>Second request faster.</p>"},
    {"id": 7, "title": "Quoridor: wall rendering", "links": [{"type": "blocked-by", "id": 10}],
     "verification": "<p>x</p>"},
    {"id": 8, "title": "Go page: undo button does nothing after pass", "verification": "<p>x</p>"},
    {"id": 9, "title": "Go page: undo button does nothing after a pass", "verification": "<p>x</p>"},
    {"id": 10, "title": "Quoridor: path check", "links": [{"type": "blocked-by", "id": 7}],
     "verification": "<p>x</p>"},
]


@contextlib.contextmanager
def sprint_world(world):
    from pm.transfer import normalise
    world.tracker("ceo", "boss").import_records([normalise(r, f"record {r['id']}")
                                                 for r in SPRINT_RECORDS])
    world.env["PM_ROLE"], world.env["PM_SESSION"] = "human", "ceo-session"
    world.env["SKILL_DIR"] = str(catalog.get("update-active-sprint").path)
    yield


def s_read(ran, world):
    out = ran.stdout
    assert "#4 [sprint 1] premise disproved: 2026-11-30T10:00:00Z worker/eng-1" in out
    assert "#1 [sprint 2] stale: in progress (worker/eng-2), nothing since 2026-11-20" in out
    assert "#3 no verification plan" in out
    assert "#2 [sprint 3] blocked from outside the sprint: waits for #6" in out
    assert "#5 [sprint 4] finished but ranked" in out
    assert "#9 duplicate?: title close to #8" in out
    assert "dependency cycle: #7 -> #10 -> #7" in out
    assert "in a dependency cycle" in out                        # pm blocked
    assert "#6" in out and "waits for #6" in out


def s_change(ran, world):
    t = world.tracker()
    four, six, nine = t.get(4), t.get(6), t.get(9)
    assert four.sprint_rank is None and last_log(four).startswith("demoted by ceo")
    assert six.sprint_rank == 1 and last_log(six).startswith("promoted to rank 1")
    assert ("duplicates", 8) in nine.links and nine.status == "wontfix"
    assert t.audit() == []                                       # every sprint change by the ceo


def s_propose(ran, world):
    new = world.tracker().get(11)
    assert new.kind == "feature" and "each engine move shows its time" in new.sections["verification"]


# -- review-gate ---------------------------------------------------------------------------
def _app_repo(root: Path, extra_toml: str = "") -> Path:
    from plumbing.ports import free_port
    app = root / "app"
    shutil.copytree(REPO / "tests/instances/fixtures/flaskapp", app,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (app / ".gitignore").write_text("__pycache__/\n")
    (app / "instances.toml").write_text(
        f'command = "{{python}} app.py {{port}}"\nhealth = "/health"\nstartup_timeout = 20\n'
        f'{extra_toml}\n[nginx]\nlisten = "127.0.0.1:{free_port()}"\n')
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "app"]):
        subprocess.run(["git", *args], cwd=app, check=True, env={**GIT_ENV, "PATH": "/usr/bin:/bin"})
    return app


@contextlib.contextmanager
def review_world(world):
    app = _app_repo(world.root)
    world.cwd = app
    t = world.tracker()
    for title in ("Landing page: link to the Go page", "Landing page: title"):
        task = t.new(title, verification="<p>Open the review URL: the title reads fixture; the "
                     "go link stays under the review URL.</p>")
        t.set_status(task.id, "review")
    # The worker's commit on the task's branch: what the review is about.
    from instances.names import task_branch
    git_env = {**GIT_ENV, "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "checkout", "-q", "-b", task_branch(1, t.get(1).title)], cwd=app,
                   check=True, env=git_env)
    (app / "NOTES.md").write_text("The landing page links to the Go page.\n")
    for args in (["add", "NOTES.md"], ["commit", "-q", "-m", "notes"], ["checkout", "-q", "main"]):
        subprocess.run(["git", *args], cwd=app, check=True, env=git_env)
    world.env.update(N="1", SKILL_DIR=str(catalog.get("review-gate").path))
    world.env.pop("PM_ROLE")        # the human reviews
    try:
        yield
    finally:
        for args in (["down", "--all"], ["nginx", "stop"]):
            subprocess.run(["instances", *args], cwd=app, env=world.env, capture_output=True,
                           timeout=60)


def r_up(ran, world):
    urls = re.findall(r"http://127\.0\.0\.1:\d+/task-1/", ran.stdout)
    assert urls, ran.stdout
    world.env["URL"] = urls[-1]
    assert "Open the review URL" in ran.stdout                   # pm show: the plan
    assert "review" in ran.stdout.splitlines()[-2] + ran.stdout.splitlines()[-1]   # auth
    assert any(urls[-1] in e.html for e in world.tracker().get(1).log)


def r_look(ran, world):
    shots = sorted((world.cwd / "review-1").glob("*.png"))
    assert [s.name for s in shots] == ["00-index.png", "01-go.png"]
    assert all(s.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for s in shots)
    assert "0 finding(s) on 2 page(s)" in ran.stdout


def r_approve(ran, world):
    main_files = subprocess.run(["git", "ls-tree", "--name-only", "main"], cwd=world.cwd,
                                capture_output=True, text=True, check=True).stdout.split()
    assert "NOTES.md" in main_files                              # the branch is in main now
    assert "Approved" in last_log(world.tracker().get(1))
    world.env["N"] = "2"           # the next block sends another task back


def r_send_back(ran, world):
    task = world.tracker().get(2)
    assert task.status == "in-progress" and "outside /task-2/" in last_log(task)


# -- narrated-demo -------------------------------------------------------------------------
@contextlib.contextmanager
def demo_world(world):
    world.tracker().new("Tally: demo video of the counter")
    examples = REPO / "demo" / "examples"
    world.env.update(N="1", SCRIPT=str(examples / "tally.py"), URL=examples.as_uri() + "/")
    yield


def d_record(ran, world):
    assert "greet" in ran.stdout                                 # demo plan lists the beats
    assert (world.cwd / "demo-1" / "demo.mp4").stat().st_size > 10_000
    assert "demo video" in last_log(world.tracker().get(1))


def d_check(ran, world):
    assert "p95" in ran.stdout


# -- engine-change-review ------------------------------------------------------------------
@contextlib.contextmanager
def engine_world(world):
    clone = world.root / "soloshop"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    subprocess.run(["git", "checkout", "-q", "-B", "main"], cwd=clone, check=True)
    subprocess.run(["python", "setup.py", "-q", "build_ext", "--inplace"], cwd=clone, check=True,
                   env=world.env, capture_output=True)
    world.cwd = clone
    world.env.update(GAMES="2", SOLOSHOP_PARITY_SCALE="0.05")
    yield


def e_build(ran, world):
    prev = Path(world.env["PREV"])
    assert list((prev / "engines" / "go").glob("_core*.so"))
    assert world.env["BASE"] == subprocess.run(["git", "rev-parse", "HEAD"], cwd=world.cwd,
                                               capture_output=True, text=True).stdout.strip()


def e_match(ran, world):
    out = world.cwd / f"match-vs-{world.env['BASE']}"
    assert (out / "results.json").exists() and (out / "report.html").exists()
    assert len(list(out.glob("*.sgf")) + list(out.glob("**/*.sgf"))) >= 2


def e_gates(ran, world):
    assert re.search(r"\d+ passed", ran.stdout) and "failed" not in ran.stdout
    assert "playouts" in ran.stdout.lower()


# -- arcade-bug-triage ---------------------------------------------------------------------
@contextlib.contextmanager
def arcade_world(world):
    from engines.web.serve import arcade_thread
    world.tracker().new("Player report: the board answers oddly after a capture", kind="review")
    with arcade_thread() as server:
        world.env.update(ARCADE=server.url.rstrip("/"), R="1")
        yield


def a_reproduce(ran, world):
    assert '"positions"' in ran.stdout or '"over"' in ran.stdout
    assert "occupied" in ran.stdout                              # the rules answering, not a bug


def a_file(ran, world):
    task = world.tracker().get(2)
    assert task.kind == "bug" and task.priority == "P1" and ("spawned-from", 1) in task.links
    assert '"moves": ["E5", "D4", "E4"]' in task.sections["problem"]   # the record, verbatim


SCENARIOS = {
    "worker-pm/SKILL.md": Scenario(worker_world, [w_claim, w_verification, w_new, w_log, w_done]),
    "update-active-sprint/SKILL.md": Scenario(sprint_world, [s_read, s_change, s_propose]),
    "review-gate/SKILL.md": Scenario(review_world, [r_up, r_look, r_approve, r_send_back],
                                     ("nginx", "chromium")),
    "narrated-demo/SKILL.md": Scenario(demo_world, [d_record, d_check],
                                       ("chromium", "ffmpeg", "espeak")),
    "engine-change-review/SKILL.md": Scenario(engine_world, [e_build, e_match, e_gates],
                                              ("gnugo", "asan")),
    "arcade-bug-triage/SKILL.md": Scenario(arcade_world, [a_reproduce, a_file]),
}


def test_every_block_has_a_check():
    files = skill_files()
    assert sorted(files) == sorted(SCENARIOS), "each skill file with shell blocks needs a Scenario"
    for name, blocks in files.items():
        assert len(blocks) == len(SCENARIOS[name].checks), \
            f"{name} has {len(blocks)} shell block(s) and {len(SCENARIOS[name].checks)} check(s)"


def _params():
    return [pytest.param(name, marks=[getattr(pytest.mark, m) for m in s.marks], id=name)
            for name, s in SCENARIOS.items()]


@pytest.mark.parametrize("name", _params())
def test_skill_blocks_do_what_they_say(name, tmp_path):
    scenario, blocks = SCENARIOS[name], skill_files()[name]
    world = make_world(tmp_path)
    with scenario.setup(world):
        for number, (block, check) in enumerate(zip(blocks, scenario.checks), 1):
            ran = run_block(world, block.text)
            assert ran.code == 0, (f"{name} block {number} (line {block.line}) exited "
                                   f"{ran.code}:\n{block.text}\n--- stdout\n{ran.stdout}"
                                   f"\n--- stderr\n{ran.stderr}")
            check(ran, world)


def test_the_demo_script_in_narrated_demo_passes_demo_plan(tmp_path):
    """The skill's Python example is a real demo script: `demo plan` accepts it."""
    text = catalog.get("narrated-demo").skill_md.read_text(encoding="utf-8")
    (script,) = markdown.blocks(text, {"python"})
    path = tmp_path / "example_demo.py"
    path.write_text(script.text)
    proc = subprocess.run(["demo", "plan", str(path), "--base-url", "http://127.0.0.1:9/"],
                          capture_output=True, text=True, env=make_world(tmp_path).env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "reply" in proc.stdout
