"""One request's work with the Go engine: replay a record, play, search, score.

Every request builds its own engine (`open_engine`) and closes it before answering, so requests
share nothing and a search cannot outlive its request. The rules live in the engine; this module
only turns its answers into the API's documents.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

from engines.go.coords import to_gtp
from engines.web import activity
from engines.web.errors import ApiError, EngineUnavailable, IllegalMoveError
from engines.web.go.record import RESIGN, Budget, GoGame, Move, game_over, move_text

COLOR_NAMES = {"b": "black", "w": "white"}


def _engine_module():
    try:
        import engines.go as go
        return go.GoEngine, go.IllegalMove
    except (ImportError, AttributeError) as exc:
        raise EngineUnavailable(f"the Go engine is not available ({exc}); build it with "
                                f"`pip install -e .`") from None


def new_engine(**options):
    """A GoEngine (the plugin's engine factory); one search thread per request, searching with
    the learned network (its policy and value as priors; on the size it was trained on)."""
    engine_class, _ = _engine_module()
    return engine_class(**{"threads": 1, "value": True, **options})


def engine_for(game: GoGame, seed: int = 0):
    """A fresh engine for `game`'s rules; the caller must `release` it."""
    engine = new_engine(size=game.size, komi=game.komi, superko=game.superko, seed=seed)
    activity.opened()
    return engine


def release(engine) -> None:
    engine.close()
    activity.closed()


@contextmanager
def open_engine(game: GoGame, seed: int = 0):
    """A fresh engine for `game`'s rules, closed on every exit path."""
    engine = engine_for(game, seed)
    try:
        yield engine
    finally:
        release(engine)


def _position(engine, game: GoGame, ply: int) -> dict:
    move = game.moves[ply - 1] if ply else None
    ko = engine.ko
    return {
        "ply": ply,
        "move": move_text(move, game.size) if ply else None,
        "color": game.color(ply - 1) if ply else None,
        "board": ["".join(row) for row in engine.board()],
        "captures": {"b": int(engine.captures["b"]), "w": int(engine.captures["w"])},
        "ko": to_gtp(ko, game.size) if ko is not None else None,
        "to_move": game.color(ply),
    }


def play_checked(engine, game: GoGame, ply: int, move: Move, field: str, error=ApiError) -> None:
    """Play move number `ply` on `engine`, raising `error` that names the move and the reason."""
    if move == RESIGN:
        return
    if game_over(game.moves[:ply]):
        text = f"the game ended at move {ply}; no move may follow"
        raise error(text if error is IllegalMoveError else f"{field}: {text}", field=field)
    _, illegal = _engine_module()
    color = game.color(ply)
    try:
        engine.play(color, move)
    except illegal as exc:
        # The engine's reason starts with the rule ("occupied: b at (4, 4)"); players see the rule.
        rule = str(exc).split(":", 1)[0]
        text = f"move {ply + 1} ({move_text(move, game.size)}) by {COLOR_NAMES[color]} is illegal: {rule}"
        raise error(text if error is IllegalMoveError else f"{field}: {text}", field=field,
                    move_number=ply + 1, reason=str(exc)) from None


def replay(engine, game: GoGame, field: str = "game") -> list[dict]:
    """Play every move of `game`; the position after each (index 0 is the empty board)."""
    positions = [_position(engine, game, 0)]
    for ply, move in enumerate(game.moves):
        play_checked(engine, game, ply, move, f"{field}.moves[{ply}]")
        positions.append(_position(engine, game, ply + 1))
    return positions


def result(engine, game: GoGame) -> dict | None:
    """The result of a finished game (dead stones judged by the engine), else None."""
    if not game_over(game.moves):
        return None
    if game.moves[-1] == RESIGN:
        winner = "w" if game.color(len(game.moves) - 1) == "b" else "b"
        return {"winner": winner, "margin": None, "text": f"{winner.upper()}+R",
                "by": "resignation", "dead": []}
    score = float(engine.final_score())
    winner = "b" if score > 0 else "w" if score < 0 else None
    text = f"{winner.upper()}+{abs(score):g}" if winner else "0"
    dead = [to_gtp(p, game.size) for p in engine.dead_stones()]
    return {"winner": winner, "margin": abs(score), "text": text, "by": "score", "dead": dead}


def state(engine, game: GoGame, positions: list[dict]) -> dict:
    """The GoState document for a replayed game."""
    over = game_over(game.moves)
    legal = [] if over else [to_gtp(p, game.size) for p in engine.legal_moves(game.to_move)]
    return {**game.to_json(), "positions": positions, "to_move": game.to_move,
            "legal": legal + ([] if over else ["pass"]), "over": over, "result": result(engine, game)}


def replay_state(game: GoGame) -> dict:
    return replay_state_as(game, "game")


def replay_state_as(game: GoGame, field: str) -> dict:
    """Replay `game`; an illegal move is reported under `field` (e.g. "sgf")."""
    with open_engine(game) as engine:
        return state(engine, game, replay(engine, game, field))


def play_state(game: GoGame, move: Move) -> dict:
    """The state after `move` is played on top of `game`; IllegalMoveError says why not."""
    with open_engine(game) as engine:
        positions = replay(engine, game)
        after = game.with_move(move)
        play_checked(engine, after, len(game.moves), move, "move", error=IllegalMoveError)
        positions.append(_position(engine, after, len(after.moves)))
        return state(engine, after, positions)


def ensure_playing(game: GoGame) -> None:
    if game_over(game.moves):
        raise ApiError("game.moves: the game is over; there is nothing to search", field="game.moves")


def genmove(game: GoGame, budget: Budget, seed: int = 0) -> dict:
    """Let the engine choose and play a move for the side to move, with the analysis of the
    search that chose it."""
    ensure_playing(game)
    with open_engine(game, seed) as engine:
        positions = replay(engine, game)
        started = time.perf_counter()
        point, raw = engine.genmove_analyzed(game.to_move, playouts=budget.playouts,
                                             seconds=budget.seconds)
        elapsed = (time.perf_counter() - started) * 1000
        move = RESIGN if point == "resign" else point
        after = game.with_move(move)
        positions.append(_position(engine, after, len(after.moves)))
        return {"move": move_text(move, game.size), "elapsed_ms": round(elapsed, 1),
                "analysis": analysis_document(raw, game, elapsed),
                "state": state(engine, after, positions)}


def analyze(game: GoGame, budget: Budget, seed: int = 0) -> dict:
    """Search the position without playing: win rate, candidates, PV, ownership."""
    ensure_playing(game)
    with open_engine(game, seed) as engine:
        replay(engine, game)
        started = time.perf_counter()
        raw = engine.analyze(game.to_move, playouts=budget.playouts, seconds=budget.seconds)
        elapsed = (time.perf_counter() - started) * 1000
    return analysis_document(raw, game, elapsed)


def analysis_document(raw: dict, game: GoGame, elapsed_ms: float) -> dict:
    """The engine's analysis with points as GTP vertices and ownership as rows."""
    def vertex(p):
        return "resign" if p == "resign" else to_gtp(p, game.size)

    ownership = raw.get("ownership")
    if ownership is not None:
        flat = [float(v) for row in ownership for v in (row if isinstance(row, (list, tuple)) else [row])]
        ownership = [flat[i * game.size:(i + 1) * game.size] for i in range(game.size)]
    return {
        "color": game.to_move,
        "winrate": float(raw["winrate"]),
        "playouts": int(raw["playouts"]),
        "candidates": [{"move": vertex(c["move"]), "visits": int(c["visits"]),
                        "prior": float(c["prior"]), "winrate": float(c["winrate"])}
                       for c in raw["candidates"]],
        "pv": [vertex(p) for p in raw.get("pv", [])],
        "ownership": ownership,
        "elapsed_ms": round(elapsed_ms, 1),
    }
