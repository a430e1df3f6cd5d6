"""Who narrates: the voice configuration and its defaults, decided here once.

Without options, ElevenLabs narrates when ELEVENLABS_API_KEY is set, espeak-ng (offline)
otherwise. ElevenLabs speaks with the voice in ELEVENLABS_VOICE_ID when set (whether chosen by
default or asked for with --voice-engine elevenlabs), else ElevenLabs' "Rachel"; an explicit
--voice wins over both.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, replace
from typing import Mapping

ENGINES = ("espeak", "elevenlabs")
ESPEAK_VOICE = "en-us"
ELEVENLABS_VOICE = "21m00Tcm4TlvDq8ikWAM"  # ElevenLabs' premade "Rachel"
ELEVENLABS_MODEL = "eleven_multilingual_v2"


@dataclass(frozen=True)
class VoiceConfig:
    engine: str = "espeak"  # "espeak" or "elevenlabs"
    voice: str = ESPEAK_VOICE  # espeak voice name, or ElevenLabs voice id
    model: str = ""  # ElevenLabs model id
    speed: int = 165  # espeak words a minute
    settings: dict = field(default_factory=dict)  # ElevenLabs voice_settings
    seed: int | None = None
    output_format: str = "mp3_44100_128"
    concurrency: int = 2

    def public(self) -> dict:
        """What may be logged and stored (there is no secret in here by construction)."""
        return asdict(self)


def engine_voice(engine: str, env: Mapping[str, str] | None = None) -> VoiceConfig:
    """ENGINE's default voice: espeak-ng en-us, or ElevenLabs $ELEVENLABS_VOICE_ID (else Rachel)
    with eleven_multilingual_v2."""
    env = os.environ if env is None else env
    if engine == "elevenlabs":
        return VoiceConfig(engine="elevenlabs", voice=env.get("ELEVENLABS_VOICE_ID") or ELEVENLABS_VOICE,
                           model=ELEVENLABS_MODEL)
    return VoiceConfig(engine=engine)


def default_voice(env: Mapping[str, str] | None = None) -> VoiceConfig:
    """ElevenLabs when a key is set, espeak-ng otherwise."""
    env = os.environ if env is None else env
    return engine_voice("elevenlabs" if env.get("ELEVENLABS_API_KEY") else "espeak", env)


def choose_voice(engine: str | None = None, base: VoiceConfig | None = None,
                 env: Mapping[str, str] | None = None, **changes) -> VoiceConfig:
    """The voice to narrate with: BASE (default: default_voice()), switched to ENGINE's defaults
    when ENGINE names another engine, then CHANGES (voice, model, speed, settings, seed,
    output_format, concurrency) applied where they are not None."""
    cfg = base or default_voice(env)
    if engine and engine != cfg.engine:
        cfg = engine_voice(engine, env)
    return replace(cfg, **{key: value for key, value in changes.items() if value is not None})
