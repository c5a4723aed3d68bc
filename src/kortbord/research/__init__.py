"""Research interfaces: shared action encodings, observation tensors and the game driver behind the OpenSpiel
(:mod:`kortbord.openspiel`) and PettingZoo (:mod:`kortbord.pettingzoo`) adapters.  See ``docs/research.md``."""
