import tempfile

import pytest


@pytest.fixture(autouse=True)
def own_tempdir(tmp_path, monkeypatch):
    """The manual's lock file lives in the temporary folder (one per manual, kept, as flock
    files are): each test gets its own, so runs leave nothing behind in the machine's."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)     # gettempdir() reads TMPDIR again
