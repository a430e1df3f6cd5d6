"""The sprint order (pure)."""
import pytest

from pm.errors import Conflict, InvalidValue
from pm.sprint import plan, rank_changes


def test_promote_rank_demote():
    assert plan([5, 7], 9, None, "promote") == [5, 7, 9]
    assert plan([5, 7], 9, 1, "promote") == [9, 5, 7]
    assert plan([5, 7], 9, 99, "promote") == [5, 7, 9]
    assert plan([5, 7, 9], 9, 2, "rank") == [5, 9, 7]
    assert plan([5, 7, 9], 5, 3, "rank") == [7, 9, 5]
    assert plan([5, 7, 9], 7, None, "demote") == [5, 9]


def test_refusals():
    with pytest.raises(Conflict, match="already in the sprint at rank 2"):
        plan([5, 7], 7, None, "promote")
    with pytest.raises(Conflict, match="promote it first"):
        plan([5], 7, 1, "rank")
    with pytest.raises(Conflict, match="not in the sprint"):
        plan([5], 7, None, "demote")
    with pytest.raises(InvalidValue):
        plan([5], 5, 0, "rank")


def test_only_changed_ranks_are_written():
    current = {5: 1, 7: 2, 9: None, 11: None}
    assert rank_changes(current, [9, 5, 7], 9) == {5: 2, 7: 3, 9: 1}
    assert rank_changes({5: 1, 7: 2}, [5], 7) == {7: None}
    assert rank_changes({5: 1, 7: 3}, [5, 7], 7) == {7: 2}  # a gap left by a hand edit closes
