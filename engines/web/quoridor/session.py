"""One request's work with the Quoridor engine: replay a record, play, search.

Every request builds its own engine and closes it before answering (`activity.engine_scope`).
Legal pawn squares, refused walls with their reasons, both shortest paths and the winner are
the engine's answers; the page draws them and decides nothing.
"""
from __future__ import annotations

import time

from engines.quoridor import rules
from engines.web import activity
from engines.web.errors import ApiError, EngineUnavailable, IllegalMoveError
from engines.web.quoridor.record import RESIGN, QuoridorGame
from engines.web.search_budget import SearchBudget, win_share

EVAL_SCALE = 150        # hundredths of a step: one step ahead shows as a 66% bar
MAX_DEPTH = 48          # the core's QR_SEARCH_MAX_DEPTH
# The arcade's search: the alpha-beta, whose budget its API offers (seconds, nodes, depth) and
# whose candidates carry scores; engine.search()'s default is the stronger MCTS.
SEARCH = "alphabeta"
# What the page says about a wall the rules refuse (the exception classes of rules.py).
WALL_REASONS = {
    rules.WallOverlaps: "overlaps a wall",
    rules.WallCrosses: "crosses a wall",
    rules.WallBlocksPath: "blocks every path of a pawn to its goal row",
    rules.NoWallsLeft: "no walls left",
    rules.GameOver: "the game is over",
    rules.OffBoard: "off the board's grooves",
}


def _engine_class():
    try:
        from engines.quoridor import QuoridorEngine
        return QuoridorEngine
    except (ImportError, AttributeError) as exc:
        raise EngineUnavailable(f"the Quoridor engine is not available ({exc}); build it with "
                                f"`pip install -e .`") from None


def new_engine(**options):
    """A QuoridorEngine (the plugin's engine factory), with a small table for one request."""
    return _engine_class()(**{"tt_megabytes": 8, **options})


def open_engine(game: QuoridorGame):
    return activity.engine_scope(new_engine(size=game.size, walls=game.walls,
                                            edge_diagonal=game.edge_diagonal))


def _wall_slots(size: int):
    return [(x, y, o) for o in "hv" for y in range(size - 1) for x in range(size - 1)]


def _position(engine, game: QuoridorGame, ply: int) -> dict:
    """The board after `ply` moves, with what the player to move may do there."""
    size, walls = game.size, sorted(engine.walls)
    over = engine.winner is not None or (game.resigned and ply == len(game.moves))
    to_move = game.player(ply)
    refused, blanket = {}, None
    if over:
        blanket = "the game is over"
    elif engine.walls_left[to_move] == 0:
        blanket = "no walls left"
    else:
        for wall in _wall_slots(size):
            why = engine.why_illegal(wall)
            if why is not None:
                refused[rules.wall_name(wall)] = WALL_REASONS.get(why, why.__doc__ or "illegal")
    pawns = engine.pawns
    paths = [engine.shortest_path(p) for p in (0, 1)]
    return {
        "ply": ply,
        "move": game.moves[ply - 1] if ply else None,
        "player": game.player(ply - 1) if ply else None,
        "pawns": [rules.square_name(p) for p in pawns],
        "walls": [rules.wall_name(w) for w in walls],
        "walls_left": engine.walls_left,
        "to_move": to_move,
        "pawn_moves": [] if over else [rules.square_name(s) for s in engine.legal_pawn_moves()],
        "illegal_walls": refused,
        "walls_refused": blanket,
        "paths": [[rules.square_name(s) for s in path] for path in paths],
    }


def play_checked(engine, game: QuoridorGame, ply: int, move: str, field: str, error=ApiError):
    """Play move number `ply`, raising `error` that names the move and the rule that refuses it."""
    if move == RESIGN:
        if engine.winner is not None:
            raise error(_prefixed(f"the game ended at move {ply}; no move may follow", field,
                                  error), field=field, reason="the game is over")
        return
    try:
        engine.play(move)
    except rules.IllegalMove as exc:
        why = str(exc).split(": ", 1)[-1]
        text = f"move {ply + 1} ({move}) by player {game.player(ply) + 1} is illegal: {why}"
        raise error(_prefixed(text, field, error), field=field, move_number=ply + 1,
                    reason=why) from None


def _prefixed(text: str, field: str, error) -> str:
    return text if error is IllegalMoveError else f"{field}: {text}"


def replay(engine, game: QuoridorGame, field: str = "game") -> list[dict]:
    positions = [_position(engine, game, 0)]
    for ply, move in enumerate(game.moves):
        play_checked(engine, game, ply, move, f"{field}.moves[{ply}]")
        positions.append(_position(engine, game, ply + 1))
    return positions


def result(engine, game: QuoridorGame) -> dict | None:
    if game.resigned:
        winner = 1 - game.player(len(game.moves) - 1)
        return {"winner": winner, "by": "resignation", "text": f"player {winner + 1} wins by resignation"}
    if engine.winner is None:
        return None
    return {"winner": engine.winner, "by": "goal", "text": f"player {engine.winner + 1} reached the goal row"}


def state(engine, game: QuoridorGame, positions: list[dict]) -> dict:
    outcome = result(engine, game)
    return {**game.to_json(), "positions": positions, "to_move": game.to_move,
            "over": outcome is not None, "result": outcome}


def replay_state(game: QuoridorGame, field: str = "game") -> dict:
    with open_engine(game) as engine:
        return state(engine, game, replay(engine, game, field))


def play_state(game: QuoridorGame, move: str) -> dict:
    with open_engine(game) as engine:
        positions = replay(engine, game)
        if game.resigned:
            raise IllegalMoveError(f"the game ended at move {len(game.moves)}; no move may "
                                   f"follow", field="move", reason="the game is over")
        after = game.with_move(move)
        play_checked(engine, after, len(game.moves), move, "move", error=IllegalMoveError)
        positions.append(_position(engine, after, len(after.moves)))
        return state(engine, after, positions)


def _ensure_playing(engine, game: QuoridorGame) -> None:
    if game.resigned or engine.winner is not None:
        raise ApiError("game.moves: the game is over; there is nothing to search",
                       field="game.moves")


def analysis_document(raw: dict, game: QuoridorGame, elapsed_ms: float) -> dict:
    player, score = game.to_move, int(raw["score"])
    first_view = score if player == 0 else -score
    proven = None
    if abs(score) > raw["win_threshold"]:
        # A forced result scores QR_SCORE_WIN - plies; win_threshold is QR_SCORE_WIN - MAX_DEPTH.
        plies = raw["win_threshold"] + MAX_DEPTH - abs(score)
        winner = player if score > 0 else 1 - player
        proven = {"winner": winner, "plies": plies, "sequence": raw["pv"][:plies],
                  "text": f"player {winner + 1} wins in {(plies + 1) // 2}"}
    return {
        "player": player,
        "score": score,
        "first_share": (1.0 if proven["winner"] == 0 else 0.0) if proven
                       else round(win_share(first_view, EVAL_SCALE), 4),
        "depth": int(raw["depth"]),
        "nodes": int(raw["nodes"]),
        "elapsed_ms": round(elapsed_ms, 1),
        "memory": int(raw["memory"]),
        "pv": list(raw["pv"]),
        "candidates": [{"move": m, "score": int(s)} for m, s in raw["candidates"]],
        "path_lengths": list(raw["path"]),
        "proven": proven,
    }


def analyze(game: QuoridorGame, budget: SearchBudget) -> dict:
    with open_engine(game) as engine:
        replay(engine, game)
        _ensure_playing(engine, game)
        started = time.perf_counter()
        raw = engine.search(engine=SEARCH, **budget.engine_args())
        return analysis_document(raw, game, (time.perf_counter() - started) * 1000)


def genmove(game: QuoridorGame, budget: SearchBudget) -> dict:
    with open_engine(game) as engine:
        positions = replay(engine, game)
        _ensure_playing(engine, game)
        started = time.perf_counter()
        raw = engine.search(engine=SEARCH, **budget.engine_args())
        elapsed = (time.perf_counter() - started) * 1000
        if raw["move"] is None:
            raise ApiError("game.moves: the engine found no move", field="game.moves")
        analysis = analysis_document(raw, game, elapsed)
        after = game.with_move(raw["move"])
        play_checked(engine, after, len(game.moves), raw["move"], "move")
        positions.append(_position(engine, after, len(after.moves)))
        return {"move": raw["move"], "elapsed_ms": round(elapsed, 1), "analysis": analysis,
                "state": state(engine, after, positions)}
