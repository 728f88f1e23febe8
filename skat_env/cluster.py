"""Jobs as Ray tasks on a cluster: the one place that reaches, starts and stops a Ray session
(the benchmark panel and the distillation shards send their work through it)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

Key = TypeVar("Key")


class ClusterError(RuntimeError):
    """Ray is missing, or no cluster answers at the address."""


def ray_tasks(fn: Callable[..., Any], shared: Any, jobs: Iterable[tuple[Key, tuple[Any, ...]]],
              address: str) -> Iterator[tuple[Key, Any]]:  # fmt: skip
    """``fn(shared, *args)`` for each ``(key, args)`` of ``jobs`` as a Ray task of one CPU on
    the cluster at ``address``; yields ``(key, result)`` as the tasks finish. ``shared`` is
    sent once (``ray.put``). A Ray session already started in this process (``ray.init``) is
    used as it is and left running; one started here is shut down at the end."""
    try:
        import ray
    except ImportError:
        raise ClusterError("a Ray cluster needs Ray: pip install 'skat-env[cluster]'") from None
    started = not ray.is_initialized()
    if started:
        _check_reachable(address)
        try:
            ray.init(address=address, log_to_driver=False)
        except ConnectionError as e:
            raise ClusterError(f"cannot reach a Ray cluster at {address!r}: {e}") from None
    try:
        remote = ray.remote(num_cpus=1)(fn)
        ref = ray.put(shared)
        pending = {remote.remote(ref, *args): key for key, args in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            key = pending.pop(ready[0])
            yield key, ray.get(ready[0])
    finally:
        if started:
            ray.shutdown()


def _check_reachable(address: str) -> None:
    """Fail fast where nothing answers at ``HOST:PORT`` (Ray itself retries for minutes)."""
    host, colon, port = address.rpartition(":")
    if "://" in address or not colon or not port.isdigit():
        return  # auto, or a ray:// client address: Ray reports those quickly
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as e:
        raise ClusterError(f"cannot reach a Ray cluster at {address!r}: {e}") from None
