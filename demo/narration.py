"""Narration: one phrase per beat, synthesized before recording and cached by content hash.

Every phrase is stored as 48 kHz mono 16-bit WAV with its silence cut (so the beat delay is the
speech onset), next to a JSON note of its peak; the mix applies the gain that brings each phrase's
peak to PHRASE_PEAK_DB, so phrases come out equally loud.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
import wave
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from demo import ffargs, media
from demo.elevenlabs import DEFAULT_BASE_URL, ElevenLabsClient
from demo.errors import VoiceError
from demo.plan import Beat
from demo.voice import ELEVENLABS_MODEL, VoiceConfig
from plumbing.files import atomic_write, replace

PHRASE_PEAK_DB = -3.0
# Bump when the phrase processing changes, so cached files made the old way are not reused.
PROCESSING_VERSION = 2


@dataclass(frozen=True)
class Phrase:
    beat: str
    text: str
    path: str
    duration: float
    gain_db: float  # brings the phrase's peak to PHRASE_PEAK_DB


def cache_key(text: str, voice: VoiceConfig, previous_text: str = "", next_text: str = "") -> str:
    """Hash of everything that changes the audio: text, voice, model, settings, seed, context."""
    material = {
        "v": PROCESSING_VERSION, "text": text, "engine": voice.engine, "voice": voice.voice,
        "model": voice.model, "speed": voice.speed if voice.engine == "espeak" else None,
        "settings": voice.settings, "seed": voice.seed,
        "format": voice.output_format if voice.engine == "elevenlabs" else "wav",
        "context": [previous_text, next_text] if voice.engine == "elevenlabs" else None,
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:32]


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "soloshop-demo" / "phrases"


def espeak_args(voice: VoiceConfig, out: str) -> list[str]:
    """espeak-ng reads the text from stdin, so no phrase can be mistaken for an option."""
    return ["espeak-ng", "-v", voice.voice, "-s", str(voice.speed), "-w", out, "--stdin"]


def wav_duration(path: str) -> float:
    with wave.open(path, "rb") as wav:
        return wav.getnframes() / wav.getframerate()


class Narrator:
    """Synthesizes the beats' phrases (cached) with the configured voice."""

    def __init__(self, voice: VoiceConfig, cache_dir: str | Path | None = None,
                 api_key: str | None = None, base_url: str | None = None,
                 client_options: dict | None = None):
        self.voice = voice
        self.cache = Path(cache_dir) if cache_dir else default_cache_dir()
        self.cache.mkdir(parents=True, exist_ok=True)
        self._client = None
        if voice.engine == "elevenlabs":
            key = api_key if api_key is not None else os.environ.get("ELEVENLABS_API_KEY", "")
            if not key:
                raise VoiceError("ElevenLabs needs an API key: set ELEVENLABS_API_KEY (or use --voice-engine espeak)")
            self._client = ElevenLabsClient(
                api_key=key, voice_id=voice.voice, model_id=voice.model or ELEVENLABS_MODEL,
                output_format=voice.output_format, voice_settings=voice.settings or None, seed=voice.seed,
                base_url=base_url or os.environ.get("ELEVENLABS_BASE_URL", DEFAULT_BASE_URL),
                **(client_options or {}),
            )
        elif voice.engine == "espeak":
            media.require("espeak-ng")
        else:
            raise VoiceError(f"unknown voice engine {voice.engine!r}: use espeak or elevenlabs")
        media.require("ffmpeg")

    def synthesize(self, beats: list[Beat], progress: Callable[[str], None] = lambda _: None) -> dict[str, Phrase]:
        """A Phrase per beat that has narration, keyed by beat name. Cached phrases cost nothing."""
        spoken = [b for b in beats if b.say]
        jobs = []
        for i, beat in enumerate(spoken):
            prev = spoken[i - 1].say if i > 0 else ""
            nxt = spoken[i + 1].say if i + 1 < len(spoken) else ""
            jobs.append((beat, prev, nxt, cache_key(beat.say, self.voice, prev, nxt)))
        todo = [j for j in jobs if not (self.cache / f"{j[3]}.json").exists()]
        progress(f"narration: {len(jobs)} phrase(s), {len(jobs) - len(todo)} cached, {len(todo)} to synthesize")
        workers = max(1, self.voice.concurrency if self._client else min(2, os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for _ in pool.map(lambda j: self._make(j[0].say, j[1], j[2], j[3]), todo):
                pass
        out = {}
        for beat, _, _, key in jobs:
            path = self.cache / f"{key}.wav"
            note = json.loads((self.cache / f"{key}.json").read_text())
            out[beat.name] = Phrase(beat.name, beat.say, str(path), note["duration"],
                                    round(PHRASE_PEAK_DB - note["peak_db"], 3))
        return out

    def _make(self, text: str, prev: str, nxt: str, key: str) -> None:
        with tempfile.TemporaryDirectory(prefix="demo-phrase-", dir=self.cache) as tmp:
            raw = os.path.join(tmp, "raw.wav" if self._client is None else "raw.audio")
            if self._client is None:
                self._espeak(text, raw)
            else:
                Path(raw).write_bytes(self._client.synthesize(text, prev or None, nxt or None))
            trimmed = os.path.join(tmp, "trimmed.wav")
            raw_format = ffargs.raw_input_format(self.voice.output_format) if self._client else []
            media.run(ffargs.prepare_phrase(raw, trimmed, input_format=raw_format))
            samples, rate = media.read_wav(trimmed)
            peak = media.segment_peaks_db(samples, rate, [(0.0, len(samples) / rate)])[0] if samples else float("-inf")
            if peak == float("-inf"):
                raise VoiceError(f"the voice produced silence for {text!r}")
            replace(trimmed, self.cache / f"{key}.wav")
            # the note is written last: its presence means the phrase is complete
            atomic_write(self.cache / f"{key}.json",
                               json.dumps({"peak_db": round(peak, 3), "duration": len(samples) / rate}))

    def _espeak(self, text: str, out: str) -> None:
        proc = subprocess.run(espeak_args(self.voice, out), input=text, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not os.path.exists(out):
            raise VoiceError(f"espeak-ng failed for voice {self.voice.voice!r}: {proc.stderr.strip()[-200:]} "
                             f"(list voices with `espeak-ng --voices`)")
