"""Remote play: tables in different places share one game through an MQTT broker.

Modules, each with one job: ``url`` (a room's mqtt:// address), ``protocol`` (topics and
strictly checked messages), ``ordering`` (a table applies entries in order n),
``sequencer`` (the host numbers accepted proposals once each), ``link`` (an MQTT
connection that comes back after a broker restart), ``seal`` (every message signed by its
sender and encrypted for its readers, so any broker will do), ``table_keys`` (a table's key
files: its keys, pins and the newest record numbers it saw), ``limits`` (how much catch-up a
table gets), ``junk`` (dropped messages counted per kind), ``room`` (HostRoom, JoinedRoom,
SpectatorRoom: the asyncio rooms a game session drives). The layer is game-agnostic:
proposals and entries carry opaque JSON. docs/remote-play.md tells the whole story.
"""
