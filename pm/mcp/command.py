"""The click command `pm mcp` (registered lazily in pm.commands, so pm starts without the SDK)."""
import click


@click.command(name="mcp")
def mcp_command():
    """Serve pm's operations as MCP tools on stdin/stdout (for agents that speak MCP).

    Acts as PM_ROLE/PM_SESSION on the tracker PM_DIR finds; each change is one commit."""
    from pm.tracker import Tracker
    tracker = Tracker.find()          # before stdio is taken over: a missing tracker is one line
    tracker.actor                      # a bad PM_ROLE or PM_SESSION fails here, not per call
    try:
        from pm.mcp.server import serve
    except ImportError as err:
        from pm.errors import PmError
        raise PmError(f"pm mcp needs the MCP SDK ({err}); install it: pip install mcp")
    serve(tracker)
