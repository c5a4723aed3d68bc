"""How a card looks in the terminal games: one place for both games' card faces (Rich).

Rank then suit symbol, ``10`` for ten (``10♦``, ``5♥``); hearts and diamonds red, spades and clubs black, on a light
card background.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from kortbord.cards import Card

__all__ = ["card_plain", "card_text", "cards_plain", "cards_text"]

_RED: Final = "bold red3 on grey93"
_BLACK: Final = "bold grey0 on grey93"
_SYMBOL: Final = "♠♥♦♣"


def card_plain(card: Card) -> str:
    """A card as plain text with its suit symbol: ``10♦``, ``5♥``."""
    rank = "10" if card.rank == 10 else str(card)[0]
    return f"{rank}{_SYMBOL[card.suit_index]}"


def cards_plain(cards: Sequence[Card]) -> str:
    """Several cards as plain text, separated by spaces."""
    return " ".join(card_plain(c) for c in cards)


def card_text(card: Card) -> Text:
    """A card face: rank (``10`` for ten) and suit symbol, ♥♦ red and ♠♣ black on a light card background."""
    return Text(f" {card_plain(card)} ", style=_RED if card.suit in "HD" else _BLACK)


def cards_text(cards: Sequence[Card], sep: str = " ") -> Text:
    """Several card faces separated by ``sep``; an em dash when there are none."""
    if not cards:
        return Text("—", style="dim")
    return Text(sep).join(card_text(c) for c in cards)
