"""kortbord: a card table for Mulle and Cribbage.

Engines (``kortbord.mulle``, ``kortbord.cribbage``) are pure and know no client; the terminal client
(``kortbord.cli``), bots (``kortbord.bots``) and later the server and research adapters are clients of them.
"""

__version__ = "0.1.0"
