#!/usr/bin/env python3
"""The catalogs of the Catan card game's cards (web/i18n/<lang>/catan_cards.cards.json)
against the engine: every card, event card, event-die face, resource and region the
engine has an id for is named (and every card, event card and face explained) in every
language, no catalog names an id the engine lacks, every language has the same keys and
the same placeholders as English, no text is empty, and docs/catan_cards-cards.md is the
table scripts/catan_cards_table.py makes.

    python3 tests/catalog_cards_test.py

Standard library only; the engine through python/tafel (TAFEL_LIB, else
build/libtafel.so, the target tafel-shared)."""
import json
import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import tafel  # noqa: E402  (the paths above first)
import catan_cards_table  # noqa: E402

LANGS = ("en", "nl", "de", "it")
P = "catan_cards."
# The composing templates and the pieces that are no engine id (roads, settlements and
# cities are actions; the two tokens are fields of the view).
FIXED = {P + k for k in (
    "card_cost", "card_free", "card_points", "vp_one", "vp_other", "strength_one",
    "strength_other", "trade_points_one", "trade_points_other", "tournament_one",
    "tournament_other", "copies_one", "copies_other", "what.building", "what.unit",
    "what.action", "when.green", "when.red", "when.yellow")}
PIECES = ("road", "settlement", "city", "knight_token", "windmill")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def load_catalog(lang):
    path = os.path.join(ROOT, "web", "i18n", lang, "catan_cards.cards.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f, object_pairs_hook=list)  # pairs: order and duplicates kept


def engine_ids():
    """Every id by family, from the engine: pieces JSON, the outcomes of the first
    region deal and event-die roll of a seeded game, and both seats' start regions in
    the view then."""
    game = tafel.load("catan_cards")
    pieces = game.pieces()
    ids = {
        "card": set(pieces["cards"]),
        "event_card": set(pieces["events"]),
        "resource": {r["name"] for r in pieces["resources"]},
        "region": {r["region"] for r in pieces["resources"]},
        "event_die": set(),
    }
    state, rng = game.new_state(), tafel.Rng(11)
    while not ids["event_die"]:  # the first roll comes after both have arranged
        if state.is_chance():
            for action, _ in state.chance_outcomes():
                verb, _, value = state.action_to_text(action).partition(" ")
                if verb == "regions":
                    ids["region"].add(value)
                elif verb == "event-die":
                    ids["event_die"].add(value)
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    for seat_info in state.view(-1)["players_info"]:
        ids["region"] |= {r["region"] for r in seat_info["regions"]}
    return ids


def expected_keys(ids):
    keys = set(FIXED)
    for family in ("card", "event_card", "event_die"):
        for i in ids[family]:
            keys |= {P + family + "." + i, P + family + "_text." + i}
    for piece in PIECES:
        keys |= {P + "piece." + piece, P + "piece_text." + piece}
    for res in ids["resource"]:
        keys |= {P + "resource." + res, P + "n_%s_one" % res, P + "n_%s_other" % res}
    keys |= {P + "region." + r for r in ids["region"]}
    return keys


class CardCatalogs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ids = engine_ids()
        cls.pairs = {lang: load_catalog(lang) for lang in LANGS}
        cls.cat = {lang: dict(pairs) for lang, pairs in cls.pairs.items()}

    def test_engine_ids_are_all_there(self):
        # What the engine has today: a catalog test that found no ids could not fail.
        self.assertEqual(len(self.ids["card"]), 44)
        self.assertEqual(len(self.ids["event_card"]), 7)
        self.assertEqual(len(self.ids["event_die"]), 5)
        self.assertEqual(len(self.ids["resource"]), 6)
        self.assertEqual(len(self.ids["region"]), 6 + 23)  # kinds, then region cards
        self.assertIn("falk", self.ids["card"])
        self.assertIn("forest6", self.ids["region"])
        self.assertIn("good-year", self.ids["event_die"])

    def test_flat_sorted_unique_strings(self):
        for lang, pairs in self.pairs.items():
            keys = [k for k, _ in pairs]
            self.assertEqual(keys, sorted(set(keys)), lang + ": keys sorted, no duplicates")
            for key, text in pairs:
                self.assertIsInstance(text, str, "%s %s" % (lang, key))

    def test_every_id_named_and_explained_no_extra(self):
        want = expected_keys(self.ids)
        for lang in LANGS:
            # a name's grammatical forms (<key>@<form>: "den Spion") are its language's own
            have = {k for k in self.cat[lang] if "@" not in k}
            self.assertEqual(sorted(want - have), [], lang + ": missing")
            self.assertEqual(sorted(have - want), [], lang + ": no such id in the engine")
            forms = {k.rpartition("@")[0] for k in self.cat[lang] if "@" in k}
            self.assertEqual(sorted(forms - have), [], lang + ": forms of names it does not have")

    def test_same_placeholders_as_english(self):
        for lang in LANGS:
            for key, text in self.cat[lang].items():
                self.assertEqual(sorted(PLACEHOLDER.findall(text)),
                                 sorted(PLACEHOLDER.findall(self.cat["en"][key.partition("@")[0]])),
                                 "%s %s" % (lang, key))

    def test_plural_forms_use_n(self):
        for lang in LANGS:
            for key, text in self.cat[lang].items():
                if key.endswith(("_one", "_other")):
                    self.assertIn("{n}", text, "%s %s" % (lang, key))

    def test_no_empty_text(self):
        for lang in LANGS:
            for key, text in self.cat[lang].items():
                self.assertTrue(text.strip(), "%s %s is empty" % (lang, key))
                self.assertEqual(text, text.strip(), "%s %s: spaces at an end" % (lang, key))

    def test_texts_are_translated(self):
        # Names may agree (Alchemist), explanations may not.
        for lang in LANGS[1:]:
            for key, text in self.cat[lang].items():
                if "_text." in key or ".when." in key:
                    self.assertNotEqual(text, self.cat["en"][key], "%s %s" % (lang, key))

    def test_english_card_names_are_the_engines(self):
        cards = tafel.load("catan_cards").pieces()["cards"]
        for cid, card in cards.items():
            self.assertEqual(self.cat["en"][P + "card." + cid], card["name"])

    def test_card_table_page_is_current(self):
        with open(catan_cards_table.PAGE, encoding="utf-8") as f:
            self.assertEqual(f.read(), catan_cards_table.page(tafel.load("catan_cards").pieces()),
                             "run scripts/catan_cards_table.py > docs/catan_cards-cards.md")


if __name__ == "__main__":
    unittest.main()
