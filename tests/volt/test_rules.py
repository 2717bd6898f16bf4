"""Unit checks of the pieces the scenarios lean on: wall geometry, notation, legality
messages, the lazy program list, hidden programs, replay and JSON round trips."""

from __future__ import annotations

import random

import pytest
from botboard import games
from botboard.games.base import IllegalAction, InvalidNotation, ScenarioError
from botboard.games.volt.arena import load_arena
from botboard.games.volt.game import GAME
from botboard.games.volt.grid import cut, edge, parse_side
from botboard.games.volt.activation import legal_keys
from botboard.games.volt.programs import PATTERNS, ProgramChoices

NE = 1


def walls(*sides: str) -> frozenset[frozenset[tuple[int, int]]]:
    return frozenset(parse_side(s) for s in sides)


@pytest.mark.parametrize("sides,blocked", [
    ((), False),
    (("r1c2/N",), False),                 # the end of a wall
    (("r1c2/N", "r1c2/W"), False),        # a corner wrapped round a side space
    (("r1c1/E", "r2c1/E"), True),         # a straight wall through the corner point
    (("r2c2/W", "r2c2/S"), True),         # a bend round the target
    (("r1c1/N", "r1c1/E"), True),         # a bend round the start
])
def test_diagonal_passage(sides: tuple[str, ...], blocked: bool) -> None:
    assert cut(walls(*sides), (1, 1), NE) is blocked


def test_orthogonal_wall_and_side_notation() -> None:
    assert parse_side("r2c3/E") == edge((3, 2), (4, 2))
    assert cut(walls("r1c1/E"), (1, 1), 2) and not cut(walls("r1c1/E"), (1, 1), 0)
    with pytest.raises(ScenarioError, match="r<row>c<col>/N"):
        parse_side("r2c3/Q")


def test_arenas_load_and_render() -> None:
    for name in ("training", "foundry"):
        arena = load_arena(name)
        assert len(arena.vp_spaces) == 6 and all(len(arena.starts_of(s)) == 2 for s in (1, 2, 3, 4))
    state = GAME.new_game(2, {"arena": "foundry"}, 0)
    text = GAME.render(state)
    assert "P1" in text and "P2" in text and "##" in text and text.count("\n") == 2 * 10 + 1
    with pytest.raises(ScenarioError, match="unknown arena 'nowhere'; arenas: foundry, training"):
        load_arena("nowhere")


def test_notation_round_trip_and_errors() -> None:
    state = GAME.new_game(2, {}, 0)
    action = GAME.action_from_str(state, "p1 program r3ne b2n R6S")
    assert str(action) == "p1 program R3NE B2N R6S"
    with pytest.raises(InvalidNotation, match="bad die 'X9'"):
        GAME.action_from_str(state, "p1 program X9 B2N R6S")
    with pytest.raises(IllegalAction, match="only 2 blue dice"):
        GAME.action_from_str(state, "p1 program B3N B2N B6S")
    with pytest.raises(IllegalAction, match="no question is pending"):
        GAME.action_from_str(state, "p1 use crossfire")
    with pytest.raises(IllegalAction, match="no operator p3"):
        GAME.action_from_str(state, "p3 program R3NE B2N R6S")


def test_program_list_is_lazy_and_complete() -> None:
    state = GAME.new_game(2, {}, 0)
    programs = ProgramChoices(state.robots[0])
    # 3 patterns with two red dice (48 x 48 x 24) and 3 with two blue (24 x 24 x 48)
    assert len(programs) == 3 * 48 * 48 * 24 + 3 * 24 * 24 * 48
    for index in (0, 1, 5000, len(programs) - 1):
        GAME.action_from_str(state, str(programs[index]))  # every listed program is legal


@pytest.mark.parametrize("modules", [["ram-expansion"], ["ram-expansion", "steering-nozzle"]])
def test_ram_expansion_lists_every_fourth_die_red_or_blue(modules: list[str]) -> None:
    state = GAME.new_game(2, {}, 0)
    robot = state.robots[0]
    robot.monitor = dict(enumerate(modules, start=1))
    programs = ProgramChoices(robot)
    options = {c: [(k, n) for n in range(1, 7) for k in legal_keys(robot, c, n)] for c in ("red", "blue")}
    # counted independently: the three-dice programs, then each with a fourth die beside one
    plain = sum(len(options[a]) * len(options[b]) * len(options[c]) for a, b, c in PATTERNS)
    fourth = 0
    for pattern in PATTERNS:
        spare = "red" if pattern.count("red") == 1 else "blue"
        for unit, colour in enumerate(pattern):
            others = [len(options[c]) for i, c in enumerate(pattern) if i != unit]
            beside = sum(1 for k, _ in options[colour] for k2, _ in options[spare] if k2 != k)
            fourth += others[0] * others[1] * beside
    assert len(programs) == plain + fourth
    rng = random.Random(3)
    picks = [plain, len(programs) - 1] + [rng.randrange(len(programs)) for _ in range(300)]
    seen = {str(programs[i]) for i in picks}
    assert len(seen) == len(set(picks))  # no program listed twice
    for text in seen:
        GAME.action_from_str(state, text)  # every listed program is legal
    assert programs[-1].dice[3][1] == "blue" and programs[plain].dice[3][1] == "red"


def test_programs_are_hidden_from_the_others_and_any_operator_may_finish_first() -> None:
    state = GAME.new_game(3, {}, 0)
    state, _ = GAME.apply_str(state, "p2 program R3NE B2N R6S")
    assert GAME.observe(state, 0)["robots"]["p2"]["program"] == "hidden"
    assert GAME.observe(state, 1)["robots"]["p2"]["program"] == ["I:R3NE", "II:B2N", "III:R6S"]
    assert GAME.observe(state)["robots"]["p2"]["start_number"] == 1
    assert GAME.current_player(state) == 0
    with pytest.raises(IllegalAction, match="already submitted"):
        GAME.action_from_str(state, "p2 program R3NE B2N R6S")


def test_a_question_mid_round_replays_to_the_same_end() -> None:
    position = {"bag": [], "tokens": {}, "robots": {
        "p1": {"square": "r1c1", "modules": ["crossfire", "grenades"]}, "p2": {"square": "r1c4"}}}
    state = GAME.scenario_start(2, {"arena": "training"}, 0, position)
    state, events = GAME.apply_str(state, "p1 program R3E B1N R1N")
    state, events = GAME.apply_str(state, "p2 program R6N R6N B6S")
    decision = GAME.pending(state)
    assert decision is not None and decision.kind == "red-die"
    assert decision.choices == ("p1 fire", "p1 use crossfire", "p1 use grenades")
    assert [e.kind for e in events][-1] == "activate"  # the question comes as the die activates
    doc = GAME.state_to_json(state)
    assert GAME.state_hash(GAME.state_from_json(doc)) == GAME.state_hash(state)
    after, more = GAME.apply_str(state, "P1 USE GRENADES")  # letter case does not matter
    assert [e.kind for e in more][:2] == ["grenade", "detonation"]
    assert not any(e.kind == "activate" and e.data["die"] == "I:R3E" for e in more)  # not repeated
    assert GAME.observe(after)["robots"]["p2"]["damage"] == 1


def test_presets_and_bad_options() -> None:
    state = GAME.new_game(2, {}, 0)
    state, _ = GAME.apply_str(state, "p1 preset Remote_Control never")
    assert state.robots[0].presets == {"remote-control": "never"}
    with pytest.raises(IllegalAction, match="unknown module 'laser-sword'"):
        GAME.action_from_str(state, "p1 preset laser-sword never")
    with pytest.raises(ValueError, match="unknown VOLT option 'speed'"):
        GAME.new_game(2, {"speed": 3}, 0)
    with pytest.raises(ValueError, match="at most 4 robots"):
        GAME.new_game(3, {"killbots": 2}, 0)


def test_bad_positions_are_named() -> None:
    with pytest.raises(ScenarioError, match="both stand on r1c1"):
        GAME.scenario_start(2, {}, 0, {"robots": {"p1": {"square": "r1c1"}, "p2": {"square": "r1c1"}}})
    with pytest.raises(ScenarioError, match="VP token 2 belongs on space 2"):
        GAME.scenario_start(2, {}, 0, {"tokens": {"r4c4": 2}})
    with pytest.raises(ScenarioError, match="no robot 'p3'"):
        GAME.scenario_start(2, {}, 0, {"robots": {"p3": {}}})


def test_monitors_place_listed_modules_and_name_what_does_not_fit() -> None:
    state = GAME.scenario_start(2, {}, 0, {"robots": {"p1": {"modules": ["shield", "grenades", "crossfire"]}}})
    assert state.robots[0].monitor == {1: "shield", 3: "grenades", 4: "crossfire"}
    assert GAME.state_from_json(GAME.state_to_json(state)).robots[0].monitor == state.robots[0].monitor
    with pytest.raises(ScenarioError, match="Shield, Grenades, Bomb do not fit on the monitor row-4"):
        GAME.scenario_start(2, {}, 0, {"robots": {"p1": {"modules": ["shield", "grenades", "bomb"]}}})
    with pytest.raises(ScenarioError, match="Grenades in slot 2: slot 2 is next to the yellow module Shield"):
        GAME.scenario_start(2, {}, 0, {"robots": {"p1": {"monitor": {"1": "shield", "2": "grenades"}}}})
    with pytest.raises(ScenarioError, match="slots 1-4, not 5"):
        GAME.scenario_start(2, {}, 0, {"robots": {"p1": {"monitor": {"5": "grenades"}}}})
    with pytest.raises(ScenarioError, match="unknown monitor 'hexagon'; monitors: row-4, square-4, open-4"):
        GAME.new_game(2, {"monitor": "hexagon"}, 0)
    with pytest.raises(ScenarioError, match=r"adjacent \[1, 9\] must name two slots of 1-3"):
        GAME.new_game(2, {"monitor": {"slots": 3, "adjacent": [[1, 9]]}}, 0)
    open_monitor = GAME.scenario_start(2, {"monitor": "open-4"}, 0,
                                       {"robots": {"p1": {"modules": ["shield", "anchor", "bomb", "conductor"]}}})
    assert open_monitor.robots[0].modules == ["shield", "anchor", "bomb", "conductor"]


def test_the_die_fields_of_the_nameless_modules_select_the_other_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/volt.md: red module B's die is an assumption; `die` in modules.json changes it."""
    from dataclasses import replace

    from botboard.games import scenario
    from botboard.games.volt import modules

    doc = scenario.load(games.declaration("volt").scenario_folder() / "module-red-b-discharge.json")
    assert scenario.check(doc, scenario.run(doc)) == []  # blue die (the default): discharges
    table = dict(modules.table())
    table["red-module-b"] = replace(table["red-module-b"], die="red")
    monkeypatch.setattr(modules, "table", lambda: table)
    kinds = [e.kind for e in scenario.run(doc).events]
    assert "move" in kinds and "discharge" not in kinds  # a blue move no longer fits the card
    doc["position"]["robots"]["p1"]["modules"].append("mobility")
    doc["position"]["robots"]["p1"]["presets"]["mobility"] = "always"
    doc["actions"][0] = "p1 program R1E B1N R6S"  # the red die moves by MOBILITY: counts as red too
    kinds = [e.kind for e in scenario.run(doc).events]
    assert kinds.index("mobility") < kinds.index("discharge")


def test_preset_never_fires_the_laser_without_asking_and_equipping_waits_for_phase_0() -> None:
    position = {"bag": [], "tokens": {}, "robots": {"p1": {"square": "r1c1", "modules": ["grenades"],
                                                           "inventory": ["crossfire"]},
                                                    "p2": {"square": "r4c1"}}}
    state = GAME.scenario_start(2, {}, 0, position)
    with pytest.raises(IllegalAction, match="no question is pending"):
        GAME.action_from_str(state, "p1 equip crossfire 3")  # Phase 1: modules are equipped in Phase 0
    state, _ = GAME.apply_str(state, "p1 preset grenades never")
    state, _ = GAME.apply_str(state, "p1 program R3N B1E B1E")
    state, events = GAME.apply_str(state, "p2 program R6E R6E B1E")
    kinds = [e.kind for e in events]
    assert "grenade" not in kinds and "fire" in kinds  # never asked, never thrown
    assert GAME.observe(state)["robots"]["p2"]["damage"] >= 1
    assert GAME.pending(state) is not None and GAME.pending(state).kind == "equip"  # Phase 0 now
