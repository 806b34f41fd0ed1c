use super::*;

const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn4");

/// Every `.pgn4` file under the data folder, sorted, with its path relative to the folder.
fn data_files() -> Vec<(String, String)> {
    let mut pending = vec![std::path::PathBuf::from(DATA_DIR)];
    let mut files = Vec::new();
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).expect("data folder is readable");
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "pgn4") {
                let relative = path
                    .strip_prefix(DATA_DIR)
                    .expect("under the data folder")
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&path).expect("file is UTF-8");
                files.push((relative, text));
            }
        }
    }
    files.sort();
    files
}

const BROKEN_FILE: &str = "quirks/cc_game_0067.pgn4";

#[test]
fn every_real_file_parses() {
    let files = data_files();
    assert!(files.len() > 100, "found only {} files", files.len());
    for (name, text) in &files {
        if name == BROKEN_FILE {
            continue;
        }
        let pgn = parse(text).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(!pgn.plies.is_empty(), "{name}: no plies");
    }
}

#[test]
fn missing_bracket_on_first_tag_fails_at_line_one_column_one() {
    let text = std::fs::read_to_string(format!("{DATA_DIR}/{BROKEN_FILE}")).expect("readable");
    let error = parse(&text).expect_err("the first tag lacks its '['");
    assert_eq!((error.line, error.column), (1, 1));
    assert_eq!(
        error.to_string(),
        "line 1, column 1: expected '[' to start a tag, found 'G'"
    );
}

#[test]
fn round_after_red_elimination_has_three_plies() {
    let text =
        std::fs::read_to_string(format!("{DATA_DIR}/ffa/cc_game_0037.pgn4")).expect("readable");
    let pgn = parse(&text).expect("parses");
    let round_11: Vec<&PlyText> = pgn.plies.iter().filter(|ply| ply.round == 11).collect();
    assert_eq!(round_11.len(), 3);
    assert_eq!(round_11[0].raw, "Qi2xQi4");
    assert_eq!(round_11[0].index_in_round, 0);
}
