"""Demo: the whole arcade in one short video — its landing page, then every game it registers,
each reached from its card and played by the engine against itself.

The tour (`make run`) records it from a review instance; by hand:

    engines serve --port 8000 &
    demo record scripts/arcade_demo.py --base-url http://127.0.0.1:8000/ --out var/demos/arcade

The games come from the arcade's registry (engines.web.plugins), so a game added there is in the
video too, opened and narrated from its title and summary; for the games in KNOWN, a line of
their own and a short game of engine against engine (fixed budgets, so the replies repeat).
The per-game demos with every feature are in engines/demos/.
"""
from engines.web.plugins import registered_games

# For the games this script knows: a line to say over its page, and the page with the engine on
# both sides (its own side names, a small fixed budget, a quick playback). Every page publishes
# #NAME-app[data-ready][data-busy] and has #play-pause.
KNOWN = {
    "go": ("Go, against a Monte Carlo tree search, with analysis and a timeline you can branch.",
           "go?black=engine&white=engine&playouts=300&delay=0.3"),
    "gomoku": ("Gomoku, five in a row, with renju's forbidden points and proven wins.",
               "gomoku?black=engine&white=engine&nodes=5000&delay=0.3"),
    "quoridor": ("Quoridor: race your pawn across and wall the other one in.",
                 "quoridor?p1=engine&p2=engine&nodes=5000&delay=0.3&size=7"),
}


def run(d):
    games = registered_games()
    d.goto("")
    d.wait_for(".games .game-card")
    d.beat("arcade", say=f"The arcade on a private review URL: {len(games)} games, each a compiled "
                         "engine behind a JSON API.")
    for game in games:
        app = f'#{game.name}-app[data-ready="1"]'
        if game is not games[0]:
            d.goto("")
            d.wait_for(".games .game-card")
        d.click(f'.game-card a[href$="/{game.name}"]')
        d.wait_for(app)
        say, ai_vs_ai = KNOWN.get(game.name, (f"{game.title}: {game.summary}", None))
        d.beat(f"{game.name}-page", say=say)
        if ai_vs_ai:
            d.goto(ai_vs_ai)
            d.wait_for(f'{app}[data-busy="0"]')
            d.click("#play-pause")
            d.pause(3)
            d.beat(f"{game.name}-ai", say="Engine against engine.")
            d.click("#play-pause")
            d.settle(0.3)
    d.goto("")
    d.wait_for(".games .game-card")
    d.beat("end", say="Every game runs under the review sub-path, behind the private nginx.")
