"""The pipeline: plan -> narration -> recording -> lead-in trim -> video -> mix -> MP4 -> outputs
-> measured sync. `record_demo` runs it all; `compose_dir` re-runs from the narration on an
existing recording; `check_video` measures any MP4 against its beats.json.

Layout of an output directory:
  demo.mp4  beats.json  demo.vtt  demo.srt  chapters.txt  report.html  thumbs/  figures.json
  .demo/    plan.json  recording.json  timeline.json  settings.json  frames/ or stills/  video.mp4  mix.wav
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from demo import ffargs, media, outputs, report, sync
from demo.errors import ComposeError, OverrunError, SyncError
from demo.narration import Narrator, Phrase
from demo.plan import Plan
from demo.recorder import Recording
from demo.script import load_plan
from demo.voice import VoiceConfig, choose_voice
from plumbing.files import atomic_output, atomic_write

WORK = ".demo"
LOUDNESS_TARGET = -16.0
TRUE_PEAK_MAX = -1.5
LIMIT_DB = -2.5  # sample-peak ceiling of the limiter; AAC and inter-sample peaks stay under -1.5 dBTP
VIDEO = "demo.mp4"
MIN_PREROLL = 0.3  # a shorter stretch of picture before the first beat is cut with the lead-in

Progress = Callable[[str], None]


@dataclass
class Settings:
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    cache_dir: str | None = None
    base_url: str | None = None
    paint_timeout: float = 15.0
    http_credentials: dict | None = None  # {"username", "password"} for a private review URL
    elevenlabs_base_url: str | None = None
    client_options: dict | None = None


@dataclass
class Result:
    video: str
    beats_json: str
    report: str
    figures: dict


def _stage(progress: Progress, name: str):
    start = time.monotonic()

    def done(detail: str = "") -> None:
        progress(f"{name}: done in {time.monotonic() - start:.1f} s{(' - ' + detail) if detail else ''}")
    progress(f"{name}: ...")
    return done


def _absolute(path: str) -> Path:
    return Path(path).expanduser().absolute()


def _narrator(settings: Settings) -> Narrator:
    return Narrator(settings.voice, settings.cache_dir, base_url=settings.elevenlabs_base_url,
                    client_options=settings.client_options)


def record_demo(script: str, out_dir: str, settings: Settings, progress: Progress = print) -> Result:
    # Absolute from here on: ffmpeg resolves a frame list's entries against the list's own folder
    # (inside OUT), and settings.json must still point at the script and cache from another folder.
    out, work = _absolute(out_dir), _absolute(out_dir) / WORK
    script = str(_absolute(script))
    if settings.cache_dir:
        settings = replace(settings, cache_dir=str(_absolute(settings.cache_dir)))
    done = _stage(progress, "plan")
    plan = load_plan(script, settings.base_url)  # every script error, before any browser starts
    done(f"{len(plan.steps)} steps, {len(plan.beats)} beats")
    work.mkdir(parents=True, exist_ok=True)
    atomic_write(work / "plan.json", plan.to_json())

    done = _stage(progress, "narration")
    phrases = _narrator(settings).synthesize(plan.beats, progress)
    done(f"{sum(p.duration for p in phrases.values()):.1f} s of speech")

    from demo.recorder import record  # Playwright is imported only when a browser is needed

    done = _stage(progress, "record")
    recording = record(plan, {k: p.duration for k, p in phrases.items()}, work, progress, settings.paint_timeout,
                       settings.http_credentials)
    recording.save(work / "recording.json")
    for d in recording.delays:
        progress(f"record: phrase of beat {d['phrase_of']!r} delayed beat {d['beat']!r} by {d['by']:.2f} s")
    done(f"{recording.mode}, {len(recording.frames) or len(recording.stills)} images, {recording.end:.1f} s")

    done = _stage(progress, "video")
    timeline = build_video(recording, work)
    atomic_write(work / "timeline.json", json.dumps(timeline, indent=1))
    done(f"lead-in trimmed {timeline['trim']:.2f} s, {timeline['duration']:.1f} s of video")
    atomic_write(work / "settings.json", json.dumps(
        {"script": plan.script, "base_url": settings.base_url, "voice": settings.voice.public(),
         "cache_dir": settings.cache_dir}, indent=1))
    return _compose(out, timeline, phrases, settings, progress)


def build_video(recording: Recording, work: Path) -> dict:
    """The silent, trimmed H.264 video and the beats on its clock."""
    video = str(work / "video.mp4")
    if recording.mode == "stills":
        stills = recording.stills
        items = []
        for i, s in enumerate(stills):
            end = stills[i + 1]["t"] if i + 1 < len(stills) else recording.end
            items.append((str(work / s["file"]), end - s["t"]))
        media.run(ffargs.ken_burns(items, video))
        trim = 0.0
    else:
        frames = [ffargs.Frame(str(work / f["file"]), f["t"]) for f in recording.frames]
        first_beat = recording.beats[0]["t"] if recording.beats else recording.end
        probe_end = min(first_beat + 0.5, recording.end)
        lead = work / "leadin.ffconcat"
        atomic_write(lead, ffargs.ffconcat(frames, 0.0, max(probe_end, 0.1)))
        log = media.run(ffargs.detect_leadin_concat(str(lead), probe_end))
        lead = media.leadin_end(media.parse_intervals(log), cap=first_beat)
        trim = min(media.snap_to_frame(lead, [f.t for f in frames], ffargs.FPS), first_beat)
        if 0 < first_beat - trim < MIN_PREROLL:
            trim = first_beat  # open on the first beat rather than a blink of picture before it
        concat = work / "video.ffconcat"
        atomic_write(concat, ffargs.ffconcat(frames, trim, recording.end))
        media.run(ffargs.encode_frames(str(concat), video, recording.end - trim))
    duration = media.probe_duration(video)
    beats = [{**b, "t": round(b["t"] - trim, 6), **({"called": round(b["called"] - trim, 6)} if "called" in b else {})}
             for b in recording.beats]
    return {"mode": recording.mode, "trim": round(trim, 6), "duration": duration, "beats": beats,
            "delays": recording.delays}


def recompose_settings(out_dir: str, cache_dir: str | None = None, engine: str | None = None,
                       **voice_changes) -> Settings | None:
    """Settings to re-compose OUT_DIR with: the recorded voice, switched to ENGINE and with
    VOICE_CHANGES (VoiceConfig fields) applied where they are not None; CACHE_DIR if given.
    None when nothing changes, so compose_dir uses the recording's own settings."""
    if not cache_dir and engine is None and all(v is None for v in voice_changes.values()):
        return None
    try:
        saved = json.loads((Path(out_dir) / WORK / "settings.json").read_text())
    except (OSError, ValueError):
        raise ComposeError(f"{out_dir} holds no finished recording: run `demo record` first") from None
    voice = choose_voice(engine, base=VoiceConfig(**saved["voice"]), **voice_changes)
    return Settings(voice=voice, cache_dir=cache_dir)


def compose_dir(out_dir: str, settings: Settings | None = None, script: str | None = None,
                progress: Progress = print) -> Result:
    """Re-compose after a narration change, without re-recording (the steps must be unchanged)."""
    out, work = _absolute(out_dir), _absolute(out_dir) / WORK
    try:
        timeline = json.loads((work / "timeline.json").read_text())
        saved = json.loads((work / "settings.json").read_text())
        old_plan = Plan.from_json((work / "plan.json").read_text())
    except (OSError, ValueError) as exc:
        raise ComposeError(f"{out_dir} holds no finished recording ({exc}); run `demo record` first") from None
    if settings is None:
        settings = Settings(voice=VoiceConfig(**saved["voice"]))
    settings.base_url = settings.base_url or saved.get("base_url")
    settings.cache_dir = settings.cache_dir or saved.get("cache_dir")
    done = _stage(progress, "plan")
    plan = load_plan(script or saved["script"], settings.base_url)
    if plan.action_signature() != old_plan.action_signature():
        new_sig, old_sig = plan.action_signature(), old_plan.action_signature()
        at = next((i for i, (a, b) in enumerate(zip(new_sig, old_sig)) if a != b), min(len(new_sig), len(old_sig)))
        where = (f"line {plan.steps[at].line}: {plan.steps[at].describe()}" if at < len(plan.steps)
                 else f"the recording has {len(old_sig) - at} more step(s)")
        raise ComposeError(f"the script's steps changed since the recording ({where}); only narration text "
                           "may change for a re-compose: run `demo record` again")
    say = {b.name: b.say for b in plan.beats}
    timeline["beats"] = [{**b, "say": say[b["name"]]} for b in timeline["beats"]]
    atomic_write(work / "plan.json", plan.to_json())
    done("steps unchanged, narration re-read")
    done = _stage(progress, "narration")
    phrases = _narrator(settings).synthesize(plan.beats, progress)
    done(f"{sum(p.duration for p in phrases.values()):.1f} s of speech")
    atomic_write(work / "timeline.json", json.dumps(timeline, indent=1))
    return _compose(out, timeline, phrases, settings, progress)


def mix_audio(items: list[tuple[str, float, float]], duration: float, out: str) -> media.Loudness:
    """Mix, then adjust the gain until the mix reads -16 LUFS (+-0.3) under the peak ceiling.
    Deterministic: the same inputs take the same steps and give the same bytes."""
    if not items:
        media.run(ffargs.mix([], duration, 0.0, LIMIT_DB, out))
        return media.Loudness(float("-inf"), float("-inf"))
    gain, limit = 0.0, LIMIT_DB
    for _ in range(5):
        level = media.parse_loudness(media.run(ffargs.mix(items, duration, gain, limit, out)))
        if level.true_peak > TRUE_PEAK_MAX - 0.2:
            limit -= level.true_peak - (TRUE_PEAK_MAX - 0.3)
        elif abs(level.integrated - LOUDNESS_TARGET) <= 0.3:
            break
        gain += LOUDNESS_TARGET - level.integrated
    return level


def _compose(out: Path, timeline: dict, phrases: dict[str, Phrase], settings: Settings, progress: Progress) -> Result:
    work = out / WORK
    beats, duration = timeline["beats"], timeline["duration"]
    durations = {k: p.duration for k, p in phrases.items()}
    problems = outputs.overruns(beats, durations, duration)
    if problems:
        raise OverrunError("narration longer than its beat: " + "; ".join(problems)
                           + ". Shorten the text or re-record (`demo record`) so the director holds the beat.")

    done = _stage(progress, "mix")
    items = [(phrases[b["name"]].path, b["t"], phrases[b["name"]].gain_db) for b in beats if b.get("say")]
    mix_audio(items, duration, str(work / "mix.wav"))
    done()

    done = _stage(progress, "mp4")
    chapters = outputs.chapters(beats, duration)
    atomic_write(out / "chapters.txt", ffargs.ffmetadata("demo", chapters))
    with atomic_output(out / VIDEO, suffix=".mp4") as tmp:  # ffmpeg picks the format by extension
        media.run(ffargs.mux(str(work / "video.mp4"), str(work / "mix.wav"), str(out / "chapters.txt"), str(tmp),
                             duration))
    cues = outputs.cues(beats, durations)
    atomic_write(out / "beats.json", outputs.beats_json(beats))
    atomic_write(out / "demo.vtt", outputs.webvtt(cues))
    atomic_write(out / "demo.srt", outputs.srt(cues))
    done(str(out / VIDEO))

    done = _stage(progress, "measure")
    figures = measure(str(out / VIDEO), beats, durations)
    figures["trim_s"] = timeline["trim"]
    figures["mode"] = timeline["mode"]
    figures["delays"] = timeline.get("delays", [])
    figures["voice"] = settings.voice.public()
    write_thumbnails(str(out / VIDEO), beats, duration, out / "thumbs")
    atomic_write(out / "figures.json", json.dumps(figures, indent=1))
    atomic_write(out / "report.html", report.render(beats, durations, figures, VIDEO))
    s = figures["sync"]
    done(f"sync p95 {s['p95_ms']} ms, loudness {figures['loudness']['integrated']} LUFS, "
         f"true peak {figures['loudness']['true_peak']} dBTP, lead-in {figures['leadin_s']:.2f} s")
    if not s["ok"]:
        raise SyncError(f"narration sync missed: p95 {s['p95_ms']} ms > {s['target_ms']:.0f} ms "
                        f"({s['missing']} phrase(s) not found); see {out / 'report.html'}")
    return Result(str(out / VIDEO), str(out / "beats.json"), str(out / "report.html"), figures)


def measure(video: str, beats: list[dict], durations: dict[str, float] | None = None) -> dict:
    """Figures measured on the final MP4: onset vs beat, loudness, phrase peaks, lead-in.
    The audio is decoded once (silences, loudness and samples); the picture once, up to the first beat."""
    duration = media.probe_duration(video)
    wav = f"{video}.{os.getpid()}.analysis.wav"
    try:
        log = media.run(ffargs.analyze_audio(video, wav))
        samples, rate = media.read_wav(wav)
    finally:
        if os.path.exists(wav):
            os.unlink(wav)
    onsets = media.speech_onsets(media.parse_silences(log, duration), duration)
    matches = sync.match_onsets(beats, onsets)
    loud = media.parse_loudness(log)
    first = beats[0]["t"] if beats else 0.0
    leadin = media.leadin_end(media.parse_intervals(media.run(ffargs.detect_leadin(video, first + 0.5))), cap=first)
    figures = {
        "sync": sync.summary(matches),
        "beats": [{"name": m.name, "t": m.t, "onset": m.onset,
                   "error_ms": None if m.error is None else round(m.error * 1000, 2)} for m in matches],
        "loudness": {"integrated": loud.integrated, "true_peak": loud.true_peak,
                     "ok": abs(loud.integrated - LOUDNESS_TARGET) <= 1.0 and loud.true_peak <= TRUE_PEAK_MAX},
        "leadin_s": round(leadin, 3),
    }
    if durations:
        spoken = [b for b in beats if b.get("say") and b["name"] in durations]
        peaks = media.segment_peaks_db(samples, rate, [(b["t"], b["t"] + durations[b["name"]]) for b in spoken])
        by_name = {b["name"]: p for b, p in zip(spoken, peaks)}
        for entry in figures["beats"]:
            if entry["name"] in by_name:
                entry["peak_db"] = round(by_name[entry["name"]], 2)
        finite = [p for p in peaks if p != float("-inf")]
        figures["peak_spread_db"] = round(max(finite) - min(finite), 2) if finite else 0.0
    return figures


def write_thumbnails(video: str, beats: list[dict], duration: float, folder: Path) -> None:
    """thumbs/NNN.jpg: the picture just after each beat, all from one ffmpeg pass."""
    import tempfile

    last = max(int(duration * ffargs.FPS) - 1, 0)
    wanted = [min(round((b["t"] + 0.05) * ffargs.FPS), last) for b in beats]
    distinct = sorted(set(wanted))
    folder.mkdir(exist_ok=True)
    for stale in folder.glob("[0-9][0-9][0-9].jpg"):  # from an earlier render with more beats
        if int(stale.stem) >= len(beats):
            stale.unlink()
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        media.run(ffargs.thumbnails(video, distinct, os.path.join(tmp, "%04d.jpg")))
        for i, n in enumerate(wanted):
            made = os.path.join(tmp, f"{distinct.index(n) + 1:04d}.jpg")
            if os.path.exists(made):
                atomic_write(folder / f"{i:03d}.jpg", Path(made).read_bytes())


def check_video(video: str, beats_path: str) -> dict:
    """`demo check`: sync of an existing video against its beats.json."""
    try:
        beats = json.loads(Path(beats_path).read_text())
        if not isinstance(beats, list) or not all({"name", "t"} <= set(b) for b in beats):
            raise ValueError("expected a JSON array of {name, t, say}")
    except (OSError, ValueError) as exc:
        raise ComposeError(f"cannot read beats from {beats_path}: {exc}") from None
    if not Path(video).is_file():
        raise ComposeError(f"no video at {video}")
    return measure(video, beats)
