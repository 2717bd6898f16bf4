import pytest

from botboard.remote.url import RemoteUrl, RemoteUrlError, parse_remote_url


@pytest.mark.parametrize("text, expected", [
    ("mqtt://broker.lan/club", RemoteUrl("broker.lan", 1883, "club")),
    ("mqtts://broker.lan/club", RemoteUrl("broker.lan", 8883, "club", tls=True)),
    ("mqtt://broker.lan:1884/club", RemoteUrl("broker.lan", 1884, "club")),
    ("MQTTS://ann:s%40cret@10.0.0.2:9000/fri-night", RemoteUrl("10.0.0.2", 9000, "fri-night", True, "ann", "s@cret")),
    ("mqtt://ann@[::1]/club", RemoteUrl("::1", 1883, "club", username="ann")),
    ("mqtt://[::1]:1999/caf%C3%A9", RemoteUrl("::1", 1999, "café")),
    ("mqtt://broker/club#k3y-Of_the%20room", RemoteUrl("broker", 1883, "club", key="k3y-Of_the room")),
])
def test_good_urls(text: str, expected: RemoteUrl) -> None:
    assert parse_remote_url(text) == expected


@pytest.mark.parametrize("text, complaint", [
    ("broker.lan/club", "expected mqtt://"),
    ("http://broker.lan/club", "scheme 'http'"),
    ("mqtt://broker.lan", "no room"),
    ("mqtt://broker.lan/", "no room"),
    ("mqtt://broker.lan:port/club", "port 'port'"),
    ("mqtt://broker.lan:0/club", "port '0'"),
    ("mqtt://broker.lan:65536/club", "port '65536'"),
    ("mqtt://broker.lan:/club", "port ''"),
    ("mqtt:///club", "no broker host"),
    ("mqtt://:pw@broker/club", "empty user name"),
    ("mqtt://[::1/club", "closing ']'"),
    ("mqtt://broker/a+b", "'+'"),
    ("mqtt://broker/a%23b", "'#'"),
    ("mqtt://broker/club#", "nothing after '#'"),
    ("mqtt://broker/a/b", "'/'"),
    ("mqtt://broker/a%2Fb", "'/'"),
    ("mqtt://broker/a b", "space"),
    ("mqtt://broker/" + "r" * 101, "longer than 100"),
])
def test_bad_urls_say_what_is_wrong(text: str, complaint: str) -> None:
    with pytest.raises(RemoteUrlError, match=None) as error:
        parse_remote_url(text)
    assert complaint in str(error.value)


def test_the_password_never_shows() -> None:
    url = parse_remote_url("mqtts://ann:hunter2@broker/club")
    assert "hunter2" not in str(url) and "hunter2" not in repr(url)
    assert str(url) == "mqtts://ann@broker:8883/club"


def test_the_room_key_never_shows_but_the_link_to_share_has_it() -> None:
    url = parse_remote_url("mqtt://ann:hunter2@broker/club#s3cret")
    assert "s3cret" not in str(url) and "s3cret" not in repr(url)
    assert url.link() == "mqtt://ann@broker:1883/club#s3cret"


def test_the_link_names_the_host_by_its_keys_fingerprint() -> None:
    from botboard.remote.seal import Identity, fingerprint

    host = fingerprint(Identity.fresh().public)
    url = parse_remote_url(f"mqtt://broker/club#s3cret.{host}")
    assert (url.key, url.host_key) == ("s3cret", host)
    assert url.link() == f"mqtt://broker:1883/club#s3cret.{host}" and host not in str(url)
    # a key of the host's own choosing may hold a dot: only 22 fingerprint characters after it count
    assert parse_remote_url("mqtt://broker/club#tea.at.five").key == "tea.at.five"
    assert parse_remote_url("mqtt://broker/club#tea.at.five").host_key is None
