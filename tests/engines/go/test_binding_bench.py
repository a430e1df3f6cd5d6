"""`engines bench go`: the figures and their conditions come out as text and as JSON."""
import json

from click.testing import CliRunner

from engines import cli
from engines.go import bench


def test_bench_json_has_figures_and_conditions(monkeypatch):
    monkeypatch.setattr(bench, "LIGHT_GAMES", 3000)
    monkeypatch.setattr(bench, "SEARCH_PLAYOUTS", 3000)
    monkeypatch.setattr(bench, "VALUE_EVALS", 50)
    result = CliRunner().invoke(cli.main, ["bench", "go", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["light_games_per_second_1_thread"] > 0
    assert figures["search_1_thread"]["playouts"] >= 3000
    assert figures["search_2_threads"]["threads"] == 2
    assert figures["search_scaling_2_threads"] > 0
    assert figures["value_evals_per_second_1_thread"] > 0
    net = figures["search_value_1_thread"]
    assert net["playouts"] >= 3000 and 0 < net["valued"] < net["playouts"]
    assert figures["search_1_thread"]["valued"] == 0
    assert figures["conditions"]["cores"] >= 1 and "cpu" in figures["conditions"]
    assert figures["baseline_reference_rules_games_per_second"] > 0


def test_bench_text_names_targets(monkeypatch):
    monkeypatch.setattr(bench, "LIGHT_GAMES", 2000)
    monkeypatch.setattr(bench, "SEARCH_PLAYOUTS", 2000)
    monkeypatch.setattr(bench, "VALUE_EVALS", 50)
    monkeypatch.setattr(bench, "reference_games_per_second", lambda seconds=1.0: 10.0)
    result = CliRunner().invoke(cli.main, ["bench", "go"])
    assert result.exit_code == 0, result.output
    assert "target >= 40,000" in result.stdout and "load" in result.stdout
    assert "2 threads" in result.stdout and "evaluations/s" in result.stdout
    assert "(--value), 1 thread" in result.stdout and "positions evaluated" in result.stdout
