"""A fake GTP engine for the match runner's tests: plays legal moves on an empty-ish board
until move AT (its own count of genmove), then misbehaves as MODE says:

    illegal  answers genmove with an occupied point
    crash    exits in the middle of genmove
    silent   never answers genmove
    garbage  answers genmove with a line that is no GTP
    resign   resigns at once (a lopsided match for the SPRT)
    pass     passes (a weak but well-behaved engine)

    python fake_gtp.py MODE [AT]      MODE also seed={seed} or resign-every=K:{seed}
"""
import sys
import time

MODES = ["illegal", "crash", "silent", "garbage"]  # seed=N picks MODES[(N - 1) % 4]
mode = sys.argv[1]
if mode.startswith("seed="):  # the match's {seed}: one engine, a different fault per game
    mode = MODES[(int(mode[5:]) - 1) % len(MODES)]
elif mode.startswith("resign-every="):  # resign-every=K:SEED resigns when SEED % K == 0
    every, seed = mode[13:].split(":")
    mode = "resign" if int(seed) % int(every) == 0 else "pass"
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
size, taken, genmoves = 9, set(), 0
COLUMNS = "ABCDEFGHJKLMNOPQRST"


def reply(text="", ok=True):
    sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
    sys.stdout.flush()


for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    name, args = parts[0], parts[1:]
    if name == "quit":
        reply()
        break
    if name == "boardsize":
        size = int(args[0])
        reply()
    elif name == "clear_board":
        taken.clear()
        reply()
    elif name == "name":
        reply(f"fake-{mode}")
    elif name == "version":
        reply("1")
    elif name == "known_command":
        reply("false")
    elif name == "play":
        if args[1].lower() != "pass":
            taken.add(args[1].upper())
        reply()
    elif name == "genmove":
        genmoves += 1
        if genmoves >= at:
            if mode == "illegal" and taken:
                reply(sorted(taken)[0])
                continue
            if mode == "crash":
                sys.exit(3)
            if mode == "silent":
                time.sleep(3600)
            if mode == "garbage":
                sys.stdout.write("this is not GTP\n\n")
                sys.stdout.flush()
                continue
            if mode == "resign":
                reply("resign")
                continue
            if mode == "pass":
                reply("pass")
                continue
        free = [f"{c}{r}" for r in range(1, size + 1) for c in COLUMNS[:size]
                if f"{c}{r}" not in taken]
        move = free[(genmoves * 7) % len(free)] if free else "pass"
        taken.add(move)
        reply(move)
    else:
        reply()
