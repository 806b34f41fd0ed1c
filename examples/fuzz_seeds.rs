//! Writes the fuzz targets' starting corpora from the repository's own test data:
//! `cargo run --example fuzz_seeds -- fuzz/corpus` (see docs/fuzzing.md).
//!
//! - `pgn4`: every real export under `tests/data/pgn4`;
//! - `fen4`: the standard starts and positions from those games every 16 plies;
//! - `chat`: FFA probes, rustrict test lines and CONDA utterances, each behind a mode byte;
//! - `submission`: each game as a JSON submission with seats, chat lines and events.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::fs;
use std::path::{Path, PathBuf};

use arbiter::archive::{ChatChannel, ChatInput, EventInput, EventKind, SeatInput};
use arbiter::archive::{SeatColour, Submission};
use arbiter::rules::{fen4, replay};

const CHAT_SEEDS_PER_SOURCE: usize = 1500;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/corpus".into()),
    );
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let games = read_games(&data.join("pgn4"))?;
    let chat = read_chat_lines(&data.join("chat"))?;

    let mut fen4_seeds: Vec<String> = ["4PC", "4PCo"]
        .iter()
        .filter_map(|name| fen4::standard_start(name).map(str::to_string))
        .collect();
    let mut submissions = Vec::new();
    for (i, text) in games.iter().enumerate() {
        if let Ok(game) = replay::replay(text) {
            fen4_seeds.extend(
                (0..=game.plies.len())
                    .step_by(16)
                    .filter_map(|p| game.fen4_at(p)),
            );
            submissions.push(serde_json::to_vec_pretty(&submission(
                text, &game, &chat, i,
            ))?);
        } else {
            submissions.push(serde_json::to_vec(&Submission::from_pgn4(text.clone()))?);
        }
    }
    let chat_seeds: Vec<Vec<u8>> = chat
        .iter()
        .enumerate()
        .map(|(i, line)| {
            // The first byte chooses the context (variant, channel, in progress, diplomacy).
            let mut seed = vec![(i % 64) as u8];
            seed.extend_from_slice(line.as_bytes());
            seed
        })
        .collect();

    let written = [
        write_all(
            &out.join("pgn4"),
            games.iter().map(|g| g.as_bytes().to_vec()),
        )?,
        write_all(
            &out.join("fen4"),
            fen4_seeds.iter().map(|f| f.as_bytes().to_vec()),
        )?,
        write_all(&out.join("chat"), chat_seeds.into_iter())?,
        write_all(&out.join("submission"), submissions.into_iter())?,
    ];
    println!(
        "{}: pgn4 {}, fen4 {}, chat {}, submission {}",
        out.display(),
        written[0],
        written[1],
        written[2],
        written[3]
    );
    Ok(())
}

fn submission(text: &str, game: &replay::Replay, chat: &[String], i: usize) -> Submission {
    let plies = game.plies.len() as u32;
    let colours = [
        SeatColour::Red,
        SeatColour::Blue,
        SeatColour::Yellow,
        SeatColour::Green,
    ];
    let names: Vec<String> = ["Red", "Blue", "Yellow", "Green"]
        .iter()
        .map(|seat| game.pgn.tag(seat).unwrap_or(seat).to_string())
        .collect();
    let seats = colours
        .iter()
        .zip(&names)
        .map(|(&seat, player)| SeatInput {
            seat,
            player: player.clone(),
            rating_before: Some(1500),
            rating_after: None,
            device_fp: Some(format!("dev-{}", player.len())),
            network_fp: None,
        })
        .collect();
    let chat = (0..6)
        .map(|k| ChatInput {
            ply: (k * plies / 6).min(plies),
            at: None,
            sender: names[k as usize % 4].clone(),
            channel: ChatChannel::Game,
            text: chat[(i * 7 + k as usize) % chat.len()].clone(),
        })
        .collect();
    let events = vec![
        EventInput {
            kind: EventKind::Disconnect,
            seat: SeatColour::Green,
            ply: plies / 2,
            at: None,
        },
        EventInput {
            kind: EventKind::Reconnect,
            seat: SeatColour::Green,
            ply: plies / 2 + 1,
            at: None,
        },
    ];
    Submission {
        pgn4: text.to_string(),
        site_game_id: None,
        seats,
        started_at: None,
        ended_at: None,
        chat,
        events,
    }
}

fn read_games(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut paths = Vec::new();
    collect(dir, &mut paths)?;
    paths.retain(|p| p.extension().is_some_and(|e| e == "pgn4"));
    paths.sort();
    paths.iter().map(fs::read_to_string).collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn read_chat_lines(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut lines: Vec<String> = fs::read_to_string(dir.join("ffa_probes.tsv"))?
        .lines()
        .skip(1)
        .filter_map(|l| l.rsplit('\t').next().map(str::to_string))
        .collect();
    for name in ["test_positive.txt", "test_negative.txt", "test_safe.txt"] {
        let text = fs::read_to_string(dir.join("rustrict_tests").join(name))?;
        lines.extend(text.lines().take(CHAT_SEEDS_PER_SOURCE).map(str::to_string));
    }
    // CONDA: the utterance is the fourth field; quoted fields are rare in its first columns.
    let conda = fs::read_to_string(dir.join("conda/CONDA_valid.csv"))?;
    lines.extend(
        conda
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').nth(3).map(str::to_string))
            .take(CHAT_SEEDS_PER_SOURCE),
    );
    lines.retain(|l| !l.trim().is_empty());
    Ok(lines)
}

fn write_all(dir: &Path, seeds: impl Iterator<Item = Vec<u8>>) -> std::io::Result<usize> {
    fs::create_dir_all(dir)?;
    let mut n = 0;
    for seed in seeds {
        fs::write(dir.join(format!("seed-{n:05}")), seed)?;
        n += 1;
    }
    Ok(n)
}
