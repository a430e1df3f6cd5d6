"""A local stand-in for the ElevenLabs text-to-speech endpoint, over real HTTP on 127.0.0.1.

It speaks the documented shapes: POST /v1/text-to-speech/{voice_id}?output_format=..., the
`xi-api-key` header, JSON bodies; errors as {"detail": {"status", "message"}} and 422 as
{"detail": [{"loc", "msg", "type"}]}. Tests queue what the next requests get.

Nothing here depends on how fast the machine is: a "hang" request answers only when the fake
closes (the client must time out), and with `gather = N` requests are held until N of them
were in flight together once (so a test of concurrency sees it, however slow the threads start).
"""
from __future__ import annotations

import json
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from tests.demo.fixtures import LoopbackServer


def tone_wav(seconds: float = 0.6) -> bytes:
    """Speech stand-in: a tone after a short silence, made by ffmpeg (a plain 44-byte WAV header)."""
    return subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
         f"sine=frequency=440:duration={seconds}:sample_rate=44100", "-af", "adelay=100",
         "-fflags", "+bitexact", "-flags:a", "+bitexact", "-c:a", "pcm_s16le", "-f", "wav", "-"],
        capture_output=True, check=True).stdout


class FakeElevenLabs(LoopbackServer):
    def __init__(self, audio: bytes, latency: float = 0.05):
        self.audio = audio
        self.latency = latency
        self.script: list[tuple] = []  # queued behaviours: ("error", code, body) or ("hang",)
        self.requests: list[dict] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.gather = 0  # hold requests until this many were in flight at once
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.closing = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                fake.handle(self)

            def log_message(self, *args):
                pass

        super().__init__(Handler)

    def queue(self, *behaviours):
        self.script.extend(behaviours)

    def handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        body = h.rfile.read(int(h.headers.get("Content-Length", 0)))
        with self.changed:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.requests.append({"path": parts.path, "query": parse_qs(parts.query),
                                  "key": h.headers.get("xi-api-key"), "json": json.loads(body or b"{}")})
            behaviour = self.script.pop(0) if self.script else ("ok",)
            self.changed.notify_all()
            self.changed.wait_for(lambda: self.max_in_flight >= self.gather, timeout=60)
        try:
            if behaviour[0] == "hang":
                self.closing.wait(timeout=60)  # until the test is over: the client has given up
                behaviour = ("ok",)
            time.sleep(self.latency)
            if not parts.path.startswith("/v1/text-to-speech/"):
                behaviour = ("error", 404, {"detail": {"status": "not_found", "message": "no such route"}})
            if behaviour[0] == "ok" and parse_qs(parts.query).get("output_format", [""])[0].startswith("pcm_"):
                self._send(h, 200, self.audio[44:], "audio/pcm")  # raw samples: the WAV without its header
            elif behaviour[0] == "ok":
                self._send(h, 200, self.audio, "audio/wav")
            else:
                self._send(h, behaviour[1], json.dumps(behaviour[2]).encode(), "application/json")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)
        finally:
            with self.lock:
                self.in_flight -= 1

    def __exit__(self, *exc):
        self.closing.set()
        super().__exit__(*exc)

    @staticmethod
    def _send(h, code, data, ctype):
        h.send_response(code)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)


def detail(status: str, message: str) -> dict:
    return {"detail": {"status": status, "message": message}}
