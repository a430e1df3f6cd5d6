"""The dashboard: every instance on one page at the private nginx's root, behind the same basic
auth as the review URLs. The supervisor serves it (waitress in a thread) on a port leased in the
registry, and nginx routes `/` there; the page refreshes itself from `/__instances/overview`.

Per instance: its task's title and status (pm), branch, state, uptime, memory against the budget,
commits ahead, last real request, the review link, what the supervisor last did, the log's tail
and the demo videos logged on its task; above them, memory in use and how many more fit.
Read-only: nothing here changes an instance, so there is no form to protect.
"""
import re
import time
from pathlib import Path

from flask import Flask, abort, jsonify, render_template, request, send_file, url_for
from werkzeug.middleware.proxy_fix import ProxyFix

from instances import gitops, pm_link, procs
from instances.fmt import iso

LOG_LINES = 12
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # colour codes in service logs


def _videos(task: dict | None) -> list[str]:
    """The task's logged demo videos that exist on this machine, newest first."""
    return [v for v in (task or {}).get("videos", []) if Path(v).is_file()]


def overview(mgr) -> dict:
    """What the page shows, as JSON (GET /__instances/overview); call inside a request (url_for)."""
    items = mgr.ls()
    tasks = {it["task"]: pm_link.task_summary(it["task"]) for it in items if it["task"] is not None}
    shown = []
    for it in items:
        task = tasks.get(it["task"]) or {}
        shown.append({
            **it, "title": task.get("title"), "task_status": task.get("status"),
            "review_path": f"/{it['name']}/", "commits": gitops.history(mgr.root, mgr.config.main_branch, it["branch"]),
            "log_tail": _ANSI.sub("", procs.tail(mgr.log_path(it["name"]), LOG_LINES)),
            "videos": [{"file": Path(v).name, "url": url_for("video", name=it["name"], index=i)} for i, v in enumerate(_videos(task))],
        })
    adm = mgr.admission()
    sup = mgr.supervisor()
    return {
        "generated": iso(time.time()), "budget": adm["budget"], "used": adm["used"], "estimate": adm["estimate"],
        "more_fit": adm["more_fit"], "memory_limit": mgr.config.memory_limit,
        "supervisor": {"pid": sup["pid"], "interval": mgr.config.supervise_interval} if sup else None,
        "instances": shown,
    }


def create_app(mgr) -> Flask:
    """The dashboard for the instances MGR manages; honours X-Forwarded-Prefix (mountable anywhere)."""
    # Its own paths live under /__instances/, which no instance name (a slug) can take.
    app = Flask(__name__, static_url_path="/__instances/static")
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)

    @app.get("/")
    def index():
        """The page; its script fetches the overview every supervisor interval."""
        return render_template("dashboard.html", every=mgr.config.supervise_interval)

    @app.get("/__instances/overview")
    def api_overview():
        """Every instance, memory and the supervisor as JSON."""
        response = jsonify(overview(mgr))
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/__instances/video/<name>/<int:index>")
    def video(name, index):
        """The INDEX-th demo video logged on NAME's task (only files pm has logged are served)."""
        rec = mgr.registry.get(name)
        videos = _videos(pm_link.task_summary(rec.get("task"))) if rec else []
        if index >= len(videos):
            abort(404)
        return send_file(videos[index], mimetype="video/mp4", conditional=True)

    @app.errorhandler(404)
    def not_found(_error):
        """A path under no running instance lands here: say so, and link the dashboard."""
        return render_template("not_found.html", path=request.path, home=url_for("index")), 404

    @app.after_request
    def headers(response):
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = "default-src 'self'; style-src 'self'; img-src 'self' data:"
        return response

    return app
