"""pm over the Model Context Protocol: `pm mcp` serves pm's operations as MCP tools on stdio.

    tools    the tool table (names, short descriptions, small input schemas) and the call
             dispatcher; plain Python over pm.api, no MCP SDK
    server   the official `mcp` SDK's low-level server wired to that table
    command  the click command `pm mcp` (loaded lazily by pm's CLI)
"""
