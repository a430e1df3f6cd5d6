"""Classifying git's unified diffs for colouring."""
from pm.web.diffs import DiffLine, diff_lines, diff_stats

DIFF = """diff --git a/tasks/412-fix.html b/tasks/412-fix.html
index 3b18e51..a9c3f2d 100644
--- a/tasks/412-fix.html
+++ b/tasks/412-fix.html
@@ -4,3 +4,3 @@
 <meta name="pm:id" content="412">
-<meta name="pm:status" content="open">
+<meta name="pm:status" content="in-progress">
 <meta name="pm:priority" content="P1">
\\ No newline at end of file
"""


def test_lines_are_typed_and_header_noise_dropped():
    assert diff_lines(DIFF) == [
        DiffLine("file", "tasks/412-fix.html"),
        DiffLine("hunk", "@@ -4,3 +4,3 @@"),
        DiffLine("ctx", '<meta name="pm:id" content="412">'),
        DiffLine("del", '<meta name="pm:status" content="open">'),
        DiffLine("add", '<meta name="pm:status" content="in-progress">'),
        DiffLine("ctx", '<meta name="pm:priority" content="P1">'),
        DiffLine("meta", "\\ No newline at end of file"),
    ]


def test_new_file_header_is_kept_and_plus_lines_counted():
    diff = "diff --git a/t.html b/t.html\nnew file mode 100644\n--- /dev/null\n+++ b/t.html\n@@ -0,0 +1,2 @@\n+a\n+b\n"
    lines = diff_lines(diff)
    assert DiffLine("meta", "new file mode 100644") in lines
    assert diff_stats(lines) == (2, 0)


def test_content_lines_that_look_like_headers_stay_content():
    lines = diff_lines("diff --git a/x b/x\n@@ -1 +1 @@\n---- not a header\n+++++ neither\n")
    assert lines[2:] == [DiffLine("del", "--- not a header"), DiffLine("add", "++++ neither")]


def test_empty_diff():
    assert diff_lines("") == [] and diff_stats([]) == (0, 0)
