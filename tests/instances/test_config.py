import pytest

from instances.config import parse_config, parse_duration, parse_listen, parse_size, service_argv
from instances.errors import ConfigError

BASE = {"command": "python app.py --port {port}"}


def test_defaults_and_argv_without_a_shell():
    cfg = parse_config(dict(BASE), environ={})
    assert cfg.listen == ("127.0.0.1", 8080)
    assert cfg.proxy == "strip" and cfg.auth == "basic" and cfg.nginx_mode == "private"
    assert service_argv(cfg, 4100, "/x", "/py") == ["python", "app.py", "--port", "4100"]


def test_full_config():
    cfg = parse_config({
        "command": ["{python}", "-m", "app", "--port={port}", "--base={prefix}"], "health": "/healthz",
        "setup": "make deps", "checks": "pytest -q", "copy": [".env", "config/local.ini"], "proxy": "passthrough",
        "env": {"FLASK_DEBUG": "0"}, "memory_limit": "256M", "idle_stop": "30m", "websocket": "/ws",
        "nginx": {"listen": "127.0.0.1:9000", "auth": "none"}, "limits": {"memory_budget": "2G"},
    }, environ={})
    assert service_argv(cfg, 5, "/task-1", "/py") == ["/py", "-m", "app", "--port=5", "--base=/task-1"]
    assert cfg.setup == ("make", "deps") and cfg.checks == ("pytest", "-q")
    assert cfg.memory_limit == 256 * 1024**2 and cfg.memory_budget == 2 * 1024**3
    assert cfg.idle_stop == 1800 and cfg.listen == ("127.0.0.1", 9000)
    assert cfg.env == (("FLASK_DEBUG", "0"),)


def test_env_overrides_listen():
    assert parse_config(dict(BASE), environ={"INSTANCES_LISTEN": "127.0.0.1:9123"}).listen == ("127.0.0.1", 9123)


@pytest.mark.parametrize("data, message", [
    ({}, "'command' is required"),
    ({"command": "python app.py"}, "must contain {port}"),
    ({**BASE, "proxy": "rewrite"}, "proxy must be one of"),
    ({**BASE, "copy": ["../secrets"]}, "copy must be"),
    ({**BASE, "copy": ["/etc/passwd"]}, "copy must be"),
    ({**BASE, "bogus": 1}, "unknown key"),
    ({**BASE, "nginx": {"listen": "0.0.0.0:80"}}, "loopback"),
    ({**BASE, "nginx": {"mode": "system"}}, "include_dir and reload"),
    ({**BASE, "health": "health"}, "starting with '/'"),
    ({**BASE, "main_branch": "-x"}, "invalid branch"),
    ({**BASE, "env": {"BAD-NAME": "1"}}, "env must be"),
])
def test_invalid_configs_name_the_problem(data, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(data, environ={})


def test_units():
    assert parse_size("1.5G") == int(1.5 * 1024**3) and parse_size(1000) == 1000 and parse_size(None) is None
    assert parse_duration("90s") == 90 and parse_duration("2h") == 7200 and parse_duration(5) == 5
    assert parse_listen("localhost:81") == ("127.0.0.1", 81)
    for bad in ("12X", "lots"):
        with pytest.raises(ConfigError):
            parse_size(bad)


def test_this_repositorys_instances_toml_is_valid():
    from pathlib import Path

    from instances.config import load_config

    cfg = load_config(Path(__file__).resolve().parents[2], environ={})
    assert "serve" in cfg.command and "{port}" in cfg.command and cfg.checks


def test_supervisor_table_defaults_and_errors():
    cfg = parse_config(dict(BASE), environ={})
    assert (cfg.supervise, cfg.supervise_interval, cfg.memory_action, cfg.memory_grace) == (True, 2.0, "restart", 10.0)
    cfg = parse_config({**BASE, "supervisor": {"interval": "0.5s", "memory_action": "warn",
                                               "memory_grace": "1m", "enabled": False}}, environ={})
    assert (cfg.supervise, cfg.supervise_interval, cfg.memory_action, cfg.memory_grace) == (False, 0.5, "warn", 60.0)
    with pytest.raises(ConfigError, match="memory_action must be one of restart, stop, warn, got 'kill'"):
        parse_config({**BASE, "supervisor": {"memory_action": "kill"}}, environ={})
    with pytest.raises(ConfigError, match=r"\[supervisor\]: unknown key\(s\) period"):
        parse_config({**BASE, "supervisor": {"period": "1s"}}, environ={})
    with pytest.raises(ConfigError, match="browser_check must be true or false"):
        parse_config({**BASE, "browser_check": "yes"}, environ={})
