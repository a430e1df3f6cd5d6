"""End to end with real Chromium, ffmpeg and espeak-ng on a fixture page with a slow first paint."""
import json
import shutil
import subprocess
import textwrap

import pytest
from click.testing import CliRunner

from demo import ffargs, media, stamps
from demo.cli import main
from demo.compose import Settings, compose_dir, record_demo
from demo.errors import ComposeError, OverrunError
from tests.demo.fixtures import FixtureSite

SCRIPT = """\
def run(d):
    d.goto("/slow")
    d.beat("open", say="A page that paints late.")
    d.click("#go")
    d.beat("click", say="One click turns it blue.")
"""


@pytest.fixture(scope="module")
def site():
    with FixtureSite() as s:
        yield s


@pytest.fixture(scope="module")
def recorded(site, tmp_path_factory):
    root = tmp_path_factory.mktemp("rec")
    script = root / "fixture_demo.py"
    script.write_text(SCRIPT)
    settings = Settings(cache_dir=str(root / "cache"), base_url=site.url)
    progress = []
    result = record_demo(str(script), str(root / "out"), settings, progress.append)
    return result, root, progress


def rgb_frames(video, size=(16, 9)):
    """Every frame at 25 fps as a list of (r, g, b) means, decoded by ffmpeg."""
    w, h = size
    raw = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", video, "-vf", f"fps=25,scale={w}:{h}",
                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    n = w * h * 3
    out = []
    for i in range(0, len(raw) - n + 1, n):
        px = raw[i:i + n]
        out.append(tuple(sum(px[c::3]) / (w * h) for c in range(3)))
    return out


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_outputs_follow_the_contract(recorded):
    result, root, progress = recorded
    out = root / "out"
    beats = json.loads((out / "beats.json").read_text())
    assert [b["name"] for b in beats] == ["open", "click"] and all(set(b) == {"name", "t", "say"} for b in beats)
    assert beats[1]["say"] == "One click turns it blue." and beats[1]["t"] > beats[0]["t"]
    for name in ("demo.vtt", "demo.srt", "chapters.txt", "report.html", "thumbs/000.jpg", "thumbs/001.jpg"):
        assert (out / name).stat().st_size > 0, name
    streams = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                              result.video], capture_output=True, text=True, check=True).stdout.split()
    assert streams[:2] == ["h264", "aac"]  # then the chapter track
    data = (out / "demo.mp4").read_bytes()
    assert data.index(b"moov") < data.index(b"mdat")  # faststart
    chapters = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", result.video],
                                         capture_output=True, text=True, check=True).stdout)["chapters"]
    assert [c["tags"]["title"] for c in chapters] == ["open", "click"]
    assert abs(float(chapters[1]["start_time"]) - beats[1]["t"]) < 0.002
    assert "A page that paints late." in (out / "demo.vtt").read_text()
    html = (out / "report.html").read_text()
    assert "thumbs/001.jpg" in html and "LUFS" in html
    stages = [line.split(":")[0] for line in progress if ": done in" in line]
    assert stages == ["plan", "narration", "record", "video", "mix", "mp4", "measure"]


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_sync_loudness_and_leadin_measured_on_the_mp4(recorded):
    result, root, progress = recorded
    f = result.figures
    assert f["sync"]["ok"] and f["sync"]["missing"] == 0 and f["sync"]["p95_ms"] <= 40
    assert f["mode"] == "screencast", "\n".join(progress)
    assert f["trim_s"] > 0.5  # the slow first paint was cut
    assert f["leadin_s"] == 0.0 and f["peak_spread_db"] < 1.0
    assert abs(f["loudness"]["integrated"] + 16) <= 1.0 and f["loudness"]["true_peak"] <= -1.5
    cli = CliRunner().invoke(main, ["check", result.video, result.beats_json])
    assert cli.exit_code == 0, cli.output
    assert "sync p95" in cli.output and "click" in cli.output


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_first_frame_is_the_page_not_a_blank(recorded):
    result, root, _ = recorded
    # a frame of another size (a new tab's window before the viewport applies) would make ffmpeg
    # rebuild its filters mid-measurement and lose the lead-in: none is kept
    frames = sorted((root / "out" / ".demo" / "frames").glob("*.jpg"))
    assert frames and {stamps.jpeg_size(f.read_bytes()) for f in frames} == {(1280, 720)}
    log = media.run(ffargs.detect_leadin(result.video, 1.0))
    assert media.leadin_end(media.parse_intervals(log), cap=10) == 0.0
    gray = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", result.video, "-frames:v", "1", "-vf",
                           "scale=320:180", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                          capture_output=True, check=True).stdout
    assert len(gray) == 320 * 180 and min(gray) < 100  # dark text on the page, not a white sheet


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_click_beat_lands_within_one_frame_of_the_change(recorded):
    result, _, _ = recorded
    beat = json.loads(open(result.beats_json).read())[1]["t"]
    frames = rgb_frames(result.video)
    blue = next(i for i, (r, g, b) in enumerate(frames) if b > 150 and r < 120)
    assert abs(blue / 25 - beat) <= 0.040 + 1e-3, (blue / 25, beat)


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_check_fails_when_beats_miss_the_speech(recorded, tmp_path):
    result, _, _ = recorded
    beats = json.loads(open(result.beats_json).read())
    for b in beats:
        b["t"] += 0.25
    shifted = tmp_path / "beats.json"
    shifted.write_text(json.dumps(beats))
    cli = CliRunner().invoke(main, ["check", result.video, str(shifted)])
    assert cli.exit_code == 1 and "sync missed" in cli.output


def _copy(recorded, tmp_path, say_click=None, extra=""):
    _, root, _ = recorded
    out = tmp_path / "out"
    shutil.copytree(root / "out", out)
    script = tmp_path / "edited.py"
    text = SCRIPT if say_click is None else SCRIPT.replace("One click turns it blue.", say_click)
    script.write_text(text + textwrap.indent(extra, "    "))
    return out, script


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_compose_after_a_narration_change_does_not_record(recorded, tmp_path, monkeypatch):
    import demo.recorder
    monkeypatch.setattr(demo.recorder, "record", lambda *a, **k: pytest.fail("compose must not record"))
    out, script = _copy(recorded, tmp_path, say_click="Blue now.")
    video_before = (out / ".demo" / "video.mp4").read_bytes()
    result = compose_dir(str(out), script=str(script), progress=lambda _: None)
    beats = json.loads((out / "beats.json").read_text())
    assert beats[1]["say"] == "Blue now." and result.figures["sync"]["ok"]
    assert (out / ".demo" / "video.mp4").read_bytes() == video_before
    assert "Blue now." in (out / "demo.srt").read_text()


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_compose_refuses_changed_steps_and_overruns(recorded, tmp_path):
    out, script = _copy(recorded, tmp_path, extra='d.click("#go")\n')
    with pytest.raises(ComposeError, match="steps changed"):
        compose_dir(str(out), script=str(script), progress=lambda _: None)
    long = "This sentence is far too long to fit in the little time that is left after the click beat. " * 3
    out2, script2 = _copy(recorded, tmp_path / "b", say_click=long)
    with pytest.raises(OverrunError, match="phrase of beat 'click' lasts .* the end of the video"):
        compose_dir(str(out2), script=str(script2), progress=lambda _: None)


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_compose_logs_the_video_on_a_pm_task(recorded, tmp_path, monkeypatch):
    from pm.api import Tracker
    tracker = Tracker.init(str(tmp_path / "tracker"))
    task = tracker.new("Record the fixture demo")
    monkeypatch.setenv("PM_DIR", str(tmp_path / "tracker"))
    out, script = _copy(recorded, tmp_path)
    cli = CliRunner().invoke(main, ["compose", str(out), "--task", str(task.id), "-q"])
    assert cli.exit_code == 0, cli.output
    log = Tracker(str(tmp_path / "tracker")).get(task.id).log
    assert f"demo video: {out / 'demo.mp4'}" in log[-1].html and "sync p95" in log[-1].html


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_never_rendering_page_falls_back_to_stills(site, tmp_path):
    script = tmp_path / "hang_demo.py"
    script.write_text(textwrap.dedent("""\
        def run(d):
            d.goto("/hang")
            d.beat("intro", say="This page never renders.")
            d.click("#never")
            d.beat("still", say="The narration still lands on its beats.")
    """))
    cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "out"), "--base-url", site.url,
                                    "--paint-timeout", "2", "--cache-dir", str(tmp_path / "cache"), "--json"])
    assert cli.exit_code == 0, cli.output
    data = json.loads(cli.stdout)
    assert data["figures"]["mode"] == "stills" and data["figures"]["sync"]["ok"]
    assert "falling back to stills" in cli.stderr
    beats = json.loads(open(data["beats"]).read())
    assert [b["name"] for b in beats] == ["intro", "still"] and beats[1]["t"] > beats[0]["t"] + 1
    frames = rgb_frames(data["video"])
    assert frames[0] != frames[len(frames) // 4]  # the pan and zoom move the picture


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_a_missing_element_stops_with_its_line(site, tmp_path, monkeypatch):
    import demo.recorder
    monkeypatch.setattr(demo.recorder, "STEP_TIMEOUT", 1.0)
    script = tmp_path / "missing_demo.py"
    script.write_text('def run(d):\n    d.goto("/slow")\n    d.beat("open", say="Hi.")\n    d.click("#missing")\n'
                      '    d.beat("never", say="Not reached.")\n')
    cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "out"), "--base-url", site.url,
                                    "--cache-dir", str(tmp_path / "cache"), "-q"])
    assert cli.exit_code == 1
    assert "line 4: click(selector='#missing'): no visible element matches '#missing' within 1 s" in cli.output


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_a_page_behind_basic_auth_is_recorded_with_credentials_from_the_environment(site, tmp_path, monkeypatch):
    script = tmp_path / "private_demo.py"
    script.write_text(SCRIPT.replace("/slow", "/private"))
    monkeypatch.setenv("DEMO_HTTP_CREDENTIALS", "reviewer:s3cret-pass")
    cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "out"), "--base-url", site.url,
                                    "--paint-timeout", "5", "--cache-dir", str(tmp_path / "cache"), "--json"])
    assert cli.exit_code == 0, cli.output
    data = json.loads(cli.stdout)
    assert data["figures"]["mode"] == "screencast"  # the page itself, not the stills fallback
    assert "s3cret-pass" not in cli.output
    frames = rgb_frames(data["video"])
    assert min(f[2] - f[0] for f in frames[-5:]) > 60  # the click turned the private page blue


def test_malformed_credentials_are_a_usage_error(tmp_path, monkeypatch):
    script = tmp_path / "d.py"
    script.write_text(SCRIPT)
    monkeypatch.setenv("DEMO_HTTP_CREDENTIALS", "no-colon")
    cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "out")])
    assert cli.exit_code == 2 and "DEMO_HTTP_CREDENTIALS must be USER:PASSWORD" in cli.output


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
@pytest.mark.parametrize("credentials", ["reviewer:wrong-pass", None])
def test_wrong_or_missing_credentials_say_so_not_a_selector_timeout(site, tmp_path, monkeypatch, credentials):
    script = tmp_path / "private_demo.py"
    script.write_text('def run(d):\n    d.goto("/private")\n    d.wait_for("#go")\n    d.beat("open", say="Hi.")\n')
    if credentials:
        monkeypatch.setenv("DEMO_HTTP_CREDENTIALS", credentials)
    else:
        monkeypatch.delenv("DEMO_HTTP_CREDENTIALS", raising=False)
    cli = CliRunner().invoke(main, ["record", str(script), "--out", str(tmp_path / "out"), "--base-url", site.url,
                                    "--paint-timeout", "5", "--cache-dir", str(tmp_path / "cache"), "-q"])
    assert cli.exit_code == 1
    given = "the credentials in DEMO_HTTP_CREDENTIALS were refused" if credentials else "no credentials were given"
    url = site.url.rstrip("/") + "/private"
    assert f"line 2: goto(url='{url}'): {url} answered 401 Unauthorized: {given}" in cli.output
    assert "DEMO_HTTP_CREDENTIALS=user:password" in cli.output and "did not become visible" not in cli.output
    assert "wrong-pass" not in cli.output


@pytest.mark.chromium
@pytest.mark.ffmpeg
@pytest.mark.espeak
def test_relative_paths_are_taken_from_the_current_directory(site, tmp_path, monkeypatch):
    """--out, the script and --cache-dir given relative to the shell's folder; ffmpeg reads the
    frame lists from inside --out, so a path left relative would point into the wrong folder."""
    (tmp_path / "fixture_demo.py").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    cli = CliRunner().invoke(main, ["record", "fixture_demo.py", "--out", "out/rel", "--base-url", site.url,
                                    "--cache-dir", "cache", "-q", "--json"])
    assert cli.exit_code == 0, cli.output
    result = json.loads(cli.output)
    assert result["video"] == str(tmp_path / "out" / "rel" / "demo.mp4")  # absolute: pasteable, and logged so
    assert media.probe_duration(result["video"]) > 1.0
    monkeypatch.chdir(tmp_path / "out")  # a re-compose from another folder finds the script and the cache
    again = CliRunner().invoke(main, ["compose", "rel", "-q", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["video"] == result["video"]
