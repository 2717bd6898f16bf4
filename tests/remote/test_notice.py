"""What the players hear of their link (notice.py): one line for an outage, none for a blip."""

from __future__ import annotations

import asyncio

from botboard.remote.notice import LinkNotice

from .. import patience


def test_a_blip_says_nothing_an_outage_says_down_once_and_back_once() -> None:
    async def check() -> None:
        said: list[str] = []
        notice = LinkNotice(said.append, grace=0.2, stable=60)
        for _ in range(20):  # pushed off and back at once, again and again
            notice.change(False, "pushed off")
            notice.change(True)
        await patience.aquiet(0.4)
        assert said == []
        notice.change(False, "connection refused")
        await patience.until(lambda: said, 5, "the down line")
        for _ in range(20):  # it flaps for a while: the same outage
            notice.change(True)
            notice.change(False, "connection refused")
        await patience.aquiet(0.4)
        notice.change(True)
        notice.close()
        assert said == ["the link to the broker is down (connection refused); play goes on when it is back",
                        "the link to the broker is back"]

    asyncio.run(check())
