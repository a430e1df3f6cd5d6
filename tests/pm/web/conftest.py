"""A real tracker (git repo in a temp dir, built through pm's API), the app, and a live server."""
import pytest

from pm.api import Actor, Tracker
from pm.web import create_app
from pm.web.serve import ServerThread

ATTACK_TITLE = "Hostile <script>document.title='pwned'</script> title"
ATTACK_PROBLEM = (
    "<p>An agent pasted hostile markup here.</p>\n"
    "<script>window.pwned = 1; document.title = 'pwned';</script>\n"
    '<p><img src="missing.png" alt="broken" onerror="window.pwned = 2; document.title = \'pwned\'"></p>\n'
    '<p><a id="js-link" href="javascript:window.pwned = 3; document.title = \'pwned\'">innocent link</a></p>\n'
    '<iframe srcdoc="&lt;script&gt;parent.pwned = 4&lt;/script&gt;"></iframe>\n'
    "<style>body { display: none }</style>\n"
    '<p onmouseover="window.pwned = 5">hover text</p>'
)
ATTACK_LOG = '<b>logged</b> <img src="x" onerror="window.pwned = 6">'


def build_tracker(root) -> dict:
    """Six tasks shipping the game engines, one hostile, with links, a sprint and history."""
    tracker = Tracker.init(str(root), actor=Actor("ceo", "web-tests"))
    go = tracker.new("Ship the Go engine as a web app", priority="P1", kind="feature",
                     problem="<p>The <strong>Go</strong> engine has no web front end.</p>",
                     fix="<ul><li>Flask blueprint</li><li>board page</li></ul>",
                     verification="<p>Play a full 9x9 game in Chromium.</p>")
    gomoku = tracker.new("Gomoku board renders off by one", priority="P0", kind="bug",
                         problem="<p>Stones land one column to the right of the click.</p>")
    quoridor = tracker.new("Quoridor wall placement API", priority="P2", kind="feature",
                           links=[("blocked-by", go.id)])
    readme = tracker.new("Write the arcade README", priority="P3", kind="docs")
    hostile = tracker.new(ATTACK_TITLE, priority="P2", kind="bug", problem=ATTACK_PROBLEM,
                          links=[("related", go.id)])
    review = tracker.new("Review the Quoridor rules page", priority="P1", kind="review")
    tracker.promote(go.id)
    tracker.promote(gomoku.id)
    tracker.start(gomoku.id)
    tracker.log(go.id, "Looked at the <b>arcade</b> blueprint; routes are ready.")
    tracker.log(hostile.id, ATTACK_LOG, html_text=True)
    tracker.done(readme.id)
    tracker.set_status(review.id, "review")
    ids = dict(go=go.id, gomoku=gomoku.id, quoridor=quoridor.id, readme=readme.id,
               hostile=hostile.id, review=review.id)
    return {"tracker": tracker, **ids}


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    """The tracker and the ids of its tasks (read-only for the tests that share it)."""
    return build_tracker(tmp_path_factory.mktemp("pm-web") / "tracker")


@pytest.fixture(scope="session")
def tracker(world):
    return world["tracker"]


@pytest.fixture
def client(tracker):
    return create_app(tracker, {"TESTING": True}).test_client()


@pytest.fixture(scope="session")
def live_url(tracker):
    """The UI served by waitress on a free loopback port, for the browser tests."""
    with ServerThread(create_app(tracker)) as server:
        yield server.url
