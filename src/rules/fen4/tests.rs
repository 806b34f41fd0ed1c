use super::*;

const QUIRK_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/pgn4/quirks/pgn4crate_teams_4177881.pgn4"
);

/// The multi-line `StartFen4` tag value of the quirk file.
fn quirk_start_fen4() -> String {
    let text = std::fs::read_to_string(QUIRK_FILE).expect("quirk file is readable");
    let pgn = crate::rules::pgn4::parse(&text).expect("quirk file parses");
    pgn.tag("StartFen4").expect("has StartFen4").to_string()
}

/// Squares a row covers (empty runs count their length).
fn row_width(row: &[Cell]) -> usize {
    row.iter()
        .map(|cell| match cell {
            Cell::Empty(run) => usize::from(*run),
            _ => 1,
        })
        .sum()
}

fn piece_at(record: &Fen4Record, file: usize, rank: usize) -> Option<(char, char)> {
    let row = &record.rows[14 - rank];
    let mut column = 0;
    for cell in row {
        let width = match cell {
            Cell::Empty(run) => usize::from(*run),
            _ => 1,
        };
        if file < column + width {
            return match cell {
                Cell::Piece { seat, kind, .. } => Some((*seat, *kind)),
                _ => None,
            };
        }
        column += width;
    }
    None
}

#[test]
fn standard_starts_read_back_exactly() {
    for text in [START_4PC, START_4PCO] {
        let record = parse(text).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(write(&record), text);
        assert_eq!(parse(&write(&record)), Ok(record.clone()));
        assert_eq!(record.turn, 'R');
        assert_eq!(record.dead, [false; 4]);
        assert_eq!(record.castle_king, [true; 4]);
        assert_eq!(record.castle_queen, [true; 4]);
        assert_eq!(record.points, [0; 4]);
        assert_eq!(record.halfmove, 0);
        assert!(record.extras.is_empty());
        assert_eq!(record.rows.len(), 14);
        for row in &record.rows {
            assert_eq!(row_width(row), 14);
        }
    }
}

#[test]
fn standard_starts_place_kings_and_queens_as_the_setup_says() {
    // (file, rank) with a = 0 and rank 1 = 1.
    let modern = parse(START_4PC).expect("parses");
    assert_eq!(piece_at(&modern, 7, 1), Some(('r', 'K')));
    assert_eq!(piece_at(&modern, 6, 1), Some(('r', 'Q')));
    assert_eq!(piece_at(&modern, 0, 7), Some(('b', 'K')));
    assert_eq!(piece_at(&modern, 0, 8), Some(('b', 'Q')));
    assert_eq!(piece_at(&modern, 6, 14), Some(('y', 'K')));
    assert_eq!(piece_at(&modern, 7, 14), Some(('y', 'Q')));
    assert_eq!(piece_at(&modern, 13, 7), Some(('g', 'Q')));
    assert_eq!(piece_at(&modern, 13, 8), Some(('g', 'K')));
    let classic = parse(START_4PCO).expect("parses");
    assert_eq!(piece_at(&classic, 0, 8), Some(('b', 'K')));
    assert_eq!(piece_at(&classic, 0, 7), Some(('b', 'Q')));
    assert_eq!(piece_at(&classic, 13, 8), Some(('g', 'Q')));
    assert_eq!(piece_at(&classic, 13, 7), Some(('g', 'K')));
    assert_eq!(piece_at(&classic, 7, 1), Some(('r', 'K')));
    assert_eq!(standard_start("4PC"), Some(START_4PC));
    assert_eq!(standard_start("4PCo"), Some(START_4PCO));
    assert_eq!(standard_start("R-0"), None);
}

#[test]
fn multi_line_start_fen4_with_fairy_pieces_reads_and_round_trips() {
    let text = quirk_start_fen4();
    assert!(text.contains('\n'));
    let record = parse(&text).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(record.turn, 'R');
    assert_eq!(record.halfmove, 2);
    assert_eq!(
        record.extras,
        vec![("pawnsBaseRank".to_string(), "3".to_string())]
    );
    assert_eq!(record.rows.len(), 14);
    for row in &record.rows {
        assert_eq!(row_width(row), 14, "{row:?}");
    }
    assert_eq!(piece_at(&record, 4, 3), Some(('r', 'δ')));
    assert_eq!(piece_at(&record, 7, 2), Some(('r', 'M')));
    let written = write(&record);
    assert!(!written.contains('\n'));
    assert_eq!(parse(&written), Ok(record));
}

#[test]
fn extras_keep_raw_values_with_brackets_and_commas() {
    let text = "Y-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-{'enPassant':('','c4:d4','',''),'lives':(50,50,50,50)}-14";
    let record = parse(text).expect("parses");
    assert_eq!(
        record.extras,
        vec![
            ("enPassant".to_string(), "('','c4:d4','','')".to_string()),
            ("lives".to_string(), "(50,50,50,50)".to_string()),
        ]
    );
    assert_eq!(record.rows, vec![vec![Cell::Empty(14)]]);
    assert_eq!(write(&record), text);
}

#[test]
fn dead_pieces_with_and_without_their_seat() {
    let text = "G-1,0,0,0-0,1,1,1-0,1,1,1-12,3,0,7-5-dyQ,drP,dK,X,12";
    let record = parse(text).expect("parses");
    assert_eq!(record.dead, [true, false, false, false]);
    assert_eq!(record.points, [12, 3, 0, 7]);
    assert_eq!(
        record.rows[0][..3],
        [
            Cell::Piece {
                seat: 'y',
                kind: 'Q',
                dead: true
            },
            Cell::Piece {
                seat: 'r',
                kind: 'P',
                dead: true
            },
            Cell::Piece {
                seat: Cell::NO_SEAT,
                kind: 'K',
                dead: true
            },
        ]
    );
    assert_eq!(
        write(&record),
        "G-1,0,0,0-0,1,1,1-0,1,1,1-12,3,0,7-5-dyQ,drP,dK,x,12"
    );
    assert_eq!(record.to_string(), write(&record));
}

#[test]
fn errors_name_the_offset_and_what_was_expected() {
    let cases: [(&str, usize, &str); 8] = [
        (
            "4PC",
            0,
            "the side to move R, B, Y or G (4PC and 4PCo are setup names, not FEN4)",
        ),
        ("", 0, "the side to move R, B, Y or G"),
        ("R-0,0,0-", 7, "',' between the four eliminated flags"),
        ("R-0,0,0,2-", 8, "0 or 1 in the eliminated flags"),
        (
            "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-x-14",
            34,
            "the halfmove clock",
        ),
        (
            "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-rP,zQ",
            39,
            "a cell: a run of empty squares, 'x', or a piece such as 'rP' or 'dyQ'",
        ),
        (
            "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-r1",
            37,
            "a piece letter such as P, N, B, R, Q, K or D",
        ),
        (
            "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-{'a':(1,2}-14",
            49,
            "'}' to close the extras opened at character 36",
        ),
    ];
    for (text, offset, expected) in cases {
        let error = parse(text).expect_err(text);
        assert_eq!(
            (error.offset, error.expected.as_str()),
            (offset, expected),
            "{text}"
        );
    }
    let error = parse("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-256").expect_err("run too long");
    assert_eq!(error.found, "'256'");
    let error = parse("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-14 14").expect_err("trailing text");
    assert_eq!(
        error.to_string(),
        "FEN4 character 39: expected ',' or '/' between cells, or the end of the FEN4, found '1'"
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn cell() -> impl Strategy<Value = Cell> {
        let seat = prop::sample::select(vec!['r', 'b', 'y', 'g']);
        let kind = prop::sample::select(vec!['P', 'N', 'B', 'R', 'Q', 'K', 'D', 'δ', 'M', 'Y']);
        prop_oneof![
            (1u8..=255).prop_map(Cell::Empty),
            Just(Cell::Wall),
            (seat.clone(), kind.clone()).prop_map(|(seat, kind)| Cell::Piece {
                seat,
                kind,
                dead: false
            }),
            (prop::option::of(seat), kind).prop_map(|(seat, kind)| Cell::Piece {
                seat: seat.unwrap_or(Cell::NO_SEAT),
                kind,
                dead: true
            }),
        ]
    }

    fn extra() -> impl Strategy<Value = (String, String)> {
        (
            "[A-Za-z]{1,12}",
            prop_oneof![
                "[0-9]{1,3}",
                "\\('[a-n0-9:]{0,6}','[a-n0-9:]{0,6}','[a-n0-9:]{0,6}','[a-n0-9:]{0,6}'\\)",
                "\\([0-9]{1,2},[0-9]{1,2},[0-9]{1,2},[0-9]{1,2}\\)",
                "\\{'[a-z]{1,4}':\\[[0-9,]{0,6}\\]\\}",
            ],
        )
    }

    fn record() -> impl Strategy<Value = Fen4Record> {
        (
            prop::sample::select(vec!['R', 'B', 'Y', 'G']),
            any::<[bool; 4]>(),
            any::<[bool; 4]>(),
            any::<[bool; 4]>(),
            any::<[i32; 4]>(),
            any::<u32>(),
            prop::collection::vec(extra(), 0..3),
            prop::collection::vec(prop::collection::vec(cell(), 1..16), 1..16),
        )
            .prop_map(
                |(turn, dead, castle_king, castle_queen, points, halfmove, extras, rows)| {
                    Fen4Record {
                        turn,
                        dead,
                        castle_king,
                        castle_queen,
                        // `i32::MIN` has no positive counterpart to write after the sign.
                        points: points.map(|p| p.max(-i32::MAX)),
                        halfmove,
                        extras,
                        rows,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_text_never_panics(text in any::<String>()) {
            let _ = parse(&text);
        }

        #[test]
        fn fen_shaped_text_never_panics(text in "[RBYGrbygdxXPNQKδ0-9,/{}()'\\-: \n]{0,120}") {
            if let Ok(record) = parse(&text) {
                prop_assert_eq!(parse(&write(&record)), Ok(record));
            }
        }

        #[test]
        fn truncated_or_altered_start_positions_never_panic(
            cut in any::<prop::sample::Index>(),
            at in any::<prop::sample::Index>(),
            replacement in any::<char>(),
        ) {
            let chars: Vec<char> = START_4PC.chars().collect();
            let truncated: String = chars[..cut.index(chars.len() + 1)].iter().collect();
            let _ = parse(&truncated);
            let mut altered = chars.clone();
            altered[at.index(chars.len())] = replacement;
            let altered: String = altered.into_iter().collect();
            if let Ok(record) = parse(&altered) {
                prop_assert_eq!(parse(&write(&record)), Ok(record));
            }
        }

        #[test]
        fn generated_records_round_trip(record in record()) {
            let written = write(&record);
            prop_assert_eq!(parse(&written), Ok(record));
        }
    }
}
