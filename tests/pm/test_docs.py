"""Every pm command has help and appears in the README's pm section; prime stays short."""
import os
import re

from pm.commands import cli
from pm.prime import PRIME

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pm_section() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    return text.split("\n## pm\n", 1)[1].split("\n## ", 1)[0]


def test_every_command_is_documented_and_has_help():
    section = _pm_section()
    for name, command in cli.commands.items():
        assert command.help and command.help.strip(), f"pm {name} has no help"
        assert re.search(rf"`pm {name}\b", section), f"pm {name} is missing from README's pm section"


def test_prime_mentions_the_everyday_commands_and_stays_under_800_tokens():
    for command in ("pm ready", "pm claim --next", "pm log", "pm new", "pm done", "pm promote"):
        assert command in PRIME
    # ~4 characters a token for English prose; stay well below 800 tokens.
    assert len(PRIME) / 4 < 700
