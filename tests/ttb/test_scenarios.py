"""The scenario suite covers the rules (every file is checked by tests/conformance/test_scenarios.py)."""



from botboard import games
from botboard.games import scenario

FILES = sorted(games.declaration("twin-tin-bots").scenario_folder().glob("*.json"))


def test_there_is_a_scenario_for_every_order():
    text = " ".join(p.read_text() for p in FILES)
    for code in ["F1", "F2", "\"L\"", "\"R\"", "LD", "UL", "\"Z\"", "L2", "R2", "AZ", "\"U\"", "F3",
                 "FL", "FZ", "BD", "\"J\"", "BU", "ZZ", "AT", "LZ", "DM "]:
        assert code in text, code


def test_exactly_proves_absence():
    doc = scenario.load(games.declaration("twin-tin-bots").scenario_folder() / "load-ground.json")
    result = scenario.run(doc)
    assert scenario.check(doc, result) == []
    doc["expect"] = {"crystals": {}, "robots": {"redA": {"$exactly": {"at": "1,0", "carry": "green"}}}}
    assert scenario.check(doc, result) == [
        'crystals: {} matches anything; to expect an empty object write {"$exactly": {}}',
        "robots.redA.facing: expected no such key, got 3"]
    doc["expect"] = {"crystals": {"$exactly": {"0,0": "green"}}}
    assert scenario.check(doc, result) == [
        'crystals.0,0: expected exactly "green", but there is no such field']
    doc["expect"] = {"crystals": {"$exactly": {}, "0,0": "green"}}
    assert "must be the only key" in scenario.check(doc, result)[0]
