"""A fake Gomocup brain for the Gomoku match tests: keeps the board from BEGIN/TURN/BOARD and
plays the first empty point nearest the centre (a legal move under freestyle and standard; it
knows no renju), until its move number AT (default 1), then misbehaves as MODE says:

    fine       never misbehaves (a weak, well-behaved brain)
    occupied   answers with a point that holds a stone
    offboard   answers with a point off the board
    forbidden  answers with the first point the readable rules forbid to black (renju), else
               as `fine`
    crash      exits instead of answering
    silent     never answers
    garbage    answers with a line that is no X,Y
    refuse     answers ERROR
    badstart   answers START with something that is not OK

    python fake_gomocup.py MODE [AT]
"""
import sys
import time

from engines.gomoku import rules

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
game, moves_made, rule = None, 0, "freestyle"


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def nearest_empty():
    c = game.size // 2
    empty = game.empty_points()
    return min(empty, key=lambda p: (max(abs(p[0] - c), abs(p[1] - c)), p[1], p[0]))


def my_move():
    global moves_made
    moves_made += 1
    if moves_made >= at and mode != "fine":
        if mode == "occupied":
            return say(f"{game.history[0][0]},{game.history[0][1]}") if game.history \
                else say(f"{game.size // 2},{game.size // 2}")
        if mode == "offboard":
            return say(f"{game.size},0")
        if mode == "forbidden" and game.to_move == rules.BLACK:
            forbidden = game.forbidden_points()
            if forbidden:
                return say(f"{forbidden[0][0]},{forbidden[0][1]}")
        if mode == "crash":
            sys.exit(3)
        if mode == "silent":
            time.sleep(3600)
        if mode == "garbage":
            return say("I think I will pass")
        if mode == "refuse":
            return say("ERROR not today")
    point = nearest_empty()
    game.play(point)
    say(f"{point[0]},{point[1]}")


board_lines = None
for line in sys.stdin:
    line = line.strip()
    word, _, rest = line.partition(" ")
    word = word.upper()
    if board_lines is not None:
        if word == "DONE":
            own = [p for p, f in board_lines if f == 1]
            opp = [p for p, f in board_lines if f == 2]
            first, second = (own, opp) if len(own) == len(opp) else (opp, own)
            game.setup([p for pair in zip(first, second + [None]) for p in pair if p])
            board_lines = None
            my_move()
        else:
            x, y, f = (int(v) for v in line.split(","))
            board_lines.append(((x, y), f))
    elif word == "START":
        if mode == "badstart":
            say("MAYBE")
            continue
        game = rules.Game(int(rest), rule)
        say("OK")
    elif word == "INFO":
        key, _, value = rest.partition(" ")
        if key == "rule":
            rule = "renju" if int(value) & 4 else "standard" if int(value) & 1 else "freestyle"
            game = rules.Game(game.size, rule)
    elif word == "ABOUT":
        say(f'name="fake-{mode}", version="1"')
    elif word == "BEGIN":
        my_move()
    elif word == "TURN":
        x, y = (int(v) for v in rest.split(","))
        game.play((x, y))
        my_move()
    elif word == "BOARD":
        board_lines = []
    elif word == "END":
        break
    else:
        say(f"UNKNOWN {word}")
