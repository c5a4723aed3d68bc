"""Cribbage words from the engine's codes: the spoken count and every event, in English and Swedish.

The engine (:mod:`kortbord.cribbage.engine`) gives events as codes plus data and the show as ordered groups
(``[{"kind": "fifteen" | "pair" | "run" | "flush" | "nobs", "cards": [...], "points": n}, ...]`` in the spec's
counting order, §2.5); this module is the one place that says them in words.  The phrases are in ``cribbage.json``
beside this file (keys ``event.*``, ``peg.*``, ``settle.*``, ``callout.*``, ``reason.*``).

* :func:`callout` -- the traditional spoken count of a hand ("fifteen two, fifteen four, a pair is six ...");
* :func:`peg_text` -- why points were pegged ("fifteen for 2", "his heels for 2");
* :func:`event_text` -- one line for any Cribbage event (the command line, logs, the terminal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kortbord.i18n import LANGS, render, template

__all__ = ["callout", "event_text", "peg_text"]

#: Points of k cards of one rank in the show (k - 1 pairs each, spec §2.5), by the points of its pair groups.
_OF_A_KIND: Final = {2: 2, 6: 3, 12: 4}
_RANKS: Final = "A23456789TJQK"


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"no Cribbage words in language {lang!r}: use 'en' or 'sv'")
    return lang


def callout(groups: Sequence[Mapping[str, Any]], lang: str = "en") -> list[str]:
    """The traditional spoken count of a hand or crib, one phrase per step, each naming the running total.

    Args:
        groups: the show's scoring groups in counting order (a ``show``/``reveal`` event's ``groups``, or
            ``ShowScore.groups_json()``): fifteens, pairs, runs, flush, nobs (spec §2.5).
        lang: ``"en"`` or ``"sv"``.
    Returns:
        English: ``["fifteen two", "fifteen four", "a pair is six", "a run of three is nine", "nobs is ten"]``;
        a hand worth nothing is called ``["nineteen"]`` (no hand can score 19).  Swedish: ``["femton två",
        "femton fyra", "ett par blir sex", ...]``, a blank hand ``["noll"]``.
    Raises:
        ValueError: a language other than ``"en"`` and ``"sv"``.
    """
    lang = _lang(lang)
    words: list[str] = template("callout.numbers", lang, game="cribbage")

    def say(key: str, **fields: str) -> str:
        return str(template("callout." + key, lang, game="cribbage")).format(**fields)

    if not any(g["points"] for g in groups):
        return [say("zero")]
    out: list[str] = []
    total = 0
    for group in groups:
        if group["kind"] == "fifteen":
            total += group["points"]
            out.append(say("fifteen", t=words[total]))
    pair_points: Counter[str] = Counter()
    for group in groups:
        if group["kind"] == "pair":
            pair_points[_rank(group["cards"][0])] += group["points"]
    for rank in sorted(pair_points, key=_RANKS.index):  # k of a kind: its pairs' points, 2, 6 or 12
        total += pair_points[rank]
        out.append(say(f"pair{_OF_A_KIND[pair_points[rank]]}", t=words[total]))
    runs = [g for g in groups if g["kind"] == "run"]
    if runs:
        total += sum(g["points"] for g in runs)
        n = words[len(runs[0]["cards"])]
        out.append(say("run" if len(runs) == 1 else "runs", k=words[len(runs)], n=n, t=words[total]))
    for group in groups:
        if group["kind"] in ("flush", "nobs"):
            total += group["points"]
            out.append(say(group["kind"], n=words[len(group["cards"])], t=words[total]))
    return out


def _rank(card: Any) -> str:
    """The rank letter of a card in notation (``"TH"`` -> ``"T"``) or of a ``Card``."""
    return str(card)[0]


def peg_text(event: Mapping[str, Any], lang: str = "en") -> str:
    """Why a ``peg`` event's points were pegged: ``"fifteen for 2"``, ``"run of 3 for 3"``, ``"go for 1"``,
    ``"his heels for 2"``, ``"hand for 12"``, ``"muggins for 4"``, ``"overcount for -3"`` (``peg.<reason>``).

    Raises:
        KeyError: an unknown reason code.  ValueError: an unknown language.
    """
    return render("peg." + str(event["reason"]), event, _lang(lang), game="cribbage")


def event_text(event: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> str:
    """One line for a Cribbage event (``{"kind": ..., **data}``, :meth:`Event.to_json`) in ``lang``; seats by
    ``names`` when given, else ``P0``...

    ``peg`` says its reason (:func:`peg_text`); ``show``/``reveal`` say the spoken count (:func:`callout`);
    ``settle`` the Muggins rule applied; ``game_over`` the winners, skunks and scores.

    Raises:
        KeyError: an unknown kind.  ValueError: an unknown language.
    """
    lang = _lang(lang)
    kind = event["kind"]
    data: dict[str, Any] = dict(event)
    if kind == "cut":
        data["cuts"] = ", ".join(f"{_seat(s, names)} {c}" for s, c in enumerate(event["cards"]))
    elif kind == "deal":
        data["each"] = event["cards"][0] if event["cards"] else 0
    elif kind == "peg":
        data["why"] = peg_text(event, lang)
    elif kind in ("show", "reveal", "announce", "settle"):
        crib = bool(event.get("crib"))
        what = "crib" if crib else "hand"
        data["what"] = template(
            f"cribbage.the_{what}" if kind == "announce" else f"cribbage.{what}", lang, game="cribbage"
        )
        if "cards" in event:
            data["hand"] = " ".join(event["cards"])
        if kind in ("show", "reveal"):
            spoken = callout(event["groups"], lang) if event["groups"] else []
            data["spoken"] = f" ({', '.join(spoken)})" if spoken else ""
        if kind == "settle":
            data["rule"] = render("settle." + str(event["outcome"]), event, lang, names, game="cribbage")
    elif kind == "game_over":
        winners = event["winners"]
        data["winners"] = str(template("cribbage.and", lang, game="cribbage")).join(_seat(s, names) for s in winners)
        many = len(winners) > 1
        if event.get("lowball"):
            data["form"] = "lowball_many" if many else "lowball_one"
        else:
            data["form"] = "many" if many else "one"
        side = event["side"]
        data["score"] = event["side_scores"][side]
        skunk = "cribbage.double_skunk" if event.get("double_skunk") else "cribbage.skunk" if event.get("skunk") else ""
        data["skunk"] = template(skunk, lang, game="cribbage") if skunk else ""
        scores = event["scores"]
        if event.get("partnership"):
            parts = [
                f"{_seat(0, names)} & {_seat(2, names)} {scores[0] + scores[2]}",
                f"{_seat(1, names)} & {_seat(3, names)} {scores[1] + scores[3]}",
            ]
        else:
            parts = [f"{_seat(s, names)} {p}" for s, p in enumerate(scores)]
        data["scores"] = "(" + ", ".join(parts) + ")"
    return render("event." + str(kind), data, lang, names, game="cribbage")


def _seat(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None and 0 <= seat < len(names) else f"P{seat}"
