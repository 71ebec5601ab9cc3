"""The board view keeps each drawn line and draws it again only when what it shows changed
(Evasion names its rows by the walls, marks and selection on them). A cached line must be
exactly the line a fresh repaint draws, whatever happened in between: steps, walls built
and removed, zooms, resizes, scrolls, selections, coordinates, colour on or off. Work is
bounded by counting the lines drawn, never by timing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.geometry import Region

from tests.examples import examples
from tui_grid.games.evasion.engine import EvasionEngine, State
from tui_grid.games.evasion.rules import Config
from tui_grid.core.boardfile import parse_board_text
from tui_grid.core.geometry import Pos
from tui_grid.games.evasion.view import EvasionBoardView
from tui_grid.games.ice.board import IceBoard, parse_ice
from tui_grid.games.ice.rules import IceState
from tui_grid.games.ice.view import IceBoardView
from tui_grid.games.tron.view import TronBoardView
from tui_grid.ui.board_view import BoardView, Overlay, Zoom

WIDTH, HEIGHT = 150, 120  # big enough for blocks of several cells at the small terminals below
ENGINE = EvasionEngine(Config(width=WIDTH, height=HEIGHT, prey_start=(100, 90)))
SIZES = ((40, 12), (80, 24), (61, 19), (120, 40))


class BoardApp(App[None]):
    """Just the Evasion board, as its screen shows it."""

    def __init__(self, engine: EvasionEngine = ENGINE, start: State | None = None) -> None:
        super().__init__()
        self.engine = engine
        self.start = start or engine.make_state()
        self.view = EvasionBoardView()

    def compose(self) -> ComposeResult:
        yield self.view

    def on_mount(self) -> None:
        config = self.engine.config
        self.view.use(self.engine, None)
        self.view.set_grid_size(config.width, config.height)
        self.view.show(self.start)


def cached_and_fresh(view: BoardView) -> tuple[list[list[Any]], list[list[Any]]]:
    """Every line as the cache gives it, then as drawn with the cache emptied."""
    height = view.size.height
    cached = [list(view.render_line(y)) for y in range(height)]
    view._lines.clear()
    fresh = [list(view.render_line(y)) for y in range(height)]
    return cached, fresh


def shown_and_fresh(view: BoardView) -> tuple[list[list[Any]], list[list[Any]]]:
    """What Textual shows after the lines marked dirty are redrawn, then what it shows
    after a full repaint with the line cache emptied: a line the view failed to mark
    dirty keeps its old picture in the first."""
    region = Region(0, 0, view.size.width, view.size.height)
    shown = [list(strip) for strip in view.render_lines(region)]
    view._lines.clear()
    view.refresh()
    fresh = [list(strip) for strip in view.render_lines(region)]
    return shown, fresh


def repaint(view: BoardView) -> int:
    """Lines drawn afresh by one whole repaint, the way Textual asks for it."""
    before = view.lines_drawn
    view.refresh()
    view.render_lines(Region(0, 0, view.size.width, view.size.height))
    return view.lines_drawn - before


# --- random states and changes -----------------------------------------------------------------
cells = st.tuples(st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))
velocities = st.tuples(st.integers(-1, 1), st.integers(-1, 1))


@st.composite
def walls(draw: st.DrawFn) -> tuple[int, int, int, int]:
    x, y = draw(cells)
    if draw(st.booleans()):
        return x, y, min(WIDTH - 1, x + draw(st.integers(0, 60))), y
    return x, y, x, min(HEIGHT - 1, y + draw(st.integers(0, 60)))


states = st.builds(
    lambda hunter, hv, prey, built: ENGINE.make_state(hunter=hunter, hunter_velocity=hv, prey=prey, walls=built),
    cells, velocities, cells, st.lists(walls(), max_size=5),
)
changes = st.one_of(
    st.tuples(st.just("state"), states),
    st.tuples(st.just("step"), velocities, velocities),  # hunter and prey move by one cell
    st.tuples(st.just("zoom"), st.sampled_from(list(Zoom))),
    st.tuples(st.just("resize"), st.sampled_from(SIZES)),
    st.tuples(st.just("scroll"), st.integers(-40, 40), st.just(0)),  # one axis at a time: the
    st.tuples(st.just("scroll"), st.just(0), st.integers(-20, 20)),  # lines shown before stay in view
    st.tuples(st.just("select"), st.integers(0, 5)),
    st.tuples(st.just("mark"), st.frozensets(st.tuples(st.integers(0, 20), st.integers(0, 40)), max_size=3)),  # near the top left: on screen unscrolled
    st.tuples(st.just("coords"), st.booleans()),
    st.tuples(st.just("no_color"), st.booleans()),
)


def moved(state: State, hunter_step: tuple[int, int], prey_step: tuple[int, int]) -> State:
    """The state with hunter and prey one cell further (kept on the board)."""
    def clamp(x: int, y: int) -> tuple[int, int]:
        return min(WIDTH - 1, max(0, x)), min(HEIGHT - 1, max(0, y))

    hunter = clamp(state.hunter[0] + hunter_step[0], state.hunter[1] + hunter_step[1])
    prey = clamp(state.prey[0] + prey_step[0], state.prey[1] + prey_step[1])
    return ENGINE.make_state(hunter=hunter, hunter_velocity=hunter_step, prey=prey, walls=state.walls, tick=state.tick + 1)


async def apply(pilot: Any, view: EvasionBoardView, change: tuple[Any, ...]) -> None:
    """One change, pushed the way the screens push them."""
    kind, *args = change
    if kind == "state":
        view.show(args[0], view.overlay)
    elif kind == "step":
        view.show(moved(view.state, *args), view.overlay)
    elif kind == "zoom":
        view.zoom_choice = args[0]
    elif kind == "resize":
        await pilot.resize_terminal(*args[0])
    elif kind == "scroll":
        view.scroll_to(view.scroll_x + args[0], view.scroll_y + args[1], animate=False, immediate=True)
    elif kind == "select":
        standing = view.state.walls
        view.show_overlay(Overlay(selected=standing[args[0]] if args[0] < len(standing) else None, marked=view.overlay.marked))
    elif kind == "mark":
        view.show_overlay(Overlay(selected=view.overlay.selected, marked=args[0]))
    elif kind == "coords":
        view.show_coords = args[0]
    elif kind == "no_color":
        pilot.app.no_color = args[0]  # set by hand: nothing repaints as a new colour mode would
        view.refresh()
    await pilot.pause()


async def play(start: State, zoom: Zoom, size: tuple[int, int], history: list[tuple[Any, ...]]) -> None:
    app = BoardApp(start=start)
    async with app.run_test(size=size) as pilot:
        view = app.view
        view.zoom_choice = zoom
        await pilot.pause()
        for change in history:
            await apply(pilot, view, change)
            cached, fresh = cached_and_fresh(view)
            assert cached == fresh, f"cached lines after {change[0]}"
            shown, fresh = shown_and_fresh(view)  # leaves the cache full for the next change
            assert shown == fresh, f"lines on screen after {change[0]}"


@settings(max_examples=examples(40), derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=states, zoom=st.sampled_from(list(Zoom)), size=st.sampled_from(SIZES), history=st.lists(changes, min_size=1, max_size=12))
def test_cached_lines_equal_a_fresh_repaint(start: State, zoom: Zoom, size: tuple[int, int], history: list[tuple[Any, ...]]) -> None:
    asyncio.run(play(start, zoom, size, history))


# --- bounded work --------------------------------------------------------------------------------
def dirty_lines(view: BoardView, change: Callable[[], None]) -> set[int]:
    """The lines of the view that `change` marked for Textual to draw again (a full
    refresh fails the test: it would restyle and resend every line)."""
    marked: list[Region] = []
    refresh = view.refresh

    def spy(*regions: Region, **options: Any) -> BoardView:
        assert regions, "a full refresh"
        marked.extend(regions)
        return refresh(*regions, **options)

    view.refresh = spy  # type: ignore[method-assign]
    try:
        change()
    finally:
        del view.refresh
    return {y for region in marked for y in range(region.y, region.bottom)}


def line_of(view: BoardView, cell: tuple[int, int]) -> int:
    """The terminal line (in the view) that shows a cell (x, y)."""
    frame = view.frame()
    rows_per_line = 2 * frame.block if frame.zoom is Zoom.WHOLE else frame.zoom.rows_per_line
    return cell[1] // rows_per_line + frame.margin_y - frame.scroll_y


async def test_a_step_redraws_only_the_lines_it_touched() -> None:
    """A 300x300 board in play at 200x60: a step that moves the hunter and prey by one cell
    redraws the lines they left and reached, at most six (hunter, heading, prey), not 60."""
    engine = EvasionEngine(Config())
    for zoom in (Zoom.WHOLE, Zoom.HALF):
        app = BoardApp(engine)
        async with app.run_test(size=(200, 60)) as pilot:
            view = app.view
            view.zoom_choice = zoom
            before = engine.make_state(hunter=(40, 41), hunter_velocity=(1, 1), prey=(100, 60), walls=[(0, 90, 120, 90), (150, 0, 150, 200)])
            after = engine.make_state(hunter=(41, 42), hunter_velocity=(1, 1), prey=(101, 61), walls=before.walls, tick=1)
            view.show(before)
            await pilot.pause()
            assert repaint(view) == 0  # Textual's own repaint after the pause has drawn every line
            dirty = dirty_lines(view, lambda: view.show(after))
            touched = {line_of(view, (x, y)) for state in (before, after) for x, y, _ in view.marks(state)}
            assert dirty <= touched and len(touched) <= 6, (zoom, dirty, touched)
            drawn = repaint(view)
            assert 0 < drawn <= len(touched), (zoom, drawn, touched)
            cached, fresh = cached_and_fresh(view)
            assert cached == fresh


async def test_a_wall_redraws_only_the_lines_it_crosses() -> None:
    engine = EvasionEngine(Config())
    app = BoardApp(engine)
    async with app.run_test(size=(200, 60)) as pilot:
        view = app.view
        view.zoom_choice = Zoom.HALF
        state = engine.make_state(hunter=(40, 10), prey=(100, 100))
        view.show(state)
        await pilot.pause()
        repaint(view)
        one = engine.make_state(hunter=(40, 10), prey=(100, 100), walls=[(0, 30, 120, 30)])
        assert len(dirty_lines(view, lambda: view.show(one))) == 1  # a horizontal wall: its one line
        assert repaint(view) == 1
        two = engine.make_state(hunter=(40, 10), prey=(100, 100), walls=[(0, 30, 120, 30), (60, 20, 60, 39)])
        assert len(dirty_lines(view, lambda: view.show(two))) == 10  # rows 20..39: ten half-block lines
        assert repaint(view) == 10


async def test_a_view_without_row_keys_draws_every_line() -> None:
    """A game that cannot name its rows gets no line cache: every repaint draws every line."""
    app = BoardApp()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.view
        view.rows_key = lambda first, last: None  # type: ignore[method-assign]
        view.show(ENGINE.make_state(hunter=(3, 4), prey=(90, 80)))
        view.zoom_choice = Zoom.WHOLE
        await pilot.pause()
        board_lines = view.frame().board_lines
        assert repaint(view) == min(board_lines, view.size.height)


class IceApp(App[None]):
    """Just an Ice map, as its screen shows it."""

    def __init__(self, board: IceBoard) -> None:
        super().__init__()
        self.board = board
        self.view = IceBoardView()

    def compose(self) -> ComposeResult:
        yield self.view

    def on_mount(self) -> None:
        self.view.use(None, self.board)
        self.view.set_grid_size(self.board.width, self.board.height)
        self.view.show(IceState(self.board.start))


def open_ice(size: int, rough: int = 5) -> IceBoard:
    """An open square map (S top left, E bottom right) with a rough tile on every 7th row."""
    rows = [[" "] * size for _ in range(size)]
    rows[0][0], rows[size - 1][size - 1] = "S", "E"
    for i in range(3, size, 7):
        rows[i][(i * rough) % size] = "x"
    return parse_ice(parse_board_text("\n".join("".join(row) for row in rows) + "\n"))


async def test_an_ice_slide_redraws_the_lines_it_left_and_reached_and_a_new_map_all() -> None:
    """A 300x300 ice map at 200x60 in each zoom: a slide down the first column redraws the
    player's old and new lines and the hint's, not the map; a new map drops every line."""
    board = open_ice(300)
    for zoom in (Zoom.WHOLE, Zoom.HALF):
        app = IceApp(board)
        async with app.run_test(size=(200, 60)) as pilot:
            view = app.view
            view.zoom_choice = zoom
            await pilot.pause()
            repaint(view)
            hint = Overlay(marks={Pos(4, 0): ("* ", "target")})
            moved = IceState(Pos(4, 0), moves=1, distance=4)
            dirty = dirty_lines(view, lambda: view.show(moved, hint, focus=moved.pos))
            assert 1 <= len(dirty) <= 2, (zoom, dirty)
            assert 1 <= repaint(view) <= 2
            cached, fresh = cached_and_fresh(view)
            assert cached == fresh
            view.use(None, open_ice(300, rough=11))  # the same player on another map of the same size
            view.show(moved)
            assert repaint(view) == min(view.frame().board_lines, view.size.height)
            cached, fresh = cached_and_fresh(view)
            assert cached == fresh


class TronApp(App[None]):
    """Just a Tron arena, as its screen shows it."""

    def __init__(self, state: Any) -> None:
        super().__init__()
        self.state = state
        self.view = TronBoardView()

    def compose(self) -> ComposeResult:
        yield self.view

    def on_mount(self) -> None:
        self.view.set_grid_size(self.state.width, self.state.height)
        self.view.show(self.state)


async def test_a_tron_tick_redraws_the_lines_its_heads_are_on_not_the_arena() -> None:
    """A 40x40 arena at 160x50: a tick moves both cycles one cell, which redraws the lines
    of the rows they left and reached (at most four), and the picture equals a fresh one."""
    from tui_grid.core.geometry import Direction
    from tui_grid.games.tron.board import board_from_rows
    from tui_grid.games.tron.engine import TronEngine

    rows = ["#" * 40] + ["#" + "-" * 38 + "#" for _ in range(38)] + ["#" * 40]
    engine = TronEngine(board_from_rows(rows, Pos(10, 5), Pos(30, 34)))
    state = engine.initial_state()
    app = TronApp(state)
    async with app.run_test(size=(160, 50)) as pilot:
        view = app.view
        await pilot.pause()
        repaint(view)
        for moves in ({0: Direction.RIGHT, 1: Direction.LEFT}, {0: Direction.DOWN, 1: Direction.UP}):
            state = engine.step(state, moves).state
            rows = {head.row for head in state.heads} | {head.row for head in app.state.heads}
            dirty = dirty_lines(view, lambda: view.show(state))
            assert 0 < len(dirty) <= len(rows) <= 4, (dirty, rows)
            assert 0 < repaint(view) <= len(rows)
            app.state = state
            cached, fresh = cached_and_fresh(view)
            assert cached == fresh
