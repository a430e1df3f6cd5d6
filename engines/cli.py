"""`engines`: the game engines' command line (GTP adapters, benchmarks, the arcade server).

Each command imports its implementation lazily so that `engines --help` stays fast and one
game's build problem cannot break another game's command.
"""
import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Compiled board-game engines and the web arcade that serves them."""


@main.command()
@click.argument("game", type=click.Choice(["go"]))
def gtp(game):
    """Speak GTP v2 on stdin/stdout for GAME (for GoGui, Sabaki, GNU Go matches)."""
    from engines.go.gtp import run_gtp

    raise SystemExit(run_gtp())


@main.command()
@click.argument("game", type=click.Choice(["go"]))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def bench(game, as_json):
    """Measure GAME's speed (playouts per second) and print the conditions."""
    from engines.go.bench import run_bench

    raise SystemExit(run_bench(as_json=as_json))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to bind.")
def serve(host, port):
    """Serve the arcade (every game's page and JSON API)."""
    from engines.web.serve import serve as serve_arcade

    serve_arcade(host=host, port=port)
