"""A :class:`~millebornes.env.batch.GameBatch` spread over worker processes, its arrays in shared memory.

Each worker steps its slice of the matches and writes straight into the shared arrays, so a step costs one
message to each worker and one answer, whatever the batch size; the matches are the same as in one process
only when ``workers`` is 1 (each worker draws its deals from its own seed).

>>> batch = ProcessBatch(4, workers=2, opponents="random")
>>> batch.reset(seed=2)
>>> batch.step([int(m.nonzero()[0][0]) for m in batch.masks])
>>> batch.observations.shape, bool(batch.masks.any(axis=1).all())
((4, 258), True)
>>> batch.close()
"""

from __future__ import annotations

import multiprocessing
import random
import weakref
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np

from .batch import GameBatch, buffer_layout


def _arrays(memory: SharedMemory, num_games: int, players: int) -> dict[str, np.ndarray]:
    """The batch's arrays laid one after the other in ``memory``, and the actions after them."""
    out: dict[str, np.ndarray] = {}
    offset = 0
    for name, shape, dtype in [*buffer_layout(num_games, players), ("actions", (num_games,), np.int64)]:
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        out[name] = np.ndarray(shape, dtype=dtype, buffer=memory.buf, offset=offset)
        offset += -(-size // 8) * 8
    return out


def _size(num_games: int, players: int) -> int:
    layout = [*buffer_layout(num_games, players), ("actions", (num_games,), np.int64)]
    return sum(-(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 8) * 8 for _, shape, dtype in layout)


def _release(memory: SharedMemory) -> None:
    try:
        memory.unlink()
    except FileNotFoundError:  # close() did it
        pass


def _serve(conn: Connection, name: str, num_games: int, lo: int, hi: int, table: dict[str, Any]) -> None:
    """A worker: steps matches lo..hi of the shared batch on each message, until told to stop."""
    memory = SharedMemory(name=name)
    try:
        arrays = _arrays(memory, num_games, table["players"])
        mine = {key: a[lo:hi] for key, a in arrays.items() if key != "actions"}
        batch = GameBatch(hi - lo, buffers=mine, **table)
        actions = arrays["actions"][lo:hi]
        while True:
            what, arg = conn.recv()
            if what == "reset":
                batch.reset(arg)
            elif what == "step":
                batch.step(actions)
            else:
                break
            conn.send(None)
        del arrays, mine, actions, batch
    finally:
        memory.close()


class ProcessBatch:
    """``num_games`` matches over ``workers`` processes, with the arrays and ``reset``/``step`` of a GameBatch."""

    def __init__(self, num_games: int, workers: int = 2, **table: Any):
        table.setdefault("players", 2)
        GameBatch(1, **table)  # ValueError here, not in a worker, for a bad table
        workers = max(1, min(workers, num_games))
        self.num_games = num_games
        """How many matches the batch holds."""
        self._memory = SharedMemory(create=True, size=_size(num_games, table["players"]))
        arrays = _arrays(self._memory, num_games, table["players"])
        self.observations: np.ndarray = arrays["observations"]
        """Each match's observation vector, of its row's seat."""
        self.masks: np.ndarray = arrays["masks"]
        """Each match's action mask: the legal codes of its row's seat."""
        self.rewards: np.ndarray = arrays["rewards"]
        """What each seat of each match earned in the last step."""
        self.terminated: np.ndarray = arrays["terminated"]
        """Whether each match ended in the last step (the next step deals a new one)."""
        self.seats: np.ndarray = arrays["seats"]
        """The seat each row shows."""
        self._actions = arrays["actions"]
        bounds = [num_games * w // workers for w in range(workers + 1)]
        context = multiprocessing.get_context("spawn")
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        weakref.finalize(self, _release, self._memory)  # a batch dropped without close() frees its memory
        for w in range(workers):
            mine, theirs = context.Pipe()
            args = (theirs, self._memory.name, num_games, bounds[w], bounds[w + 1], table)
            proc = context.Process(target=_serve, args=args, daemon=True)
            proc.start()
            self._conns.append(mine)
            self._procs.append(proc)

    def _all(self, what: str, args: Sequence[Any]) -> None:
        for conn, arg in zip(self._conns, args):
            conn.send((what, arg))
        for conn in self._conns:
            conn.recv()

    def reset(self, seed: int | None = None) -> None:
        """Deal every match again; a seed gives each worker a seed of its own drawn from it."""
        rng = random.Random(seed)
        self._all("reset", [None if seed is None else rng.getrandbits(63) for _ in self._conns])

    def step(self, actions: Sequence[int] | np.ndarray) -> None:
        """Play each match's action (see :meth:`GameBatch.step`)."""
        self._actions[:] = np.asarray(actions)
        self._all("step", [None] * len(self._conns))

    def __enter__(self) -> ProcessBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers and free the shared memory."""
        if not self._procs:
            return
        for conn in self._conns:
            conn.send(("close", None))
        for proc in self._procs:
            proc.join(timeout=10)
        self._procs = []
        del self.observations, self.masks, self.rewards, self.terminated, self.seats, self._actions
        self._memory.close()
        self._memory.unlink()
