#!/usr/bin/env bash
# Fuzzes Arbiter's readers: fuzz/run.sh [RUNS] [TARGET...]
#   RUNS     executions per target (default 10000000); 0 runs until stopped
#   TARGET   pgn4, fen4, chat, submission (default: all four)
# Seeds the corpora from tests/data (once), then runs each target with its dictionary.
# FUZZ_SANITIZER=none skips AddressSanitizer (about twice as fast; the targets are safe Rust).
# Crashes land in fuzz/artifacts/TARGET/; see docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(pgn4 fen4 chat submission)

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
if [ ! -d fuzz/corpus/submission ]; then
    cargo run --quiet --example fuzz_seeds -- fuzz/corpus
fi
for target in "${targets[@]}"; do
    case $target in
        pgn4|submission) max_len=65536 ;;
        *) max_len=4096 ;;
    esac
    echo "== $target: $runs runs"
    cargo +nightly fuzz run --release --sanitizer "${FUZZ_SANITIZER:-address}" \
        "$target" "fuzz/corpus/$target" -- \
        -runs="$runs" -dict="fuzz/dict/$target.dict" -max_len="$max_len" \
        -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
done
