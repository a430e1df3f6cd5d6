"""Demo: the arcade's Go page — play the engine, an illegal click, analysis, the timeline, AI vs AI.

Start the arcade (or a review instance) and record against its base URL:

    engines serve --port 8000 &
    demo record engines/demos/go.py --base-url http://127.0.0.1:8000/ --out var/demos/go

Behind `instances` the base URL is the review URL, e.g. http://127.0.0.1:PORT/task-x/.
The page publishes its state as data attributes on #go-app (ready, busy, ply, to-move, moves),
which is what the waits below watch. The engine is seeded and searches a fixed number of
playouts, so its replies repeat from run to run (E5 is answered at G3, so C3 and C7 are free).
"""

IDLE = '#go-app[data-ready="1"][data-busy="0"]'


def after_reply(ply):
    """The engine has answered and it is Black's turn at `ply`."""
    return f'{IDLE}[data-ply="{ply}"][data-to-move="b"]'


def run(d):
    d.goto("go?white=engine&playouts=3000")
    d.wait_for(IDLE)
    d.beat("board", say="This is the arcade's Go page: a nine by nine board against the engine. "
                        "The board is only a view; every rule is decided on the server.")
    d.click('#board [data-vertex="E5"]')
    d.wait_for(after_reply(2), timeout=20)
    d.beat("reply", say="I take the centre, and the engine answers in well under a second.")
    d.click('#board [data-vertex="E5"]')
    d.settle(0.5)
    d.beat("illegal", say="A click on an occupied point is refused, and the message says why.")
    d.click('#board [data-vertex="C3"]')
    d.wait_for(after_reply(4), timeout=20)
    d.click("#analyze")
    d.wait_for(f"{IDLE} #candidates tr", timeout=20)
    d.beat("analysis", say="Analyze shows the win rate and the candidate moves: the search's visits "
                           "in red against the playout policy's prior in green.")
    d.click("#ownership")
    d.settle(0.3)
    d.beat("ownership", say="The ownership overlay shades the points each side is expected to own.")
    d.press("ArrowLeft")
    d.press("ArrowLeft")
    d.settle(0.3)
    d.beat("timeline", say="The arrow keys step back through the game. A move played from here "
                           "starts a new branch.")
    # C7, or G7 if the engine's first reply took C7: a selector list clicks its first match,
    # and only empty points hold a ghost stone
    d.click('#board [data-vertex="C7"]:has(.ghost), #board [data-vertex="G7"]:has(.ghost)')
    d.wait_for(after_reply(4), timeout=20)
    d.beat("branch", say="The engine replies to the new line, and the old one is kept as a "
                         "branch of the timeline.")
    d.goto("go?black=engine&white=engine&playouts=600&delay=0.6")
    d.wait_for(IDLE)
    d.click("#play-pause")
    d.pause(6)
    d.beat("ai-vs-ai", say="With the engine on both sides, the page plays AI versus AI, "
                           "holding each move on screen for the playback delay.")
    d.click("#play-pause")
    d.settle(1.0)
    d.beat("end", say="Pause, scrub the timeline, download the game as SGF. The same page runs "
                      "under any review sub-path.")
