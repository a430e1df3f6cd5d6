"""Skills and pm mcp figures (issue 18): tokens of each skill's description and body, the
token cost of pm mcp's tool list and of typical answers, and how long `skills lint` and
`skills rule check` take.

    .venv/bin/python bench/skills_figures.py [--runs 5] [--json]

Tokens are cl100k_base BPE tokens (skills.tokens). The tool list is read over a real stdio
session with the MCP SDK's client, as an agent would receive it. Times are wall-clock for a
new process each run (median and range); the machine's load is printed with them.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skills import catalog, tokens  # noqa: E402
from skills.lint import figures  # noqa: E402

BIN = Path(sys.executable).parent


def timed(argv, runs, **kwargs) -> dict:
    seconds = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, **kwargs)
        seconds.append(time.perf_counter() - began)
    return {"median_s": round(statistics.median(seconds), 3), "min_s": round(min(seconds), 3),
            "max_s": round(max(seconds), 3), "runs": runs}


def mcp_figures(tracker: Path) -> dict:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "pm.cli", "mcp"],
                                       env={"PM_DIR": str(tracker), "PM_ROLE": "worker",
                                            "PM_SESSION": "bench", "PATH": os.environ["PATH"]})
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                tools = (await s.list_tools()).tools
                ready = (await s.call_tool("ready", {})).content[0].text
                claim = (await s.call_tool("claim", {})).content[0].text
                show = (await s.call_tool("show", {"id": 1})).content[0].text
                return tools, ready, claim, show
    tools, ready, claim, show = anyio.run(main)
    dumped = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools]
    return {"tools": len(tools), "tool_list_tokens": tokens.count(json.dumps(dumped)),
            "per_tool_tokens": {t["name"]: tokens.count(json.dumps(t)) for t in dumped},
            "ready_answer_tokens_10_tasks": tokens.count(ready),
            "claim_answer_tokens": tokens.count(claim), "show_answer_tokens": tokens.count(show)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = {"conditions": {"cpus": os.cpu_count(), "load": os.getloadavg(),
                          "token_count": tokens.METHOD, "python": sys.version.split()[0]}}
    out["skills"] = {s.name: figures(s) for s in catalog.all_skills()}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tracker = tmp / "tracker"
        env = {**os.environ, "PM_DIR": str(tracker), "PM_ROLE": "human", "PM_SESSION": "bench",
               "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "GIT_AUTHOR_NAME": "b",
               "GIT_AUTHOR_EMAIL": "b@example.invalid", "GIT_COMMITTER_NAME": "b",
               "GIT_COMMITTER_EMAIL": "b@example.invalid"}
        subprocess.run([BIN / "pm", "init", str(tracker)], check=True, capture_output=True, env=env)
        records = "\n".join(json.dumps({"title": f"Go: task number {i} of the bench",
                                        "verification": "<p>look</p>"}) for i in range(10))
        (tmp / "tasks.jsonl").write_text(records + "\n")
        subprocess.run([BIN / "pm", "import", str(tmp / "tasks.jsonl")], check=True,
                       capture_output=True, env=env)
        out["mcp"] = mcp_figures(tracker)
        repo = tmp / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=repo, check=True,
                       env=env)
        subprocess.run([BIN / "skills", "manual", "init"], cwd=repo, check=True,
                       capture_output=True, env=env)
        out["skills_lint"] = timed([BIN / "skills", "lint"], args.runs, env=env)
        out["rule_check"] = timed([BIN / "skills", "rule", "check"], args.runs, cwd=repo, env=env)
    if args.json:
        print(json.dumps(out))
        return 0
    c = out["conditions"]
    print(f"{c['cpus']} cpus, load {c['load'][0]:.2f}, tokens: {c['token_count']}")
    for name, f in out["skills"].items():
        print(f"  {name:<22} description {f['description_tokens']:>4}  body {f['body_tokens']:>5}")
    m = out["mcp"]
    print(f"pm mcp: {m['tools']} tools, tool list {m['tool_list_tokens']} tokens; answers: "
          f"ready (10 tasks) {m['ready_answer_tokens_10_tasks']}, claim "
          f"{m['claim_answer_tokens']}, show {m['show_answer_tokens']}")
    for key in ("skills_lint", "rule_check"):
        t = out[key]
        print(f"{key}: median {t['median_s']} s (min {t['min_s']}, max {t['max_s']}, "
              f"{t['runs']} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
