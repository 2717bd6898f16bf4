"""The game session: Twin Tin Bots at the table (board + engine + journal).

Modules, each with one job: ``seating`` (stations and slots -> seats, robots,
program slots), ``tiles`` (tag payloads and the registry of enrolled tags),
``table`` (what the slots physically hold, debounced), ``physical`` (slots ->
programs -> a legal action or a refusal in words), ``journal`` (SQLite),
``leds`` (the LED language), ``animation`` (events -> timed frames),
``decisions`` (pending choices on the board) and ``session`` (GameSession,
which ties them together). See docs/playing.md and docs/journal.md.
"""
