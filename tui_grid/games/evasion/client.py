"""Our bots as a course client: connect to any Evasion architect and play the role given.

`run_client(protocol, host, port, name)` speaks the 2023 or 2016 protocol (see the
protocol modules), plays with the builtin hunter and prey (`level`), answers exactly one
line per state line, and returns a summary dict (games played, roles, last ticks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_grid.core.agents import AgentError
from tui_grid.core.network import LineConnection
from tui_grid.games.evasion import protocol2016 as p2016
from tui_grid.games.evasion import protocol2023 as p2023
from tui_grid.games.evasion.ai import make_policy
from tui_grid.games.evasion.engine import EvasionEngine, HunterAction, PreyAction
from tui_grid.games.evasion.rules import Config, check_on_board

LEVELS = ("builtin",)


def _policies(level: str, seed: int) -> dict[str, Any]:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (choose {', '.join(LEVELS)})")
    return {"hunter": make_policy("hunter", "builtin", seed), "prey": make_policy("prey", "builtin", seed)}


def run_client(
    protocol: str,
    host: str,
    port: int,
    name: str = "tui_grid",
    level: str = "builtin",
    *,
    seed: int = 0,
    timeout: float | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play until the server says it is over (`end` / `done`) or hangs up. `timeout`: the
    longest wait for any one server line (None: no limit)."""
    say = log or (lambda text: None)
    with LineConnection.connect(host, port) as conn:
        conn.name = f"server {host}:{port}"
        if protocol == "2023":
            return _play_2023(conn, name, level, seed, timeout, say)
        if protocol == "2016":
            return _play_2016(conn, name, level, seed, timeout, say)
        raise ValueError(f"unknown protocol {protocol!r} (choose 2023 or 2016)")


def _play_2023(conn: LineConnection, name: str, level: str, seed: int, timeout: float | None,
               say: Callable[[str], None]) -> dict[str, Any]:
    conn.send_line(name)
    role, n, m = p2023.parse_role_line(conn.read_line(timeout))
    say(f"playing the {role} with N={n} M={m}")
    engine = EvasionEngine(Config(n=n, m=m))
    policy = _policies(level, seed)[role]
    summary: dict[str, Any] = {"protocol": "2023", "roles": [role], "states": 0, "ended": False}
    while True:
        try:
            line = conn.read_line(timeout).strip()
        except AgentError as exc:
            summary["error"] = exc.reason
            break
        if not line:
            continue
        if line == p2023.END:
            summary["ended"] = True
            break
        state = p2023.parse_state_line(line, engine)
        summary["states"] += 1
        summary["tick"] = state.tick
        action = policy(engine, state)
        if role == "hunter":
            assert isinstance(action, HunterAction)
            conn.send_line(p2023.hunter_reply(action, state, engine))
        else:
            assert isinstance(action, PreyAction)
            conn.send_line(p2023.prey_reply(action))
    return summary


#: Below this much of its game clock (2016: 120 s a game), our prey thinks less.
HURRY_BELOW_MS = 40_000


def hurry(policy: Any, time_left_ms: int) -> None:
    """The builtin prey thinks less once its clock runs low: a long game against a hunter
    that cannot catch it must not be lost on time."""
    if hasattr(policy, "hurried"):
        policy.hurried = time_left_ms < HURRY_BELOW_MS


def _play_2016(conn: LineConnection, name: str, level: str, seed: int, timeout: float | None,
               say: Callable[[str], None]) -> dict[str, Any]:
    summary: dict[str, Any] = {"protocol": "2016", "roles": [], "states": 0, "ended": False}
    role: str | None = None
    policies: dict[str, Any] = {}
    engine: EvasionEngine | None = None
    while True:
        try:
            line = conn.read_line(timeout).strip()
        except AgentError as exc:
            summary["error"] = exc.reason
            break
        if not line:
            continue
        word = line.lower()
        if word == p2016.SENDNAME:
            conn.send_line(name)
            continue
        if word == p2016.DONE:
            summary["ended"] = True
            break
        if word in ("hunter", "prey"):
            role = word
            summary["roles"].append(role)
            policies = _policies(level, seed)
            engine = None
            say(f"game {len(summary['roles'])}: playing the {role}")
            continue
        if role is None:
            raise ValueError(f"state line before a role: {line!r}")
        words = line.split()
        if engine is None and len(words) >= 8:
            m, n, width, height = (int(w) for w in words[3:7])
            check_on_board(width, height, ())  # before a grid of that size is made
            engine = EvasionEngine(Config(n=n, m=m, width=width, height=height, preset="2016"))
        assert engine is not None
        time_left, game_num, state = p2016.parse_state_line(line, engine)
        hurry(policies[role], time_left)
        summary["states"] += 1
        summary["tick"] = state.tick
        action = policies[role](engine, state)
        if role == "hunter":
            conn.send_line(p2016.hunter_reply(action, state, engine, game_num))
        else:
            conn.send_line(p2016.prey_reply(action, state, game_num))
    return summary


def main(argv: list[str] | None = None) -> int:
    """`python -m tui_grid.games.evasion.client --protocol 2023 --host H --port P [--name N]`."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="tui-grid evasion client")
    parser.add_argument("--protocol", choices=("2016", "2023"), default="2023")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--name", default="tui_grid")
    parser.add_argument("--level", choices=LEVELS, default="builtin")
    args = parser.parse_args(argv)
    summary = run_client(args.protocol, args.host, args.port, args.name, args.level,
                         log=lambda text: print(text, flush=True))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
