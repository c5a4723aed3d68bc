"""Which build of Mulle's fast core an import of ``kortbord.mulle.fast`` loads (issue #13 item 5).

The optional compiled build (``make compiled``: mypyc puts ``fast.*.so`` next to ``fast.py``) is what Python imports
when it is there.  Imported first by :mod:`kortbord.mulle`, this module makes the import load the source instead
when ``KORTBORD_PURE=1`` asks for it, or when the build is older than ``fast.py`` (a stale build would run older
code: a warning then says to rebuild).  ``kortbord.mulle.fast.COMPILED`` tells which was loaded.
"""

from __future__ import annotations

import os as _os


def _source_fast_core() -> bool:
    """True when ``kortbord.mulle.fast`` must load from ``fast.py`` although the optional compiled build (``make
    compiled``) may sit next to it: ``KORTBORD_PURE=1`` asks for the source, and a build older than the source is
    stale (it would run yesterday's code) -- then a warning says to rebuild."""
    here = _os.path.dirname(__file__)
    if _os.environ.get("KORTBORD_PURE") == "1":
        return True
    built = [n for n in _os.listdir(here) if n.startswith("fast.") and n.endswith((".so", ".pyd"))]
    if built and min(_os.path.getmtime(_os.path.join(here, n)) for n in built) < _os.path.getmtime(
        _os.path.join(here, "fast.py")
    ):
        import warnings

        warnings.warn(
            "kortbord.mulle.fast: the compiled build is older than fast.py; using the source (run `make compiled`)",
            stacklevel=2,
        )
        return True
    return False


if _source_fast_core():
    # An import of ``kortbord.mulle.fast`` then loads ``fast.py``, not the extension (``fast.COMPILED`` says which).
    import importlib.machinery as _machinery
    import importlib.util as _util
    import sys as _sys
    from collections.abc import Sequence as _Sequence
    from pathlib import Path as _Path
    from types import ModuleType as _ModuleType

    class _PureFast:
        """A meta path finder that finds ``kortbord.mulle.fast`` as its source file only."""

        @staticmethod
        def find_spec(
            fullname: str, path: _Sequence[str] | None = None, target: _ModuleType | None = None
        ) -> _machinery.ModuleSpec | None:
            if fullname != "kortbord.mulle.fast":
                return None
            return _util.spec_from_file_location(fullname, _Path(__file__).with_name("fast.py"))

    _sys.meta_path.insert(0, _PureFast)
