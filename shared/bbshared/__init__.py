# Code shared by the board firmware and the host: it runs unchanged in
# MicroPython and CPython (no CPython-only modules here).
