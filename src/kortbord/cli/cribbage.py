"""``kortbord cribbage ...`` commands: check a count (spec ``cribbage.md`` §3a).

* ``kortbord cribbage score C1 C2 C3 C4 --starter S [--crib] [--json]`` -- the show score of a hand or crib with
  its breakdown; ``--json`` prints ``{"total", "breakdown": {...}, "groups": [...]}``.
* ``kortbord cribbage play-score CARD... [--json]`` -- the points each card of one count earned when laid;
  ``--json`` prints ``{"points_per_card": [...]}``.

Bad input (a malformed card, a duplicate card, a wrong number of cards, a count past 31) exits with status 1 and a
message on standard error saying why; nothing is printed on standard output. Other sub-commands (``replay``) are
added to :data:`app` by their own modules.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kortbord.cards import Card, format_cards
from kortbord.cribbage.scoring import card_value, play_points_per_card, score_play, score_show
from kortbord.errors import KortbordError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

_ERROR_EXIT = 1


def _fail(error: Exception) -> typer.Exit:
    """Report ``error`` on standard error and return the exit to raise (status 1, nothing on stdout)."""
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {error}", markup=True, soft_wrap=True)
    return typer.Exit(_ERROR_EXIT)


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
        callout = show.callout(lang)
    except (KortbordError, ValueError) as error:
        raise _fail(error) from None
    if as_json:
        document = {
            "total": show.total,
            "breakdown": show.breakdown(),
            "groups": [{"kind": g.kind, "cards": [str(c) for c in g.cards], "points": g.points} for g in show.groups],
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
        table.add_row(str(Card.parse(card)), str(count), str(played.points), ", ".join(played.reasons))
    console.print(table)
    console.print(f"[bold]Total {sum(points)}[/] (the go or last-card point is not included)")
