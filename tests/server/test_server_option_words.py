"""The words of the lobby's rule options live in the catalogues (issue #11, after the fresh-user pass): every
option the lobby offers has a label and a help text in English and Swedish under ``option.<key>.label`` /
``option.<key>.help`` of its game's catalogue, the server answers with those words, ``server/options.py`` holds
none of them (one place for each word), and the terminal labels the table's rules with the same words."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kortbord import core, i18n
from kortbord.cli import app
from kortbord.server import options
from kortbord.server.options import option_words, options_for


@pytest.mark.parametrize("game", core.GAMES)
def test_every_offered_option_has_catalogue_words_in_both_languages(game: str) -> None:
    doc = options_for(game)
    assert doc is not None and doc["options"]
    cat = i18n.catalogue(game)
    for opt in doc["options"]:
        key = opt["key"]
        for part in ("label", "help"):
            entry = cat[f"option.{key}.{part}"]
            assert all(entry[lang].strip() for lang in i18n.LANGS), (key, part)
            assert entry["en"] != entry["sv"] or part == "label", (key, part)  # a help text is translated
            # the answer's copies are the catalogue's words
            assert opt[f"{part}_en"] == entry["en"] and opt[f"{part}_sv"] == entry["sv"]
        for value in opt.get("choices", []):  # the values in words too (a number may stand for itself)
            assert f"option.{key}.{value}" in cat or isinstance(value, int), (key, value)
    assert option_words(game, doc["options"][0]["key"])["label_en"] == doc["options"][0]["label_en"]


def test_options_py_holds_no_words() -> None:
    source = Path(options.__file__).read_text(encoding="utf-8")
    for game in core.GAMES:
        for key, entry in i18n.catalogue(game).items():
            if key.startswith("option.") and key.endswith((".label", ".help")):
                for lang in i18n.LANGS:
                    words = entry[lang]
                    if len(words) > 15:  # a short label may be an option's own name ("Muggins")
                        assert words not in source, (key, lang)


def test_the_terminal_labels_the_table_s_rules_with_the_catalogue_words() -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["play", "mulle", "--bot", "greedy", "--kryp", "--lang", "sv"], input="rules\nquit\ny\n"
    ).output
    label = i18n.catalogue("mulle")["option.kryp.label"]["sv"]
    assert f"{label}: {i18n.catalogue()['option.true']['sv']}" in out
    out = runner.invoke(app, ["play", "cribbage", "--bot", "greedy", "--target", "61"], input="rules\nquit\ny\n").output
    assert "Game to: 61 (once around)" in out  # option.target.label and option.target.61
    out = runner.invoke(app, ["play", "cribbage", "--bot", "greedy", "--lang", "sv"], input="rules\nquit\ny\n").output
    assert i18n.render("rules.standard", {}, "sv", game="terminal") in out
