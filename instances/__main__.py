"""`python -m instances` is the `instances` command (the supervisor is started this way)."""
from instances.cli import main

main()
