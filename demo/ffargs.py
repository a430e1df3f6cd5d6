"""Pure builders of ffmpeg argument lists and ffconcat/ffmetadata texts; no I/O here.

Every graph the pipeline runs is built by one function in this module, so tests can assert the
exact arguments. The graphs with several inputs (mix, ken_burns) are built with ffmpeg-python and
compiled to argv (it only builds command lines); one-input commands with a fixed filter chain
stay plain lists, where a graph object would hide the one string that matters. Facts these encode: `adelay ... all=1` delays every channel; `amix` must get
`normalize=0` or it scales phrases by how many inputs are active; `alimiter` needs `latency=1`
(no onset shift) and `level=0` (no auto gain); chapters need TIMEBASE=1/1000.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import ffmpeg  # ffmpeg-python: builds the multi-input graphs (mix, ken_burns) and compiles them to argv

FPS = 25
SAMPLE_RATE = 48000
BASE = ["ffmpeg", "-hide_banner", "-nostdin", "-y"]
ANALYZE = ["ffmpeg", "-hide_banner", "-nostdin", "-nostats"]
BITEXACT_WAV = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-c:a", "pcm_s16le"]


@dataclass(frozen=True)
class Frame:
    """One screencast frame: an image file and the moment (s, video clock) it appeared."""

    path: str
    t: float


def ffconcat(frames: list[Frame], start: float, end: float, fps: int = FPS) -> str:
    """A concat-demuxer list that shows, in each 1/fps slot of [start, end), the latest frame.

    A frame goes to the slot nearest its time (at most half a slot early or late), so every
    duration is a whole number of slots: the demuxer's 1/25 s image time base then adds no
    rounding (free durations drifted by 0.1 s over 20 s). The frame on screen at `start`
    fills the slots before the first new one; the last file is repeated, as the demuxer ignores
    the last entry's duration otherwise.
    """
    if end <= start:
        raise ValueError("end must be after start")
    slots = max(1, round((end - start) * fps))
    shown: list[str | None] = [None] * slots
    opening = None
    for frame in frames:
        slot = round((frame.t - start) * fps)
        if slot <= 0:
            opening = frame.path
        elif slot < slots:
            shown[slot] = frame.path
    if opening is None:
        opening = next((p for p in shown if p), None) or (frames[0].path if frames else None)
    if opening is None:
        raise ValueError("no frame to show")
    shown[0] = opening
    runs: list[list] = []
    for i, path in enumerate(shown):
        if path is None or (runs and runs[-1][0] == path):
            runs[-1][1] += 1
        else:
            runs.append([path, 1])
    lines = ["ffconcat version 1.0"]
    for path, count in runs:
        lines += [f"file '{_quote(path)}'", f"duration {count / fps:.6f}"]
    lines.append(f"file '{_quote(runs[-1][0])}'")
    return "\n".join(lines) + "\n"


def _quote(path: str) -> str:
    return path.replace("'", "'\\''")


def encode_frames(concat: str, out: str, duration: float, size: tuple[int, int] = (1280, 720),
                  fps: int = FPS) -> list[str]:
    """Frames held until the next one -> constant-rate H.264 at `size` (the first screencast
    frames of a new tab can come at another size), yuv420p for every player."""
    return BASE + [
        "-f", "concat", "-safe", "0", "-i", concat,
        "-vf", f"scale={size[0]}:{size[1]},setsar=1,fps={fps},format=yuv420p",
        "-t", f"{duration:.3f}", "-an",
        # ultrafast: screen content at ~1/25 of real time on 2 cores (veryfast took 3.6x longer)
        "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-g", str(fps * 2),
        "-fps_mode", "cfr", out,
    ]


LEADIN_FILTER = (
    "fps={fps},negate,blackdetect=d=0.04:pic_th=0.999:pix_th=0.06,"
    "negate,blackdetect=d=0.04:pic_th=0.999:pix_th=0.06,freezedetect=n=-60dB:d=0.3"
)


def gray_frames(concat: str, width: int, height: int) -> list[str]:
    """Every listed image once, scaled to a small gray raw frame (for change detection)."""
    return ANALYZE + ["-loglevel", "error", "-f", "concat", "-safe", "0", "-i", concat,
                      "-vf", f"scale={width}:{height},format=gray", "-fps_mode", "passthrough",
                      "-f", "rawvideo", "-"]


def detect_leadin(video: str, limit: float, fps: int = FPS) -> list[str]:
    """White frames (negate, then blackdetect), black frames and frozen frames in the first `limit` s."""
    return ANALYZE + ["-t", f"{limit:.3f}", "-i", video, "-map", "0:v:0",
                      "-vf", LEADIN_FILTER.format(fps=fps), "-an", "-f", "null", "-"]


def detect_leadin_concat(concat: str, limit: float, size: tuple[int, int] = (1280, 720), fps: int = FPS) -> list[str]:
    """The same measurement on a frame list, before anything is encoded."""
    return ANALYZE + ["-f", "concat", "-safe", "0", "-t", f"{limit:.3f}", "-i", concat,
                      "-vf", f"scale={size[0]}:{size[1]}," + LEADIN_FILTER.format(fps=fps), "-an", "-f", "null", "-"]


def raw_input_format(output_format: str) -> list[str]:
    """Demuxer options for ElevenLabs formats that carry no header (pcm_RATE, ulaw_8000)."""
    kind, _, rate = output_format.partition("_")
    if kind == "pcm" and rate.isdigit():
        return ["-f", "s16le", "-ar", rate, "-ac", "1"]
    if kind == "ulaw" and rate.isdigit():
        return ["-f", "mulaw", "-ar", rate, "-ac", "1"]
    return []


def prepare_phrase(src: str, out: str, gain_db: float = 0.0, input_format: list[str] | None = None) -> list[str]:
    """A synthesized phrase -> 48 kHz mono 16-bit WAV, leading/trailing silence cut, gain applied.

    The cut makes the phrase's first sound its first sample, so the beat delay is the onset.
    """
    trim = "silenceremove=start_periods=1:start_threshold=-55dB:start_silence=0"
    chain = (
        f"aresample={SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono,"
        f"{trim},areverse,{trim},areverse,volume={gain_db:.2f}dB"
    )
    return BASE + (input_format or []) + ["-i", src, "-af", chain, "-ar", str(SAMPLE_RATE), "-ac", "1"] + BITEXACT_WAV + [out]


def measure_peak(src: str) -> list[str]:
    """Sample peak of a file (volumedetect's max_volume)."""
    return ANALYZE + ["-i", src, "-af", "volumedetect", "-f", "null", "-"]


def _compiled(output) -> list[str]:
    """An ffmpeg-python output node as the argv it stands for (BASE's options included)."""
    return ffmpeg.compile(output.global_args(*BASE[1:3]).overwrite_output())


_WAV = {"fflags": "+bitexact", "flags:a": "+bitexact", "c:a": "pcm_s16le"}


def mix(phrases: list[tuple[str, float, float]], duration: float, gain_db: float, limit_db: float,
        out: str) -> list[str]:
    """Each phrase (path, at, own gain) levelled and delayed to its beat (in samples, exact),
    summed without normalisation, made `duration` long, gained, peak-limited with latency
    compensation (no onset shift), and measured (EBU R128 summary in the log) on the way out.

    The graph is built with ffmpeg-python, which numbers the links and escapes every value."""
    if not phrases:
        silence = ffmpeg.input(f"anullsrc=r={SAMPLE_RATE}:cl=mono", f="lavfi")
        return _compiled(ffmpeg.output(silence, out, t=f"{duration:.6f}", **_WAV))
    # ffmpeg-python merges equal nodes, so a sentence said at two beats (one cached file, one
    # gain) is one levelled input: split it once per use, or the graph cannot be built.
    uses = Counter((path, f"{own_gain:.3f}dB") for path, _, own_gain in phrases)
    levelled = {}
    for (path, gain), count in uses.items():
        node = ffmpeg.input(path).audio.filter("volume", gain)
        levelled[path, gain] = iter([node] if count == 1 else [node.asplit()[i] for i in range(count)])
    delayed = [next(levelled[path, f"{own_gain:.3f}dB"]).filter("adelay", delays=f"{round(at * SAMPLE_RATE)}S", all=1)
               for path, at, own_gain in phrases]
    limit = 10 ** (limit_db / 20)
    summed = (ffmpeg.filter(delayed, "amix", inputs=len(phrases), normalize=0, duration="longest")
              .filter("apad", whole_dur=f"{duration:.6f}")
              .filter("atrim", start=0, end=f"{duration:.6f}")
              .filter("volume", f"{gain_db:.2f}dB")
              .filter("alimiter", limit=f"{limit:.6f}", level=0, latency=1, attack=5, release=50)
              .filter("ebur128", peak="true")
              .filter("aformat", sample_fmts="s16", channel_layouts="mono"))
    return _compiled(ffmpeg.output(summed, out, ar=SAMPLE_RATE, **_WAV))


def loudness(src: str) -> list[str]:
    """Integrated loudness (LUFS) and true peak (dBTP) with EBU R128."""
    return ANALYZE + ["-i", src, "-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null", "-"]


def silences(src: str, noise_db: float = -45.0, min_silence: float = 0.05) -> list[str]:
    """Silence intervals; speech onsets are where they end."""
    return ANALYZE + ["-i", src, "-map", "0:a:0", "-af", f"silencedetect=n={noise_db}dB:d={min_silence}", "-f", "null", "-"]


def analyze_audio(src: str, wav_out: str, noise_db: float = -45.0, min_silence: float = 0.05) -> list[str]:
    """One decoding pass: silences and EBU R128 in the log, the audio as 16-bit mono WAV for peaks."""
    return ANALYZE + ["-y", "-i", src, "-map", "0:a:0",
                      "-af", f"silencedetect=n={noise_db}dB:d={min_silence},ebur128=peak=true,"
                             f"aformat=sample_fmts=s16:channel_layouts=mono",
                      "-ar", str(SAMPLE_RATE)] + BITEXACT_WAV + [wav_out]


def thumbnails(video: str, frame_numbers: list[int], pattern: str, width: int = 320) -> list[str]:
    """The listed frames (sorted, distinct) as JPEGs numbered from 1 in that order, in one pass."""
    select = "+".join(f"eq(n,{n})" for n in frame_numbers)
    return BASE + ["-loglevel", "error", "-i", video, "-vf", f"select='{select}',scale={width}:-2",
                   "-fps_mode", "passthrough", "-q:v", "4", pattern]


def ffmetadata(title: str, chapters: list[tuple[str, float, float]]) -> str:
    """Chapters as an ffmetadata document (times in ms, TIMEBASE 1/1000)."""
    lines = [";FFMETADATA1", f"title={_meta_escape(title)}"]
    for name, start, end in chapters:
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={round(start * 1000)}", f"END={round(end * 1000)}",
                  f"title={_meta_escape(name)}"]
    return "\n".join(lines) + "\n"


def _meta_escape(text: str) -> str:
    out = text
    for ch in ("\\", "=", ";", "#", "\n"):
        out = out.replace(ch, "\\" + ch)
    return out


def mux(video: str, audio: str, metadata: str, out: str, duration: float) -> list[str]:
    """H.264 video (copied) + AAC audio + chapters, moov atom first (faststart)."""
    return BASE + [
        "-i", video, "-i", audio, "-f", "ffmetadata", "-i", metadata,
        "-map", "0:v:0", "-map", "1:a:0", "-map_metadata", "2", "-map_chapters", "2",
        "-c:v", "copy", "-c:a", "aac", "-b:a", "160k", "-t", f"{duration:.3f}",
        "-movflags", "+faststart", out,
    ]


def ken_burns(stills: list[tuple[str, float]], out: str, size: tuple[int, int] = (1280, 720), fps: int = FPS) -> list[str]:
    """Stills, each shown for its duration with a slow zoom and pan, joined into one H.264 video.

    The still is upscaled first so zoompan's integer crop positions do not jitter."""
    w, h = size
    clips = []
    for i, (path, dur) in enumerate(stills):
        frames = max(1, round(dur * fps))
        # alternate the pan direction so consecutive stills do not look like one long zoom
        x = "iw/2-(iw/zoom/2)" if i % 2 == 0 else f"(iw-iw/zoom)*on/{frames}"
        clips.append(
            ffmpeg.input(path, loop=1, framerate=fps, t=f"{dur:.6f}").video
            .filter("scale", w * 3 // 2, h * 3 // 2, force_original_aspect_ratio="increase")
            .filter("crop", w * 3 // 2, h * 3 // 2)
            .filter("zoompan", z=f"min(1+0.10*on/{frames},1.10)", x=x, y="ih/2-(ih/zoom/2)", d=1,
                    s=f"{w}x{h}", fps=fps)
            .filter("trim", end_frame=frames).filter("setpts", "PTS-STARTPTS").filter("format", "yuv420p"))
    joined = ffmpeg.concat(*clips, n=len(clips), v=1, a=0)
    return _compiled(ffmpeg.output(joined, out, vcodec="libx264", preset="ultrafast", crf=22, r=fps,
                                   fps_mode="cfr"))
