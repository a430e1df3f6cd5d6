"""Dependencies (pure): blockers from both link directions, ready/blocked, every cycle once."""
from pm.graph import analyse, blockers_map, cycles
from pm.model import Task


def test_cycles_are_found_once_each():
    graph = {1: {2}, 2: {3}, 3: {1}, 4: {4}, 5: {6}, 6: set(), 7: {8}, 8: {7, 1}}
    assert cycles(graph) == [[1, 2, 3], [4], [7, 8]]
    assert cycles({1: {2}, 2: set()}) == []


def test_blockers_come_from_both_link_directions_and_ready_follows_work_order():
    tasks = [Task(1, "a", links=[("blocks", 2)]), Task(2, "b"),
             Task(3, "c", links=[("blocked-by", 1)], priority="P0"),
             Task(4, "d", priority="P3", sprint_rank=1), Task(5, "e", status="done", links=[("blocks", 6)]),
             Task(6, "f", priority="P1")]
    assert blockers_map(tasks)[2] == {1} and blockers_map(tasks)[3] == {1}
    ready, blocked = analyse(tasks)
    assert [t.id for t in ready] == [4, 6, 1]  # sprint first, then priority; 5 done blocks nothing
    assert [(t.id, b, c) for t, b, c in blocked] == [(3, [1], False), (2, [1], False)]
