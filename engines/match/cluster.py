"""RayPool: the match runner's pool on a Ray cluster - a local one on this machine's cores, or
an existing one (`ray start --head` on one machine, `ray start --address=HEAD:6379` on others).

The same small interface as the runner's LocalPool: `run(fn, items)` yields `(item, fn(item))`
as games finish, in any order, `close()` stops. `fn` is a module-level function (Ray sends it by
reference, so every node imports it from its own copy of the project) and items and results are
picklable.

Failures, explicitly:
- a worker process or a node that dies mid-task (kill -9, out of memory, a node lost) is a
  *system* failure: Ray runs the task again, up to `max_retries` times (`max_retries=3` on
  every task). The driver holds one ObjectRef per item and yields it once when it is ready, so a
  retried item's result is yielded exactly once. What the killed attempt did before it died is
  not undone: `fn` must be safe to run again for the same item (a game with a fixed seed is).
- an exception raised by `fn` itself is an *application* error: `retry_exceptions=False`, so it
  is not retried; the iterator raises that exception (its remote traceback attached as a note)
  and cancels the items still pending.

Ray is optional (`pip install 'soloshop[cluster]'`): this module imports it only when a pool is
created, and nothing else in the project imports it.
"""
from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from plumbing.errors import NamedError

INSTALL_HINT = "pip install 'soloshop[cluster]'"
MAX_RETRIES = 3  # re-runs of a task whose worker or node died; fn's own exceptions: none


class RayNotInstalled(NamedError):
    """The cluster backend was asked for, but Ray is not importable."""


class ClusterError(NamedError):
    """The cluster could not run a task or lacks something a game needs; names node and fix."""


def _ray():
    try:
        import ray
    except ImportError:
        raise RayNotInstalled(f"Ray is not installed: {INSTALL_HINT}") from None
    return ray


def _apply(fn: Callable[[Any], Any], item: Any) -> Any:
    """The body of every task: fn travels by reference, so workers import it themselves."""
    return fn(item)


def missing_programs(commands: list[str]) -> list[str]:
    """What each command needs that this machine lacks: its program, on PATH or at its path."""
    missing = []
    for command in commands:
        argv = shlex.split(command)
        if not argv:
            missing.append(f"{command!r} (an empty command)")
            continue
        program = argv[0]
        if os.sep in program:
            if not os.path.isfile(program):
                missing.append(f"{program} (no such file)")
            elif not os.access(program, os.X_OK):
                missing.append(f"{program} (not executable)")
        elif shutil.which(program) is None:
            missing.append(f"{program} (not on PATH={os.environ.get('PATH', '')})")
    return missing


def _node_report(commands: list[str]) -> list[str]:
    return missing_programs(commands)


def _connect_failure(address: str | None, error: Exception) -> str:
    message = f"cannot connect to the Ray cluster at {address}: {error}"
    auth = os.environ.get("RAY_AUTH_MODE")
    if auth is None and address not in (None, "auto"):
        # Ray (2.60) sends its token to an explicit address only when told to.
        message += ("; if the cluster uses token authentication (Ray's default), set "
                    "RAY_AUTH_MODE=token here, with the head's ~/.ray/auth_token copied to this "
                    "machine's ~/.ray/auth_token (or its text in RAY_AUTH_TOKEN)")
    return message + ("; else start the cluster with `ray start --head` (the same checkout and "
                      "venv on every node), or leave the address and RAY_ADDRESS unset for a "
                      "local cluster")


def _absolute(command: str) -> str:
    """A relative program path (./engine) means the driver's directory, on every node."""
    argv = shlex.split(command)
    if argv and os.sep in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.abspath(argv[0])
        return shlex.join(argv)
    return command


class RayPool:
    """Runs `fn(item)` as Ray tasks, `num_cpus_per_game` CPUs each, a bounded number in flight.

    ADDRESS (or RAY_ADDRESS) connects to a running cluster; neither starts a local one with
    `ray.init(num_cpus=...)` (INIT_KWARGS are passed to ray.init and win), which close() stops.
    """

    def __init__(self, address: str | None = None, num_cpus_per_game: float = 1,
                 init_kwargs: dict | None = None, *, max_in_flight: int | None = None,
                 max_retries: int = MAX_RETRIES):
        ray = _ray()
        self._ray = ray
        self.num_cpus_per_game = num_cpus_per_game
        self.max_retries = max_retries
        self._max_in_flight = max_in_flight
        self._pending: set = set()
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        if self.address == "local":
            self.address = None
        kwargs = {"logging_level": logging.WARNING, "include_dashboard": False}
        if self.address is None:
            kwargs["num_cpus"] = os.cpu_count() or 1
        kwargs.update(init_kwargs or {})
        self.started = False  # True when this pool started the cluster (and so stops it)
        self._connected = False  # True when this pool called ray.init (and so disconnects)
        if not ray.is_initialized():  # else the caller's own ray.init stays the caller's
            try:
                # "local": a new cluster even where `ray start` left /tmp/ray/ray_current_cluster
                ray.init(address=self.address or "local", **kwargs)
            except (ConnectionError, ray.exceptions.AuthenticationError) as error:
                raise ClusterError(_connect_failure(self.address, error)) from None
            self._connected = True
            self.started = self.address is None
        self._task_options = {"num_cpus": num_cpus_per_game, "max_retries": max_retries,
                              "retry_exceptions": False}

    # The pool interface -------------------------------------------------------------------
    def run(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        """Yield (item, fn(item)) for every item as each finishes (unordered), exactly once."""
        ray = self._ray
        queue = iter(items)
        limit = self.max_in_flight()
        # Named after FN, so a worker playing shows as `ray::play_one` in ps and `ray status`.
        task = ray.remote(_apply).options(name=getattr(fn, "__name__", "task"),
                                          **self._task_options)
        running: dict = {}  # ObjectRef -> item
        try:
            while True:
                while len(running) < limit:
                    item = next(queue, _END)
                    if item is _END:
                        break
                    ref = task.remote(fn, item)
                    running[ref] = item
                    self._pending.add(ref)
                if not running:
                    return
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    item = running.pop(ref)
                    self._pending.discard(ref)
                    yield item, self._result(ref, item)
        finally:
            self._cancel(running)

    def close(self) -> None:
        """Cancel what is still pending; stop the cluster if this pool started it."""
        ray = self._ray
        if not ray.is_initialized():
            return
        self._cancel(list(self._pending))
        if self._connected:  # stops the cluster too when this pool started it
            ray.shutdown()
            self._connected = self.started = False

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # Cluster facts ------------------------------------------------------------------------
    def max_in_flight(self) -> int:
        """Tasks submitted at once: given, or twice what the cluster's CPUs run at a time."""
        if self._max_in_flight:
            return self._max_in_flight
        cpus = self._ray.cluster_resources().get("CPU", 1)
        return max(1, int(2 * cpus / max(self.num_cpus_per_game, 1e-9)))

    def nodes(self) -> list[dict]:
        return [node for node in self._ray.nodes() if node.get("Alive")]

    def conditions(self) -> dict:
        """For results.json: where the games ran."""
        nodes = self.nodes()
        return {"pool": "ray", "ray": self._ray.__version__,
                "address": self.address or "local", "nodes": len(nodes),
                "cpus": sum(n.get("Resources", {}).get("CPU", 0) for n in nodes),
                "cpus_per_game": self.num_cpus_per_game}

    def check_nodes(self, commands: list[str]) -> None:
        """Check on every alive node that each command's program is there and executable."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        ray = self._ray
        commands = [_absolute(c) for c in commands]
        probe = ray.remote(_node_report)
        refs = {}
        for node in self.nodes():
            strategy = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            ref = probe.options(num_cpus=0, max_retries=1,
                                scheduling_strategy=strategy).remote(commands)
            refs[ref] = (f"{node.get('NodeManagerHostname', '?')} "
                         f"({node['NodeManagerAddress']}, id {node['NodeID'][:8]})")
        problems = []
        for ref, name in refs.items():
            try:
                missing = ray.get(ref, timeout=120)
            except Exception as error:  # the node could not run the project's code at all
                problems.append(
                    f"node {name} could not run soloshop's check ({type(error).__name__}: "
                    f"{str(error).strip().splitlines()[-1] if str(error).strip() else ''}); "
                    "every node needs the same checkout and venv at the same path, with its "
                    "`ray start` run from that venv")
                continue
            if missing:
                problems.append(f"node {name} lacks {', '.join(missing)}")
        if problems:
            raise ClusterError(
                "; ".join(problems) + ". Fix: install the engines on those nodes at the same "
                "paths (`make venv` in the same checkout builds the project's own), or give "
                "commands whose programs exist on every node")

    # Internals ----------------------------------------------------------------------------
    def _result(self, ref, item):
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as error:  # fn raised: the application's error
            cause = error.cause
            if isinstance(cause, BaseException) and not isinstance(cause, ray.exceptions.RayError):
                remote = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # its traceback, uncoloured
                cause.add_note(f"raised on a Ray worker for item {item!r}: {remote}")
                raise cause from None
            raise
        except ray.exceptions.RayError as error:  # retries exhausted, node lost, cancelled
            raise ClusterError(
                f"the Ray cluster lost item {item!r} after {self.max_retries} retries "
                f"({type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}); "
                "check the nodes' memory and `ray status`") from None

    def _cancel(self, refs) -> None:
        ray = self._ray
        if not ray.is_initialized():
            return
        for ref in list(refs):
            self._pending.discard(ref)
            try:
                ray.cancel(ref)  # KeyboardInterrupt in a running task, so its `with`s clean up
            except Exception:
                pass


_END = object()
