"""Where tournament work runs: one interface, a local process pool or a Ray cluster.

An executor has ``map_unordered(fn, items)``, which yields ``fn(item)`` for every item as each
finishes (in any order), and ``close()``; both are context managers.  ``fn`` must be a module-level
function and the items picklable.

>>> with LocalExecutor(1) as ex:
...     sorted(ex.map_unordered(abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Generic, Self, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_T = TypeVar("_T")  # an item of work
_R = TypeVar("_R")  # the result of one


class Executor:
    """The interface every backend keeps, so tournaments and self-play need not know where they run."""

    workers = 1
    """How many items run at once: callers size their batches from it."""

    def map_unordered(self, fn: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
        """``fn(item)`` for every item, yielded as each finishes: the fastest way to consume results."""
        raise NotImplementedError

    def map(self, fn: Callable[[_T], _R], items: Iterable[_T]) -> list[_R]:
        """Results in the order of ``items``."""
        indexed = list(self.map_unordered(_Indexed(fn), list(enumerate(items))))
        return [result for _, result in sorted(indexed, key=lambda pair: pair[0])]

    def close(self) -> None:
        """Release the workers; the executor is not used afterwards."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Indexed(Generic[_T, _R]):
    """``fn`` applied to the item of an ``(index, item)`` pair, keeping the index (picklable)."""

    def __init__(self, fn: Callable[[_T], _R]):
        self.fn = fn

    def __call__(self, pair: tuple[int, _T]) -> tuple[int, _R]:
        index, item = pair
        return index, self.fn(item)


def _call(fn: Callable[[_T], _R], item: _T) -> _R:
    return fn(item)


class LocalExecutor(Executor):
    """A pool of ``workers`` processes on this machine; ``workers=1`` runs in this process, no pool.

    The pool forks on Linux (cheap start, no re-import) and spawns elsewhere, as Python does by default: macOS's
    system libraries are not safe across a fork, and Windows cannot fork. It is started on first use.
    """

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._pool

    def map_unordered(self, fn: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
        """Items run in the pool (or here, one after the other, with one worker); unsent work is cancelled
        when the caller stops early."""
        if self.workers == 1:
            for item in items:
                yield fn(item)
            return
        from concurrent.futures import as_completed

        pool = self._get_pool()
        futures = [pool.submit(fn, item) for item in items]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        """Shut the pool down (waiting for running work, cancelling the rest); it restarts on next use."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayExecutor(Executor):
    """Tasks on a Ray cluster: ``address`` connects to a running one (``"auto"``, ``"ray://host:10001"``),
    otherwise a local one is started with ``num_cpus`` CPUs (all by default) and shut down by ``close()``.

    Needs the ``ray`` extra (``pip install 'millebornes[ray]'``); the cluster's workers must be able
    to import ``millebornes``.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None):
        try:
            import ray
        except ImportError:
            raise RuntimeError("the Ray backend needs Ray: pip install 'millebornes[ray]'") from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:  # a new local instance, never a stray one
                ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            self._started = True
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]  # Ray leaves it unannotated
        self.workers = max(1, int(resources.get("CPU", num_cpus or 1)))

    def map_unordered(self, fn: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
        """Every item a Ray task; the tasks left are cancelled when the caller stops early."""
        ray = self._ray
        remote = ray.remote(_call)  # ray.remote takes functions, not callable objects such as _Indexed
        pending = [remote.remote(fn, item) for item in items]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:
                try:
                    ray.cancel(ref)
                except Exception:
                    pass

    def close(self) -> None:
        """Shut down the local cluster this executor started; a cluster it joined is left running."""
        if self._started:
            self._started = False
            self._ray.shutdown()


def make_executor(backend: str = "local", workers: int | None = None, address: str | None = None) -> Executor:
    """The executor for a backend name: ``local`` (process pool of ``workers``) or ``ray``."""
    if backend == "local":
        return LocalExecutor(workers)
    if backend == "ray":
        return RayExecutor(address=address, num_cpus=None if address else workers)
    raise ValueError(f"no backend {backend!r}: choose local or ray")
