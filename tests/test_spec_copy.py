"""The repository's copy of the rules specifications (``spec/rules``) must equal the shared originals."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_RULES = REPO.parent / "shared" / "rules"
VENDORED_RULES = REPO / "spec" / "rules"
FILES = ["mulle.md", "mulle_cases.json", "cribbage.md", "cribbage_cases.json"]


@pytest.mark.parametrize("name", FILES)
def test_the_vendored_copy_is_verbatim(name: str) -> None:
    assert (VENDORED_RULES / name).is_file(), f"spec/rules/{name} is missing"
    if not (SHARED_RULES / name).is_file():
        pytest.skip("no ../shared/rules beside this clone: nothing to compare with")
    assert (VENDORED_RULES / name).read_bytes() == (SHARED_RULES / name).read_bytes(), (
        f"spec/rules/{name} differs from ../shared/rules/{name}: copy the shared file over"
    )
