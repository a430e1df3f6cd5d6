"""Who narrates: the library decides the defaults (demo.voice), the CLI only passes options on."""
import pytest
from click.testing import CliRunner

import demo.compose
from demo.cli import main
from demo.voice import ELEVENLABS_MODEL, ELEVENLABS_VOICE, VoiceConfig, choose_voice, default_voice

SCRIPT = 'def run(d):\n    d.goto("/")\n    d.beat("open", say="Hi.")\n'


def test_defaults_follow_the_environment():
    assert default_voice({}) == VoiceConfig()
    assert default_voice({"ELEVENLABS_API_KEY": "k"}) == VoiceConfig(
        engine="elevenlabs", voice=ELEVENLABS_VOICE, model=ELEVENLABS_MODEL)
    assert default_voice({"ELEVENLABS_API_KEY": "k", "ELEVENLABS_VOICE_ID": "mine"}).voice == "mine"


def test_choosing_an_engine_takes_its_defaults_and_options_win():
    env = {"ELEVENLABS_VOICE_ID": "mine"}  # no key: espeak by default
    assert choose_voice(env=env) == VoiceConfig()
    assert choose_voice("elevenlabs", env=env) == VoiceConfig(engine="elevenlabs", voice="mine", model=ELEVENLABS_MODEL)
    assert choose_voice("elevenlabs", env=env, voice="other", seed=None).voice == "other"
    assert choose_voice("elevenlabs", env={}).voice == ELEVENLABS_VOICE
    base = VoiceConfig(engine="espeak", voice="en-gb", speed=150)
    assert choose_voice("espeak", base=base, env=env) == base  # same engine: the base stays
    assert choose_voice("elevenlabs", base=base, env=env).voice == "mine"


@pytest.fixture
def recorded_settings(monkeypatch, tmp_path):
    """Run `demo record` with record_demo replaced: returns the Settings the CLI built."""
    seen = []

    def fake_record(script, out_dir, settings, progress):
        seen.append(settings)
        raise demo.compose.ComposeError("stopped by the test")

    monkeypatch.setattr(demo.compose, "record_demo", fake_record)
    script = tmp_path / "d.py"
    script.write_text(SCRIPT)

    def run(*options):
        seen.clear()
        cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "out"), *options])
        assert cli.exit_code == 1 and "Error: stopped by the test" in cli.output, cli.output
        return seen[0]

    return run


def test_elevenlabs_voice_id_is_honoured_by_default_and_when_the_engine_is_chosen(recorded_settings, monkeypatch):
    monkeypatch.setenv("ELEVENLABS_VOICE_ID", "voice-from-env")
    monkeypatch.setenv("ELEVENLABS_API_KEY", "k")
    default = recorded_settings().voice
    assert (default.engine, default.voice, default.model) == ("elevenlabs", "voice-from-env", ELEVENLABS_MODEL)
    monkeypatch.delenv("ELEVENLABS_API_KEY")
    assert recorded_settings().voice.engine == "espeak"
    chosen = recorded_settings("--voice-engine", "elevenlabs").voice
    assert (chosen.engine, chosen.voice, chosen.model) == ("elevenlabs", "voice-from-env", ELEVENLABS_MODEL)
    assert recorded_settings("--voice-engine", "elevenlabs", "--voice", "explicit").voice.voice == "explicit"


def test_voice_options_reach_the_settings_and_bad_json_is_a_usage_error(recorded_settings, tmp_path):
    voice = recorded_settings("--voice-engine", "elevenlabs", "--voice-settings", '{"stability": 0.5}',
                              "--seed", "7", "--concurrency", "3").voice
    assert voice.settings == {"stability": 0.5} and voice.seed == 7 and voice.concurrency == 3
    script = tmp_path / "d.py"
    for bad, message in (("{nope", "not JSON"), ("[1]", "must be a JSON object")):
        cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "o"), "--voice-settings", bad])
        assert cli.exit_code == 2 and message in cli.output and "--voice-settings" in cli.output


def test_recompose_settings_start_from_the_recorded_voice(tmp_path, monkeypatch):
    import json

    from demo.compose import WORK, recompose_settings
    from demo.errors import ComposeError

    monkeypatch.setenv("ELEVENLABS_VOICE_ID", "voice-from-env")
    assert recompose_settings(str(tmp_path)) is None  # nothing changed: compose_dir uses what was saved
    with pytest.raises(ComposeError, match="no finished recording"):
        recompose_settings(str(tmp_path), seed=3)
    (tmp_path / WORK).mkdir()
    recorded = VoiceConfig(voice="en-gb", speed=150)
    (tmp_path / WORK / "settings.json").write_text(json.dumps({"voice": recorded.public()}))
    assert recompose_settings(str(tmp_path), speed=120).voice == VoiceConfig(voice="en-gb", speed=120)
    switched = recompose_settings(str(tmp_path), "/tmp/cache", engine="elevenlabs")
    assert switched.voice.voice == "voice-from-env" and switched.cache_dir == "/tmp/cache"
