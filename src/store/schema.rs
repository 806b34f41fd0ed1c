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
        chat_purged_at -> Nullable<Timestamp>,
        connections_purged_at -> Nullable<Timestamp>,
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

diesel::table! {
    conduct_outcomes (game_id) {
        game_id -> BigInt,
        played_at -> Timestamp,
        seats -> Text,
    }
}

diesel::table! {
    conduct_pending (game_id) {
        game_id -> BigInt,
        played_at -> Timestamp,
        seats -> Text,
    }
}

diesel::table! {
    conduct_records (player) {
        player -> Text,
        player_id -> BigInt,
        record -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    players (id) {
        id -> BigInt,
        name -> Text,
        created_at -> Timestamp,
        language -> Nullable<Text>,
    }
}

diesel::table! {
    reports (id) {
        id -> BigInt,
        source -> Text,
        reporter_id -> Nullable<BigInt>,
        automatic_report_id -> Nullable<BigInt>,
        reason -> Text,
        message -> Nullable<Text>,
        game_id -> Nullable<BigInt>,
        score -> Nullable<Double>,
        filed_at -> Timestamp,
        updated_at -> Timestamp,
        outcome -> Nullable<Text>,
        decided_at -> Nullable<Timestamp>,
        filed_by_admin -> Nullable<BigInt>,
        decision_id -> Nullable<BigInt>,
        reporter_note -> Nullable<Text>,
    }
}

diesel::table! {
    report_accused (report_id, player_id) {
        report_id -> BigInt,
        player_id -> BigInt,
    }
}

diesel::table! {
    report_games (report_id, game_id) {
        report_id -> BigInt,
        game_id -> BigInt,
    }
}

diesel::table! {
    cases (id) {
        id -> BigInt,
        accused_id -> BigInt,
        reason -> Text,
        status -> Text,
        opened_at -> Timestamp,
        updated_at -> Timestamp,
        priority_base -> Double,
        entry_count -> Integer,
        claimed_by -> Nullable<BigInt>,
        claimed_until -> Nullable<Timestamp>,
        decided_at -> Nullable<Timestamp>,
        automatic_best -> Double,
        reporter_count -> Integer,
        reporter_accuracy_sum -> Nullable<Double>,
    }
}

diesel::table! {
    case_reports (case_id, report_id) {
        case_id -> BigInt,
        report_id -> BigInt,
    }
}

diesel::table! {
    case_reporters (case_id, reporter_id) {
        case_id -> BigInt,
        reporter_id -> BigInt,
    }
}

diesel::table! {
    sanctions (id) {
        id -> BigInt,
        player_id -> BigInt,
        case_id -> Nullable<BigInt>,
        kind -> Text,
        reason -> Text,
        ground -> Text,
        starts_at -> Timestamp,
        ends_at -> Nullable<Timestamp>,
        lifted_at -> Nullable<Timestamp>,
        reduced_until -> Nullable<Timestamp>,
        issued_by -> BigInt,
        note -> Text,
        end_announced_at -> Nullable<Timestamp>,
        language -> Nullable<Text>,
        player_note -> Nullable<Text>,
    }
}

diesel::table! {
    separation_members (sanction_id, player_id) {
        sanction_id -> BigInt,
        player_id -> BigInt,
    }
}

diesel::table! {
    archive_players (name) {
        name -> Text,
        name_folded -> Text,
        games -> BigInt,
        placed_first -> BigInt,
        placed_second -> BigInt,
        placed_third -> BigInt,
        placed_fourth -> BigInt,
        aborted -> BigInt,
    }
}

diesel::table! {
    archive_player_variants (player, variant) {
        player -> Text,
        variant -> Text,
        games -> BigInt,
    }
}

diesel::table! {
    archive_pairs (player_low, player_high) {
        player_low -> Text,
        player_high -> Text,
        games -> BigInt,
        first_played_at -> Timestamp,
        last_played_at -> Timestamp,
    }
}

diesel::table! {
    game_pairs (player_low, player_high, game_id) {
        player_low -> Text,
        player_high -> Text,
        game_id -> BigInt,
    }
}

diesel::table! {
    game_pair_play (player, opponent, game_id) {
        player -> Text,
        opponent -> Text,
        game_id -> BigInt,
        seat_offset -> SmallInt,
        turns -> Integer,
        capture_chances -> Integer,
        captures -> Integer,
        check_chances -> Integer,
        checks -> Integer,
        gifts -> Integer,
        points_taken -> Integer,
        moments -> Text,
    }
}

diesel::table! {
    collusion_baselines (player) {
        player -> Text,
        tally -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    collusion_pairs (player_low, player_high) {
        player_low -> Text,
        player_high -> Text,
        games -> BigInt,
        shared_device_games -> BigInt,
        shared_network_games -> BigInt,
        rating_to_high -> BigInt,
        rating_to_low -> BigInt,
        record -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    collusion_population (id) {
        id -> Integer,
        tally -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    collusion_reported (player_low, player_high) {
        player_low -> Text,
        player_high -> Text,
        games -> BigInt,
        automatic_report_id -> BigInt,
        reported_at -> Timestamp,
    }
}

diesel::table! {
    webhook_subscriptions (id) {
        id -> BigInt,
        url -> Text,
        secret -> Text,
        events -> Text,
        url_credentials -> Nullable<Text>,
        created_by -> BigInt,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    webhook_events (id) {
        id -> BigInt,
        event_id -> Text,
        kind -> Text,
        sanction_id -> Nullable<BigInt>,
        case_id -> Nullable<BigInt>,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    refunds (id) {
        id -> BigInt,
        case_id -> BigInt,
        game_id -> BigInt,
        seat -> SmallInt,
        amount -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> BigInt,
        event_id -> BigInt,
        subscription_id -> BigInt,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        lease_until -> Nullable<Timestamp>,
        delivered_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> BigInt,
        delivery_id -> BigInt,
        attempted_at -> Timestamp,
        status_code -> Nullable<Integer>,
        error -> Nullable<Text>,
        duration_ms -> BigInt,
    }
}

diesel::table! {
    decisions (id) {
        id -> BigInt,
        case_id -> BigInt,
        admin_id -> BigInt,
        kind -> Text,
        ground -> Nullable<Text>,
        note -> Nullable<Text>,
        sanction_id -> Nullable<BigInt>,
        decided_at -> Timestamp,
        reporter_note -> Nullable<Text>,
    }
}

diesel::table! {
    fingerprint_notices (account_id, sanction_id) {
        account_id -> BigInt,
        sanction_id -> BigInt,
        automatic_report_id -> BigInt,
        noticed_at -> Timestamp,
    }
}

diesel::table! {
    stats_days (day) {
        day -> Date,
        tally -> Text,
        open_at_end -> BigInt,
        oldest_open_at -> Nullable<Timestamp>,
        complete -> Bool,
        rolled_at -> Timestamp,
    }
}

diesel::table! {
    alerts (id) {
        id -> BigInt,
        rule -> Text,
        case_id -> Nullable<BigInt>,
        message -> Text,
        fired_at -> Timestamp,
        cleared_at -> Nullable<Timestamp>,
        acknowledged_by -> Nullable<BigInt>,
        acknowledged_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    alert_marks (rule) {
        rule -> Text,
        through -> Timestamp,
    }
}

diesel::table! {
    warnings (id) {
        id -> BigInt,
        player_id -> BigInt,
        case_id -> BigInt,
        reason -> Text,
        ground -> Nullable<Text>,
        language -> Text,
        text -> Text,
        text_en -> Text,
        needs_acknowledgement -> Bool,
        issued_at -> Timestamp,
        acknowledged_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    appeals (id) {
        id -> BigInt,
        sanction_id -> BigInt,
        player_id -> BigInt,
        text -> Text,
        filed_at -> Timestamp,
        status -> Text,
        decided_by -> Nullable<BigInt>,
        decided_at -> Nullable<Timestamp>,
        note -> Nullable<Text>,
    }
}

diesel::table! {
    report_timeouts (id) {
        id -> BigInt,
        player_id -> BigInt,
        step -> Integer,
        starts_at -> Timestamp,
        ends_at -> Timestamp,
        case_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    modlog (id) {
        id -> BigInt,
        at -> Timestamp,
        actor_kind -> Text,
        kind -> Text,
        case_id -> Nullable<BigInt>,
        report_id -> Nullable<BigInt>,
        sanction_id -> Nullable<BigInt>,
        appeal_id -> Nullable<BigInt>,
        why -> Nullable<Text>,
        details -> Text,
        actor_id -> Nullable<BigInt>,
        subject_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    player_notes (id) {
        id -> BigInt,
        player_id -> BigInt,
        author_id -> BigInt,
        case_id -> Nullable<BigInt>,
        text -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    erased_names (name_key, player_id) {
        name_key -> Text,
        player_id -> BigInt,
        erased_at -> Timestamp,
    }
}

diesel::table! {
    key_checks (setting) {
        setting -> Text,
        key_check -> Text,
        recorded_at -> Timestamp,
    }
}

diesel::table! {
    write_probes (id) {
        id -> BigInt,
        filler -> Text,
    }
}

diesel::table! {
    console_sessions (id) {
        id -> BigInt,
        session_hash -> Text,
        token_id -> BigInt,
        admin_name -> Text,
        user_agent -> Text,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
        expires_at -> Timestamp,
        ended_at -> Nullable<Timestamp>,
        flash -> Nullable<Text>,
    }
}

diesel::joinable!(console_sessions -> api_tokens (token_id));
diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(game_pairs -> games (game_id));
diesel::joinable!(game_pair_play -> games (game_id));
diesel::joinable!(collusion_reported -> automatic_reports (automatic_report_id));
diesel::joinable!(chat_flags -> games (game_id));
diesel::joinable!(automatic_reports -> games (game_id));
diesel::joinable!(automatic_report_games -> automatic_reports (report_id));
diesel::joinable!(conduct_outcomes -> games (game_id));
diesel::joinable!(conduct_pending -> games (game_id));
diesel::joinable!(conduct_records -> players (player_id));
diesel::joinable!(game_chat -> games (game_id));
diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(reports -> games (game_id));
diesel::joinable!(webhook_deliveries -> webhook_events (event_id));
diesel::joinable!(webhook_deliveries -> webhook_subscriptions (subscription_id));
diesel::joinable!(webhook_attempts -> webhook_deliveries (delivery_id));
diesel::joinable!(report_accused -> reports (report_id));
diesel::joinable!(report_accused -> players (player_id));
diesel::joinable!(report_games -> reports (report_id));
diesel::joinable!(report_games -> games (game_id));
diesel::joinable!(cases -> players (accused_id));
diesel::joinable!(case_reports -> cases (case_id));
diesel::joinable!(case_reports -> reports (report_id));
diesel::joinable!(case_reporters -> cases (case_id));
diesel::joinable!(decisions -> cases (case_id));
diesel::joinable!(appeals -> sanctions (sanction_id));
diesel::joinable!(sanctions -> cases (case_id));
diesel::joinable!(separation_members -> sanctions (sanction_id));
diesel::joinable!(erased_names -> players (player_id));
diesel::joinable!(refunds -> cases (case_id));
diesel::joinable!(refunds -> games (game_id));
diesel::joinable!(warnings -> players (player_id));
diesel::joinable!(warnings -> cases (case_id));
diesel::joinable!(reports -> decisions (decision_id));
diesel::table! {
    word_list_entries (id) {
        id -> BigInt,
        kind -> Text,
        term -> Text,
        category -> Nullable<Text>,
        severity -> Nullable<Text>,
        mode -> Nullable<Text>,
        added_by -> BigInt,
        added_reason -> Text,
        added_at -> Timestamp,
        removed_by -> Nullable<BigInt>,
        removed_reason -> Nullable<Text>,
        removed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    chat_strictness (category) {
        category -> Text,
        strictness -> Text,
        set_by -> BigInt,
        reason -> Text,
        set_at -> Timestamp,
    }
}

diesel::table! {
    word_list_version (id) {
        id -> Integer,
        version -> BigInt,
    }
}

diesel::joinable!(alerts -> cases (case_id));
diesel::allow_tables_to_appear_in_same_query!(
    api_tokens,
    word_list_entries,
    chat_strictness,
    games,
    game_seats,
    game_chat,
    game_events,
    chat_flags,
    automatic_reports,
    automatic_report_games,
    players,
    reports,
    report_accused,
    report_games,
    cases,
    case_reports,
    case_reporters,
    sanctions,
    separation_members,
    decisions,
    warnings,
    alerts,
    alert_marks,
    fingerprint_notices,
    stats_days,
    appeals,
    report_timeouts,
    modlog,
    player_notes,
    conduct_outcomes,
    conduct_pending,
    conduct_records,
    archive_players,
    archive_player_variants,
    archive_pairs,
    game_pairs,
    game_pair_play,
    collusion_baselines,
    collusion_pairs,
    collusion_population,
    collusion_reported,
    webhook_subscriptions,
    webhook_events,
    webhook_deliveries,
    refunds,
    webhook_attempts,
    console_sessions,
    erased_names,
    key_checks,
    write_probes
);
