"""`demo`: narrated product videos from a script. Thin click layer over demo.compose: it parses
options, calls the library and prints; the defaults and decisions live in the library
(demo.voice: who narrates, demo.compose: re-compose settings, demo.pm_link: logging on a task).
Named errors become one-line messages with exit code 1 (plumbing.cli.ToolGroup)."""
from __future__ import annotations

import json
import os
import sys

import click

from plumbing.cli import ToolGroup


def _progress(quiet: bool):
    return (lambda _msg: None) if quiet else (lambda msg: click.echo(msg, err=True))


def _note(msg: str) -> None:
    click.echo(msg, err=True)


def _json_object(ctx, param, value):
    """--voice-settings: a JSON object, parsed (a usage error otherwise)."""
    if value is None:
        return None
    try:
        parsed = json.loads(value)
    except ValueError as exc:
        raise click.BadParameter(f"not JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise click.BadParameter("must be a JSON object")
    return parsed


def _voice_options(f):
    options = [
        click.option("--voice-engine", type=click.Choice(["espeak", "elevenlabs"]), default=None,
                     help="Default: elevenlabs when ELEVENLABS_API_KEY is set, else espeak (offline)."),
        click.option("--voice", default=None,
                     help="espeak-ng voice (en-us) or ElevenLabs voice id (default: $ELEVENLABS_VOICE_ID, else Rachel)."),
        click.option("--model", default=None, help="ElevenLabs model id (eleven_multilingual_v2)."),
        click.option("--speed", type=click.IntRange(80, 400), default=None, help="espeak-ng words a minute (165)."),
        click.option("--voice-settings", default=None, metavar="JSON", callback=_json_object,
                     help='ElevenLabs voice_settings, e.g. \'{"stability": 0.5, "similarity_boost": 0.75}\'.'),
        click.option("--seed", type=int, default=None, help="ElevenLabs seed, for repeatable speech."),
        click.option("--output-format", default=None, help="ElevenLabs output_format (mp3_44100_128)."),
        click.option("--concurrency", type=click.IntRange(1, 16), default=None,
                     help="Parallel ElevenLabs requests; keep within your plan's limit (2)."),
        click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
                     help="Phrase cache (default ~/.cache/soloshop-demo/phrases)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _voice_changes(voice: dict) -> dict:
    """The voice options as demo.voice.choose_voice's arguments (None: not given)."""
    return {"engine": voice["voice_engine"], "voice": voice["voice"], "model": voice["model"],
            "speed": voice["speed"], "settings": voice["voice_settings"], "seed": voice["seed"],
            "output_format": voice["output_format"], "concurrency": voice["concurrency"]}


@click.group(cls=ToolGroup, help="Narrated product videos from a script: record, narrate, assemble, measure sync.")
def main():
    pass


@main.command()
@click.argument("script", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output directory.")
@click.option("--base-url", default=None, help="Where relative d.goto() URLs point (default: the script's folder).")
@click.option("--task", type=int, default=None, help="Log the video on this pm task.")
@click.option("--paint-timeout", type=float, default=15.0, show_default=True,
              help="Seconds the first page may take to paint before the stills fallback.")
@_voice_options
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines.")
def record(script, out_dir, base_url, task, paint_timeout, as_json, quiet, **voice):
    """Record SCRIPT (a Python file defining `def run(d):`) into a narrated MP4 in --out.

    A page behind HTTP basic auth (a private review URL) is recorded with the credentials in
    DEMO_HTTP_CREDENTIALS="user:password" (an environment variable, so they reach no log or argv).
    """
    from demo import pm_link
    from demo.compose import Settings, record_demo
    from demo.voice import choose_voice

    settings = Settings(voice=choose_voice(**_voice_changes(voice)), cache_dir=voice["cache_dir"], base_url=base_url,
                        paint_timeout=paint_timeout,
                        http_credentials=_http_credentials(os.environ.get("DEMO_HTTP_CREDENTIALS")))
    result = pm_link.run_logged(lambda: record_demo(script, out_dir, settings, _progress(quiet)), task, _note)
    _print_result(result, as_json)


def _http_credentials(value: str | None) -> dict | None:
    if not value:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user:
        raise click.UsageError("DEMO_HTTP_CREDENTIALS must be USER:PASSWORD")
    return {"username": user, "password": password}


def _print_result(result, as_json: bool) -> None:
    f = result.figures
    if as_json:
        click.echo(json.dumps({"video": result.video, "beats": result.beats_json, "report": result.report,
                               "figures": f}, separators=(",", ":")))
        return
    s, loud = f["sync"], f["loudness"]
    click.echo(f"video    {result.video}\nbeats    {result.beats_json}\nreport   {result.report}")
    click.echo(f"sync     p95 {s['p95_ms']} ms (target {s['target_ms']:.0f} ms), {s['beats']} phrases")
    click.echo(f"loudness {loud['integrated']} LUFS, true peak {loud['true_peak']} dBTP; "
               f"peak spread {f.get('peak_spread_db')} dB; lead-in {f['leadin_s']} s")


@main.command()
@click.argument("out_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--script", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The edited script (default: the one recorded).")
@click.option("--task", type=int, default=None, help="Log the video on this pm task.")
@_voice_options
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines.")
def compose(out_dir, script, task, as_json, quiet, **voice):
    """Re-compose OUT_DIR after a narration change, without re-recording."""
    from demo import pm_link
    from demo.compose import compose_dir, recompose_settings

    settings = recompose_settings(out_dir, voice["cache_dir"], **_voice_changes(voice))
    result = pm_link.run_logged(lambda: compose_dir(out_dir, settings, script, _progress(quiet)), task, _note)
    _print_result(result, as_json)


@main.command()
@click.argument("video", type=click.Path(exists=True, dir_okay=False))
@click.argument("beats_json", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def check(video, beats_json, as_json):
    """Measure speech onsets in VIDEO against BEATS_JSON; exit 1 when p95 misses 40 ms."""
    from demo.compose import check_video

    figures = check_video(video, beats_json)
    s = figures["sync"]
    if as_json:
        click.echo(json.dumps(figures, separators=(",", ":")))
    else:
        for b in figures["beats"]:
            onset = "not found" if b["onset"] is None else f"{b['onset']:.3f} s"
            err = "" if b["error_ms"] is None else f"{b['error_ms']:+.1f} ms"
            click.echo(f"{b['name']:<24} beat {b['t']:8.3f} s  onset {onset:>10}  {err}")
        loud = figures["loudness"]
        click.echo(f"sync p95 {s['p95_ms']} ms, p50 {s['p50_ms']} ms, max {s['max_ms']} ms "
                   f"(target {s['target_ms']:.0f} ms); loudness {loud['integrated']} LUFS, "
                   f"true peak {loud['true_peak']} dBTP; lead-in {figures['leadin_s']} s")
    if not s["ok"]:
        click.echo(f"Error: sync missed: p95 {s['p95_ms']} ms > {s['target_ms']:.0f} ms "
                   f"({s['missing']} phrase(s) not found)", err=True)
        sys.exit(1)


@main.command()
@click.argument("script", type=click.Path(exists=True, dir_okay=False))
@click.option("--base-url", default=None, help="Where relative d.goto() URLs point.")
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON.")
def plan(script, base_url, as_json):
    """Validate SCRIPT and list its steps, without starting a browser."""
    from demo.script import load_plan

    p = load_plan(script, base_url)
    if as_json:
        click.echo(json.dumps([{"line": s.line, "kind": s.kind, "args": s.args} for s in p.steps],
                              separators=(",", ":")))
        return
    for s in p.steps:
        extra = f'  say "{s.args["say"]}"' if s.kind == "beat" and s.args.get("say") else ""
        label = f"beat {s.args['name']}" if s.kind == "beat" else s.describe()
        click.echo(f"{s.line:>4}  {label}{extra}")
