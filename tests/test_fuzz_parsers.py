"""Fuzz every parser of outside input: board files (bytes and text), game ids, saved games'
`played:` headers, BOARD arguments and CLI option values.

The one contract: every input gives a parsed value or a one-line error, a `BoardError` whose
line and column point inside the text it was given, or a `UsageError`. Anything else (an
IndexError, a RecursionError, a bare ValueError, a message spanning two lines) is a bug.

Games are found through the registry, so a new game with board files or a generator is
fuzzed without touching this file. Known bugs outside the files this suite may fix are
pinned by `xfail(strict=True)` tests at the end, so fixing one turns the suite red until
its mark is dropped.
"""

from __future__ import annotations

import ast
import importlib
import random
import re
from functools import lru_cache
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as _hypothesis_event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from tests.examples import examples as scaled


def event(text: str) -> None:
    """Hypothesis statistics inside a property test; nothing in a plain test."""
    try:
        _hypothesis_event(text)
    except InvalidArgument:
        pass

from tui_grid.core.boardfile import BoardText, decode_text, format_board_file, parse_board_text
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.games.registry import (
    PLAYED_KEY,
    BoardFiles,
    Generated,
    game_keys,
    get_game,
    parse_count,
    parse_seed,
    parse_size_option,
)

SOURCE = "fuzz.txt"


def fuzz(count: int) -> settings:
    """Reproducible runs (derandomized, no example database) with no per-example deadline."""
    return settings(
        max_examples=scaled(count),
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


GAMES = {key: get_game(key) for key in game_keys()}
BOARD_GAMES = sorted(key for key, game in GAMES.items() if isinstance(game, BoardFiles))
ID_GAMES = sorted(key for key, game in GAMES.items() if isinstance(game, Generated))
#: Largest side (and count) a fuzzed game id may ask a generator for: generation stays quick.
TINY = 6
#: Characters that are not part of any board: control characters, line separators that
#: str.splitlines() knows but board files do not, wide and combining characters.
NOISE = "\t\x00\x0b\x0c\x1c\x85\u2028\u00a0\u0301é🙂:-=xX0qo"


# --- what every outcome must look like -----------------------------------------------------------
def file_lines(text: str) -> list[str]:
    """The lines of a file as parse_board_text numbers them (\\r\\n, \\r and \\n end a line)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if text.endswith(("\n", "\r")) and len(lines) > 1:
        lines.pop()
    return lines


def one_line(exc: Exception) -> str:
    message = str(exc)
    assert message, f"{type(exc).__name__} with an empty message"
    assert message.splitlines() == [message], f"message is not one line: {message!r}"
    return message


_NAMED_CHAR = re.compile(r"(?:unknown character|a second \w+) ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def check_board_error(exc: BoardError, text: str, source: str = SOURCE) -> None:
    """One line; the line and column exist in `text`; a named character is the one there."""
    one_line(exc)
    assert exc.source == source
    lines = file_lines(text)
    assert 1 <= exc.line <= len(lines), f"line {exc.line} outside the text's {len(lines)} lines: {exc}"
    line = lines[exc.line - 1]
    assert 1 <= exc.column <= len(line) + 1, f"column {exc.column} outside line {exc.line} {line!r}: {exc}"
    named = _NAMED_CHAR.search(exc.message)
    if named:
        char = ast.literal_eval(named.group(1))
        assert line[exc.column - 1 : exc.column - 1 + len(char)] == char, f"{exc} but the text there is {line!r}"


def _kind(message: str) -> str:
    """A message without its particulars, to count kinds of error in the statistics."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|-?\d+|\(.*", "_", message)[:32]


def outcome(call: Callable[[], Any], text: str | None = None, source: str = SOURCE) -> Any:
    """The parsed value, or None after checking the error; any other exception fails the test."""
    try:
        value = call()
    except BoardError as exc:
        if text is None:
            one_line(exc)
        else:
            check_board_error(exc, text, source)
        event(f"BoardError: {_kind(exc.message)}")
        return None
    except UsageError as exc:
        one_line(exc)
        event(f"UsageError: {_kind(str(exc))}")
        return None
    event("parsed")
    return value


def parse_everywhere(text: str) -> None:
    """The common header parse, then every game's own parse of the rows."""
    board_text = outcome(lambda: parse_board_text(text, SOURCE), text)
    if board_text is None:
        return
    for key in BOARD_GAMES:
        files = GAMES[key]
        board = outcome(lambda: files.parse(board_text), text)
        if board is not None:
            check_round_trip(key, board, board_text.meta)


def check_round_trip(key: str, board: Any, meta: Any = None) -> None:
    """A parsed board written back in file format (with its header, when known) parses to
    the same board; without its header (a title may be part of a board), to the same rows."""
    files = GAMES[key]
    written = format_board_file(files.board_rows(board), files.file_meta(board, dict(meta or {})))
    again = files.parse(parse_board_text(written, "<written>"))
    if meta is None:
        assert files.board_rows(again) == files.board_rows(board), written
    else:
        assert again == board, written


# --- shipped boards as seeds for near-valid ones ---------------------------------------------------
@lru_cache(maxsize=None)
def shipped(key: str) -> tuple[BoardText, ...]:
    """The game's shipped boards (small ones first), or nothing when it has none."""
    texts = [entry.load() for entry in GAMES[key].boards()]
    return tuple(sorted(texts, key=lambda text: sum(map(len, text.rows)))[:8])


@lru_cache(maxsize=None)
def alphabet(key: str) -> str:
    """The characters of the game's shipped boards: what its rows are made of."""
    chars = sorted({ch for text in shipped(key) for row in text.rows for ch in row})
    return "".join(chars) or "#. "


def sizes(width: int, height: int) -> st.SearchStrategy[str]:
    near = st.tuples(st.integers(width - 1, width + 1), st.integers(height - 1, height + 1))
    return st.one_of(
        near.map(lambda wh: f"{wh[0]}x{wh[1]}"),
        st.sampled_from(["0x0", "1x1", "1000x1000", "1001x2", "3x", "x3", "-1x3", "3 X 4", "3x4x5", "", "٣x٣", "1e3x2"]),
        st.text(max_size=8),
    )


@st.composite
def near_valid_files(draw: st.DrawFn, key: str) -> str:
    """A board file of game `key` with a few mistakes: a shipped board or a random grid of
    the game's characters, edited, under a header that may be wrong, in any line ending."""
    chars = alphabet(key)
    bases = shipped(key)
    if bases and draw(st.booleans()):
        base = draw(st.sampled_from(bases))
        rows = list(base.rows)
        meta = dict(base.meta)
    else:
        width, height = draw(st.integers(0, TINY)), draw(st.integers(0, TINY))
        rows = [draw(st.text(st.sampled_from(chars), min_size=max(0, width - 1), max_size=width)) for _ in range(height)]
        meta = {}
    cell_chars = st.one_of(st.sampled_from(chars), st.sampled_from(NOISE), st.characters())
    for _ in range(draw(st.integers(0, 3))):
        if not rows:
            rows.append(draw(st.text(cell_chars, max_size=4)))
            continue
        r = draw(st.integers(0, len(rows) - 1))
        row = rows[r]
        c = draw(st.integers(0, len(row)))
        edit = draw(st.sampled_from(["set", "insert", "delete", "drop row", "copy row", "blank row", "strip", "pad", "swap"]))
        if edit == "set" and row:
            c = min(c, len(row) - 1)
            rows[r] = row[:c] + draw(cell_chars) + row[c + 1 :]
        elif edit == "insert":
            rows[r] = row[:c] + draw(cell_chars) + row[c:]
        elif edit == "delete":
            rows[r] = row[:c] + row[c + 1 :]
        elif edit == "drop row":
            del rows[r]
        elif edit == "copy row":
            rows.insert(r, row)
        elif edit == "blank row":
            rows.insert(r, draw(st.sampled_from(["", " ", "\t", "  "])))
        elif edit == "strip":
            rows[r] = row.rstrip()
        elif edit == "pad":
            rows[r] = row + " " * draw(st.integers(1, 3))
        elif edit == "swap" and len(rows) > 1:
            other = draw(st.integers(0, len(rows) - 1))
            rows[r], rows[other] = rows[other], rows[r]
    header: list[str] = []
    if meta or draw(st.booleans()):
        width = max((len(row) for row in rows), default=0)
        if draw(st.booleans()):
            meta["size"] = draw(sizes(width, len(rows)))
        if draw(st.booleans()):
            meta.pop("size", None)
        header = [f"{k}: {v}" for k, v in meta.items()]
        extra = st.one_of(
            st.sampled_from(["title: x", "Size: 2x2", "size:3x3", "played: u", "id: ice:1x2:m1#seed1", "game: ice", "", "  ", "no colon", "a:", "---x", "- - -", ": v"]),
            st.builds(lambda k, v: f"{k}: {v}", st.from_regex(r"[A-Za-z][\w.-]{0,5}", fullmatch=True), st.text(max_size=6)),
        )
        for _ in range(draw(st.integers(0, 2))):
            header.insert(draw(st.integers(0, len(header))), draw(extra))
        if header or draw(st.booleans()):
            header.append(draw(st.sampled_from(["---", "---", "---", "--- ", "--", ""])))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    ending = draw(st.sampled_from(["", newline, newline * 2, " " + newline, newline + "  "]))
    return newline.join(header + rows) + ending


# --- board files ----------------------------------------------------------------------------------
@fuzz(300)
@given(st.binary(max_size=200))
def test_arbitrary_bytes(data: bytes) -> None:
    try:
        text = decode_text(data, SOURCE)
    except BoardError as exc:
        # The bad byte's line and column, counted as the parser counts them.
        replaced = data.decode("utf-8", "replace")
        check_board_error(exc, replaced)
        assert file_lines(replaced)[exc.line - 1][exc.column - 1] == "\ufffd", exc
        event("not UTF-8")
        return
    parse_everywhere(text)


@fuzz(250)
@given(st.data())
def test_near_valid_bytes(data: st.DataObject) -> None:
    """A near-valid file with a few stray bytes (bad UTF-8 after \\r line ends, say)."""
    key = data.draw(st.sampled_from(BOARD_GAMES))
    raw = bytearray(data.draw(near_valid_files(key)).encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 3))):
        stray = st.sampled_from([b"\xff", b"\x80", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"])
        raw[data.draw(st.integers(0, len(raw))) : 0] = data.draw(stray | st.binary(min_size=1, max_size=2))
    try:
        text = decode_text(bytes(raw), SOURCE)
    except BoardError as exc:
        replaced = bytes(raw).decode("utf-8", "replace")
        check_board_error(exc, replaced)
        assert file_lines(replaced)[exc.line - 1][exc.column - 1] == "\ufffd", exc
        return
    parse_everywhere(text)


@fuzz(300)
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    parse_everywhere(text)


@fuzz(400)
@given(st.data())
def test_near_valid_board_files(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(BOARD_GAMES))
    text = data.draw(near_valid_files(key))
    board_text = outcome(lambda: parse_board_text(text, SOURCE), text)
    if board_text is None:
        return
    files = GAMES[key]
    loaded = outcome(lambda: files.loaded_from_text(board_text, SOURCE), text)
    if loaded is not None:
        event(f"{key}: parsed")
        check_round_trip(key, loaded.board, board_text.meta)
        # A header that parses also starts: a bad `played:` is a located BoardError.
        outcome(lambda: GAMES[key].start(loaded), text)


@fuzz(100)
@given(
    st.lists(st.sampled_from(["title: t", "size: 2x2", "played: u", "", " ", "x: y"]), max_size=3),
    st.sampled_from(["---", "--- ", "---\t"]),
    st.lists(st.sampled_from(["", " ", "\t", "  "]), max_size=3),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
)
def test_headers_without_rows(header: list[str], end: str, blanks: list[str], newline: str, final: bool) -> None:
    """A header closed by `---` and nothing but blank lines after it."""
    text = newline.join(["title: t", *header, end, *blanks]) + (newline if final else "")
    assert outcome(lambda: parse_board_text(text, SOURCE), text) is None


@pytest.mark.parametrize("key", BOARD_GAMES)
def test_every_shipped_board_parses_and_round_trips(key: str) -> None:
    for entry in GAMES[key].boards():
        text = entry.load()
        check_round_trip(key, GAMES[key].parse(text), text.meta)


# --- saved games: a valid board and a random `played:` header -------------------------------------
def _random_log(key: str, base: BoardText, rng: random.Random, steps: int) -> str:
    """Up to `steps` legal moves from the start, in the game's own log format."""
    engine = GAMES[key].make_engine(GAMES[key].loaded_from_text(base))
    state, joints = engine.initial_state(), []
    for _ in range(steps):
        seats = engine.acting_seats(state)
        choices = {seat: list(engine.legal_actions(state, seat)) for seat in seats}
        if not seats or not all(choices.values()):
            break
        joint = {seat: rng.choice(actions) for seat, actions in choices.items()}
        state = engine.step(state, joint).state
        joints.append(joint)
    return engine.format_log(joints)


#: Programs for games whose action is a program (Bunny): loop counts and nesting kept small, so
#: a run stays far below the engine's step cap (see test_bunny_huge_step_count_is_bounded).
_PROGRAM = st.recursive(
    st.sampled_from(["F", "L", "R", "f", " ", ",", "X", "", "LOOP", "(", ")", "{", "}", "0"]),
    lambda inner: st.builds(
        lambda count, body: f"LOOP{count}{{{body}}}",
        st.sampled_from(["", "(2)", "(3)", "(17)", "(999999)", "(0)", "( 5 )", "(-1)", "()", "(²)"]),
        st.lists(inner, max_size=4).map(" ".join),
    ),
    max_leaves=8,
)


@st.composite
def played_values(draw: st.DrawFn, key: str, base: BoardText) -> str:
    """Legal moves with, or without, some noise; for program games, a few programs."""
    engine = GAMES[key].make_engine(GAMES[key].loaded_from_text(base))
    words = {engine.encode_action(action) for action in engine.legal_actions(engine.initial_state(), 0)}
    if words:
        legal = _random_log(key, base, random.Random(draw(st.integers(0, 2**16))), draw(st.integers(0, 12)))
        if draw(st.booleans()):
            return legal
        tokens = st.sampled_from(sorted(words | {w.swapcase() for w in words} | {",", " ", ";", "x", "uu", "U,D"}))
        noise = st.lists(st.one_of(tokens, st.sampled_from(NOISE)), max_size=4).map("".join)
        return draw(st.sampled_from(["", legal[: len(legal) // 2], legal])) + draw(noise) + draw(st.sampled_from(["", legal]))
    return " ; ".join(draw(st.lists(_PROGRAM, max_size=3)))


@fuzz(300)
@given(st.data())
def test_saved_games(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(BOARD_GAMES))
    base = data.draw(st.sampled_from(shipped(key)))
    played = data.draw(played_values(key, base))
    meta = {k: v for k, v in base.meta.items() if k != PLAYED_KEY}
    meta = {**dict(list(meta.items())[: data.draw(st.integers(0, len(meta)))]), PLAYED_KEY: played}
    files = GAMES[key]
    board = files.parse(base)
    text = format_board_file(files.board_rows(board), files.file_meta(board, meta))
    board_text = outcome(lambda: parse_board_text(text, SOURCE), text)
    if board_text is None:
        return
    loaded = files.loaded_from_text(board_text, SOURCE)
    started = outcome(lambda: GAMES[key].start(loaded), text)
    if started is None:
        return
    engine, steps = started
    states = engine.replay(steps)
    assert len(states) == len(steps) + 1
    event(f"{key}: replayed {min(len(steps), 3)}{'+' if len(steps) > 3 else ''} steps")


# --- game ids ---------------------------------------------------------------------------------------
def id_parser(key: str) -> Callable[[str], tuple[Any, ...]] | None:
    """The generator module's own `parse_game_id` (cheap: it generates nothing), if any."""
    try:
        return importlib.import_module(f"tui_grid.games.{key}.generator").parse_game_id
    except (ImportError, AttributeError):
        return None


@lru_cache(maxsize=None)
def tiny_options(key: str) -> tuple[tuple[str, str], ...]:
    """The game's option values for a small board: the smallest square size its generator
    accepts (from 3x3 up) and counts of 2 where that is valid, else the defaults."""
    game = GAMES[key]
    values = {option.key: option.default for option in game.options}
    for name, value in values.items():
        if value.isdigit() and _accepts(game, {**values, name: "2"}):
            values[name] = "2"
    if "size" in values:
        for side in range(3, 41):
            if _accepts(game, {**values, "size": f"{side}x{side}"}):
                values["size"] = f"{side}x{side}"
                break
    return tuple(values.items())


def _accepts(game: Any, values: dict[str, str]) -> bool:
    try:
        game.game_id_from_options(values, 1)
    except UsageError:
        return False
    return True


def small_enough(key: str, values: tuple[Any, ...]) -> bool:
    """Sizes near the game's smallest and other numbers tiny (the seed, last, aside):
    generating it is quick."""
    numbers = [v for v in values[:-1] if isinstance(v, int) and not isinstance(v, bool)]
    size = dict(tiny_options(key)).get("size", "3x3")
    side = max(TINY, int(size.split("x")[0]) + 2)
    return all(abs(v) <= side for v in numbers[:2]) and all(abs(v) <= 8 for v in numbers[2:])


@st.composite
def near_valid_ids(draw: st.DrawFn, key: str) -> str:
    """A valid id of tiny options with its numbers replaced and a few characters edited."""
    game = GAMES[key]
    seed = draw(st.integers(-5, 10**6))
    valid = game.game_id_from_options(dict(tiny_options(key)), seed)
    number = st.one_of(
        st.integers(0, TINY).map(str),
        st.sampled_from(["-1", "00", "1001", "99999999999", "1" * 5000, "٣", "²", ""]),
    )
    text = re.sub(r"\d+", lambda m: draw(number) if draw(st.integers(0, 3)) == 0 else m.group(0), valid)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        i = draw(st.integers(len(key) + 1, len(text)))  # keep the `key:` prefix
        edit = draw(st.sampled_from(["insert", "delete", "case"]))
        if edit == "insert":
            text = text[:i] + draw(st.sampled_from(list(":#x ,-Xs") + ["seed", "any", "yes", "\t", "\u00a0"])) + text[i:]
        elif edit == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + text[i:].swapcase()
    return text


@fuzz(250)
@given(st.data())
def test_game_ids(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(ID_GAMES))
    game = GAMES[key]
    # No line breaks: an id with one is the known bug of test_game_id_with_a_line_break_is_one_line.
    tail = st.text(st.characters(exclude_categories=("Cc", "Zl", "Zp")) | st.sampled_from("\t\x00\x7f"), max_size=30)
    text = data.draw(st.one_of(near_valid_ids(key), tail.map(lambda s: f"{key}:{s}")))
    parse = id_parser(key)
    if parse is not None:
        try:
            values = parse(text)
        except ValueError as exc:
            one_line(exc)
            event("bad id")
            values = ()  # fails again at once in board_from_id, without generating
        if not small_enough(key, values):
            event("skipped: generation too heavy")
            return
    board = outcome(lambda: game.board_from_id(text))
    if board is not None and isinstance(game, BoardFiles):
        check_round_trip(key, board)


@fuzz(60)
@given(st.data())
def test_game_ids_round_trip(data: st.DataObject) -> None:
    """An id made from valid tiny options generates, and the same id the same board."""
    key = data.draw(st.sampled_from(ID_GAMES))
    game = GAMES[key]
    values = dict(tiny_options(key))
    for option in game.options:
        if option.choices:
            values[option.key] = data.draw(st.sampled_from(option.choices))
        elif option.key == "size":
            side = int(values["size"].split("x")[0])
            values["size"] = f"{side + data.draw(st.integers(0, 1))}x{side + data.draw(st.integers(0, 1))}"
        elif values[option.key].isdigit():
            values[option.key] = str(int(values[option.key]) + data.draw(st.integers(0, 1)))
    made = outcome(lambda: game.game_id_from_options(values, data.draw(st.integers(-(10**9), 10**9))))
    if made is None:
        return
    first = outcome(lambda: game.board_from_id(made))
    if first is not None:
        assert game.board_from_id(made) == first


# --- BOARD arguments and option values ------------------------------------------------------------
@fuzz(200)
@given(st.data())
def test_board_arguments(data: st.DataObject) -> None:
    """A BOARD argument that is not a file: a name, a foreign or broken id, a folder."""
    key = data.draw(st.sampled_from(sorted(GAMES)))
    other = data.draw(st.sampled_from(sorted(GAMES)))
    arg = data.draw(
        st.one_of(
            # Printable: a name with a line break is the known bug of test_board_name_with_a_line_break.
            st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=40),
            st.from_regex(r"[a-z]{1,8}:[0-9a-z:#x]{0,12}", fullmatch=True),
            st.sampled_from([".", "..", "/", "boards", "tests", "boards/ice", f"{other}:", f"{other}:1x1", "standard", "spiral.txt", "nul\x00l"]),
        )
    )
    if arg == "-" or (arg.startswith(f"{key}:") and key in ID_GAMES):
        return  # stdin, or an id: test_game_ids covers those
    outcome(lambda: GAMES[key].load(arg))


_OPTION_TEXT = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"\s*-?\d{0,4}\s*[xX*]?\s*-?\d{0,4}\s*", fullmatch=True),
    st.sampled_from(["1" * 5000, "1_000", "٣", "²", "1e3", "0x10", "+5", "nan", "inf", "-0"]),
)


@fuzz(300)
@given(_OPTION_TEXT)
def test_option_values(text: str) -> None:
    size = outcome(lambda: parse_size_option(text))
    if size is not None:
        assert all(1 <= side <= 1000 for side in size)
    else:
        with pytest.raises(UsageError) as refused:
            parse_size_option(text)
        assert "set_int_max_str_digits" not in str(refused.value)  # a 5000-digit side is too large, not an int() limit
    count = outcome(lambda: parse_count("ghosts", text, minimum=1))
    if count is not None:
        assert count >= 1
    outcome(lambda: parse_seed(text))


@fuzz(250)
@given(st.data())
def test_generate_options_make_valid_ids(data: st.DataObject) -> None:
    """Option values (dialog or CLI flags) either fail with a UsageError or give an id its
    own game accepts; the id is only parsed here, never generated."""
    key = data.draw(st.sampled_from(ID_GAMES))
    game = GAMES[key]
    values = {
        option.key: data.draw(st.one_of(st.sampled_from(option.choices or (option.default,)), _OPTION_TEXT))
        for option in game.options
    }
    seed = data.draw(st.one_of(st.integers(), st.integers(-3, 3)))
    made = outcome(lambda: game.game_id_from_options(values, seed))
    if made is None:
        return
    assert game.is_game_id(made)
    parse = id_parser(key)
    if parse is not None:
        try:
            parse(made)
        except ValueError as exc:
            pytest.fail(f"{values} made {made!r}, which its own parser refuses: {exc}")


# --- known bugs outside the files this suite may fix (see the fuzz report) -----------------------
def _bunny_start(played: str) -> Any:
    bunny = GAMES["bunny"]
    text = f"played: {played}\n---\nS##\n"
    return bunny.start(bunny.loaded_from_text(parse_board_text(text, SOURCE)))


@pytest.mark.skipif("bunny" not in GAMES, reason="no bunny")
def test_bunny_deeply_nested_program() -> None:
    outcome(lambda: _bunny_start("LOOP{" * 600 + "F" + "}" * 600))


@pytest.mark.parametrize("key", ID_GAMES)
@pytest.mark.parametrize("brk", ["\n", "\r"])
def test_game_id_with_a_line_break_is_one_line(key: str, brk: str) -> None:
    outcome(lambda: GAMES[key].board_from_id(f"{key}:{brk}"))


def test_overlong_board_name() -> None:
    outcome(lambda: GAMES[BOARD_GAMES[0]].load("a" * 300))


def test_board_name_with_a_line_break() -> None:
    outcome(lambda: GAMES[BOARD_GAMES[0]].load("no\nsuch board"))
