"""Watching a page's own thread while a Web Worker searches.

A search on the page's thread would show as one long task (Chromium's `longtask` entries: a
task of 50 ms or more) as long as the search, and the page's 10 ms timer would stop ticking.
So the tests assert on the long tasks and on the ticks. The timer's worst gap is reported, not
asserted: on a loaded machine it measures the scheduler as much as the page (a CI run saw a
120 ms gap with the search in the worker)."""
from __future__ import annotations

START = """() => {
  const w = { long: [], worst: 0, ticks: 0, start: performance.now() };
  w.observer = new PerformanceObserver((list) => w.long.push(...list.getEntries().map((e) => e.duration)));
  w.observer.observe({ type: "longtask" });
  let last = performance.now();
  w.timer = setInterval(() => {
    const t = performance.now();
    w.worst = Math.max(w.worst, t - last);
    last = t;
    w.ticks += 1;
  }, 10);
  window.mainThreadWatch = w;
}"""

STOP = """() => new Promise((resolve) => {
  const w = window.mainThreadWatch;
  clearInterval(w.timer);
  // Long-task entries are delivered after the task ends; give the observer one turn.
  setTimeout(() => {
    w.observer.disconnect();
    resolve({ long: w.long, worst: w.worst, ticks: w.ticks, total: performance.now() - w.start });
  }, 50);
})"""


def start_watching(page) -> None:
    page.evaluate(START)


def stop_watching(page) -> dict:
    """What the page's thread did since `start_watching`: its long tasks (ms), the timer's
    ticks and worst gap, and the time watched (ms). Prints the figures for the log."""
    seen = page.evaluate(STOP)
    print(f"page thread: {seen['ticks']} ticks in {seen['total']:.0f} ms, worst timer gap "
          f"{seen['worst']:.0f} ms, long tasks {[round(d) for d in seen['long']]}")
    return seen


def assert_responsive(seen: dict) -> None:
    """No task on the page's thread of 100 ms or more, and the timer kept ticking (at least one
    tick in every 50 ms watched: a blocked thread gives almost none)."""
    assert max(seen["long"], default=0) < 100, f"the page's thread ran a task of {max(seen['long']):.0f} ms"
    assert seen["ticks"] >= seen["total"] / 50, f"the page's timer ticked {seen['ticks']} times in {seen['total']:.0f} ms"
