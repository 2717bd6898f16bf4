"""Every flag of the commands that read what a user types, its value drawn from the flag's
own declaration (its type, its choices; argparse is the schema): wrong kinds, empty, huge,
control characters, bytes that are not UTF-8. `run`'s flags are checked as `run` checks them
before anything starts (cli/run.py's ``prepared``); the other commands run whole. Each ends in
status 0 or 2, one line, no traceback."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from botboard.cli import build_parser

from .cli import held, run
from .damage import FUZZ

# what a user types: damaged numbers, names, URLs, paths; no NUL (argv cannot carry one)
NUMBERS = st.one_of(st.integers().map(str), st.sampled_from(
    ["", "-1", "0", "1e309", "nan", "inf", "0x10", " 5", "9" * 5000, "1_000", "٣", "2.5"]))
WORDS = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30),
    st.sampled_from(["", " ", "-", "--", "=", "auto", "mqtt://", "mqtt://ho st/club#k", "mqtt://a:b@[::1/x",
                     "mqtts://u:%zz@h:0/r#", "mqtt://h:99999/r", "mqtt://h/+#k", "/dev/null", "/", "..",
                     "2=search", "0", "x=", "=1", "K=[1,2]", "k=" + "9" * 5000, "ruleset=\"v9\"",
                     "\udcff\udcfe", "a" * 5000]),
    st.builds(lambda a, b, c: f"mqtt://{a}/{b}#{c}", st.text(max_size=6), st.text(max_size=6), st.text(max_size=6)),
).map(lambda word: word.replace("\x00", ""))


def _subparsers(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    out = {prefix: parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.update(_subparsers(sub, prefix + (name,)))
    return out


PARSERS = _subparsers(build_parser())
# the commands a fuzzer may run whole: they read and print, nothing starts, nothing is written
# but in the data directory given; `run` is checked up to its start
WHOLE = [("config",), ("games",), ("replay",), ("scenario", "check"), ("scenario", "run"), ("tiles", "kinds"),
         ("tiles", "list"), ("hardware", "draw"), ("botwars", "report"), ("botwars", "board")]
NOT_DRAWN = {"--init", "--out", "--console-port", "--on-board", "--help", "--version", "--journal", "--data-dir",
             "--config"}  # these write files, serve, or are the test's own
OWN = {"--help", "--version", "--journal", "--data-dir", "--config"}


def _value(action: argparse.Action) -> st.SearchStrategy[str]:
    if action.choices:
        return st.one_of(st.sampled_from(sorted(map(str, action.choices))), WORDS)
    if action.type in (int, float):
        return NUMBERS
    return st.one_of(WORDS, NUMBERS)


@st.composite
def argv(draw: st.DrawFn, command: tuple[str, ...], starts: bool = False) -> list[str]:
    """A command line of ``command``; ``starts``: it is only checked (test_every_command.py), so
    the flags that serve or write are drawn too."""
    parser = PARSERS[command]
    skipped = OWN if starts else NOT_DRAWN
    out = list(command)
    for action in parser._actions:
        if not action.option_strings and not isinstance(action, argparse._SubParsersAction) and action.dest != "help":
            count = 1 if action.nargs in (None, "?") else draw(st.integers(1, 2))
            out += [draw(_value(action)) for _ in range(count)]  # a positional: always given
    options = [a for a in parser._actions if a.option_strings and not set(a.option_strings) & skipped]
    for action in draw(st.lists(st.sampled_from(options), max_size=4)) if options else []:
        flag = draw(st.sampled_from(action.option_strings))
        out += [flag] if action.nargs == 0 else [flag, draw(_value(action))]
    return out


def own(command: tuple[str, ...], home: Path) -> list[str]:
    """The test's own flags: its data directory and settings file, never the user's."""
    flags = [a.option_strings[0] for a in PARSERS[command]._actions if a.option_strings]
    return (["--data-dir", str(home)] if "--data-dir" in flags else []) + \
        (["--config", str(home / "botboard.toml")] if "--config" in flags else [])


@pytest.mark.parametrize("command", WHOLE, ids=[" ".join(c) for c in WHOLE])
@FUZZ
@given(data=st.data())
def test_any_flag_value_is_one_line(command: tuple[str, ...], data: st.DataObject, home: Path) -> None:
    held(run(data.draw(argv(command)) + own(command, home)), report=command == ("scenario", "check"))
