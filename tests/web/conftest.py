"""The web tests' shared set-up: ``drivers`` and ``web_layout`` importable from every file here (pytest runs with
--import-mode=importlib), and the fixtures of :mod:`drivers` offered to all of them: ``server`` (the real server),
``seeded_server`` (every game dealt from one fixed seed) and ``browser`` (Debian's Chromium), each one per file.
A file may define its own fixture of the same name (``test_web_motion_keys_aids.py``: a server whose computer
thinks a little)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drivers import browser, seeded_server, server

__all__ = ["browser", "seeded_server", "server"]  # fixtures used by name
