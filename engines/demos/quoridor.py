"""Demo: the arcade's Quoridor page — a pawn step, a wall, a refused wall with its reason, both
shortest paths, analysis, a branch, AI vs AI.

    engines serve --port 8000 &
    demo record engines/demos/quoridor.py --base-url http://127.0.0.1:8000/ --out var/demos/quoridor

The page publishes its state as data attributes on #quoridor-app (ready, busy, ply, moves,
analysed, walls-left, branches). The engine searches a fixed number of nodes, so its replies
repeat from run to run. d7h and e7h share a groove segment, so e7h is refused after d7h
whatever the engine plays.
"""

APP = "#quoridor-app"
IDLE = f'{APP}[data-ready="1"][data-busy="0"]'


def after_reply(ply):
    return f'{IDLE}[data-ply="{ply}"][data-to-move="p1"]'


def run(d):
    d.goto("quoridor?p2=engine&nodes=20000")
    d.wait_for(IDLE)
    d.beat("board", say="The arcade's Quoridor page against the engine. The lit squares are "
                        "where my pawn may go: the server works them out, jumps and diagonals "
                        "included.")
    d.click('#board [data-square="e2"]')
    d.wait_for(after_reply(2), timeout=20)
    d.beat("step", say="One step forward, and the engine replies.")
    d.move_to('#board [data-wall="d7h"]')
    d.settle(0.3)
    d.beat("preview", say="Hovering a groove previews a wall: green where it is legal.")
    d.click('#board [data-wall="d7h"]')
    d.wait_for(after_reply(4), timeout=20)
    d.move_to('#board [data-wall="e7h"]')
    d.settle(0.3)
    d.beat("illegal-preview", say="Red where it is not: this one would overlap my wall.")
    d.click('#board [data-wall="e7h"]')
    d.settle(0.4)
    d.beat("refused", say="Placing it anyway is refused, and the message says why. Walls left "
                          "are counted for both players.")
    d.click("#paths")
    d.settle(0.3)
    d.beat("paths", say="Both shortest paths, on demand.")
    d.press("a")
    d.wait_for(f'{IDLE}[data-analysed="1"]', timeout=20)
    d.beat("analysis", say="Analysis: the evaluation bar, the candidate moves with their scores, "
                           "and the principal variation numbered on the board.")
    d.press("ArrowLeft")
    d.press("ArrowLeft")
    d.click('#board [data-square="d2"]')
    d.wait_for(after_reply(4), timeout=20)
    d.press("ArrowLeft")
    d.press("ArrowLeft")
    d.wait_for(f'{APP}[data-ply="2"]')
    d.beat("branch", say="Stepping back and moving elsewhere starts a branch; the first line "
                         "stays in the timeline, listed beside the new one.")
    d.goto("quoridor?p1=engine&p2=engine&nodes=20000&delay=0.4&size=7")
    d.wait_for(IDLE)
    d.click("#play-pause")
    d.pause(4)
    d.beat("ai-vs-ai", say="With the engine on both sides, AI versus AI, on seven by seven.")
    d.click("#play-pause")
    d.settle(0.5)
    d.beat("end", say="Pause, scrub, download the record in the game's notation. The page runs "
                      "under any review sub-path.")
