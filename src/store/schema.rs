//! Table definitions shared by both backends. Written by hand (not generated) because the
//! SQLite and PostgreSQL DDL differ in spelling while mapping to the same diesel types:
//! ids are `BigInt`, timestamps are `Timestamp` holding UTC.

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        name -> Text,
        role -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        site_game_id -> Text,
        content_hash -> Text,
        variant -> Text,
        rule_variants -> Text,
        time_control -> Text,
        start_setup -> Text,
        termination -> Text,
        termination_text -> Text,
        result_tag -> Text,
        started_at -> Nullable<Timestamp>,
        ended_at -> Nullable<Timestamp>,
        played_at -> Timestamp,
        plies -> Integer,
        aborted -> Bool,
        aborted_seat -> Nullable<SmallInt>,
        aborted_ply -> Nullable<Integer>,
        aborted_reason -> Nullable<Text>,
        pgn4 -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> BigInt,
        seat -> SmallInt,
        player -> Text,
        rating_before -> Nullable<Integer>,
        rating_after -> Nullable<Integer>,
        device_fp -> Nullable<Text>,
        network_fp -> Nullable<Text>,
        points -> Integer,
        team_result -> Nullable<Text>,
        placement -> SmallInt,
        elimination_ply -> Nullable<Integer>,
        elimination_cause -> Nullable<Text>,
        moves_made -> Integer,
        points_from_red -> Integer,
        points_from_blue -> Integer,
        points_from_yellow -> Integer,
        points_from_green -> Integer,
    }
}

diesel::table! {
    game_chat (game_id, idx) {
        game_id -> BigInt,
        idx -> Integer,
        ply -> Integer,
        sent_at -> Nullable<Timestamp>,
        sender -> Text,
        channel -> Text,
        text -> Text,
    }
}

diesel::table! {
    game_events (game_id, idx) {
        game_id -> BigInt,
        idx -> Integer,
        kind -> Text,
        seat -> SmallInt,
        ply -> Integer,
        at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    chat_flags (id) {
        id -> BigInt,
        game_id -> BigInt,
        line_idx -> Integer,
        ply -> Integer,
        sender -> Text,
        category -> Text,
        severity -> Text,
        span_start -> Integer,
        span_end -> Integer,
        rule -> Text,
        explanation -> Text,
        report_worthy -> Bool,
        evidence_fen4 -> Nullable<Text>,
        evidence_finding -> Nullable<Text>,
    }
}

diesel::table! {
    automatic_reports (id) {
        id -> BigInt,
        source -> Text,
        player -> Text,
        game_id -> BigInt,
        reason -> Text,
        rule -> Text,
        score -> Double,
        summary -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    automatic_report_games (report_id, game_id) {
        report_id -> BigInt,
        game_id -> BigInt,
    }
}

diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(chat_flags -> games (game_id));
diesel::joinable!(automatic_reports -> games (game_id));
diesel::joinable!(automatic_report_games -> automatic_reports (report_id));
diesel::joinable!(game_chat -> games (game_id));
diesel::joinable!(game_events -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(
    games,
    game_seats,
    game_chat,
    game_events,
    chat_flags,
    automatic_reports,
    automatic_report_games
);
