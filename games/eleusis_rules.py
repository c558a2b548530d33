"""God's secret rule in New Eleusis: a small typed expression language (rule card
seeds/eleusis.md).

A rule speaks of the card played (position 0), the last card of the main line (1) and the card
before that (2). Conditions: a card's property (red, black, odd, even, royal, a suit), a value
against a number, and comparisons between two cards (value higher/lower/equal/one more/one
less, same or different suit, colour, parity); combined with and, or, not and if-then-else.
Every rule has a JSON form (God's phone sends it) and reads in words.

>>> r = rule_from_json({"compare": "colour", "op": "!=", "a": 0, "b": 1})
>>> r.words()
'the card played is not the same colour as the last card'
>>> from games.cards import Card
>>> judge(r, [Card.parse("5H")], Card.parse("9S")), judge(r, [Card.parse("5H")], Card.parse("9D"))
(True, False)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from games.cards import Card
from games.errors import PegpiError
from games.jsontypes import JSONObject


class RuleError(PegpiError, ValueError):
    """A rule that the builder cannot read; the message names the part that is wrong."""


POSITIONS = ("the card played", "the last card", "the card before the last")
PROPS = ("red", "black", "odd", "even", "royal", "spade", "heart", "diamond", "club")
ATTRS = ("value", "suit", "colour", "parity")
VALUE_OPS = ("=", "!=", "<", ">", "<=", ">=", "+1", "-1")
SAME_OPS = ("=", "!=")
_SUIT_OF = {"spade": "S", "heart": "H", "diamond": "D", "club": "C"}


def colour(card: Card) -> str:
    return "red" if card.suit in "HD" else "black"


def prop_holds(card: Card, prop: str) -> bool:
    if prop in ("red", "black"):
        return colour(card) == prop
    if prop in ("odd", "even"):
        return card.rank % 2 == (1 if prop == "odd" else 0)
    if prop == "royal":
        return card.rank in (11, 12, 13)
    return card.suit == _SUIT_OF[prop]


def _value_op(x: int, op: str, y: int) -> bool:
    if op == "=":
        return x == y
    if op == "!=":
        return x != y
    if op == "<":
        return x < y
    if op == ">":
        return x > y
    if op == "<=":
        return x <= y
    if op == ">=":
        return x >= y
    if op == "+1":
        return x == y % 13 + 1  # one more, the king followed by the ace
    return y == x % 13 + 1  # "-1": one less


def _attr(card: Card, attr: str) -> Any:
    if attr == "value":
        return card.rank
    if attr == "suit":
        return card.suit
    if attr == "colour":
        return colour(card)
    return card.rank % 2


_OP_WORDS = {"=": "equal to", "!=": "not equal to", "<": "lower than", ">": "higher than",
             "<=": "at most", ">=": "at least", "+1": "one more than", "-1": "one less than"}


def _pos(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2:
        raise RuleError(f"{where} is a card position 0 (played), 1 (last) or 2 (before last), not {value!r}")
    return value


# --------------------------------------------------------------------------------- nodes


@dataclass(frozen=True)
class Prop:
    """A card has a property: ``{"is": "red", "card": 0}``."""

    card: int
    prop: str

    def holds(self, cards: Sequence[Card]) -> bool:
        return prop_holds(cards[self.card], self.prop)

    def depth(self) -> int:
        return self.card

    def to_json(self) -> JSONObject:
        return {"is": self.prop, "card": self.card}

    def words(self) -> str:
        word = {"royal": "a royal card (J, Q, K)", "odd": "odd", "even": "even", "red": "red",
                "black": "black"}.get(self.prop, f"a {self.prop}")
        return f"{POSITIONS[self.card]} is {word}"


@dataclass(frozen=True)
class Value:
    """A card's value against a number: ``{"value": ">", "than": 7, "card": 0}``."""

    card: int
    op: str
    than: int

    def holds(self, cards: Sequence[Card]) -> bool:
        return _value_op(cards[self.card].rank, self.op, self.than)

    def depth(self) -> int:
        return self.card

    def to_json(self) -> JSONObject:
        return {"value": self.op, "than": self.than, "card": self.card}

    def words(self) -> str:
        return f"{POSITIONS[self.card]} has a value {_OP_WORDS[self.op]} {self.than}"


@dataclass(frozen=True)
class Compare:
    """Two cards compared: ``{"compare": "value", "op": ">", "a": 0, "b": 1}``."""

    attr: str
    op: str
    a: int
    b: int

    def holds(self, cards: Sequence[Card]) -> bool:
        x, y = _attr(cards[self.a], self.attr), _attr(cards[self.b], self.attr)
        if self.attr == "value":
            return _value_op(x, self.op, y)
        return bool((x == y) == (self.op == "="))

    def depth(self) -> int:
        return max(self.a, self.b)

    def to_json(self) -> JSONObject:
        return {"compare": self.attr, "op": self.op, "a": self.a, "b": self.b}

    def words(self) -> str:
        other = POSITIONS[self.b]
        if self.attr == "value":
            return f"{POSITIONS[self.a]} has a value {_OP_WORDS[self.op]} {other}"
        same = "the same" if self.op == "=" else "not the same"
        return f"{POSITIONS[self.a]} is {same} {self.attr} as {other}"


@dataclass(frozen=True)
class And:
    args: tuple[Rule, ...]

    def holds(self, cards: Sequence[Card]) -> bool:
        return all(a.holds(cards) for a in self.args)

    def depth(self) -> int:
        return max(a.depth() for a in self.args)

    def to_json(self) -> JSONObject:
        return {"and": [a.to_json() for a in self.args]}

    def words(self) -> str:
        return " and ".join(_inner(a) for a in self.args)


@dataclass(frozen=True)
class Or:
    args: tuple[Rule, ...]

    def holds(self, cards: Sequence[Card]) -> bool:
        return any(a.holds(cards) for a in self.args)

    def depth(self) -> int:
        return max(a.depth() for a in self.args)

    def to_json(self) -> JSONObject:
        return {"or": [a.to_json() for a in self.args]}

    def words(self) -> str:
        return " or ".join(_inner(a) for a in self.args)


@dataclass(frozen=True)
class Not:
    arg: Rule

    def holds(self, cards: Sequence[Card]) -> bool:
        return not self.arg.holds(cards)

    def depth(self) -> int:
        return self.arg.depth()

    def to_json(self) -> JSONObject:
        return {"not": self.arg.to_json()}

    def words(self) -> str:
        return f"it is not so that {_inner(self.arg)}"


@dataclass(frozen=True)
class If:
    """``{"if": C, "then": T, "else": E}``; without ``else`` any card is right when C fails."""

    cond: Rule
    then: Rule
    other: Rule | None = None

    def holds(self, cards: Sequence[Card]) -> bool:
        if self.cond.holds(cards):
            return self.then.holds(cards)
        return True if self.other is None else self.other.holds(cards)

    def depth(self) -> int:
        return max(r.depth() for r in (self.cond, self.then, self.other) if r is not None)

    def to_json(self) -> JSONObject:
        out: JSONObject = {"if": self.cond.to_json(), "then": self.then.to_json()}
        if self.other is not None:
            out["else"] = self.other.to_json()
        return out

    def words(self) -> str:
        text = f"if {_inner(self.cond)} then {_inner(self.then)}"
        if self.other is not None:
            text += f", otherwise {_inner(self.other)}"
        return text


Rule: TypeAlias = Prop | Value | Compare | And | Or | Not | If


def _inner(rule: Rule) -> str:
    text = rule.words()
    return f"({text})" if isinstance(rule, And | Or | If) else text


# --------------------------------------------------------------------------------- reading


def rule_from_json(data: Any) -> Rule:
    """Build a rule from its JSON form, naming the first part that is wrong."""
    if not isinstance(data, dict):
        raise RuleError(f"a rule part is an object like {{'is': 'red', 'card': 0}}, not {data!r}")
    if "is" in data:
        _keys(data, {"is", "card"})
        prop = data["is"]
        if prop not in PROPS:
            raise RuleError(f"{prop!r} is not a property; properties: {', '.join(PROPS)}")
        return Prop(_pos(data.get("card", 0), "'card'"), str(prop))
    if "value" in data:
        _keys(data, {"value", "than", "card"})
        op, than = data["value"], data.get("than")
        if op not in VALUE_OPS[:6]:
            raise RuleError(f"{op!r} is not a value test; tests: {', '.join(VALUE_OPS[:6])}")
        if isinstance(than, bool) or not isinstance(than, int) or not 1 <= than <= 13:
            raise RuleError(f"'than' is a value 1 (ace) to 13 (king), not {than!r}")
        return Value(_pos(data.get("card", 0), "'card'"), str(op), than)
    if "compare" in data:
        _keys(data, {"compare", "op", "a", "b"})
        attr, op = data["compare"], data.get("op")
        if attr not in ATTRS:
            raise RuleError(f"{attr!r} cannot be compared; compare {', '.join(ATTRS)}")
        ops = VALUE_OPS if attr == "value" else SAME_OPS
        if op not in ops:
            raise RuleError(f"{attr} comparisons are {', '.join(ops)}, not {op!r}")
        a, b = _pos(data.get("a", 0), "'a'"), _pos(data.get("b", 1), "'b'")
        if a == b:
            raise RuleError("a comparison needs two different cards")
        return Compare(str(attr), str(op), a, b)
    for word, cls in (("and", And), ("or", Or)):
        if word in data:
            _keys(data, {word})
            args = data[word]
            if not isinstance(args, list) or len(args) < 2:
                raise RuleError(f"{word!r} joins a list of at least two rules")
            return cls(tuple(rule_from_json(a) for a in args))
    if "not" in data:
        _keys(data, {"not"})
        return Not(rule_from_json(data["not"]))
    if "if" in data:
        _keys(data, {"if", "then", "else"})
        if "then" not in data:
            raise RuleError("an 'if' needs a 'then'")
        other = rule_from_json(data["else"]) if "else" in data else None
        return If(rule_from_json(data["if"]), rule_from_json(data["then"]), other)
    raise RuleError(f"a rule part starts with is, value, compare, and, or, not or if: {data!r}")


def _keys(data: JSONObject, allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise RuleError(f"unknown key {extra[0]!r} in {data!r}")


def read_rule(text: str) -> Rule:
    """A rule from God's phone: JSON text, or the name of a rule of the :data:`LIBRARY`."""
    text = text.strip()
    if text in LIBRARY:
        return LIBRARY[text].rule
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError(f"a rule is JSON or a library name ({', '.join(LIBRARY)}): {exc.msg}") from exc
    return rule_from_json(data)


def judge(rule: Rule, line: Sequence[Card], card: Card) -> bool:
    """Is ``card`` right after the main ``line``? Until the line is long enough for the cards a
    rule looks back at, every card is right."""
    if len(line) < rule.depth():
        return True
    return rule.holds([card, *reversed(line[-2:])])


def judge_sequence(rule: Rule, line: Sequence[Card], cards: Sequence[Card]) -> bool:
    """A play of several cards is right only when each is right after the ones before it."""
    seen = list(line)
    for card in cards:
        if not judge(rule, seen, card):
            return False
        seen.append(card)
    return True


# --------------------------------------------------------------------------------- library


@dataclass(frozen=True)
class Example:
    name: str
    level: int  # 1 easy .. 4 hard
    rule: Rule

    def to_json(self) -> JSONObject:
        return {"name": self.name, "level": self.level, "rule": self.rule.to_json(), "words": self.rule.words()}


def _ex(name: str, level: int, data: JSONObject) -> tuple[str, Example]:
    return name, Example(name, level, rule_from_json(data))


LIBRARY: dict[str, Example] = dict([
    _ex("alternate-colours", 1, {"compare": "colour", "op": "!=", "a": 0, "b": 1}),
    _ex("suit-or-value", 1, {"or": [{"compare": "suit", "op": "=", "a": 0, "b": 1},
                                    {"compare": "value", "op": "=", "a": 0, "b": 1}]}),
    _ex("no-royals", 1, {"not": {"is": "royal", "card": 0}}),
    _ex("alternate-parity", 2, {"compare": "parity", "op": "!=", "a": 0, "b": 1}),
    _ex("one-step", 2, {"or": [{"compare": "value", "op": "+1", "a": 0, "b": 1},
                               {"compare": "value", "op": "-1", "a": 0, "b": 1}]}),
    _ex("red-up-black-down", 3, {"if": {"is": "red", "card": 1},
                                 "then": {"compare": "value", "op": ">", "a": 0, "b": 1},
                                 "else": {"compare": "value", "op": "<=", "a": 0, "b": 1}}),
    _ex("odd-then-low", 3, {"if": {"is": "odd", "card": 1},
                            "then": {"value": "<=", "than": 7, "card": 0}}),
    _ex("colour-of-two-back", 4, {"compare": "colour", "op": "!=", "a": 0, "b": 2}),
    _ex("pairs-of-colours", 4, {"if": {"compare": "colour", "op": "=", "a": 1, "b": 2},
                                "then": {"compare": "colour", "op": "!=", "a": 0, "b": 1},
                                "else": {"compare": "colour", "op": "=", "a": 0, "b": 1}}),
    _ex("between-two", 4, {"or": [{"and": [{"compare": "value", "op": ">", "a": 0, "b": 1},
                                           {"compare": "value", "op": "<", "a": 0, "b": 2}]},
                                  {"and": [{"compare": "value", "op": "<", "a": 0, "b": 1},
                                           {"compare": "value", "op": ">", "a": 0, "b": 2}]},
                                  {"compare": "suit", "op": "=", "a": 0, "b": 1}]}),
])


__all__ = [
    "ATTRS", "LIBRARY", "PROPS", "And", "Compare", "Example", "If", "Not", "Or", "Prop", "Rule",
    "RuleError", "Value", "judge", "judge_sequence", "read_rule", "rule_from_json",
]
