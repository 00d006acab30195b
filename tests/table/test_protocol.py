"""The wire format: what a request may look like, and every way one is turned away."""

from __future__ import annotations

import json

import pytest

from tui.table import protocol as P


def line(**fields: object) -> bytes:
    return json.dumps({"v": 1, **fields}).encode() + b"\n"


@pytest.mark.parametrize(
    "raw",
    [
        line(t="hello", seat="kara"),
        line(t="act", action={"action": "end_turn"}, id=3),
        line(t="act", action={"action": "move", "path": [[1, 2], [2, 2]], "mode": "walk"}),
        line(t="act", action={"action": "power", "power": "fira", "targets": ["gob-1"]}),
        line(t="aim", mode="walk", cursor=[3, 4]),
        line(t="answer", value=True),
        line(t="answer", value=None),
        line(t="answer", value=["e1", "e2"]),
        line(t="undo", steps=2),
        line(t="control", creature="kara", to="ai"),
        line(t="ping"),
    ],
)
def test_well_formed_requests_pass(raw: bytes) -> None:
    req = P.decode_request(raw)
    assert req.t == json.loads(raw)["t"]


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"not json\n", "not-json"),
        (b"\xff\xfe\n", "not-json"),
        (b"[1,2]\n", "not-object"),
        (b'{"t":"ping"}\n', "version"),
        (line(t="ping").replace(b'"v": 1', b'"v": 2'), "version"),
        (line(t="ping").replace(b'"v": 1', b'"v": true'), "version"),
        (line(t="launch"), "unknown-type"),
        (line(t=7), "unknown-type"),
        (line(t="hello"), "bad-field"),
        (line(t="hello", seat="../etc"), "bad-field"),
        (line(t="hello", seat="kara", extra=1), "bad-field"),
        (line(t="act", action={"action": "move", "path": [[1, "x"]]}), "bad-field"),
        (line(t="act", action={"action": "move", "path": [[1, 2]] * 300}), "bad-field"),
        (line(t="act", action={"action": "format_disk"}), "bad-field"),
        (line(t="act", action={"action": "end_turn", "who": "kara"}), "bad-field"),
        (line(t="answer", value={"a": 1}), "bad-field"),
        (line(t="answer", value=1.5), "bad-field"),
        (line(t="undo", steps=0), "bad-field"),
        (line(t="undo", steps=True), "bad-field"),
        (line(t="ping", id=-1), "bad-field"),
        (b'{"v":1,"t":"answer","value":NaN}\n', "not-json"),
        (b"[" * 100_00 + b"\n", "not-json"),
        (line(t="hello", seat="x" * (P.MAX_UP + 1)), "too-long"),
    ],
)
def test_malformed_requests_are_rejected_with_a_code(raw: bytes, code: str) -> None:
    with pytest.raises(P.ProtocolError) as got:
        P.decode_request(raw)
    assert got.value.code == code
    assert "\n" not in got.value.reason


def test_a_request_never_names_its_sender() -> None:
    """No request type has a field saying who sends it: identity comes from the socket."""
    for t, (checks, _) in P.UP.items():
        assert not {"uid", "user", "who", "as"} & set(checks), t
    assert all("who" not in spec for spec in P.ACTION_FIELDS.values())


def test_encode_and_refusal_round_trip() -> None:
    msg = P.decode_news(P.refused("gm-only", "only the GM may undo", 4))
    assert msg == {
        "v": 1,
        "t": "refused",
        "code": "gm-only",
        "reason": "only the GM may undo",
        "id": 4,
    }
    with pytest.raises(P.ProtocolError):
        P.decode_news(b'{"v":9,"t":"update"}\n')


def test_request_checks_what_it_sends() -> None:
    with pytest.raises(P.ProtocolError):
        P.request("undo", steps=-1)
    assert P.decode_request(P.request("undo", steps=1)).get("steps") == 1
