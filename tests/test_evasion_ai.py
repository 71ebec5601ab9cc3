"""Evasion's bots: they play legal, deterministic games and the hunter catches."""

from __future__ import annotations

import json

from tui_grid.core.agents import Ask
from tui_grid.games.evasion.ai import (
    BoxHunter,
    LookaheadPrey,
    RandomPrey,
    box_around,
    chase_move,
    clean_box,
    make_agent,
    rollout,
)
from tui_grid.games.evasion.engine import (
    HUNTER,
    PREY,
    PREY_MOVES,
    EvasionEngine,
    HunterAction,
    PreyAction,
)
from tui_grid.games.evasion.headless import play_game, run_match
from tui_grid.games.evasion.rules import Config


def test_builtin_hunter_catches_random_prey_quickly():
    engine = EvasionEngine(Config(n=10, m=5, max_steps=3000))
    steps = [play_game(engine, BoxHunter(), RandomPrey(seed)).steps for seed in range(5)]
    assert all(s < 600 for s in steps), steps


def test_builtin_hunter_never_walls_itself_off_and_refuses_nothing():
    engine = EvasionEngine(Config(n=10, m=5, max_steps=24_000))
    hunter, prey = BoxHunter(), LookaheadPrey(beam_width=60)  # a narrow endgame search: the hunter is under test
    state = engine.initial_state()
    while not engine.outcome(state).over:
        actions = {HUNTER: hunter(engine, state)}
        if state.prey_moves_next:
            actions[PREY] = prey(engine, state)
        step = engine.step(state, actions)
        assert not [e for e in step.events if e.kind == "refused"]
        state = step.state
        left, top, right, bottom = box_around(engine.grid_of(state), *state.prey)
        hx, hy = state.hunter
        assert left <= hx <= right and top <= hy <= bottom, state
        assert len(state.walls) <= 5
    assert state.caught_at is not None
    # The lookahead prey lives well past a random prey's ~400 steps (about 1000 here).
    assert state.caught_at > 800, state.caught_at


def test_match_is_deterministic_and_json_ready():
    lines: list[str] = []
    first = run_match("builtin", "random", 10, 5, games=2, seed=7, emit=lines.append)
    again = run_match("builtin", "random", 10, 5, games=2, seed=7)
    assert first == again and len(lines) == 2 and "caught at step" in lines[0]
    assert set(first) >= {"catch_steps", "median", "hunter", "prey"}
    json.dumps(first)
    baseline = run_match("nowall", "random", 10, 5, games=1, seed=7, max_steps=500)
    assert baseline["catch_steps"][0] is None or baseline["catch_steps"][0] <= 500


def test_make_agent_gives_actions_for_its_seat():
    engine = EvasionEngine()
    state = engine.step(engine.initial_state(), {HUNTER: engine.default_action(engine.initial_state(), HUNTER)}).state
    for role, kind, cls in (("hunter", "builtin", HunterAction), ("hunter", "nowall", HunterAction),
                            ("prey", "builtin", PreyAction), ("prey", "random", PreyAction)):
        agent = make_agent(role, kind, seed=1)
        seat = HUNTER if role == "hunter" else PREY
        assert isinstance(agent.act(Ask(engine, state, seat)), cls)


def _play_out(engine, state, hunter, first):
    """Steps until the engine catches a prey that plays `first`, then `chase_move` (0: not
    caught within 1500 steps)."""
    pending = True
    for k in range(1, 1501):
        actions = {HUNTER: hunter(engine, state)}
        if state.prey_moves_next:
            move = first if pending else chase_move(*state.hunter, *state.hunter_velocity, *state.prey)
            actions[PREY] = PreyAction(move)
            pending = False
        state = engine.step(state, actions).state
        if state.caught_at is not None:
            return k
    return 0


def test_rollout_model_matches_the_engine_against_the_builtin_hunter():
    # The prey's model of the builtin hunter is exact in a clean rectangle: same catch step.
    cases = [
        (Config(n=10, m=5), {"walls": [(59, 0, 59, 299), (60, 80, 299, 80)], "hunter": (70, 90), "prey": (200, 200), "tick": 41, "last_build": 35}),
        (Config(n=1, m=2), {"walls": [(0, 150, 299, 150)], "hunter": (10, 160), "prey": (150, 200), "tick": 11, "last_build": 3}),
        (Config(n=25, m=3, preset="2016"), {"walls": [(100, 0, 100, 299), (101, 200, 299, 200)], "hunter": (299, 10), "hunter_velocity": (1, 1), "prey": (150, 150), "tick": 1}),
        (Config(n=10, m=5, max_steps=None), {"walls": [(20, 0, 20, 299), (61, 0, 61, 299), (21, 30, 60, 30), (21, 71, 60, 71)], "hunter": (25, 35), "prey": (50, 60), "tick": 7, "last_build": 0}),
    ]
    for config, fields in cases:
        engine = EvasionEngine(config)
        state = engine.make_state(**fields)
        grid = engine.grid_of(state)
        box = box_around(grid, *state.prey)
        assert clean_box(grid, box)
        for first in ((1, 1), (0, -1), (-1, 0)):
            expected = _play_out(engine, state, BoxHunter(), first)
            caught, _, _ = rollout(box, *state.hunter, *state.hunter_velocity, *state.prey, first, state.tick,
                                   state.last_build if state.last_build is not None else -(10**9),
                                   config.n, config.m, config.width, config.height, config.strict_capture, 1500)
            assert caught == expected, (config, first)
    assert expected > 0  # the small box: the prey is caught within the horizon


def small_game(hunter, seed: int, max_steps: int = 24_000, beam_width: int = 60):  # type: ignore[no-untyped-def]
    """The builtin prey on a 120x120 board: its endgame search narrowed (the shipped 1000
    positions a move cost ~10 s of CPU a game here), so the suite stays quick."""
    engine = EvasionEngine(Config(width=120, height=120, prey_start=(90, 80), n=10, m=5, max_steps=max_steps))
    return play_game(engine, hunter, LookaheadPrey(seed=seed, beam_width=beam_width)).catch_steps


def test_builtin_prey_is_seeded_and_reproducible():
    def played(seed: int):  # type: ignore[no-untyped-def]
        """Where 200 steps leave everything (the walls play out by then; a whole game
        costs several times more and shows nothing more about seeds)."""
        engine = EvasionEngine(Config(width=120, height=120, prey_start=(90, 80), n=10, m=5, max_steps=200))
        final = play_game(engine, BoxHunter(), LookaheadPrey(seed=seed, beam_width=60)).final
        return final.prey, final.hunter, final.walls

    one = [played(seed) for seed in (1, 2)]
    assert one == [played(seed) for seed in (1, 2)]
    assert one[0] != one[1], one  # seeds play different games


def test_builtin_prey_falls_back_outside_a_clean_rectangle():
    # A wall standing inside the prey's rectangle (not across it): the model does not
    # apply, and the prey still gives a move that keeps it out of reach.
    engine = EvasionEngine(Config(n=10, m=5))
    state = engine.make_state(walls=[(150, 100, 150, 140)], hunter=(140, 150), hunter_velocity=(1, 1), prey=(152, 162), tick=3)
    grid = engine.grid_of(state)
    assert not clean_box(grid, box_around(grid, *state.prey))
    move = LookaheadPrey(seed=4)(engine, state)
    assert move in PREY_MOVES
    assert move.velocity[0] >= 0 or move.velocity[1] >= 0  # not back toward the hunter


def test_sparring_hunters_obey_the_rules_and_stay_with_the_prey():
    # Every request is legal (the engine refuses none), the wait N and the count M hold,
    # and each style builds walls; a few hundred steps each against the random prey.
    from tui_grid.games.evasion.sparring import SPARRING_KINDS, make_sparring

    for kind in SPARRING_KINDS:
        for config in (Config(n=3, m=2, max_steps=600), Config(n=10, m=5, max_steps=600, preset="2016")):
            engine = EvasionEngine(config)
            hunter, prey = make_sparring(kind), RandomPrey(3)
            state = engine.initial_state()
            builds: list[int] = []
            while not engine.outcome(state).over:
                actions = {HUNTER: hunter(engine, state)}
                if state.prey_moves_next:
                    actions[PREY] = prey(engine, state)
                step = engine.step(state, actions)
                assert not [e.text for e in step.events if e.kind == "refused"], (kind, state.tick)
                builds += [step.state.tick for e in step.events if e.kind == "built"]
                state = step.state
                assert len(state.walls) <= config.m
            assert builds, kind
            assert all(b - a >= config.n for a, b in zip(builds, builds[1:])), (kind, builds)


def test_builtin_prey_outlasts_a_random_prey_against_each_sparring_hunter():
    from tui_grid.games.evasion.sparring import make_sparring

    # A random prey is caught within about 350 steps here; ours lives past 550 or the cap.
    small = Config(width=120, height=120, prey_start=(90, 80))
    cap = 700
    for kind in ("halver", "rectangle", "level"):
        ours = small_game(make_sparring(kind), 2, max_steps=cap)
        rnd = run_match(kind, "random", 10, 5, games=1, seed=2, config=small, max_steps=cap)
        assert (ours or cap) > rnd["median"] + 150, (kind, ours, rnd["catch_steps"])


def test_builtin_prey_keeps_its_model_only_for_our_hunter():
    # Against our hunter the exact model stays on; a hunter of another style is recognised
    # by the first wall the model would not have built, and the prey stops trusting it.
    from tui_grid.games.evasion.sparring import HalvingHunter

    engine = EvasionEngine(Config(n=10, m=5, max_steps=200))
    for hunter, expected in ((BoxHunter(), True), (HalvingHunter(), False)):
        prey = LookaheadPrey(seed=1)
        result = play_game(engine, hunter, prey)
        assert result.walls_built > 0
        assert prey.builtin_seen is expected, type(hunter).__name__


def boxed(engine: EvasionEngine):  # type: ignore[no-untyped-def]
    """A clean 40x40 rectangle with the hunter and the prey inside, and that rectangle."""
    state = engine.make_state(walls=[(20, 0, 20, 299), (61, 0, 61, 299), (21, 30, 60, 30), (21, 71, 60, 71)],
                              hunter=(25, 35), prey=(50, 60), tick=7, last_build=0)
    return state, box_around(engine.grid_of(state), *state.prey)


def test_rollout_models_match_the_engine_against_each_sparring_hunter():
    # The prey's models of the styles (ai.model_cut) are exact in a clean
    # rectangle: the rollout's catch step is the engine's against the sparring hunter, for
    # a prey that holds its first move a while and then chases.
    from tui_grid.games.evasion.sparring import make_sparring

    config = Config(n=3, m=4)
    engine = EvasionEngine(config)
    state, box = boxed(engine)
    for style in ("halver", "rectangle", "level"):
        for first, hold in (((1, 1), 1), ((0, -1), 5), ((1, -1), 30)):
            hunter = make_sparring(style)
            sim, pending, expected = state, hold, 0
            for k in range(1, 1501):
                actions = {HUNTER: hunter(engine, sim)}
                if sim.prey_moves_next:
                    move = first if pending else chase_move(*sim.hunter, *sim.hunter_velocity, *sim.prey)
                    pending = max(0, pending - 1)
                    actions[PREY] = PreyAction(move)
                sim = engine.step(sim, actions).state
                if sim.caught_at is not None:
                    expected = k
                    break
            caught, _, _ = rollout(box, *state.hunter, *state.hunter_velocity, *state.prey, first, state.tick, 0,
                                   config.n, config.m, config.width, config.height, False, 1500, style=style, hold=hold)
            assert caught == expected > 0, (style, first, hold)


def test_builtin_prey_tells_the_hunter_styles_apart():
    # The prey drops each style its hunter does not play (a replay of the last two steps
    # with each model): one style is left against each hunter, none against random walls.
    # Here the styles settle by step 54 (the halver's); 150 steps also show the right one kept.
    small = Config(n=10, m=5, width=120, height=120, prey_start=(90, 80), max_steps=150)
    engine = EvasionEngine(small)
    from tui_grid.games.evasion.ai import RandomHunter
    from tui_grid.games.evasion.sparring import make_sparring

    for name, hunter in (("builtin", BoxHunter()), ("halver", make_sparring("halver")), ("random", RandomHunter(3, build=0.5))):
        prey = LookaheadPrey(seed=1)
        play_game(engine, hunter, prey)
        assert prey.styles == ([] if name == "random" else [name]), (name, prey.styles)


def test_the_prey_tells_the_styles_apart_when_asked_every_step():
    # The 2016 architect asks the prey every step, moving or not: a style is judged from
    # the last move played, two steps back, so the prey drops the styles that do not fit
    # rather than searching against all four models (four times the thinking).
    engine = EvasionEngine(Config(n=10, m=5, width=120, height=120, prey_start=(90, 80), max_steps=150))
    hunter, prey = BoxHunter(), LookaheadPrey(seed=1)
    state = engine.initial_state()
    while state.caught_at is None and state.tick < 150:
        move = prey(engine, state)  # asked on every step
        actions = {HUNTER: hunter(engine, state), PREY: move} if state.prey_moves_next else {HUNTER: hunter(engine, state)}
        state = engine.step(state, actions).state
    assert prey.styles == ["builtin"]


def test_the_prey_keeps_its_promise_against_the_builtin_hunter():
    # The plan in hand is always a candidate and is only traded for a strictly better one, so
    # against the exact model of our hunter the step it promises never comes sooner, and
    # the game ends exactly there.
    engine = EvasionEngine(Config(n=10, m=5, width=120, height=120, prey_start=(90, 80), max_steps=3000))
    hunter, prey = BoxHunter(), LookaheadPrey(seed=1, beam_width=60)  # the promise holds at any width
    state = engine.initial_state()
    promises: list[int] = []
    while not engine.outcome(state).over:
        actions = {HUNTER: hunter(engine, state)}
        if state.prey_moves_next:
            actions[PREY] = prey(engine, state)
            if prey.styles == ["builtin"] and prey.promise is not None:
                promises.append(prey.promise)
        state = engine.step(state, actions).state
    assert len(set(promises)) > 2, promises  # the variations found better plans on the way
    assert promises == sorted(promises)
    assert state.caught_at == promises[-1]


def test_rollout_plays_a_plan_of_segments_as_the_engine_does():
    # A plan: chase 3 moves (a move None), hold (1, 0) for 4, (0, -1) for 2, then the chase.
    config = Config(n=10, m=5)
    engine = EvasionEngine(config)
    state = engine.make_state(walls=[(59, 0, 59, 299), (60, 80, 299, 80)], hunter=(70, 90), prey=(200, 200), tick=41, last_build=35)
    box = box_around(engine.grid_of(state), *state.prey)
    segments = [(None, 3), ((1, 0), 4), ((0, -1), 2)]
    hunter, sim, expected = BoxHunter(), state, 0
    for k in range(1, 1501):
        actions = {HUNTER: hunter(engine, sim)}
        if sim.prey_moves_next:
            chase = chase_move(*sim.hunter, *sim.hunter_velocity, *sim.prey)
            move = segments[0][0] or chase if segments else chase
            if segments:
                segments[0] = (segments[0][0], segments[0][1] - 1)
                segments = [s for s in segments if s[1] > 0]
            actions[PREY] = PreyAction(move)
        sim = engine.step(sim, actions).state
        if sim.caught_at is not None:
            expected = k
            break
    caught, _, _ = rollout(box, *state.hunter, *state.hunter_velocity, *state.prey, None, state.tick, 35,
                           config.n, config.m, config.width, config.height, False, 1500, hold=3,
                           then=(((1, 0), 4), ((0, -1), 2)))
    assert caught == expected > 0


def test_a_prey_short_of_game_clock_thinks_less():
    # 2016 gives each player 120 s a game: a long game must not be lost on time.
    from tui_grid.games.evasion.client import HURRY_BELOW_MS, hurry

    prey = LookaheadPrey(seed=1)
    hurry(prey, HURRY_BELOW_MS + 1)
    assert not prey.hurried and len(prey.variations(7)) > 0
    hurry(prey, HURRY_BELOW_MS - 1)
    assert prey.hurried and prey.variations(7) == []
    hurry(RandomPrey(1), 0)  # a policy with no such knob is left alone


def test_the_endgame_line_lives_in_the_engine_as_long_as_its_search_says():
    # beam_plan searches against the exact model: played in the engine against the sparring
    # hunter, its line is not caught while it lasts, and it outlives the plain chase.
    from tui_grid.games.evasion.ai import beam_plan
    from tui_grid.games.evasion.sparring import make_sparring

    config = Config(n=10, m=5)
    engine = EvasionEngine(config)
    state, box = boxed(engine)
    for style in ("halver", "rectangle"):
        line = beam_plan(style, box, *state.hunter, *state.hunter_velocity, *state.prey, state.tick, 0,
                         config.n, config.m, config.width, config.height, False, 150, 300, 1)
        moves = [move for move, count in line for _ in range(count)]
        chase, _, _ = rollout(box, *state.hunter, *state.hunter_velocity, *state.prey, None, state.tick, 0,
                              config.n, config.m, config.width, config.height, False, 1500, style=style)
        assert 0 < chase < 2 * len(moves) <= 300, (style, chase, len(moves))
        hunter, sim = make_sparring(style), state
        for move in moves:
            for _ in range(2):
                actions = {HUNTER: hunter(engine, sim)}
                if sim.prey_moves_next:
                    actions[PREY] = PreyAction(move)
                sim = engine.step(sim, actions).state
                assert sim.caught_at is None, (style, sim.tick)


def test_a_prey_asked_within_a_tick_leaves_its_endgame_search_out():
    # The endgame search costs seconds (1-15 s of CPU); in the app's real-time match a
    # late builtin bot loses its move, and its search would run on beside the next ask.
    from tui_grid.games.evasion.definition import RoleAgent

    engine = EvasionEngine(Config(n=10, m=5))
    agent = RoleAgent("builtin", seed=1)
    state = engine.initial_state()
    clock = lambda: 100.0  # noqa: E731
    agent.act(Ask(engine, state, PREY, deadline=100.2, clock=clock))
    assert isinstance(agent.policy, LookaheadPrey) and not agent.policy.endgame_search
    agent.act(Ask(engine, state, PREY))  # no deadline: a match played by its own rules
    assert agent.policy.endgame_search
    agent.act(Ask(engine, state, PREY, deadline=130.0, clock=clock))
    assert agent.policy.endgame_search
