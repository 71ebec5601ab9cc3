"""The Online lobby (`serve ssh` sessions): who is online and what they are doing, open
challenges, matches to watch; quick matches, challenges to players or to a bot. A match
opens the game's own match screen on a mirror of the hub's session (online.client).

Everything here came from other players: it is shown through the plain-text path only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Select

from tui_grid.games.registry import get_game, online_games
from tui_grid.online.protocol import (MAX_ROUNDS, QUICK_ROUNDS, AddKey, Answer, Arena, Challenge, Doing, Error, GameList, Games,
                                      Leaders, Lobby, LobbyMatch, MatchStart, Note, Queue, Recorded, Top, Unqueue, Watch, Welcome, Withdraw)
from tui_grid.core.errors import BoardError, UsageError
from tui_grid.core.words import article, plural
from tui_grid.core.replay import PlayedRound, replay_match
from tui_grid.online.accounts import fault_of, greeting, rated_name, rating_words, title
from tui_grid.online.wire import default_board
from tui_grid.online.client import Gone, HubClient, HubFeed, News
from tui_grid.ui.add_key_dialog import AddKeyDialog
from tui_grid.ui.form import FormDialog
from tui_grid.ui.lobby_lists import LobbyList
from tui_grid.ui.plain import Plain, PlainInput, option, styled


YOU = "__you__"



def match_line(match: LobbyMatch, ratings: dict[str, Any]) -> str:
    """A match's line in the lobby: an arena says so, and a match of one round (each of an
    arena's is one) has no round count."""
    kind = f"{title(match.game)}{' arena' if len(match.names) > 2 else ''}"
    names = " vs ".join(rated_name(name, match.game, ratings.get(name, ())) for name in match.names)
    rounds = f" · round {match.round}/{match.rounds}" if match.rounds > 1 else ""
    return f"  {match.id}. {kind}: {names}{rounds} · {match.score} · {match.watchers} watching"

class HubNews(Message):
    """Something the hub said, brought to the UI thread."""

    def __init__(self, news: News) -> None:
        super().__init__()
        self.news = news


class ChallengeDialog(FormDialog[Challenge | None]):
    """Which game, board and rounds to challenge a player (or a bot) to; `last`, the last
    challenge of this kind sent from the lobby, fills in the choices it made."""

    DEFAULT_CSS = """
    ChallengeDialog { align: center middle; }
    ChallengeDialog > Vertical { width: 60; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    ChallengeDialog #error { color: $error; }
    """

    def __init__(self, opponent: str, bot_levels: dict[str, tuple[str, ...]] | None = None, last: Challenge | None = None) -> None:
        super().__init__()
        self.opponent = opponent
        self.bot_levels = bot_levels  # set: a bot is the opponent, and its level is chosen here
        self.last = last if last is not None and last.game in online_games() else None

    def _offered(self, game: str, last_bot: str, otherwise: str) -> str:
        """`last_bot` ("bot:LEVEL" from the last challenge) as the choice for `game`, when
        that challenge was for this game and the level is one of its bots; else `otherwise`."""
        level = last_bot.removeprefix("bot:")
        fits = self.last is not None and self.last.game == game and self.bot_levels is not None and level in self.bot_levels[game]
        return level if fits else otherwise

    def _level(self, game: str) -> str:
        """The bot's level offered for `game`: the last one chosen for it, else the hardest."""
        assert self.bot_levels is not None
        return self._offered(game, self.last.to if self.last else "", self.bot_levels[game][-1])

    def _seat(self, game: str) -> str:
        """Who plays the challenger's seat in `game`: the last choice for it, else you."""
        return self._offered(game, self.last.seat_as if self.last else "", YOU)

    def compose(self) -> ComposeResult:
        with Vertical():
            who = "a builtin bot" if self.bot_levels else self.opponent
            yield Plain(styled(("Challenge ", "b"), (who, "b")))
            games = online_games()
            last = self.last
            game = last.game if last is not None else games[0]
            yield Select([(title(g), g) for g in games], value=game, allow_blank=False, compact=True, id="game")
            if self.bot_levels:
                levels = self.bot_levels[game]
                yield Select([(level, level) for level in levels], value=self._level(game), allow_blank=False, compact=True, id="level")
                yield Select([("you play it", YOU)] + [(f"{article(level)} bot plays it (you watch)", level) for level in levels],
                             value=self._seat(game), allow_blank=False, compact=True, id="seat")
            yield Plain("Board: a board name or a game id (empty: the game's usual one)")
            board = last.board if last is not None and last.board != default_board(game) else ""
            yield PlainInput(board, placeholder=default_board(game), compact=True, id="board")
            yield Plain(f"Rounds (1-{MAX_ROUNDS}; seats swap each round)")
            yield PlainInput(str(last.rounds if last is not None else QUICK_ROUNDS), compact=True, id="rounds")
            yield Select([("rated: the result changes the ratings", True), ("casual: no rating changes", False)],
                         value=last.rated if last is not None else True, allow_blank=False, compact=True, id="rated")
            yield Plain("", id="error")
            yield Plain("enter sends · esc cancels")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game" and self.bot_levels:
            levels = self.bot_levels[str(event.value)]
            level = self.query_one("#level", Select)
            level.set_options([(name, name) for name in levels])
            level.value = self._level(str(event.value))
            seat = self.query_one("#seat", Select)
            seat.set_options([("you play it", YOU)] + [(f"{article(name)} bot plays it (you watch)", name) for name in levels])
            seat.value = self._seat(str(event.value))
        if event.select.id == "game":
            self.query_one("#board", PlainInput).placeholder = default_board(str(event.value))

    def confirm(self) -> None:
        game = str(self.query_one("#game", Select).value)
        rounds_text = self.query_one("#rounds", PlainInput).value.strip() or str(QUICK_ROUNDS)
        if not rounds_text.isdigit() or not 1 <= int(rounds_text) <= MAX_ROUNDS:
            self.show_error(f"Rounds: a whole number from 1 to {MAX_ROUNDS}.")
            return
        board = self.query_one("#board", PlainInput).value.strip() or default_board(game)
        challenge = Challenge(self.opponent, game, board, int(rounds_text), rated=self.query_one("#rated", Select).value is True)
        if self.bot_levels:
            seat = self.query_one("#seat", Select).value
            challenge = replace(challenge, to=f"bot:{self.query_one('#level', Select).value}",
                                seat_as="" if seat == YOU else f"bot:{seat}")
        self.dismiss(challenge)


#: The news a lobby handles (on_hub_news); a match's steps and rounds are its screen's.
LOBBY_NEWS = (Welcome, Lobby, Error, Note, Leaders, GameList, Recorded, MatchStart, Gone)


class LobbyScreen(Screen):
    """The lobby of one linked app. `quick`: join that game's quick-match queue at once
    (`ssh -t host tron`), or with "arena" ride in the Tron arena (`ssh -t host arena`)."""

    BINDINGS = [
        # Short labels: the footer's one line holds them all at 80 columns.
        Binding("t", "quick('tron')", "Tron"),
        Binding("e", "quick('evasion')", "Evasion"),
        Binding("a", "arena", "Arena"),
        Binding("c", "challenge", "Challenge"),
        Binding("b", "bot", "Bot"),
        Binding("w", "watch", "Watch"),
        Binding("d", "decline", "Decline", show=False),  # said beside each challenge
        Binding("l", "leaders", "Top"),
        Binding("m", "games(True)", "Mine"),
        Binding("h", "games(False)", "Recent"),
        Binding("k", "add_key", "Add key", show=False),
        Binding("escape", "back", "Back"),
        Binding("q", "app.quit", "Quit", show=False),
    ]
    DEFAULT_CSS = """
    LobbyScreen > Vertical { padding: 0 1; }
    LobbyScreen #who { color: $accent; text-style: bold; }
    LobbyScreen #news { color: $warning; height: auto; }
    LobbyScreen OptionList { height: 1fr; }
    LobbyScreen #about { color: $text-muted; height: auto; }
    """

    def __init__(self, client: HubClient, quick: str | None = None) -> None:
        super().__init__()
        self.client = client
        self.quick = quick
        self.said = ""  # the news line's text
        self._unlisten: Callable[[], None] = lambda: None
        self._match_screen: Screen[Any] | None = None
        self._match_feed: HubFeed | None = None
        self._list: LobbyList | None = None
        #: The last challenge sent to a player and to a bot: the next dialog of its kind starts from it.
        self._last_challenge: dict[str, Challenge] = {}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain("", id="who")
            yield Plain("", id="news")
            yield OptionList(id="lobby")
            yield Plain("t, e: a quick match · a: ride in the Tron arena · enter: accept a challenge, watch a match or challenge a player · "
                        "l: leaderboards · m, h: your and recent games · k: add an SSH key", id="about")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        # Heard from here on: posting from the link's thread finds the app through the
        # mounted screen (before mounting it raises there and ends the link's reader).
        # What came before is in the client's state, shown now.
        self._unlisten = self.client.listen(self._heard)
        self.client.send(Doing("in the lobby"))
        self.show_lobby()
        if self.client.welcome is not None:
            self.say(greeting(self.client.welcome))
        if self.client.feed is not None:
            self.open_match()
        if self.quick == "arena":
            self.action_arena()
        elif self.quick:
            self.action_quick(self.quick)

    def on_unmount(self) -> None:
        self._unlisten()

    def _heard(self, news: News) -> None:
        """On the link's thread: to the UI thread, in order; only what the lobby acts on,
        and no lobby lists while a match's screen covers it (shown when it is back). A
        message the screen below the top one handles costs a repaint of the whole top
        screen (Textual repaints over a screen it counts as showing through), so a
        match's steps posted here would redraw every tick in full. The client has its feed
        from the match's start on, on this thread, so no list is posted after it."""
        if not isinstance(news, LOBBY_NEWS) or (isinstance(news, Lobby) and self.client.feed is not None):
            return
        try:
            self.post_message(HubNews(news))
        except RuntimeError:  # unmounted in between (Textual's NoActiveAppError): nobody to tell
            pass

    def on_hub_news(self, message: HubNews) -> None:
        news = message.news
        if isinstance(news, Welcome):
            self.show_lobby()
            words = greeting(news)  # before what was said already (a quick match asked on connecting)
            self.say(words if self.said in ("", words) else f"{words} {self.said}")
        elif isinstance(news, Lobby):
            self.show_lobby()
        elif isinstance(news, Error):
            self.say(news.text)
        elif isinstance(news, Note) and (self.client.feed is None or self.app.screen is self):
            self.say(news.text)
        elif isinstance(news, (Leaders, GameList)):
            self.show_list(news)
        elif isinstance(news, Recorded):
            self.replay(news)
        elif isinstance(news, MatchStart):
            if self._match_screen is not None and self.app.screen is self._match_screen:
                self.app.pop_screen()  # a rematch began: the last match's screen gives way (on_screen_resume)
            else:
                self.open_match()
        elif isinstance(news, Gone):
            self.say(self.client.farewell or "The server closed the link: online play is over for this session.")

    def say(self, text: str) -> None:
        self.said = text
        self.query_one("#news", Plain).update(text)

    # --- what the lobby shows ---------------------------------------------------------------------
    def show_lobby(self) -> None:
        lobby, me = self.client.lobby, self.client.name
        players, challenges, matches = lobby.players, lobby.challenges, lobby.matches
        welcome = self.client.welcome
        mine = rating_words(welcome.ratings) if welcome is not None else ""
        for player in players:
            if player.name == me:
                mine = rating_words(player.ratings)
        who = f"{me or '…'} (guest: nothing is kept)" if welcome is not None and welcome.guest else f"{me or '…'}{' · ' + mine if mine else ''}"
        self.query_one("#who", Plain).update(f"Online as {who} · {len(players)} online · {len(matches)} match{'' if len(matches) == 1 else 'es'}")
        options: list[Any] = []
        mine = [c for c in challenges if c.to == me]
        made = [c for c in challenges if c.by == me]
        if mine:
            options.append(option(styled(("Challenges for you", "b")), disabled=True))
            options += [option(f"  {c.by} {'offers a rematch' if c.rematch else 'challenges you to ' + title(c.game)} on {c.board}, "
                               f"{plural(c.rounds, 'round')}, {'rated' if c.rated else 'casual'}: enter accepts, d declines", id=f"c:{c.id}")
                        for c in mine]
        if made:
            options.append(option(styled(("Your challenges", "b")), disabled=True))
            options += [option(f"  {title(c.game)} with {c.to} on {c.board}: waiting (d withdraws)",
                               id=f"w:{c.id}") for c in made]
        options.append(option(styled(("Matches", "b"), ("  enter or w watches", "dim")), disabled=True))
        ratings = {p.name: p.ratings for p in players}
        options += [option(match_line(m, ratings), id=f"m:{m.id}") for m in matches]
        if not matches:
            options.append(option(styled(("  none yet", "dim")), disabled=True))
        options.append(option(styled(("Players", "b"), ("  enter challenges", "dim")), disabled=True))
        options += [option(f"  {p.name}{' (guest)' if p.guest else ''}{' (you)' if p.name == me else ''}"
                           f"{' · ' + rating_words(p.ratings) if p.ratings else ''} · {p.doing}", id=f"p:{p.name}")
                    for p in players]
        lobby_list = self.query_one("#lobby", OptionList)
        highlighted = lobby_list.highlighted_option.id if lobby_list.highlighted_option is not None else None
        lobby_list.clear_options()
        lobby_list.add_options(options)
        ids = [o.id for o in options]
        if highlighted in ids:
            lobby_list.highlighted = ids.index(highlighted)
        else:
            lobby_list.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)

    def selected(self) -> str:
        chosen = self.query_one("#lobby", OptionList).highlighted_option
        return chosen.id or "" if chosen is not None else ""

    # --- keys -----------------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        kind, _, value = (event.option.id or "").partition(":")
        if kind == "c":
            self.client.send(Answer(int(value), True))
        elif kind == "m":
            self.client.send(Watch(int(value)))
        elif kind == "p":
            self.action_challenge()
        elif kind == "w":
            self.say("Waiting for an answer: d withdraws the challenge.")

    def action_watch(self) -> None:
        """Watch the highlighted match, or the first one listed."""
        kind, _, value = self.selected().partition(":")
        if kind != "m":
            matches = self.client.lobby.matches
            if not matches:
                self.say("No match to watch yet.")
                return
            value = str(matches[0].id)
        self.client.send(Watch(int(value)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Once the link is closed only leaving is left: nothing sent would arrive."""
        return not self.client.closed.is_set() or action in ("back", "quit")

    def action_quick(self, game: str) -> None:
        self.client.send(Queue(game))
        article = "an" if title(game)[0] in "AEIOU" else "a"
        self.say(f"Waiting for another player who wants {article} {title(game)} match (esc stops waiting)…")

    def action_arena(self) -> None:
        """Ride in the Tron arena: up to six cycles, bots in the empty seats, a round after
        another; the hub says when the next one seats you."""
        self.client.send(Arena())

    def action_challenge(self) -> None:
        kind, _, name = self.selected().partition(":")
        if kind != "p":
            self.say("Pick a player in the list first.")
            return
        if name == self.client.name:
            self.say("That is you: pick somebody else, or b plays a bot.")
            return
        self.app.push_screen(ChallengeDialog(name, last=self._last_challenge.get("player")), self._send_challenge)

    def action_bot(self) -> None:
        levels = {game: get_game(game).bot_levels for game in online_games()}
        self.app.push_screen(ChallengeDialog("bot", levels, last=self._last_challenge.get("bot")), self._send_challenge)

    def _send_challenge(self, challenge: Challenge | None) -> None:
        if challenge is None:
            return
        self._last_challenge["bot" if challenge.to.startswith("bot:") else "player"] = challenge
        self.client.send(challenge)
        if not challenge.to.startswith("bot:"):
            self.say(f"Challenge sent to {challenge.to}.")

    def action_decline(self) -> None:
        kind, _, value = self.selected().partition(":")
        if kind == "c":
            self.client.send(Answer(int(value), False))
        elif kind == "w":
            self.client.send(Withdraw(int(value)))
        else:
            self.say("d declines a challenge for you, or withdraws one of yours: pick it first.")

    def action_back(self) -> None:
        self.client.send(Unqueue())
        self.client.send(Doing("in the menu"))
        self.app.pop_screen()

    # --- the store's lists, and replays ---------------------------------------------------------------
    def action_leaders(self) -> None:
        self.client.send(Top(online_games()[0] if "tron" not in online_games() else "tron"))

    def action_games(self, mine: bool) -> None:
        self.client.send(Games(mine))

    def action_add_key(self) -> None:
        welcome = self.client.welcome
        if welcome is None or welcome.guest:
            self.say("A guest has no account to add a key to: connect with a key first.")
            return
        self.app.push_screen(AddKeyDialog(), lambda line: self.client.send(AddKey(line)) if line else None)

    def show_list(self, shown: Leaders | GameList) -> None:
        """The hub's answer: in the list already open, else in a new one."""
        if self._list is not None and self.app.screen is self._list:
            self._list.show(shown)
            return
        if self.app.screen is not self:
            return  # asked from a screen that has gone: nothing to show it on
        self._list = LobbyList(shown, self.client.send, online_games())
        self.app.push_screen(self._list)

    def replay(self, record: Recorded) -> None:
        """Play a finished game back on its game's match screen."""
        try:
            game = get_game(record.game)
            loaded = game.load(record.board)
            rounds = [PlayedRound(r.seating, r.log, r.forfeit_seat, fault_of(r.cause)) for r in record.rounds]
            feed = replay_match(lambda index: game.make_engine(loaded), record.names, rounds)
        except (UsageError, BoardError, ValueError, KeyError) as exc:
            self.say(f"Game {record.id} cannot be replayed here: {exc}")
            return
        screen = game.screen_class()(game, loaded, self.app.settings, rounds=len(rounds), feed=feed)
        self.app.push_screen(screen)  # no toast: it would cover the status line; the list said which game

    # --- a match ----------------------------------------------------------------------------------------
    def open_match(self) -> None:
        feed = self.client.feed
        if feed is None or self.app.screen is not self:
            return
        self.say("")
        self.client.send(Doing("playing" if feed.you is not None else "watching"))
        screen = match_screen(feed, self.app.settings)
        self._match_screen, self._match_feed = screen, feed
        self.app.push_screen(screen)

    def on_screen_resume(self) -> None:
        """Back in the lobby from a screen over it. From a match's: that match was left as its
        screen closed (HubFeed.close); a match that began meanwhile (a rematch) opens now."""
        self.show_lobby()  # the lists that came while a match's screen covered the lobby
        if self._match_screen is None:
            return
        left, self._match_screen, self._match_feed = self._match_feed, None, None
        if self.client.feed is left:
            self.client.leave_match()
        if self.client.feed is not None:
            self.open_match()
        else:
            self.client.send(Doing("in the lobby"))


def match_screen(feed: HubFeed, settings: Any) -> Screen:
    """The game's own match screen on the online feed."""
    return feed.game.screen_class()(feed.game, feed.loaded, settings, rounds=feed.match.rounds, feed=feed)
