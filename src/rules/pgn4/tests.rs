use super::*;

const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

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

fn read_data(relative: &str) -> String {
    std::fs::read_to_string(format!("{DATA_DIR}/{relative}"))
        .unwrap_or_else(|error| panic!("{relative}: {error}"))
}

fn parse_data(relative: &str) -> Pgn4 {
    parse(&read_data(relative)).unwrap_or_else(|error| panic!("{relative}: {error}"))
}

fn square(text: &str) -> SquareText {
    SquareText::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn action(token: &str) -> PlyAction {
    PlyAction::parse(token).unwrap_or_else(|error| panic!("{token}: {error}"))
}

/// Tag names and values, in order.
type TagPairs = Vec<(String, String)>;
/// Round, index in round and action of each ply.
type PlySlots = Vec<(u32, u8, PlyAction)>;

/// The parts of a document that `write` must preserve.
fn essence(pgn: &Pgn4) -> (TagPairs, PlySlots) {
    let tags = pgn
        .tags
        .iter()
        .map(|tag| (tag.name.clone(), tag.value.clone()))
        .collect();
    let plies = pgn
        .plies
        .iter()
        .map(|ply| (ply.round, ply.index_in_round, ply.action.clone()))
        .collect();
    (tags, plies)
}

fn plies_of_round(pgn: &Pgn4, round: u32) -> Vec<&str> {
    pgn.plies
        .iter()
        .filter(|ply| ply.round == round)
        .map(|ply| ply.raw.as_str())
        .collect()
}

#[test]
fn every_real_file_survives_write_then_parse() {
    for (name, text) in data_files() {
        if name == BROKEN_FILE {
            continue;
        }
        let original = parse(&text).unwrap_or_else(|error| panic!("{name}: {error}"));
        let written = write(&original);
        let reread = parse(&written).unwrap_or_else(|error| panic!("{name} rewritten: {error}"));
        assert_eq!(essence(&reread), essence(&original), "{name}");
        // Apart from the `R#` marker slot, the canonical tokens are the site's own.
        for (before, after) in original.plies.iter().zip(&reread.plies) {
            if before.raw != "R#" {
                assert_eq!(before.raw, after.raw, "{name}");
            }
        }
    }
}

#[test]
fn every_real_file_numbers_its_rounds_and_slots_consistently() {
    for (name, text) in data_files() {
        if name == BROKEN_FILE {
            continue;
        }
        let pgn = parse(&text).expect("parses");
        let mut expected_round = 1;
        for ply in &pgn.plies {
            if ply.index_in_round == 0 {
                assert_eq!(ply.round, expected_round, "{name} line {}", ply.line);
                expected_round += 1;
            }
            assert!(ply.index_in_round < 4, "{name} line {}", ply.line);
        }
        let first_line = text.lines().position(|line| line.starts_with("1. "));
        assert_eq!(
            pgn.plies.first().map(|ply| ply.line as usize),
            first_line.map(|index| index + 1),
            "{name}"
        );
    }
}

#[test]
fn ply_counts_follow_eliminations() {
    let pgn = parse_data("ffa/cc_game_0037.pgn4");
    assert_eq!(plies_of_round(&pgn, 10).len(), 4);
    assert_eq!(plies_of_round(&pgn, 11), ["Qi2xQi4", "Qh8-i9", "Bn9xQi4"]);
    assert_eq!(plies_of_round(&pgn, 105), ["Qg10xNj10", "R"]);
    let last = pgn.plies.last().expect("has plies");
    assert_eq!(last.action, PlyAction::Eliminated(Marker::Resigned));
    assert_eq!((last.round, last.index_in_round), (105, 1));
}

#[test]
fn positions_are_reported_in_characters() {
    let pgn = parse_data("ffa/cc_game_0037.pgn4");
    let first = &pgn.plies[0];
    assert_eq!((first.column, first.raw.as_str()), (4, "h2-h3"));
    let second = &pgn.plies[1];
    assert_eq!(second.column, 13);
    // `δ` is two bytes but one column.
    let pgn = parse("1. δi3-i4 .. δc9-e9").expect("parses");
    assert_eq!(pgn.plies[1].column, 14);
}

#[test]
fn comments_and_variations_are_skipped() {
    let pgn = parse_data("teams/teams_26780489_blue_timeout_with_variations.pgn4");
    assert_eq!(
        plies_of_round(&pgn, 6),
        ["Qm6xNl6", "Qb9xf13+", "Kg14xQf13", "m5xQl6"]
    );
    assert_eq!(
        plies_of_round(&pgn, 7),
        ["Nj1-k3", "Na10-c11", "Bl8xm9+", "Kn8xBm9"]
    );
    assert_eq!(
        plies_of_round(&pgn, 9),
        ["Nm4xBn6", "b7-c7", "Qg3-g5", "Rn4xNn6"]
    );
    assert_eq!(
        plies_of_round(&pgn, 10),
        ["e2-e3", "b4-c4", "Kf13-g14", "Qk10-f10"]
    );
    assert_eq!(plies_of_round(&pgn, 16), ["d3xc4", "T"]);
    assert_eq!(pgn.plies.len(), 15 * 4 + 2);
    assert!(pgn.plies.iter().all(|ply| !ply.raw.contains('(')));

    let clocked = parse_data("quirks/pgn4crate_teams_4177881.pgn4");
    assert_eq!(clocked.plies.len(), 25 * 4 + 2);
    assert_eq!(plies_of_round(&clocked, 26), ["δe7-d8=V", "#"]);

    let inline = parse(
        "{lead} 1. h2-h3{a}..{b}b8-c8 ((( .. x ) { ) } ) ) {c} .. k13-k12 ( 2. z9 ) .. m7-l7 {end}",
    )
    .expect("parses");
    let raws: Vec<&str> = inline.plies.iter().map(|ply| ply.raw.as_str()).collect();
    assert_eq!(raws, ["h2-h3", "b8-c8", "k13-k12", "m7-l7"]);
}

#[test]
fn marker_slots_and_dead_king_walking_moves() {
    let teams = parse_data("teams/teams_519084_wikibooks_example.pgn4");
    let last = teams.plies.last().expect("has plies");
    assert_eq!((last.round, last.raw.as_str()), (8, "#"));
    assert_eq!(last.action, PlyAction::Eliminated(Marker::Mated));

    let stalemated = parse_data("ffa/cc_game_0098.pgn4");
    assert_eq!(plies_of_round(&stalemated, 43)[0], "S");
    let first_of_43 = stalemated
        .plies
        .iter()
        .find(|ply| ply.round == 43)
        .expect("round 43");
    assert_eq!(
        first_of_43.action,
        PlyAction::Eliminated(Marker::Stalemated)
    );

    let resigned_mated = parse_data("ffa/cc_game_0093.pgn4");
    let slot = resigned_mated
        .plies
        .iter()
        .find(|ply| ply.raw == "R#")
        .expect("R# slot");
    assert_eq!(slot.action, PlyAction::Eliminated(Marker::Resigned));

    let walking = parse_data("ffa/cc_game_0126.pgn4");
    let auto = walking
        .plies
        .iter()
        .find(|ply| ply.raw == "Kg10-f10R")
        .expect("auto move");
    let PlyAction::Move(text) = &auto.action else {
        panic!("not a move: {:?}", auto.action)
    };
    assert_eq!(text.piece, 'K');
    assert_eq!(text.suffix.auto_move, Some(Marker::Resigned));

    assert_eq!(
        action("O-OT"),
        PlyAction::Castle {
            long: false,
            suffix: Suffix {
                auto_move: Some(Marker::TimedOut),
                ..Suffix::default()
            }
        }
    );
    let PlyAction::Move(check_and_walk) = action("Ki8-j7+T") else {
        panic!("not a move")
    };
    assert_eq!(check_and_walk.suffix.checks, 1);
    assert_eq!(check_and_walk.suffix.auto_move, Some(Marker::TimedOut));
    for (token, marker) in [
        ("R", Marker::Resigned),
        ("T", Marker::TimedOut),
        ("S", Marker::Stalemated),
        ("#", Marker::Mated),
    ] {
        assert_eq!(action(token), PlyAction::Eliminated(marker));
        assert_eq!(action(token).to_string(), token);
    }
}

#[test]
fn move_tokens_read_every_part() {
    let PlyAction::Move(knight) = action("Nj1-i3") else {
        panic!("not a move")
    };
    assert_eq!(
        knight,
        MoveText {
            piece: 'N',
            from: square("j1"),
            to: square("i3"),
            capture: false,
            captured: None,
            promotion: None,
            suffix: Suffix::default(),
        }
    );
    let PlyAction::Move(pawn_takes_bishop) = action("d3xBc4") else {
        panic!("not a move")
    };
    assert_eq!(pawn_takes_bishop.piece, 'P');
    assert!(pawn_takes_bishop.capture);
    assert_eq!(pawn_takes_bishop.captured, Some('B'));
    let PlyAction::Move(pawn_takes_pawn) = action("k11xl10") else {
        panic!("not a move")
    };
    assert_eq!(pawn_takes_pawn.from, SquareText { file: 10, rank: 10 });
    assert_eq!(pawn_takes_pawn.to, SquareText { file: 11, rank: 9 });
    assert_eq!(pawn_takes_pawn.captured, None);
    let PlyAction::Move(promotion) = action("g8-g7=D+") else {
        panic!("not a move")
    };
    assert_eq!(promotion.promotion, Some('D'));
    assert_eq!(promotion.suffix.checks, 1);
    let PlyAction::Move(fairy) = action("Yk6xδi4+") else {
        panic!("not a move")
    };
    assert_eq!((fairy.piece, fairy.captured), ('Y', Some('δ')));
    let PlyAction::Move(fairy_pawn) = action("δh7-g8=E") else {
        panic!("not a move")
    };
    assert_eq!((fairy_pawn.piece, fairy_pawn.promotion), ('δ', Some('E')));
    let PlyAction::Move(stalemating) = action("Re14xKi14#S") else {
        panic!("not a move")
    };
    assert_eq!(
        stalemating.suffix,
        Suffix {
            checks: 0,
            mates: 1,
            stalemate: true,
            auto_move: None
        }
    );
    for (token, checks, mates) in [
        ("a4-a5+", 1, 0),
        ("a4-a5++", 2, 0),
        ("a4-a5+++", 3, 0),
        ("a4-a5#", 0, 1),
        ("a4-a5+#", 1, 1),
        ("a4-a5++#", 2, 1),
        ("a4-a5##", 0, 2),
    ] {
        let PlyAction::Move(text) = action(token) else {
            panic!("not a move")
        };
        assert_eq!(
            (text.suffix.checks, text.suffix.mates),
            (checks, mates),
            "{token}"
        );
        assert_eq!(text.to_string(), token);
    }
    assert_eq!(
        action("O-O-O++"),
        PlyAction::Castle {
            long: true,
            suffix: Suffix {
                checks: 2,
                ..Suffix::default()
            }
        }
    );
    for token in [
        "Nj1-i3", "d3xBc4", "k11xl10", "g8-g7=D+", "O-O", "O-O-O#", "Kk1-k2R",
    ] {
        assert_eq!(action(token).to_string(), token);
    }
}

#[test]
fn squares_cover_a1_to_n14_only() {
    assert_eq!(square("a1"), SquareText { file: 0, rank: 0 });
    assert_eq!(square("n14"), SquareText { file: 13, rank: 13 });
    assert_eq!(square("n14").to_string(), "n14");
    assert_eq!(square("h10").to_string(), "h10");
    let cases = [
        ("o1", 1, "a file letter a..n", "'o'"),
        ("a15", 2, "a rank 1..14", "'15'"),
        ("a0", 2, "a rank 1..14", "'0'"),
        ("a", 2, "a rank 1..14", "end of input"),
        ("b2x", 3, "the end of the square", "'x'"),
        ("", 1, "a file letter a..n", "end of input"),
    ];
    for (text, column, expected, found) in cases {
        let error = SquareText::parse(text).expect_err(text);
        assert_eq!(
            (error.column, error.expected.as_str(), error.found.as_str()),
            (column, expected, found),
            "{text}"
        );
    }
}

#[test]
fn malformed_input_is_reported_where_it_goes_wrong() {
    let cases: &[(&str, u32, u32, &str, &str)] = &[
        (
            "1. h2-h3 .. b8-c8 .. z13-k12",
            1,
            22,
            "a move (piece letter or square), 'O-O', or an elimination marker R, T, S or #",
            "'z'",
        ),
        ("1. h2-h3 .. b8-c15", 1, 17, "a rank 1..14", "'15'"),
        (
            "1. h2-h3 .. o8-c8",
            1,
            13,
            "a move (piece letter or square), 'O-O', or an elimination marker R, T, S or #",
            "'o'",
        ),
        ("1. Nj1-p3", 1, 8, "a file letter a..n", "'p'"),
        (
            "1. Nj1i3",
            1,
            7,
            "'-' or 'x' after the origin square",
            "'i'",
        ),
        (
            "1. g8-g7=",
            1,
            10,
            "a piece letter to promote to",
            "end of input",
        ),
        (
            "1. g8-g7=D!",
            1,
            11,
            "a suffix ('+', '#', 'S', 'R' or 'T') or the end of the move",
            "'!'",
        ),
        (
            "1. h2-h3 b8-c8",
            1,
            10,
            "'..' before the next ply, or the next round number",
            "'b'",
        ),
        ("1. h2-h3 .. .. b8-c8", 1, 13, "a move", "'.'"),
        ("1. h2-h3 ..", 1, 12, "a move", "end of input"),
        ("1.", 1, 3, "a move", "end of input"),
        ("1 h2-h3", 1, 2, "'.' after the round number", "' '"),
        ("h2-h3", 1, 1, "'[' to start a tag", "'h'"),
        (
            "1. a1-a2 .. a1-a2 .. a1-a2 .. a1-a2 .. a1-a2",
            1,
            37,
            "a round number such as '1.' (a round holds at most four plies)",
            "'.'",
        ),
        (
            "[Event \"x\"]\n\n1. h2-h3 { unclosed",
            3,
            20,
            "'}' to close the comment opened at line 3, column 10",
            "end of input",
        ),
        (
            "1. h2-h3 ( .. b8-c8 ( )",
            1,
            24,
            "')' to close the variation opened at line 1, column 10",
            "end of input",
        ),
        (
            "1. h2-h3 )",
            1,
            10,
            "'..' before the next ply, or the next round number",
            "')'",
        ),
        (
            "[Event \"x\"\n",
            2,
            1,
            "']' to close tag Event",
            "end of input",
        ),
        (
            "[Event x]",
            1,
            8,
            "'\"' to start the value of tag Event",
            "'x'",
        ),
        (
            "[Event \"x",
            1,
            10,
            "'\"' to close the value of tag Event (tag opened at line 1, column 1)",
            "end of input",
        ),
        ("[ \"x\"]", 1, 3, "a tag name", "'\"'"),
        ("[A \"1\"]\nB \"2\"]", 2, 1, "'[' to start a tag", "'B'"),
        (
            "1. h2-h3 1-0 2. b8-c8",
            1,
            14,
            "the end of the game after the result",
            "'2'",
        ),
        (
            "99999999999. h2-h3",
            1,
            1,
            "a round number below 4294967296",
            "'99999999999'",
        ),
    ];
    for &(text, line, column, expected, found) in cases {
        let error = parse(text).expect_err(text);
        assert_eq!(
            (
                error.line,
                error.column,
                error.expected.as_str(),
                error.found.as_str()
            ),
            (line, column, expected, found),
            "{text}"
        );
    }
}

#[test]
fn invalid_utf8_is_an_error_at_the_bad_byte() {
    let mut bytes = b"[Event \"x\"]\n\n1. h2-h3 .. \xCE\xB4c9-e9 .. ".to_vec();
    bytes.push(0xFF);
    let error = parse_bytes(&bytes).expect_err("invalid UTF-8");
    assert_eq!((error.line, error.column), (3, 23));
    assert_eq!(error.expected, "UTF-8 text");
    assert_eq!(error.found, "invalid byte 0xFF");
    let text = read_data("ffa/cc_game_0037.pgn4");
    assert_eq!(parse_bytes(text.as_bytes()), parse(&text));
}

#[test]
fn crlf_files_read_like_lf_files() {
    for relative in [
        "quirks/pgn4crate_teams_4177881.pgn4",
        "teams/teams_26780489_blue_timeout_with_variations.pgn4",
    ] {
        let text = read_data(relative);
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(parse(&crlf), parse(&text), "{relative}");
    }
}

#[test]
fn results_end_the_move_text_without_becoming_moves() {
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        let text = format!("1. h2-h3 .. b8-c8\n2. i2-i3 {result} {{ done }}\n");
        let pgn = parse(&text).unwrap_or_else(|error| panic!("{result}: {error}"));
        assert_eq!(pgn.plies.len(), 3, "{result}");
    }
    assert!(parse("*").expect("empty game").plies.is_empty());
    assert!(parse("1. 1-0").is_err());
}

#[test]
fn tag_values_keep_escapes_and_line_breaks() {
    let text =
        "[Quote \"say \\\"hi\\\" \\\\ back\"]\n[Multi \"one\ntwo\"]\n[Odd \"a\\b\"]\n\n1. h2-h3\n";
    let pgn = parse(text).expect("parses");
    assert_eq!(pgn.tag("Quote"), Some("say \"hi\" \\ back"));
    assert_eq!(pgn.tag("Multi"), Some("one\ntwo"));
    assert_eq!(pgn.tag("Odd"), Some("a\\b"));
    assert_eq!(pgn.tag("Missing"), None);
    assert_eq!(pgn.tags[1].line, 2);
    let reread = parse(&write(&pgn)).expect("written text parses");
    assert_eq!(essence(&reread), essence(&pgn));
    assert!(write(&pgn).starts_with("[Quote \"say \\\"hi\\\" \\\\ back\"]\n"));
}

#[test]
fn write_produces_the_site_layout() {
    let text = "[GameNr \"1\"]\n[Variant \"FFA\"]\n\n1. h2-h3 { date=x } .. b8-c8 .. k13-k12 .. m7-l7\n2. Qg1xm7+ .. R .. O-O\n";
    let pgn = parse(text).expect("parses");
    assert_eq!(
        write(&pgn),
        "[GameNr \"1\"]\n[Variant \"FFA\"]\n\n1. h2-h3 .. b8-c8 .. k13-k12 .. m7-l7\n2. Qg1xm7+ .. R .. O-O\n"
    );
    assert_eq!(write(&Pgn4::default()), "");
}

#[test]
fn deep_nesting_neither_recurses_nor_hangs() {
    let depth = 200_000;
    let balanced = format!(
        "1. h2-h3 {} .. b8-c8",
        "(".repeat(depth) + &")".repeat(depth)
    );
    assert_eq!(parse(&balanced).expect("parses").plies.len(), 2);
    let open = format!("1. h2-h3 {}", "(".repeat(depth));
    assert!(parse(&open).is_err());
    let braces = format!("1. h2-h3 {}", "{".repeat(depth));
    assert!(parse(&braces).is_err());
    let closers = ")".repeat(depth);
    assert!(parse(&closers).is_err());
}

/// Prints how long the whole real set takes; run with `--ignored` in release mode.
#[test]
#[ignore]
fn parse_speed_of_the_real_set() {
    let files = data_files();
    let bytes: usize = files.iter().map(|(_, text)| text.len()).sum();
    let rounds = 20;
    let start = std::time::Instant::now();
    let mut plies = 0;
    for _ in 0..rounds {
        for (_, text) in &files {
            plies += parse(text).map_or(0, |pgn| pgn.plies.len());
        }
    }
    let per_pass = start.elapsed() / rounds;
    println!(
        "{} files, {bytes} bytes, {} plies: {per_pass:?} per pass",
        files.len(),
        plies / rounds as usize
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Real files, read once per test run.
    fn real_texts() -> &'static [String] {
        static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        TEXTS.get_or_init(|| data_files().into_iter().map(|(_, text)| text).collect())
    }

    /// Runs every reader on the input; they may fail but must return.
    fn read_everything(text: &str) {
        let _ = parse(text);
        let _ = PlyAction::parse(text);
        let _ = SquareText::parse(text);
        if let Ok(pgn) = parse(text) {
            // Whatever was accepted must be written in a form that reads back the same.
            let reread = parse(&write(&pgn)).expect("written text reads back");
            assert_eq!(essence(&reread), essence(&pgn));
        }
    }

    #[derive(Debug, Clone)]
    enum Mutation {
        Replace(usize, u8),
        Insert(usize, u8),
        Delete(usize),
        Truncate(usize),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        // Bytes that matter to the grammar are favoured over arbitrary noise.
        let byte = prop_oneof![
            any::<u8>(),
            prop::sample::select(b"[]{}()\"\\.-x=+#ORTS 0123456789abcnK\n\r".to_vec()),
        ];
        prop_oneof![
            (any::<usize>(), byte.clone()).prop_map(|(at, b)| Mutation::Replace(at, b)),
            (any::<usize>(), byte).prop_map(|(at, b)| Mutation::Insert(at, b)),
            any::<usize>().prop_map(Mutation::Delete),
            any::<usize>().prop_map(Mutation::Truncate),
        ]
    }

    fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
        let len = bytes.len().max(1);
        match *mutation {
            Mutation::Replace(at, byte) => {
                if let Some(slot) = bytes.get_mut(at % len) {
                    *slot = byte;
                }
            }
            Mutation::Insert(at, byte) => bytes.insert(at % (bytes.len() + 1), byte),
            Mutation::Delete(at) => {
                if !bytes.is_empty() {
                    bytes.remove(at % len);
                }
            }
            Mutation::Truncate(at) => bytes.truncate(at % (bytes.len() + 1)),
        }
    }

    fn square_text() -> impl Strategy<Value = SquareText> {
        (0u8..14, 0u8..14).prop_map(|(file, rank)| SquareText { file, rank })
    }

    fn piece_letter() -> impl Strategy<Value = char> {
        prop::sample::select(vec![
            'P', 'N', 'B', 'R', 'Q', 'K', 'D', 'T', 'S', 'O', 'V', 'E', 'M', 'Y', 'G', 'δ', 'α',
        ])
    }

    fn suffix() -> impl Strategy<Value = Suffix> {
        (
            0u8..4,
            0u8..3,
            any::<bool>(),
            prop::option::of(prop::sample::select(vec![
                Marker::Resigned,
                Marker::TimedOut,
            ])),
        )
            .prop_map(|(checks, mates, stalemate, auto_move)| Suffix {
                checks,
                mates,
                stalemate,
                auto_move,
            })
    }

    fn move_text() -> impl Strategy<Value = MoveText> {
        (
            piece_letter(),
            square_text(),
            square_text(),
            prop::option::of(prop::option::of(piece_letter())),
            prop::option::of(piece_letter()),
            suffix(),
        )
            .prop_map(|(piece, from, to, capture, promotion, suffix)| MoveText {
                piece,
                from,
                to,
                capture: capture.is_some(),
                captured: capture.flatten(),
                promotion,
                suffix,
            })
    }

    fn ply_action() -> impl Strategy<Value = PlyAction> {
        prop_oneof![
            6 => move_text().prop_map(PlyAction::Move),
            1 => (any::<bool>(), suffix()).prop_map(|(long, suffix)| PlyAction::Castle { long, suffix }),
            1 => prop::sample::select(vec![
                Marker::Resigned,
                Marker::TimedOut,
                Marker::Stalemated,
                Marker::Mated,
            ])
            .prop_map(PlyAction::Eliminated),
        ]
    }

    fn tag() -> impl Strategy<Value = Tag> {
        ("[A-Za-z][A-Za-z0-9_]{0,12}", "[ -~\nδ]{0,30}").prop_map(|(name, value)| Tag {
            name,
            value,
            line: 0,
        })
    }

    fn document() -> impl Strategy<Value = Pgn4> {
        (
            prop::collection::vec(tag(), 0..6),
            prop::collection::vec(prop::collection::vec(ply_action(), 1..=4), 0..10),
            1u32..500,
        )
            .prop_map(|(tags, rounds, first_round)| {
                let mut plies = Vec::new();
                for (offset, actions) in rounds.into_iter().enumerate() {
                    for (index, action) in actions.into_iter().enumerate() {
                        plies.push(PlyText {
                            round: first_round + offset as u32,
                            index_in_round: index as u8,
                            line: 0,
                            column: 0,
                            raw: action.to_string(),
                            action,
                        });
                    }
                }
                Pgn4 { tags, plies }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_text_never_panics(text in any::<String>()) {
            read_everything(&text);
        }

        #[test]
        fn grammar_shaped_text_never_panics(
            text in "[\\[\\]\"{}()\\\\. 0-9a-pxKQRBNOTSDδ#+=\\-\n\r*/]{0,120}"
        ) {
            read_everything(&text);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_bytes(&bytes);
        }

        #[test]
        fn mutated_real_files_never_panic(
            file in any::<prop::sample::Index>(),
            mutations in prop::collection::vec(mutation(), 1..8),
        ) {
            let texts = real_texts();
            let mut bytes = texts[file.index(texts.len())].as_bytes().to_vec();
            for mutation in &mutations {
                apply(&mut bytes, mutation);
            }
            let _ = parse_bytes(&bytes);
            read_everything(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn generated_documents_round_trip(pgn in document()) {
            let written = write(&pgn);
            let reread = parse(&written)
                .map_err(|error| TestCaseError::fail(format!("{error}\n{written}")))?;
            prop_assert_eq!(essence(&reread), essence(&pgn));
            for (before, after) in pgn.plies.iter().zip(&reread.plies) {
                prop_assert_eq!(&before.raw, &after.raw);
            }
        }
    }
}
