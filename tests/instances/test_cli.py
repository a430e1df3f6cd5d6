"""The CLI in-process: exit codes, messages, `up` printing the URL last, `ls --json`, help."""
import json

import pytest
from click.testing import CliRunner

from instances.cli import main


@pytest.fixture
def run(app_repo, make_mgr, monkeypatch):
    monkeypatch.chdir(app_repo)
    mgr = make_mgr(app_repo)  # cleans up what the commands start
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, list(args), catch_exceptions=False)

    invoke.mgr = mgr
    return invoke


def test_every_command_has_help():
    runner = CliRunner()
    top = runner.invoke(main, ["--help"])
    assert top.exit_code == 0
    for name, command in main.commands.items():
        assert command.help, name
        assert (name in top.output) != command.hidden  # `supervise` is for instances itself
        sub = runner.invoke(main, [name, "--help"])
        assert sub.exit_code == 0 and "Usage:" in sub.output
    for name in main.commands["nginx"].commands:
        assert runner.invoke(main, ["nginx", name, "--help"]).exit_code == 0


@pytest.mark.nginx
def test_up_prints_the_url_last_and_ls_json(run):
    result = run("up", "feature/cli")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == f"{run.mgr.base_url}/feature-cli/"
    assert "check websocket: ok" in result.stderr
    items = json.loads(run("ls", "--json").stdout)
    assert [i["name"] for i in items] == ["feature-cli"]
    assert {"name", "branch", "port", "url", "state", "memory_bytes"} <= set(items[0])
    assert items[0]["state"] == "healthy" and items[0]["memory_bytes"] > 0
    table = run("ls").stdout
    assert "feature-cli" in table and "healthy" in table and "MiB" in table
    assert run("down", "feature-cli").stdout.strip() == "feature-cli stopped"
    assert json.loads(run("ls", "--json").stdout)[0]["state"] == "stopped"
    assert run("rm", "feature-cli").exit_code == 0
    assert json.loads(run("ls", "--json").stdout) == []


@pytest.mark.nginx
def test_up_of_a_running_instance_prints_its_url(run):
    """The second `up` finds it running: the same URL, exit 0 (it crashed reading the pm note)."""
    assert run("up", "feature/twice", "--no-checks").exit_code == 0
    again = run("up", "feature/twice", "--no-checks")
    assert again.exit_code == 0, again.output
    assert "is already running" in again.stderr and "not logged" not in again.stderr
    assert again.stdout.strip().splitlines()[-1] == f"{run.mgr.base_url}/feature-twice/"
    assert json.loads(run("up", "feature/twice", "--json").stdout)["already_running"] is True


@pytest.mark.parametrize("branch", ["-rf", "a b", "x..y", "evil\n}location / {"])
def test_hostile_branch_names_exit_1_before_anything_runs(run, branch):
    result = run("up", "--", branch)
    assert result.exit_code == 1 and "invalid branch name" in result.stderr
    assert run.mgr.registry.instances() == {}


@pytest.mark.nginx
def test_shell_and_nginx_metacharacters_are_slugged(run):
    result = run("up", "fix;rm$(id){x}'q'", "--no-checks")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1].endswith("/fix-rm-id-x-q/")
    include = run.mgr.nginx().live_include()
    assert ";rm" not in include and "$(id)" not in include and "location /fix-rm-id-x-q/ {" in include


def test_errors_name_the_object(run):
    result = run("down", "nope")
    assert result.exit_code == 1 and "no instance 'nope'" in result.stderr
    assert run("up").exit_code == 2  # usage error
    bad = run("up", "x", "--name", "Bad_Name")
    assert bad.exit_code == 1 and "invalid instance name 'Bad_Name'" in bad.stderr


def test_outside_a_repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["ls"])
    assert result.exit_code == 1 and "not inside a git repository" in result.stderr


def test_logs_and_auth(run):
    run("up", "feature/logs", "--no-checks")
    logs = run("logs", "feature-logs", "-n", "50").stdout
    assert "instances: starting" in logs and "Running on http://127.0.0.1" in logs
    creds = json.loads(run("auth", "--json").stdout)
    assert creds["user"] == "review" and len(creds["password"]) >= 20
    assert "password" not in logs and creds["password"] not in logs


@pytest.mark.nginx
def test_failed_checks_exit_1_and_still_print_the_url_last(run, app_repo):
    from tests.instances.conftest import write_toml

    write_toml(app_repo, run.mgr.config.listen[1], extra_top='[env]\nFIXTURE_IGNORE_PREFIX = "1"')
    result = run("up", "feature/np")
    assert result.exit_code == 1
    assert "sub-path checks failed: assets: /static/app.css is outside /feature-np/" in result.stderr
    assert result.stdout.strip().splitlines()[-1] == f"{run.mgr.base_url}/feature-np/"


@pytest.mark.nginx
def test_down_all_and_doctor_on_a_fresh_repo(run):
    assert "everything consistent" in run("doctor").stdout
    assert run.mgr.nginx().master() is None  # doctor does not start an nginx nobody used
    run("up", "feature/d1", "--no-checks")
    run("up", "feature/d2", "--no-checks")
    assert run("down", "--all").stdout.split("\n")[:2] == ["feature-d1 stopped", "feature-d2 stopped"]
    assert run("down").exit_code == 2


@pytest.mark.nginx
def test_up_json_and_nginx_commands(run):
    result = run("up", "feature/j", "--json", "--no-checks")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["name"] == "feature-j" and data["url"].endswith("/feature-j/") and data["port"] > 0
    conf = run("nginx", "conf").stdout
    assert "location /feature-j/ {" in conf and f"127.0.0.1:{data['port']}/;" in conf
    assert run("nginx", "sync").stdout.strip() == "unchanged"
    assert run("nginx", "sync", "--reload").stdout.strip() == "reloaded"
    assert run("nginx", "stop").stdout.strip() == "stopped"
    assert run("nginx", "sync").stdout.strip() == "started"


def test_a_corrupt_registry_is_named_with_the_fix(run):
    state = run.mgr.state
    state.mkdir(parents=True, exist_ok=True)
    (state / "registry.json").write_text('{"instances": {')
    result = run("ls")
    assert result.exit_code == 1
    assert "registry.json is not valid JSON" in result.stderr and "instances doctor" in result.stderr
    (state / "registry.json").unlink()  # the fix the message names
    assert run("ls").exit_code == 0


def test_dashboard_names_what_to_set_when_supervision_is_off(run):
    result = run("dashboard")  # the fixture's instances.toml turns the supervisor off
    assert result.exit_code == 1
    assert "the dashboard runs in the supervisor of a private nginx: set [supervisor] enabled = true" in result.output


@pytest.mark.nginx
def test_dashboard_prints_the_nginx_root(run, app_repo):
    from tests.instances.conftest import write_toml

    write_toml(app_repo, run.mgr.config.listen[1], supervisor='interval = "1s"')
    assert run("up", "feature/dash", "--no-checks").exit_code == 0
    result = run("dashboard")
    assert result.exit_code == 0 and result.stdout.strip() == f"{run.mgr.base_url}/"
