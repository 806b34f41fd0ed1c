//! The spellings of the site's older exports (2018): a whole game on one line with clock
//! comments, several games in one text, and `=Q` for the promotion to the 1-point queen under
//! `PromoteTo=D` (docs/pgn4.md). No such export is in the test data yet, so real games of the
//! data are rewritten in that spelling here, and must replay to the same game.

use std::path::Path;

use arbiter::rules::pgn4;
use arbiter::rules::replay::{self, ReplayError};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

fn real(relative: &str) -> String {
    std::fs::read_to_string(Path::new(DATA).join(relative)).expect("real game")
}

/// `text` as the older exports wrote it: every tag and move on one line (tags written `][`),
/// a clock comment after every ply, promotions to the 1-point queen as `=Q`.
fn old_spelling(text: &str) -> String {
    let tags: String = text.lines().filter(|l| l.starts_with('[')).collect();
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
        .flat_map(str::split_whitespace)
        .collect();
    let mut line = tags;
    let mut clock = 600_000u32;
    for token in moves {
        line.push(' ');
        if token == ".." || token.ends_with('.') {
            line.push_str(token);
            continue;
        }
        line.push_str(&token.replace("=D", "=Q"));
        clock -= 100;
        line.push_str(&format!(
            " {{ date=2018-11-28T01:28:10.000Z clock={clock} }}"
        ));
    }
    line.push('\n');
    line
}

#[test]
fn a_game_on_one_line_with_clocks_and_old_promotions_is_the_same_game() {
    let mut promotions = 0;
    for name in ["ffa/cc_game_0016.pgn4", "ffa/cc_game_0221_4pco.pgn4"] {
        let text = real(name);
        promotions += text.matches("=D").count() - 1;
        let old = old_spelling(&text);
        assert_eq!(old.lines().count(), 1);
        let old_moves = &old[old.find("] 1. ").expect("move text")..];
        assert!(
            !old_moves.contains("=D") && old_moves.contains("=Q"),
            "{name}"
        );
        let now = replay::replay(&text).expect("replays");
        let then = replay::replay(&old).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(then.plies, now.plies, "{name}");
        assert_eq!(then.standing, now.standing, "{name}");
        let check = replay::check(&old);
        assert!(check.ok(), "{name}: {check}");
    }
    assert!(promotions >= 2, "the games promote");
}

#[test]
fn several_games_in_one_text_split_into_each_game() {
    let first = old_spelling(&real("ffa/cc_game_0016.pgn4"));
    let second = old_spelling(&real("ffa/cc_game_0221_4pco.pgn4"));
    // One game per line, and the same two games with no line break between them.
    for text in [
        format!("{first}{second}"),
        format!("{} {second}", first.trim_end()),
    ] {
        let games = pgn4::split_games(&text).expect("splits");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].1, first.trim_end());
        assert_eq!(games[1].1, second.trim_end());
        for (_, game) in games {
            assert!(replay::check(game).ok());
        }
        // One text is one game: reading both as one names the second game's tags.
        let error = pgn4::parse(&text).expect_err("two games");
        assert!(error.expected.contains("second game"), "{error}");
    }
    assert_eq!(pgn4::split_games(&first).expect("one").len(), 1);
    assert_eq!(pgn4::split_games("").expect("none").len(), 0);
    // A result token ends a game too.
    let games = pgn4::split_games("[A \"1\"] 1. h2-h3 *\n[A \"2\"] 1. h2-h4 .. T\n").expect("two");
    assert_eq!(
        games,
        vec![(1, "[A \"1\"] 1. h2-h3 *"), (2, "[A \"2\"] 1. h2-h4 .. T")]
    );
}

/// `=Q` means the 1-point queen only where the rules promote to `D` and not to `Q`.
#[test]
fn the_old_queen_letter_is_read_only_where_the_rules_leave_no_doubt() {
    let text = real("ffa/cc_game_0016.pgn4");
    let moves_at = text.find("\n1. ").expect("move text");
    let first_promotion = moves_at + text[moves_at..].find("=D").expect("a promotion");
    let cut = text[first_promotion..]
        .find(char::is_whitespace)
        .map_or(text.len(), |end| first_promotion + end);
    let upto = &text[..cut];
    let (tags, moves) = upto.split_at(moves_at);
    let promoting_to = |letter: &str| format!("{tags}{}", moves.replace("=D", letter));
    // The original and `=Q` under `PromoteTo=D`: the same 1-point queen.
    let original = replay::replay(upto).expect("replays");
    let old = replay::replay(&promoting_to("=Q")).expect("old spelling replays");
    assert_eq!(old.plies, original.plies);
    // Where a real queen is allowed too, `=Q` is a real queen (a different game).
    let both = promoting_to("=Q").replace("PromoteTo=D", "PromoteTo=DQ");
    let queen = replay::replay(&both).expect("replays with a queen");
    assert_ne!(queen.plies.last(), original.plies.last());
    // Any other letter the rules do not allow stays illegal.
    match replay::replay(&promoting_to("=N")) {
        Err(ReplayError::IllegalMove { reason, .. }) => {
            assert!(reason.contains("promotion to 'N'"), "{reason}")
        }
        other => panic!("expected an illegal promotion, got {other:?}"),
    }
}
