"""System-nginx mode: instances only writes the include file into a directory another nginx
includes, and runs that nginx's test and reload commands. The 'system' nginx here is a real nginx
the test starts (tests/support/nginx.py), serving a site of its own at /own/."""
import httpx
import pytest

from instances.errors import NginxError
from instances.nginx import SystemNginx, probe_generation
from plumbing.wsgi import ServerThread
from tests.instances.conftest import write_toml
from tests.support.nginx import nginx_server


def _site(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "11")])
    return [b"system site"]


@pytest.fixture
def system_nginx(tmp_path):
    """A stand-in for the distribution's nginx: its own site, and a server that includes DIR/*.conf."""
    with ServerThread(_site) as site, \
            nginx_server(tmp_path / "sys", {"/own/": site.port}, generation_probe=False) as server:
        yield {"dir": server.locations_dir, "port": server.port, "reload": [*server.argv, "-s", "reload"],
               "test": [*server.argv, "-t", "-q"]}


@pytest.mark.nginx
def test_up_through_a_system_nginx_include(app_repo, make_mgr, system_nginx):
    reload_argv = ", ".join(f'"{a}"' for a in system_nginx["reload"])
    test_argv = ", ".join(f'"{a}"' for a in system_nginx["test"])
    write_toml(app_repo, system_nginx["port"],
               extra_nginx=f'mode = "system"\ninclude_dir = "{system_nginx["dir"]}"\n'
                           f"reload = [{reload_argv}]\ntest = [{test_argv}]")
    mgr = make_mgr(app_repo)
    result = mgr.up("feature/sys")
    assert all(c["ok"] for c in result["checks"]), result["checks"]
    include = (system_nginx["dir"] / "instances.conf").read_text()
    assert "location /feature-sys/ {" in include and "access_log /" not in include
    base = f"http://127.0.0.1:{system_nginx['port']}"
    assert httpx.get(base + "/own", trust_env=False, follow_redirects=True).text == "system site"  # the host's own site is untouched
    mgr.down("feature-sys")
    assert "location /feature-sys/" not in (system_nginx["dir"] / "instances.conf").read_text()
    assert not (mgr.nginx_prefix / "run" / "nginx.pid").exists()  # no private nginx was started


@pytest.mark.nginx
def test_a_rejected_include_is_restored(system_nginx):
    server = SystemNginx(system_nginx["dir"], system_nginx["reload"], system_nginx["test"])
    base = f"http://127.0.0.1:{system_nginx['port']}"
    good = 'location = /__instances/generation { return 200 "1\\n"; }\n'
    assert server.apply(good, base, 1) == "reloaded"
    with pytest.raises(NginxError, match="nginx test failed"):
        server.apply("location /broken/ { proxy_pass http://127.0.0.1:1/;\n", base, 2)
    assert server.live_include() == good
    assert probe_generation(base) == 1
