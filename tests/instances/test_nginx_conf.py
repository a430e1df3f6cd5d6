import base64
import hashlib
import re

import pytest

from instances.errors import NameError_, NginxError
from instances.nginx_conf import Route, htpasswd_line, nginx_path, render_locations, render_main_conf


def test_render_locations_is_pure_sorted_and_complete():
    routes = [Route("task-2", 4002), Route("task-1", 4001, "passthrough")]
    text = render_locations(routes, generation=7, auth_file="/s/htpasswd", log_dir="/s/logs")
    assert text == render_locations(list(reversed(routes)), generation=7, auth_file="/s/htpasswd", log_dir="/s/logs")
    assert text.index("location /task-1/") < text.index("location /task-2/")
    assert 'return 200 "7\\n";' in text
    assert "proxy_pass http://127.0.0.1:4002/;" in text  # strip: trailing slash drops the prefix
    assert "proxy_pass http://127.0.0.1:4001;" in text   # passthrough keeps the path
    assert "proxy_set_header X-Forwarded-Prefix /task-2;" in text
    assert "X-Forwarded-Prefix /task-1;" not in text  # passthrough: the app knows its base path
    assert "proxy_set_header Upgrade $http_upgrade;" in text
    assert text.count("auth_basic_user_file /s/htpasswd;") == 2
    assert "access_log /s/logs/access-task-1.log instances;" in text
    assert text.count("{") == text.count("}")


def test_without_auth_there_is_no_auth_directive():
    text = render_locations([Route("a", 5000)])
    assert "auth_basic" not in text and "access_log /" not in text


@pytest.mark.parametrize("name", ["a;}", "a b", "x/../y", "a\n}", "$host", "A"])
def test_hostile_names_never_reach_the_text(name):
    with pytest.raises(NameError_):
        render_locations([Route(name, 5000)])


@pytest.mark.parametrize("port", [0, 70000, "80", True, None])
def test_bad_ports_refused(port):
    with pytest.raises(NginxError):
        render_locations([Route("a", port)])


def test_two_instances_on_one_port_refused():
    with pytest.raises(NginxError, match="same port"):
        render_locations([Route("a", 5000), Route("b", 5000)])


@pytest.mark.parametrize("path", ["/tmp/a b", "/tmp/a;b", "/tmp/$x", "relative", "/a/../b", '/a"b'])
def test_unsafe_paths_refused(path):
    with pytest.raises(NginxError):
        nginx_path(path)


def test_main_conf_keeps_everything_in_the_prefix():
    text = render_main_conf("/srv/state/nginx", ("127.0.0.1", 8081), user="root")
    for directive in ("pid", "client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path",
                      "uwsgi_temp_path", "scgi_temp_path", "error_log"):
        assert re.search(rf"^\s*{directive} /srv/state/nginx/", text, re.M), directive
    assert "listen 127.0.0.1:8081;" in text and "include instances.conf;" in text and "user root;" in text
    with pytest.raises(NginxError, match="loopback"):
        render_main_conf("/srv", ("0.0.0.0", 80))


def test_htpasswd_sha_line():
    line = htpasswd_line("review", "s3cret")
    expected = base64.b64encode(hashlib.sha1(b"s3cret").digest()).decode()
    assert line == f"review:{{SHA}}{expected}\n"


@pytest.mark.nginx
def test_any_git_valid_branch_renders_a_config_nginx_accepts(tmp_path):
    """Property: whatever a branch is called, the include file holds one well-formed location per
    instance and nothing else, checked by the real `nginx -t`."""
    import os
    import string
    import subprocess

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from instances.names import instance_name_for_branch, validate_branch
    from instances.nginx import PrivateNginx

    prefix = tmp_path / "ngx"
    PrivateNginx(prefix).ensure_dirs()
    main = render_main_conf(str(prefix), ("127.0.0.1", 8080), user="root" if os.geteuid() == 0 else None)
    (prefix / "conf" / "nginx.conf").write_text(main)

    branch_text = st.text(alphabet=st.sampled_from(string.printable + "äé—"), min_size=1, max_size=30)

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(branch_text, min_size=1, max_size=5))
    def check(branches):
        names = set()
        for branch in branches:
            try:
                validate_branch(branch)
                names.add(instance_name_for_branch(branch))
            except NameError_:
                continue
        routes = [Route(name, 20000 + i) for i, name in enumerate(sorted(names))]
        text = render_locations(routes, generation=1)
        assert text.count("\nlocation /") == len(routes)
        (prefix / "conf" / "instances.conf").write_text(text)
        result = subprocess.run(["nginx", "-p", f"{prefix}/", "-c", "conf/nginx.conf", "-e", "logs/error.log", "-t", "-q"],
                                capture_output=True, text=True)
        assert result.returncode == 0, (branches, result.stderr)

    check()
