"""The Online lobby's keys, each pressed in the app (Pilot) against a real hub in this
process: t and e join the quick-match queues, c challenges the highlighted player, b plays
a bot, w watches, d declines, enter accepts, esc leaves; and a match opens the game's own
screen on the hub's mirror, where the clock is not the player's to pause."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.test_hub import Player
from tui_grid.online.hub import Hub, Pace
from tui_grid.online.client import HubFeed
from tui_grid.ui.app import TuiGridApp
from tui_grid.ui.confirm_dialog import ConfirmDialog
from tui_grid.ui.lobby import YOU, ChallengeDialog, HubNews, LobbyScreen
from tui_grid.ui.match_screen import MatchScreen
from tui_grid.ui.menu import MenuScreen
from tui_grid.ui.settings import Settings


hub_lines: list[str] = []


@pytest.fixture
def hub(tmp_path: Path):  # type: ignore[no-untyped-def]
    hub_lines.clear()
    hub = Hub(tmp_path / "hub", pace=Pace(countdown=1, beat=0.05, between_rounds=0.05, tick_seconds=0.3), log=hub_lines.append)
    hub.start()
    yield hub
    hub.close()


@pytest.fixture
def app(hub: Hub, monkeypatch) -> TuiGridApp:
    app_end, _ = hub.admit("ann")
    monkeypatch.setenv("TUI_GRID_HUB_FD", str(app_end.detach()))
    return TuiGridApp(online="", settings=Settings(countdown=0))


@pytest.fixture
def bob(hub: Hub):  # type: ignore[no-untyped-def]
    player = Player(hub, "bob")
    yield player
    player.close()


async def until(pilot: Any, condition: Callable[[], bool], steps: int = 1500) -> None:
    """Let the app run until `condition` holds (bounded in steps, not seconds)."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the condition never held")


def lobby_ids(app: TuiGridApp) -> list[str]:
    if not isinstance(app.screen, LobbyScreen) or not app.screen.query("#lobby"):
        return []  # not there yet, or not composed yet
    lobby = app.screen.query_one("#lobby")
    return [lobby.get_option_at_index(i).id or "" for i in range(lobby.option_count)]


async def highlight(pilot: Any, app: TuiGridApp, option_id: str) -> None:
    await until(pilot, lambda: option_id in lobby_ids(app))
    app.screen.query_one("#lobby").highlighted = lobby_ids(app).index(option_id)


def ann_link(hub: Hub) -> Any:
    return hub.links.get("ann")


@pytest.mark.parametrize(("key", "game"), [("t", "tron"), ("e", "evasion")])
async def test_t_and_e_join_the_quick_match_queue_and_esc_leaves_it(app: TuiGridApp, hub: Hub, key: str, game: str) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        await pilot.press(key)
        await until(pilot, lambda: hub.queue.get(game) is ann_link(hub))
        assert "Waiting for another player" in str(app.screen.query_one("#news").content)
        app.screen.post_message(HubNews(app.screen.client.welcome))  # a welcome heard late keeps the waiting line
        await pilot.pause()
        news = str(app.screen.query_one("#news").content)
        assert news.startswith("Welcome, ann") and "Waiting for another player" in news, news
        await pilot.press("escape")
        await until(pilot, lambda: game not in hub.queue)
        assert isinstance(app.screen, MenuScreen)


async def test_a_rides_in_the_arena_and_its_round_opens_on_screen(app: TuiGridApp, hub: Hub) -> None:
    hub.arena_cycles = 3
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        screen: MatchScreen = app.screen
        names = screen.match.score.names
        assert len(names) == 3 and "ann" in names and sum(name.endswith(" bot") for name in names) == 2  # bots fill the seats
        assert hub.arena is not None and screen.feed.you == names.index("ann")
        await pilot.press("escape", "y")  # leaving forfeits only ann's cycle; the room closes once nobody rides
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_c_challenges_the_highlighted_player_and_d_withdraws(app: TuiGridApp, hub: Hub, bob: Player) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await highlight(pilot, app, "p:bob")
        await pilot.press("c")
        assert isinstance(app.screen, ChallengeDialog)
        await pilot.press("enter")
        await until(pilot, lambda: len(hub.challenges) == 1)
        challenge = next(iter(hub.challenges.values()))
        assert (challenge.by, challenge.to, challenge.game, challenge.board, challenge.rounds) == ("ann", "bob", "evasion", "evasion:N10:M5", 2)  # the first online game, in the menu's order
        assert challenge.rated  # rated unless asked otherwise
        await highlight(pilot, app, f"w:{challenge.id}")
        await pilot.press("d")
        await until(pilot, lambda: not hub.challenges)
        await highlight(pilot, app, "p:bob")
        await pilot.press("c")
        app.screen.query_one("#rated").value = False
        await pilot.press("enter")
        await until(pilot, lambda: len(hub.challenges) == 1)
        assert not next(iter(hub.challenges.values())).rated  # casual


async def test_the_challenge_dialogs_start_from_the_last_challenge_of_their_kind(app: TuiGridApp, hub: Hub, bob: Player) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await highlight(pilot, app, "p:bob")
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, ChallengeDialog) and dialog.query_one("#game").value == "evasion"  # nothing to remember yet
        dialog.query_one("#game").value = "tron"
        await pilot.pause()
        dialog.query_one("#rounds").value = "3"
        dialog.query_one("#board").value = "pillars"
        dialog.query_one("#rated").value = False
        await pilot.press("enter")
        await until(pilot, lambda: len(hub.challenges) == 1)
        challenge = next(iter(hub.challenges.values()))
        await highlight(pilot, app, f"w:{challenge.id}")
        await pilot.press("d")  # withdrawn: the next dialog still starts from it
        await until(pilot, lambda: not hub.challenges)
        await highlight(pilot, app, "p:bob")
        await pilot.press("c")
        again = app.screen
        assert isinstance(again, ChallengeDialog)
        assert [again.query_one(f"#{field}").value for field in ("game", "board", "rounds", "rated")] == ["tron", "pillars", "3", False]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("b")  # a bot's dialog remembers its own kind: nothing yet
        assert app.screen.query_one("#game").value == "evasion" and app.screen.query_one("#seat").value == YOU
        app.screen.query_one("#game").value = "tron"
        await pilot.pause()
        app.screen.query_one("#level").value = "easy"
        app.screen.query_one("#seat").value = "medium"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("b")
        bot_dialog = app.screen
        assert [bot_dialog.query_one(f"#{field}").value for field in ("game", "level", "seat")] == ["tron", "easy", "medium"]


async def test_d_declines_and_enter_accepts_a_challenge(app: TuiGridApp, hub: Hub, bob: Player) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: ann_link(hub) is not None)
        bob.send(t="challenge", to="ann", game="tron", rounds=1)
        first = await _challenge_id(pilot, hub)
        await highlight(pilot, app, f"c:{first}")
        await pilot.press("d")
        assert "ann declined" in bob.expect(lambda m: m["t"] == "error")["text"]
        bob.send(t="challenge", to="ann", game="tron", rounds=1)
        second = await _challenge_id(pilot, hub)
        await highlight(pilot, app, f"c:{second}")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        screen: MatchScreen = app.screen
        assert isinstance(screen.feed, HubFeed) and screen.feed.you == 1 and screen.match.score.names == ("bob", "ann")


async def _challenge_id(pilot: Any, hub: Hub) -> int:
    await until(pilot, lambda: len(hub.challenges) == 1)
    return next(iter(hub.challenges))


async def test_b_plays_a_bot_and_the_match_screen_keeps_the_hubs_clock(app: TuiGridApp, hub: Hub) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        await pilot.press("b")
        assert isinstance(app.screen, ChallengeDialog)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        screen: MatchScreen = app.screen
        assert screen.match.score.names[1].endswith("bot") and not screen.steerable
        await until(pilot, lambda: screen.session.log != [])  # after the countdown's notes
        speed, steps = screen.settings.speed, len(screen.session.log)
        await pilot.press("space", "plus")  # not offered online: nothing happens
        assert not screen.paused and screen.settings.speed == speed
        await until(pilot, lambda: len(screen.session.log) > steps)  # the hub's clock runs on
        assert not any(screen.offers(common) for common in ("pause", "step", "faster", "slower", "hint", "next"))
        await pilot.press("escape")  # leaving a match a human plays asks first, online too
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        bot = screen.match.score.names[1]
        assert f"hands the match to {bot}" in str(app.screen.query_one("#question").content)
        await pilot.press("n")  # play on
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("q")  # q (which would quit the app) asks the same
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert hub.matches
        await pilot.press("escape", "y")  # and yes leaves: the match is the bot's
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and not hub.matches)
        assert any(f"end: Match over: {bot} wins: ann left the match." in line for line in hub_lines)


async def test_w_watches_a_match(app: TuiGridApp, hub: Hub, bob: Player) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        await pilot.press("w")
        assert "No match to watch" in str(app.screen.query_one("#news").content)
        bob.send(t="challenge", to="bot:easy", game="tron", rounds=3)
        await until(pilot, lambda: bool(hub.matches) and any(line.startswith("m:") for line in lobby_ids(app)))
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        screen: MatchScreen = app.screen
        assert isinstance(screen.feed, HubFeed) and screen.feed.you is None
        assert not screen.serves_seat(0) and not screen.serves_seat(1)  # a spectator steers nothing



async def test_a_lobby_hears_the_link_only_while_mounted_and_the_link_lives(app: TuiGridApp, hub: Hub, bob) -> None:
    """A race a loaded machine found: news reaching a lobby screen not yet mounted was posted
    from the link's thread, where Textual could not find the app: the error ended the link's
    reader and the lobby never heard from the hub again. Now a lobby listens once mounted,
    shows what came before from the client's state, and a late post is dropped quietly."""
    import threading

    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        spare = LobbyScreen(app.hub)  # made, never mounted: not listening
        assert spare._heard not in app.hub._listeners
        failed: list[BaseException] = []

        def deliver() -> None:  # as the link's thread would, to a screen that is gone
            try:
                spare._heard({"t": "error", "text": "too late"})
            except BaseException as exc:  # noqa: BLE001 - what the link's reader would die of
                failed.append(exc)

        reader = threading.Thread(target=deliver)
        reader.start()
        reader.join()
        assert not failed
        bob.send(t="doing", doing="in the lobby")  # news after all that still arrives
        await until(pilot, lambda: "bob" in " ".join(lobby_ids(app)))
        assert not app.hub.closed.is_set()


async def test_the_last_screen_of_an_online_match_keeps_its_verdict(app: TuiGridApp, hub: Hub, bob: Player) -> None:
    """The other player leaves between two rounds: this player's match screen says who won
    and why, and keeps saying it whatever comes after (a late round's end, a key)."""
    hub.pace = Pace(countdown=1, beat=0.05, between_rounds=30.0, tick_seconds=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        bob.send(t="queue", game="tron")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        screen: MatchScreen = app.screen
        await until(pilot, lambda: screen.session.over)  # nobody steers: the first round ends
        bob.send(t="leave")
        await until(pilot, lambda: "Match over: ann wins: bob left the match." in str(screen.query_one("#message").content))
        await pilot.press("z")
        await pilot.press("space")
        await pilot.pause()
        assert "Match over: ann wins: bob left the match." in str(screen.query_one("#message").content)
        await pilot.press("escape")  # the match is over: esc leaves without asking
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_m_offers_a_rematch_after_the_match_and_the_new_match_takes_the_screen(app: TuiGridApp, hub: Hub, bob: Player) -> None:
    hub.pace = Pace(countdown=1, beat=0.05, between_rounds=0.05, tick_seconds=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        bob.send(t="queue", game="tron")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        first: MatchScreen = app.screen
        assert first.match_over or not first.offers("rematch")  # not while the match is on
        await until(pilot, lambda: first.match_over)
        await until(pilot, lambda: "Rematch" in str(first.query_one("KeyBar").render()))
        await pilot.press("m")
        offer = bob.expect(lambda m: m["t"] == "note" and "offers a rematch" in m["text"])
        assert offer["text"].startswith("ann offers a rematch")
        bob.send(t="rematch")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen is not first)
        second: MatchScreen = app.screen
        assert second.match.score.names == tuple(reversed(first.match.score.names)) and second.feed is app.hub.feed  # seats swap


async def test_a_covered_lobby_hears_no_steps_and_shows_the_news_it_missed_when_back(app: TuiGridApp, hub: Hub, bob: Player, monkeypatch) -> None:
    """A message handled by the screen under the match's costs a repaint of the whole match
    screen: the lobby is never told a match's steps, nor its lists while a match covers it
    (the hub sends none to a player in a match), and shows the latest lists once back."""
    heard: list[tuple[str, bool]] = []  # (news, whether a match's screen covered the lobby)
    handle = LobbyScreen.on_hub_news

    def on_hub_news(self: LobbyScreen, message: Any) -> None:
        heard.append((type(message.news).__name__, isinstance(self.app.screen, MatchScreen)))
        handle(self, message)

    monkeypatch.setattr(LobbyScreen, "on_hub_news", on_hub_news)
    hub.pace = Pace(countdown=1, beat=0.05, between_rounds=30.0, tick_seconds=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        lobby = app.screen
        bob.send(t="queue", game="tron")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        screen: MatchScreen = app.screen
        carol = Player(hub, "carol")  # the lobby's lists change while the match plays
        try:
            await until(pilot, lambda: "carol" in hub.links)
            await until(pilot, lambda: screen.session.over)  # nobody steers: the round's steps are played
            await pilot.pause()
            assert len(screen.session.log) > 2
            assert not {"Step", "Round"} & {news for news, _ in heard}
            assert ("Lobby", True) not in heard and "3 online" not in str(lobby.query_one("#who").content)
            await pilot.press("escape", "y")
            await until(pilot, lambda: app.screen is lobby)
            assert "3 online" in str(lobby.query_one("#who").content)
            await until(pilot, lambda: "p:carol" in lobby_ids(app))
        finally:
            carol.close()


def a_finished_bot_match() -> Any:
    """A match of two easy bots, played to its end, as the store keeps it."""
    from tui_grid.core.headless import play_out
    from tui_grid.core.live import LiveMatch
    from tui_grid.core.players import PlayerContext
    from tui_grid.core.policy import ALL_KINDS
    from tui_grid.games.registry import get_game
    from tui_grid.online.accounts import match_record
    from tui_grid.online.records import Participant

    tron = get_game("tron")
    loaded = tron.load("standard")
    agents = [tron.make_agent("easy", PlayerContext(index, time_ms=5), ALL_KINDS) for index in range(2)]
    feed = LiveMatch(lambda index: tron.make_engine(loaded), agents, 2, names=["ann", "bob"], timeout=None, step_seconds=0.0)
    ended = play_out(feed)
    assert ended is not None
    people = (Participant("ann", "guest"), Participant("bob", "guest"))
    return feed, match_record("tron", "standard", people, feed.match.score, 2, ended.verdict.ending, ended.verdict.winner, None,
                              ended.text, 1.0, 2.0, rated=False, counts=True)


async def test_l_h_and_m_show_the_stores_lists_and_enter_replays_a_game(app: TuiGridApp, hub: Hub, tmp_path: Path) -> None:
    from tui_grid.games.tron.screen import TronScreen
    from tui_grid.online.store import SQLiteStore
    from tui_grid.ui.lobby_lists import LobbyList

    hub.store = SQLiteStore(tmp_path / "players.db")
    played, record = a_finished_bot_match()
    game_id = hub.store.record_match(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        lobby = app.screen
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LobbyList))
        assert "Tron leaderboard" in str(app.screen.query_one("#heading").content)
        await pilot.press("tab")  # the next game's leaderboard, in the same list
        await until(pilot, lambda: "Evasion leaderboard" in str(app.screen.query_one("#heading").content))
        await pilot.press("escape")
        await pilot.press("m")  # ann is a guest here: her games are not kept
        await until(pilot, lambda: "not kept" in str(lobby.query_one("#news").content))
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, LobbyList) and app.screen.query_one("#rows").option_count == 1)
        rows = app.screen.query_one("#rows")
        assert str(rows.get_option_at_index(0).prompt).startswith(f"{game_id}. Tron: ann vs bob") and rows.highlighted == 0
        app.settings = Settings(countdown=0, speed=9)  # the replay at its fastest: a test waits for its end
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TronScreen))
        replay: TronScreen = app.screen
        assert "New" not in str(replay.query_one("KeyBar").render())  # a replay sets up no new match...
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is replay  # ...and n opens no setup dialog over it
        await until(pilot, lambda: replay.match.round_index == 2, steps=3000)  # both rounds, as they were played
        assert [r.log for r in replay.match.score.rounds] == [r.log for r in played.match.score.rounds]
        assert [r.winner for r in replay.match.score.rounds] == [r.winner for r in played.match.score.rounds]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyList))


async def test_k_asks_for_another_key_and_the_hub_answers(app: TuiGridApp, hub: Hub) -> None:
    from tui_grid.ui.add_key_dialog import AddKeyDialog

    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and ann_link(hub) is not None)
        lobby = app.screen
        await pilot.press("k")
        assert isinstance(app.screen, AddKeyDialog)
        await pilot.press("enter")  # nothing pasted: said on the dialog's error line
        assert "the .pub file's one line" in str(app.screen.query_one("#error").content)
        app.screen.query_one("#key").value = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDXoe8aSOhUVDLbME/tP01behRpyzrcnykhrZ/iN/k9g"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is lobby and "logged in with a key" in str(lobby.query_one("#news").content))


def test_a_match_line_says_arena_and_counts_rounds_only_where_there_are_several() -> None:
    from tui_grid.online.protocol import LobbyMatch
    from tui_grid.ui.lobby import match_line

    duel = LobbyMatch(4, "tron", "standard", ("ann", "bob"), "ann 1 · bob 0 · draws 0", 2, 3, 1)
    arena = LobbyMatch(5, "tron", "arena4", ("ann", "medium bot", "easy bot", "hard bot"), "no points yet", 1, 1, 0)
    assert match_line(duel, {}) == "  4. Tron: ann vs bob · round 2/3 · ann 1 · bob 0 · draws 0 · 1 watching"
    assert match_line(arena, {}).startswith("  5. Tron arena: ann vs medium bot vs easy bot vs hard bot · no points yet")
