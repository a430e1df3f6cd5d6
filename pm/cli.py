"""The `pm` command. The hottest commands (ls, ready, show, next, status, start, done, claim,
log) run through pm.fast without importing click, which keeps `pm show` near Python's own
start-up time; anything else, and any option the fast path does not know, goes to click."""
import sys


def main(argv=None):
    import gc
    # A pm call lives for milliseconds and makes ~100,000 small objects at 100,000 tasks;
    # the cyclic collector would walk them over and over (measured: 3x slower listing).
    gc.disable()
    argv = sys.argv[1:] if argv is None else list(argv)
    from pm.fast import run_fast
    code = run_fast(argv)
    if code is not None:
        sys.exit(code)
    from pm.commands import cli
    cli.main(args=argv, prog_name="pm")


def __getattr__(name):
    if name == "cli":
        from pm.commands import cli
        return cli
    raise AttributeError(name)


if __name__ == "__main__":
    main()
