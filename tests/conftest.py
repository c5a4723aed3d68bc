"""Where the tests read the rules specifications and their worked cases.

The authoritative copies live in the project's shared folder beside the repository (``../shared/rules``: that is
how CI lays a clone out).  A clone elsewhere has no such folder, so the repository carries a verbatim copy in
``spec/rules``; ``test_spec_copy.py`` fails whenever the two differ.  Tests read the folder named by the
environment variable ``KORTBORD_RULES_DIR``, set here before any test module is imported.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_RULES = REPO.parent / "shared" / "rules"
VENDORED_RULES = REPO / "spec" / "rules"

os.environ.setdefault(
    "KORTBORD_RULES_DIR", str(SHARED_RULES if (SHARED_RULES / "mulle_cases.json").is_file() else VENDORED_RULES)
)
