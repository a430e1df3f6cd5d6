"""`pm mcp`'s server: the official MCP SDK's low-level Server over stdio, serving pm.mcp.tools.

The low-level server is used (not the decorator API) because the tool list is sent to the
model as written here: hand-made schemas without the titles and defaults an introspecting
wrapper adds. Tracker calls block (the lock, git), so each runs in a worker thread; one
thread lock keeps a session's calls in order, and the tracker's file lock orders them with
every other process, CLI or MCP.
"""
from __future__ import annotations

import json
import threading

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from pm.errors import PmError
from pm.mcp.tools import TOOLS, call

INSTRUCTIONS = ("pm: the project's git-backed task tracker. Find work with ready, take it "
                "with claim, record findings with log as you go, file a new task for each "
                "new problem instead of widening yours. Answers are compact JSON.")


def tool_list() -> list[types.Tool]:
    return [types.Tool(name=t.name, description=t.description, input_schema=t.schema)
            for t in TOOLS]


def _text(data) -> list[types.TextContent]:
    return [types.TextContent(text=json.dumps(data, ensure_ascii=False, separators=(",", ":")))]


def build(tracker) -> Server:
    """A Server whose tools act on TRACKER (a pm.api.Tracker, acting as its actor)."""
    order = threading.Lock()

    def run(name, arguments):
        with order:
            return call(tracker, name, arguments)

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(ctx, params) -> types.CallToolResult:
        try:
            data = await anyio.to_thread.run_sync(run, params.name, params.arguments)
        except PmError as err:
            # A refused change is the tool's answer, not a protocol failure: the model reads it.
            return types.CallToolResult(content=_text({"error": str(err)}), is_error=True)
        return types.CallToolResult(content=_text(data))

    return Server("pm", version=_version(), instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("soloshop")
    except PackageNotFoundError:
        return "0"


def serve(tracker) -> None:
    """Serve TRACKER on this process's stdin/stdout until the client closes them."""
    server = build(tracker)

    async def main():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
