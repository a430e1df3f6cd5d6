"""Narrated demo scripts for the arcade, recorded with the `demo` tool."""
