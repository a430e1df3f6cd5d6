"""A misbehaving Quoridor engine for the match adapter's tests: speaks the line protocol and
plays legal pawn steps (rules.py) until its AT-th genmove, then does what MODE says:

    illegal  answers with a pawn move to the farthest corner
    crash    exits in the middle of genmove
    silent   never answers genmove
    garbage  answers with a line that is no protocol reply
    nomove   answers '= hello' (a reply, but no move)
    refuse   refuses the other side's next move
    walk     never misbehaves (a weak, well-behaved engine)
    shuffle  steps forward and back again, for ever (well-behaved, never wins)

    python fake_engine.py MODE [AT]        MODE also seed={seed}: MODES[(seed - 1) % 5]
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from engines.quoridor import rules  # noqa: E402

MODES = ["illegal", "crash", "silent", "garbage", "nomove"]
mode = sys.argv[1]
if mode.startswith("seed="):
    mode = MODES[(int(mode[5:]) - 1) % len(MODES)]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
size, walls, genmoves, came_from = 9, None, 0, None
game = rules.Game(size)


def reply(text="", ok=True):
    sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
    sys.stdout.flush()


def step() -> str:
    """The legal pawn step that shortens the own path most (ties: the first)."""
    me = game.to_move
    best = None
    for square in game.legal_pawn_moves():
        game.pawns[me], before = square, game.pawns[me]
        d = game.path_length(me)
        game.pawns[me] = before
        if best is None or d < best[0]:
            best = (d, square)
    return rules.square_name(best[1])


for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    name, args = parts[0], parts[1:]
    if name == "quit":
        reply()
        break
    if name == "boardsize":
        size, walls = int(args[0]), None
        game = rules.Game(size)
        reply()
    elif name == "walls":
        walls = int(args[0])
        game = rules.Game(size, walls)
        reply()
    elif name == "name":
        reply(f"fake-{mode}")
    elif name == "version":
        reply("1")
    elif name == "known_command":
        reply("false")
    elif name in ("time_settings", "time_left"):
        reply()
    elif name == "play":
        if mode == "refuse" and genmoves >= at:
            reply("I do not like that move", ok=False)
            continue
        try:
            game.play(args[1])
            reply()
        except rules.IllegalMove as error:
            reply(str(error), ok=False)
    elif name == "genmove":
        genmoves += 1
        if mode == "shuffle":
            me = game.to_move
            move = step() if genmoves % 2 else rules.square_name(came_from)
            came_from = game.pawns[me]
            game.play(move)
            reply(move)
            continue
        if genmoves >= at and mode not in ("refuse", "walk"):
            if mode == "illegal":
                x, y = game.pawns[game.to_move]  # the farthest corner: never reachable
                far = size - 1
                reply(rules.square_name((0 if 2 * x >= far else far, 0 if 2 * y >= far else far)))
            elif mode == "crash":
                sys.exit(3)
            elif mode == "silent":
                time.sleep(3600)
            elif mode == "garbage":
                sys.stdout.write("I think e2 is nice\n\n")
                sys.stdout.flush()
            elif mode == "nomove":
                reply("hello")
            continue
        move = step()
        game.play(move)
        reply(move)
    else:
        reply(f"unknown command {name}", ok=False)
