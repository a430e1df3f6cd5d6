"""Narration and mix with the real espeak-ng and ffmpeg: cache, levels, onsets, determinism."""
import hashlib

import pytest

from demo import media
from demo.compose import mix_audio
from demo.narration import Narrator, cache_key
from demo.voice import VoiceConfig
from demo.plan import Beat

BEATS = [Beat("one", "Welcome to the demo, short and sweet.", 1, 0),
         Beat("two", "Now we click.", 2, 1),
         Beat("three", "Quietly, a much longer sentence follows, with a pause or two in it.", 3, 2)]


@pytest.fixture(scope="module")
def phrases(tmp_path_factory):
    cache = tmp_path_factory.mktemp("phrases")
    return Narrator(VoiceConfig(), cache).synthesize(BEATS), cache


def test_cache_key_covers_text_voice_and_settings():
    base = cache_key("Hi", VoiceConfig())
    assert cache_key("Hi", VoiceConfig()) == base
    assert len({base, cache_key("Hi!", VoiceConfig()), cache_key("Hi", VoiceConfig(voice="en-gb")),
                cache_key("Hi", VoiceConfig(speed=150))}) == 4
    eleven = VoiceConfig(engine="elevenlabs", voice="v", model="m")
    assert cache_key("Hi", eleven) != cache_key("Hi", eleven.__class__(**{**eleven.__dict__, "seed": 1}))
    assert cache_key("Hi", eleven, "before") != cache_key("Hi", eleven)


@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_phrases_are_cut_levelled_and_cached(phrases):
    found, cache = phrases
    assert list(found) == ["one", "two", "three"]
    for p in found.values():
        assert media.measure_peak(p.path) + p.gain_db == pytest.approx(-3.0, abs=0.05)
        samples, rate = media.read_wav(p.path)
        assert rate == 48000 and abs(len(samples) / rate - p.duration) < 1e-6
        assert max(abs(s) for s in samples[:48]) > 30  # sound starts at once: the silence is cut
    log = []
    again = Narrator(VoiceConfig(), cache).synthesize(BEATS, log.append)
    assert again == found and log == ["narration: 3 phrase(s), 3 cached, 0 to synthesize"]


@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_mix_hits_loudness_keeps_onsets_and_is_byte_identical(phrases, tmp_path):
    found, _ = phrases
    at = {"one": 0.0, "two": 4.1, "three": 6.0}
    items = [(found[n].path, at[n], found[n].gain_db) for n in at]
    duration = 6.0 + found["three"].duration + 1.0
    a, b = str(tmp_path / "a.wav"), str(tmp_path / "b.wav")
    level = mix_audio(items, duration, a)
    mix_audio(items, duration, b)
    assert hashlib.sha256(open(a, "rb").read()).digest() == hashlib.sha256(open(b, "rb").read()).digest()
    measured = media.measure_loudness(a)
    assert measured == level
    assert abs(measured.integrated + 16) <= 1.0 and measured.true_peak <= -1.5
    onsets = media.measure_onsets(a)
    for t in at.values():
        assert min(abs(o - t) for o in onsets) < 0.001
    samples, rate = media.read_wav(a)
    peaks = media.segment_peaks_db(samples, rate, [(t, t + found[n].duration) for n, t in at.items()])
    assert max(peaks) - min(peaks) < 1.0
    assert abs(media.probe_duration(a) - duration) < 0.01


@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_a_phrase_said_twice_is_mixed_at_both_beats(phrases, tmp_path):
    """The same sentence at two beats is one cached file with one gain: ffmpeg-python merges the
    equal nodes, so the mix must split that input rather than fail to build its graph."""
    found, _ = phrases
    two = found["two"]
    at = [0.5, 3.0]
    out = str(tmp_path / "twice.wav")
    mix_audio([(two.path, t, two.gain_db) for t in at], 3.0 + two.duration + 1.0, out)
    onsets = media.measure_onsets(out)
    first, second = [o for o in onsets if o < at[1]], [o for o in onsets if o >= at[1]]
    assert first[0] == pytest.approx(at[0], abs=0.001) and len(first) == len(second)
    assert all(b - a == pytest.approx(at[1] - at[0], abs=0.001) for a, b in zip(first, second))
