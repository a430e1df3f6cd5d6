"""Query-string filter parsing: values, normalisation and the error that names a bad value."""
import pytest
from werkzeug.datastructures import MultiDict

from pm.api import Task
from pm.web.filters import BadFilter, Filters, parse_filters

STATUSES = ("open", "in-progress", "review", "done", "wontfix")
PRIORITIES = ("P0", "P1", "P2", "P3")
KINDS = ("task", "bug", "feature")


def parse(**args):
    multi = MultiDict()
    for name, value in args.items():
        for item in value if isinstance(value, list) else [value]:
            multi.add(name, item)
    return parse_filters(multi, STATUSES, PRIORITIES, KINDS)


def test_no_arguments_means_no_filter():
    filters = parse()
    assert filters == Filters() and not filters.active


def test_comma_lists_and_repeated_keys_combine():
    assert parse(status=["open,review", "done"]).status == {"open", "review", "done"}


def test_values_are_normalised_to_the_trackers_spelling():
    filters = parse(priority="p0,P1", status="In-Progress", kind="BUG")
    assert filters.priority == {"P0", "P1"} and filters.status == {"in-progress"}
    assert filters.kind == {"bug"}


@pytest.mark.parametrize("word,expected", [("yes", True), ("1", True), ("true", True), ("no", False), ("0", False)])
def test_sprint_flag(word, expected):
    assert parse(sprint=word).sprint is expected


@pytest.mark.parametrize("name,value", [("status", "closed"), ("priority", "P9"), ("kind", "epic"), ("sprint", "maybe")])
def test_unknown_value_raises_naming_it(name, value):
    with pytest.raises(BadFilter) as error:
        parse(**{name: value})
    assert error.value.name == name and error.value.value == value
    assert value in str(error.value)


def test_empty_values_are_ignored():
    assert not parse(status="", priority="", kind="", text="  ").active


def test_text_keeps_commas():
    assert parse(text="ranking, first line").text == "ranking, first line"


def test_matches_checks_every_field():
    task = Task(7, "t", status="open", priority="P1", kind="bug", sprint_rank=2)
    assert parse(status="open", priority="P1", kind="bug", sprint="yes").matches(task)
    assert not parse(status="done").matches(task)
    assert not parse(priority="P0").matches(task)
    assert not parse(kind="feature").matches(task)
    assert not parse(sprint="no").matches(task)


def test_query_round_trips():
    filters = parse(status="open,review", priority="P1", sprint="no", text="go board")
    assert parse(**filters.query()) == filters


def test_unrestricted_kinds_accept_any_value():
    filters = parse_filters(MultiDict({"kind": "epic"}), STATUSES, PRIORITIES, None)
    assert filters.kind == {"epic"}
