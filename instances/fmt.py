"""Pure formatting for what `instances` prints: byte counts, ages and timestamps (no I/O)."""
from datetime import datetime, timezone


def iso(ts: float | None) -> str | None:
    """A Unix time as an ISO 8601 UTC string to the second; None (or 0) stays None."""
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="seconds") if ts else None


def fmt_bytes(n: int | None) -> str:
    """'512 B', '1.5 KiB', '128.0 MiB', '2.0 GiB'; None is '-'."""
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def fmt_age(seconds: float | None) -> str:
    """'4m05s' under an hour, '2h07m' from an hour on; None is '-'."""
    if seconds is None:
        return "-"
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"
