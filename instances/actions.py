"""What the supervisor or doctor did to an instance, on its record (`ls` shows it) and in its log."""
import time


def note(mgr, name: str, text: str, by: str = "supervisor") -> None:
    """Put TEXT on NAME's record (shown by `ls`) and append it to the instance's log."""
    now = time.time()
    mgr.mark(name, last_action={"at": now, "by": by, "text": text})
    log = mgr.log_path(name)
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as fh:
        fh.write(f"--- instances {by}: {text} at {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(now))}\n")
