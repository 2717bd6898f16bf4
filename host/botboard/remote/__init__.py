"""Remote play: tables in different places share one game through an MQTT broker.

Modules, each with one job: ``url`` (a room's mqtt:// address), ``protocol`` (topics and
strictly checked messages), ``ordering`` (a table applies entries in order n),
``sequencer`` (the host numbers accepted proposals once each), ``link`` (an MQTT
connection that comes back after a broker restart), ``seal`` (every message signed by its
sender and encrypted for its readers, so any broker will do), ``table_keys`` (a table's key
files: its keys, pins and the newest record numbers it saw), ``limits`` (how much catch-up a
table gets), ``junk`` (dropped messages counted per kind), ``admission`` (a genuine message
let in: fresh, a room record signed by the host), ``own_records`` (a table's retained records,
watched and put back), ``room_core`` (what every room shares: the link, the keys, each message
opened and checked), ``host_room`` (HostRoom: sequences the room's game), ``catch_up`` (the
host's answers to catch-up requests), ``entry_record`` (where the host keeps its entries),
``joined_room`` (JoinedRoom, SpectatorRoom) and ``room`` (the rooms a game session drives, from
one place). The layer is game-agnostic: proposals and entries carry opaque JSON.
docs/remote-play.md tells the whole story.
"""
