"""The reverse of the pegging protocol: a game record as a placement script for the simulated table.

A placement script is a list of steps, what players do at the table, in order:

    {"op": "place", "zone": "seat1", "slot": 0, "card": "7H"}     (optional "confidence": 0..1;
                                                                    "cover": true lays it on the
                                                                    card there, as on a pile)
    {"op": "remove", "zone": "seat1", "slot": 0}
    {"op": "say", "action": {"act": "deal", "dealer": 0}}           (a button or the phone)
    {"op": "ok"}                                                    (the OK button)

The simulated table renders it as frames; :class:`ScriptTable` turns it straight into the table
events the tracker would report, for tests and for runs without frames. Played back through the
pegging protocol, the script of a record scores exactly as the record does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from games.errors import RecordError
from games.jsontypes import JSONObject
from games.records import Replay
from games.table import CRIB, STARTER, Zone

if TYPE_CHECKING:
    from device.session import Session
    from vision.events import TableEvent

Key = tuple[str, int]
#: the acts of a player who cannot play on: shown by the next play, said only when none follows
PASSES = ("go", "pass")
#: told (step index, step, the error it met or None) after each step is played
OnStep = Callable[[int, JSONObject, Exception | None], object]


#: turns a checked game record into the placement steps that play it on its table's mat
ScriptBuilder = Callable[[Replay], list[JSONObject]]
_BUILDERS: dict[str, ScriptBuilder] = {}


def register_script(table: str) -> Callable[[ScriptBuilder], ScriptBuilder]:
    """Decorator: ``fn`` writes the placement script of records of games played on ``table``
    (next to the table's protocol, which plays such scripts back)."""

    def add(fn: ScriptBuilder) -> ScriptBuilder:
        owner = _BUILDERS.get(table)
        if owner is not None and owner is not fn:
            raise ValueError(f"the {table} table's scripts are written by {owner.__qualname__}")
        _BUILDERS[table] = fn
        return fn

    return add


def has_script(table: str) -> bool:
    """Whether records of games played on ``table`` can be written as placement scripts."""
    from device.protocols import registered_protocols

    registered_protocols()
    return table in _BUILDERS


def record_to_script(record: Mapping[str, Any]) -> list[JSONObject]:
    """The steps that play ``record`` on its game's mat, as players would lay the cards."""
    from device.protocols import registered_protocols
    from games.records import replay

    result = replay(record)  # checks the record first
    table = result.game.spec.table
    registered_protocols()  # each protocol's module registers its table's script writer
    builder = _BUILDERS.get(table)
    if builder is None:
        raise RecordError(f"{result.game.spec.title} is played on a {table} table, whose placement "
                          "scripts are not written yet")
    return builder(result)


@register_script("pegging")
def pegging_script(result: Replay, *, row_slots: int = 8, crib_slots: int = 4) -> list[JSONObject]:
    """The steps that play a record on a pegging mat (games whose ``spec.table`` is pegging)."""
    from device.protocols.pegging import PeggingProtocol

    game = result.game
    state = game.new_initial_state()
    PeggingProtocol.table_of(state)  # refuses a game not played on the pegging table
    mat: dict[Key, str] = {}
    steps: list[JSONObject] = []

    def place(zone: str, slot: int, card: str) -> None:
        mat[(zone, slot)] = card
        steps.append({"op": "place", "zone": zone, "slot": slot, "card": card})

    def clear() -> None:
        for zone, slot in sorted(mat):
            steps.append({"op": "remove", "zone": zone, "slot": slot})
        mat.clear()

    def row(zone: str) -> int:
        return sum(1 for z, _ in mat if z == zone)

    seats = [Zone.row(s) for s in range(game.num_players)]
    records = [a.to_json() for a in result.actions]
    # what a card cannot show (an ace declared as 11) is said on the phone, then the card is laid
    said = [r["act"] == "play" and any(v not in (None, False) for k, v in r.items()
                                       if k not in ("act", "player", "card")) for r in records]
    acts = ["said play" if s else r["act"] for r, s in zip(records, said, strict=True)]
    for index, action in enumerate(result.actions):
        data = action.to_json()
        act = data["act"]
        table = PeggingProtocol.table_of(state)
        if act == "cut":
            if not any(table.zone_cards(z) for z in seats) and mat:
                clear()  # a tie: the cut cards go back and everyone cuts again
            place(Zone.row(data["player"]).name, 0, data["card"])
        elif act == "deal":
            if mat:
                clear()
            else:
                steps.append({"op": "say", "action": data})
        elif act == "discard":
            n = len(data.get("cards") or []) or table.to_lay_away(data["player"])
            for _ in range(n):
                taken = row(CRIB.name)
                if taken < crib_slots:
                    place(CRIB.name, taken, "back")
        elif act == "starter":
            place(STARTER.name, 0, data["card"])
        elif act == "play":
            zone = Zone.row(data["player"]).name
            taken = row(zone)
            if said[index]:
                steps.append({"op": "say", "action": data})
            if taken >= row_slots:
                raise RecordError(f"{zone} has only {row_slots} card outlines")
            place(zone, taken, data["card"])
        elif act in ("show", "crib") and table.show_waits_for() is None:
            steps.append({"op": "say", "action": data})  # counts given on the phone (announced, claimed)
        elif act == "show":
            zone = Zone.row(data["player"]).name
            have = {c for (z, _), c in mat.items() if z == zone}
            for card in data.get("cards") or []:
                if card not in have:
                    place(zone, row(zone), card)
            if table.claim_open():
                steps.append({"op": "ok"})  # nobody claims (pegging back): OK, count on
        elif act == "crib":
            for i, card in enumerate(data.get("cards") or []):
                if i < crib_slots:
                    place(CRIB.name, i, card)
            if table.claim_open():
                steps.append({"op": "ok"})
        elif act in PASSES:
            later = next((a for a in acts[index + 1:] if a not in PASSES), None)
            if later != "play":  # no play follows to show it: the player says it (the Go button)
                steps.append({"op": "say", "action": data})
        else:
            steps.append({"op": "say", "action": data})
        state = state.apply(action)
    return steps


def mat_at(steps: list[JSONObject], upto: int) -> dict[Key, tuple[str, float]]:
    """What lies on the mat after the first ``upto`` steps: (zone, slot) -> (card, confidence)."""
    mat: dict[Key, tuple[str, float]] = {}
    for step in steps[:upto]:
        key = (str(step.get("zone")), int(step.get("slot", 0)))
        if step["op"] == "place":
            mat[key] = (str(step["card"]), float(step.get("confidence", 1.0)))
        elif step["op"] == "remove":
            mat.pop(key, None)
    return mat


class ScriptTable:
    """Table events straight from a placement script, as a tracker would report them: placing a
    card on an occupied outline first reports the old card removed, unless it covers it (a pile).
    ``dt``: seconds per step."""

    def __init__(self, steps: list[JSONObject], dt: float = 0.5) -> None:
        from vision.events import TableEvent

        self._event = TableEvent
        self.steps = steps
        self.dt = dt

    def resight(self, start: int) -> list[TableEvent]:
        """The events of a tracker that starts now and finds the mat as it is after ``start`` steps."""
        t = start * self.dt
        return [self._event(zone, card, "placed", t, conf, slot)
                for (zone, slot), (card, conf) in sorted(mat_at(self.steps, start).items())]

    def events(self, start: int = 0) -> Iterator[tuple[int, JSONObject, list[TableEvent]]]:
        """(index, step, its table events) from step ``start`` on (buttons have no events)."""
        mat = {k: v for k, v in mat_at(self.steps, start).items()}
        for index in range(start, len(self.steps)):
            step = self.steps[index]
            t = index * self.dt
            events: list[TableEvent] = []
            op = step.get("op")
            if op in ("place", "remove"):
                key = (str(step["zone"]), int(step.get("slot", 0)))
                old = mat.pop(key, None)
                if old is not None and not (op == "place" and step.get("cover")):
                    events.append(self._event(key[0], old[0], "removed", t, old[1], key[1]))
                if op == "place":
                    conf = float(step.get("confidence", 1.0))
                    mat[key] = (str(step["card"]), conf)
                    events.append(self._event(key[0], str(step["card"]), "placed", t, conf, key[1]))
            elif op not in ("say", "ok"):
                raise RecordError(f"placement step {index} has no op 'place', 'remove', 'say' or 'ok': {step}")
            yield index, step, events


def resume_point(session: Session, prefix: str = "script:") -> int:
    """The first step of a script not yet recorded by ``session``'s store (0 for a new game)."""
    tag = session.store.last_input(session.game_id, prefix)
    return 0 if tag is None else int(tag[len(prefix):]) + 1


def play_script(session: Session, steps: list[JSONObject], *, start: int | None = None,
                on_step: OnStep | None = None, prefix: str = "script:") -> int:
    """Play ``steps`` into ``session`` as the table would, from where its store got to (or
    ``start``): first the mat as it lies then (a tracker starting afresh sees every card again),
    then each step, tagged so a restart resumes after the last recorded one. Returns the steps run."""
    from games.errors import PegpiError

    table = ScriptTable(steps)
    first = resume_point(session, prefix) if start is None else start
    session.table_events(table.resight(first))
    ran = 0
    for index, step, events in table.events(first):
        tag = f"{prefix}{index}"
        op = step["op"]
        try:
            if op == "say":
                session.submit(step["action"], source="phone", input=tag)
            elif op == "ok":
                session.confirm(source="button", input=tag)
            else:
                session.table_events(events, input=tag)
        except PegpiError as exc:  # a button pressed for nothing: the table shows why, play goes on
            if on_step is not None:
                on_step(index, step, exc)
        else:
            if on_step is not None:
                on_step(index, step, None)
        ran += 1
    return ran
