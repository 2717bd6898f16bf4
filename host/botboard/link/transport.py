"""Open a board's serial port by name, as pyserial does: a device path,
the simulated board's pseudo-terminal, or any pyserial URL (``loop://``,
``socket://HOST:PORT``, ``spy://PATH`` to hex-dump traffic)."""

from __future__ import annotations

import errno
import os

import serial

BAUD = 115200  # ignored by USB CDC and ptys, but a real UART bridge needs it


class PortError(ConnectionError):
    """The port cannot be used; the message says why and what to do."""


def open_port(name: str, timeout: float = 0.05) -> serial.Serial:
    try:
        port = serial.serial_for_url(name, baudrate=BAUD, timeout=timeout, write_timeout=2,
                                     exclusive=True if "://" not in name else None, do_not_open=True)
        port.open()
    except serial.SerialException as err:
        raise PortError(explain(name, err)) from err
    except (OSError, ValueError) as err:
        raise PortError(explain(name, err)) from err
    return port


def explain(name: str, err: Exception) -> str:
    """Turn pyserial's error into what is wrong and what to do."""
    code = getattr(err, "errno", None)
    text = str(err)
    if code == errno.ENOENT or "No such file" in text or (
            "://" not in name and not os.path.exists(name)):
        return (f"no port {name}: plug the board in and check `ls /dev/ttyACM*`, "
                "or start the simulated board with `botboard sim`")
    if code in (errno.EBUSY, errno.EAGAIN) or "lock" in text.lower() or "busy" in text.lower():
        return (f"port {name} is busy: another program (mpremote, a serial monitor, "
                "another botboard daemon) has it open; close it and try again")
    if code == errno.EACCES or "Permission denied" in text:
        return (f"no permission to open {name}: add yourself to the 'dialout' group "
                "(sudo usermod -aG dialout $USER, then log in again)")
    if "Could not configure port" in text or code == errno.ENOTTY:
        return f"{name} is not a serial port: give the board's port, e.g. /dev/ttyACM0"
    return f"cannot open {name}: {text}"
