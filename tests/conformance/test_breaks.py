"""The conformance suite catches deliberate breaks: each is applied (monkeypatched) to the example
game, the plugin runs in this process with pytester (`--botboard-game NAME`), and it must fail
with a message naming what broke. No declaration can switch a check off: the seat-view leak
is made under hidden_information=False, the LED leak shows only while a program is hidden.

The example game is the first installed game from outside botboard's own package that programs in
secret (today the one under examples/); the breaks reach its parts through the registry."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable

import pytest

from botboard import games
from botboard.games.base import Event
from botboard.games.declaration import Evaluation

pytest_plugins = ["pytester"]

EXAMPLE = next((n for n in games.names() if games.declaration(n).package not in (None, "botboard")
                and games.get(n).info.hidden_information and games.declaration(n).table), None)
pytestmark = pytest.mark.skipif(EXAMPLE is None, reason="no example game installed (bash .ci/setup --test)")


def _engine() -> Any:
    return type(games.get(EXAMPLE))


def _table() -> Any:
    return games.table(EXAMPLE)


def _evaluation_module() -> Any:
    import importlib

    return importlib.import_module(games.declaration(EXAMPLE).evaluation.split(":")[0])


def _secret(state: Any) -> str:
    """The referee's view of the state: what a leak would copy (the laid programs among it)."""
    return str(games.get(EXAMPLE).observe(state, None))


def led_leak(mp: pytest.MonkeyPatch) -> None:
    honest = _table().picture

    def picture(self, state):
        out = dict(honest(self, state))
        if hash(_secret(state)) % 2:
            out[0] = out[1]  # the first cell copies its neighbour when the secret says so
        return out
    mp.setattr(_table(), "picture", picture)


def seat_view_leak_undeclared(mp: pytest.MonkeyPatch) -> None:
    engine = _engine()
    mp.setattr(engine, "info", replace(engine.info, hidden_information=False))
    honest = _table().seat_view
    mp.setattr(_table(), "seat_view", lambda self, state, seat: {**honest(self, state, seat),
                                                                   "all": self.engine.observe(state, None)})


def inverted_evaluation(mp: pytest.MonkeyPatch) -> None:
    module = _evaluation_module()
    honest = module.EVALUATION
    mp.setattr(module, "EVALUATION", Evaluation(lambda s: [-x for x in honest.standing(s)], honest.scale))


def flat_evaluation(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_evaluation_module(), "EVALUATION", Evaluation(lambda s: [0.0, 0.0], 1.0))


def random_state_hash(mp: pytest.MonkeyPatch) -> None:
    honest = _engine().state_to_json
    mp.setattr(_engine(), "state_to_json", lambda self, s: {**honest(self, s), "nonce": random.random()})


def illegal_move_accepted(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_engine(), "_check", lambda self, state, action: None)


def notation_does_not_round_trip(mp: pytest.MonkeyPatch) -> None:
    honest = _engine().action_to_str
    mp.setattr(_engine(), "action_to_str", lambda self, s, a: " ".join(honest(self, s, a).split()[:-1] + ["F"]))


def public_view_leak(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_table(), "public_view", lambda self, state: self.engine.observe(state, None))


def score_words_leak(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_table(), "score_words", lambda self, state: _secret(state))


def determinize_keeps_the_secret(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_engine(), "determinize", lambda self, state, seat, rng: state)


def determinize_redeals_what_the_seat_sees(mp: pytest.MonkeyPatch) -> None:
    honest = _engine().determinize

    def determinize(self, state, seat, rng):
        other = honest(self, state, 1 - seat, rng)  # the seat's own program dealt again too
        return honest(self, other, seat, rng)
    mp.setattr(_engine(), "determinize", determinize)


def determinize_reads_the_secret(mp: pytest.MonkeyPatch) -> None:
    honest = _engine().determinize
    mp.setattr(_engine(), "determinize",
               lambda self, state, seat, rng: honest(self, state, seat, random.Random(_secret(state))))


def hiding_undeclared(mp: pytest.MonkeyPatch) -> None:
    engine = _engine()
    mp.setattr(engine, "info", replace(engine.info, hidden_information=False))


def events_without_words(mp: pytest.MonkeyPatch) -> None:
    honest = _engine().apply

    def apply(self, state, action):
        after, events = honest(self, state, action)
        return after, [Event(e.kind, e.data, "") for e in events]
    mp.setattr(_engine(), "apply", apply)


def tiles_read_back_wrong(mp: pytest.MonkeyPatch) -> None:
    catalogue = type(games.catalogue(EXAMPLE))
    honest = catalogue.from_bytes
    first = next(iter(games.catalogue(EXAMPLE).every_tile()))
    mp.setattr(catalogue, "from_bytes", lambda self, tag: first if tag.kind == 1 else honest(self, tag))


def scenarios_break(mp: pytest.MonkeyPatch) -> None:
    honest = _engine().outcome
    mp.setattr(_engine(), "outcome", lambda self, state: None if honest(self, state) is None
               else replace(honest(self, state), winners=()))


BREAKS: list[tuple[str, Callable[[pytest.MonkeyPatch], None], str]] = [
    ("an LED leak of a secret program", led_leak, "LED picture changes when only what seat"),
    ("a seat-view leak under hidden_information=False", seat_view_leak_undeclared, "seat view changes when only"),
    ("an evaluation with its sign inverted", inverted_evaluation, "the evaluation points the wrong way"),
    ("an evaluation that never tells positions apart", flat_evaluation, "the same standing"),
    ("a state hash that is not deterministic", random_state_hash, "state_hash differs for one state"),
    ("an illegal move accepted", illegal_move_accepted, "was played though no seat may take it"),
    ("notation that does not round-trip", notation_does_not_round_trip, "action_from_str("),
    ("the shared view showing the programs", public_view_leak, "shared view changes when only"),
    ("the score words showing the programs", score_words_leak, "score words on the shared screen changes"),
    ("determinize that deals nothing again", determinize_keeps_the_secret, "determinize never dealt again"),
    ("determinize that deals the seat's own program again", determinize_redeals_what_the_seat_sees,
     "determinize changed what seat"),
    ("determinize that depends on the secret it deals", determinize_reads_the_secret, "give different samples"),
    ("hiding declared as hidden_information=False", hiding_undeclared, "declares hidden_information=False"),
    ("events without words", events_without_words, "an event without words"),
    ("a tile that reads back as another", tiles_read_back_wrong, "reads back as"),
    ("a rule change the scenarios catch", scenarios_break, ".json:"),
]


@pytest.mark.parametrize("name,breaking,said", BREAKS, ids=[b[0] for b in BREAKS])
def test_the_suite_fails_on_the_break_and_names_it(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                   name: str, breaking: Callable[[pytest.MonkeyPatch], None],
                                                   said: str) -> None:
    breaking(monkeypatch)
    result = pytester.runpytest_inprocess("--botboard-game", EXAMPLE, "-q", "--tb=short", "-p", "no:cacheprovider",
                                          "-k", "not simulated_board")
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED, f"{name}: the suite did not fail\n{out[-2000:]}"
    assert said in out, f"{name}: the failure does not say {said!r}\n{out[-3000:]}"


def test_the_suite_passes_on_the_example_as_it_is(pytester: pytest.Pytester) -> None:
    """The breaks fail because of the break: the same run over the unbroken game passes."""
    result = pytester.runpytest_inprocess("--botboard-game", EXAMPLE, "-q", "-p", "no:cacheprovider",
                                          "-k", "not simulated_board")
    result.assert_outcomes(passed=result.parseoutcomes()["passed"])
    assert result.ret == pytest.ExitCode.OK


def test_an_unknown_game_is_a_usage_error_in_one_line_and_without_the_option_nothing_is_added(
        pytester: pytest.Pytester) -> None:
    unknown = pytester.runpytest_inprocess("--botboard-game", "no-such-game", "-p", "no:cacheprovider")
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    said = [line for line in unknown.stderr.lines if "no-such-game" in line]
    assert len(said) == 1 and "install the game's package" in said[0], unknown.stderr.str()
    plain = pytester.runpytest_inprocess("-p", "no:cacheprovider")  # an author's own run: only their tests
    assert plain.ret == pytest.ExitCode.NO_TESTS_COLLECTED
