"""The lobby's protocol (online.protocol): every message survives its wire form unchanged,
and every field a peer sends is checked before anything trusts it."""

from __future__ import annotations

import json

import pytest

from tui_grid.games.registry import get_game
from tui_grid.core.outcome import Failure, Fault, Outcome
from tui_grid.core.outcome import Result as Standing
from tui_grid.games.tron.causes import TronCause
from tui_grid.online.protocol import (MESSAGES, AddKey, Answer, Arena, Bye, Concede, BestLine, BestList, Bests, Solved, SolveKept, Challenge, Doing, End, Error, Forfeit, GameLine, GameList,
                                      GameRating, Games, Hello, Key, Leave, LeaderLine, Leaders, Lobby, LobbyChallenge,
                                      LobbyMatch, LobbyPlayer, MatchStart, Note, ProtocolError, Publish, Queue, Recorded,
                                      RecordedRound, Rematch, Replay, Result, Round, Step, Top, Unqueue, Watch, Welcome,
                                      Withdraw, from_wire, to_wire)

HEAD_ON = Outcome(Standing.DRAW, TronCause.HEAD_ON, cells=((3, 4),))
WALL = Outcome(Standing.WON, TronCause.WALL, 1, 0, cells=((0, 5),))

EXAMPLES = [
    Hello("token"), Doing("in the lobby"), Challenge("bob", "tron", "standard", 3, "bot:easy"), Answer(7, True),
    Challenge("bob", "evasion", rated=False), Withdraw(7), Queue("tron"), Unqueue(), Arena(), Watch(3), Key("U"), Leave(), Publish("evasion", "evasion:N10:M5", ("a", "b"), 2),
    Step("U,D"), Forfeit(1, Failure(Fault.NO_ANSWER, numbers=(0.3,))), Result(None, HEAD_ON, (1, 0), 12), Round(1), Note("Go!"),
    End("Match over."), Welcome("ann", ("evasion", "tron")), Error("That match is over."),
    Welcome("bob", ("tron",), False, True, (GameRating("tron", 1532, False, 12), GameRating("evasion", 1500, True, 1))),
    Lobby((LobbyPlayer("ann", "in the lobby", True), LobbyPlayer("bob", "playing", False, (GameRating("tron", 1411, True),))),
          (LobbyChallenge(3, "ann", "bob", "tron", "standard", 2), LobbyChallenge(5, "bob", "ann", "tron", "standard", 2, False, True)),
          (LobbyMatch(4, "tron", "standard", ("ann", "bob"), "ann 1 · bob 0 · draws 0", 2, 2, 1),)),
    MatchStart(4, "tron", "standard", 2, ("ann", "bob"), 0, (Result(0, WALL, (0, 1), 9),), 1, "U,D L,R",
               Forfeit(0, Failure(Fault.LEFT))),
    MatchStart(5, "tron", "standard", 2, ("ann", "bob"), 1, rematch=True),
    Rematch(), Concede(), Bye("ann logged in again from another session."), Top("tron"), Leaders("tron", (LeaderLine(1, "bob", 1532, False, 12), LeaderLine(2, "ann", 1411, True, 2))),
    Games(True), Games(False), GameList(True, (GameLine(9, "tron", "standard", ("ann", "bob"), "Match over: bob wins.", True, 1.79e9),)),
    AddKey("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDXoe8aSOhUVDLbME/tP01behRpyzrcnykhrZ/iN/k9g me@laptop"),
    Solved("ice", "0123456789abcdef", 7, 6), Solved("jimmy", "00ff", 3),
    SolveKept("ice", None, BestLine("0123456789abcdef", 7, 6, 1)), SolveKept("ice", BestLine("ab", 7, None, 1), BestLine("ab", 6, None, 2)),
    Bests("bunny"), BestList("bunny", (BestLine("0a", 12, 11, 3),)),
    Replay(9), Recorded(9, "tron", "standard", ("ann", "bob"), (RecordedRound((0, 1), "U,D L,R"),
                                                               RecordedRound((1, 0), "U,D", 1, "fault:left")), "Match over: ann wins."),
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
    ({"t": "result", "result": [0, "red crashed", [0, 1], 3]}, "an outcome is not an object"),
    ({"t": "result", "result": [0, {"result": "lost big"}, [0, 1], 3]}, "'result' is not a result"),
    ({"t": "result", "result": [0, {"result": "won", "cause": "tron:teleported"}, [0, 1], 3]}, "none this app knows"),
    ({"t": "result", "result": [0, {"result": "won", "cause": "chess:mate"}, [0, 1], 3]}, "none this app knows"),
    ({"t": "result", "result": [0, {"result": "won", "cause": ["tron:wall"]}, [0, 1], 3]}, "'cause' is not a cause"),
    ({"t": "result", "result": [0, {"result": "won", "seat": 9}, [0, 1], 3]}, "'seat'"),
    ({"t": "result", "result": [0, {"result": "won", "cells": [[1, -1]]}, [0, 1], 3]}, "'cells'"),
    ({"t": "result", "result": [0, {"result": "won", "numbers": [True]}, [0, 1], 3]}, "'numbers'"),
    ({"t": "result", "result": [0, {"result": "won", "detail": "x" * 401}, [0, 1], 3]}, "'detail'"),
    ({"t": "result", "result": [0, {"result": "draw", "parts": [{"result": "lost", "parts": [{"result": "lost"}]}]},
                                [0, 1], 3]}, "part has parts"),
    ({"t": "forfeit", "seat": 0, "reason": "ann left"}, "'fault' is not one of the faults"),
    ({"t": "forfeit", "seat": 0, "fault": "exploded"}, "'fault' is not one of the faults"),
    ({"t": "forfeit", "seat": 0, "fault": "no_answer", "numbers": [float("inf")]}, "'numbers'"),
    ({"t": "match", "id": 1, "game": "tron", "board": "b", "rounds": 1, "names": ["a"], "you": 3}, "'you'"),
    ({"t": "lobby", "players": [{"name": "a"}]}, "'doing'"),
    ({"t": "lobby", "players": "everyone"}, "'players' is not a list"),
    ({"t": "lobby", "players": [{"name": "a", "doing": "x", "ratings": [{"game": "tron", "rating": -5}]}]}, "'rating'"),
    ({"t": "gamelist", "mine": True, "rows": [{"id": 1, "game": "tron", "board": "b", "names": [], "verdict": "",
                                               "ended": "yesterday"}]}, "'ended' is not a time"),
    ({"t": "recorded", "id": 1, "game": "tron", "board": "b", "names": ["a"], "rounds": [{"seating": [0, 5], "log": ""}],
      "verdict": ""}, "do not fit its players"),
    ({"t": "leaders", "game": "tron", "rows": [{}] * 51}, "'rows' is not a list of at most 50"),
    ({"t": "solved", "game": "ice", "board": "../etc/passwd", "value": 3}, "'board' is not a board key"),
    ({"t": "solved", "game": "ice", "board": "ab", "value": -1}, "'value'"),
])
def test_a_field_out_of_shape_is_refused_and_says_which(data, why) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProtocolError, match=why):
        from_wire(data)


def test_an_answer_is_a_yes_only_when_it_says_true() -> None:
    assert from_wire({"t": "answer", "id": 1, "accept": "yes"}) == Answer(1, False)


@pytest.mark.parametrize("outcome", [
    Outcome(Standing.DRAW, TronCause.BOTH, parts=(Outcome(Standing.LOST, TronCause.WALL, 0, cells=((0, 2),)),
                                                  Outcome(Standing.LOST, TronCause.TRAIL, 1, cells=((4, 4),)))),
    Failure(Fault.BAD_OUTPUT, "[red]UP\x1b[2J", "not one of LEFT RIGHT UP DOWN").outcome(1, 0),
    Failure(Fault.CRASHED, "Traceback: boom", "between moves", (3,)).outcome(0, 1),
], ids=["both crashed", "bad output", "crashed"])
def test_an_outcome_crosses_as_data_and_reads_the_same(outcome: Outcome) -> None:
    """A round's end crosses by cause, seat and raw detail, and the receiver's sentence is
    the sender's: the program's output untouched until it is said."""
    message = Result(0, outcome, (0, 1), 7, outcome.seat)
    back = from_wire(json.loads(json.dumps(to_wire(message))))
    assert back == message and isinstance(back, Result)
    assert back.outcome.detail == outcome.detail and back.outcome.cause is outcome.cause
    tron = get_game("tron")
    assert tron.describe_outcome(back.outcome, ("ann", "bob")) == tron.describe_outcome(outcome, ("ann", "bob"))


def test_a_forfeit_keeps_a_long_output_raw_and_cut_to_the_wire_limit() -> None:
    failure = Failure(Fault.BAD_OUTPUT, "\x1b]0;pwned\x07" + "x" * 1000, "not a move")
    back = from_wire(json.loads(json.dumps(to_wire(Forfeit(1, failure)))))
    assert isinstance(back, Forfeit) and back.failure.detail == failure.detail[:400]
    assert back.failure.detail.startswith("\x1b]0;pwned\x07")  # raw on the wire: escaped only when said
