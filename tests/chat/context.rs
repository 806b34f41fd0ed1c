//! Chat judged against real positions: facts about the board come from the rules engine,
//! then the analyser's use of them is checked.

use arbiter::chat::context::{
    analyze_game_chat_in_context, analyze_line_in_context, sender_gave_check, BoardContext,
};
use arbiter::chat::{
    Analyzer, Category, Channel, ChatLine, FfaClass, GameChatContext, LineAnalysis, LineContext,
    Variant,
};
use arbiter::rules::geometry::Seat;
use arbiter::rules::position::{MoveList, SeatStatus};
use arbiter::rules::replay::{replay, Replay};

fn analyzer() -> &'static Analyzer {
    static ANALYZER: std::sync::OnceLock<Analyzer> = std::sync::OnceLock::new();
    ANALYZER.get_or_init(|| Analyzer::embedded().expect("embedded chat data"))
}

/// An FFA game (Red Spaksi, Blue rasulk, Yellow HSCCCB, Green BlondieFlower); Blue is
/// mated at ply 112.
fn game() -> &'static Replay {
    static GAME: std::sync::OnceLock<Replay> = std::sync::OnceLock::new();
    GAME.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
        );
        let text = std::fs::read_to_string(path).expect("game record");
        replay(&text).expect("replays")
    })
}

/// Legal moves of `seat` at `ply` as coordinate text.
fn legal_for(ply: usize, seat: Seat) -> Vec<String> {
    let position = game().position_at(ply).expect("ply").with_turn(seat);
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.iter().map(|m| m.coordinate_text()).collect()
}

fn judge(ply: usize, sender: Seat, text: &str) -> LineAnalysis {
    let board = BoardContext::of_replay(game(), Some(ply as u32), Some(sender));
    analyze_line_in_context(
        analyzer(),
        &LineContext::ffa_in_progress(),
        Some(board),
        text,
    )
    .0
}

fn suggestion(analysis: &LineAnalysis) -> Option<&arbiter::chat::Flag> {
    analysis
        .flags
        .iter()
        .find(|f| f.category == Category::MoveSuggestion)
}

#[test]
fn a_legal_good_suggestion_is_flagged_with_the_position() {
    // Ply 60: Blue's bishop on f4 can take Red's undefended pawn on h2.
    assert!(legal_for(60, Seat::Blue).contains(&"f4-h2".to_string()));
    let h2 = game()
        .position_at(60)
        .and_then(|p| {
            p.geometry()
                .parse_square("h2")
                .and_then(|sq| p.piece_at(sq))
        })
        .expect("a piece on h2");
    assert_eq!(h2.seat, Seat::Red);

    let text = "blue, Bxh2 now";
    let analysis = judge(60, Seat::Yellow, text);
    let flag = suggestion(&analysis).unwrap_or_else(|| panic!("{analysis:#?}"));
    assert!(flag.report_worthy, "{flag:?}");
    let evidence = flag.evidence.as_ref().expect("position evidence");
    assert_eq!(evidence.ply, 60);
    assert_eq!(Some(evidence.fen4.clone()), game().fen4_at(60));
    assert!(
        evidence.finding.contains("f4-h2 is legal for Blue"),
        "{}",
        evidence.finding
    );
    assert!(!flag.span.slice(text).is_empty(), "{flag:?}");
}

#[test]
fn an_impossible_suggestion_is_not_escalated() {
    // No queen of another player can reach h7 at ply 60.
    for seat in [Seat::Blue, Seat::Yellow, Seat::Green] {
        assert!(
            !legal_for(60, seat).iter().any(|m| m.ends_with("-h7")),
            "{seat:?}"
        );
    }
    let analysis = judge(60, Seat::Red, "green play Qh7");
    if let Some(flag) = suggestion(&analysis) {
        assert!(!flag.report_worthy, "{flag:?}");
        let evidence = flag.evidence.as_ref().expect("position evidence");
        assert!(evidence.finding.contains("no other player can play"));
    }
    assert_eq!(analysis.action, arbiter::chat::Action::Allow);
}

#[test]
fn hanging_claims_are_checked() {
    let position = game().position_at(60).expect("ply");
    let i10 = position.geometry().parse_square("i10").expect("square");
    // Yellow's pawn on i10: attacked by Green, defended by nobody.
    assert!(!position.attackers_of_seat(i10, Seat::Green).is_empty());
    assert!(position.attackers_of_seat(i10, Seat::Yellow).is_empty());
    let analysis = judge(60, Seat::Red, "yellow's pawn on i10 is hanging");
    let flag = suggestion(&analysis).unwrap_or_else(|| panic!("{analysis:#?}"));
    assert!(flag.report_worthy);
    assert!(flag
        .evidence
        .as_ref()
        .is_some_and(|e| e.finding.contains("pawn on i10 is attacked")));

    // Blue's queen on a8 is attacked by nobody.
    let a8 = position.geometry().parse_square("a8").expect("square");
    for seat in [Seat::Red, Seat::Yellow, Seat::Green] {
        assert!(position.attackers_of_seat(a8, seat).is_empty());
    }
    let analysis = judge(60, Seat::Red, "blue's queen is hanging");
    if let Some(flag) = suggestion(&analysis) {
        assert!(!flag.report_worthy, "{flag:?}");
    }
}

#[test]
fn an_eliminated_seat_is_not_worth_a_report() {
    let position = game().position_at(120).expect("ply");
    assert_eq!(position.status(Seat::Blue), SeatStatus::Out);
    let analysis = judge(120, Seat::Yellow, "check blue");
    for flag in &analysis.flags {
        assert!(!flag.report_worthy, "{flag:?}");
    }
    let flag = suggestion(&analysis).unwrap_or_else(|| panic!("{analysis:#?}"));
    assert!(flag
        .evidence
        .as_ref()
        .is_some_and(|e| e.finding.contains("Blue is no longer playing")));
}

#[test]
fn a_remark_about_an_earlier_position_is_allowed() {
    // Red's knight left j1 for i3 at ply 12; at ply 60 no knight stands on j1.
    assert!(!legal_for(60, Seat::Red)
        .iter()
        .any(|m| m.starts_with("j1-") && m != "j1-k1" && m != "j1-i1" && m != "j1-k2"));
    let analysis = judge(60, Seat::Blue, "Nj1-i3 was better");
    assert!(
        analysis
            .flags
            .iter()
            .all(|f| f.category.group() != arbiter::chat::CategoryGroup::RuleViolating),
        "{analysis:#?}"
    );
    assert_eq!(analysis.tense, arbiter::chat::Tense::Past);
}

#[test]
fn a_whole_log_is_judged_at_each_line_ply() {
    let lines = [
        ChatLine {
            ply: Some(60),
            time_ms: 1_000,
            sender: "HSCCCB".to_string(),
            channel: Channel::Game,
            text: "blue, Bxh2 now".to_string(),
        },
        ChatLine {
            ply: Some(60),
            time_ms: 9_000,
            sender: "rasulk".to_string(),
            channel: Channel::Game,
            text: "Nj1-i3 was better".to_string(),
        },
        ChatLine {
            ply: Some(120),
            time_ms: 60_000,
            sender: "Spaksi".to_string(),
            channel: Channel::Game,
            text: "check blue".to_string(),
        },
    ];
    let context = GameChatContext {
        variant: Variant::Ffa,
        diplomacy: false,
        ended_at_ply: None,
        ended_at_ms: None,
    };
    let out = analyze_game_chat_in_context(analyzer(), &context, game(), &lines);
    assert_eq!(out.lines.len(), 3);
    let first = suggestion(&out.lines[0].analysis).expect("flagged");
    assert!(first.report_worthy);
    assert_eq!(first.evidence.as_ref().map(|e| e.ply), Some(60));
    assert!(out.lines[1].analysis.flags.is_empty());
    assert!(out.lines[2].analysis.flags.iter().all(|f| !f.report_worthy));
    // In a Teams game the FFA rules do not apply at all.
    let teams = GameChatContext {
        variant: Variant::Teams,
        ..context
    };
    let out = analyze_game_chat_in_context(analyzer(), &teams, game(), &lines);
    assert!(out.lines.iter().all(|l| l.analysis.flags.is_empty()));
}

/// The first ply after which a move gave check, with its mover.
fn first_check() -> (usize, Seat) {
    let ply = game()
        .plies
        .iter()
        .find(|p| !p.checks.is_empty() && p.played.is_some())
        .expect("a check in the game");
    (ply.index + 1, ply.mover)
}

#[test]
fn a_bare_check_from_the_checking_player_is_its_announcement() {
    let (ply, checker) = first_check();
    assert_eq!(
        sender_gave_check(game(), ply as u32, Some(checker)),
        Some(true)
    );
    for text in ["check", "Check!", "kill the king", "double check!!"] {
        let analysis = judge(ply, checker, text);
        assert_eq!(
            analysis.ffa,
            Some(FfaClass::CheckAnnouncement),
            "{text}: {analysis:#?}"
        );
        assert!(analysis.flags.is_empty(), "{text}: {analysis:#?}");
    }
    // "check <seat>" is still a prohibited phrase, even from the checking player.
    let analysis = judge(ply, checker, "check blue");
    assert_eq!(
        analysis.ffa,
        Some(FfaClass::MoveSuggestion),
        "{analysis:#?}"
    );
}

#[test]
fn a_bare_check_from_another_player_tells_someone_to_check() {
    let (ply, checker) = first_check();
    // A seat whose last move (within the last round) gave no check.
    let other = [Seat::Red, Seat::Blue, Seat::Yellow, Seat::Green]
        .into_iter()
        .find(|&s| s != checker && sender_gave_check(game(), ply as u32, Some(s)) == Some(false))
        .expect("another seat");
    let analysis = judge(ply, other, "check!");
    assert_eq!(
        analysis.ffa,
        Some(FfaClass::MoveSuggestion),
        "{analysis:#?}"
    );
    let flag = suggestion(&analysis).expect("flagged");
    assert_eq!(flag.rule, "ffa:suggest_check_bare");
    let evidence = flag.evidence.as_ref().expect("evidence");
    assert!(
        evidence.finding.contains("gave no check"),
        "{}",
        evidence.finding
    );
    // Without a board the same line is read as an announcement (no flag).
    let alone = arbiter::chat::analyze_line(analyzer(), &LineContext::ffa_in_progress(), "check!");
    assert_eq!(alone.ffa, Some(FfaClass::CheckAnnouncement));
    assert!(alone.flags.is_empty());
}

#[test]
fn the_checking_player_is_found_from_the_log_at_ingest() {
    let (ply, checker) = first_check();
    let name = |seat: Seat| {
        let tag = match seat {
            Seat::Red => "Red",
            Seat::Blue => "Blue",
            Seat::Yellow => "Yellow",
            Seat::Green => "Green",
        };
        game().pgn.tag(tag).expect("player tag").to_string()
    };
    let other = [Seat::Red, Seat::Blue, Seat::Yellow, Seat::Green]
        .into_iter()
        .find(|&s| s != checker && sender_gave_check(game(), ply as u32, Some(s)) == Some(false))
        .expect("another seat");
    let line = |sender: Seat| ChatLine {
        ply: Some(ply as u32),
        time_ms: 1_000,
        sender: name(sender),
        channel: Channel::Game,
        text: "check".to_string(),
    };
    let context = GameChatContext {
        variant: Variant::Ffa,
        diplomacy: false,
        ended_at_ply: None,
        ended_at_ms: None,
    };
    let out =
        analyze_game_chat_in_context(analyzer(), &context, game(), &[line(checker), line(other)]);
    assert_eq!(out.lines[0].analysis.ffa, Some(FfaClass::CheckAnnouncement));
    assert!(out.lines[0].analysis.flags.is_empty());
    assert_eq!(out.lines[1].analysis.ffa, Some(FfaClass::MoveSuggestion));
}
