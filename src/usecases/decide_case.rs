//! An admin decides a case they hold a claim on: the decision, its sanction or warning, the
//! case closed, every entry's report outcome with its reporters told, refunds owed, report
//! timeouts for reporters the decision takes over the threshold, the affected open cases
//! re-ranked, the log lines and the events, in ONE transaction (docs/moderation.md, "Reports
//! and cases").

use std::collections::BTreeSet;

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use crate::moderation::{
    compose_note, render_preset, render_reporter_text, render_text, report_timeout_after_decision,
    suggest_next_sanction, validate_decision, AuditAction, CaseFacts, CaseId, Decision,
    DecisionAction, DecisionKind, DecisionPreset, DecisionProblem, GameNumber, Ground, LadderStep,
    Language, ModerationPolicy, PlayerId, PresetValues, ReportId, ReportOutcome, ReportReason,
    ReportTimeout, SeparationMember, Texts, ValidDecision, Warning, WebhookEventKind,
};
use crate::store::case_tallies;
use crate::store::cases::{self, CaseRow};
use crate::store::decisions::{self, NewDecision};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::sanctions::{self, SanctionRow};
use crate::store::{
    from_utc, players, report_timeouts, reports, separations, to_utc, webhook_outbox, DbConnection,
};
use crate::usecases::issue_warning::{issue_warning, PlayerNote, WarningRequest};
use crate::usecases::owe_refunds::{owe_refunds, RefundRequest};
use crate::usecases::tell_reporters::{tell_reporters, ReportersRequest};

/// An admin's decision on a case, as the route read it.
#[derive(Debug, Clone)]
pub struct DecisionInput {
    pub admin_id: PlayerId,
    pub admin_name: String,
    pub action: DecisionAction,
    pub ground: Option<Ground>,
    pub note: Option<String>,
    /// Further games (site numbers) the admin cites.
    pub evidence_games: Vec<i64>,
    /// What the reporters are told, after the preset's reporter text.
    pub reporter_note: Option<String>,
    /// The message preset chosen by key (the route looked it up).
    pub preset: Option<DecisionPreset>,
    /// With a separation: the other players to keep apart from the accused, by name.
    pub separate_from: Vec<String>,
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
    pub case_id: CaseId,
    pub accused: String,
    pub reason: ReportReason,
    pub kind: DecisionKind,
    pub ground: Option<Ground>,
    pub evidence_games: Vec<GameNumber>,
    pub report_outcome: ReportOutcome,
    pub sanction: Option<SanctionRow>,
    /// A warning decision's warning.
    pub warning: Option<Warning>,
    /// Report timeouts the decision earned reporters, by reporter name.
    pub report_timeouts: Vec<(String, ReportTimeout)>,
    /// A separation's members by name; empty for any other decision.
    pub separated: Vec<String>,
    /// The ladder's next step for the accused, counting this decision.
    pub next_step: LadderStep,
    pub decided_at: NaiveDateTime,
}

/// Decides a case. Only the admin holding a running claim may decide.
pub fn decide_case(
    conn: &mut DbConnection,
    case_id: CaseId,
    input: &DecisionInput,
    policy: &ModerationPolicy,
    texts: &Texts,
    now: NaiveDateTime,
) -> Result<Decided, DecideError> {
    conn.transaction(|conn| {
        let case = take_claimed_case(conn, case_id, input.admin_id, now)?;
        let accused = players::name(conn, case.accused_id)?;
        let facts = cases::case_facts(conn, &case, policy)?;
        let evidence = evidence_games(conn, &input.evidence_games, &accused)?;
        let separate_from = separation_members(conn, &input.separate_from)?;
        let valid = validate_decision(&decision(input, evidence, separate_from), &facts, policy)
            .map_err(DecideError::Invalid)?;
        let values = preset_values(&valid, &facts, &accused, now);
        let note = note_to_player(&valid, &values);
        let reporter_note = note_to_reporters(&valid, &values);
        let language = players::languages(conn, &[case.accused_id])?
            .remove(&case.accused_id)
            .unwrap_or(Language::En);
        let player_note = PlayerNote {
            language,
            text: note_in(&valid, &values, texts, language),
            english: note.clone(),
        };
        let sanction = store_sanction(conn, &valid, case_id, input.admin_id, &player_note, now)?;
        let decision_id = decisions::insert(
            conn,
            &NewDecision {
                case_id,
                admin_id: input.admin_id,
                kind: valid.kind,
                ground: valid.ground,
                note: note.as_deref(),
                reporter_note: reporter_note.as_deref(),
                sanction_id: sanction.as_ref().map(|s| s.id),
                decided_at: now,
            },
        )?;
        cases::close(conn, case_id, now)?;
        let settled = settle_entries(conn, case_id, valid.report_outcome, decision_id, now)?;
        let warning = issue_warning(
            conn,
            &WarningRequest {
                case_id,
                accused_id: case.accused_id,
                accused: &accused,
                reason: facts.key.reason,
                decision: &valid,
                note: &player_note,
            },
            &policy.warnings,
            texts,
            now,
        )?;
        tell_reporters(
            conn,
            &ReportersRequest {
                case_id,
                reason: facts.key.reason,
                decision: &valid,
                settled: &settled,
                values: &values,
                note_en: reporter_note.as_deref(),
            },
            &policy.reporters,
            texts,
            now,
        )?;
        let written = Written {
            case: &case,
            accused: &accused,
            valid: &valid,
            sanction: sanction.as_ref(),
            note: note.as_deref(),
        };
        log_decision(conn, input, &written, now)?;
        owe_refunds(
            conn,
            &RefundRequest::new(case_id, &facts, &valid),
            &policy.refunds,
            now,
        )?;
        let reporters: Vec<PlayerId> = facts.parties().reporters.to_vec();
        let timeouts = time_out_reporters(conn, &reporters, &valid, case_id, policy, now)?;
        rerank_open_cases(conn, case.accused_id, &reporters, policy, now)?;
        let measures = sanctions::prior_measures(conn, case.accused_id)?;
        let next_step = suggest_next_sanction(&measures, facts.key.reason, to_utc(now), policy);
        let separated = separated_names(&valid, &input.separate_from, &accused);
        Ok(Decided {
            decision_id,
            case_id,
            accused,
            reason: facts.key.reason,
            kind: valid.kind,
            ground: valid.ground,
            evidence_games: valid.evidence_games,
            report_outcome: valid.report_outcome,
            separated,
            sanction,
            warning,
            report_timeouts: timeouts,
            next_step,
            decided_at: now,
        })
    })
}

/// The case, once this admin holds it for the decision; otherwise why not. Writes first: see
/// [`cases::hold_for_decision`].
fn take_claimed_case(
    conn: &mut DbConnection,
    case_id: CaseId,
    admin_id: PlayerId,
    now: NaiveDateTime,
) -> Result<CaseRow, DecideError> {
    let held = cases::hold_for_decision(conn, case_id, admin_id, now)?;
    let case = cases::find(conn, case_id)?.ok_or(DecideError::NotFound)?;
    if held {
        return Ok(case);
    }
    if !case.is_open() {
        return Err(DecideError::AlreadyDecided);
    }
    let holder = match (case.claimed_by, case.claimed_until) {
        (Some(holder), Some(until)) if until > now => {
            Some((players::name(conn, holder)?, to_utc(until)))
        }
        _ => None,
    };
    Err(DecideError::NotClaimed { holder })
}

/// The games the admin cites, in the order given: each must be stored and have the accused
/// seated.
fn evidence_games(
    conn: &mut DbConnection,
    numbers: &[i64],
    accused: &str,
) -> Result<Vec<GameNumber>, DecideError> {
    let stored = reports::games_by_number(conn, numbers)?;
    let mut evidence = Vec::with_capacity(numbers.len());
    for number in numbers {
        let Some(game) = stored.iter().find(|g| g.number == *number) else {
            return Err(DecideError::UnknownEvidenceGame(*number));
        };
        if !game.players.iter().any(|p| p == accused) {
            return Err(DecideError::EvidenceGameWithoutAccused(*number));
        }
        evidence.push(GameNumber(*number));
    }
    Ok(evidence)
}

/// The players the admin names to keep apart, each with the player their name resolves to.
fn separation_members(
    conn: &mut DbConnection,
    names: &[String],
) -> Result<Vec<SeparationMember>, DecideError> {
    let mut members = Vec::with_capacity(names.len());
    for name in names {
        let player = players::find_id(conn, name)?;
        members.push(SeparationMember {
            name: name.clone(),
            player,
        });
    }
    Ok(members)
}

/// A separation's members by name, the accused first (as validated).
fn separated_names(valid: &ValidDecision, others: &[String], accused: &str) -> Vec<String> {
    if valid.separated.is_empty() {
        return Vec::new();
    }
    std::iter::once(accused.to_string())
        .chain(others.iter().cloned())
        .collect()
}

/// The decision as the policy reads it.
fn decision(
    input: &DecisionInput,
    evidence_games: Vec<GameNumber>,
    separate_from: Vec<SeparationMember>,
) -> Decision {
    Decision {
        admin: input.admin_id,
        action: input.action,
        ground: input.ground,
        note: input.note.clone(),
        reporter_note: input.reporter_note.clone(),
        evidence_games,
        preset: input.preset.clone(),
        separate_from,
    }
}

/// What the decision's preset texts are filled with.
fn preset_values<'a>(
    valid: &'a ValidDecision,
    facts: &CaseFacts,
    accused: &'a str,
    now: NaiveDateTime,
) -> PresetValues<'a> {
    PresetValues {
        player: accused,
        reason: facts.key.reason,
        ground: valid.ground,
        action: valid.action,
        decided_at: to_utc(now),
        games: &valid.evidence_games,
    }
}

/// What the player is told: the preset in full, then the admin's own words.
fn note_to_player(valid: &ValidDecision, values: &PresetValues<'_>) -> Option<String> {
    let rendered = valid
        .preset
        .as_ref()
        .map(|preset| render_preset(preset, values));
    compose_note(rendered, valid.note.as_deref())
}

/// What the player is told in `language`: the preset's translation (English where there is
/// none), then the admin's own words as written.
fn note_in(
    valid: &ValidDecision,
    values: &PresetValues<'_>,
    texts: &Texts,
    language: Language,
) -> Option<String> {
    let rendered = valid.preset.as_ref().map(|preset| {
        render_text(
            texts.player_text(preset, language),
            values,
            texts.words(language),
        )
    });
    compose_note(rendered, valid.note.as_deref())
}

/// What the reporters are told in English: the preset's reporter text, then the admin's
/// words to them (each reporter's own language: `tell_reporters`).
fn note_to_reporters(valid: &ValidDecision, values: &PresetValues<'_>) -> Option<String> {
    let rendered = valid
        .preset
        .as_ref()
        .and_then(|preset| render_reporter_text(preset, values));
    compose_note(rendered, valid.reporter_note.as_deref())
}

/// The decision's sanction, stored and read back; `None` unless the decision sanctions.
fn store_sanction(
    conn: &mut DbConnection,
    valid: &ValidDecision,
    case_id: CaseId,
    admin_id: PlayerId,
    note: &PlayerNote,
    now: NaiveDateTime,
) -> Result<Option<SanctionRow>, DecideError> {
    let Some(new) = valid.new_sanction(to_utc(now)) else {
        return Ok(None);
    };
    let english = note.english.as_deref().unwrap_or_default();
    let id = sanctions::insert(conn, &new, Some(case_id), admin_id, english)?;
    sanctions::set_player_note(conn, id, note.language, note.text.as_deref())?;
    if !valid.separated.is_empty() {
        separations::insert_members(conn, id, &valid.separated)?;
    }
    Ok(sanctions::find(conn, id)?)
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

/// Every entry's report: outcome, decision time and deciding decision. A report linked to
/// several cases is decided when its first case is, and keeps the outcome most favourable to
/// its reporter. Returns the reports this decision settled (decided first, or bettered): their
/// reporters are the ones to tell.
fn settle_entries(
    conn: &mut DbConnection,
    case_id: CaseId,
    outcome: ReportOutcome,
    decision_id: i64,
    now: NaiveDateTime,
) -> Result<Vec<ReportId>, DecideError> {
    let mut settled = Vec::new();
    for entry in reports::entry_outcomes(conn, case_id)? {
        if matches!(entry.outcome, Some(old) if outcome_rank(old) >= outcome_rank(outcome)) {
            continue;
        }
        let decided_at = entry.decided_at.unwrap_or(now);
        reports::set_outcome(conn, entry.report_id, outcome, decided_at, decision_id, now)?;
        settled.push(entry.report_id);
    }
    Ok(settled)
}

/// What the decision wrote, for its log lines.
struct Written<'a> {
    case: &'a CaseRow,
    accused: &'a str,
    valid: &'a ValidDecision,
    sanction: Option<&'a SanctionRow>,
    note: Option<&'a str>,
}

/// The decision's log line and, with a sanction, its log line and event.
fn log_decision(
    conn: &mut DbConnection,
    input: &DecisionInput,
    written: &Written<'_>,
    now: NaiveDateTime,
) -> Result<(), DecideError> {
    let admin = LogActor {
        kind: LogActorKind::Admin,
        name: Some(&input.admin_name),
    };
    let case_id = written.case.id;
    let refs = LogRefs {
        subject: Some(written.accused),
        case_id: Some(case_id),
        sanction_id: written.sanction.map(|s| s.id),
        why: written.note,
        ..LogRefs::default()
    };
    let action = AuditAction::Decision {
        case: case_id,
        admin: input.admin_id,
        kind: written.valid.kind,
        ground: written.valid.ground,
        evidence_games: written.valid.evidence_games.clone(),
    };
    log_action(conn, now, admin, &action, refs)?;
    let Some(row) = written.sanction else {
        return Ok(());
    };
    let sanction = row.to_policy();
    let action = AuditAction::SanctionCreated {
        sanction: row.id,
        case: Some(case_id),
        player: written.case.accused_id,
        kind: sanction.kind,
        duration: sanction.duration,
        ends_at: sanction.effective_end(),
    };
    log_action(conn, now, admin, &action, refs)?;
    webhook_outbox::emit(conn, WebhookEventKind::SanctionStarted, row.id, now)?;
    Ok(())
}

/// Reporters: an unjustified dismissal may earn each a report timeout, stored and logged.
fn time_out_reporters(
    conn: &mut DbConnection,
    reporters: &[PlayerId],
    valid: &ValidDecision,
    case_id: CaseId,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<Vec<(String, ReportTimeout)>, DecideError> {
    let mut timeouts = Vec::new();
    if valid.report_outcome != ReportOutcome::DismissedUnjustified {
        return Ok(timeouts);
    }
    let at = to_utc(now);
    let window = chrono::TimeDelta::try_days(i64::from(policy.report_timeout.window_days))
        .unwrap_or(chrono::TimeDelta::MAX);
    let since = from_utc(
        at.checked_sub_signed(window)
            .unwrap_or(DateTime::<Utc>::MIN_UTC),
    );
    for reporter in reporters {
        let (history, earlier) = cases::reporter_history(conn, *reporter, since)?;
        let Some(timeout) = report_timeout_after_decision(&history, &earlier, at, policy) else {
            continue;
        };
        report_timeouts::insert(conn, *reporter, &timeout, case_id)?;
        let name = players::name(conn, *reporter)?;
        let refs = LogRefs {
            subject: Some(&name),
            case_id: Some(case_id),
            why: Some("too many unjustified reports"),
            ..LogRefs::default()
        };
        let action = AuditAction::report_timeout(*reporter, &timeout);
        log_action(conn, now, LogActor::SYSTEM, &action, refs)?;
        timeouts.push((name, timeout));
    }
    Ok(timeouts)
}

/// The accused's history and the reporters' accuracy changed: re-rank their open cases.
fn rerank_open_cases(
    conn: &mut DbConnection,
    accused_id: PlayerId,
    reporters: &[PlayerId],
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<(), DecideError> {
    let mut affected: BTreeSet<CaseId> = cases::open_cases_of(conn, accused_id)?
        .into_iter()
        .collect();
    affected.extend(case_tallies::open_cases_reported_by(conn, reporters)?);
    for case in affected {
        case_tallies::recount(conn, case, policy, now)?;
    }
    Ok(())
}
