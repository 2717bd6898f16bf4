"""Writing a tile payload to the tag on a slot's reader, through the board."""

from __future__ import annotations

import asyncio

from bbshared import messages as m

from ..patience import load_factor
from .connection import BoardConnection, Message


class TagWriteError(RuntimeError):
    """The board could not write the tag; the message says why and what to do."""


# A write takes the board about 0.1 s; a board starved of CPU (a loaded host running the
# simulated one) may take seconds, and slow is never wrong: the wait, for an idle machine, is
# stretched by the load (botboard.patience). A firmware that does not know the message says so
# at once (E_UNKNOWN_TYPE), so this long wait only meets a lost board.
WRITE_WAIT_S = 20.0


async def write_tag(conn: BoardConnection, slot: int, payload: bytes, timeout: float = WRITE_WAIT_S) -> bytes:
    """Write ``payload`` to the tag on ``slot``; return the tag's uid."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Message] = loop.create_future()

    def listen(msg: Message) -> None:
        if answer.done():
            return
        if msg.type == m.TAG_WRITTEN and msg.fields["slot"] == slot:
            answer.set_result(msg)
        elif msg.type == m.ERROR and msg.fields["code"] == m.E_UNKNOWN_TYPE and msg.fields["ref"] == m.WRITE_TAG:
            answer.set_exception(TagWriteError(
                "the board's firmware cannot write tags (older than the host): update it with 'botboard deploy'"))

    timeout *= load_factor()
    conn.listeners.append(listen)
    try:
        conn.send(m.WRITE_TAG, slot, payload)
        try:
            msg = await asyncio.wait_for(answer, timeout)
        except asyncio.TimeoutError:
            raise TagWriteError(f"the board did not answer the write on slot {slot} within "
                                f"{timeout:.0f} s: is it still connected? Check its cable and try again") from None
    finally:
        conn.listeners.remove(listen)
    status = msg.fields["status"]
    if status:
        why = m.TAG_STATUS[status] if status < len(m.TAG_STATUS) else f"status {status}"
        hint = ("put a tag on the reader" if status in (1, 6) else
                "keep one tag still on the reader and try again")
        raise TagWriteError(f"slot {slot}: writing the tag failed ({why}): {hint}")
    uid: bytes = msg.fields["uid"]
    return uid
