"""A byte channel that corrupts, drops, inserts and stalls, on a virtual clock."""

from __future__ import annotations

import random
from typing import Callable

from bbshared.link import Link


class LossyPipe:
    """One direction of a link: bytes written now arrive later, some damaged."""

    def __init__(self, rng: random.Random, error_rate: float, stall_rate: float) -> None:
        self.rng = rng
        self.error_rate = error_rate
        self.stall_rate = stall_rate
        self.buffer = bytearray()
        self.stalled_until = 0

    def write(self, data: bytes) -> None:
        for b in data:
            if self.rng.random() < self.error_rate:
                kind = self.rng.randrange(3)
                if kind == 0:
                    self.buffer.append(b ^ (1 << self.rng.randrange(8)))
                elif kind == 1:
                    continue  # dropped
                else:
                    self.buffer += bytes((b, self.rng.randrange(256)))
            else:
                self.buffer.append(b)

    def deliver(self, now: int, feed: Callable[[bytes], None]) -> None:
        if now < self.stalled_until or not self.buffer:
            return
        if self.rng.random() < self.stall_rate:
            self.stalled_until = now + self.rng.randrange(20, 400)
            return
        n = self.rng.randrange(1, 64)
        chunk, self.buffer[:n] = bytes(self.buffer[:n]), b""
        feed(chunk)


class LinkPair:
    """Two Link ends (board, host) joined by two lossy pipes and one clock."""

    def __init__(self, seed: int, error_rate: float = 0.01, stall_rate: float = 0.002) -> None:
        rng = random.Random(seed)
        self.now = 0
        self.to_host = LossyPipe(rng, error_rate, stall_rate)
        self.to_board = LossyPipe(rng, error_rate, stall_rate)
        self.at_host: list[tuple[int, bytes]] = []
        self.at_board: list[tuple[int, bytes]] = []
        clock = lambda: self.now  # noqa: E731
        self.board = Link(self.to_host.write, clock, lambda t, p, v: self.at_board.append((t, p)))
        self.host = Link(self.to_board.write, clock, lambda t, p, v: self.at_host.append((t, p)),
                         max_queue=100_000)

    def step(self) -> None:
        self.now += 1
        self.to_host.deliver(self.now, self.host.feed)
        self.to_board.deliver(self.now, self.board.feed)
        self.board.poll()
        self.host.poll()
