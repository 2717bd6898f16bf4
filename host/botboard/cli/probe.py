"""``botboard probe``: connect to a board, shake hands and print what it is."""

from __future__ import annotations

import argparse
import asyncio
import json

from . import checks
from . import values


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("probe", help="handshake with a board and print its capabilities as JSON")
    p.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0 or /dev/pts/5")
    p.add_argument("--timeout", type=values.number(0.01, 3600), default=3.0, help="seconds to wait for an answer")
    p.set_defaults(func=_run, preflight=lambda args: checks.port(args.port))


def _run(args: argparse.Namespace) -> int:
    from ..link.connection import BoardConnection, HandshakeError, info_json
    from ..link.transport import PortError
    from . import CliError

    checks.port(args.port)

    async def probe() -> dict[str, object]:
        conn = BoardConnection(args.port)
        try:
            info = await conn.connect(args.timeout)
            rtt = await conn.ping(args.timeout)
            return info_json(info, rtt)
        finally:
            conn.close()

    try:
        result = asyncio.run(probe())
    except (PortError, HandshakeError) as err:
        raise CliError(str(err)) from err
    except asyncio.TimeoutError as err:
        raise CliError(f"the board on {args.port} did not answer a ping") from err
    print(json.dumps(result))
    return 0
