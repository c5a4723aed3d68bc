"""The page's words (``web/src/words.ts``) say exactly what ``kortbord.i18n`` says, from the same catalogues.

Random games of both games through the registry (``kortbord.core.GAMES``) give events and, from mutated legal
moves, illegal-move reasons; each is rendered in English and Swedish by Python and by the page's TypeScript
(bundled with esbuild from ``web/node_modules``, run by Node).  Seats are ``P<n>`` and cards notation on both
sides here: the page shows names and ``A♠`` through its own formatter, the words and rules are the same.

Three Mulle kinds are left out on purpose: the page names the sides in ``round_over``/``game_over`` ("Anna 12,
Computer 30" where Python lists the numbers) and says one count in ``deal`` when every hand gets the same.
Skips when Node or ``web/node_modules`` is missing (``cd web && npm ci``).
"""

from __future__ import annotations

import json
import random
import shutil
import string
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kortbord import i18n
from kortbord.core import GAMES
from kortbord.errors import IllegalMoveError, KortbordError
from kortbord.i18n import cribbage as crib_words

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
PAGE_NAMES_SIDES = {("mulle", "deal"), ("mulle", "round_over"), ("mulle", "game_over")}

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (WEB / "node_modules" / "esbuild").exists(),
    reason="needs Node and web/node_modules (cd web && npm ci)",
)


def _mutations(text: str, rng: random.Random) -> list[str]:
    """Moves near a legal one: a card swapped for another, a word dropped."""
    cards = [r + s for r in "A23456789TJQK" for s in "SHDC"]
    parts = text.split()
    out = []
    for _ in range(3):
        i = rng.randrange(len(parts))
        if len(parts[i]) == 2 and parts[i] in cards:
            out.append(" ".join([*parts[:i], rng.choice(cards), *parts[i + 1 :]]))
    if len(parts) > 1:
        out.append(" ".join(parts[:-1]))
    out.append("T " + rng.choice(cards))
    return out


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(game: str, what: str, data: Any) -> None:
        key = json.dumps([game, what, data], sort_keys=True)
        if key in seen:
            return
        seen.add(key)
        for lang in i18n.LANGS:
            if what == "event":
                expected = i18n.event_text(data, lang, game=game)
            elif what == "callout":
                expected = ", ".join(crib_words.callout(data, lang))
            else:
                expected = i18n.reason_text(data, lang, game=game)
            cases.append({"game": game, "what": what, "data": data, "lang": lang, "expected": expected})

    for name, spec in GAMES.items():
        for seed, (players, teams) in enumerate([(2, False), (3, False), (4, True)]):
            rng = random.Random(seed)
            try:
                rules = spec.make_rules(
                    {"muggins": True} if name == "cribbage" and seed == 0 else {}, players=players, teams=teams
                )
                state = spec.new_game(rules, players=players, teams=teams)
            except KortbordError:
                continue
            steps = 0
            while not spec.is_over(state) and steps < 400:
                if spec.is_chance(state):
                    state, events = spec.step(state, spec.chance_outcome(state, rng))
                else:
                    legal = spec.legal_moves(state)
                    if steps % 7 == 0:
                        for text in _mutations(str(rng.choice(legal)), rng):
                            try:
                                spec.parse_move(state, text)
                            except IllegalMoveError as err:
                                if err.reason is not None:
                                    add(name, "reason", err.reason.to_json())
                            except KortbordError:
                                pass
                    state, events = spec.step(state, rng.choice(legal))
                    steps += 1
                for ev in events:
                    data = ev.to_json()
                    if (name, data["kind"]) not in PAGE_NAMES_SIDES:
                        add(name, "event", data)
                    if data["kind"] in ("show", "reveal"):
                        add(name, "callout", data["groups"])
    # Every reason of both catalogues, every branch of a dict template (a bool branch from a bool, as "True").
    for name in GAMES:
        for key, entry in i18n.catalogue(name).items():
            if not key.startswith("reason."):
                continue
            fields: set[str] = set()
            branches: list[tuple[str, Any]] = [("", None)]
            for tpl in (entry["en"], entry["sv"]):
                texts = [v for k, v in tpl.items() if k != "by"] if isinstance(tpl, dict) else [tpl]
                if isinstance(tpl, dict):
                    by = tpl["by"]
                    branches += [(by, True if k == "True" else int(k) if k.isdigit() else k) for k in tpl if k != "by"]
                    branches.append((by, "no such branch"))
                for text in texts:
                    fields.update(f for _, f, _, _ in string.Formatter().parse(text) if f)
            for by, value in branches:
                data: dict[str, Any] = {"code": key.removeprefix("reason.")}
                for f in sorted(fields):
                    data[f] = 1 if f in i18n.SEAT_KEYS else ["9H", "TD"] if f == "builds" else f"{f} 9H"
                if by:
                    data[by] = value
                add(name, "reason", data)
    return cases


def test_page_words_match_python() -> None:
    cases = _cases()
    kinds = {
        (c["game"], c["what"], c["data"].get("kind") or c["data"].get("code"))
        for c in cases
        if isinstance(c["data"], dict)
    }
    assert len(kinds) >= 90  # both games' events and every reason code
    proc = subprocess.run(
        ["node", str(WEB / "scripts" / "check-words.mjs")],
        input="\n".join(json.dumps(c) for c in cases),
        capture_output=True,
        text=True,
        cwd=WEB,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, (proc.stderr + proc.stdout)[:4000]


#: The page's grammar for names (issue #11): the viewer without a chosen name in the second person ("You deals"
#: was a defect), Swedish genitives of names ending in s or a digit ("Datorn (greedy)s hand" was one).  Expected
#: texts are English and Swedish grammar applied to the catalogue's templates.
GRAMMAR = [
    # (game, what, data, lang, names, me, expected)
    ("cribbage", "event", {"kind": "go", "seat": 0}, "en", ["You", "Computer"], 0, "You say go"),
    ("cribbage", "event", {"kind": "go", "seat": 1}, "en", ["You", "Computer"], 0, "Computer says go"),
    ("cribbage", "event", {"kind": "dealer", "seat": 0}, "en", ["You", "Anna"], 0, "You cut lowest and deal"),
    (
        "cribbage",
        "event",
        {"kind": "discard", "seat": 0, "count": 2},
        "en",
        ["You", "Bo"],
        0,
        "You have laid 2 cards away to the crib",
    ),
    ("cribbage", "event", {"kind": "go", "seat": 0}, "sv", ["Du", "Datorn"], 0, "Du säger go"),
    (
        "cribbage",
        "reason",
        {"code": "not_your_turn", "to_act": 0, "seat": 1},
        "en",
        ["You", "Anna"],
        0,
        "it is your turn, not Anna's",
    ),
    ("mulle", "event", {"kind": "dealer", "seat": 0}, "en", ["You", "Anna"], 0, "You deal first"),
    ("mulle", "event", {"kind": "tabbe", "seat": 0, "side": 0}, "en", ["You", "Anna"], 0, "You: TABBE, 1 point"),
    (
        "cribbage",
        "reason",
        {"code": "not_your_turn", "to_act": 1, "seat": 0},
        "sv",
        ["Lars", "Dator 2"],
        None,
        "det är Dator 2:s tur, inte Lars",
    ),
    (
        "cribbage",
        "reason",
        {"code": "not_your_turn", "to_act": 0, "seat": 1},
        "sv",
        ["Anna", "Bo"],
        1,
        "det är Annas tur, inte din",
    ),
    (
        "cribbage",
        "reason",
        {"code": "not_your_turn", "to_act": 0, "seat": 1},
        "en",
        ["Anna", "Bo"],
        1,
        "it is Anna's turn, not yours",
    ),
]


def _say(lines: list[str]) -> list[Any]:
    """What the page's words say (web/scripts/say.mjs under Node) for each JSON request line, in order."""
    proc = subprocess.run(
        ["node", str(WEB / "scripts" / "say.mjs")],
        input="\n".join(lines),
        capture_output=True,
        text=True,
        cwd=WEB,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[:2000]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_page_grammar_of_names() -> None:
    lines = [
        json.dumps({"game": g, "what": w, "data": d, "lang": lang, "names": names, "me": me})
        for g, w, d, lang, names, me, _ in GRAMMAR
    ]
    said = _say(lines)
    assert said == [case[-1] for case in GRAMMAR]


#: The log's and banner's lines (words.ts eventLine, catalogue line.*): each Mulle move kind in a whole sentence
#: with the game's terms (trail = lay a card on the table, capture, build, raise, build down, package, lay on
#: (ligger) -- rules spec §2.4-§2.7), mulle and tabbe said as words (§2.8, §2.9), båt explained (§2.3), a capture
#: its play already said not said again, the viewer "you"/"du" inside a sentence, a capital letter first, no "->".
LINES = [
    # (game, data, prev, lang, names, me, expected)
    (
        "mulle",
        {"kind": "play", "seat": 1, "move": "T AS"},
        None,
        "en",
        ["Anna", "Computer"],
        None,
        "Computer lays AS on the table",
    ),
    ("mulle", {"kind": "play", "seat": 1, "move": "T AS"}, None, "sv", ["Anna", "Datorn"], None, "Datorn lägger ut AS"),
    (
        "mulle",
        {"kind": "play", "seat": 0, "move": "T AS"},
        None,
        "en",
        ["You", "Computer"],
        0,
        "You lay AS on the table",
    ),
    (
        "mulle",
        {"kind": "play", "seat": 0, "move": "C KH x {6C,7C}"},
        None,
        "en",
        ["Anna", "Bo"],
        None,
        "Anna captures 6C and 7C with KH",
    ),
    (
        "mulle",
        {"kind": "play", "seat": 0, "move": "C TD x {5S,[B1]}"},
        None,
        "sv",
        ["Anna", "Bo"],
        None,
        "Anna tar in 5S och bygget på 16 med TD",
    ),
    (
        "mulle",
        {"kind": "play", "seat": 0, "move": "B 3C on 5H =8"},
        None,
        "en",
        ["You", "Bo"],
        0,
        "You build 8: 3C on 5H",
    ),
    (
        "mulle",
        {"kind": "play", "seat": 1, "move": "R 2D -> [B1] =10"},
        None,
        "en",
        ["Anna", "Bo"],
        None,
        "Bo raises a build to 10 with 2D",
    ),
    (
        "mulle",
        {"kind": "play", "seat": 1, "move": "L 9D -> [B1]"},
        None,
        "sv",
        ["Anna", "Bo"],
        None,
        "Bo lägger 9D på ett bygge, som nu ligger",
    ),
    # the capture event after its play's line: said once
    (
        "mulle",
        {"kind": "capture", "seat": 0, "side": 0, "cards": ["KH", "6C", "7C"]},
        {"kind": "play", "seat": 0, "move": "C KH x {6C,7C}"},
        "en",
        ["Anna", "Bo"],
        None,
        "",
    ),
    (
        "mulle",
        {"kind": "mulle", "seat": 0, "side": 0, "card": "9H", "points": 9},
        None,
        "en",
        ["You", "Bo"],
        0,
        "Mulle! You take a twin pair of 9H: 9 points",
    ),
    (
        "mulle",
        {"kind": "mulle", "seat": 1, "side": 1, "card": "9H", "points": 9},
        None,
        "sv",
        ["Du", "Datorn"],
        0,
        "Mulle! Datorn tar ett tvillingpar 9H: 9 poäng",
    ),
    (
        "mulle",
        {"kind": "tabbe", "seat": 0, "side": 0},
        None,
        "sv",
        ["Du", "Datorn"],
        0,
        "Tabbe! Du tar hela bordet: 1 poäng",
    ),
    (
        "mulle",
        {"kind": "baat", "dealer": 1},
        None,
        "en",
        ["You", "Computer"],
        0,
        "Computer calls “båt” (boat): this is the last deal, the stock is used up",
    ),
    (
        "mulle",
        {"kind": "deal", "deal_no": 6, "deals_total": 6, "cards": [8, 8], "last": True},
        None,
        "en",
        ["You", "Computer"],
        0,
        "Deal 6 of 6: 8 cards each, the last deal",
    ),
    (
        "mulle",
        {"kind": "round_over", "round": 1, "scores": [25, 42]},
        None,
        "en",
        ["You", "Computer"],
        0,
        "Round 1 is over. Score: you 25, Computer 42",
    ),
    (
        "mulle",
        {"kind": "game_over", "winners": [0], "scores": [101, 42]},
        None,
        "sv",
        ["Du", "Datorn"],
        0,
        "Spelet är slut: du vann. Slutställning: du 101, Datorn 42",
    ),
    (
        "mulle",
        {"kind": "game_over", "winners": [1], "scores": [25, 101]},
        None,
        "en",
        ["Anna", "Computer"],
        None,
        "The game is over: Computer won. Final score: Anna 25, Computer 101",
    ),
    (
        "cribbage",
        {"kind": "peg", "seat": 0, "side": 0, "points": 2, "reason": "fifteen", "score": 45, "side_score": 45},
        None,
        "en",
        ["You", "Computer"],
        0,
        "You peg fifteen for 2, now on 45",
    ),
    ("cribbage", {"kind": "starter", "card": "5H"}, None, "sv", ["Du", "Datorn"], 0, "Startkortet är 5H"),
]


def test_page_lines_are_sentences() -> None:
    lines = [
        json.dumps({"game": g, "what": "line", "data": d, "prev": prev, "lang": lang, "names": names, "me": me})
        for g, d, prev, lang, names, me, _ in LINES
    ]
    said = _say(lines)
    assert said == [case[-1] for case in LINES]


def test_partnership_peg_lines_say_the_team_total() -> None:
    """In a partnership the log's running total is the team's, the board's (spec §2.4 item 7: partners score
    together), said with the team's name -- never the pegging seat's own share; tallied here from the pegs' points."""
    spec = GAMES["cribbage"]
    rules = spec.make_rules({}, players=4, teams=True)
    state = spec.new_game(rules, players=4, teams=True)
    rng = random.Random(4)
    own = [0, 0, 0, 0]
    pegs: list[tuple[dict[str, Any], int]] = []
    while not spec.is_over(state) and len(pegs) < 60:
        move = spec.chance_outcome(state, rng) if spec.is_chance(state) else rng.choice(spec.legal_moves(state))
        state, events = spec.step(state, move)
        for ev in events:
            data = ev.to_json()
            if data["kind"] == "peg":
                own[data["seat"]] += data["points"]
                pegs.append((data, own[data["seat"]] + own[data["seat"] ^ 2]))
    split = [(d, team) for d, team in pegs if own[d["seat"]] != team]
    assert split, "no peg where the seat's share and the team's total differ"
    sides = {"en": ["Your team", "Team 2"], "sv": ["Ditt lag", "Lag 2"]}
    names = ["You", "Computer 2", "Computer 3", "Computer 4"]
    lines = [
        json.dumps(
            {"game": "cribbage", "what": "line", "data": d, "lang": lang, "names": names, "me": 0, "sides": sides[lang]}
        )
        for d, _ in pegs
        for lang in ("en", "sv")
    ]
    said = iter(_say(lines))
    for d, team in pegs:
        side = d["seat"] % 2
        for lang, now in (("en", "now on"), ("sv", "nu på")):
            line = next(said)
            assert line.endswith(f", {sides[lang][side][0].lower()}{sides[lang][side][1:]} {now} {team}"), (d, line)


def test_page_decimals_follow_the_language() -> None:
    """Swedish writes a decimal comma (1,5), English a point (1.5): a hint's or review's number in the aids' words."""
    script = (
        "import { build } from 'esbuild';"
        "const out = await build({ entryPoints: ['src/words.ts'], bundle: true, write: false, format: 'esm',"
        " platform: 'node', logLevel: 'error' });"
        "const w = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));"
        "const f = (lang) => ({ lang, name: (s) => 'P' + s, card: (c) => c });"
        "console.log(JSON.stringify([w.decimal(1.5, 1, 'sv'), w.decimal(1.5, 1, 'en'), w.decimal(2.25, 2, 'sv'),"
        " w.fill('{x} points', { x: 0.75 }, f('sv')), w.fill('{x} points', { x: 0.75 }, f('en'))]));"
    )
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, cwd=WEB, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[:2000]
    assert json.loads(proc.stdout) == ["1,5", "1.5", "2,25", "0,75 points", "0.75 points"]


def test_ace_of_spades_face_is_clean() -> None:
    """The A♠ face is the solid spade and its corner indices, like the other aces: no designer's web address (text)
    under it, no dashed outline or white filigree that read as a watermark at table size."""
    svg = (ROOT / "src" / "kortbord" / "server" / "static" / "cards" / "AS.svg").read_text()
    assert "<text" not in svg and "stroke-dasharray" not in svg and 'fill="#fff" d=' not in svg
    assert svg.count("<use") == 5  # the spade in the middle, two corner indices with their suit
