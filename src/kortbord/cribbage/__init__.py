"""Cribbage: the rules engine, the scoring of the play and the show (``kortbord.cribbage.scoring``).

Rules source: ``../shared/rules/cribbage.md``.
"""
