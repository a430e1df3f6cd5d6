"""pm mcp: the SDK's own client over real stdio sessions (each a `pm mcp` process) against a
scratch tracker; racing claims and concurrent writers from several processes."""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from pm.mcp.tools import TOOLS
from pm.model import Actor
from pm.tracker import Tracker
from skills import tokens

BUDGET = 1500      # tokens the whole tool list may cost (issue 18)


def _params(root, role="worker", session="mcp-1") -> StdioServerParameters:
    env = {"PM_DIR": str(root), "PM_ROLE": role, "PM_SESSION": session,
           "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return StdioServerParameters(command=sys.executable, args=["-m", "pm.cli", "mcp"], env=env)


@contextlib.asynccontextmanager
async def session(root, role="worker", name="mcp-1"):
    async with stdio_client(_params(root, role, name)) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            yield s


async def call(s, tool, **arguments):
    """(is_error, decoded JSON answer)."""
    result = await s.call_tool(tool, arguments)
    return result.is_error, json.loads(result.content[0].text)


def run(fn, *args):
    """FN's event loop on a thread of its own: the suite's session Chromium (Playwright's sync
    API) may already run a loop on this one, and anyio refuses to nest."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, fn, *args).result()


def commits(root) -> int:
    return int(subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=root,
                              capture_output=True, text=True, check=True).stdout)


def tool_list_json(tools) -> str:
    """What a client hands the model: each tool's name, description and input schema."""
    return json.dumps([t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools])


def test_the_tool_list_costs_at_most_1500_tokens(tracker_dir):
    async def main():
        async with session(tracker_dir) as s:
            return (await s.list_tools()).tools
    tools = run(main)
    assert [t.name for t in tools] == [t.name for t in TOOLS]
    assert all(t.description and t.input_schema["type"] == "object" for t in tools)
    cost = tokens.count(tool_list_json(tools))
    print(f"\npm mcp tool list: {len(tools)} tools, {cost} tokens ({tokens.METHOD})")
    assert cost <= BUDGET


def test_a_worker_session_through_mcp(tracker_dir):
    t = Tracker(str(tracker_dir), Actor("human", "setup"))
    t.new("Go: ko recapture returns 500", priority="P1", kind="bug")
    t.new("Docs: API caps", priority="P3")

    async def main():
        async with session(tracker_dir, name="eng-7") as s:
            before = commits(tracker_dir)
            _e, ready = await call(s, "ready")
            assert [r["id"] for r in ready] == [1, 2]
            assert set(ready[0]) == {"id", "title", "status", "priority", "kind"}   # compact
            err, claimed = await call(s, "claim")
            assert not err and claimed["id"] == 1 and claimed["owner"] == "worker/eng-7"
            err, new = await call(s, "new", title="Go: undo after pass loses ko point",
                                  kind="bug", spawned_from=[1],
                                  verification="<p>undo on the instance</p>")
            assert not err and new["id"] == 3
            await call(s, "log", id=1, text="premise disproved: <422> is validation")
            await call(s, "link", id=3, type="blocks", other=2)
            await call(s, "set", id=1, fix="<p>none needed</p>")
            err, moved = await call(s, "status", id=1, status="review", **{"from": "in-progress"})
            assert not err and moved["status"] == "review"
            err, refused = await call(s, "status", id=1, status="done", **{"from": "in-progress"})
            assert err and "review" in refused["error"]
            _e, full = await call(s, "show", id=1)
            _e, listed = await call(s, "list", status=["review"])
            assert commits(tracker_dir) - before == 6          # one commit per change, none for reads
            return full, listed
    full, listed = run(main)
    assert full["status"] == "review" and full["fix"].strip() == "<p>none needed</p>"
    assert full["log"][-1]["html"] == "premise disproved: &lt;422&gt; is validation"  # plain text
    assert [t["id"] for t in listed] == [1]
    task3 = Tracker(str(tracker_dir)).get(3)
    assert ("spawned-from", 1) in task3.links and ("blocks", 2) in task3.links
    assert ("blocked-by", 3) in Tracker(str(tracker_dir)).get(2).links
    assert Tracker(str(tracker_dir)).lint() == []


def test_sprint_tools_refuse_every_role_but_ceo(tracker_dir):
    Tracker(str(tracker_dir), Actor("human", "setup")).new("A task")

    async def main():
        async with session(tracker_dir, role="worker") as worker:
            err, answer = await call(worker, "promote", id=1)
            assert err and "only the ceo role may promote" in answer["error"]
        async with session(tracker_dir, role="human", name="me") as human:
            err, answer = await call(human, "rank", id=1, rank=1)
            assert err and "only the ceo" in answer["error"]
        async with session(tracker_dir, role="ceo", name="boss") as ceo:
            err, answer = await call(ceo, "promote", id=1, rank=1)
            assert not err and answer["sprint"] == 1
            err, answer = await call(ceo, "demote", id=1)
            assert not err and "sprint" not in answer
    run(main)
    assert Tracker(str(tracker_dir)).audit() == []


def test_bad_calls_answer_with_the_reason(tracker_dir):
    async def main():
        async with session(tracker_dir) as s:
            return [await call(s, "show", id=99), await call(s, "show"),
                    await call(s, "claim", id="one"), await call(s, "fly", id=1),
                    await call(s, "status", id=1, status="finished"),
                    await call(s, "claim")]
    answers = run(main)
    assert all(err for err, _a in answers)
    messages = [a["error"] for _e, a in answers]
    assert "task 99 not found" in messages[0]
    assert "missing id" in messages[1]
    assert "id must be integer" in messages[2]
    assert "no tool 'fly'" in messages[3]
    assert "'finished' is not one of" in messages[4]
    assert "no task is ready" in messages[5]


def test_pm_mcp_without_a_tracker_fails_before_serving(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pm.cli", "mcp"], capture_output=True, text=True,
                          env={**os.environ, "PM_DIR": str(tmp_path / "none")}, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 1 and "Error:" in proc.stderr and proc.stdout == ""


def test_racing_claims_from_two_sessions_exactly_one_wins(tracker_dir):
    t = Tracker(str(tracker_dir), Actor("human", "setup"))
    for i in range(4):
        t.new(f"task {i}")

    async def main():
        results = {"a": [], "b": []}
        async with session(tracker_dir, name="a") as a, session(tracker_dir, name="b") as b:
            for task_id in (1, 2, 3, 4):           # both sessions claim the same task at once
                async with anyio.create_task_group() as group:
                    for name, s in (("a", a), ("b", b)):
                        async def one(name=name, s=s, task_id=task_id):
                            results[name].append(await call(s, "claim", id=task_id))
                        group.start_soon(one)
        return results
    results = run(main)
    for task_id in range(4):
        outcomes = [results["a"][task_id], results["b"][task_id]]
        wins = [answer for err, answer in outcomes if not err]
        losses = [answer for err, answer in outcomes if err]
        assert len(wins) == 1 and len(losses) == 1
        assert "not open" in losses[0]["error"]
    owners = [Tracker(str(tracker_dir)).get(i).owner for i in (1, 2, 3, 4)]
    assert set(owners) <= {"worker/a", "worker/b"}


def test_claim_next_from_three_sessions_hands_each_task_out_once(tracker_dir):
    t = Tracker(str(tracker_dir), Actor("human", "setup"))
    for i in range(6):
        t.new(f"task {i}")

    async def main():
        won: list[tuple[str, int]] = []
        lost: list[str] = []
        async with session(tracker_dir, name="s1") as s1, session(tracker_dir, name="s2") as s2, \
                session(tracker_dir, name="s3") as s3:
            async def worker(name, s):
                for _ in range(3):
                    err, answer = await call(s, "claim")
                    (lost.append(answer["error"]) if err else won.append((name, answer["id"])))
            async with anyio.create_task_group() as group:
                for name, s in (("s1", s1), ("s2", s2), ("s3", s3)):
                    group.start_soon(worker, name, s)
        return won, lost
    won, lost = run(main)
    assert sorted(i for _n, i in won) == [1, 2, 3, 4, 5, 6]     # each task exactly once
    assert len(lost) == 3 and all("ready" in m or "not open" in m for m in lost)


def test_concurrent_writers_mcp_sessions_and_the_cli_share_one_lock(tracker_dir):
    """Three MCP server processes and a CLI process log on the same task at once: every entry
    is kept, each is its own commit, and the repository stays clean."""
    Tracker(str(tracker_dir), Actor("human", "setup")).new("shared task")
    before = commits(tracker_dir)
    per_writer = 5
    cli = subprocess.Popen(
        ["bash", "-c", " && ".join(f"{sys.executable} -m pm.cli log 1 'cli {i}' >/dev/null"
                                   for i in range(per_writer))],
        env={**os.environ, "PM_DIR": str(tracker_dir), "PM_ROLE": "worker", "PM_SESSION": "cli"})

    async def main():
        async with session(tracker_dir, name="m1") as m1, session(tracker_dir, name="m2") as m2, \
                session(tracker_dir, name="m3") as m3:
            async def writer(name, s):
                for i in range(per_writer):
                    err, _answer = await call(s, "log", id=1, text=f"{name} {i}")
                    assert not err
            async with anyio.create_task_group() as group:
                for name, s in (("m1", m1), ("m2", m2), ("m3", m3)):
                    group.start_soon(writer, name, s)
    run(main)
    assert cli.wait(timeout=120) == 0
    log = [e.html for e in Tracker(str(tracker_dir)).get(1).log]
    expected = {f"{w} {i}" for w in ("m1", "m2", "m3", "cli") for i in range(per_writer)}
    assert set(log) == expected and len(log) == len(expected)
    assert commits(tracker_dir) - before == len(expected)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tracker_dir,
                            capture_output=True, text=True, check=True).stdout
    assert status == ""
    subprocess.run(["git", "fsck", "--no-progress"], cwd=tracker_dir, check=True,
                   capture_output=True)
    assert Tracker(str(tracker_dir)).lint() == []
