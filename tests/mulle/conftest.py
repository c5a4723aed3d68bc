"""Make ``mulle_helpers`` importable from the Mulle tests (pytest runs with --import-mode=importlib)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_report_header() -> str:
    """Say which fast core the tests run on: the optional compiled build (``make compiled``) or the source."""
    from kortbord.mulle import fast

    return f"kortbord.mulle.fast: {'compiled (mypyc)' if fast.COMPILED else 'pure Python'} ({fast.__file__})"
