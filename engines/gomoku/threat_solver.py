"""Forced wins proved by exhaustion over the readable rules (rules.Game): the reference that
the tactics suite and the search tests are checked with, independent of the C core.

- `solve_vcf(game, max_plies)`: the shortest VCF (victory by continuous fours) of the side to
  move. Exhaustive for fours: after a four the defender's only moves are its own five (then the
  line fails) or the block (forced; when there are two fives to block, or the block is
  forbidden to black, the attacker wins).
- `wins_after(game, move, threats, vcf_plies)`: does MOVE win for the side to move, against
  *every* legal reply, by fours and at most THREATS further non-four moves (VCT)? Each of the
  defender's replies is tried: most are refuted at once by replaying one winning line found
  against a pass (a replay is itself a proof: every defender move in it is forced), the rest
  by a full search. The attacker's moves inside a VCT are any that leave a VCF against a pass
  (threats), so a proof is sound; it may miss wins longer than the limits.
- `saving_replies(game, vcf_plies)`: the side to move's replies after which the opponent has
  no VCF within VCF_PLIES (the defence positions' "only non-losing reply", bounded by VCF).

Points are (x, y); a line is the list of moves from the position, attacker's first. A VCF
search can grow exponentially on a crowded board: `limited(nodes)` bounds every search inside
it, which then raises OutOfBudget instead of answering (an answer given is still exact).
"""
from __future__ import annotations

from contextlib import contextmanager

from engines.gomoku import rules


class OutOfBudget(Exception):
    """A search inside `limited(nodes)` met its node budget before it had an answer."""


_budget: dict = {"left": None}


@contextmanager
def limited(nodes: int):
    """At most NODES VCF nodes for the searches inside the block (not thread-safe)."""
    saved = _budget["left"]
    _budget["left"] = nodes
    try:
        yield
    finally:
        _budget["left"] = saved


def _tick() -> None:
    if _budget["left"] is not None:
        _budget["left"] -= 1
        if _budget["left"] < 0:
            raise OutOfBudget("more than the budget of VCF nodes")


def win_points(game, color) -> list:
    """Empty points where a stone of COLOR makes a five under the game's rule."""
    return [p for p in game.empty_points() if game.makes_five(p, color)]


def _near_points(game, reach: int = 2) -> list:
    stones = game.history
    return [p for p in game.empty_points()
            if any(max(abs(p[0] - s[0]), abs(p[1] - s[1])) <= reach for s in stones)]


def four_candidates(game, color) -> list:
    """Points that may make a four: a five-point window through them holding three of
    COLOR's stones and two empty points (necessary for a four)."""
    out = []
    for p in game.empty_points():
        if any(_window_has(game, p, d, start, color)
               for d in rules.DIRECTIONS for start in range(-4, 1)):
            out.append(p)
    return out


def _window_has(game, p, d, start, color) -> bool:
    cells = [game.at((p[0] + (start + k) * d[0], p[1] + (start + k) * d[1])) for k in range(5)]
    return cells.count(color) == 3 and cells.count(rules.EMPTY) == 2


# ---- VCF -----------------------------------------------------------------------------------

def _defend(game, threats, plies):
    """Defender to move against the attacker's fives at THREATS: the forced rest of the win,
    or None if the defender is not lost within PLIES."""
    if plies < 2 or win_points(game, game.to_move):
        return None                              # out of plies, or the defender fives first
    blocks = [t for t in threats if game.why_illegal(t) is None]
    if len(threats) >= 2 or not blocks:          # cannot stop every five
        reply = blocks[0] if blocks else None
        return [reply, next(t for t in threats if t != reply)]
    game.play(blocks[0])
    try:
        rest = _vcf(game, plies - 1)
    finally:
        game.undo()
    return None if rest is None else [blocks[0]] + rest


def _vcf(game, plies):
    """A VCF of the side to move within PLIES (its five included), or None."""
    _tick()
    me = game.to_move
    mine = win_points(game, me)
    if mine:
        return [mine[0]]
    theirs = win_points(game, rules.other(me))
    if plies < 3 or len(theirs) >= 2:
        return None
    for p in theirs or four_candidates(game, me):
        if game.why_illegal(p) is not None:
            continue
        game.play(p)
        try:
            threats = win_points(game, me)
            line = _defend(game, threats, plies - 1) if threats else None
        finally:
            game.undo()
        if line is not None:
            return [p] + line
    return None


def solve_vcf(game, max_plies: int = 11):
    """The shortest VCF (odd plies up to MAX_PLIES) of the side to move, or None."""
    for plies in range(1, max_plies + 1, 2):
        line = _vcf(game, plies)
        if line is not None:
            return line
    return None


def replay_wins(game, line, attacker) -> bool:
    """Does LINE (attacker's moves at even indexes) still force a win here? Each attacker move
    must be legal and make a five or a four; each defender move must be the forced block
    (when the defender has a five, or a choice, the line does not prove anything)."""
    played = 0
    try:
        for i, p in enumerate(line):
            if game.to_move == attacker:
                if p is None or game.why_illegal(p) is not None:
                    return False
                game.play(p)
                played += 1
                if game.winner == attacker:
                    return True
                threats = win_points(game, attacker)
                if not threats:
                    return False
                if win_points(game, game.to_move):
                    return False
                blocks = [t for t in threats if game.why_illegal(t) is None]
                if len(threats) >= 2 or not blocks:
                    return True
            else:
                if p != blocks[0]:
                    return False
                game.play(p)
                played += 1
        return False
    finally:
        for _ in range(played):
            game.undo()


# ---- VCT -----------------------------------------------------------------------------------

def _pass_line(game, vcf_plies):
    """The attacker's VCF if the defender (to move) passed: the winning line or None."""
    game.pass_turn()
    try:
        return solve_vcf(game, vcf_plies)
    finally:
        game.pass_turn()


def _attacker_wins(game, threats, vcf_plies) -> bool:
    """The attacker (to move) wins by a VCF, or by a threat then a win against every reply."""
    me = game.to_move
    if solve_vcf(game, vcf_plies):
        return True
    theirs = win_points(game, rules.other(me))
    if len(theirs) >= 2:
        return False
    if theirs:                                   # a block the attacker must play first
        block = theirs[0]
        return game.why_illegal(block) is None and _after(game, block, threats, vcf_plies)
    if threats <= 0:
        return False
    return any(wins_after(game, p, threats - 1, vcf_plies) for p in threat_moves(game,
                                                                                 vcf_plies))


def _after(game, move, threats, vcf_plies) -> bool:
    game.play(move)
    try:
        return _defender_loses(game, threats, vcf_plies)
    finally:
        game.undo()


def threat_moves(game, vcf_plies) -> list:
    """The side to move's moves near the stones after which it has a VCF against a pass."""
    out = []
    for p in _near_points(game):
        if game.why_illegal(p) is not None:
            continue
        game.play(p)
        try:
            if not game.is_over and _pass_line(game, vcf_plies):
                out.append(p)
        finally:
            game.undo()
    return out


def _defender_loses(game, threats, vcf_plies) -> bool:
    """The defender to move: does every legal reply lose (attacker VCF, or VCT in THREATS)?"""
    attacker = rules.other(game.to_move)
    if game.winner == attacker:
        return True
    if game.is_over or win_points(game, game.to_move):
        return False                             # a draw, or the defender fives first
    line = _pass_line(game, vcf_plies)
    for reply in game.legal_moves():
        game.play(reply)
        try:
            if line is not None and replay_wins(game, line, attacker):
                continue
            if not _attacker_wins(game, threats, vcf_plies):
                return False
        finally:
            game.undo()
    return True


def wins_after(game, move, threats: int = 0, vcf_plies: int = 11) -> bool:
    """MOVE by the side to move wins against every legal reply, by fours and at most THREATS
    more non-four threat moves. Exhaustive over the defender's replies."""
    if game.why_illegal(move) is not None:
        return False
    game.play(move)
    try:
        return _defender_loses(game, threats, vcf_plies)
    finally:
        game.undo()


def saving_replies(game, vcf_plies: int = 11) -> list:
    """The side to move's legal replies after which the opponent has no VCF within VCF_PLIES
    (a reply that makes five saves too). Replies the opponent's VCF against a pass still wins
    after (replayed, forced) are refuted without a search."""
    opponent = rules.other(game.to_move)
    line = _pass_line(game, vcf_plies)
    out = []
    for reply in game.legal_moves():
        game.play(reply)
        try:
            if game.winner == rules.other(opponent):
                out.append(reply)
            elif line is not None and replay_wins(game, line, opponent):
                continue
            elif not game.is_over and solve_vcf(game, vcf_plies) is None:
                out.append(reply)
        finally:
            game.undo()
    return out
