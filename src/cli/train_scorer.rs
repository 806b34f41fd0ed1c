//! `arbiter train-scorer`: reads the corpus files, trains the learned chat scorer and writes
//! `weights.bin` and `report.md` (`training/chat_scorer/README.md` says how the corpus is
//! made). The same files give the same weights, byte for byte.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use sha2::{Digest, Sha256};

use crate::chat::eval::Score;
use crate::chat::scorer::corpus::parse_corpus;
use crate::chat::scorer::features::Shape;
use crate::chat::scorer::training::{train, Example, Split, TrainingReport};
use crate::chat::scorer::training::{TrainingSettings, SPLITS_MEASURED};
use crate::chat::scorer::{Head, Model};
use crate::chat::{
    analyze_line_with, Analyzer, Category, CategoryGroup, LineContext, Scratch, Severity,
};

#[derive(Debug, Args)]
pub struct TrainScorerArgs {
    /// Corpus files (TSV: source, lang, abuse, identity, text), read in the order given.
    #[arg(long = "corpus", required = true, value_name = "FILE")]
    pub corpora: Vec<PathBuf>,
    /// Where `weights.bin` and `report.md` are written.
    #[arg(long, default_value = "models/chat_scorer", value_name = "DIR")]
    pub out: PathBuf,
    /// The feature table has 2^bits rows (one byte per row and head).
    #[arg(long, default_value_t = TrainingSettings::default().shape.bits)]
    pub bits: u32,
    /// The shortest character n-gram read inside a word.
    #[arg(long, default_value_t = TrainingSettings::default().shape.shortest_gram)]
    pub shortest_gram: u32,
    /// The longest character n-gram read inside a word.
    #[arg(long, default_value_t = TrainingSettings::default().shape.longest_gram)]
    pub longest_gram: u32,
    #[arg(long, default_value_t = TrainingSettings::default().epochs)]
    pub epochs: u32,
}

pub fn run(args: &TrainScorerArgs) -> anyhow::Result<()> {
    let mut examples = Vec::new();
    let mut inputs = Vec::new();
    for path in &args.corpora {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let rows = parse_corpus(&text).with_context(|| format!("{}", path.display()))?;
        inputs.push((path.clone(), rows.len(), hex::encode(Sha256::digest(&text))));
        examples.extend(rows);
    }
    let shape = Shape {
        bits: args.bits,
        shortest_gram: args.shortest_gram,
        longest_gram: args.longest_gram,
    };
    anyhow::ensure!(
        shape.is_valid(),
        "--bits must be between 8 and 24, the n-grams between 1 and 8 characters"
    );
    let settings = TrainingSettings {
        shape,
        epochs: args.epochs,
        ..TrainingSettings::default()
    };
    eprintln!("training on {} lines", examples.len());
    let (model, report) = train(&examples, &settings);
    let weights = model.to_bytes();
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("weights.bin"), &weights)?;
    let layers = compare_layers(&model, &examples)?;
    let text = report_markdown(&settings, &inputs, &model, &weights, &report, &layers);
    std::fs::write(args.out.join("report.md"), text)?;
    eprintln!(
        "wrote {} ({} bytes) and {}",
        args.out.join("weights.bin").display(),
        weights.len(),
        args.out.join("report.md").display()
    );
    Ok(())
}

/// Per language of the test split: the whole analyser flagging at medium or above, with the
/// lexicon alone and with the scorer beside it, against the abuse label.
type LayerCounts = BTreeMap<String, [Score; 2]>;

fn compare_layers(model: &Model, examples: &[Example]) -> anyhow::Result<LayerCounts> {
    let with_scorer = Analyzer::embedded()?.with_scorer(model.clone());
    let lexicon_only = Analyzer::embedded()?.with_scorer(Model::never());
    let context = LineContext::default();
    let mut scratch = Scratch::new();
    let mut out: LayerCounts = BTreeMap::new();
    for example in examples {
        if split_of_example(example) != Split::Test {
            continue;
        }
        for (layer, analyzer) in [&lexicon_only, &with_scorer].into_iter().enumerate() {
            let analysis = analyze_line_with(analyzer, &mut scratch, &context, &example.text);
            let flagged = analysis
                .flags
                .iter()
                .any(|f| is_offensive_speech(f.category) && f.severity >= Severity::Medium);
            let source = example.source.split('/').next().unwrap_or_default();
            for key in [
                example.lang.clone(),
                "all".into(),
                format!("source {source}"),
            ] {
                let counts = &mut out.entry(key).or_default()[layer];
                counts.add(flagged, example.hostile);
            }
        }
    }
    Ok(out)
}

/// Offensive categories other than personal information (which no corpus labels).
fn is_offensive_speech(category: Category) -> bool {
    category.group() == CategoryGroup::Offensive && category != Category::PersonalInfo
}

fn split_of_example(example: &Example) -> Split {
    let mut line = crate::chat::NormalizedLine::new();
    line.normalize(&example.text);
    crate::chat::scorer::training::split_of_example(example, line.trimmed())
}

fn report_markdown(
    settings: &TrainingSettings,
    inputs: &[(PathBuf, usize, String)],
    model: &Model,
    weights: &[u8],
    report: &TrainingReport,
    layers: &LayerCounts,
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Learned chat scorer: training report\n");
    let _ = writeln!(
        md,
        "Written by `arbiter train-scorer` (`training/chat_scorer/README.md`). Do not edit: \
         train again.\n"
    );
    let _ = writeln!(md, "## Inputs\n\n| file | lines | sha256 |\n|---|---|---|");
    for (path, rows, sha) in inputs {
        let _ = writeln!(md, "| `{}` | {rows} | `{sha}` |", file_name(path));
    }
    let _ = writeln!(
        md,
        "\nSettings: 2^{} rows, character {}- to {}-grams, {} epochs, AdaGrad rate {}, L2 {}, seed {:#x}; thresholds set \
         on dev for precision {:?} (per head: low, medium, high).\n",
        settings.shape.bits,
        settings.shape.shortest_gram,
        settings.shape.longest_gram,
        settings.epochs,
        settings.learning_rate,
        settings.l2,
        settings.seed,
        settings.precision_targets
    );
    let _ = writeln!(
        md,
        "Weights: {} bytes, sha256 `{}`.\n",
        weights.len(),
        hex::encode(Sha256::digest(weights))
    );
    let _ = writeln!(
        md,
        "Training loss (hostile head, weighted log-loss) per epoch: {}.\n",
        report
            .epoch_loss
            .iter()
            .map(|l| format!("{l:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        md,
        "## Thresholds\n\n| head | bias | scale | low | medium | high |\n|---|---|---|---|---|---|"
    );
    for head in Head::ALL {
        let p = model.head(head);
        let _ = writeln!(
            md,
            "| {} | {:.3} | {:.5} | {:.3} | {:.3} | {:.3} |",
            head.name(),
            p.bias,
            p.scale,
            p.thresholds.low,
            p.thresholds.medium,
            p.thresholds.high
        );
    }
    let _ = writeln!(
        md,
        "\n## Data\n\nLines per source:\n\n| source | lines |\n|---|---|"
    );
    for (source, n) in &report.sources {
        let _ = writeln!(md, "| {source} | {n} |");
    }
    let _ = writeln!(
        md,
        "\nLines per language and split (abusive / clean):\n\n| lang | train | dev | test |\n|---|---|---|---|"
    );
    let mut langs: Vec<&String> = report.sizes.keys().map(|(_, lang, _)| lang).collect();
    langs.dedup();
    langs.sort();
    langs.dedup();
    for lang in &langs {
        let cell = |split: Split| {
            let get = |y: bool| {
                report
                    .sizes
                    .get(&(split, (*lang).clone(), y))
                    .copied()
                    .unwrap_or(0)
            };
            format!("{} / {}", get(true), get(false))
        };
        let _ = writeln!(
            md,
            "| {lang} | {} | {} | {} |",
            cell(Split::Train),
            cell(Split::Dev),
            cell(Split::Test)
        );
    }
    for head in Head::ALL {
        let _ = writeln!(
            md,
            "\n## Head `{}` at its medium threshold\n\n| lang | dev lines | dev P | dev R | dev F1 | test lines | test P | test R | test F1 |\n|---|---|---|---|---|---|---|---|---|",
            head.name()
        );
        let mut keys: Vec<&String> = report
            .scores
            .keys()
            .filter(|(_, h, _)| *h == head.name())
            .map(|(_, _, lang)| lang)
            .collect();
        keys.sort();
        keys.dedup();
        for lang in keys {
            let mut row = format!("| {lang} |");
            for split in SPLITS_MEASURED {
                let counts = report
                    .scores
                    .get(&(split, head.name(), lang.clone()))
                    .copied()
                    .unwrap_or_default();
                let _ = write!(
                    row,
                    " {} ({} +) | {:.3} | {:.3} | {:.3} |",
                    counts.lines(),
                    counts.positives(),
                    counts.precision(),
                    counts.recall(),
                    counts.f1()
                );
            }
            let _ = writeln!(md, "{row}");
        }
    }
    let _ = writeln!(
        md,
        "\n## The whole analyser on the test split\n\nAn offensive-speech flag at medium or \
         above, against the abuse label: the lexicon alone, then the lexicon with the scorer.\n\n\
         | lang | lines | lexicon P | lexicon R | lexicon F1 | both P | both R | both F1 |\n\
         |---|---|---|---|---|---|---|---|"
    );
    // Languages first, then the sources ("source davidson").
    let (sources, langs): (Vec<_>, Vec<_>) = layers
        .iter()
        .partition(|(key, _)| key.starts_with("source "));
    for (lang, [alone, both]) in langs.into_iter().chain(sources) {
        let _ = writeln!(
            md,
            "| {lang} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            alone.lines(),
            alone.precision(),
            alone.recall(),
            alone.f1(),
            both.precision(),
            both.recall(),
            both.f1()
        );
    }
    md
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
