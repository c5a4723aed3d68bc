"""``kortbord cribbage ...`` commands: check a count (spec ``cribbage.md`` §3a).

* ``kortbord cribbage score C1 C2 C3 C4 --starter S [--crib] [--json]`` -- the show score of a hand or crib with
  its breakdown; ``--json`` prints ``{"total", "breakdown": {...}, "groups": [...]}``.
* ``kortbord cribbage play-score CARD... [--json]`` -- the points each card of one count earned when laid;
  ``--json`` prints ``{"points_per_card": [...]}``.

Bad input (a malformed card, a duplicate card, a wrong number of cards, a count past 31, an unreadable record)
exits with status 2, as every kortbord tool does, and a message on standard error saying why; nothing is printed
on standard output. Other sub-commands (``replay``) are
added to :data:`app` by their own modules.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kortbord.cards import Card, format_cards
from kortbord.cli._io import plain, read_json_file
from kortbord.cribbage.scoring import PlayScore, card_value, play_points_per_card, score_play, score_show
from kortbord.errors import KortbordError
from kortbord.i18n import render
from kortbord.i18n.cribbage import callout as spoken_count

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

_ERROR_EXIT = 2


def _fail(error: Exception) -> typer.Exit:
    """Report ``error`` on standard error and return the exit to raise (status 2, nothing on stdout)."""
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {plain(error)}", markup=True, soft_wrap=True)
    return typer.Exit(_ERROR_EXIT)


def _parts(played: PlayScore) -> list[tuple[str, int]]:
    """The scoring parts of a card laid, ``(code, points)`` in the order of ``played.reasons``."""
    points = {"fifteen": played.fifteen, "thirty_one": played.thirty_one, "run": played.run}
    return [(code, points.get(code, played.pairs)) for code in played.reasons]


@app.command("score")
def score(
    cards: Annotated[list[str], typer.Argument(help="The 4 cards of the hand or crib, e.g. 5H 5D 5S JC.")],
    starter: Annotated[str, typer.Option("--starter", "-s", help="The starter (cut card), e.g. 5C.")],
    crib: Annotated[bool, typer.Option("--crib", help="Score as the crib: only a five-card flush counts.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: total, breakdown, groups.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Language of the spoken count: en or sv.")] = "en",
) -> None:
    """Score a hand (or crib) with the starter at the show: fifteens, pairs, runs, flush, nobs (spec §2.5)."""
    try:
        show = score_show(cards, starter, crib=crib)
        callout = spoken_count(show.groups_json(), lang)
    except (KortbordError, ValueError) as error:
        raise _fail(error) from None
    if as_json:
        document = {
            "total": show.total,
            "breakdown": show.breakdown(),
            "groups": show.groups_json(),
        }
        typer.echo(json.dumps(document))
        return
    console = Console(highlight=False)
    hand = format_cards(sorted(Card.parse(c) for c in cards))
    console.print(f"{'Crib' if crib else 'Hand'} [bold]{hand}[/]  starter [bold]{Card.parse(starter)}[/]")
    if show.groups:
        table = Table(show_header=True, header_style="bold")
        table.add_column("scores")
        table.add_column("cards")
        table.add_column("points", justify="right")
        for group in show.groups:
            table.add_row(group.kind, format_cards(group.cards), str(group.points))
        console.print(table)
    console.print(f"[italic]{', '.join(callout)}[/]")
    parts = ", ".join(f"{name} {points}" for name, points in show.breakdown().items())
    console.print(f"[bold]Total {show.total}[/] ({parts})")


@app.command("play-score")
def play_score(
    cards: Annotated[list[str], typer.Argument(help="The cards of one count in play order, e.g. 5H TD 5S.")],
    as_json: Annotated[bool, typer.Option("--json", help='Print JSON: {"points_per_card": [...]}.')] = False,
) -> None:
    """The points each card of one count earns when laid: 15, 31, pairs, runs; not the go (spec §2.4 step 3)."""
    try:
        points = play_points_per_card(cards)
    except (KortbordError, ValueError) as error:
        raise _fail(error) from None
    if as_json:
        typer.echo(json.dumps({"points_per_card": points}))
        return
    console = Console(highlight=False)
    table = Table(show_header=True, header_style="bold")
    table.add_column("card")
    table.add_column("count", justify="right")
    table.add_column("points", justify="right")
    table.add_column("for")
    count = 0
    for i, card in enumerate(cards):
        played = score_play(cards[: i + 1])
        count += card_value(card)
        why = ", ".join(render(f"peg.{code}", {"points": points}, game="cribbage") for code, points in _parts(played))
        table.add_row(str(Card.parse(card)), str(count), str(played.points), why)
    console.print(table)
    console.print(f"[bold]Total {sum(points)}[/] (the go or last-card point is not included)")


# ---------------------------------------------------------------------------------------------------------------
# Game records: ``record`` and ``replay`` (engine API "Game records"; kortbord.cribbage.game)
# ---------------------------------------------------------------------------------------------------------------


@app.command("record")
def record(
    output: Annotated[str, typer.Option("--output", "-o", help="Write the record here ('-' = standard output).")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the chance steps (cut for deal, shuffles).")] = 1,
    players: Annotated[int, typer.Option("--players", help="2, 3 or 4 (4 = partnerships).")] = 2,
    target: Annotated[int, typer.Option("--target", help="61 or 121.")] = 121,
    muggins: Annotated[bool, typer.Option("--muggins", help="Players count their own hands (spec §2.10).")] = False,
    lowball: Annotated[bool, typer.Option("--lowball", help="Whoever reaches the target first loses.")] = False,
    play_seed: Annotated[int, typer.Option("--play-seed", help="Seed of the players' random choices.")] = 0,
) -> None:
    """Play a whole game with random legal discards and plays (under Muggins: true counts, perfect responses) and
    write its record: rules, seed and the moves in notation."""
    from kortbord.cribbage import Game, Rules, engine
    from kortbord.cribbage.moves import Accept, Announce, MugginsCall, Overcount
    from kortbord.cribbage.scoring import show_total

    try:
        game = Game(Rules(players=players, target=target, muggins=muggins, lowball=lowball), seed=seed)
    except KortbordError as error:
        raise _fail(error) from None
    rng = __import__("random").Random(play_seed)
    while not game.is_over():
        seat = game.to_act
        assert seat is not None
        me = game.view(seat)
        move = rng.choice(game.legal_moves())
        if me.counting is not None and me.starter is not None:  # Muggins: announce the true count, respond perfectly
            true = show_total(me.counting_cards, me.starter, me.counting_crib)
            if me.announced is None:
                move = Announce(true)
            elif me.announced < true:
                move = MugginsCall(true - me.announced)
            else:
                move = Overcount() if me.announced > true else Accept()
        game.play(move, seat=seat)
    text = json.dumps(game.to_record(), indent=1)
    if output == "-":
        typer.echo(text)
    else:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        result = engine.result(game.state)
        typer.echo(f"wrote {output}: {len(game.moves)} moves, winner(s) {', '.join(f'P{s}' for s in result.winners)}")


@app.command("replay")
def replay(
    path: Annotated[str, typer.Argument(help="A cribbage game record (JSON), e.g. from 'kortbord cribbage record'.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the moves and scores, not every event.")] = False,
) -> None:
    """Replay a game record move by move, printing each move, what it caused, and the scores."""
    from kortbord.cribbage import engine, replay_record
    from kortbord.cribbage.moves import Discard
    from kortbord.i18n.cribbage import event_text

    try:
        document = read_json_file(path)
    except KortbordError as error:
        raise _fail(error) from None
    # the whole record is replayed and checked before anything is printed: on an error, nothing on stdout
    out: list[str] = []
    #: this deal's discards (line, move number, name): hidden when the record stops before the crib is shown
    laid_away: list[tuple[int, int, str]] = []
    header = 0
    try:
        for number, (game, seat, move, events) in enumerate(replay_record(document)):
            if seat is None:
                header = len(out)
                out.append(f"[bold]cribbage[/] {plain(game.rules.to_dict())} seed {plain(game.seed)}")
            else:
                if isinstance(move, Discard):
                    laid_away.append((len(out), number, plain(game.seats[seat])))
                out.append(f"[bold]{number:4d}.[/] {plain(game.seats[seat])}: {plain(move)}")
            if any(e.kind == "deal" for e in events):
                laid_away = []
            if not quiet:
                for event in events:
                    if event.kind not in ("play", "discard"):
                        out.append(f"        {plain(event_text(event.to_json(), 'en', game.seats))}")
            if any(e.kind in ("peg", "game_over") for e in events) or move is None:
                scores = ", ".join(f"{plain(name)} {s}" for name, s in zip(game.seats, game.state.scores, strict=True))
                out.append(f"        [dim]scores: {scores}[/]")
    except KortbordError as error:
        raise _fail(error) from None
    result = engine.result(game.state) if engine.is_over(game.state) else None
    if result is None:
        # a record that stops before the game's end (a game saved to be resumed) does not print what the rules keep
        # hidden: the cards laid away in this deal, shown at the crib's count (spec §2.6), nor the seed, which
        # deals every card to come
        out[header] = f"[bold]cribbage[/] {plain(game.rules.to_dict())} [dim](seed not shown before the end)[/]"
        for at, number, who in laid_away:
            out[at] = f"[bold]{number:4d}.[/] {who}: discard [dim](to the crib, not shown before its count)[/]"
        out.append("[yellow]the record ends before the game does[/]")
    else:
        names = ", ".join(plain(game.seats[s]) for s in result.winners)
        out.append(f"[bold]Winner: {names}[/] {list(result.scores)}" + (" (skunk)" if result.skunk else ""))
    console = Console(highlight=False)
    for line in out:
        console.print(line)
