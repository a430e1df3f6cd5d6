"""ElevenLabs through a local fake server that speaks its documented API over real HTTP."""
import pytest

from demo.elevenlabs import ElevenLabsClient
from demo.errors import VoiceError
from demo.narration import Narrator
from demo.voice import VoiceConfig
from demo.plan import Beat
from tests.demo.fake_elevenlabs import FakeElevenLabs, detail, tone_wav

KEY = "sk_test_5f3c0ffee"


@pytest.fixture(scope="module")
def audio():
    wav = tone_wav()
    assert wav[36:40] == b"data"  # so wav[44:] is the raw PCM a pcm_* format returns
    return wav


@pytest.fixture
def fake(audio):
    with FakeElevenLabs(audio) as server:
        yield server


def client(fake, **kw):
    opts = dict(api_key=KEY, voice_id="voice123", base_url=fake.url, backoff=0.01, retries=3, timeout=5.0)
    opts.update(kw)
    return ElevenLabsClient(**opts)


@pytest.mark.ffmpeg
def test_success_sends_the_documented_request(fake, audio):
    c = client(fake, voice_settings={"stability": 0.4, "similarity_boost": 0.8}, seed=7, output_format="pcm_44100")
    assert c.synthesize("Hello there.", "Before.", "After.") == audio[44:]
    (req,) = fake.requests
    assert req["path"] == "/v1/text-to-speech/voice123"
    assert req["query"] == {"output_format": ["pcm_44100"]}
    assert req["key"] == KEY
    assert req["json"] == {"text": "Hello there.", "model_id": "eleven_multilingual_v2",
                           "voice_settings": {"stability": 0.4, "similarity_boost": 0.8}, "seed": 7,
                           "previous_text": "Before.", "next_text": "After."}


@pytest.mark.ffmpeg
def test_bad_key_stops_at_once_without_leaking_it(fake):
    fake.queue(("error", 401, detail("invalid_api_key", f"Invalid API key: {KEY}")))
    with pytest.raises(VoiceError) as info:
        client(fake).synthesize("x")
    assert "rejected the API key" in str(info.value) and "ELEVENLABS_API_KEY" in str(info.value)
    assert KEY not in str(info.value) and KEY not in repr(client(fake))
    assert len(fake.requests) == 1


@pytest.mark.ffmpeg
@pytest.mark.parametrize("code", [401, 429])
def test_quota_exceeded_stops_with_what_to_do(fake, code):
    fake.queue(("error", code, detail("quota_exceeded", "This request exceeds your quota of 10000.")))
    with pytest.raises(VoiceError) as info:
        client(fake).synthesize("x")
    assert f"quota exceeded ({code})" in str(info.value) and "Add credits" in str(info.value)
    assert len(fake.requests) == 1


@pytest.mark.ffmpeg
def test_validation_error_names_the_field(fake):
    fake.queue(("error", 422, {"detail": [{"loc": ["body", "voice_settings", "stability"],
                                           "msg": "ensure this value is less than or equal to 1",
                                           "type": "value_error"}]}))
    with pytest.raises(VoiceError) as info:
        client(fake).synthesize("x")
    msg = str(info.value)
    assert "422" in msg and "body.voice_settings.stability: ensure this value is less than or equal to 1" in msg
    assert len(fake.requests) == 1


@pytest.mark.ffmpeg
@pytest.mark.parametrize("status", ["system_busy", "too_many_concurrent_requests"])
def test_busy_429_is_retried_with_backoff(fake, audio, status):
    fake.queue(("error", 429, detail(status, "busy")), ("error", 429, detail(status, "busy")))
    assert client(fake).synthesize("x") == audio
    assert len(fake.requests) == 3


@pytest.mark.ffmpeg
def test_server_errors_are_retried_then_given_up(fake, audio):
    fake.queue(("error", 503, {"detail": "unavailable"}), ("error", 500, {"detail": "oops"}))
    assert client(fake).synthesize("x") == audio
    assert len(fake.requests) == 3
    fake.queue(*[("error", 502, {"detail": "bad gateway"})] * 4)
    with pytest.raises(VoiceError) as info:
        client(fake).synthesize("y")
    assert "stayed busy (502" in str(info.value) and "4 tries" in str(info.value)


@pytest.mark.ffmpeg
def test_timeouts_are_retried_then_reported(fake, audio):
    fake.queue(("hang",))
    assert client(fake, timeout=0.3).synthesize("x") == audio
    fake.queue(*[("hang",)] * 2)
    with pytest.raises(VoiceError) as info:
        client(fake, timeout=0.3, retries=1).synthesize("y")
    assert "did not answer within 0.3 s (2 tries)" in str(info.value)


@pytest.mark.ffmpeg
def test_narrator_honours_concurrency_and_caches(fake, tmp_path):
    fake.gather = 2  # the first requests wait for each other, so both workers are seen in flight
    voice = VoiceConfig(engine="elevenlabs", voice="voice123", model="eleven_turbo_v2_5", concurrency=2, seed=3)
    beats = [Beat(f"b{i}", f"Phrase number {i}.", i, i) for i in range(5)]
    logged = []
    narrator = Narrator(voice, tmp_path, api_key=KEY, base_url=fake.url, client_options={"backoff": 0.01})
    phrases = narrator.synthesize(beats, logged.append)
    assert fake.max_in_flight == 2 and len(fake.requests) == 5
    assert [r["json"].get("previous_text") for r in sorted(fake.requests, key=lambda r: r["json"]["text"])] == \
        [None, "Phrase number 0.", "Phrase number 1.", "Phrase number 2.", "Phrase number 3."]
    assert all(r["json"]["model_id"] == "eleven_turbo_v2_5" for r in fake.requests)
    assert set(phrases) == {f"b{i}" for i in range(5)}
    assert all(0.5 < p.duration < 0.7 for p in phrases.values())  # the tone, silence cut
    again = Narrator(voice, tmp_path, api_key=KEY, base_url=fake.url).synthesize(beats, logged.append)
    assert len(fake.requests) == 5 and again == phrases
    assert logged[-1] == "narration: 5 phrase(s), 5 cached, 0 to synthesize"
    assert not any(KEY in line for line in logged)


def test_elevenlabs_without_key_says_how_to_set_it(tmp_path, monkeypatch):
    monkeypatch.delenv("ELEVENLABS_API_KEY", raising=False)
    with pytest.raises(VoiceError, match="set ELEVENLABS_API_KEY"):
        Narrator(VoiceConfig(engine="elevenlabs", voice="v"), tmp_path)


@pytest.mark.ffmpeg
def test_headerless_pcm_output_is_decoded(fake, tmp_path):
    voice = VoiceConfig(engine="elevenlabs", voice="voice123", output_format="pcm_44100")
    (phrase,) = Narrator(voice, tmp_path, api_key=KEY, base_url=fake.url).synthesize([Beat("a", "Hi.", 1, 0)]).values()
    assert 0.55 < phrase.duration < 0.65  # 0.6 s of tone at 44.1 kHz, read as such


def test_raw_format_arguments():
    from demo.ffargs import raw_input_format
    assert raw_input_format("pcm_24000") == ["-f", "s16le", "-ar", "24000", "-ac", "1"]
    assert raw_input_format("ulaw_8000") == ["-f", "mulaw", "-ar", "8000", "-ac", "1"]
    assert raw_input_format("mp3_44100_128") == []
