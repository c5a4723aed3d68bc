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


def _source_keys(game: str) -> set[str]:
    """The source keys of the rules specification's sources table (``| ET | ...``: spec/rules/<game>.md §0)."""
    import re

    text = (Path(__file__).resolve().parents[2] / "spec" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    start = text.find("| Key | Source")
    if start < 0:
        return set()
    table = text[start : text.find("\n\n", start)]
    return set(re.findall(r"^\| ([A-Z][A-Z0-9]) \|", table, flags=re.M))


@pytest.mark.parametrize("game", core.GAMES)
def test_option_help_names_no_raw_value_nor_source_key(game: str) -> None:
    # issue #11 item 3, "words, not notation ... for every lobby option": the 2026-12-05 new-user pass read
    # "co: earlier owners keep the trail ban" (the raw value of ownership=co) and "doubled (ET)" (a source key of
    # the spec's sources table, which the page does not take for a spec reference) on the Mulle rules page
    cat = i18n.catalogue(game)
    sources = _source_keys(game)
    doc = options_for(game)
    assert doc is not None
    assert game != "mulle" or {"S0", "ET"} <= sources  # the table was found
    for opt in doc["options"]:
        for lang in i18n.LANGS:
            help_text = cat[f"option.{opt['key']}.help"][lang]
            for value in opt.get("choices", []):
                if isinstance(value, str) and f"option.{opt['key']}.{value}" in cat:
                    word = cat[f"option.{opt['key']}.{value}"][lang]
                    assert value == word or f"{value}:" not in help_text, (opt["key"], lang, value)
            for key in sources:
                assert f"({key})" not in help_text and f"({key}," not in help_text, (opt["key"], lang, key)
