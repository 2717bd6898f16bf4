"""Legal actions as a lazy sequence: indexed and counted without being built.

Some games have very many legal actions at once (a BotWars hand of 9 cards
gives 30,240 programs): listing them all would cost more than the game.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Sequence, TypeVar, overload

A = TypeVar("A")


class LazyActions(Sequence[A]):
    """Subclasses give ``__len__`` and ``_at(index)`` for ``0 <= index < len(self)``."""

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def _at(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: int) -> A: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[A]: ...

    def __getitem__(self, index: int | slice) -> A | Sequence[A]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._at(index)
