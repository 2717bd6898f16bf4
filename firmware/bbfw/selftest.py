# Boot checks: does the hardware match the board config?  Run by each HAL once
# its drivers are up; the errors (code, ref, text) go to the host after HELLO.
#
#   check(cfg, alive, short) -> [(code, ref, text), ...]
#       alive        bytearray: 1 for each configured slot whose reader answered
#       short        per configured chain: True (fewer LEDs than configured),
#                    False (at least as many), None (cannot tell: no sense pin)
# A config written for a bigger board shows as readers answering only up to
# some slot k and none beyond: that is reported once as E_CONFIG ("another
# layout?") rather than as one E_READER per missing slot.  Single missing
# readers are left to the scanner, which reports E_READER for each.
from micropython import const

E_CONFIG = const(7)  # = bbshared.messages
E_LED_CHAIN = const(10)


def check(cfg, alive, short):
    errors = []
    slots = len(alive)
    answered = sum(alive)
    k = 0
    while k < slots and alive[k]:
        k += 1
    if 0 < answered == k < slots and slots - k >= 2:
        errors.append((E_CONFIG, k, "board config %s expects %d readers, only slots 0..%d "
                       "answer: a config for another layout?" % (cfg["layout"], slots, k - 1)))
    chains = cfg["chains"]
    for i in range(len(short)):
        if short[i]:
            c = chains[i]
            errors.append((E_LED_CHAIN, i, "LED chain %d (GP%d) is shorter than the %d LEDs "
                           "configured" % (i, c[0], c[2] * cfg["leds_per_cell"])))
    return errors

