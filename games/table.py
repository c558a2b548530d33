"""What a table protocol may ask a game: the declared seam between ``device.protocols`` and games.

A table protocol (``device.protocols``) turns cards seen on the mat into game actions. It never
looks at a game's class or its state's fields: it asks the state the questions below, and the
state answers in the game's own terms. A game's ``spec.table`` names the protocol; its state
implements that protocol's interface (:class:`PeggingTable` for ``"pegging"``).

Places on the mat are :class:`Zone` values. The mat's printed names (``"seat1"``, ``"crib"``) are
read into zones once, by :meth:`Zone.parse`, where table events enter; ``Zone.name`` prints them
back.

>>> Zone.parse("seat1")
Zone(kind='seat', seat=1)
>>> Zone.parse("crib").name, Zone.row(0).name
('crib', 'seat0')
>>> Zone.parse("pile1")
Zone(kind='pile', seat=None, index=1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, get_args, runtime_checkable

from games.errors import PegpiError

if TYPE_CHECKING:
    from games.engine import Action

#: What a zone of the mat is for: a seat's own row (or spot), the crib, the starter, a trick's
#: trump, a central pile, a grid of outlines read together, a main line of cards and the
#: sidelines laid under it, the extra cards dealt to the middle (a kitty), a face-down stock
#: to draw from.
ZoneKind = Literal["seat", "crib", "starter", "trump", "pile", "grid", "line", "side", "kitty", "stock"]
ZONE_KINDS: tuple[str, ...] = get_args(ZoneKind)
#: the zones a mat names by their kind alone (every kind but a seat's row)
_BY_NAME: dict[str, ZoneKind] = {"crib": "crib", "starter": "starter", "trump": "trump", "pile": "pile",
                                 "grid": "grid", "line": "line", "side": "side",
                                 "kitty": "kitty", "stock": "stock"}


class ZoneError(PegpiError, ValueError):
    """A zone name that no mat has, or a zone built with a seat where it takes none."""


@dataclass(frozen=True, slots=True, order=True)
class Zone:
    """A place on the mat: its ``kind`` and, for a seat's row, the ``seat`` that plays into it;
    ``index`` tells apart zones of one kind on a mat that has several (a four-hand rummy mat has a
    stock and a pile at each of its two tables: ``pile`` and ``pile1``)."""

    kind: ZoneKind
    seat: int | None = None
    index: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ZONE_KINDS:
            raise ZoneError(f"no mat has a zone of kind {self.kind!r}; kinds: {', '.join(ZONE_KINDS)}")
        if (self.kind == "seat") != (self.seat is not None):
            raise ZoneError(f"a {self.kind} zone {'needs' if self.kind == 'seat' else 'takes no'} seat")
        if self.seat is not None and self.seat < 0:
            raise ZoneError(f"there is no seat {self.seat}")
        if self.index < 0 or (self.index and self.kind == "seat"):
            raise ZoneError(f"a {self.kind} zone has no index {self.index}")

    def seated(self, players: int) -> int | None:
        """The seat that plays into this zone when one of ``players`` sits there, else None."""
        return self.seat if self.seat is not None and self.seat < players else None

    @classmethod
    def row(cls, seat: int) -> Zone:
        """The row (or spot) seat ``seat`` plays into."""
        return cls("seat", seat)

    @classmethod
    def parse(cls, name: str) -> Zone:
        """The zone a mat prints as ``name`` (``"seat0"``, ``"crib"``, ``"starter"``, ...)."""
        if isinstance(name, str):
            if name.startswith("seat") and name[4:].isdigit():
                return cls("seat", int(name[4:]))
            head = name.rstrip("0123456789")
            tail = name[len(head):]
            if head in _BY_NAME and not tail.startswith("0"):  # "pile", "pile1"; never "pile0"
                return cls(_BY_NAME[head], index=int(tail or 0))
        raise ZoneError(f"no mat has a zone called {name!r}: seat0, seat1, ..., {', '.join(_BY_NAME)} "
                        "(a second one of a kind: pile1, ...)")

    @property
    def name(self) -> str:
        """The name the mat prints (what :meth:`parse` reads)."""
        if self.kind == "seat":
            return f"seat{self.seat}"
        return f"{self.kind}{self.index}" if self.index else self.kind

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:  # the index only where a mat has several zones of the kind
        index = f", index={self.index}" if self.index else ""
        return f"Zone(kind={self.kind!r}, seat={self.seat!r}{index})"


CRIB = Zone("crib")
STARTER = Zone("starter")


@runtime_checkable
class TableState(Protocol):
    """What every table protocol may ask a game's state, whatever the table."""

    def whose_turn(self) -> int | None:
        """The seat to play a card now, or None when nobody is to play (a deal, a show, the end)."""

    def zone_owner(self, zone: Zone) -> int | None:
        """The seat whose cards lie in ``zone`` this deal (a seat's row; the crib is the dealer's)."""

    def zone_label(self, zone: Zone) -> str:
        """``zone`` in a player's words, for messages: "Ann's row", "the crib", "the top card"."""

    def zone_cards(self, zone: Zone) -> list[str]:
        """The cards the game knows lie face up in ``zone`` now, in the order they came."""

    def card_means(self, zone: Zone, card: str) -> list[Action] | None:
        """What a face-up ``card`` laid in ``zone`` means now: the action(s) it is (not yet
        checked against the rules: applying them may still be refused), ``[]`` when it means
        nothing yet but belongs there (a card laid for the show), None when it means nothing
        (the game already holds it, or nothing on the mat counts now). Raises ``CardError``
        for a card name this game's deck does not have."""


@runtime_checkable
class PeggingTable(TableState, Protocol):
    """The pegging table (``spec.table == "pegging"``): a row per seat, a face-down crib, a
    starter; the play is inferred from the order of cards laid; the show from the cards seen."""

    def lies_face_down(self, zone: Zone) -> bool:
        """A card face down (or unreadable) in ``zone`` is expected now and means nothing by itself
        (the crib's discards; cards moved about before the play; a mat waiting to be cleared)."""

    def inferred_pass(self) -> Action | None:
        """The "go" (or pass) of the player to move, when the order of plays can show one now: a
        card laid out of turn, or one that cannot go on, means they had said it. None when that
        player cannot have passed (at a lead, or with a count so low that every card fits)."""

    def to_lay_away(self, seat: int) -> int:
        """How many cards ``seat`` still lays away to the crib this deal (0 outside the discards)."""

    def discard_seen(self, face_down: int) -> Action | None:
        """The next discard still to record once ``face_down`` cards lie face down in the crib,
        when that is the whole crib (with any card dealt to it from the pack); None otherwise
        (the discards are then recorded as the starter is turned)."""

    def claim_open(self) -> bool:
        """A player may claim something now that the table cannot show (Revised's pegging back,
        his nob as the jack is played), right after the last action and before anything else:
        what the mat implies next (a count) waits for the claim or for OK."""

    def deal_due(self) -> Action | None:
        """The deal to record once the mat is cleared, when one is due; None otherwise."""

    def show_waits_for(self) -> Zone | None:
        """Still to come in the show: the zone whose cards make the next count (a seat's row, the
        crib), or None outside the show or when counts are given on the phone (claims, announces)."""

    def show_from(self, zone: Zone, faces: Sequence[str]) -> Action | None:
        """The show (or crib) action that ``faces``, the cards seen face up in ``zone`` in slot
        order, complete now; None while cards are still missing."""


GRID = Zone("grid")


@runtime_checkable
class LayoutTable(TableState, Protocol):
    """The layout table (``spec.table == "layout"``): cards laid into the outlines of a grid, each
    outline a place of the game (a square's row and column). What a card means depends on the
    outline it lands in, so the questions take the slot."""

    def slot_means(self, zone: Zone, slot: int, card: str) -> list[Action] | None:
        """What a face-up ``card`` laid in outline ``slot`` of ``zone`` means now, as
        :meth:`TableState.card_means` (None: nothing new, the game already holds that card)."""

    def laid_by(self, action: Action) -> list[tuple[Zone, int, str]]:
        """Where the cards of ``action`` lie on the mat once it is made, as (zone, slot, card);
        [] for an action the camera cannot see (entered on the phone)."""


@runtime_checkable
class PileTable(TableState, Protocol):
    """The pile tables (``spec.table`` ``"pile"``, and ``"line"`` for a main line with sidelines
    under it): cards are turned face up from face-down stacks or hands onto a central place. Who
    turned a card is the game's order of play, never the camera's; what the camera cannot see
    (a slap, "no play", God's rule, a string of cards) comes from the buttons or the phone.

    ``zone_cards`` gives the cards the game holds face up in a zone, in the order they came (the
    pile, the main line, the sideline cards); ``card_means`` the play a face card laid there is
    (raising ``IllegalActionError`` in a player's words when nobody may lay one there now)."""

    def lies_face_down(self, zone: Zone) -> bool:
        """A card face down in ``zone`` is expected and means nothing (a seat's stack)."""

    def lifted(self, zone: Zone) -> Action | None:
        """What lifting the cards off ``zone`` means now: the pile taken by the seat that won it;
        None when it means nothing (a pile a slap already gave away, a line moved along)."""


TRUMP = Zone("trump")


@runtime_checkable
class TricksTable(TableState, Protocol):
    """The trick table (``spec.table == "tricks"``): a zone per seat round a centre outline for
    the card turned up for trumps. Each seat plays one card into its zone; the trick is complete
    when every seat playing this deal has played, and lies until it is cleared. ``zone_cards`` of
    a seat's zone gives the card it played to the trick in progress, or, before the next trick's
    first card, to the trick just taken (which still lies there)."""

    def to_play(self) -> tuple[int, ...]:
        """The seats still to play to the trick in progress, the next one first; () when no card
        is awaited (outside the play, or a complete trick waiting for something said aloud)."""

    def trick_in_play(self) -> tuple[tuple[int, str], ...]:
        """The cards played to the trick in progress so far, (seat, card) in the order played."""

    def trick_taken(self) -> tuple[int, tuple[tuple[int, str], ...]] | None:
        """The trick taken last and its winner, (winner, cards), while no card of the next trick
        has been played: what lies on the mat to be cleared. None at a deal's start."""

    def referee_says(self) -> str | None:
        """The referee's oldest claim the players have not decided yet, in a sentence (the deal,
        the trick, the rule broken, the card that proves it and the penalty); None when none is open."""


KITTY = Zone("kitty")


@runtime_checkable
class CombosTable(TableState, Protocol):
    """The combinations table (``spec.table == "combos"``, Fight the Landlord): each seat lays its
    plays into its own zone, a grid of outlines in front of it, and the extra cards dealt to the
    middle lie in the kitty's outlines. A play is the group of cards laid together, read as one:
    the protocol gathers a seat's new cards and asks what they mean once the group is complete.
    A pass shows only through what follows it (a later seat's play, the combination lifted).

    ``zone_cards`` gives a seat's cards played this deal, in order (they lie in its zone until the
    players lift them), and the kitty's cards once the game holds them."""

    def group_means(self, zone: Zone, cards: Sequence[str]) -> list[Action] | None:
        """What the face-up ``cards`` laid together in ``zone`` mean now, in order: in a seat's
        zone, the passes of the seats before it that the order of play proves, then its play; in
        the kitty, the extra cards turned up. ``[]`` when they belong there but mean nothing yet
        (the kitty turned before the bidding is over, or not all of it); None when the game holds
        them already. Raises ``IllegalActionError`` in a player's words when they may not be laid
        there now (out of turn, not a combination, not beating the one to beat)."""

    def group_size(self, zone: Zone) -> int:
        """The most cards a group in ``zone`` may have now: the cards its seat holds, the kitty's
        three; a group of that many is complete the moment it is down."""

    def to_beat(self) -> tuple[int, tuple[str, ...]] | None:
        """The combination to beat and the seat that played it; None when the player to move leads."""

    def cleared(self) -> list[Action]:
        """The passes proved when the combination to beat is lifted off the mat (nobody lifts it
        before the others have passed): each seat still to answer it; [] when none stands."""


PILE = Zone("pile")
STOCK = Zone("stock")


@runtime_checkable
class RummyTable(TableState, Protocol):
    """The rummy table (``spec.table == "rummy"``): a face-down stock, a discard pile (a stack whose
    top the camera follows) and each seat's spread zone, where a hand is laid face up at a knock.
    A card laid on the pile is the discard of the player to move, with the draws the camera cannot
    see before it (a stock card, a refused upcard); ``card_means`` says so, and ``[]`` for a card
    laid in a spread zone that may be laid there now. The card under the pile's top seen on the
    pile again means what :meth:`lifted` does (the top taken off the stack, the card below
    showing). Seat zones are the spread zones.

    A mat may have two tables, each a stock and a pile (``pile``, ``pile1``), where two hands are
    played at once (four-hand Gin): every question is then about the hand at the zone's table,
    and a seat plays at the table :meth:`pile_of` names for its spread zone."""

    def pile_of(self, zone: Zone) -> Zone:
        """The discard pile of the table ``zone`` belongs to now: a pile's own, a stock's table's,
        and for a seat's spread zone the pile where that seat plays this hand (``PILE`` on a mat
        with one table)."""

    def turn_at(self, zone: Zone) -> int | None:
        """The seat to move in the hand at ``zone``'s table (see :meth:`pile_of`): to draw and
        discard, or, once the hand is knocked, the defender to lay theirs; None when nobody is
        (a deal is due there, the hand is over)."""

    def lies_face_down(self, zone: Zone) -> bool:
        """A card face down in ``zone`` is expected and means nothing (the stock)."""

    def lifted(self, zone: Zone, card: str) -> list[Action] | None:
        """What taking ``card`` off the top of ``zone`` means now: a draw from the discard pile by
        the player to move (after any pass the camera cannot see); None when it means nothing."""

    def knocks_with(self, seat: int, faces: Sequence[str], card: str) -> list[Action] | None:
        """The knock (or gin) that ``card`` laid on the pile makes while ``faces`` lie in ``seat``'s
        spread zone: the draw first when the camera could not see it, then the knock with the
        melds that leave the least deadwood. None when ``seat`` is not to move or ``faces`` are
        not the whole hand yet; raises ``IllegalActionError`` when the knock is refused."""

    def spread_from(self, seat: int, faces: Sequence[str]) -> list[Action] | None:
        """The defender's layoffs and spread once ``faces`` (every card they hold) lie in their
        spread zone: the layoffs that leave the least deadwood, then the rest as melds and
        deadwood. None while ``seat`` is not to lay or cards are still missing."""


#: what a card lying face down is called on the mat (the camera reports it so)
BACK = "back"


@runtime_checkable
class SeatsTable(LayoutTable, Protocol):
    """The seats table (``spec.table == "seats"``): each seat's zone is a row of outlines where
    that seat's cards lie, face up (Ricochet Poker's hands) or face down (Skull's mats). What a
    card means depends on the seat and the outline, so :meth:`LayoutTable.slot_means` answers,
    for a card face down too (``card`` is :data:`BACK`). Taking cards away means nothing: what
    the camera cannot see (a fold, a bid, the card lost) comes from the phone or the buttons."""

    def holds(self, zone: Zone) -> tuple[str, ...]:
        """What lies in ``zone``'s outlines now as the game knows it, outline by outline from the
        first: a card's name face up, :data:`BACK` face down. Cards the game no longer holds there
        (a hand thrown away, a mat picked up at the end of a round) are left out: they may go."""
