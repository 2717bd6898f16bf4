# What a hand does to the simulated readers' field: lay a tile on a slot, take
# it away, lay a second one on top, heat a reader; and what a tile's tag holds
# (tests).  One place for both simulated boards: the unix port's control
# socket (sim/control.py) and the emulated RP2040's chip models
# (sim/chip_models.py).  Sim-only code.
#
#   tile_op(field, faults, req) -> reply dict, or None when req["op"] is not
#   a tile's (a button, the LEDs: the caller's own)
from .ntag import FAULTS


def tile_op(field, faults, req):
    op = req.get("op")
    if op == "place":
        payload = req.get("payload")
        fault = req.get("fault", "none")  # a noisy tag: ntag.FAULTS
        if fault not in FAULTS:
            raise ValueError("fault must be one of %s" % ", ".join(FAULTS))
        data = bytes.fromhex(payload) if payload else None
        # every reader that hears this slot (the wiring faults: sim/faults.py)
        for reader in faults.readers_hearing(req["slot"]):
            if req.get("stack"):  # laid on the tag already there: two in the field
                field.add_second_tag(reader, bytes.fromhex(req["uid"]), data)
            else:
                field.place(reader, bytes.fromhex(req["uid"]), data, FAULTS[fault])
    elif op == "remove":
        for reader in faults.readers_hearing(req["slot"]):
            field.remove(reader)
    elif op == "heat":  # the slot's reader overheats (hot true) or cools (false)
        field.overheat(req["slot"], req.get("hot", True))
    elif op == "tag":  # what the tag on a slot holds in its payload pages (tests)
        tag = field.tag(faults.readers_hearing(req["slot"])[0])
        return {"ok": True, "payload": bytes(tag.byte(16 + i) for i in range(16)).hex()}
    else:
        return None
    return {"ok": True}
