"""The arcade's plain-text game records (Gomoku, Quoridor): one `key value` line each, `#`
starts a comment, `moves` lists the moves separated by spaces (it may repeat). Example:

    # soloshop gomoku record
    game gomoku
    size 15
    rule renju
    moves h8 h9 i9 g7
    result b+five

Pure: parsing returns a dict of the keys (moves joined into one list); every error names the
line and what to write instead.
"""
from __future__ import annotations

from engines.web.errors import ApiError


def dumps(game: str, fields: list[tuple[str, object]], moves: list[str]) -> str:
    lines = [f"# soloshop {game} record", f"game {game}"]
    lines += [f"{key} {value}" for key, value in fields if value is not None]
    for start in range(0, len(moves), 20):
        lines.append("moves " + " ".join(moves[start:start + 20]))
    if not moves:
        lines.append("moves")
    return "\n".join(lines) + "\n"


def loads(text: str, game: str, keys: tuple[str, ...], field: str = "text") -> dict:
    """The record's keys (`moves` a list); ApiError(field) names the bad line."""
    values: dict = {"moves": []}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        key, value = key.lower(), value.strip()
        if key == "moves":
            values["moves"].extend(value.split())
        elif key == "game":
            if value.lower() != game:
                raise ApiError(f"{field}: line {number}: this is a {value!r} record, not {game}",
                               field=field)
        elif key in keys:
            values[key] = value
        else:
            known = ", ".join(("game", *keys, "moves"))
            raise ApiError(f"{field}: line {number}: unknown key {key!r}; the keys are {known}",
                           field=field)
    return values
