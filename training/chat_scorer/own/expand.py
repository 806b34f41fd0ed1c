#!/usr/bin/env python3
"""Expand the hand-written template files in this folder into labelled TSV rows.

Usage: python3 expand.py DIR > own.tsv

For every DIR/<lang>.toml (sorted by file name) prints rows

    own/<lang>/<section>/<n><TAB><lang><TAB><abuse><TAB><identity><TAB><text>

with no header, in a deterministic order, deduplicated per (lang, text). The
source names the frame a row comes from (<n> counts from 0 in its section), so
the trainer puts every row of one frame in the same split: a frame seen in
training with one group would otherwise be "held out" with another.

  identity_hate    x groups -> abuse 1, identity 1
  identity_neutral x groups -> abuse 0, identity 0
  hostile                   -> abuse 1, identity 0
  game_talk                 -> abuse 0, identity 0
  chat_talk                 -> abuse 0, identity 0

If a file's groups are written in more than one script (hi: Devanagari and
romanised Hinglish), a frame is only combined with the groups written in the
same script class (Latin or not), so no mixed-script line is produced.

Summary counts go to stderr. Exit status 1 on a malformed file.
"""
import sys
import tomllib
from pathlib import Path

SECTIONS = (
    # key, abuse, identity, uses {g}
    ("identity_hate", 1, 1, True),
    ("identity_neutral", 0, 0, True),
    ("hostile", 1, 0, False),
    ("game_talk", 0, 0, False),
    ("chat_talk", 0, 0, False),
)


def clean(text):
    return " ".join(text.replace("\t", " ").split())


def is_latin(text):
    letters = [c for c in text if c.isalpha()]
    return all(ord(c) < 0x250 for c in letters)


def expand_file(path, errors):
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    lang = data.get("lang")
    if lang != path.stem:
        errors.append(f"{path}: lang = {lang!r} does not match file name")
    groups = [clean(g) for g in data.get("groups", [])]
    if not groups:
        errors.append(f"{path}: no groups")
    mixed = len({is_latin(g) for g in groups}) > 1
    rows = []
    counts = {}
    for key, abuse, identity, templated in SECTIONS:
        items = data.get(key, [])
        counts[key] = len(items)
        for n, item in enumerate(items):
            frame = f"own/{lang}/{key}/{n}"
            if not isinstance(item, str) or not item.strip():
                errors.append(f"{path}: {key}: empty or non-string entry")
                continue
            has_g = "{g}" in item
            if templated != has_g:
                errors.append(f"{path}: {key}: {'missing' if templated else 'unexpected'} {{g}} in {item!r}")
                continue
            if not templated:
                rows.append((frame, abuse, identity, clean(item)))
                continue
            frame_latin = is_latin(item.replace("{g}", ""))
            for g in groups:
                if mixed and is_latin(g) != frame_latin:
                    continue
                rows.append((frame, abuse, identity, clean(item.replace("{g}", g))))
    return lang, rows, counts


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(sys.argv[1])
    errors = []
    out = sys.stdout
    for path in sorted(folder.glob("*.toml")):
        lang, rows, counts = expand_file(path, errors)
        seen = {}
        written = 0
        conflicts = 0
        for frame, abuse, identity, text in rows:
            key = text.casefold()
            if key in seen:
                if seen[key] != (abuse, identity):
                    conflicts += 1
                    print(f"warning: {lang}: conflicting labels for {text!r}, kept first", file=sys.stderr)
                continue
            seen[key] = (abuse, identity)
            out.write(f"{frame}\t{lang}\t{abuse}\t{identity}\t{text}\n")
            written += 1
        summary = " ".join(f"{k}={v}" for k, v in counts.items())
        print(f"{lang}: {summary} rows={written} conflicts={conflicts}", file=sys.stderr)
    for e in errors:
        print("error: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
