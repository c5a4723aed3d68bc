"""The research examples run (the training example at a tiny size) and are seeded: the same run gives the same
result."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_discard_training_example_runs_small_and_reproduces() -> None:
    example = _load("examples/research/cribbage_discard.py")
    first = example.main(train_deals=6, eval_deals=8, seed=3)
    again = example.main(train_deals=6, eval_deals=8, seed=3)
    assert np.array_equal(first["weights"], again["weights"])
    assert first["learned"] == again["learned"] and first["greedy"] == again["greedy"]
    mean, low, high = first["learned"]
    assert low <= mean <= high
