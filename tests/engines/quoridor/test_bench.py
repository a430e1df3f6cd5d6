"""The speed figures run and describe real rollouts (no speed is asserted on a shared machine)."""
from engines.quoridor import bench


def test_rollout_benchmark_plays_walls_and_pawns():
    r = bench.rollouts_per_second(9, 5000, seed=3)
    assert r["per_second"] > 0 and 0.3 < r["first_player_wins"] < 0.8
    assert r["mean_plies"] > 16 and 2 < r["mean_walls"] <= 20


def test_wall_generation_figure():
    r = bench.wall_generation(9, positions=20)
    assert r["lists"] == 400 and r["walls"] > 400 * 50 and r["ns_per_wall"] > 0


def test_search_benchmark_reports_nodes_per_second():
    r = bench.search_nodes_per_second(9, 20_000)
    print(f"alpha-beta, 9x9 opening, one thread: {r['per_second']:,.0f} nodes/s "
          f"(depth {r['depth']}, {r['nodes']} nodes)")
    assert r["nodes"] >= 20_000 and r["depth"] >= 2 and r["per_second"] > 0


def test_tree_search_benchmark_reports_playouts_and_its_tree():
    for style in ("mcts", "reference-ai"):
        r = bench.mcts_playouts_per_second(9, 5000, style=style)
        assert r["playouts"] == 5000 and r["per_second"] > 0 and r["tree_nodes"] > 100
        assert r["tree_bytes"] >= 64 << 20 and not r["tree_full"] and r["threads"] == 1
    r = bench.mcts_playouts_per_second(9, 5000, threads=2)
    assert r["playouts"] == 5000 and r["threads"] == 2 and r["tree_nodes"] > 100
