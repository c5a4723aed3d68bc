"""``kortbord play mulle`` and ``kortbord play cribbage``: the terminal games against the computer.

Each command delegates to the game's terminal client (:mod:`kortbord.cli.mulle_terminal`,
:mod:`kortbord.cli.cribbage_terminal`), imported lazily so one game's client never slows the other's start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kortbord.cli._choices import choices

#: The computer level when ``--bot`` is not given: the strongest, since its decisions take well under a quarter
#: of a second (p95, ``bench/bots.py``) -- less than the pause the table makes after each computer move.  An
#: installation without the strong players falls back to greedy (:func:`default_level`).
DEFAULT_LEVEL = "strong"
_FALLBACK_LEVEL = "greedy"
# The allowed values of the options with a few, for --help and shell completion (the terminal clients validate
# them: mulle_terminal.DEALS, LENGTHS, PROFILES, registry.LEVELS -- tests/test_package.py checks they agree).
DEALS = ("8+8", "5+5", "4+8")
LENGTHS = ("100", "200", "round", "each-deals")
PROFILES = ("standard", "cardgames.zone")
LEVELS = ("random", "beginner", "casual", "greedy", "strong", "expert")
TARGETS = (121, 61)
#: The languages of the terminal games' words (:data:`kortbord.i18n.LANGS`).
LANGS = ("en", "sv")
_LANG_HELP = "Language of every line the game prints (events, reasons, prompts, help): en or sv."
_RESUME_HELP = (
    "Continue the game saved in this record (the file a game writes when it ends, is quit or its terminal closes): "
    "its rules, seats and seed are the record's; --bot and --lang apply; the record is saved back to it."
)
_SEED_HELP = (
    "Seed of the shuffles and the computers: the same seed, the same deals and, at every level, the same game "
    "(a level is a fixed amount of thought, and its mistakes are drawn from the seed)."
)


def bot_help(game: str) -> str:
    """The ``--bot`` help of ``game``: the levels for people with their stated rates (from
    :func:`kortbord.bots.registry.describe`; the game's intro prints the level's full description, the catalogue
    entry ``levels.<game>.<level>``), the default named."""
    from kortbord.bots import registry

    parts = []
    for level in registry.LEVELS[game]:
        d = registry.describe(game, level, "en")["data"]
        if "slip" in d:
            said = [
                f"{d['slip']}% worse choices",
                f"misses {d['overlook']}% of its " + ("captures and builds" if game == "mulle" else "pegging points"),
            ]
            if "miss" in d:
                said.append(f"Muggins: misses a group in {d['miss']}% of its counts, catches {d['catch']}% of yours")
            parts.append(f"{level} ({', '.join(said)})")
        elif level == "strong":
            parts.append("strong (thinks ahead; a hard opponent)")
        elif level == "expert" and game == "mulle":
            parts.append("expert (thinks ahead harder; the hardest opponent)")
        elif level == "expert":
            parts.append("expert (reads your play and thinks ahead harder; the hardest opponent)")
    return (
        f"Computer level (default: {DEFAULT_LEVEL}): {'; '.join(parts)}; random and greedy are test opponents. "
        "When you play, the game's intro describes the level."
    )


def default_level(game: str) -> str:
    """:data:`DEFAULT_LEVEL` if this installation can make it for ``game``, else ``greedy``."""
    from kortbord.bots import registry

    return DEFAULT_LEVEL if DEFAULT_LEVEL in registry.available_levels(game) else _FALLBACK_LEVEL


app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


@app.command("mulle")
def mulle(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="Number of players: 2, 3 or 4.")] = 2,
    teams: Annotated[bool, typer.Option("--teams", help="With 4 players: two teams, partners opposite.")] = False,
    deal: Annotated[
        str, typer.Option("--deal", **choices(DEALS), help="Deal format hand+table: 8+8, 5+5 or 4+8.")
    ] = "8+8",
    length: Annotated[
        str,
        typer.Option(
            "--length",
            **choices(LENGTHS),
            help="Game length: 100 or 200 (points target), round (one round), each-deals (all deal once).",
        ),
    ] = "100",
    profile: Annotated[
        str, typer.Option("--profile", **choices(PROFILES), help="Rules: standard or cardgames.zone.")
    ] = "standard",
    kryp: Annotated[bool, typer.Option("--kryp", help="Kryp-mulle: avoid points, the lowest total wins.")] = False,
    bot: Annotated[
        str | None,
        typer.Option("--bot", **choices(LEVELS), help=bot_help("mulle")),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help=_SEED_HELP),
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
    auto: Annotated[bool, typer.Option("--auto", help="Computers at every seat; print the game (demo).")] = False,
    record: Annotated[
        Path | None, typer.Option("--record", help="Where to save the game record JSON (default: a new file).")
    ] = None,
    lang: Annotated[str, typer.Option("--lang", **choices(LANGS), help=_LANG_HELP)] = "en",
    resume: Annotated[Path | None, typer.Option("--resume", help=_RESUME_HELP)] = None,
) -> None:
    """Play Mulle in the terminal against the computer (rules spec mulle.md §2)."""
    from kortbord.cli import mulle_terminal

    options = mulle_terminal.Options(
        players=players,
        teams=teams,
        deal=deal,
        length=length,
        profile=profile,
        kryp=kryp,
        bot=default_level("mulle") if bot is None else bot,
        seed=seed,
        name=name,
        auto=auto,
        record=record,
        lang=lang,
        resume=resume,
    )
    raise typer.Exit(mulle_terminal.run(options))


@app.command("cribbage")
def cribbage(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="Number of players: 2, 3 or 4.")] = 2,
    partnership: Annotated[
        bool, typer.Option("--partnership", help="4 players as two partnerships, partners opposite (always so).")
    ] = False,
    target: Annotated[
        int, typer.Option("--target", "-t", **choices(TARGETS), help="Points to win: 121 (twice around) or 61.")
    ] = 121,
    muggins: Annotated[
        bool, typer.Option("--muggins", help="Count your own hands; opponents may call muggins or overcount.")
    ] = False,
    lowball: Annotated[
        bool, typer.Option("--lowball", help="Lowball: whoever reaches the target first loses.")
    ] = False,
    bot: Annotated[
        str | None,
        typer.Option("--bot", **choices(LEVELS), help=bot_help("cribbage")),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help=_SEED_HELP),
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
    auto: Annotated[bool, typer.Option("--auto", help="Computers at every seat; print the game (demo).")] = False,
    record: Annotated[
        Path | None, typer.Option("--record", help="Where to save the game record JSON (default: a new file).")
    ] = None,
    lang: Annotated[str, typer.Option("--lang", **choices(LANGS), help=_LANG_HELP)] = "en",
    resume: Annotated[Path | None, typer.Option("--resume", help=_RESUME_HELP)] = None,
) -> None:
    """Play Cribbage in the terminal against the computer (rules spec cribbage.md §2, Muggins §2.10)."""
    from kortbord.cli import cribbage_terminal

    options = cribbage_terminal.Options(
        players=players,
        partnership=partnership,
        target=target,
        muggins=muggins,
        lowball=lowball,
        bot=default_level("cribbage") if bot is None else bot,
        seed=seed,
        name=name,
        auto=auto,
        record=record,
        lang=lang,
        resume=resume,
    )
    raise typer.Exit(cribbage_terminal.run(options))
