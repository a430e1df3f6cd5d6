"""Replay a Plan in headless Chromium and record it on the video's own clock.

Frames come from CDP `Page.startScreencast`, each with the compositor's timestamp; a frame is held
until the next one arrives (see ffargs.ffconcat). A beat is stamped with the timestamp of the frame
that shows what it marks: after a trigger step (click, type, press, scroll, move_to) the first frame
at or after the input; after a waiting step (goto, wait_for, settle, pause) the last frame before
the wait ended. Narration is known before recording, so the director holds each beat at least as
long as its phrase (plus GAP) before triggering the next: speech cannot overlap.
"""
from __future__ import annotations

import base64
import json
import math
import subprocess
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from demo import browser as browser_mod
from demo import ffargs
from demo.stamps import SMALL, cursor_mask, first_change, jpeg_size
from demo.errors import RecordError
from demo.plan import Plan, Step
from plumbing.files import atomic_write

GAP = 0.35  # silence between one phrase's end and the next beat
TAIL = 1.0  # picture held after the last phrase ends
STEP_TIMEOUT = 10.0
VIEWPORT = (1280, 720)

CURSOR_JS = """
(() => {
  const ID = '__demo_cursor';
  const make = () => {
    let c = document.getElementById(ID);
    if (c || !document.documentElement) return c;
    c = document.createElement('div');
    c.id = ID;
    c.style.cssText = 'position:fixed;left:0;top:0;width:24px;height:24px;z-index:2147483647;' +
      'pointer-events:none;transform:translate(-100px,-100px);transform-origin:2px 1px;';
    c.innerHTML = '<svg width="24" height="24" viewBox="0 0 24 24"><path d="M2 1 L2 19 L6.8 14.4 ' +
      'L10 21.6 L13.2 20.2 L10.1 13.1 L16.8 13.1 Z" fill="#111" stroke="#fff" stroke-width="1.6" ' +
      'stroke-linejoin="round"/></svg>';
    document.documentElement.appendChild(c);
    return c;
  };
  let x = -100, y = -100, pressed = false;
  const draw = () => { const c = make(); if (c) c.style.transform =
    `translate(${x}px, ${y}px) scale(${pressed ? 0.82 : 1})`; };
  window.addEventListener('mousemove', e => { x = e.clientX; y = e.clientY; draw(); }, true);
  window.addEventListener('mousedown', () => { pressed = true; draw(); }, true);
  window.addEventListener('mouseup', () => { pressed = false; draw(); }, true);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', draw);
  else draw();
})();
"""


FCP_JS = "() => performance.getEntriesByType('paint').some(e => e.name === 'first-contentful-paint')"
# When the first contentful paint happened, in epoch seconds (the screencast's clock), or null.
FCP_TIME_JS = """() => {
  const e = performance.getEntriesByName('first-contentful-paint')[0];
  return e ? (performance.timeOrigin + e.startTime) / 1000 : null;
}"""
FRAME_CLOCK_SLACK = 0.05  # the page's clock and the screencast's frame stamps may differ this much


def unauthorized_message(url: str, status: int, had_credentials: bool) -> str:
    """What to say when the page asks for a password: a selector timeout later would hide it."""
    given = ("the credentials in DEMO_HTTP_CREDENTIALS were refused" if had_credentials
             else "no credentials were given")
    return (f"{url} answered {status} Unauthorized: {given}; set DEMO_HTTP_CREDENTIALS=user:password "
            "(for a review instance, `instances auth` in its repository prints them)")


class NeverPainted(Exception):
    """The page produced no frame in time: record the fallback instead."""


@dataclass
class Recording:
    """What the recorder hands to the composer; times are seconds on the recording clock."""

    mode: str  # "screencast" or "stills"
    frames: list[dict] = field(default_factory=list)  # {"file", "t"}
    beats: list[dict] = field(default_factory=list)  # {"name", "t", "say", "line"}
    end: float = 0.0
    delays: list[dict] = field(default_factory=list)  # {"beat", "by", "phrase_of"}
    stills: list[dict] = field(default_factory=list)  # fallback: {"file", "t"}

    def save(self, path: Path) -> None:
        atomic_write(path, json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls, path: Path) -> "Recording":
        return cls(**json.loads(path.read_text()))


def decode_small(paths: list[Path], tmp_dir: Path) -> list[bytes]:
    """Frames as small gray images (ffmpeg), in order."""
    listing = tmp_dir / ".refine.ffconcat"
    atomic_write(listing, ffargs.ffconcat([ffargs.Frame(str(p), i * 0.04) for i, p in enumerate(paths)],
                                                0.0, len(paths) * 0.04))
    w, h = SMALL
    proc = subprocess.run(ffargs.gray_frames(str(listing), w, h), capture_output=True, timeout=60)
    if proc.returncode != 0:
        return []
    n = w * h
    return [proc.stdout[i:i + n] for i in range(0, len(proc.stdout) - n + 1, n)]


def stamp_owner(plan: Plan) -> dict[int, int]:
    """Beat position -> index of the step whose visible change it marks (the last non-beat before)."""
    owners, last = {}, None
    for i, step in enumerate(plan.steps):
        if step.kind == "beat":
            owners[i] = last
        else:
            last = i
    return owners


class LiveDirector:
    """Executes plan steps on a real page, keeping the frame log and the beat stamps."""

    def __init__(self, page, cdp, frames_dir: Path, durations: dict[str, float],
                 log: Callable[[str], None], paint_timeout: float):
        self.page, self.cdp = page, cdp
        self.frames_dir = frames_dir
        self.durations = durations
        self.log = log
        self.paint_timeout = paint_timeout
        self.frames: list[tuple[str, float]] = []
        self.last_arrival = time.time()
        self.pos = (VIEWPORT[0] * 0.5, VIEWPORT[1] * 0.62)
        self.hold_until = 0.0
        self.hold_phrase = ""
        self.beats: list[dict] = []
        self.delays: list[dict] = []
        self.painted = False
        self.held = 0.0  # how long the current beat was held back for the previous phrase
        self.trigger: tuple[float, tuple | None] | None = None  # (input time, cursor) of a trigger step
        self.stop = threading.Event()
        self.has_credentials = False
        self.navigation_status: int | None = None  # the status of the main document's last response
        page.on("response", self._on_response)
        cdp.on("Page.screencastFrame", self._on_frame)

    # --- frames ---
    def _on_frame(self, params) -> None:
        meta = params["metadata"]
        try:
            self.cdp.send("Page.screencastFrameAck", {"sessionId": params["sessionId"]})
        except Exception:  # the session is closing
            pass
        # a new tab's first frames can come at another size, before the viewport applies: skip
        # them. The metadata can already say the viewport while the picture is still the old size,
        # so the JPEG's own size decides too (ffmpeg rebuilds its filters at a size change, which
        # loses the lead-in measurement that spans it).
        if (round(meta.get("deviceWidth", VIEWPORT[0])), round(meta.get("deviceHeight", VIEWPORT[1]))) != VIEWPORT:
            return
        data = base64.b64decode(params["data"])
        if jpeg_size(data) != VIEWPORT:
            return
        name = f"{len(self.frames):06d}.jpg"
        (self.frames_dir / name).write_bytes(data)
        self.frames.append((name, float(meta["timestamp"])))
        self.last_arrival = time.time()

    def _on_response(self, response) -> None:
        try:
            if response.request.is_navigation_request() and response.frame == self.page.main_frame:
                self.navigation_status = response.status
        except Exception:  # the page is closing
            pass

    def start(self) -> None:
        w, h = VIEWPORT
        self.cdp.send("Page.startScreencast", {"format": "jpeg", "quality": 88, "maxWidth": w, "maxHeight": h,
                                               "everyNthFrame": 1})

    def wait(self, seconds: float) -> None:
        """Wait while still receiving frames (time.sleep would stop frame delivery)."""
        if self.stop.is_set():
            raise RecordError("interrupted")
        if seconds > 0:
            self.page.wait_for_timeout(seconds * 1000)

    def _first_frame_after(self, t: float, limit: float = 0.5) -> float:
        deadline = time.time() + limit
        while True:
            later = [ts for _, ts in self.frames if ts >= t]
            if later:
                return min(later)
            if time.time() >= deadline:
                return t
            self.wait(0.015)

    def _last_frame_between(self, start: float, end: float) -> float:
        inside = [ts for _, ts in self.frames if start < ts <= end + 0.05]
        return max(inside) if inside else end

    def _hold(self) -> None:
        """Wait until the previous phrase (and the gap) is over."""
        left = self.hold_until - time.time()
        if left > 0:
            self.held += left
            self.wait(left)

    # --- steps ---
    def execute(self, step: Step, stamps: bool) -> float | None:
        """Run one step; when `stamps`, return the stamp of the beat that follows it."""
        handler = getattr(self, f"_do_{step.kind}")
        self.trigger = None
        try:
            return handler(step, stamps, **step.args)
        except NeverPainted:
            raise
        except RecordError as exc:
            raise RecordError(f"line {step.line}: {step.describe()}: {exc}") from None
        except Exception as exc:  # Playwright errors: name the step and its line
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise RecordError(f"line {step.line}: {step.describe()} failed: {first}") from None

    def _waited(self, stamps: bool, start: float) -> float | None:
        return self._last_frame_between(start, time.time()) if stamps else None

    def _do_goto(self, step, stamps, url):
        if stamps:
            self._hold()
        start = time.time()
        first = not self.painted
        self.navigation_status = None
        try:
            response = self.page.goto(url, wait_until="load",
                                      timeout=(self.paint_timeout if first else STEP_TIMEOUT) * 1000)
        except Exception as exc:
            # Chromium turns a refused password into a net:: error (ERR_INVALID_AUTH_CREDENTIALS,
            # or ERR_HTTP_RESPONSE_CODE_FAILURE for an empty 401 page): the status tells why
            if "ERR_INVALID_AUTH_CREDENTIALS" in str(exc) or self.navigation_status in (401, 407):
                raise RecordError(unauthorized_message(url, self.navigation_status or 401,
                                                       self.has_credentials)) from None
            if first and "Timeout" in type(exc).__name__ + str(exc):
                raise NeverPainted(f"{url} did not load within {self.paint_timeout:g} s") from None
            raise
        if response is not None and response.status in (401, 407):
            raise RecordError(unauthorized_message(url, response.status, self.has_credentials))
        # "load" can come long before anything shows (content revealed by a script, web fonts):
        # wait for the browser's first contentful paint, then for the picture to settle
        limit = self.paint_timeout if first else STEP_TIMEOUT
        try:
            self.page.wait_for_function(FCP_JS, timeout=max(limit - (time.time() - start), 0.5) * 1000, polling=40)
        except Exception:
            if first:
                raise NeverPainted(f"{url} painted no content within {self.paint_timeout:g} s") from None
        self._wait_for_paint_frame()
        self._place_cursor()
        self.settle_frames(0.3)
        if first:
            deadline = time.time() + 2
            while not [1 for _, ts in self.frames if ts >= start] and time.time() < deadline:
                self.wait(0.05)
            if not [1 for _, ts in self.frames if ts >= start]:
                raise NeverPainted(f"{url} painted, but the screencast delivered no frame")
            self.painted = True
        return self._waited(stamps, start)

    def _wait_for_paint_frame(self, limit: float = 3.0) -> None:
        """Wait until the screencast has delivered the frame of the first contentful paint: the
        page can report the paint before its frame arrives (a cold browser was measured ~0.7 s
        late), and a beat stamped meanwhile would open the video on the blank frame before it."""
        try:
            painted = self.page.evaluate(FCP_TIME_JS)
        except Exception:  # the page navigated on: the settle below still applies
            return
        if painted:
            self._first_frame_after(float(painted) - FRAME_CLOCK_SLACK, limit)

    def _place_cursor(self):
        self.page.mouse.move(*self.pos)

    def settle_frames(self, quiet: float, cap: float = 10.0) -> None:
        deadline = time.time() + cap
        while time.time() < deadline and time.time() - self.last_arrival < quiet:
            self.wait(0.02)

    def _target(self, selector: str) -> tuple[float, float]:
        loc = self.page.locator(selector).first
        try:
            loc.wait_for(state="visible", timeout=STEP_TIMEOUT * 1000)
        except Exception:
            raise RecordError(f"no visible element matches {selector!r} within {STEP_TIMEOUT:g} s") from None
        loc.scroll_into_view_if_needed(timeout=STEP_TIMEOUT * 1000)
        box = loc.bounding_box()
        if not box:
            raise RecordError(f"element {selector!r} has no box on screen")
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def _glide(self, x: float, y: float) -> None:
        """Move the drawn cursor along an eased path at a visible pace (60 steps a second)."""
        x0, y0 = self.pos
        dist = math.hypot(x - x0, y - y0)
        duration = min(max(dist / 1100, 0.25), 0.9)
        steps = max(2, int(duration * 60))
        for i in range(1, steps + 1):
            p = i / steps
            e = 4 * p ** 3 if p < 0.5 else 1 - (-2 * p + 2) ** 3 / 2
            self.page.mouse.move(x0 + (x - x0) * e, y0 + (y - y0) * e)
            self.wait(1 / 60)
        self.pos = (x, y)

    def _do_move_to(self, step, stamps, selector):
        x, y = self._target(selector)
        if stamps:
            self._hold()
        trigger = time.time()
        self.trigger = (trigger, None)  # the change is the cursor itself: no mask
        self._glide(x, y)
        return self._first_frame_after(trigger) if stamps else None

    def _do_click(self, step, stamps, selector):
        x, y = self._target(selector)
        self._glide(x, y)
        if stamps:
            self._hold()
        self.page.mouse.down()
        self.wait(0.07)
        trigger = time.time()
        self.trigger = (trigger, self.pos)
        self.page.mouse.up()
        return self._first_frame_after(trigger) if stamps else None

    def _do_type(self, step, stamps, selector, text, cps):
        x, y = self._target(selector)
        self._glide(x, y)
        self.page.mouse.click(x, y)
        if stamps:
            self._hold()
        trigger = time.time()
        self.trigger = (trigger, self.pos)
        for i, ch in enumerate(text):
            self.page.keyboard.type(ch)
            # a steady but not mechanical rhythm, the same on every run
            self.wait((1 / cps) * (0.75 + 0.5 * ((i * 7919) % 11) / 10))
        return self._first_frame_after(trigger) if stamps else None

    def _do_press(self, step, stamps, key):
        if stamps:
            self._hold()
        trigger = time.time()
        self.trigger = (trigger, self.pos)
        self.page.keyboard.press(key)
        return self._first_frame_after(trigger) if stamps else None

    def _do_scroll(self, step, stamps, y=None, selector=None):
        if stamps:
            self._hold()
        trigger = time.time()
        self.trigger = (trigger, self.pos)
        if selector is not None:
            found = self.page.evaluate(
                "s => { const e = document.querySelector(s); if (!e) return false;"
                " e.scrollIntoView({behavior: 'smooth', block: 'center'}); return true; }", selector)
            if not found:
                raise RecordError(f"no element matches {selector!r}")
        else:
            self.page.evaluate("dy => window.scrollBy({top: dy, behavior: 'smooth'})", y)
        last, stable_since, deadline = None, time.time(), time.time() + 3
        while time.time() < deadline:  # until the smooth scroll stops
            now = self.page.evaluate("() => window.scrollY")
            if now != last:
                last, stable_since = now, time.time()
            elif time.time() - stable_since > 0.15:
                break
            self.wait(0.03)
        return self._first_frame_after(trigger) if stamps else None

    def _do_wait_for(self, step, stamps, selector, timeout):
        if stamps:
            self._hold()
        start = time.time()
        try:
            self.page.locator(selector).first.wait_for(state="visible", timeout=timeout * 1000)
        except Exception:
            raise RecordError(f"{selector!r} did not become visible within {timeout:g} s") from None
        self.settle_frames(0.1, cap=1.0)
        return self._waited(stamps, start)

    def _do_settle(self, step, stamps, quiet):
        if stamps:
            self._hold()
        start = time.time()
        self.settle_frames(quiet)
        return self._waited(stamps, start)

    def _do_pause(self, step, stamps, seconds):
        if stamps:
            self._hold()
        start = time.time()
        self.wait(seconds)
        return start + seconds if stamps else None

    def _refine(self, trigger: float, cursor, fallback: float) -> float:
        """The first frame after the input that differs from the one before it (cursor masked)."""
        deadline = trigger + 1.2
        while time.time() < deadline:  # let the frames of the change arrive
            if any(ts >= trigger for _, ts in self.frames) and time.time() - self.last_arrival > 0.25:
                break
            self.wait(0.03)
        before = [f for f in self.frames if f[1] < trigger]
        after = [f for f in self.frames if trigger <= f[1] <= trigger + 1.2]
        if not before or not after:
            return fallback
        images = decode_small([self.frames_dir / n for n, _ in [before[-1], *after]], self.frames_dir)
        if len(images) != len(after) + 1:
            return fallback
        index = first_change(images[0], images[1:], SMALL[0],
                             cursor_mask(cursor, VIEWPORT))
        return after[index][1] if index is not None else fallback

    # --- beats ---
    def beat(self, step: Step, stamp: float | None) -> None:
        called = time.time()  # what a naive wall-clock log would have stamped (kept for comparison)
        name, say = step.args["name"], step.args.get("say", "")
        if stamp is not None and self.trigger is not None:
            stamp = self._refine(*self.trigger, fallback=stamp)
            self.trigger = None
        if stamp is None or stamp < self.hold_until:
            # nothing visible marks it (or it follows another beat at once): hold the picture
            if self.hold_until > time.time():
                self._hold()
            stamp = max(self.hold_until, stamp or time.time())
        if self.held > 0.05 and self.hold_phrase:
            self.delays.append({"beat": name, "by": round(self.held, 3), "phrase_of": self.hold_phrase})
        self.held = 0.0
        self.beats.append({"name": name, "t": stamp, "say": say, "line": step.line, "called": called})
        self.hold_until = stamp + self.durations.get(name, 0.0) + (GAP if say else 0.0)
        self.hold_phrase = name if say else ""


def record(plan: Plan, durations: dict[str, float], out_dir: Path, log: Callable[[str], None],
           paint_timeout: float = 15.0, http_credentials: dict | None = None) -> Recording:
    """Replay the plan with the screencast on; fall back to stills when the page never paints.

    Runs in a thread of its own: Playwright's sync API refuses to start in a thread where another
    sync session (a caller's, a test fixture's) already runs an event loop.
    """
    from concurrent.futures import ThreadPoolExecutor

    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="demo-record") as pool:
        job = pool.submit(_record, plan, durations, out_dir, log, paint_timeout, stop, http_credentials)
        try:
            return job.result()
        except KeyboardInterrupt:
            stop.set()  # the director stops at its next wait and closes the browser
            raise


def _record(plan: Plan, durations: dict[str, float], out_dir: Path, log: Callable[[str], None],
            paint_timeout: float, stop: threading.Event,
            http_credentials: dict | None = None) -> Recording:
    from playwright.sync_api import sync_playwright

    frames_dir = out_dir / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    for old in frames_dir.glob("*.jpg"):
        old.unlink()
    owners = stamp_owner(plan)
    stamps_for = {owner for owner in owners.values() if owner is not None}
    # Basic-auth credentials (a private review URL) go to every context, never to a log.
    auth = {"http_credentials": http_credentials} if http_credentials else {}
    with sync_playwright() as pw:
        chromium = browser_mod.launch(pw)
        try:
            context = chromium.new_context(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]},
                                           device_scale_factor=1, **auth)
            context.add_init_script(CURSOR_JS)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            director = LiveDirector(page, cdp, frames_dir, durations, log, paint_timeout)
            director.stop = stop
            director.has_credentials = bool(http_credentials)
            director.start()
            started = time.time()
            try:
                pending = None
                for i, step in enumerate(plan.steps):
                    if step.kind == "beat":
                        director.beat(step, pending if owners[i] is not None else None)
                        log(f"record: beat {step.args['name']} at {director.beats[-1]['t'] - started:.2f} s")
                        continue
                    pending = director.execute(step, i in stamps_for)
                director._hold()
                director.wait(TAIL)
                end = time.time()
            except NeverPainted as exc:
                log(f"record: {exc}; falling back to stills with a Ken Burns pan")
                context.close()
                return record_stills(plan, durations, out_dir, chromium, log, auth)
            try:
                cdp.send("Page.stopScreencast")
            except Exception:
                pass
            context.close()
        finally:
            chromium.close()
    if not director.frames:
        raise RecordError("the screencast delivered no frame")
    origin = director.frames[0][1]
    return Recording(
        mode="screencast",
        frames=[{"file": f"frames/{name}", "t": round(ts - origin, 6)} for name, ts in director.frames],
        beats=[{**b, "t": round(b["t"] - origin, 6), "called": round(b["called"] - origin, 6)} for b in director.beats],
        end=round(end - origin, 6),
        delays=director.delays,
    )


CARD_HTML = """<!doctype html><html><body style="margin:0;width:{w}px;height:{h}px;overflow:hidden;
font-family:DejaVu Sans,sans-serif;background:#1d2330 {bg} center/cover no-repeat;">
<div style="position:absolute;left:0;right:0;bottom:80px;padding:30px 150px;background:rgba(10,14,22,.78);color:#fff">
<div style="font-size:22px;opacity:.7;letter-spacing:.08em;text-transform:uppercase">{name}</div>
<div style="font-size:34px;line-height:1.3;margin-top:8px">{say}</div></div></body></html>"""


def record_stills(plan: Plan, durations: dict[str, float], out_dir: Path, chromium, log,
                  auth: dict) -> Recording:
    """Fallback: a still per beat (a screenshot of the page if one can be taken, else a title card)
    on a timeline set by the narration alone."""
    from html import escape

    stills_dir = out_dir / "stills"
    stills_dir.mkdir(parents=True, exist_ok=True)
    url = next(s.args["url"] for s in plan.steps if s.kind == "goto")
    background = ""
    shot = _try_screenshot(chromium, url, log, auth)
    if shot:
        background = f"url(data:image/jpeg;base64,{base64.b64encode(shot).decode()})"
    context = chromium.new_context(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]})
    page = context.new_page()
    beats, stills, t = [], [], 0.6
    try:
        for i, beat in enumerate(plan.beats):
            page.set_content(CARD_HTML.format(w=VIEWPORT[0], h=VIEWPORT[1], bg=escape(background, quote=True),
                                              name=escape(beat.name), say=escape(beat.say)))
            path = stills_dir / f"{i:04d}.jpg"
            page.screenshot(path=str(path), type="jpeg", quality=90)
            beats.append({"name": beat.name, "t": round(t, 6), "say": beat.say, "line": beat.line})
            stills.append({"file": f"stills/{path.name}", "t": 0.0 if i == 0 else round(t, 6)})
            t += max(durations.get(beat.name, 0.0) + GAP, 2.0)
    finally:
        context.close()
    end = beats[-1]["t"] + durations.get(beats[-1]["name"], 0.0) + TAIL
    return Recording(mode="stills", beats=beats, end=round(end, 6), stills=stills)


def _try_screenshot(chromium, url: str, log, auth: dict) -> bytes | None:
    context = chromium.new_context(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]}, **auth)
    try:
        page = context.new_page()
        page.goto(url, wait_until="commit", timeout=5000)
        return page.screenshot(type="jpeg", quality=85, timeout=3000)
    except Exception as exc:
        log(f"record: no screenshot of {url} either ({type(exc).__name__}); using title cards")
        return None
    finally:
        context.close()
