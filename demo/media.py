"""Run ffmpeg and read its measurements. Parsers are pure functions over ffmpeg's log text."""
from __future__ import annotations

import array
import math
import wave
import re
import shutil
import subprocess
from dataclasses import dataclass

import ffmpeg  # ffmpeg-python, for ffprobe's JSON

from demo import ffargs
from demo.errors import FFmpegError, ToolMissing


def require(program: str, package: str | None = None) -> str:
    found = shutil.which(program)
    if not found:
        raise ToolMissing(f"{program} is not installed: apt-get install {package or program}")
    return found


def run(args: list[str], timeout: float = 900) -> str:
    """Run an ffmpeg argv; return its stderr (where ffmpeg logs); fail loudly on a non-zero exit."""
    require(args[0], "ffmpeg")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-6:])
        raise FFmpegError(f"{args[0]} failed (exit {proc.returncode}):\n{tail}")
    return proc.stderr


def probe_duration(path: str) -> float:
    """The container's duration, from ffprobe's JSON (ffmpeg-python's probe)."""
    require("ffprobe", "ffmpeg")
    try:
        info = ffmpeg.probe(path)
    except ffmpeg.Error as exc:
        raise FFmpegError(f"cannot read the duration of {path}: {exc.stderr.decode(errors='replace').strip()[-200:]}") from None
    try:
        return float(info["format"]["duration"])
    except (KeyError, ValueError):
        raise FFmpegError(f"cannot read the duration of {path}: ffprobe reports none") from None


# --- parsers (pure) ---

@dataclass(frozen=True)
class Loudness:
    integrated: float  # LUFS
    true_peak: float  # dBTP


def parse_loudness(log: str) -> Loudness:
    summary = log[log.rfind("Summary:"):]
    i = re.search(r"I:\s+(-?[\d.]+|-inf) LUFS", summary)
    peak = re.search(r"True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS", summary)
    if not i or not peak:
        raise FFmpegError("ebur128 printed no summary (is there an audio stream?)")
    return Loudness(float(i.group(1)), float(peak.group(1)))


def parse_silences(log: str, duration: float) -> list[tuple[float, float]]:
    """Silence intervals from silencedetect; an unterminated last silence ends at `duration`."""
    out, start = [], None
    for m in re.finditer(r"silence_(start|end): (-?[\d.]+)", log):
        if m.group(1) == "start":
            start = max(float(m.group(2)), 0.0)
        elif start is not None:
            out.append((start, float(m.group(2))))
            start = None
        else:  # an end without a start: silence from the beginning
            out.append((0.0, float(m.group(2))))
    if start is not None:
        out.append((start, duration))
    return out


def speech_onsets(silence: list[tuple[float, float]], duration: float) -> list[float]:
    """Where sound begins: the end of each silence, and 0 when the audio does not open silent."""
    onsets = [end for start, end in silence if end < duration - 1e-3]
    if not silence or silence[0][0] > 1e-3:
        onsets.insert(0, 0.0)
    return sorted(onsets)


def parse_intervals(log: str) -> list[tuple[float, float]]:
    """blackdetect and freezedetect intervals, in the order logged."""
    out = [(float(a), float(b)) for a, b in re.findall(r"black_start:(-?[\d.]+) black_end:(-?[\d.]+)", log)]
    starts = [float(x) for x in re.findall(r"freeze_start: (-?[\d.]+)", log)]
    ends = [float(x) for x in re.findall(r"freeze_end: (-?[\d.]+)", log)]
    out += list(zip(starts, ends))
    return out


def leadin_end(intervals: list[tuple[float, float]], cap: float) -> float:
    """How long the picture is blank or frozen from t=0: chain intervals that start where the
    covered span ends, never past `cap` (the first beat: what it marks is content)."""
    covered = 0.0
    grew = True
    while grew:
        grew = False
        for start, end in intervals:
            if start <= covered + 0.05 and end > covered:
                covered, grew = end, True
    return min(covered, cap)


def snap_to_frame(lead: float, frame_times: list[float], fps: int) -> float:
    """The raw frame that ends a lead-in measured on the `fps` grid: the first frame the fps filter
    could have placed at or after `lead` (it rounds each frame to the nearest slot)."""
    if lead <= 0:
        return 0.0
    later = [t for t in frame_times if t >= lead - 0.5 / fps - 1e-6]
    return min(later) if later else lead


def parse_peak(log: str) -> float:
    m = re.search(r"max_volume: (-?[\d.]+|-inf) dB", log)
    if not m:
        raise FFmpegError("volumedetect printed no max_volume (empty audio?)")
    return float(m.group(1))


def segment_peaks_db(samples, rate: int, segments: list[tuple[float, float]]) -> list[float]:
    """Sample peak (dBFS) of 16-bit `samples` over each [start, end) segment."""
    out = []
    for start, end in segments:
        chunk = samples[int(start * rate):int(end * rate)]
        peak = max((max(chunk), -min(chunk)), default=0) if len(chunk) else 0
        out.append(20 * math.log10(peak / 32768) if peak else float("-inf"))
    return out


# --- measurements (I/O) ---

def measure_loudness(path: str) -> Loudness:
    return parse_loudness(run(ffargs.loudness(path)))


def measure_onsets(path: str, noise_db: float = -45.0) -> list[float]:
    duration = probe_duration(path)
    log = run(ffargs.silences(path, noise_db))
    return speech_onsets(parse_silences(log, duration), duration)


def measure_peak(path: str) -> float:
    return parse_peak(run(ffargs.measure_peak(path)))


def read_wav(path: str):
    """16-bit mono samples and rate of a WAV file."""
    with wave.open(path, "rb") as wav:
        if wav.getsampwidth() != 2 or wav.getnchannels() != 1:
            raise FFmpegError(f"{path}: expected 16-bit mono audio")
        data = array.array("h", wav.readframes(wav.getnframes()))
        return data, wav.getframerate()
