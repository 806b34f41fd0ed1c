#!/usr/bin/env bash
# Trains the learned chat scorer from scratch: fetches the pinned sources of sources.tsv
# (needs git and internet), stages the corpus, expands the project's own lines, and runs
# `arbiter train-scorer`, which writes models/chat_scorer/weights.bin and report.md.
# Usage: training/chat_scorer/train.sh [WORK_DIR]   (default: target/chat_scorer)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${1:-$root/target/chat_scorer}"
mkdir -p "$work"
"$here/fetch_sources.sh" "$work/sources"
python3 "$here/stage.py" --sources "$work/sources" --out "$work/corpus.tsv"
python3 "$here/own/expand.py" "$here/own" > "$work/own.tsv"
cd "$root"
cargo run --release -- train-scorer \
  --corpus "$work/corpus.tsv" --corpus "$work/own.tsv" --out models/chat_scorer
