"""ElevenLabs text-to-speech over httpx: one POST per phrase, retries where retrying helps.

API: POST {base}/v1/text-to-speech/{voice_id}?output_format=... with the `xi-api-key` header and a
JSON body (text, model_id, voice_settings, seed, previous_text, next_text). Errors come as
{"detail": {"status": ..., "message": ...}} (422: {"detail": [{"loc", "msg", "type"}]}).
429 `system_busy`/`too_many_concurrent_requests` and 5xx are retried with backoff; a bad key,
an exhausted quota or a validation error stops with what to fix. The key never reaches a message.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import httpx

from demo.errors import VoiceError

DEFAULT_BASE_URL = "https://api.elevenlabs.io"
RETRY_STATUSES = {"system_busy", "too_many_concurrent_requests", "concurrent_limit_exceeded"}


@dataclass
class ElevenLabsClient:
    api_key: str = field(repr=False)
    voice_id: str
    model_id: str = "eleven_multilingual_v2"
    output_format: str = "mp3_44100_128"
    voice_settings: dict | None = None
    seed: int | None = None
    base_url: str = DEFAULT_BASE_URL
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 1.0  # seconds, doubled on each retry

    def request_body(self, text: str, previous_text: str | None, next_text: str | None) -> dict:
        body: dict = {"text": text, "model_id": self.model_id}
        if self.voice_settings:
            body["voice_settings"] = self.voice_settings
        if self.seed is not None:
            body["seed"] = self.seed
        if previous_text:
            body["previous_text"] = previous_text
        if next_text:
            body["next_text"] = next_text
        return body

    def synthesize(self, text: str, previous_text: str | None = None, next_text: str | None = None,
                   client: httpx.Client | None = None) -> bytes:
        """Audio bytes for one phrase (in `output_format`)."""
        url = f"{self.base_url.rstrip('/')}/v1/text-to-speech/{self.voice_id}"
        body = self.request_body(text, previous_text, next_text)
        own = client is None
        client = client or httpx.Client(timeout=self.timeout)
        try:
            for attempt in range(self.retries + 1):
                last = attempt == self.retries
                try:
                    resp = client.post(url, params={"output_format": self.output_format}, json=body,
                                       headers={"xi-api-key": self.api_key, "accept": "audio/*"})
                except httpx.TimeoutException:
                    if last:
                        raise VoiceError(f"ElevenLabs did not answer within {self.timeout:g} s "
                                         f"({self.retries + 1} tries): try again later or raise --timeout") from None
                    self._wait(attempt)
                    continue
                except httpx.TransportError as exc:
                    raise VoiceError(f"cannot reach ElevenLabs at {self.base_url}: {type(exc).__name__}") from None
                if resp.status_code == 200:
                    return resp.content
                retry = self._classify(resp)
                if not retry or last:
                    raise VoiceError(self._message(resp, gave_up=retry))
                self._wait(attempt, resp.headers.get("retry-after"))
        finally:
            if own:
                client.close()
        raise AssertionError("unreachable")

    def _wait(self, attempt: int, retry_after: str | None = None) -> None:
        delay = self.backoff * (2 ** attempt)
        if retry_after and retry_after.isascii() and retry_after.replace(".", "", 1).isdigit():
            delay = max(delay, min(float(retry_after), 60.0))
        time.sleep(delay)

    @staticmethod
    def _status(resp: httpx.Response) -> tuple[str, str]:
        try:
            detail = resp.json().get("detail")
        except (ValueError, AttributeError):
            return "", ""
        if isinstance(detail, dict):
            return str(detail.get("status", "")), str(detail.get("message", ""))
        if isinstance(detail, list):  # FastAPI-style validation errors
            parts = [f"{'.'.join(str(x) for x in d.get('loc', []))}: {d.get('msg', '')}" for d in detail if isinstance(d, dict)]
            return "validation_error", "; ".join(parts)
        return "", str(detail or "")

    def _classify(self, resp: httpx.Response) -> bool:
        """True when the request should be retried."""
        status, _ = self._status(resp)
        if resp.status_code >= 500:
            return True
        return resp.status_code == 429 and status in RETRY_STATUSES

    def _message(self, resp: httpx.Response, gave_up: bool) -> str:
        status, message = self._status(resp)
        message = self._scrub(message)
        code = resp.status_code
        if gave_up:
            return (f"ElevenLabs stayed busy ({code} {status or 'server error'}) after {self.retries + 1} tries: "
                    f"try again later or lower --concurrency")
        if status == "quota_exceeded":
            return f"ElevenLabs quota exceeded ({code}): {message} Add credits or wait for the quota to reset."
        if code == 401 or status in ("invalid_api_key", "needs_authorization"):
            return f"ElevenLabs rejected the API key ({code} {status}): set ELEVENLABS_API_KEY to a valid key."
        if code == 422 or status == "validation_error":
            return f"ElevenLabs rejected the request (422): {message}. Fix the voice settings, model or text."
        if status == "voice_not_found" or code == 404:
            return f"ElevenLabs has no voice {self.voice_id!r} ({code}): pass an existing --voice id."
        if code == 429:
            return f"ElevenLabs refused the request (429 {status}): {message}"
        return f"ElevenLabs error {code} {status}: {message}".rstrip(": ")

    def _scrub(self, text: str) -> str:
        return text.replace(self.api_key, "[key]") if self.api_key else text
