"""The check in Chromium: requests the page's own script makes (here a fetch built from
data-fetch) must stay under /NAME/ and load; the static-HTML asset check cannot see them."""
import pytest

from instances.config import load_config
from instances.errors import ChecksFailed
from tests.instances.conftest import write_toml

pytestmark = [pytest.mark.nginx, pytest.mark.chromium]


def _configure(mgr, app_repo, fetch=None):
    env = f'\n[env]\nFIXTURE_SCRIPT_FETCH = "{fetch}"' if fetch else ""
    write_toml(app_repo, mgr.config.listen[1], extra_top="browser_check = true" + env)
    mgr.config = load_config(app_repo, environ={})


def test_requests_of_the_page_script_are_checked_and_pass(mgr, app_repo):
    _configure(mgr, app_repo)
    result = mgr.up("feature/fetch")
    checks = {c["name"]: c for c in result["checks"]}
    assert checks["browser-requests"]["ok"], checks["browser-requests"]
    # the page, its stylesheet, its script and the data.json its script fetched
    assert checks["browser-requests"]["detail"] == "4 request(s) the page made in Chromium load under /feature-fetch/"
    assert mgr.ls()[0]["last_request"] is None  # Chromium's visit was the tool's own, too


def test_a_script_request_outside_the_prefix_fails_the_check(mgr, app_repo):
    _configure(mgr, app_repo, fetch="/data.json")
    with pytest.raises(ChecksFailed) as info:
        mgr.up("feature/absolute")
    checks = {c["name"]: c for c in info.value.result["checks"]}
    assert checks["assets"]["ok"]  # the static HTML is fine: only the browser sees the script's request
    assert checks["browser-requests"] == {"name": "browser-requests", "ok": False, "detail": (
        "/data.json is outside /feature-absolute/ (does the app's script build URLs from X-Forwarded-Prefix?)")}


def test_a_script_request_that_fails_is_named_with_its_status(mgr, app_repo):
    _configure(mgr, app_repo, fetch="missing.json")
    with pytest.raises(ChecksFailed, match=r"browser-requests: /feature-missing/missing.json -> 404"):
        mgr.up("feature/missing")
