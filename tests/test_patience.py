"""The tests wait on conditions, with deadlines scaled by the machine's load (tests/patience.py).

Over every Python file under tests/ and examples/: no sleep used as a wait (a sleep belongs in
a loop that looks again at what it waits for, or paces something and says so with ``# pace:``),
and no fixed deadline under a minute that is not scaled (unless the test wants it to pass,
``# expires:``): a ``timeout`` literal, a timeout given
to ``asyncio.wait_for``/``result``/``wait``/``join``/``get``, or ``time.monotonic() + N``. The
waits of tests/patience.py (``wait_for``, ``until``) scale their own deadlines; ``scaled(s)`` and
``ms(s)`` scale any other API's. The checker's own cases are below, so it can be seen to catch.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXED_S = 60  # a deadline this long or longer is a hang guard, not a wait a busy machine can miss
TIMEOUT_METHODS = {"wait_for", "result", "wait", "join"}  # those taking a timeout first (wait_for: second)
SCALED = {"scaled", "ms"}  # tests/patience.py: what scales a deadline for another API
# the tests' waits that scale their own deadlines (tests/patience.py, and helpers built on it)
SELF_SCALING = {"wait_for", "until", "connected"}


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    return None


def _seconds(value: float, keyword: str | None) -> float:
    # Playwright counts in milliseconds: anything of 1000 or more is taken as ms
    return value / 1000 if value >= 1000 and keyword == "timeout" else value


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_sleep(call: ast.Call) -> bool:
    return _name(call.func) == "sleep" and (isinstance(call.func, ast.Attribute) or call.func.id == "sleep")  # type: ignore[union-attr]


def _is_monotonic(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in ("monotonic", "time", "perf_counter")


def problems(source: str, lines: list[str] | None = None) -> list[tuple[int, str]]:
    """(line, what) for each bare sleep or unscaled short deadline in ``source``."""
    tree = ast.parse(source)
    lines = lines if lines is not None else source.splitlines()
    found: list[tuple[int, str]] = []
    in_loop: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.While):
            for inner in ast.walk(node):
                in_loop.add(id(inner))

    def marked(node: ast.AST, tag: str) -> bool:
        end = getattr(node, "end_lineno", node.lineno)  # type: ignore[attr-defined]
        return any(tag in lines[n - 1] for n in range(node.lineno, end + 1))  # type: ignore[attr-defined]

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if _is_sleep(node):
                delay = _number(node.args[0]) if node.args else 0.0
                if delay != 0.0 and id(node) not in in_loop and not marked(node, "# pace:"):
                    found.append((node.lineno, "a sleep as a wait: wait on the condition (tests/patience.py)"))
                continue
            if name in SCALED or (isinstance(node.func, ast.Name) and name in SELF_SCALING):
                continue
            if marked(node, "# expires:"):  # a deadline meant to pass (what a timeout does, tested)
                continue
            candidates: list[tuple[ast.AST, str | None]] = [(k.value, k.arg) for k in node.keywords
                                                             if k.arg and "timeout" in k.arg]
            if isinstance(node.func, ast.Attribute) and name in TIMEOUT_METHODS:
                position = 1 if name == "wait_for" else 0  # asyncio.wait_for(coro, timeout)
                if len(node.args) > position:
                    candidates.append((node.args[position], None))
            for value, keyword in candidates:
                number = _number(value)
                if number is not None and 0 < _seconds(number, keyword) < FIXED_S:
                    found.append((node.lineno, f"a fixed deadline of {number:g} in {name}(): "
                                               "scale it (scaled()/ms() or patience.wait_for/until)"))
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.BinOp) \
                and isinstance(node.left.op, ast.Sub) and _is_monotonic(node.left.left) \
                and isinstance(node.ops[0], (ast.Lt, ast.LtE)) and _number(node.comparators[0]) is not None \
                and not marked(node, "# pace:"):
            found.append((node.lineno, "a wall-clock limit: scale it (scaled()) or wait on the condition"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            number = _number(node.right)
            if _is_monotonic(node.left) and number is not None and 0 < number < FIXED_S:
                found.append((node.lineno, f"a fixed deadline of clock + {number:g} s: use patience.Deadline"))
    return sorted(found)


def _files() -> list[Path]:
    return sorted(p for base in ("tests", "examples") for p in (ROOT / base).rglob("*.py")
                  if ".venv" not in p.parts and "node_modules" not in p.parts)


def test_no_test_waits_by_sleeping_or_by_a_fixed_short_deadline() -> None:
    bad = []
    for path in _files():
        text = path.read_text()
        for line, what in problems(text):
            bad.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("source, caught", [
    ("import time\ntime.sleep(0.5)\n", True),  # a bare sleep
    ("import asyncio\nasync def f():\n    await asyncio.sleep(1)\n", True),
    ("import time\nwhile not done():\n    time.sleep(0.05)\n", False),  # a poll
    ("import time\ntime.sleep(0.2)  # pace: one report per frame\n", False),
    ("import asyncio\nasync def f():\n    await asyncio.sleep(0)\n", False),  # a yield, not a wait
    ("page.wait_for_selector('x', timeout=30000)\n", True),  # Playwright's ms
    ("page.wait_for_selector('x', timeout=ms(30))\n", False),
    ("proc.wait(timeout=120)\n", False),  # a hang guard
    ("proc.wait(5)\n", True),
    ("asyncio.wait_for(coro, 15)\n", True),
    ("asyncio.wait_for(coro, scaled(15))\n", False),
    ("wait_for(lambda: x, 15, 'x')\n", False),  # patience.wait_for scales its own deadline
    ("until(lambda: x, timeout=15)\n", False),
    ("probe(port, timeout=0.5)  # expires: nothing answers\n", False),
    ("probe(port, timeout=0.5)\n", True),
    ("future.result(10)\n", True),
    ("import time\ndeadline = time.monotonic() + 10\n", True),
    ("import time\ndeadline = time.monotonic() + 600\n", False),
    ("import time\nassert time.monotonic() - t0 < 3.0\n", True),  # a wall-clock assertion
    ("import time\nassert time.monotonic() - t0 < scaled(3.0)\n", False),
    ("d.get(3, {})\n", False),
])
def test_the_checker_catches_what_it_should(source: str, caught: bool) -> None:
    assert bool(problems(source)) is caught, problems(source)
