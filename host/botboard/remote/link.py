"""One MQTT connection that comes back: after a broker restart or a dropped link it
reconnects with growing delays (backoff), then lets its room subscribe and republish.

Messages go to ``on_message`` one at a time, in the order the broker sent them; a publish
while the link is down does not raise but says False (the room's catch-up and resend
recover what was not sent).

The link speaks MQTT 5 to announce a Maximum Packet Size (MAX_PACKET): the broker then never
sends this client a larger message (it drops it instead), so an oversized message is refused
before this process reads a byte of it, even on a broker that sets no limit of its own.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import ssl
from collections.abc import Awaitable, Callable

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..patience import load_factor
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
    def __init__(self, url: RemoteUrl, client_id: str, *, on_connect: OnConnect, on_message: OnMessage,
                 on_state: OnState, will: tuple[str, bytes] | None = None, keepalive: int = 30,
                 backoff: tuple[float, float] = (0.5, 30.0), tls_context: ssl.SSLContext | None = None,
                 timeout: float = 10.0) -> None:
        self.url = url
        self.client_id = client_id
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

    @property
    def up(self) -> bool:
        return self._client is not None

    async def run(self) -> None:
        """Connects, and reconnects after every failure, until cancelled."""
        delay = self._backoff[0]
        silent = asyncio.get_running_loop().call_later(SILENT_S, self._still_silent)
        try:
            await self._connect_forever(delay)
        finally:
            silent.cancel()

    def _still_silent(self) -> None:
        if self._reported is None:  # neither up nor refused yet
            log.warning("%s: the broker %s:%s has not answered in %g s; still trying (is the "
                        "address right? botboard doctor checks it)", self.client_id, self.url.host,
                        self.url.port, SILENT_S)

    async def _connect_forever(self, delay: float) -> None:
        while True:
            try:
                async with self._new_client() as client:
                    delay = self._backoff[0]
                    await self._serve(client)
                error = "the broker closed the connection"
            except aiomqtt.MqttError as exc:
                error = str(exc) or type(exc).__name__
            finally:
                self._client = None
            # the first failure, and each loss, on the terminal; the retries after it only in -v
            level = logging.WARNING if self._reported is not False else logging.INFO
            self._state(False, error)
            log.log(level, "%s: link to %s down (%s); again in %.2f s", self.client_id, self.url, error, delay)
            # a little jitter keeps the tables of a room from all coming back at the same instant
            await asyncio.sleep(delay * random.uniform(1.0, 1.25))
            delay = min(delay * 2, self._backoff[1])

    async def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> bool:
        """QoS 1 publish; False when the link is down or dropped before the broker confirmed."""
        client = self._client
        if client is None:
            return False
        try:
            # the broker's answer may be slow on a busy machine: a "gone" given up on is never
            # told (a clean disconnect sends no last will), so the wait grows with the load
            await self._unless_lost(client.publish(topic, payload, qos=1, retain=retain,
                                                   timeout=self._timeout * load_factor()))
        except aiomqtt.MqttError as exc:
            log.info("%s: not published to %s: %s", self.client_id, topic, exc)
            return False
        return True

    async def subscribe(self, *topics: str) -> None:
        client = self._client
        if client is not None:
            await self._unless_lost(client.subscribe([(topic, 1) for topic in topics],
                                                     timeout=self._timeout * load_factor()))

    async def _serve(self, client: aiomqtt.Client) -> None:
        """One connection: messages are read as they come (so a drop is seen at once, even
        while a handler waits) and handled one at a time, in order."""
        self._client, self._lost = client, asyncio.Event()
        inbox: asyncio.Queue[tuple[str, object]] = asyncio.Queue()
        reader = asyncio.create_task(self._read(client, inbox, self._lost))
        try:
            self._state(True, None)
            await self._on_connect()
            while not (reader.done() and inbox.empty()):
                item = asyncio.create_task(inbox.get())
                await asyncio.wait({item, reader}, return_when=asyncio.FIRST_COMPLETED)
                if item.done():
                    await self._deliver(*item.result())
                else:
                    item.cancel()
            reader.result()  # how the connection ended: MqttError for a drop
        finally:
            reader.cancel()

    @staticmethod
    async def _read(client: aiomqtt.Client, inbox: asyncio.Queue[tuple[str, object]],
                    lost: asyncio.Event) -> None:
        try:
            async for message in client.messages:
                inbox.put_nowait((message.topic.value, message.payload))
        finally:
            lost.set()

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
        return aiomqtt.Client(
            self.url.host, self.url.port, username=self.url.username, password=self.url.password,
            identifier=self.client_id, will=self._will, keepalive=self._keepalive,
            protocol=aiomqtt.ProtocolVersion.V5, clean_start=True, properties=connect,
            tls_context=self._tls, timeout=self._timeout,
            # small messages answered at once: with Nagle's algorithm, a PUBACK and the next
            # publish written back to back wait for the peer's delayed ACK (some 40 ms on Linux)
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])

    async def _deliver(self, topic: str, payload: object) -> None:
        data = payload if isinstance(payload, bytes) else str(payload or "").encode()
        try:
            await self._on_message(topic, data)
        except aiomqtt.MqttError:
            raise
        except Exception:
            # one message that breaks a handler must not take the whole link down
            log.exception("%s: handling a message on %s failed", self.client_id, topic)
