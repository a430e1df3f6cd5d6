"""instances.toml: what an app says about itself, parsed into a frozen AppConfig (no I/O but load)."""
import dataclasses
import os
import re
import shlex
import tomllib
from pathlib import Path

from instances.errors import ConfigError, NameError_
from instances.names import validate_branch

FILE_NAME = "instances.toml"
PROXY_MODES = ("strip", "passthrough")
NGINX_MODES = ("private", "system")
AUTH_MODES = ("basic", "none")

_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*$", re.I)
_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*$", re.I)
_LISTEN_RE = re.compile(r"^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\]):(\d{1,5})$")


def parse_size(value) -> int | None:
    """'512M' -> 536870912; ints are bytes; None and '' stay None."""
    if value in (None, "", 0):
        return None
    if isinstance(value, int):
        return value
    match = _SIZE_RE.match(str(value))
    if not match:
        raise ConfigError(f"invalid size {value!r}: write e.g. 512M or 8G")
    power = " KMGT".index(match.group(2).upper() or " ")
    return int(float(match.group(1)) * 1024**power)


def parse_duration(value) -> float | None:
    """'30m' -> 1800.0 seconds; numbers are seconds."""
    if value in (None, "", 0):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    match = _DURATION_RE.match(str(value))
    if not match:
        raise ConfigError(f"invalid duration {value!r}: write e.g. 90s, 30m or 2h")
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}[(match.group(2) or "s").lower()]
    return float(match.group(1)) * unit


def parse_listen(value: str) -> tuple[str, int]:
    """'127.0.0.1:8080' -> ('127.0.0.1', 8080); only loopback addresses are accepted."""
    match = _LISTEN_RE.match(str(value))
    if not match or not 0 < int(match.group(2)) < 65536:
        raise ConfigError(f"invalid nginx listen {value!r}: use a loopback address like 127.0.0.1:8080")
    host = "127.0.0.1" if match.group(1) == "localhost" else match.group(1)
    return host, int(match.group(2))


def _argv(value, key: str) -> list[str]:
    """A command as an argv list: a TOML array is taken as is, a string is split like a shell would."""
    if value in (None, "", []):
        return []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    if isinstance(value, str):
        try:
            return shlex.split(value)
        except ValueError as exc:
            raise ConfigError(f"{key}: cannot split {value!r}: {exc}") from None
    raise ConfigError(f"{key} must be a string or an array of strings")


@dataclasses.dataclass(frozen=True)
class AppConfig:
    command: tuple[str, ...]
    health: str = "/"
    setup: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    copy: tuple[str, ...] = ()
    proxy: str = "strip"
    websocket: str | None = None
    websocket_protocols: tuple[str, ...] = ()
    browser_check: bool = True
    env: tuple[tuple[str, str], ...] = ()
    memory_limit: int | None = None
    idle_stop: float | None = None
    startup_timeout: float = 30.0
    main_branch: str = "main"
    # [nginx]
    nginx_mode: str = "private"
    listen: tuple[str, int] = ("127.0.0.1", 8080)
    listen_from_env: bool = False  # INSTANCES_LISTEN set: move a running private nginx there
    auth: str = "basic"
    auth_user: str = "review"
    include_dir: str | None = None
    reload_command: tuple[str, ...] = ()
    test_command: tuple[str, ...] = ()
    # [limits]
    memory_budget: int | None = None
    # [supervisor]
    supervise: bool = True
    supervise_interval: float = 2.0
    memory_action: str = "restart"
    memory_grace: float = 10.0

    @property
    def listen_url(self) -> str:
        return f"http://{self.listen[0]}:{self.listen[1]}"


_TOP_KEYS = {
    "command", "health", "setup", "checks", "copy", "proxy", "websocket", "websocket_protocols", "browser_check", "env", "memory_limit",
    "idle_stop", "startup_timeout", "main_branch", "nginx", "limits", "supervisor",
}
_NGINX_KEYS = {"mode", "listen", "auth", "auth_user", "include_dir", "reload", "test"}
_LIMIT_KEYS = {"memory_budget"}
_SUPERVISOR_KEYS = {"enabled", "interval", "memory_action", "memory_grace"}
MEMORY_ACTIONS = ("restart", "stop", "warn")


def _check_keys(table: dict, allowed: set, where: str):
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(allowed))}")


def _path(value: str, key: str) -> str:
    if not isinstance(value, str) or not value.startswith("/"):
        raise ConfigError(f"{key} must be a path starting with '/', got {value!r}")
    return value


def _command(data: dict) -> list[str]:
    command = _argv(data.get("command"), "command")
    if not command:
        raise ConfigError("instances.toml: 'command' is required, e.g. command = \"flask run --port {port}\"")
    if not any("{port}" in arg for arg in command):
        raise ConfigError("instances.toml: 'command' must contain {port}, where the service is told its port")
    return command


def _one_of(value, allowed: tuple[str, ...], key: str) -> str:
    if value not in allowed:
        raise ConfigError(f"{key} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _copy_list(value) -> tuple[str, ...]:
    if not isinstance(value, list) or any(
        not isinstance(p, str) or p.startswith("/") or ".." in Path(p).parts for p in value
    ):
        raise ConfigError("copy must be a list of paths relative to the repository root, without '..'")
    return tuple(value)


_TOKEN_RE = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP token (RFC 9110), as subprotocols are


def _protocols(value) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or any(not isinstance(p, str) or not _TOKEN_RE.match(p) for p in value):
        raise ConfigError("websocket_protocols must be a list of subprotocol names, e.g. [\"vite-hmr\"]")
    return tuple(value)


def _boolean(value, key: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{key} must be true or false, got {value!r}")
    return value


def _env_pairs(value) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or any(not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k) for k in value):
        raise ConfigError("env must be a table of NAME = \"value\" pairs")
    return tuple((str(k), str(v)) for k, v in value.items())


def _main_branch(value) -> str:
    try:
        return validate_branch(value)
    except NameError_ as exc:
        raise ConfigError(f"main_branch: {exc}") from None


def _app_fields(data: dict) -> dict:
    """The top-level keys of instances.toml as AppConfig fields."""
    command = _command(data)
    for key in ("health", "websocket"):
        if data.get(key) is not None:
            _path(str(data[key]).replace("{prefix}", "/x", 1), key)
    return {
        "command": tuple(command),
        "health": data.get("health", "/"),
        "setup": tuple(_argv(data.get("setup"), "setup")),
        "checks": tuple(_argv(data.get("checks"), "checks")),
        "copy": _copy_list(data.get("copy", [])),
        "proxy": _one_of(data.get("proxy", "strip"), PROXY_MODES, "proxy"),
        "websocket": data.get("websocket") or None,
        "websocket_protocols": _protocols(data.get("websocket_protocols", [])),
        "browser_check": _boolean(data.get("browser_check", True), "browser_check"),
        "env": _env_pairs(data.get("env", {})),
        "memory_limit": parse_size(data.get("memory_limit")),
        "idle_stop": parse_duration(data.get("idle_stop")),
        "startup_timeout": float(parse_duration(data.get("startup_timeout")) or 30.0),
        "main_branch": _main_branch(data.get("main_branch", "main")),
    }


def _nginx_fields(nginx: dict, environ) -> dict:
    """The [nginx] table as AppConfig fields; INSTANCES_LISTEN in ENVIRON overrides listen."""
    mode = _one_of(nginx.get("mode", "private"), NGINX_MODES, "[nginx] mode")
    auth = _one_of(nginx.get("auth", "basic"), AUTH_MODES, "[nginx] auth")
    auth_user = nginx.get("auth_user", "review")
    if not re.match(r"^[A-Za-z0-9_.-]{1,32}$", str(auth_user)):
        raise ConfigError("[nginx] auth_user must be 1-32 characters A-Z, a-z, 0-9, '_', '.', '-'")
    include_dir = nginx.get("include_dir")
    reload_command = _argv(nginx.get("reload"), "[nginx] reload")
    if mode == "system" and (not include_dir or not reload_command):
        raise ConfigError("[nginx] mode = \"system\" needs include_dir and reload (e.g. [\"nginx\", \"-s\", \"reload\"])")
    return {
        "nginx_mode": mode,
        "listen": parse_listen(environ.get("INSTANCES_LISTEN") or nginx.get("listen", "127.0.0.1:8080")),
        "listen_from_env": bool(environ.get("INSTANCES_LISTEN")),
        "auth": auth,
        "auth_user": auth_user,
        "include_dir": _path(include_dir, "[nginx] include_dir") if include_dir else None,
        "reload_command": tuple(reload_command),
        "test_command": tuple(_argv(nginx.get("test"), "[nginx] test")),
    }


def parse_config(data: dict, environ: dict | None = None) -> AppConfig:
    """Validate a parsed instances.toml. INSTANCES_LISTEN in ENVIRON overrides [nginx] listen."""
    environ = os.environ if environ is None else environ
    _check_keys(data, _TOP_KEYS, "instances.toml")
    nginx = data.get("nginx", {})
    limits = data.get("limits", {})
    supervisor = data.get("supervisor", {})
    _check_keys(nginx, _NGINX_KEYS, "[nginx]")
    _check_keys(limits, _LIMIT_KEYS, "[limits]")
    _check_keys(supervisor, _SUPERVISOR_KEYS, "[supervisor]")
    app = _app_fields(data)
    return AppConfig(**app, **_nginx_fields(nginx, environ), **_supervisor_fields(supervisor),
                     memory_budget=parse_size(limits.get("memory_budget")))


def _supervisor_fields(table: dict) -> dict:
    interval = parse_duration(table.get("interval", 2.0))
    if interval is None or not 0.1 <= interval <= 3600:
        raise ConfigError("[supervisor] interval must be a duration from 0.1s to 1h, e.g. \"2s\"")
    grace = parse_duration(table.get("memory_grace", 10.0))
    return {
        "supervise": _boolean(table.get("enabled", True), "[supervisor] enabled"),
        "supervise_interval": interval,
        "memory_action": _one_of(table.get("memory_action", "restart"), MEMORY_ACTIONS, "[supervisor] memory_action"),
        "memory_grace": grace or 0.0,
    }


def load_config(repo_root: Path, environ: dict | None = None) -> AppConfig:
    path = Path(repo_root) / FILE_NAME
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"no {FILE_NAME} in {repo_root}: create one (see `instances --help` and the README)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return parse_config(data, environ)


def service_argv(config: AppConfig, port: int, prefix: str, python: str) -> list[str]:
    """The service's argv with {port}, {prefix} and {python} filled in; never passed to a shell."""
    return [arg.replace("{port}", str(port)).replace("{prefix}", prefix).replace("{python}", python)
            for arg in config.command]


def fill(argv, python: str) -> list[str]:
    return [arg.replace("{python}", python) for arg in argv]
