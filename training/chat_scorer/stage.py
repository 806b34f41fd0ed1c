#!/usr/bin/env python3
"""Stage the chat-scorer training corpus from pinned public checkouts.

    python3 stage.py --sources DIR --out corpus.tsv

DIR holds one checkout per repository of sources.tsv, at DIR/<owner>__<name>
(fetch_sources.sh makes that layout and unzips the zips listed there).
The output is UTF-8 TSV with header ``source lang abuse identity text``;
see README.md for the meaning of the columns. Standard library only.
Deterministic: same checkouts in, byte-identical corpus out.
"""

import argparse
import collections
import csv
import hashlib
import html
import io
import os
import re
import sys
import xml.etree.ElementTree as ET
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
LANGS = "en de es fr it pt nl pl ru uk tr ar fa hi id ja ko zh".split()
MAX_CHARS = 500
TEMPLATE_CAP = 4000  # conversationai templates: rows per language

csv.field_size_limit(1 << 24)


class MissingFile(Exception):
    pass


# --------------------------------------------------------------------------
# text cleaning

URL_RE = re.compile(r"(?i)(?:https?://|\bwww\.|\bpic\.twitter\.com/)\S*"
                    r"|\bhttps?\S*\u2026"                       # truncated tweet links
                    r"|\bhttps?\s*:\s*//\s*(?:[/?.]\S*)?")      # tokenised links (Stormfront)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
RT_MENTION_RE = re.compile(r"(?<![\w@])(?:RT|rt|Rt)\s*@\w+(?:\.\w+)*:?")
MENTION_RE = re.compile(r"(?<![\w@])@\w+(?:\.\w+)*:?")
# anonymisation placeholders some sets glue to the previous word
PLACEHOLDER_RE = re.compile(r"@(?:user|url|User\.IDX|anonymized_account)\b:?", re.I)
LEAD_RT_RE = re.compile(r"^(?:(?:RT|rt|Rt)\b[\s:]*)+")
SPACE_RE = re.compile(r"[ \t\r\n\f\v]+")


def clean(text):
    t = html.unescape(html.unescape(text))  # some tweets are escaped twice
    t = t.replace("|LBR|", " ")   # GermEval line-break marker
    t = t.replace("\\n", " ").replace("\\r", " ")  # literal backslash-n/-r (PolEval, COLD)
    t = SPACE_RE.sub(" ", t)      # tabs, CR, LF -> space
    t = URL_RE.sub(" ", t)
    t = EMAIL_RE.sub(" ", t)
    t = RT_MENTION_RE.sub(" ", t)
    t = MENTION_RE.sub(" ", t)
    t = PLACEHOLDER_RE.sub(" ", t)
    t = SPACE_RE.sub(" ", t).strip()
    t = LEAD_RT_RE.sub("", t)
    t = t.lstrip(" :").strip()
    return t


# --------------------------------------------------------------------------
# file helpers

class Src:
    def __init__(self, root, repo):
        self.dir = os.path.join(root, repo.replace("/", "__"))

    def path(self, rel):
        p = os.path.join(self.dir, rel)
        if not os.path.isfile(p):
            raise MissingFile(p)
        return p

    def has(self, rel):
        return os.path.isfile(os.path.join(self.dir, rel))

    def text(self, rel, encoding="utf-8"):
        with open(self.path(rel), encoding=encoding, newline="") as f:
            return f.read()

    def member(self, rel, zip_rel, member):
        """An extracted zip member, or read it straight from the zip."""
        if self.has(rel):
            return self.text(rel)
        with zipfile.ZipFile(self.path(zip_rel)) as z:
            return z.read(member).decode("utf-8")

    def dicts(self, rel, delimiter=",", text=None):
        data = self.text(rel) if text is None else text
        if data.startswith("\ufeff"):
            data = data[1:]
        return csv.DictReader(io.StringIO(data, newline=""), delimiter=delimiter)

    def lines(self, rel):
        return self.text(rel).splitlines()


# --------------------------------------------------------------------------
# readers: each yields (lang, abuse, identity, raw_text); identity in 1/0/-

def r_davidson(s):
    for r in s.dicts("data/labeled_data.csv"):
        c = r["class"]
        yield ("en",) + {"0": (1, "1"), "1": (1, "0"), "2": (0, "0")}[c] + (r["tweet"],)


def r_kocohub(s):
    for rel in ("labeled/train.tsv", "labeled/dev.tsv"):
        for r in s.dicts(rel, delimiter="\t"):
            if r["hate"] in ("hate", "offensive"):
                ident = "1" if (r["contain_gender_bias"] == "True" or r["bias"] in ("gender", "others")) else "0"
                yield "ko", 1, ident, r["comments"]
            elif r["hate"] == "none":
                yield "ko", 0, "0", r["comments"]


APEACH_ID = {"Gender sterotypes": "1", "Nationality": "1", "Origin and residence": "1",
             "Disabled": "1", "Racism": "1", "Sexual harassment": "-",
             "Appearance": "0", "Age and social status": "0", "Education": "0", "Diets": "0"}


def r_apeach(s):
    for r in s.dicts("APEACH/test.csv"):
        if r["class"] == "Spoiled":
            yield "ko", 1, APEACH_ID.get(r["text_topic_eng"], "-"), r["text"]
        elif r["class"] == "Default":
            yield "ko", 0, "0", r["text"]


MLMA_TARGETS = {"origin", "gender", "sexual_orientation", "religion", "disability"}
MLMA_GROUPS = {"women", "arabs", "refugees", "african_descent", "muslims", "indian/hindu", "jews",
               "christian", "gay", "special_needs", "immigrants", "asians", "hispanics"}


def r_mlma(s):
    for lang, name in (("ar", "ar_dataset.csv"), ("en", "en_dataset_with_stop_words.csv"),
                       ("fr", "fr_dataset.csv")):
        data = s.member("hate_speech_mlma/" + name, "hate_speech_mlma.zip", "hate_speech_mlma/" + name)
        for r in s.dicts(None, text=data):
            if r["sentiment"].strip() == "normal":
                yield lang, 0, "0", r["tweet"]
            else:
                ident = "1" if (r["target"] in MLMA_TARGETS or r["group"] in MLMA_GROUPS) else "0"
                yield lang, 1, ident, r["tweet"]


def r_germeval(s):
    for rel in ("germeval2018.training.txt", "germeval2018.test.txt"):
        for line in s.lines(rel):
            if not line.strip():
                continue
            text, coarse, fine = line.split("\t")
            if coarse == "OFFENSE":
                yield "de", 1, ("-" if fine == "ABUSE" else "0"), text
            elif coarse == "OTHER":
                yield "de", 0, "0", text


def r_cold(s):
    for rel in ("COLDataset/train.csv", "COLDataset/dev.csv", "COLDataset/test.csv"):
        for r in s.dicts(rel):
            fine = r.get("fine-grained-label")
            if r["label"] == "1":
                ident = {"2": "1", "1": "0"}.get(fine, "-") if fine is not None else "-"
                yield "zh", 1, ident, r["TEXT"]
            elif r["label"] == "0":
                yield "zh", 0, "0", r["TEXT"]


def r_toldbr(s):
    for r in s.dicts("ToLD-BR.csv"):
        v = {k: float(r[k] or 0) for k in ("homophobia", "obscene", "insult", "racism", "misogyny", "xenophobia")}
        if any(x > 0 for x in v.values()):
            ident = "1" if any(v[k] > 0 for k in ("homophobia", "racism", "misogyny", "xenophobia")) else "0"
            yield "pt", 1, ident, r["text"]
        else:
            yield "pt", 0, "0", r["text"]


def r_stormfront(s):
    for r in s.dicts("annotations_metadata.csv"):
        if r["label"] not in ("hate", "noHate"):
            continue
        text = s.text("all_files/%s.txt" % r["file_id"])
        yield ("en", 1, "1", text) if r["label"] == "hate" else ("en", 0, "0", text)


def r_trac1(s):
    for lang, rel in (("en", "english/agr_en_train.csv"), ("en", "english/agr_en_dev.csv"),
                      ("hi", "hindi/agr_hi_train.csv"), ("hi", "hindi/agr_hi_dev.csv")):
        for row in csv.reader(io.StringIO(s.text(rel), newline="")):
            if len(row) < 3:
                continue
            label = row[-1].strip()
            text = ",".join(row[1:-1])
            if label == "OAG":
                yield lang, 1, "-", text
            elif label == "NAG":
                yield lang, 0, "0", text


def r_jtoxic(s):
    for r in s.dicts("data/subset.csv"):
        tox = int(r["Toxic"]) + int(r["Very Toxic"])
        clean_votes = int(r["Not Toxic"])
        if tox > clean_votes:
            yield "ja", 1, ("1" if int(r["category_差別"]) > 0 else "0"), r["text"]
        elif tox < clean_votes:
            yield "ja", 0, "0", r["text"]


def r_mera_hs(s):
    for r in s.dicts("humanbenchmarks/ruHateSpeech/data.csv"):
        out = r["outputs"].strip()
        if out not in ("1", "2"):
            continue
        other = "2" if out == "1" else "1"
        group = "-" if r["target_group"].strip() == "другое" else "1"
        yield "ru", 1, "-", r["replic"]
        yield "ru", 1, group, r["reply_" + out]
        yield "ru", 0, "0", r["reply_" + other]


def r_mera_detox(s):
    for r in s.dicts("humanbenchmarks/ruDetox/dataset.csv"):
        yield "ru", 1, "-", r["inputs"]
        yield "ru", 0, "0", r["outputs"]


def r_lingda(s):
    for name in ("train.csv", "valid.csv", "test.csv"):
        data = s.member("Dataset/" + name, "Dataset/turkish_off_lang_detection.zip", name)
        for r in s.dicts(None, text=data):
            if r["label"].strip() == "1":
                yield "tr", 1, "-", r["text"]
            elif r["label"].strip() == "0":
                yield "tr", 0, "0", r["text"]


XNS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def xlsx_rows(path):
    """Rows of the first sheet as {column letter: string}."""
    with zipfile.ZipFile(path) as z:
        shared = []
        if "xl/sharedStrings.xml" in z.namelist():
            for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iter(XNS + "si"):
                shared.append("".join(t.text or "" for t in si.iter(XNS + "t")))
        sheet = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))
    for row in sheet.iter(XNS + "row"):
        out = {}
        for c in row.iter(XNS + "c"):
            col = re.match(r"[A-Z]+", c.get("r")).group()
            t = c.get("t")
            v = c.find(XNS + "v")
            if t == "s":
                out[col] = shared[int(v.text)]
            elif t == "inlineStr":
                out[col] = "".join(x.text or "" for x in c.iter(XNS + "t"))
            else:
                out[col] = v.text if v is not None and v.text else ""
        yield out


def r_mpold(s):
    rows = xlsx_rows(s.path("data/Arabic_offensive_comment_detection_annotation_4000_selected.xlsx"))
    header = next(rows)
    col = {v: k for k, v in header.items()}
    text_c, lab_c = col["Comment"], col["Majority_Label"]
    fine_c = [k for k, v in header.items() if v.startswith("Vulgar")][0]
    for r in rows:
        lab = r.get(lab_c, "").strip()
        if lab == "Offensive":
            yield "ar", 1, ("1" if r.get(fine_c, "").strip() == "HS" else "0"), r.get(text_c, "")
        elif lab == "Non-Offensive":
            yield "ar", 0, "0", r.get(text_c, "")


def r_panlingua_hi(s):
    for r in s.dicts("hindi/hi_parallel_detoxification.test.csv"):
        yield "hi", 1, "-", r["toxic_comment"]
        yield "hi", 0, "0", r["civil_comment"]


TEMPLATE_FILES = (("de", "de_sentence_templates.csv"), ("en", "en_sentence_templates.csv"),
                  ("hi", "hi-Latn_sentence_templates.csv"), ("nl", "nl_sentence_templates.csv"),
                  ("zh", "zh-cn_sentence_templates.csv"), ("es", "es-es_sentence_templates.csv"),
                  ("fr", "fr-sentence_templates.csv"), ("pt", "pt-br_sentence_templates.csv"),
                  ("pt", "pt-pt_sentence_templates.csv"))
TEMPLATE_OPTIONAL = {"es-es_sentence_templates.csv", "fr-sentence_templates.csv",
                     "pt-br_sentence_templates.csv", "pt-pt_sentence_templates.csv"}


def r_templates(s):
    for lang, name in TEMPLATE_FILES:
        rel = "sentence_templates/" + name
        if not s.has(rel) and name in TEMPLATE_OPTIONAL:
            NOTES.append("templates: %s not present, skipped" % rel)
            continue
        for r in s.dicts(rel):
            tox = r["toxicity"].strip()
            if tox == "toxic":
                yield lang, 1, ("0" if r["template"] == "you_occupation" else "1"), r["phrase"]
            elif tox == "nontoxic":
                yield lang, 0, "0", r["phrase"]


def r_blob_id(s):
    for kind, abuse, ident in (("negative_impact", 1, "-"), ("normal", 0, "0")):
        for plat in ("discord", "facebook", "twitter", "youtube"):
            for line in s.lines("data/%s/raw_%s.txt" % (kind, plat)):
                yield "id", abuse, ident, line


TATOEBA = (("ar", "ara"), ("zh", "cmn"), ("de", "deu"), ("fr", "fra"), ("hi", "hin"), ("id", "ind"),
           ("it", "ita"), ("ja", "jpn"), ("ko", "kor"), ("nl", "nld"), ("fa", "pes"), ("pl", "pol"),
           ("pt", "por"), ("ru", "rus"), ("es", "spa"), ("tr", "tur"), ("uk", "ukr"))


def r_tatoeba(s):
    for lang, code in TATOEBA:
        for line in s.lines("data/tatoeba/v1/tatoeba.%s-eng.%s" % (code, code)):
            yield lang, 0, "0", line
    for line in s.lines("data/tatoeba/v1/tatoeba.deu-eng.eng"):
        yield "en", 0, "0", line


READERS = {
    "davidson": r_davidson, "kocohub": r_kocohub, "apeach": r_apeach, "mlma": r_mlma,
    "germeval2018": r_germeval, "cold": r_cold, "toldbr": r_toldbr, "stormfront": r_stormfront,
    "trac1": r_trac1, "jtoxic": r_jtoxic, "mera_hs": r_mera_hs, "mera_detox": r_mera_detox,
    "lingda": r_lingda, "mpold": r_mpold, "panlingua_hi": r_panlingua_hi, "templates": r_templates,
    "blob_id": r_blob_id, "tatoeba": r_tatoeba,
}
CAPPED = {"templates": TEMPLATE_CAP}
NOTES = []


def sha1(text):
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def cap_rows(rows, cap):
    """Keep at most `cap` distinct texts per language: the smallest sha1(text),
    among texts whose label is consistent inside the set; file order kept."""
    labels = collections.defaultdict(set)
    for lang, abuse, _ident, text in rows:
        labels[(lang, text)].add(abuse)
    keep = set()
    by_lang = collections.defaultdict(list)
    for (lang, text), labs in labels.items():
        if len(labs) == 1:
            by_lang[lang].append(text)
    for lang, texts in by_lang.items():
        texts.sort(key=lambda t: (sha1(t), t))
        keep.update((lang, t) for t in texts[:cap])
    return [r for r in rows if (r[0], r[3]) in keep]


def read_manifest(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sources", required=True, help="directory of <owner>__<name> checkouts")
    ap.add_argument("--out", required=True, help="corpus TSV to write")
    ap.add_argument("--manifest", default=os.path.join(HERE, "sources.tsv"), help="sources.tsv (default: next to this script)")
    args = ap.parse_args(argv)

    manifest = read_manifest(args.manifest)
    drops = collections.Counter()
    rows = []  # (source, lang, abuse, identity, text)
    for m in manifest:
        sid = m["id"]
        if sid not in READERS:
            raise SystemExit("no reader for source id %r in %s" % (sid, args.manifest))
        src = Src(args.sources, m["repo"])
        got = []
        try:
            for lang, abuse, ident, raw in READERS[sid](src):
                assert lang in LANGS and abuse in (0, 1) and ident in ("0", "1", "-"), (sid, lang, abuse, ident)
                if abuse == 0:
                    ident = "0"
                text = clean(raw or "")
                if not text:
                    drops[(sid, "empty")] += 1
                    continue
                if len(text) > MAX_CHARS:
                    drops[(sid, "too_long")] += 1
                    continue
                got.append((lang, abuse, ident, text))
        except MissingFile as e:
            raise SystemExit("source %s: missing file %s (run fetch_sources.sh)" % (sid, e))
        if sid in CAPPED:
            before = len(got)
            got = cap_rows(got, CAPPED[sid])
            drops[(sid, "capped")] += before - len(got)
        rows.extend((sid,) + r for r in got)

    # exact (lang, text) dedupe across the corpus; conflicting labels drop all copies
    labels = collections.defaultdict(set)
    for sid, lang, abuse, ident, text in rows:
        labels[(lang, text)].add(abuse)
    seen = set()
    out_rows = []
    for row in rows:
        sid, lang, abuse, ident, text = row
        key = (lang, text)
        if len(labels[key]) > 1:
            drops[(sid, "label_conflict")] += 1
            continue
        if key in seen:
            drops[(sid, "duplicate")] += 1
            continue
        seen.add(key)
        out_rows.append(row)

    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write("source\tlang\tabuse\tidentity\ttext\n")
        for sid, lang, abuse, ident, text in out_rows:
            f.write("%s\t%s\t%d\t%s\t%s\n" % (sid, lang, abuse, ident, text))
    os.replace(tmp, args.out)

    report(manifest, out_rows, drops)


def report(manifest, rows, drops):
    per_src = collections.Counter(r[0] for r in rows)
    src_lab = collections.Counter((r[0], r[2]) for r in rows)
    kinds = ("empty", "too_long", "capped", "duplicate", "label_conflict")
    print("rows per source (after cleaning, cap and dedupe)")
    print("%-14s %8s %8s %8s  %s" % ("source", "rows", "abuse=1", "abuse=0", "dropped: " + " ".join(kinds)))
    for m in manifest:
        sid = m["id"]
        print("%-14s %8d %8d %8d  %s" % (sid, per_src[sid], src_lab[(sid, 1)], src_lab[(sid, 0)],
                                          " ".join("%d" % drops[(sid, k)] for k in kinds)))
    print("%-14s %8d" % ("total", len(rows)))
    print()
    print("rows per lang x label")
    print("%-4s %8s %8s %8s %8s %8s %8s" % ("lang", "abuse=1", "abuse=0", "id=1", "id=0|ab1", "id=-", "total"))
    c = collections.Counter()
    for sid, lang, abuse, ident, text in rows:
        c[(lang, abuse)] += 1
        if abuse == 1:
            c[(lang, "id" + ident)] += 1
    for lang in LANGS:
        print("%-4s %8d %8d %8d %8d %8d %8d" % (lang, c[(lang, 1)], c[(lang, 0)], c[(lang, "id1")],
                                                c[(lang, "id0")], c[(lang, "id-")], c[(lang, 1)] + c[(lang, 0)]))
    for n in NOTES:
        print("note:", n)


if __name__ == "__main__":
    main()
