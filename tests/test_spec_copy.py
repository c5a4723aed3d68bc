"""The repository's copies of the rules specifications (``spec/rules``) and of the documents the project was made
from (``spec/seeds``) must equal the shared originals, so every link in the code and docs points inside the
repository."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
FILES = [
    "rules/mulle.md",
    "rules/mulle_cases.json",
    "rules/cribbage.md",
    "rules/cribbage_cases.json",
    *(f"seeds/{p.name}" for p in sorted((REPO / "spec" / "seeds").glob("*.txt"))),
]


def test_the_three_seed_documents_are_vendored() -> None:
    assert len([f for f in FILES if f.startswith("seeds/")]) == 3


@pytest.mark.parametrize("name", FILES)
def test_the_vendored_copy_is_verbatim(name: str) -> None:
    assert (REPO / "spec" / name).is_file(), f"spec/{name} is missing"
    if not (SHARED / name).is_file():
        pytest.skip(f"no ../shared/{name} beside this clone: nothing to compare with")
    assert (REPO / "spec" / name).read_bytes() == (SHARED / name).read_bytes(), (
        f"spec/{name} differs from ../shared/{name}: copy the shared file over"
    )
