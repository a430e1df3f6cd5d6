"""approve: app checks, then a merge into main while main is checked out in another worktree."""
import pytest

from instances.config import load_config
from instances.errors import ChecksFailed, GitError
from tests.instances.conftest import commit_file, git, write_toml


def _feature(mgr, branch="feature/done", name="feature-done"):
    mgr.up(branch, run_checks=False)
    wt = mgr.worktree(name)
    commit_file(wt, "feature.txt", "feature\n", "add feature")
    return wt


@pytest.mark.nginx
def test_approve_merges_while_main_is_checked_out_with_local_changes(mgr, app_repo):
    wt = _feature(mgr)
    commit_file(app_repo, "main.txt", "main moved on\n", "main work")  # diverged: a real merge
    (app_repo / "app.py").write_text((app_repo / "app.py").read_text() + "# local edit\n")
    (app_repo / "static" / "app.js").write_text("// staged edit\n")
    git(app_repo, "add", "static/app.js")
    old_main = git(app_repo, "rev-parse", "main")

    result = mgr.approve("feature-done")

    assert result["fast_forward"] is False and not result["already_merged"]
    parents = git(app_repo, "rev-list", "--parents", "-n", "1", "main").split()[1:]
    assert parents[0] == old_main and len(parents) == 2
    assert (app_repo / "feature.txt").read_text() == "feature\n"  # the checked-out main was updated
    assert (app_repo / "app.py").read_text().endswith("# local edit\n")  # and its local edit kept
    assert git(app_repo, "status", "--porcelain") == "M app.py\nM  static/app.js"  # (first space stripped)
    assert not wt.exists() and mgr.registry.instances() == {}
    assert git(app_repo, "branch", "--list", "feature/done") == ""


@pytest.mark.nginx
def test_approve_when_main_lives_in_a_separate_worktree(mgr, app_repo, tmp_path):
    git(app_repo, "checkout", "-q", "-b", "elsewhere")
    main_wt = tmp_path / "main-wt"
    git(app_repo, "worktree", "add", "-q", str(main_wt), "main")
    _feature(mgr)
    result = mgr.approve("feature-done")
    assert result["fast_forward"] is True
    assert (main_wt / "feature.txt").exists() and git(main_wt, "status", "--porcelain") == ""
    assert not (app_repo / "feature.txt").exists()  # the root worktree stays on its branch


@pytest.mark.nginx
def test_failing_checks_merge_nothing(mgr, app_repo):
    write_toml(app_repo, mgr.config.listen[1], extra_top="checks = \"{python} -c 'import sys; print(42); sys.exit(3)'\"")
    mgr.config = load_config(app_repo, environ={})
    _feature(mgr)
    before = git(app_repo, "rev-parse", "main")
    with pytest.raises(ChecksFailed, match="exit 3"):
        mgr.approve("feature-done")
    assert git(app_repo, "rev-parse", "main") == before
    assert mgr.ls()[0]["state"] == "healthy"


@pytest.mark.nginx
def test_conflicts_are_refused_and_main_is_untouched(mgr, app_repo):
    wt = _feature(mgr)
    commit_file(wt, "shared.txt", "from feature\n")
    commit_file(app_repo, "shared.txt", "from main\n")
    before = git(app_repo, "rev-parse", "main")
    with pytest.raises(GitError, match="conflicts with main"):
        mgr.approve("feature-done")
    assert git(app_repo, "rev-parse", "main") == before and wt.exists()


@pytest.mark.nginx
def test_local_changes_in_the_way_stop_the_merge(mgr, app_repo):
    _feature(mgr)
    (app_repo / "feature.txt").write_text("untracked file in the way\n")
    before = git(app_repo, "rev-parse", "main")
    with pytest.raises(GitError, match="checked out at"):
        mgr.approve("feature-done")
    assert git(app_repo, "rev-parse", "main") == before
    assert (app_repo / "feature.txt").read_text() == "untracked file in the way\n"


@pytest.mark.nginx
def test_uncommitted_work_in_the_instance_blocks_approve(mgr):
    wt = _feature(mgr)
    (wt / "feature.txt").write_text("edited, not committed\n")
    with pytest.raises(Exception, match="uncommitted changes"):
        mgr.approve("feature-done")
