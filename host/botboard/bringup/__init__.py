"""``botboard bringup``: a newly built board's first hour (docs/first-hour.md).

Modules, one job each:

- ``findings``: pure: what the maker's answers say about the wiring (LED chains, readers,
  buttons, supply), each fault in words with what to do, and the corrected layout.
- ``layout_file``: the corrected layout written as a file, and its diff with the one it corrects.
- ``flow``: the guided steps on a connected board: light a cell and wait for the click, ask for
  a tile in each slot, a press of each button, measure the supply; the console and the CLI
  both drive it.

It works from the layout only: no game is running and none is named.
"""
