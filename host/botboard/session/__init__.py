"""The game session: Twin Tin Bots at the table (board + engine + journal).

Modules, each with one job: ``seating`` (stations and slots -> seats, robots,
program slots), ``tiles`` (tag payloads and the registry of enrolled tags),
``table`` (what the slots physically hold, debounced), ``physical`` (slots ->
programs -> a legal action or a refusal in words), ``journal`` (SQLite),
``leds`` (the LED language), ``animation`` (events -> timed frames),
``decisions`` (pending choices on the board), ``scene`` (the pieces as the
LEDs show them, moved event by event), ``session`` (GameSession, which ties
them together), ``host`` (the daemon's board connection and data directory)
and ``selfplay`` (virtual hands at the simulated board). See docs/playing.md
and docs/journal.md.
"""
