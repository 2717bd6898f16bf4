"""One MQTT connection that comes back: after a broker restart or a dropped link it
reconnects with growing delays (backoff), then lets its room subscribe and republish.

Messages go to ``on_message`` one at a time, in the order the broker sent them; a publish
while the link is down does not raise but says False (the room's catch-up and resend
recover what was not sent).

The link speaks MQTT 5 to announce a Maximum Packet Size (MAX_PACKET): the broker then never
sends this client a larger message (it drops it instead), so an oversized message is refused
before this process reads a byte of it, even on a broker that sets no limit of its own.

Each connection has a fresh random client id: a broker pushes off the older of two clients
with one id, so an id anyone can work out (the table's name) lets a stranger push a table
off at will. Nothing is asked of the broker's session (clean start): what a table must keep
across connections (entries, unanswered proposals) the room keeps itself.

Incoming messages wait in an ``Inbox`` (inbox.py): bounded, with the room's cheap checks
before anything is kept.
"""

from __future__ import annotations

import asyncio
import logging
import errno
import functools
import random
import secrets
import socket
import ssl
from collections.abc import Awaitable, Callable

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..patience import load_factor
from .inbox import Inbox, OnDrop, Sort
from .protocol import MAX_MESSAGE
from .seal import OVERHEAD
from .url import RemoteUrl

log = logging.getLogger(__name__)

OnMessage = Callable[[str, bytes], Awaitable[None]]
OnConnect = Callable[[], Awaitable[None]]
OnState = Callable[[bool, str | None], None]
# the largest MQTT packet either way: a sealed message of MAX_MESSAGE bytes, its topic and headers
MAX_PACKET = MAX_MESSAGE + OVERHEAD + 512
SILENT_S = 4.0  # a broker that has not answered by then is said to the terminal (a black hole takes 10 s)


class Link:
    def __init__(self, url: RemoteUrl, name: str, *, on_connect: OnConnect, on_message: OnMessage,
                 on_state: OnState, will: tuple[str, bytes] | None = None, keepalive: int = 30,
                 backoff: tuple[float, float] = (0.5, 30.0), tls_context: ssl.SSLContext | None = None,
                 timeout: float = 10.0, sort: Sort = lambda topic: "room",
                 on_drop: OnDrop = lambda topic, why: None) -> None:
        self.url = url
        self.name = name  # for the logs; the broker sees a random client id (new_client_id)
        self.client_id = ""  # the current connection's
        self._sort, self._on_drop = sort, on_drop
        self.inbox: Inbox | None = None  # the current connection's
        self._on_connect, self._on_message, self._on_state = on_connect, on_message, on_state
        self._will = aiomqtt.Will(will[0], will[1], qos=1, retain=True) if will else None
        self._keepalive = keepalive
        self._backoff = backoff
        self._tls = tls_context if tls_context is not None else (
            ssl.create_default_context() if url.tls else None)
        self._timeout = timeout
        self._client: aiomqtt.Client | None = None
        self._lost = asyncio.Event()  # set when the current connection is gone
        self._reported: bool | None = None  # the state last told to on_state
        self._unconfirmed: set[asyncio.Future[None]] = set()  # publishes not waited for

    @property
    def up(self) -> bool:
        return self._client is not None

    async def run(self) -> None:
        """Connects, and reconnects after every failure, until cancelled."""
        _quiet_closed_sockets(asyncio.get_running_loop())
        delay = self._backoff[0]
        silent = asyncio.get_running_loop().call_later(SILENT_S, self._still_silent)
        try:
            await self._connect_forever(delay)
        finally:
            silent.cancel()

    def _still_silent(self) -> None:
        if self._reported is None:  # neither up nor refused yet
            log.warning("%s: the broker %s:%s has not answered in %g s; still trying (is the "
                        "address right? botboard doctor checks it)", self.name, self.url.host,
                        self.url.port, SILENT_S)

    async def _connect_forever(self, delay: float) -> None:
        while True:
            client = self._new_client()
            try:
                async with client:
                    delay = self._backoff[0]
                    await self._serve(client)
                error = "the broker closed the connection"
            except aiomqtt.MqttError as exc:
                error = str(exc) or type(exc).__name__
            except OSError as exc:  # a socket torn down under paho (EBADF) is a dropped link too
                error = str(exc) or type(exc).__name__
            finally:
                self._client = None
                _settle(client)
            # the first failure, and each loss, on the terminal; the retries after it only in -v
            level = logging.WARNING if self._reported is not False else logging.INFO
            self._state(False, error)
            log.log(level, "%s: link to %s down (%s); again in %.2f s", self.name, self.url, error, delay)
            # a little jitter keeps the tables of a room from all coming back at the same instant
            await asyncio.sleep(delay * random.uniform(1.0, 1.25))
            delay = min(delay * 2, self._backoff[1])

    async def publish(self, topic: str, payload: bytes, *, retain: bool = False, confirm: bool = True) -> bool:
        """QoS 1 publish; False when the link is down or dropped before the broker confirmed.

        ``confirm=False``: a QoS 0 publish, True once handed to the connection. A broker that
        is behind with a client drops what it should send it, acknowledgements and QoS 1
        messages included (mosquitto 2.0: "Outgoing messages are being dropped"), and a QoS 1
        message dropped so still counts as in flight: after some twenty of them the broker
        sends that client no QoS 1 message again, and a client whose acknowledgements were
        dropped stops sending its own. At QoS 0 nothing waits for what may never come; what is
        lost comes back by the room's own means (proposals sent again, entries asked for)."""
        client = self._client
        if client is None:
            return False
        if not confirm:
            sending = asyncio.ensure_future(client.publish(topic, payload, qos=0, retain=retain,
                                                           timeout=self._timeout * load_factor()))
            self._unconfirmed.add(sending)
            sending.add_done_callback(self._confirmed)
            return True
        try:
            # the broker's answer may be slow on a busy machine: a "gone" given up on is never
            # told (a clean disconnect sends no last will), so the wait grows with the load
            await self._unless_lost(client.publish(topic, payload, qos=1, retain=retain,
                                                   timeout=self._timeout * load_factor()))
        except aiomqtt.MqttError as exc:
            log.info("%s: not published to %s: %s", self.name, topic, exc)
            return False
        return True

    def _confirmed(self, sending: asyncio.Future[None]) -> None:
        self._unconfirmed.discard(sending)
        if not sending.cancelled() and sending.exception() is not None:
            log.debug("%s: a message went unconfirmed: %s", self.name, sending.exception())

    async def subscribe(self, *topics: str) -> None:
        client = self._client
        if client is not None:
            await self._unless_lost(client.subscribe([(topic, 1) for topic in topics],
                                                     timeout=self._timeout * load_factor()))

    async def _serve(self, client: aiomqtt.Client) -> None:
        """One connection: messages are handled one at a time, in order; a drop is seen at
        once, even while a handler waits for the broker (``_lost``)."""
        self._client, self._lost = client, asyncio.Event()
        ended = getattr(client, "_disconnected", None)  # aiomqtt's: done when the connection is
        if isinstance(ended, asyncio.Future):
            lost = self._lost
            ended.add_done_callback(lambda _: lost.set())
        self._state(True, None)
        await self._on_connect()
        async for message in client.messages:  # MqttError when the connection ends
            await self._deliver(message.topic.value, message.payload)

    async def _unless_lost(self, call: Awaitable[object]) -> None:
        # aiomqtt leaves a QoS 1 publish waiting for its PUBACK until the timeout even when
        # the connection is gone; the room must not stall for that long
        done = asyncio.ensure_future(call)
        lost = asyncio.ensure_future(self._lost.wait())
        await asyncio.wait({done, lost}, return_when=asyncio.FIRST_COMPLETED)
        lost.cancel()
        if not done.done():
            done.cancel()
            raise aiomqtt.MqttError("the connection dropped")
        done.result()

    def _state(self, up: bool, error: str | None) -> None:
        if up != self._reported:  # only changes: not every failed attempt while the broker is away
            self._reported = up
            self._on_state(up, error)

    def _new_client(self) -> aiomqtt.Client:
        connect = Properties(PacketTypes.CONNECT)
        connect.MaximumPacketSize = MAX_PACKET
        self.client_id = new_client_id()
        inbox = functools.partial(Inbox, sort=self._sort, on_drop=self._on_drop)
        client = aiomqtt.Client(
            self.url.host, self.url.port, username=self.url.username, password=self.url.password,
            identifier=self.client_id, will=self._will, keepalive=self._keepalive, queue_type=inbox,  # type: ignore[arg-type]
            protocol=aiomqtt.ProtocolVersion.V5, clean_start=True, properties=connect,
            tls_context=self._tls, timeout=self._timeout,
            # small messages answered at once: with Nagle's algorithm, a PUBACK and the next
            # publish written back to back wait for the peer's delayed ACK (some 40 ms on Linux)
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
        self.inbox = client._queue  # type: ignore[assignment]  # the Inbox just made
        # publishes not waited for (confirm=False) stay pending until acknowledged: not a warning
        client.pending_calls_threshold = 10_000
        return client

    async def _deliver(self, topic: str, payload: object) -> None:
        data = payload if isinstance(payload, bytes) else str(payload or "").encode()
        try:
            await self._on_message(topic, data)
        except aiomqtt.MqttError:
            raise
        except Exception:
            # one message that breaks a handler must not take the whole link down
            log.exception("%s: handling a message on %s failed", self.name, topic)


def new_client_id() -> str:
    """A client id no one can guess (MQTT 3.1.1 brokers take up to 23 characters)."""
    return "bb-" + secrets.token_hex(10)


def _settle(client: aiomqtt.Client) -> None:
    """aiomqtt sets a dropped connection's error on a future that nobody may read when the
    drop came while the link was busy elsewhere; reading it here keeps asyncio from printing
    "Future exception was never retrieved" for a drop that was handled."""
    ended = getattr(client, "_disconnected", None)
    if isinstance(ended, asyncio.Future) and ended.done() and not ended.cancelled():
        ended.exception()


def _quiet_closed_sockets(loop: asyncio.AbstractEventLoop) -> None:
    """aiomqtt asks the loop to watch paho's socket from a callback that may run after the
    socket closed (a publish as the broker drops the link): the loop then prints a traceback
    (KeyError "is not registered", EBADF) for a drop the link handles anyway. Those alone
    are logged quietly; every other error goes to the handler there was."""
    before = loop.get_exception_handler()
    if getattr(before, "botboard_quiet", False):
        return

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno == errno.EBADF and "add_" in repr(context.get("handle")):
            log.debug("a socket closed under the link: %s", exc)
        elif before is not None:
            before(loop, context)
        else:
            loop.default_exception_handler(context)

    handler.botboard_quiet = True  # type: ignore[attr-defined]
    loop.set_exception_handler(handler)
