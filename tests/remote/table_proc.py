"""A joined table in its own process, so a test can kill it (SIGKILL: no goodbye to the
broker). Prints each entry it applies as a JSON line.

    python -m tests.remote.table_proc PORT TABLE SEAT KEYS_FILE
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from botboard.remote.events import Event
from botboard.remote.protocol import Entry
from botboard.remote.local_broker import ROOM_KEY
from botboard.remote.room import JoinedRoom
from botboard.remote.table_keys import identity as table_identity
from botboard.remote.url import RemoteUrl


def show(event: Event) -> None:
    if isinstance(event, Entry):
        print(json.dumps({"epoch": event.epoch, "n": event.n, "public": event.public}), flush=True)


async def main(port: int, table: str, seat: int, keys: Path) -> None:
    url = RemoteUrl("127.0.0.1", port, "club", key=ROOM_KEY)
    room = JoinedRoom(url, table, seats=[seat], on_event=show, identity=table_identity(keys),
                      keepalive=2, backoff=(0.05, 0.3))
    await room.start()
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])))
