"""One request's work with the Gomoku engine: replay a record, play, search, threats.

Every request builds its own engine and closes it before answering (`activity.engine_scope`),
so requests share nothing and a search cannot outlive its request. The rules live in the
engine: forbidden points, wins and refusals are its answers, turned into the API's documents.
"""
from __future__ import annotations

import time

from engines.web import activity
from engines.web.errors import ApiError, EngineUnavailable, IllegalMoveError
from engines.web.gomoku.record import RESIGN, GomokuGame, Move, move_name, point_name
from engines.web.search_budget import SearchBudget, win_share

COLOR_NAMES = {"b": "black", "w": "white"}
EVAL_SCALE = 400        # a score of 400 (about an open three) shows as a 73% bar
MAX_DEPTH = 40          # the core's GM_SEARCH_MAX_DEPTH


def _engine_module():
    try:
        from engines.gomoku import GomokuEngine, IllegalMove
        return GomokuEngine, IllegalMove
    except (ImportError, AttributeError) as exc:
        raise EngineUnavailable(f"the Gomoku engine is not available ({exc}); build it with "
                                f"`pip install -e .`") from None


def new_engine(**options):
    """A GomokuEngine (the plugin's engine factory), with a small table for one request."""
    engine_class, _ = _engine_module()
    return engine_class(**{"tt_megabytes": 16, **options})


def open_engine(game: GomokuGame):
    return activity.engine_scope(new_engine(size=game.size, rule=game.rule))


def _forbidden(engine, game: GomokuGame) -> list[dict]:
    if game.rule != "renju":
        return []
    return [{"move": point_name(p, game.size), "reason": engine.forbidden_reason(p)}
            for p in engine.forbidden_points()]


def _position(engine, game: GomokuGame, ply: int) -> dict:
    return {
        "ply": ply,
        "move": move_name(game.moves[ply - 1], game.size) if ply else None,
        "color": game.color(ply - 1) if ply else None,
        "board": ["".join(row) for row in engine.board()],
        "to_move": game.color(ply),
        "forbidden": _forbidden(engine, game),
    }


def play_checked(engine, game: GomokuGame, ply: int, move: Move, field: str, error=ApiError):
    """Play move number `ply`, raising `error` that names the move and the engine's reason."""
    if move == RESIGN:
        if engine.is_over:
            raise error(_prefixed(f"the game ended at move {ply}; no move may follow", field,
                                  error), field=field)
        return
    _, illegal = _engine_module()
    color = game.color(ply)
    try:
        engine.play(move)
    except illegal as exc:
        rule = getattr(exc, "rule", None)
        why = f"forbidden for black ({rule})" if rule else exc.reason
        text = f"move {ply + 1} ({point_name(move, game.size)}) by {COLOR_NAMES[color]} is " \
               f"illegal: {why}"
        raise error(_prefixed(text, field, error), field=field, move_number=ply + 1,
                    reason=exc.reason, **({"rule": rule} if rule else {})) from None


def _prefixed(text: str, field: str, error) -> str:
    return text if error is IllegalMoveError else f"{field}: {text}"


def replay(engine, game: GomokuGame, field: str = "game") -> list[dict]:
    positions = [_position(engine, game, 0)]
    for ply, move in enumerate(game.moves):
        play_checked(engine, game, ply, move, f"{field}.moves[{ply}]")
        positions.append(_position(engine, game, ply + 1))
    return positions


def result(engine, game: GomokuGame) -> dict | None:
    if game.resigned:
        winner = "w" if game.color(len(game.moves) - 1) == "b" else "b"
        return {"winner": winner, "by": "resignation", "text": f"{winner.upper()}+R", "line": []}
    if not engine.is_over:
        return None
    winner = engine.winner
    if winner is None:
        return {"winner": None, "by": "draw", "text": "draw", "line": []}
    line = [point_name(p, game.size) for p in engine.winning_line]
    return {"winner": winner, "by": "five", "text": f"{winner.upper()}+5", "line": line}


def state(engine, game: GomokuGame, positions: list[dict]) -> dict:
    outcome = result(engine, game)
    return {**game.to_json(), "positions": positions, "to_move": game.to_move,
            "over": outcome is not None, "result": outcome}


def replay_state(game: GomokuGame, field: str = "game") -> dict:
    with open_engine(game) as engine:
        return state(engine, game, replay(engine, game, field))


def play_state(game: GomokuGame, move: Move) -> dict:
    """The state after `move` on top of `game`; IllegalMoveError (422) says why not."""
    with open_engine(game) as engine:
        positions = replay(engine, game)
        if game.resigned:
            raise IllegalMoveError(f"the game ended at move {len(game.moves)}; no move may "
                                   f"follow", field="move", reason="game over")
        after = game.with_move(move)
        play_checked(engine, after, len(game.moves), move, "move", error=IllegalMoveError)
        positions.append(_position(engine, after, len(after.moves)))
        return state(engine, after, positions)


def _ensure_playing(engine, game: GomokuGame) -> None:
    if game.resigned or engine.is_over:
        raise ApiError("game.moves: the game is over; there is nothing to search",
                       field="game.moves")


def analysis_document(raw: dict, game: GomokuGame, elapsed_ms: float) -> dict:
    """The search's answer with names, a black share for the bar and a proven result."""
    from engines.gomoku.engine import WIN_SCORE

    size, color = game.size, game.to_move
    score = int(raw["score"])
    black_view = score if color == "b" else -score
    proven = None
    if abs(score) >= WIN_SCORE - MAX_DEPTH or raw["proven_win_in"]:
        plies = raw["proven_win_in"] or WIN_SCORE - abs(score)
        winner = color if score > 0 else ("w" if color == "b" else "b")
        sequence = [point_name(p, size) for p in raw["pv"][:plies]]
        proven = {"winner": winner, "plies": plies, "moves": (plies + 1) // 2,
                  "sequence": sequence,
                  "text": f"{COLOR_NAMES[winner]} wins in {(plies + 1) // 2}"}
    return {
        "color": color,
        "score": score,
        "black_share": 1.0 if proven and proven["winner"] == "b" else
                       0.0 if proven else round(win_share(black_view, EVAL_SCALE), 4),
        "depth": int(raw["depth"]),
        "nodes": int(raw["nodes"]),
        "elapsed_ms": round(elapsed_ms, 1),
        "pv": [point_name(p, size) for p in raw["pv"]],
        "candidates": [{"move": point_name(p, size), "score": int(s)} for p, s in raw["candidates"]],
        "proven": proven,
    }


def analyze(game: GomokuGame, budget: SearchBudget) -> dict:
    with open_engine(game) as engine:
        replay(engine, game)
        _ensure_playing(engine, game)
        started = time.perf_counter()
        raw = engine.search(**budget.engine_args())
        return analysis_document(raw, game, (time.perf_counter() - started) * 1000)


def genmove(game: GomokuGame, budget: SearchBudget) -> dict:
    """The engine's move for the side to move, its analysis, and the state after it."""
    with open_engine(game) as engine:
        positions = replay(engine, game)
        _ensure_playing(engine, game)
        started = time.perf_counter()
        raw = engine.search(**budget.engine_args())
        elapsed = (time.perf_counter() - started) * 1000
        move = raw["move"]
        if move is None:  # no legal point (renju: every one forbidden) - the game is drawn
            raise ApiError("game.moves: the side to move has no legal move", field="game.moves")
        analysis = analysis_document(raw, game, elapsed)
        after = game.with_move(move)
        play_checked(engine, after, len(game.moves), move, "move")
        positions.append(_position(engine, after, len(after.moves)))
        return {"move": point_name(move, game.size), "elapsed_ms": round(elapsed, 1),
                "analysis": analysis, "state": state(engine, after, positions)}


def threats(game: GomokuGame) -> dict:
    """Each side's threats in the final position, from the core's threat map (renju: none on
    black's forbidden points)."""
    with open_engine(game) as engine:
        replay(engine, game)
        doc = {color: [{"move": point_name(p, game.size), "kind": kind}
                       for p, kind in engine.threats(color)] for color in ("b", "w")}
    return {"ply": len(game.moves), "threats": doc}
