"""Pure parts: ffmpeg argument builders, log parsers, sync figures, caption and chapter texts."""
import json
import math

from demo import ffargs, media, outputs, stamps, sync
from demo.plan import Plan
from demo.recorder import stamp_owner
from demo.plan import Step


def test_mix_delays_exactly_and_never_normalises():
    args = ffargs.mix([("a.wav", 0.5, 1.25), ("b.wav", 2.25, -0.5)], 5.0, 3.5, -2.5, "out.wav")
    assert args[:5] == ["ffmpeg", "-i", "a.wav", "-i", "b.wav"]
    graph = args[args.index("-filter_complex") + 1].split(";")
    # ffmpeg-python's graph, compiled: one filter per link, options sorted by name
    assert graph == [
        "[0:a]volume=1.250dB[s0]", "[s0]adelay=all=1:delays=24000S[s1]",
        "[1:a]volume=-0.500dB[s2]", "[s2]adelay=all=1:delays=108000S[s3]",
        "[s1][s3]amix=duration=longest:inputs=2:normalize=0[s4]",
        "[s4]apad=whole_dur=5.000000[s5]", "[s5]atrim=end=5.000000:start=0[s6]", "[s6]volume=3.50dB[s7]",
        "[s7]alimiter=attack=5:latency=1:level=0:limit=0.749894:release=50[s8]",
        "[s8]ebur128=peak=true[s9]", "[s9]aformat=channel_layouts=mono:sample_fmts=s16[s10]"]
    assert args[args.index("-filter_complex") + 2:] == [
        "-map", "[s10]", "-ar", "48000", "-c:a", "pcm_s16le", "-fflags", "+bitexact", "-flags:a", "+bitexact",
        "out.wav", "-hide_banner", "-nostdin", "-y"]


def test_ken_burns_graph_pans_each_still_and_joins_them():
    args = ffargs.ken_burns([("a.jpg", 2.0), ("b.jpg", 1.0)], "o.mp4")
    assert args[:9] == ["ffmpeg", "-framerate", "25", "-loop", "1", "-t", "2.000000", "-i", "a.jpg"]
    graph = args[args.index("-filter_complex") + 1].split(";")
    assert graph[2] == ("[s1]zoompan=d=1:fps=25:s=1280x720:x=iw/2-(iw/zoom/2):y=ih/2-(ih/zoom/2):"
                        "z=min(1+0.10*on/50\\,1.10)[s2]")  # the comma escaped for the graph parser
    assert graph[8] == "[s7]zoompan=d=1:fps=25:s=1280x720:x=(iw-iw/zoom)*on/25:y=ih/2-(ih/zoom/2):z=min(1+0.10*on/25\\,1.10)[s8]"
    assert graph[-1] == "[s5][s11]concat=a=0:n=2:v=1[s12]"
    assert args[args.index("-map") + 1] == "[s12]" and args[args.index("-vcodec") + 1] == "libx264"


def test_one_pass_audio_analysis_and_thumbnails():
    args = ffargs.analyze_audio("v.mp4", "a.wav")
    assert args[args.index("-af") + 1].startswith("silencedetect=n=-45.0dB:d=0.05,ebur128=peak=true,")
    thumbs = ffargs.thumbnails("v.mp4", [0, 12, 40], "t/%04d.jpg")
    assert thumbs[thumbs.index("-vf") + 1] == "select='eq(n,0)+eq(n,12)+eq(n,40)',scale=320:-2"


def test_mix_without_phrases_is_silence_of_the_duration():
    args = ffargs.mix([], 3.0, 0.0, -2.5, "o.wav")
    assert args == ["ffmpeg", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-c:a", "pcm_s16le",
                    "-fflags", "+bitexact", "-flags:a", "+bitexact", "-t", "3.000000", "o.wav",
                    "-hide_banner", "-nostdin", "-y"]


def test_ffconcat_puts_each_frame_in_its_nearest_slot():
    frames = [ffargs.Frame("f0.jpg", 0.0), ffargs.Frame("f1.jpg", 0.51), ffargs.Frame("f2.jpg", 1.25),
              ffargs.Frame("f3.jpg", 1.26)]
    text = ffargs.ffconcat(frames, 0.3, 2.0)
    # slots of 40 ms from 0.3 s: f1 at slot 5 (0.51 -> 0.50), f2 and f3 share slot 24: the later wins
    assert text.splitlines() == [
        "ffconcat version 1.0",
        "file 'f0.jpg'", "duration 0.200000",
        "file 'f1.jpg'", "duration 0.760000",
        "file 'f3.jpg'", "duration 0.720000",
        "file 'f3.jpg'",
    ]
    durations = [float(line.split()[1]) for line in text.splitlines() if line.startswith("duration")]
    assert abs(sum(durations) - 1.68) < 1e-9 and all(abs(d * 25 - round(d * 25)) < 1e-9 for d in durations)


def test_encode_and_mux_arguments():
    enc = ffargs.encode_frames("list.ffconcat", "v.mp4", 12.5)
    assert enc[enc.index("-f") + 1] == "concat" and "fps=25" in enc[enc.index("-vf") + 1]
    assert enc[enc.index("-c:v") + 1] == "libx264" and enc[enc.index("-t") + 1] == "12.500"
    mux = ffargs.mux("v.mp4", "a.wav", "meta.txt", "o.mp4", 12.5)
    assert mux[mux.index("-movflags") + 1] == "+faststart"
    assert mux[mux.index("-c:a") + 1] == "aac" and mux[mux.index("-c:v") + 1] == "copy"
    assert mux[mux.index("-map_chapters") + 1] == "2"


def test_leadin_filters_find_white_black_and_frozen():
    args = ffargs.detect_leadin("v.mp4", 3.0)
    vf = args[args.index("-vf") + 1]
    assert vf.startswith("fps=25,negate,blackdetect=") and vf.count("blackdetect") == 2
    assert vf.endswith("freezedetect=n=-60dB:d=0.3")


def test_ffmetadata_chapters_use_millisecond_timebase():
    text = ffargs.ffmetadata("my=demo", [("open", 0.0, 1.5), ("click; now", 1.5, 3.25)])
    assert text.splitlines() == [
        ";FFMETADATA1", "title=my\\=demo",
        "[CHAPTER]", "TIMEBASE=1/1000", "START=0", "END=1500", "title=open",
        "[CHAPTER]", "TIMEBASE=1/1000", "START=1500", "END=3250", "title=click\\; now",
    ]


def test_phrase_preparation_cuts_silence_and_sets_mono_48k():
    args = ffargs.prepare_phrase("in.wav", "out.wav", -1.25)
    chain = args[args.index("-af") + 1]
    assert chain.startswith("aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,silenceremove=")
    assert "areverse" in chain and chain.endswith("volume=-1.25dB")


def test_parse_silences_and_onsets():
    log = ("[silencedetect @ 0x1] silence_start: 0\n[silencedetect @ 0x1] silence_end: 0.5 | silence_duration: 0.5\n"
           "[silencedetect @ 0x1] silence_start: 1.7\n[silencedetect @ 0x1] silence_end: 2.25 | x\n"
           "[silencedetect @ 0x1] silence_start: 3.1\n")
    silence = media.parse_silences(log, 4.0)
    assert silence == [(0.0, 0.5), (1.7, 2.25), (3.1, 4.0)]
    assert media.speech_onsets(silence, 4.0) == [0.5, 2.25]
    # audio that opens with sound has an onset at 0
    assert media.speech_onsets([(1.0, 1.5)], 3.0) == [0.0, 1.5]


def test_leadin_chains_blank_then_frozen_but_stops_at_the_first_beat():
    intervals = [(0.0, 0.4), (0.38, 1.2), (2.0, 3.0)]
    assert media.leadin_end(intervals, cap=5.0) == 1.2
    assert media.leadin_end(intervals, cap=0.9) == 0.9
    assert media.leadin_end([(0.5, 1.0)], cap=5.0) == 0.0
    log = ("[blackdetect @ 0x1] black_start:0 black_end:0.64 black_duration:0.64\n"
           "[freezedetect @ 0x2] lavfi.freezedetect.freeze_start: 0.6\n"
           "[freezedetect @ 0x2] lavfi.freezedetect.freeze_duration: 0.4\n"
           "[freezedetect @ 0x2] lavfi.freezedetect.freeze_end: 1\n")
    assert media.parse_intervals(log) == [(0.0, 0.64), (0.6, 1.0)]


def test_snap_to_the_frame_that_ended_the_leadin():
    assert media.snap_to_frame(0.16, [0.0, 0.05, 0.197, 0.5], 25) == 0.197
    assert media.snap_to_frame(0.2, [0.0, 0.185, 0.3], 25) == 0.185
    assert media.snap_to_frame(0.0, [0.0, 0.2], 25) == 0.0


def test_parse_loudness_summary():
    log = ("[Parsed_ebur128_0 @ 0x1] t: 1 M: -20 ...\n[Parsed_ebur128_0 @ 0x1] Summary:\n\n  Integrated loudness:\n"
           "    I:         -16.2 LUFS\n    Threshold: -26.4 LUFS\n\n  Loudness range:\n    LRA:   3.1 LU\n\n"
           "  True peak:\n    Peak:       -1.9 dBFS\n")
    assert media.parse_loudness(log) == media.Loudness(-16.2, -1.9)
    assert media.parse_peak("[Parsed_volumedetect_0 @ 0x] max_volume: -3.5 dB") == -3.5


def test_segment_peaks():
    import array
    samples = array.array("h", [0] * 100 + [16384] + [0] * 99 + [-32767] + [0] * 99)
    peaks = media.segment_peaks_db(samples, 100, [(0.5, 1.5), (1.5, 2.5), (2.5, 3.0)])
    assert round(peaks[0], 2) == -6.02 and round(peaks[1], 2) == 0.0 and peaks[2] == float("-inf")


def test_sync_matches_nearest_onset_and_fails_past_one_frame():
    beats = [{"name": "a", "t": 1.0, "say": "x"}, {"name": "b", "t": 3.0, "say": "y"},
             {"name": "quiet", "t": 4.0, "say": ""}]
    matches = sync.match_onsets(beats, [1.002, 1.4, 3.05])
    assert [(m.name, round(m.error, 3)) for m in matches] == [("a", 0.002), ("b", 0.05)]
    s = sync.summary(matches)
    assert s["p95_ms"] == 50.0 and s["ok"] is False and s["missing"] == 0
    missing = sync.summary(sync.match_onsets(beats, [1.0]))
    assert missing["missing"] == 1 and missing["p95_ms"] is None and not missing["ok"]
    assert sync.percentile([5, 1, 3, 2, 4], 50) == 3 and sync.percentile([], 95) == 0.0
    assert math.isinf(sync.percentile([1, math.inf], 95))


def test_captions_chapters_and_beats_json():
    beats = [{"name": "open", "t": 0.0, "say": "Hello <you> & me"}, {"name": "mark", "t": 1.0, "say": ""},
             {"name": "click", "t": 61.5, "say": "Click --> go"}]
    durations = {"open": 0.9, "click": 1.25}
    cues = outputs.cues(beats, durations)
    assert outputs.webvtt(cues).splitlines() == [
        "WEBVTT", "", "1", "00:00:00.000 --> 00:00:00.900", "Hello &lt;you> &amp; me", "",
        "2", "00:01:01.500 --> 00:01:02.750", "Click -> go"]
    assert outputs.srt(cues).splitlines()[1] == "00:00:00,000 --> 00:00:00,900"
    assert outputs.chapters(beats, 70.0) == [("open", 0.0, 1.0), ("mark", 1.0, 61.5), ("click", 61.5, 70.0)]
    assert json.loads(outputs.beats_json(beats))[2] == {"name": "click", "t": 61.5, "say": "Click --> go"}


def test_overruns_name_the_beat_they_delay():
    beats = [{"name": "a", "t": 0.0, "say": "x"}, {"name": "b", "t": 2.0, "say": "y"}]
    assert outputs.overruns(beats, {"a": 1.5, "b": 1.0}, 4.0) == []
    msgs = outputs.overruns(beats, {"a": 2.5, "b": 3.0}, 4.0)
    assert msgs[0] == "phrase of beat 'a' lasts 2.50 s but beat 'b' comes after 2.00 s"
    assert "the end of the video" in msgs[1]


def test_each_beat_is_stamped_by_the_step_before_it():
    plan = Plan("s.py", [Step("goto", {"url": "u"}, 1), Step("beat", {"name": "a"}, 2),
                         Step("click", {"selector": "#x"}, 3), Step("beat", {"name": "b"}, 4),
                         Step("beat", {"name": "c"}, 5)])
    assert stamp_owner(plan) == {1: 0, 3: 2, 4: 2}


def test_first_change_ignores_the_cursor_and_finds_the_page_change():
    from demo import stamps
    w, h = stamps.SMALL
    blank = bytes(w * h)

    def with_box(img, x0, y0, x1, y1, value=200):
        data = bytearray(img)
        for y in range(y0, y1):
            data[y * w + x0:y * w + x1] = bytes([value]) * (x1 - x0)
        return bytes(data)
    mask = stamps.cursor_mask((640, 360), (1280, 720))
    assert mask == (155, 85, 172, 102)
    cursor_only = with_box(blank, 160, 90, 166, 96)  # the arrow pressed at the click point
    page_change = with_box(cursor_only, 10, 10, 40, 30)  # the page reacts
    assert stamps.first_change(blank, [cursor_only, cursor_only, page_change], w, mask) == 2
    assert stamps.first_change(blank, [cursor_only], w, None) == 0  # unmasked, the cursor is the change
    assert stamps.first_change(blank, [cursor_only], w, mask) is None
    noise = with_box(blank, 0, 0, 50, 50, value=stamps.PIXEL_DELTA)  # JPEG noise level: not a change
    assert stamps.first_change(blank, [noise], w, mask) is None


def test_report_escapes_narration_and_shows_the_figures():
    from demo import report
    beats = [{"name": "open", "t": 0.0, "say": "<script>alert(1)</script> & more"},
             {"name": "click", "t": 2.0, "say": "Click."}]
    figures = {"sync": {"ok": True, "p95_ms": 0.4, "p50_ms": 0.1, "missing": 0, "target_ms": 40.0},
               "loudness": {"integrated": -16.1, "true_peak": -2.0, "ok": True}, "peak_spread_db": 0.3,
               "leadin_s": 0.0, "trim_s": 1.23456, "mode": "screencast",
               "delays": [{"beat": "click", "by": 1.5, "phrase_of": "open"}],
               "beats": [{"name": "open", "t": 0.0, "onset": 0.0, "error_ms": 0.0, "peak_db": -2.1},
                         {"name": "click", "t": 2.0, "onset": 2.0004, "error_ms": 0.4, "peak_db": -2.2}]}
    html = report.render(beats, {"open": 1.5, "click": 1.0}, figures, "demo.mp4")
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html
    assert 'src="thumbs/001.jpg"' in html and "2.000" in html and "0.4" in html
    assert "-16.1 LUFS" in html and "trimmed 1.23 s" in html and "click by 1.5 s (phrase of open)" in html
    assert 'class="phrase" style="left: 0.000%; width: 50.000%"' in html


def test_check_rejects_a_malformed_beats_file(tmp_path):
    from click.testing import CliRunner

    from demo.cli import main
    video = tmp_path / "v.mp4"
    video.write_bytes(b"not really a video")
    beats = tmp_path / "beats.json"
    beats.write_text('{"name": "x"}')
    result = CliRunner().invoke(main, ["check", str(video), str(beats)])
    assert result.exit_code == 1 and "expected a JSON array of {name, t, say}" in result.output


def test_mix_splits_a_phrase_used_at_two_beats():
    args = ffargs.mix([("same.wav", 0.5, 1.0), ("other.wav", 1.0, 0.0), ("same.wav", 2.0, 1.0)], 4.0, 0.0, -1.0, "o.wav")
    assert args.count("-i") == 2  # one input per file and gain, split once per use
    graph = args[args.index("-filter_complex") + 1].split(";")
    assert sum(f.startswith("[s0]asplit=2") for f in graph) == 1
    delays = [f.split("delays=")[1].split("[")[0] for f in graph if "adelay" in f]
    assert sorted(delays) == ["24000S", "48000S", "96000S"]


def test_jpeg_size_reads_the_frame_header_after_other_segments():
    app0 = b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    dht = b"\xff\xc4\x00\x05\x00\x00\x00"  # a C4 segment is a table, not a frame header
    sof = b"\xff\xc0\x00\x11\x08\x02\xd0\x04\x73\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    assert stamps.jpeg_size(b"\xff\xd8" + app0 + dht + sof + b"\xff\xda") == (1139, 720)
    assert stamps.jpeg_size(b"\xff\xd8" + app0 + b"\xff\xff" + sof) == (1139, 720)  # fill byte
    assert stamps.jpeg_size(b"\x89PNG\r\n") is None
    assert stamps.jpeg_size(b"\xff\xd8" + app0) is None
