"""Demo: the arcade's Gomoku page — renju against the engine, a refused point, a forbidden
point with its reason, threats, a proven win, a branch of the timeline, AI vs AI.

Start the arcade (or a review instance) and record against its base URL:

    engines serve --port 8000 &
    demo record engines/demos/gomoku.py --base-url http://127.0.0.1:8000/ --out var/demos/gomoku

The page publishes its state as data attributes on #gomoku-app (ready, busy, ply, moves,
analysed, threats, proven, branches), which is what the waits below watch. The engine searches
a fixed number of nodes (`nodes=`), so its replies repeat from run to run; `moves=` starts a
page from a record (the server judges it like any other).
"""

APP = "#gomoku-app"
IDLE = f'{APP}[data-ready="1"][data-busy="0"]'
# Black: f8 g8 h9 h10, so h8 would make two threes at once (renju's double-three).
DOUBLE_THREE = "f8,a1,g8,a3,h9,a5,h10,a7"
# Black's open three h8 i8 j8, black to move: the threat search proves the win.
OPEN_THREE = "h8,a1,i8,a3,j8,a5"


def run(d):
    d.goto("gomoku?rule=renju&white=engine&nodes=20000")
    d.wait_for(IDLE)
    d.beat("board", say="The arcade's Gomoku page: fifteen by fifteen under renju rules, against "
                        "the engine. The board is only a view; the server decides every rule.")
    d.click('#board [data-point="h8"]')
    d.wait_for(f'{IDLE}[data-ply="2"]', timeout=20)
    d.beat("reply", say="I take the centre and the engine answers at once.")
    d.click('#board [data-point="h8"]')
    d.settle(0.4)
    d.beat("illegal", say="A click on an occupied point is refused, and the message says why.")
    d.goto(f"gomoku?rule=renju&black=human&white=human&moves={DOUBLE_THREE}")
    d.wait_for(f'{IDLE}[data-ply="8"]')
    d.beat("forbidden", say="In renju black may not make two open threes at once: the red cross "
                            "marks h8 as forbidden for black.")
    d.click('#board [data-point="h8"]')
    d.settle(0.4)
    d.beat("refused", say="Clicking it is refused, with the rule named: double three.")
    d.click("#threats")
    d.wait_for(f'{APP}[data-threats]:not([data-threats=""])')
    d.beat("threats", say="Threats on demand: the fours and threes each side can make next.")
    d.goto(f"gomoku?rule=freestyle&black=human&white=human&nodes=200000&moves={OPEN_THREE}")
    d.wait_for(f'{IDLE}[data-ply="6"]')
    d.press("a")
    d.wait_for(f'{IDLE}[data-analysed="1"]', timeout=20)
    d.beat("proven", say="Analysis: the evaluation bar, the candidates, and here a proof. The "
                         "threat search shows black wins in two, with the winning sequence "
                         "drawn as numbered ghost stones.")
    d.press("ArrowLeft")
    d.press("ArrowLeft")
    d.click('#board [data-point="h9"]')
    d.wait_for(f'{IDLE}[data-ply="5"]')
    d.press("ArrowLeft")
    d.wait_for(f'{APP}[data-ply="4"]')
    d.beat("branch", say="Stepping back and playing elsewhere starts a branch; the old line "
                         "stays in the timeline, one click away.")
    d.goto("gomoku?black=engine&white=engine&nodes=20000&delay=0.4")
    d.wait_for(IDLE)
    d.click("#play-pause")
    d.pause(4)
    d.beat("ai-vs-ai", say="With the engine on both sides the page plays AI versus AI, holding "
                           "each move for the playback delay.")
    d.click("#play-pause")
    d.settle(0.5)
    d.beat("end", say="Pause, scrub, download the record or a Gomocup position string. The same "
                      "page runs under any review sub-path.")
