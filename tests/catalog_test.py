#!/usr/bin/env python3
"""catalog_test.py -- checks the word catalogs web/i18n/<lang>/<part>.json.

Every file of every language is a flat JSON object of non-empty strings.  English is the
reference: every other language has the same files and the same keys (a plural key may add
the forms its language needs, a symbol the grammatical forms its templates ask for:
<game>.<field>.<value>@<form>, "den Spion" for {card@acc}), and every text has the same
placeholders {...} as its English one (each plural form is compared with the English _other
form; a placeholder's @form does not count; a _zero form, said when the number is 0, may leave
placeholders out and may be empty, to leave a part worth nothing out).  Keys begin with their
file's part: common.json holds common.* keys, carcassonne.json and catan_cards.cards.json
game keys, and a file not named after a part (howto.json) holds <game>.<file> keys.

    python3 tests/catalog_test.py [--root DIR]      check the catalogs (and this checker)
    python3 tests/catalog_test.py --pseudo OUTDIR   write a pseudo-language from English

The pseudo-language wraps every string in ⟦ ⟧ and makes each line a third longer, keeping
placeholders and line breaks, so that tests can find text that does not come from a catalog
and layouts that break with longer words.  Python 3 standard library only.
"""
import argparse
import json
import math
import os
import re
import sys
import tempfile

REFERENCE = "en"
GAMES = ("carcassonne", "cardcassonne", "catan_cards")
PARTS = ("common", "page", "lobby", "account", "ratings", "social", "clocks", "local", "guide") + GAMES
# CLDR plural categories; a catalog key "<base>_<form>" is one form of the phrase <base>.
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
HOWTO_LINES, HOWTO_WIDTH = 22, 90  # one screen
PSEUDO_OPEN, PSEUDO_CLOSE, PSEUDO_PAD = "\u27e6", "\u27e7", "~"


def plural_split(key):
    """(base, form) for a plural form key, else None."""
    base, sep, form = key.rpartition("_")
    return (base, form) if sep and base and form in PLURAL_FORMS else None


FORM = re.compile(r"@[^{}:]*")


def form_base(key):
    """The symbol key of a grammatical form key (<symbol key>@<form>), else None."""
    base, sep, form = key.rpartition("@")
    return base if sep and base and form and "." not in form else None


def placeholders(text):
    """Its placeholders, each without the @form a language may ask of a field."""
    return {FORM.sub("", p) for p in PLACEHOLDER.findall(text)}


def plural_references(text):
    """The phrase keys named by {field:key} placeholders."""
    return [p[1:-1].split(":", 1)[1] for p in PLACEHOLDER.findall(text) if ":" in p]


def prefix_problem(stem, key):
    """Why key does not belong in <stem>.json, or None."""
    part = stem.split(".")[0]
    if part in PARTS:
        return None if key.startswith(part + ".") else "does not begin with '%s.'" % part
    game, _, rest = key.partition(".")
    if game in GAMES and rest.split(".")[0] == part:
        return None
    return "is not <game>.%s... with a game of %s" % (part, ", ".join(GAMES))


def load(path, errors):
    """The catalog at path, or None (with the reason in errors)."""
    def no_duplicates(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                errors.append("%s: key %r appears twice" % (path, key))
            seen[key] = value
        return seen

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f, object_pairs_hook=no_duplicates)
    except (OSError, ValueError) as e:
        errors.append("%s: not valid JSON: %s" % (path, e))
        return None
    if not isinstance(data, dict):
        errors.append("%s: not a JSON object" % path)
        return None
    return data


def check_file(path, stem, catalog, errors):
    """The checks one file needs on its own."""
    for key, text in catalog.items():
        where = "%s: %r" % (path, key)
        if not isinstance(text, str):
            errors.append("%s: not a string" % where)
            continue
        split = plural_split(key)
        if not text.strip() and not (split and split[1] == "zero" and text == ""):
            errors.append("%s: empty" % where)
        if "{" in PLACEHOLDER.sub("", text) or "}" in PLACEHOLDER.sub("", text):
            errors.append("%s: a brace outside a placeholder" % where)
        problem = prefix_problem(stem, key)
        if problem:
            errors.append("%s: %s" % (where, problem))
        if split and split[0] + "_other" not in catalog:
            errors.append("%s: plural form without %s_other" % (where, split[0]))
        if key.endswith(".howto"):
            lines = text.split("\n")
            if len(lines) > HOWTO_LINES:
                errors.append("%s: %d lines, more than one screen (%d)" % (where, len(lines),
                                                                          HOWTO_LINES))
            for i, line in enumerate(lines):
                if len(line) > HOWTO_WIDTH:
                    errors.append("%s: line %d has %d characters (at most %d)" %
                                  (where, i + 1, len(line), HOWTO_WIDTH))


def reference_text(english, key):
    """The English text whose placeholders key's text must have, or None."""
    split = plural_split(key)
    return english.get(split[0] + "_other") if split else english.get(key)


def compare(path, catalog, english, errors):
    """catalog against the English file of the same part."""
    for key in sorted(set(english) - set(catalog)):
        errors.append("%s: missing key %r" % (path, key))
    for key, text in sorted(catalog.items()):
        split = plural_split(key)
        if form_base(key) is not None:
            if form_base(key) not in english:
                errors.append("%s: key %r is a form of %r, which is not in the English file" %
                              (path, key, form_base(key)))
            continue
        if key not in english and not (split and split[0] + "_other" in english):
            errors.append("%s: key %r is not in the English file" % (path, key))
            continue
        ref = reference_text(english, key)
        if not isinstance(text, str) or not isinstance(ref, str):
            continue
        zero = split and split[1] == "zero"
        if placeholders(text) != placeholders(ref) and not (
                zero and placeholders(text) <= placeholders(ref)):
            errors.append("%s: %r has placeholders %s, English %s" %
                          (path, key, sorted(placeholders(text)), sorted(placeholders(ref))))


def catalog_files(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".json"))


def check(root):
    """Every problem of the catalogs under root, as a list of sentences."""
    errors = []
    ref_dir = os.path.join(root, REFERENCE)
    if not os.path.isdir(ref_dir) or not catalog_files(ref_dir):
        return ["%s: no English catalogs" % ref_dir]
    langs = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    loaded = {}  # lang -> name -> catalog
    for lang in langs:
        loaded[lang] = {}
        for name in catalog_files(os.path.join(root, lang)):
            path = os.path.join(root, lang, name)
            catalog = load(path, errors)
            if catalog is not None:
                check_file(path, name[:-len(".json")], catalog, errors)
                loaded[lang][name] = catalog
    english = loaded[REFERENCE]
    ref_names = set(catalog_files(ref_dir))
    for lang in langs:
        names = set(catalog_files(os.path.join(root, lang)))
        for name in sorted(ref_names - names):
            errors.append("%s: missing (English has it)" % os.path.join(root, lang, name))
        for name in sorted(names - ref_names):
            errors.append("%s: English has no such file" % os.path.join(root, lang, name))
        every_key = set()
        for name, catalog in loaded[lang].items():
            every_key.update(catalog)
            if name in english:
                compare(os.path.join(root, lang, name), catalog, english[name], errors)
        for name, catalog in loaded[lang].items():
            for key, text in catalog.items():
                for phrase in plural_references(text) if isinstance(text, str) else ():
                    if phrase + "_other" not in every_key:
                        errors.append("%s: %r uses the phrase %r, but there is no %s_other" %
                                      (os.path.join(root, lang, name), key, phrase, phrase))
    return errors


def pseudo_text(text):
    """⟦text⟧, each line a third longer; placeholders and line breaks as they were; an
    empty text (a _zero form that leaves a part out) stays empty."""
    if text == "":
        return text
    lines = []
    for line in text.split("\n"):
        visible = len(PLACEHOLDER.sub("", line))
        lines.append(line + PSEUDO_PAD * math.ceil(visible / 3))
    return PSEUDO_OPEN + "\n".join(lines) + PSEUDO_CLOSE


def write_pseudo(root, outdir):
    errors = []
    os.makedirs(outdir, exist_ok=True)
    ref_dir = os.path.join(root, REFERENCE)
    for name in catalog_files(ref_dir):
        catalog = load(os.path.join(ref_dir, name), errors)
        if catalog is None:
            continue
        out = {key: pseudo_text(text) for key, text in catalog.items()}
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            json.dump(out, f, ensure_ascii=False, indent=2)
            f.write("\n")
    return errors


# The checker checked: a good set of catalogs passes, and each kind of defect is caught.
GOOD = {
    "en/common.json": {"common.seat.0": "Red", "common.points_one": "{n} point",
                       "common.points_other": "{n} points",
                       "common.got": "{seat} gets {points:common.points}"},
    "nl/common.json": {"common.seat.0": "Rood", "common.points_one": "{n} punt",
                       "common.points_other": "{n} punten",
                       "common.got": "{seat} krijgt {points:common.points}"},
    "en/howto.json": {"carcassonne.howto": "Title\nline"},
    "nl/howto.json": {"carcassonne.howto": "Titel\nregel"},
    "en/catan_cards.cards.json": {"catan_cards.card.falk": "Falk"},
    "nl/catan_cards.cards.json": {"catan_cards.card.falk": "Falk"},
}

# (what is wrong, file, its new content (a string is written as it is), a word of the error)
DEFECTS = [
    ("not JSON", "nl/common.json", '{"common.seat.0": "Rood",}', "not valid JSON"),
    ("not an object", "nl/common.json", '["Rood"]', "not a JSON object"),
    ("a number", "nl/howto.json", {"carcassonne.howto": 3}, "not a string"),
    ("empty", "nl/howto.json", {"carcassonne.howto": " "}, "empty"),
    ("key twice", "nl/howto.json", '{"carcassonne.howto": "a", "carcassonne.howto": "b"}',
     "twice"),
    ("missing key", "nl/howto.json", {"cardcassonne.howto": "x"}, "missing key"),
    ("extra key", "nl/catan_cards.cards.json",
     {"catan_cards.card.falk": "Falk", "catan_cards.card.karl": "Karl"}, "not in the English"),
    ("placeholder", "nl/common.json", dict(GOOD["nl/common.json"], **{"common.got": "{seat}"}),
     "placeholders"),
    ("plural form placeholder", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.points_one": "een punt"}), "placeholders"),
    ("zero form with a placeholder English lacks", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.points_zero": "{seat} geen punten"}),
     "placeholders"),
    ("empty text that is no zero form", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.points_one": ""}), "empty"),
    ("plural without other", "en/common.json",
     dict(GOOD["en/common.json"], **{"common.tiles_one": "{n} tile"}), "without"),
    ("unknown phrase", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.got": "{seat} krijgt {points:common.punten}"}),
     "no common.punten_other"),
    ("stray brace", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.seat.0": "Rood}"}), "brace"),
    ("wrong part", "en/howto.json", {"carcassonne.howto": "a", "common.howto": "b"},
     "is not <game>.howto"),
    ("wrong prefix", "en/catan_cards.cards.json", {"carcassonne.card.falk": "Falk"},
     "does not begin with 'catan_cards.'"),
    ("missing file", "nl/howto.json", None, "missing (English has it)"),
    ("extra file", "nl/extra.json", {"common.x": "y"}, "no such file"),
    ("too many lines", "en/howto.json", {"carcassonne.howto": "x\n" * HOWTO_LINES + "x"},
     "more than one screen"),
    ("too wide", "en/howto.json", {"carcassonne.howto": "x" * (HOWTO_WIDTH + 1)}, "characters"),
    ("form of nothing", "nl/catan_cards.cards.json",
     {"catan_cards.card.falk": "Falk", "catan_cards.card.karl@def": "Karl"}, "a form of"),
]

# A language may add the plural forms it needs.
ALLOWED = [
    ("extra plural form", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.points_many": "{n} punten"})),
    ("a zero form without the number", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.points_zero": "geen punten"})),
    ("an empty zero form, leaving the part out", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.points_zero": ""})),
    ("a name's form, asked by a template", "nl/catan_cards.cards.json",
     {"catan_cards.card.falk": "Falk", "catan_cards.card.falk@def": "ridder Falk"}),
    ("a placeholder with a form", "nl/common.json",
     dict(GOOD["nl/common.json"], **{"common.got": "{seat@x} krijgt {points:common.points}"})),
]


def write_catalogs(root, files):
    for name, content in files.items():
        path = os.path.join(root, name)
        if content is None:
            if os.path.exists(path):
                os.remove(path)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))


def self_test():
    failures = []
    cases = [(what, name, content, None) for what, name, content in ALLOWED]
    cases += [(what, name, content, word) for what, name, content, word in DEFECTS]
    for what, name, content, word in [("good catalogs", None, None, None)] + cases:
        with tempfile.TemporaryDirectory() as root:
            write_catalogs(root, GOOD)
            if name:
                write_catalogs(root, {name: content})
            errors = check(root)
        if word is None and errors:
            failures.append("self-test %s: unexpected %s" % (what, errors))
        if word is not None and not any(word in e for e in errors):
            failures.append("self-test %s: not caught (%s)" % (what, errors))
    with tempfile.TemporaryDirectory() as root:
        write_catalogs(root, GOOD)
        write_pseudo(root, os.path.join(root, "pseudo"))
        with open(os.path.join(root, "pseudo", "common.json"), encoding="utf-8") as f:
            got = json.load(f)["common.got"]
    want = "\u27e6{seat} gets {points:common.points}~~\u27e7"  # " gets " is 6: 2 more
    if got != want:
        failures.append("self-test pseudo: %r, expected %r" % (got, want))
    if pseudo_text("") != "":
        failures.append("self-test pseudo: an empty zero form is %r" % pseudo_text(""))
    if pseudo_text("ab\ncdef") != "\u27e6ab~\ncdef~~\u27e7":
        failures.append("self-test pseudo lines: %r" % pseudo_text("ab\ncdef"))
    return failures


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "../web/i18n")),
                        help="the folder of the language folders (default: web/i18n)")
    parser.add_argument("--pseudo", metavar="OUTDIR",
                        help="write OUTDIR/<part>.json, a pseudo-language made from English")
    args = parser.parse_args()
    if args.pseudo:
        errors = write_pseudo(args.root, args.pseudo)
    else:
        errors = self_test() + check(args.root)
    for e in errors:
        print(e, file=sys.stderr)
    if not args.pseudo and not errors:
        langs = [d for d in os.listdir(args.root) if os.path.isdir(os.path.join(args.root, d))]
        print("catalogs: %d languages, %d files, and the checker's %d self-tests, pass" % (
            len(langs), sum(len(catalog_files(os.path.join(args.root, d))) for d in langs),
            len(DEFECTS) + len(ALLOWED) + 3))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
