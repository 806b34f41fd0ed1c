//! Deciding a case: the one transaction that writes the decision, the sanction, the case's
//! close, every entry's report outcome, report timeouts, the affected cases' priorities and
//! the log lines.

use std::collections::BTreeSet;

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use crate::moderation::{
    compose_note, render_preset, report_timeout_after_decision, suggest_next_sanction,
    validate_decision, AuditAction, CaseId, Decision, DecisionAction, DecisionKind, DecisionPreset,
    DecisionProblem, GameNumber, Ground, LadderStep, ModerationPolicy, PlayerId, PresetValues,
    ReportOutcome, ReportReason, ReportTimeout, SanctionEventKind, SanctionId,
};
use crate::store::cases::{
    case_facts, find, open_cases_of, open_cases_reported_by, player_name, refresh_priority,
    reporter_history,
};
use crate::store::connection::DbConnection;
use crate::store::modlog::{log_action, ActorKind, LogActor, LogRefs};
use crate::store::sanctions::SanctionRow;
use crate::store::schema::{
    case_reports, cases, decisions, game_seats, games, report_timeouts, reports,
};
use crate::store::{enum_name, from_utc, parse_enum, to_utc};

/// An admin's decision on a case, as the route read it.
#[derive(Debug, Clone)]
pub struct DecisionInput {
    pub admin_id: i64,
    pub admin_name: String,
    pub action: DecisionAction,
    pub ground: Option<Ground>,
    pub note: Option<String>,
    /// Further games (site numbers) the admin cites.
    pub evidence_games: Vec<i64>,
    /// The message preset chosen by key (the route looked it up).
    pub preset: Option<DecisionPreset>,
}

/// Why a decision was not carried out.
#[derive(Debug)]
pub enum DecideError {
    NotFound,
    AlreadyDecided,
    /// The admin does not hold a running claim; `holder` is whoever does.
    NotClaimed {
        holder: Option<(String, DateTime<Utc>)>,
    },
    UnknownEvidenceGame(i64),
    EvidenceGameWithoutAccused(i64),
    Invalid(Vec<DecisionProblem>),
    Db(DieselError),
}

impl From<DieselError> for DecideError {
    fn from(err: DieselError) -> Self {
        DecideError::Db(err)
    }
}

/// What a decision did.
#[derive(Debug, Clone)]
pub struct Decided {
    pub decision_id: i64,
    pub case_id: i64,
    pub accused: String,
    pub reason: ReportReason,
    pub kind: DecisionKind,
    pub ground: Option<Ground>,
    pub evidence_games: Vec<GameNumber>,
    pub report_outcome: ReportOutcome,
    pub sanction: Option<SanctionRow>,
    /// Report timeouts the decision earned reporters, by reporter name.
    pub report_timeouts: Vec<(String, ReportTimeout)>,
    /// The ladder's next step for the accused, counting this decision.
    pub next_step: LadderStep,
    pub decided_at: NaiveDateTime,
}

/// How a report's outcome ranks when it is decided in several cases (one per accused): the
/// most favourable to the reporter stands, so one upheld case makes the report upheld.
fn outcome_rank(outcome: ReportOutcome) -> u8 {
    match outcome {
        ReportOutcome::DismissedUnjustified => 0,
        ReportOutcome::DismissedNotActionable => 1,
        ReportOutcome::Upheld => 2,
    }
}

/// Decides a case in ONE transaction: the decision row, the sanction, the case closed, every
/// entry's report outcome, report timeouts for reporters the decision takes over the
/// threshold, the priority of the affected open cases, and the log lines. Only the admin
/// holding a running claim may decide.
pub fn decide(
    conn: &mut DbConnection,
    case_id: i64,
    input: &DecisionInput,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<Decided, DecideError> {
    conn.transaction(|conn| decide_in(conn, case_id, input, policy, now))
}

fn decide_in(
    conn: &mut DbConnection,
    case_id: i64,
    input: &DecisionInput,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<Decided, DecideError> {
    // Write first: locks the case row (PostgreSQL) or the database (SQLite) before reading,
    // and checks status and claim in the same statement.
    let held = diesel::update(
        cases::table
            .filter(cases::id.eq(case_id))
            .filter(cases::status.eq("open"))
            .filter(cases::claimed_by.eq(input.admin_id))
            .filter(cases::claimed_until.gt(now)),
    )
    .set(cases::updated_at.eq(now))
    .execute(conn)?;
    let case = find(conn, case_id)?.ok_or(DecideError::NotFound)?;
    if held == 0 {
        if !case.is_open() {
            return Err(DecideError::AlreadyDecided);
        }
        let holder = match (case.claimed_by, case.claimed_until) {
            (Some(holder), Some(until)) if until > now => {
                Some((player_name(conn, holder)?, to_utc(until)))
            }
            _ => None,
        };
        return Err(DecideError::NotClaimed { holder });
    }
    let accused = player_name(conn, case.accused_id)?;
    let facts = case_facts(conn, &case, policy)?;

    let mut evidence = Vec::with_capacity(input.evidence_games.len());
    for number in &input.evidence_games {
        let game: Option<i64> = games::table
            .filter(games::site_game_id.eq(number.to_string()))
            .select(games::id)
            .first(conn)
            .optional()?;
        let Some(game) = game else {
            return Err(DecideError::UnknownEvidenceGame(*number));
        };
        let seated: bool = diesel::select(diesel::dsl::exists(
            game_seats::table
                .filter(game_seats::game_id.eq(game))
                .filter(game_seats::player.eq(&accused)),
        ))
        .get_result(conn)?;
        if !seated {
            return Err(DecideError::EvidenceGameWithoutAccused(*number));
        }
        evidence.push(GameNumber(*number));
    }
    let decision = Decision {
        admin: PlayerId(input.admin_id),
        action: input.action,
        ground: input.ground,
        note: input.note.clone(),
        evidence_games: evidence,
        preset: input.preset.clone(),
    };
    let valid = validate_decision(&decision, &facts, policy).map_err(DecideError::Invalid)?;
    let at = to_utc(now);
    // What the player is told: the preset in full, then the admin's own words.
    let rendered = valid.preset.as_ref().map(|preset| {
        render_preset(
            preset,
            &PresetValues {
                player: &accused,
                reason: facts.key.reason,
                ground: valid.ground,
                action: valid.action,
                decided_at: at,
                games: &valid.evidence_games,
            },
        )
    });
    let composed = compose_note(rendered, valid.note.as_deref());
    let note = composed.clone().unwrap_or_default();

    let sanction = match valid.new_sanction(SanctionId(0), at) {
        Some(new) => {
            let id = super::sanctions::insert(conn, &new, Some(case_id), input.admin_id, &note)?;
            super::sanctions::find(conn, id)?
        }
        None => None,
    };
    let decision_id = insert_returning_id!(
        conn,
        decisions::table,
        (
            decisions::case_id.eq(case_id),
            decisions::admin_id.eq(input.admin_id),
            decisions::kind.eq(enum_name(&valid.kind)),
            decisions::ground.eq(valid.ground.map(|g| enum_name(&g))),
            decisions::note.eq(composed.as_deref()),
            decisions::sanction_id.eq(sanction.as_ref().map(|s| s.id)),
            decisions::decided_at.eq(now),
        ),
        decisions::id
    )?;
    diesel::update(cases::table.find(case_id))
        .set((
            cases::status.eq("decided"),
            cases::decided_at.eq(now),
            cases::updated_at.eq(now),
        ))
        .execute(conn)?;

    // Every entry's report: outcome and decision time.
    let entries: Vec<(i64, Option<String>, Option<NaiveDateTime>)> = case_reports::table
        .inner_join(reports::table)
        .filter(case_reports::case_id.eq(case_id))
        .select((reports::id, reports::outcome, reports::decided_at))
        .load(conn)?;
    for (report_id, current, decided_at) in entries {
        let current: Option<ReportOutcome> = current.as_deref().map(parse_enum).transpose()?;
        let outcome = match current {
            Some(old) if outcome_rank(old) >= outcome_rank(valid.report_outcome) => old,
            _ => valid.report_outcome,
        };
        diesel::update(reports::table.find(report_id))
            .set((
                reports::outcome.eq(enum_name(&outcome)),
                // A report linked to several cases is decided when its first case is.
                reports::decided_at.eq(decided_at.unwrap_or(now)),
                reports::updated_at.eq(now),
            ))
            .execute(conn)?;
    }

    let admin_actor = LogActor {
        kind: ActorKind::Admin,
        name: Some(&input.admin_name),
    };
    log_action(
        conn,
        now,
        admin_actor,
        &AuditAction::Decision {
            case: CaseId(case_id),
            admin: PlayerId(input.admin_id),
            kind: valid.kind,
            ground: valid.ground,
            evidence_games: valid.evidence_games.clone(),
        },
        LogRefs {
            subject: Some(&accused),
            case_id: Some(case_id),
            sanction_id: sanction.as_ref().map(|s| s.id),
            why: composed.as_deref(),
            ..LogRefs::default()
        },
    )?;
    if let Some(row) = &sanction {
        let policy_view = row.to_policy()?;
        log_action(
            conn,
            now,
            admin_actor,
            &AuditAction::SanctionCreated {
                sanction: SanctionId(row.id),
                case: Some(CaseId(case_id)),
                player: PlayerId(case.accused_id),
                kind: policy_view.kind,
                duration: policy_view.duration,
                ends_at: policy_view.effective_end(),
            },
            LogRefs {
                subject: Some(&accused),
                case_id: Some(case_id),
                sanction_id: Some(row.id),
                why: composed.as_deref(),
                ..LogRefs::default()
            },
        )?;
        super::webhook_outbox::emit(conn, SanctionEventKind::SanctionStarted, row.id, now)?;
    }

    // Reporters: an unjustified dismissal may earn a report timeout.
    let reporters: Vec<i64> = facts.parties().reporters.iter().map(|p| p.0).collect();
    let mut timeouts = Vec::new();
    if valid.report_outcome == ReportOutcome::DismissedUnjustified {
        let window = chrono::TimeDelta::try_days(i64::from(policy.report_timeout.window_days))
            .unwrap_or(chrono::TimeDelta::MAX);
        let since = from_utc(
            at.checked_sub_signed(window)
                .unwrap_or(DateTime::<Utc>::MIN_UTC),
        );
        for reporter in &reporters {
            let (history, earlier) = reporter_history(conn, *reporter, since)?;
            if let Some(timeout) = report_timeout_after_decision(&history, &earlier, at, policy) {
                diesel::insert_into(report_timeouts::table)
                    .values((
                        report_timeouts::player_id.eq(reporter),
                        report_timeouts::step.eq(i32::try_from(timeout.level).unwrap_or(i32::MAX)),
                        report_timeouts::starts_at.eq(from_utc(timeout.starts_at)),
                        report_timeouts::ends_at.eq(from_utc(timeout.until)),
                        report_timeouts::case_id.eq(case_id),
                    ))
                    .execute(conn)?;
                let name = player_name(conn, *reporter)?;
                log_action(
                    conn,
                    now,
                    LogActor::SYSTEM,
                    &AuditAction::report_timeout(PlayerId(*reporter), &timeout),
                    LogRefs {
                        subject: Some(&name),
                        case_id: Some(case_id),
                        why: Some("too many unjustified reports"),
                        ..LogRefs::default()
                    },
                )?;
                timeouts.push((name, timeout));
            }
        }
    }

    // The accused's history and the reporters' accuracy changed: re-rank their open cases.
    let mut affected: BTreeSet<i64> = open_cases_of(conn, case.accused_id)?.into_iter().collect();
    affected.extend(open_cases_reported_by(conn, &reporters)?);
    for other in affected {
        refresh_priority(conn, other, policy, now)?;
    }

    let measures = super::sanctions::prior_measures(conn, case.accused_id)?;
    let next_step = suggest_next_sanction(&measures, facts.key.reason, at, policy);
    Ok(Decided {
        decision_id,
        case_id,
        accused,
        reason: facts.key.reason,
        kind: valid.kind,
        ground: valid.ground,
        evidence_games: valid.evidence_games,
        report_outcome: valid.report_outcome,
        sanction,
        report_timeouts: timeouts,
        next_step,
        decided_at: now,
    })
}
