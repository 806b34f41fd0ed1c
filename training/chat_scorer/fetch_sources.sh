#!/usr/bin/env bash
# Fetch the pinned sources of the chat-scorer corpus.
#
#   fetch_sources.sh DEST
#
# For each repository in sources.tsv (next to this script) this clones
# https://github.com/<owner>/<name> into DEST/<owner>__<name> (partial clone,
# sparse checkout of the files listed in sources.tsv plus the licence file),
# checks out the pinned commit, and unzips the zips listed in the `unzip`
# column next to themselves. Re-running it on an existing DEST is safe.
# Needs git (>= 2.27 for sparse checkout; older ones get a full checkout) and python3.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 DEST" >&2
    exit 2
fi
DEST=$1
HERE=$(cd "$(dirname "$0")" && pwd)
MANIFEST=$HERE/sources.tsv
BASE_URL=${FETCH_BASE_URL:-https://github.com}   # override only for testing against local mirrors
mkdir -p "$DEST"

# one line per repository: repo<TAB>commit<TAB>patterns(;)<TAB>zips(;)
# (sources.tsv may list a repository on several rows, e.g. ai-forever/MERA)
python3 - "$MANIFEST" > "$DEST/.fetch_plan.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8", newline=""), delimiter="\t",
                           quoting=csv.QUOTE_NONE))
plan = {}
for r in rows:
    p = plan.setdefault(r["repo"], {"commit": r["commit"], "files": [], "zips": []})
    if p["commit"] != r["commit"]:
        sys.exit("sources.tsv pins %s at two commits" % r["repo"])
    for f in [r["licence_file"]] + r["files"].split(";"):
        f = f.strip()
        if f and f != "-" and f not in p["files"]:
            p["files"].append(f)
    for z in r["unzip"].split(";"):
        z = z.strip()
        if z and z != "-" and z not in p["zips"]:
            p["zips"].append(z)
for repo, p in plan.items():
    print("\t".join([repo, p["commit"], ";".join(p["files"]), ";".join(p["zips"]) or "-"]))
PY

sparse_ok=0
if git sparse-checkout -h >/dev/null 2>&1 || [ $? -eq 129 ]; then sparse_ok=1; fi

while IFS=$'\t' read -r repo commit files zips; do
    dir=$DEST/${repo/\//__}
    echo "== $repo @ $commit -> $dir"
    if [ ! -d "$dir/.git" ]; then
        git clone --quiet --filter=blob:none --no-checkout "$BASE_URL/$repo.git" "$dir"
    fi
    if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
        git -C "$dir" fetch --quiet --filter=blob:none origin "$commit" || git -C "$dir" fetch --quiet origin
    fi
    if [ "$sparse_ok" = 1 ]; then
        # non-cone patterns anchored at the repository root; a missing path is harmless
        IFS=';' read -r -a pats <<< "$files"
        anchored=()
        for p in "${pats[@]}"; do anchored+=("/$p"); done
        git -C "$dir" sparse-checkout set --no-cone "${anchored[@]}"
    fi
    git -C "$dir" -c advice.detachedHead=false checkout --quiet --force "$commit"
    got=$(git -C "$dir" rev-parse HEAD)
    if [ "$got" != "$commit" ]; then
        echo "checkout of $repo gave $got, wanted $commit" >&2
        exit 1
    fi
    if [ "$zips" != "-" ]; then
        IFS=';' read -r -a zs <<< "$zips"
        for z in "${zs[@]}"; do
            python3 - "$dir/$z" <<'PY'
import os, sys, zipfile
path = sys.argv[1]
with zipfile.ZipFile(path) as zf:
    names = [n for n in zf.namelist() if not n.startswith("__MACOSX/")]
    zf.extractall(os.path.dirname(path), names)
print("   unzipped %s (%d entries)" % (path, len(names)))
PY
        done
    fi
done < "$DEST/.fetch_plan.tsv"

echo "done: sources under $DEST; next: python3 $HERE/stage.py --sources $DEST --out corpus.tsv"
