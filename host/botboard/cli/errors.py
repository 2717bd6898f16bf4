"""One place that turns errors into lines: a bug's traceback goes to a log file, and the
terminal gets one line that says where it is (docs/troubleshooting.md)."""

from __future__ import annotations

import datetime as _dt
import logging
import os
import tempfile
import traceback
from pathlib import Path
from types import TracebackType
from typing import Optional

ExcInfo = tuple[type[BaseException], BaseException, Optional[TracebackType]]


def error_log() -> Path:
    """$XDG_STATE_HOME/botboard/errors.log (default ~/.local/state/...), else the temp folder's."""
    state = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return state / "botboard" / "errors.log"


def write_details(exc_info: ExcInfo, what: str) -> Path:
    """Append the traceback to the error log (made readable by its user only: a traceback may
    quote a hand or a key); the file it went to."""
    from ..private import private_file

    text = f"--- {_dt.datetime.now(_dt.timezone.utc).isoformat(timespec='seconds')} {what}\n" + \
        "".join(traceback.format_exception(*exc_info))
    for path in (error_log(), Path(tempfile.gettempdir()) / f"botboard-{os.getuid()}" / "errors.log"):
        try:
            with private_file(path).open("a") as out:
                out.write(text)
            return path
        except OSError:
            continue
    return Path(os.devnull)


def one_line(err: BaseException) -> str:
    """An exception's words on one line, cut to fit."""
    words = " ".join(str(err).split()) or type(err).__name__
    return words if len(words) <= 200 else words[:197] + "..."


def unexpected(command: str, err: BaseException) -> str:
    """The line a bug gets on the terminal; its traceback goes to the log."""
    path = write_details((type(err), err, err.__traceback__), f"botboard {command}")
    return (f"botboard {command}: unexpected error ({type(err).__name__}: {one_line(err)}); this is a "
            f"bug in botboard: the details are in {path}, please report it with them")


class OneLineFormatter(logging.Formatter):
    """Log records as one line each: an exception logged with its traceback (asyncio's "Task
    exception was never retrieved", a server's error) keeps it in the error log."""

    def format(self, record: logging.LogRecord) -> str:
        if not record.exc_info or record.exc_info[1] is None:
            return " ".join(super().format(record).splitlines())
        exc_info = record.exc_info
        record.exc_info, record.exc_text = None, None
        try:
            line = " ".join(super().format(record).splitlines())
        finally:
            record.exc_info = exc_info
        path = write_details(exc_info, line)
        return f"{line} ({type(exc_info[1]).__name__}: {one_line(exc_info[1])}; details in {path})"
