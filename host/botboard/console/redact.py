"""What the shared console may show while a game with secret slots runs.

In BotWars the cards in a station's registers are its owner's secret until
every robot has confirmed, and a card's tag (its uid as well as its payload)
names the card. While such a game runs, the shared console's slot readings,
frame trace and status carry ``"hidden"`` in place of a tag's uid, payload and
decoded tile: that a slot holds a tag stays visible (the table shows it too).
A seat's private messages never reach the shared console at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..daemon import Daemon

HIDDEN = "hidden"
TAG_FIELDS = ("uid", "payload", "tile")


def slots_secret(daemon: "Daemon") -> bool:
    session = daemon.session
    return session is not None and bool(getattr(session, "secret_slots", False)) \
        and getattr(session, "state", None) is not None


def tag(doc: dict[str, Any]) -> dict[str, Any]:
    """A slot reading or a decoded frame with its tag fields hidden (when set)."""
    return {k: (HIDDEN if k in TAG_FIELDS and v else v) for k, v in doc.items()}


def slots(readings: list[dict[str, Any]], secret: bool) -> list[dict[str, Any]]:
    return [tag(r) for r in readings] if secret else readings


def event(doc: dict[str, Any], secret: bool) -> dict[str, Any] | None:
    """A published event as the shared console may see it; None: not for it at all."""
    kind = doc.get("kind")
    if kind == "trace" or (kind == "game" and doc.get("private")):
        return None
    if not secret:
        return doc
    if kind == "frames":
        return {**doc, "messages": [tag(m) for m in doc.get("messages", [])]}
    if kind == "slot":
        return {**doc, "reading": tag(doc.get("reading", {}))}
    return doc


def status(doc: dict[str, Any], secret: bool) -> dict[str, Any]:
    tools = doc.get("tools")
    if secret and isinstance(tools, dict) and "slots" in tools:
        doc["tools"] = {**tools, "slots": slots(tools["slots"], True)}
    return doc
