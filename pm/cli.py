"""The `pm` command: pm.commands' click group (the one CLI definition)."""
import sys


def main(argv=None):
    import gc
    # A pm call lives for milliseconds and makes ~100,000 small objects at 100,000 tasks;
    # the cyclic collector would walk them over and over (measured: 3x slower listing).
    gc.disable()
    from pm.commands import cli
    cli.main(args=sys.argv[1:] if argv is None else list(argv), prog_name="pm")


def __getattr__(name):
    if name == "cli":
        from pm.commands import cli
        return cli
    raise AttributeError(name)


if __name__ == "__main__":
    main()
