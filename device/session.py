"""The session: one table's game, its event store, its table protocol and its listeners, behind a lock.

:class:`Session` is the one implementation of :class:`device.service.TableService`, the only way
the web, the buttons and the CLI reach a table (a live one, or a record replayed over an
in-memory store by :mod:`device.replay`). Every change follows one path:

    action(s) -> engine (``state.apply``, which refuses illegal actions) -> store (committed and
    synced) -> the new state becomes current -> listeners are told (board, LEDs, phones)

so what was shown was always recorded first, and a refused action changes nothing. Table events
from the camera go through the game's table protocol (:mod:`device.protocols`), under the same
lock, and come out as the same actions.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from device.protocols import TableProtocol, protocol_for
from device.service import HistoryEntry, Update
from device.store import Entry, Store, effective_actions
from games import new_game, registered_games
from games.engine import Action, Game, State
from games.errors import IllegalActionError, OptionError, PegpiError, RecordError
from games.jsontypes import JSONObject
from games.scores import ScoreEvent
from games.view import TableView
from vision.api import ASK_BELOW

if TYPE_CHECKING:
    from device.protocols import Ask, TableProtocol
    from vision.events import TableEvent

log = logging.getLogger(__name__)

#: Letters and digits that cannot be mistaken for each other on a small screen.
CODE_ALPHABET = "ACEFHJKLMNPRTWXY34679"
CODE_LENGTH = 5
#: Seconds a quiet subscriber waits before it is sent a ``ping`` (keeps SSE connections honest).
PING_S = 15.0
#: Updates a subscriber may fall behind before it is dropped.
BACKLOG = 512
#: How many times a question the players dismissed may come straight back (and be dropped again)
#: while the protocol goes on with what waited behind it.
REASKS = 4
#: After this many cards of one game read as other cards by the table (a player named another
#: card when asked, or corrected a card the table recorded), the phones suggest teaching pegpi
#: the deck: a deck the model reads poorly is read right once taught (models/MODEL_CARD.md).
TEACH_AFTER = 2
#: ... or after the device asked about this many cards of one game: the stock model asks about
#: 9-12 % of two commercial-style decks' cards and 0.3 % of decks it reads well; taught, about
#: none (`pegpi bench enrolment`). A game of cribbage lays about a hundred cards.
TEACH_ASKED = 8


class Session:
    """One table. Thread-safe: every public method takes the session lock."""

    def __init__(self, store: Store, *, game: str = "cribbage", players: Sequence[str] = ("Ann", "Bob"),
                 options: JSONObject | None = None, confidence: float = ASK_BELOW, ping_s: float = PING_S) -> None:
        self.store = store
        self.confidence = confidence
        self._ping_s = ping_s
        self._lock = threading.RLock()
        self._listeners: list[queue.Queue[Update | None]] = []
        #: told (zone, slot, card) when a player names the card the device asked about (the runtime
        #: moves that card's kept crop to the card's folder)
        self.on_resolved: Callable[[str, int | None, str], object] | None = None
        self._frame: Callable[[], bytes | None] | None = None
        self.error: str | None = None  # the last failure to record (a full disk), shown as the message
        # questions the players dismissed with OK, and the state they were dismissed in: not asked
        # again until the game changes or a card is taken off the mat
        self._dismissed: list[JSONObject] = []
        self._dismissed_at: State | None = None
        code = store.meta("pairing_code")
        if code is None:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            store.set_meta("pairing_code", code)
        self._code = code
        current = store.current()
        if current is None:
            self._start(game, list(players), dict(options or {}))
        else:
            self._load(current.id, current.game, current.players, current.options)

    # ------------------------------------------------------------------ loading

    def _start(self, name: str, players: list[str], options: JSONObject) -> None:
        game = new_game(name, players, options)  # checks the name, players and options first
        game_id = self.store.new_game(game.spec.name, list(game.players), dict(game.options))
        self._load(game_id, game.spec.name, list(game.players), dict(game.options))

    def _load(self, game_id: int, name: str, players: list[str], options: JSONObject) -> None:
        """Replay the stored game to the exact state (start-up, a new game, after a correction)."""
        self.game_id = game_id
        try:
            self.game: Game = new_game(name, players, options)
        except OptionError as exc:  # stored by an older pegpi that let the option through
            raise RecordError(f"the stored game {game_id} ({name}) cannot be resumed: {exc}; "
                              "run with another store (--db PATH) to start afresh") from exc
        entries = effective_actions(self.store.rows(game_id))
        self.entries, self.state = entries, self._replay(entries)
        # cards of this game the table read as others (TEACH_AFTER) and cards it asked about
        # (TEACH_ASKED), kept beside the game's rows
        self._misread, self._asked_about = self._kept(f"misread:{game_id}"), self._kept(f"asked:{game_id}")
        self._asked_cards: set[tuple[str | None, int | None, str]] = set()  # (zone, slot, card) asked about
        self.protocol: TableProtocol = protocol_for(self)
        self.protocol.reset()

    def _replay(self, entries: Sequence[Entry]) -> State:
        state = self.game.new_initial_state()
        for index, entry in enumerate(entries):
            try:
                state = state.apply_json(entry.action)
            except PegpiError as exc:
                raise RecordError(f"game {self.game_id}, action {index} {entry.action}: {exc}", index) from exc
        return state

    # ------------------------------------------------------------------ the TableService

    @property
    def pairing_code(self) -> str:
        return self._code

    def new_pairing_code(self) -> str:
        """Show a new pairing code (asked for on the device): every phone must pair again."""
        with self._lock:
            old = self._code
            while self._code == old:
                self._code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            self.store.set_meta("pairing_code", self._code)
            return self._code

    def view(self, seat: int | None = None) -> TableView:
        with self._lock:
            return self._view(seat)

    def _view(self, seat: int | None = None) -> TableView:
        if seat is not None and not 0 <= seat < self.game.num_players:
            seat = None  # no such seat (a phone's from an earlier game): a spectator
        ask = self.protocol.ask
        return dataclasses.replace(
            self.state.view_for(seat),
            message=self.error or (ask.text if ask is not None else self.protocol.notice),
            ask=ask.question() if ask is not None else None,
            game_id=self.game_id,
            can_undo=bool(self.entries),
            misread=self._misread,
            asked=self._asked_about,
            teach="misread" if self._misread >= TEACH_AFTER else "asked" if self._asked_about >= TEACH_ASKED else None,
        )

    def submit(self, action: JSONObject, *, source: str = "phone", input: str | None = None) -> TableView:
        with self._lock:
            asked = self.protocol.ask
            self.apply([action], source=source, input=input)  # refused: the question stands
            self.protocol.answered(action)
            try:
                self.protocol.after_change()
            finally:
                self._asked(asked)
            return self._view()

    def undo(self, *, source: str = "phone") -> TableView:
        with self._lock:
            if not self.entries:
                raise IllegalActionError("there is nothing to undo: no action has been taken in this game")
            asked = self.protocol.ask
            entries = self.entries[:-1]
            state = self._replay(entries)
            self._record([("undo", None, None)], source=source)
            self._change(entries, state)
            self._publish(Update("undo", source=source))
            self._asked(asked)
            return self._view()

    def correct(self, index: int, action: JSONObject, *, source: str = "phone") -> TableView:
        with self._lock:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.entries):
                raise IllegalActionError(f"there is no action {index!r} to correct; this game has "
                                         f"{len(self.entries)} actions (0 to {len(self.entries) - 1})")
            asked = self.protocol.ask
            parsed = self.game.action_from_json(action).to_json()
            was = self.entries[index]
            entries = list(self.entries)
            entries[index] = Entry(parsed, source, -1, 0.0, corrected=True)
            try:
                state = self._replay(entries)
            except RecordError as exc:
                later = "" if exc.index is None else f"action {exc.index + 1} can no longer be played: "
                raise IllegalActionError(f"that correction does not fit the game: {later}{exc.__cause__ or exc}") from exc
            now = time.time()
            seqs = self._record([("correct", parsed, index)], source=source, t=now)
            entries[index] = Entry(parsed, source, seqs[0], now, corrected=True)
            self._change(entries, state)
            if was.source == "table" and _named(was.action) != _named(parsed):
                self._count_misread()  # a card the table recorded was another card
            self._publish(Update("correct", index=index, source=source))
            self._asked(asked)
            return self._view()

    def _change(self, entries: list[Entry], state: State) -> None:
        """Make an undone or corrected game current: the store's label follows whether it is
        over (a game taken back from its end is played again), and the protocol starts afresh."""
        was_over = self.state.is_over
        self.entries, self.state = entries, state
        self.error = None
        if was_over and not state.is_over:
            try:
                self.store.reopen_game(self.game_id)
            except PegpiError as exc:  # the rows are safe; only the label is stale
                log.warning("could not mark game %s in play again: %s", self.game_id, exc)
        self._finish_if_over()
        self.protocol.reset()

    def confirm(self, *, source: str = "button", input: str | None = None) -> TableView:
        with self._lock:
            asked, state = self.protocol.ask, self.state
            done = False
            try:
                self.protocol.confirm(source=source, input=input)
                done = True
            finally:
                if done and asked is not None and self.state is state:  # OK applied nothing: "ignore that"
                    self._dismiss(asked)
                self._asked(asked)
            return self._view()

    def resolve(self, card: str, *, source: str = "phone") -> TableView:
        """The card the device is asking about is really ``card`` (the phone's card picker)."""
        with self._lock:
            asked = self.protocol.ask
            try:
                self.protocol.resolve(card, source=source)
                if asked is not None and asked.kind != "unreadable" and asked.card not in (None, card):
                    self._count_misread()  # the card read is another card (a card unread is no misreading)
            finally:
                self._asked(asked)
            if self.on_resolved is not None and asked is not None and asked.zone is not None:
                self.on_resolved(asked.zone, asked.slot, card)
            return self._view()

    def new_game(self, game: str, players: list[str], options: JSONObject | None = None) -> TableView:
        with self._lock:
            self._start(game, list(players), dict(options or {}))
            self.error = None
            self._publish(Update("new_game", game_id=self.game_id))
            return self._view()

    def history(self) -> list[HistoryEntry]:
        with self._lock:
            scored: dict[int, list[ScoreEvent]] = {}
            for event in self.state.events:
                if event.action_index is not None:
                    scored.setdefault(event.action_index, []).append(event)
            return [HistoryEntry(i, dict(e.action), e.source, e.corrected, e.t, tuple(scored.get(i, ())))
                    for i, e in enumerate(self.entries)]

    def export(self) -> JSONObject:
        with self._lock:
            return self.store.export(self.game_id)

    def games(self) -> list[JSONObject]:
        return [spec.to_json() for spec in registered_games()]

    def camera_frame(self) -> bytes | None:
        provider = self._frame
        return provider() if provider is not None else None

    def subscribe(self) -> Generator[Update, None, None]:
        """Updates as they happen: the current view first, then ``view``/``score``/... updates, and a
        ``ping`` after a quiet spell. Stop iterating (or ``close()`` it) to be dropped."""
        inbox: queue.Queue[Update | None] = queue.Queue(BACKLOG)
        with self._lock:
            self._listeners.append(inbox)
            first = Update("view", view=self._view())
        return self._deliver(inbox, first)

    def _deliver(self, inbox: queue.Queue[Update | None], first: Update) -> Generator[Update, None, None]:
        try:
            yield first
            while True:
                try:
                    update = inbox.get(timeout=self._ping_s)
                except queue.Empty:
                    yield Update("ping")
                    continue
                if update is None:
                    return
                yield update
        finally:
            with self._lock:
                if inbox in self._listeners:
                    self._listeners.remove(inbox)

    # ------------------------------------------------------------------ for the runtime

    def set_frame_provider(self, provider: Callable[[], bytes | None] | None) -> None:
        self._frame = provider

    def table_events(self, events: Sequence[TableEvent], *, on_table: Mapping[tuple[str, int], str] | None = None,
                     input: str | None = None) -> None:
        """Hand table events to the game's table protocol. ``on_table``: what the tracker believes
        lies on the mat now (None when not known). A card taken off the mat is a new situation:
        questions dismissed before may be asked again."""
        with self._lock:
            if any(event.kind == "removed" for event in events):
                self._dismissed = []
            asked = self.protocol.ask
            try:
                self.protocol.on_events(events, on_table=on_table, input=input)
            finally:
                self._asked(asked)

    def close(self) -> None:
        """Wake every subscriber so they end."""
        with self._lock:
            for inbox in self._listeners:
                try:
                    inbox.put_nowait(None)
                except queue.Full:
                    pass
            self._listeners.clear()

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    # ------------------------------------------------------------------ the one path of a change

    def apply(self, actions: Sequence[JSONObject | Action], *, source: str, input: str | None = None) -> State:
        """Check ``actions`` with the engine, record them in one transaction, make them current and
        tell the listeners. Raises (and changes nothing) when the rules refuse any of them or the
        store cannot record them. Call with the lock held (the protocol does)."""
        with self._lock:
            state = self.state
            parsed: list[JSONObject] = []
            for raw in actions:
                action = raw if isinstance(raw, Action) else self.game.action_from_json(raw)
                state = state.apply(action)
                parsed.append(action.to_json())
            before = len(self.state.events)
            now = time.time()
            seqs = self._record([("action", a, None) for a in parsed], source=source, input=input, t=now)
            self.error = None
            self.entries = self.entries + [Entry(a, source, s, now) for a, s in zip(parsed, seqs, strict=True)]
            self.state = state
            self._publish(Update("action", actions=tuple(parsed), source=source),
                          *(Update("score", score=e) for e in state.events[before:]))
            self._finish_if_over()
            return state

    def _record(self, rows: list[tuple[str, JSONObject | None, int | None]], *, source: str,
                input: str | None = None, t: float | None = None) -> list[int]:
        """Append ``rows`` to the store; a failure (a full disk) is shown as the message and raised."""
        try:
            return self.store.append(self.game_id, rows, source=source, input=input, t=t)
        except PegpiError as exc:
            self.error = str(exc)
            self._publish(Update("error", message=self.error))
            raise

    def _finish_if_over(self) -> None:
        if self.state.is_over:
            try:
                self.store.finish_game(self.game_id, self.state.result_text())
            except PegpiError as exc:  # the actions are safe; only the label is missing
                log.warning("could not mark game %s finished: %s", self.game_id, exc)

    # ------------------------------------------------------------------ the device's questions

    def _kept(self, key: str) -> int:
        stored = self.store.meta(key)
        return int(stored) if stored is not None and stored.isdigit() else 0

    def _keep(self, key: str, count: int) -> None:
        """A count behind the offer to teach the deck, kept so that a restart keeps the offer; a
        store that cannot keep it loses only the count."""
        try:
            self.store.set_meta(f"{key}:{self.game_id}", str(count))
        except PegpiError as exc:
            log.warning("could not keep the count of %s cards: %s", key, exc)

    def _count_misread(self) -> None:
        """One more card of this game the table read as another."""
        self._misread += 1
        self._keep("misread", self._misread)

    def _count_asked(self, ask: Ask) -> None:
        """The device asks whether it read a card right: one more card asked about, the first time
        it asks about that card in that place this game."""
        if ask.kind != "confirm" or ask.card is None or (key := (ask.zone, ask.slot, ask.card)) in self._asked_cards:
            return
        self._asked_cards.add(key)
        self._asked_about += 1
        self._keep("asked", self._asked_about)

    def _dismiss(self, ask: Ask) -> None:
        if self._dismissed_at is not self.state:
            self._dismissed, self._dismissed_at = [], self.state
        self._dismissed.append(ask.to_json())

    def _is_dismissed(self, ask: Ask | None) -> bool:
        return ask is not None and self._dismissed_at is self.state and ask.to_json() in self._dismissed

    def _asked(self, before: Ask | None) -> None:
        """The device's question changed (asked, answered, dropped): everyone must see it now.
        A question the players dismissed in this very state is dropped, not asked again, and the
        protocol goes on with what waited behind it."""
        for round in range(REASKS):
            if not self._is_dismissed(self.protocol.ask):
                break
            self.protocol.ask = None
            if round < REASKS - 1:
                self.protocol.after_change()
        ask = self.protocol.ask
        if ask is not before:
            if ask is not None:
                self._count_asked(ask)
            self._publish(Update("ask", ask=ask.to_json() if ask is not None else None,
                                 message=ask.text if ask is not None else None))

    def _publish(self, *updates: Update) -> None:
        """Tell every listener ``updates`` and then the new view. Listeners too far behind are dropped."""
        batch = [*updates, Update("view", view=self._view())]
        for inbox in list(self._listeners):
            try:
                for update in batch:
                    inbox.put_nowait(update)
            except queue.Full:
                log.warning("a listener fell %d updates behind; dropping it", BACKLOG)
                self._listeners.remove(inbox)

    def publish_view(self) -> None:
        with self._lock:
            self._publish()


def _named(action: JSONObject) -> list[str]:
    """The texts an action names but its kind (its cards, mostly), sorted: a correction that
    changes them says the table read a card as another (the same cards reordered, or another
    player, says nothing of how the cards were read)."""
    def texts(value: object) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | dict):
            for v in value.values() if isinstance(value, dict) else value:
                yield from texts(v)

    return sorted(t for key, value in action.items() if key != "act" for t in texts(value))
