"""The tactics suite (bench/gomoku_tactics.json, made by bench/gomoku_tactics_make.py): its
coverage, and its claims proved again by engines/gomoku/threat_solver.py, not by the engine."""
import json
import sys
from pathlib import Path

import pytest

from engines.gomoku import rules

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
import gomoku_tactics  # noqa: E402


# ---- the suite ------------------------------------------------------------------------------

SUITE = json.loads((ROOT / "bench" / "gomoku_tactics.json").read_text())["positions"]


def test_the_suite_has_60_forced_wins_of_both_colours_under_every_rule_and_defences():
    wins = [e for e in SUITE if e["kind"] in ("vcf", "vct")]
    assert len(wins) >= 60
    for rule in rules.RULES:
        for kind in ("vcf", "vct"):
            colours = {e["to_move"] for e in wins if e["rule"] == rule and e["kind"] == kind}
            assert colours == {"b", "w"}, (rule, kind)
    assert sum(e["kind"] == "defence" for e in SUITE) >= 6
    assert len({e["id"] for e in SUITE}) == len(SUITE)


@pytest.mark.parametrize("entry", SUITE[::12], ids=lambda e: e["id"])
def test_a_twelfth_of_the_suite_is_proved_again_by_the_solver(entry):
    """Every twelfth position (all of them: `python bench/gomoku_tactics.py --verify`)."""
    assert gomoku_tactics.verify(entry) is None


def test_verify_refuses_a_wrong_claim():
    vct = next(e for e in SUITE if e["kind"] == "vct")
    wrong = dict(vct, move=[0, 0] if vct["moves"][0] != [0, 0] else [14, 14])
    assert "does not win" in gomoku_tactics.verify(wrong)
    vcf = next(e for e in SUITE if e["kind"] == "vcf")
    assert "the shortest VCF" in gomoku_tactics.verify(dict(vcf, plies=vcf["plies"] + 2))
