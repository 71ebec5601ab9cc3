"""The lobby's protocol (online.protocol): every message survives its wire form unchanged,
and every field a peer sends is checked before anything trusts it."""

from __future__ import annotations

import json

import pytest

from tui_grid.online.protocol import (MESSAGES, Answer, Challenge, Doing, End, Error, Forfeit, Hello, Key, Leave, Lobby,
                                      LobbyChallenge, LobbyMatch, LobbyPlayer, MatchStart, Note, ProtocolError, Publish,
                                      Queue, Result, Round, Step, Unqueue, Watch, Welcome, Withdraw, from_wire, to_wire)

EXAMPLES = [
    Hello("token"), Doing("in the lobby"), Challenge("bob", "tron", "standard", 3, "bot:easy"), Answer(7, True),
    Withdraw(7), Queue("tron"), Unqueue(), Watch(3), Key("U"), Leave(), Publish("evasion", "evasion:N10:M5", ("a", "b"), 2),
    Step("U,D"), Forfeit(1, "ran out of time"), Result(None, "both crash", (1, 0), 12), Round(1), Note("Go!"),
    End("Match over."), Welcome("ann", ("evasion", "tron")), Error("That match is over."),
    Lobby((LobbyPlayer("ann", "in the lobby", True),), (LobbyChallenge(3, "ann", "bob", "tron", "standard", 2),),
          (LobbyMatch(4, "tron", "standard", ("ann", "bob"), "ann 1 · bob 0 · draws 0", 2, 2, 1),)),
    MatchStart(4, "tron", "standard", 2, ("ann", "bob"), 0, (Result(0, "green crashes", (0, 1), 9),), 1, "U,D L,R",
               Forfeit(0, "ann left the match")),
]


def test_every_message_type_has_an_example() -> None:
    assert {type(message) for message in EXAMPLES} == set(MESSAGES.values())


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda message: type(message).__name__)
def test_a_message_comes_back_from_its_wire_form_unchanged(message) -> None:  # type: ignore[no-untyped-def]
    wire = to_wire(message)
    assert json.loads(json.dumps(wire)) == wire  # plain JSON
    assert from_wire(json.loads(json.dumps(wire))) == message


@pytest.mark.parametrize("data, why", [
    ({"t": "shout"}, "no message of type"),
    ({"t": "challenge", "to": ["bob"], "game": "tron"}, "'to' is not a text"),
    ({"t": "challenge", "to": "bob", "game": "tron", "rounds": 10**9}, "'rounds' is not a whole number from 1 to 9"),
    ({"t": "challenge", "to": "bob", "game": "tron", "rounds": True}, "'rounds'"),
    ({"t": "key", "action": "x" * 41}, "'action' is not a text of at most 40"),
    ({"t": "watch", "id": -1}, "'id'"),
    ({"t": "publish", "game": "tron", "board": "b", "names": [], "rounds": 1}, "'names' is empty"),
    ({"t": "publish", "game": "tron", "board": "b", "names": [1], "rounds": 1}, "'names'"),
    ({"t": "result", "result": [9, "x", [0, 1], 3]}, "winner"),
    ({"t": "result", "result": [0, "x", [0, 1], -1]}, "steps"),
    ({"t": "match", "id": 1, "game": "tron", "board": "b", "rounds": 1, "names": ["a"], "you": 3}, "'you'"),
    ({"t": "lobby", "players": [{"name": "a"}]}, "'doing'"),
    ({"t": "lobby", "players": "everyone"}, "'players' is not a list"),
])
def test_a_field_out_of_shape_is_refused_and_says_which(data, why) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProtocolError, match=why):
        from_wire(data)


def test_an_answer_is_a_yes_only_when_it_says_true() -> None:
    assert from_wire({"t": "answer", "id": 1, "accept": "yes"}) == Answer(1, False)
