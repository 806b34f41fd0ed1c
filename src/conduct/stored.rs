//! The stored form of a [`PlayerRecord`]: a compact binary layout, as base64 text.
//!
//! The store reads and writes the record of every seat of every ingested game, so its size and
//! decoding time are most of the cost of conduct tracking: the plain serde JSON of a full
//! record (50 outcomes, 90 day buckets) is about 43 KB and takes tens of microseconds to read;
//! this form is a few KB and reads in a few microseconds.
//!
//! Layout, after the prefix `c1:` (base64 of): LEB128 varints throughout, signed ones
//! zig-zagged; the player, the ring capacity, the kept days, the latest day (0 = none, else
//! day + 1), the totals, the recent outcomes, the day buckets. Counts are a 16-bit mask of the
//! non-zero counters followed by those counters. An outcome is its game, its end time in
//! microseconds as the difference from the previous outcome's (the ring is sorted), a byte of
//! seat (2 bits), variant (2), caused abort, has rating change, has departure, then its kind,
//! disconnects, reconnects, the rating change and the departure. A departure is a byte of kind
//! (2 bits), early, in check, lost position, partner still playing (2 bits: none, no, yes),
//! then ply, moves made and the assessment: a tag (0 not assessed, 1 points, 2 points with a
//! next player above, 3 teams) and its numbers. Day buckets store the day as the difference
//! from the previous bucket's.
//!
//! Times keep microseconds, the precision both databases store. [`decode`] also reads the
//! plain serde JSON, the form records were first stored in.

use base64::Engine;
use chrono::{DateTime, Utc};

use super::facts::SeatColor;
use super::outcome::{Departure, DepartureKind, OutcomeKind, PositionAssessment, SeatOutcome};
use super::record::{DayBucket, OutcomeCounts, PlayerRecord};
use crate::moderation::{GameNumber, PlayerId, Variant};

const PREFIX: &str = "c1:";
const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD_NO_PAD;

const VARIANTS: [Variant; 4] = [Variant::Teams, Variant::Ffa, Variant::Solo, Variant::Other];
const DEPARTURES: [DepartureKind; 3] = [
    DepartureKind::Resigned,
    DepartureKind::TimedOut,
    DepartureKind::Forfeited,
];

/// A stored record that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unreadable conduct record: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

fn error(what: impl Into<String>) -> DecodeError {
    DecodeError(what.into())
}

/// The stored text of a record.
pub fn encode(record: &PlayerRecord) -> String {
    let mut w = Writer(Vec::with_capacity(
        64 + 24 * record.recent.len() + 8 * record.days.len(),
    ));
    w.signed(record.player.0);
    w.unsigned(record.recent_capacity.into());
    w.unsigned(record.kept_days.into());
    match record.latest_day {
        None => w.unsigned(0),
        Some(day) => {
            w.unsigned(1);
            w.signed(day);
        }
    }
    w.counts(&record.totals);
    w.unsigned(record.recent.len() as u64);
    let mut previous = 0i64;
    for o in &record.recent {
        let at = o.ended_at.timestamp_micros();
        w.outcome(o, at.wrapping_sub(previous));
        previous = at;
    }
    w.unsigned(record.days.len() as u64);
    let mut previous = 0i64;
    for b in &record.days {
        w.signed(b.day.wrapping_sub(previous));
        previous = b.day;
        w.counts(&b.counts);
    }
    let mut text = String::with_capacity(PREFIX.len() + w.0.len() * 4 / 3 + 4);
    text.push_str(PREFIX);
    BASE64.encode_string(&w.0, &mut text);
    text
}

/// A record from its stored text (this layout or the plain serde JSON).
pub fn decode(text: &str) -> Result<PlayerRecord, DecodeError> {
    let Some(body) = text.strip_prefix(PREFIX) else {
        return serde_json::from_str(text).map_err(|e| error(e.to_string()));
    };
    let bytes = unbase64(body)?;
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    let player = PlayerId(r.signed()?);
    let recent_capacity = r.small("ring capacity")?;
    let kept_days = r.small("kept days")?;
    let latest_day = match r.unsigned()? {
        0 => None,
        1 => Some(r.signed()?),
        other => return Err(error(format!("latest day tag {other}"))),
    };
    let totals = r.counts()?;
    let n = r.length(recent_capacity as usize, "recent outcomes")?;
    let mut recent = Vec::with_capacity(n);
    let mut previous = 0i64;
    for _ in 0..n {
        let (outcome, at) = r.outcome(player, previous)?;
        previous = at;
        recent.push(outcome);
    }
    let n = r.length(kept_days as usize, "day buckets")?;
    let mut days = Vec::with_capacity(n);
    let mut previous = 0i64;
    for _ in 0..n {
        let day = previous.wrapping_add(r.signed()?);
        previous = day;
        days.push(DayBucket {
            day,
            counts: r.counts()?,
        });
    }
    if r.at != bytes.len() {
        return Err(error(format!("{} bytes left over", bytes.len() - r.at)));
    }
    Ok(PlayerRecord {
        player,
        recent_capacity,
        kept_days,
        totals,
        recent,
        days,
        latest_day,
    })
}

const SEATS_PREFIX: &str = "s1:";

/// Most seats a game's stored outcomes may list.
const MOST_SEATS: usize = 4;

/// The stored text of one game's seat outcomes, with each seat's player name: what an
/// ingested game leaves for the conduct applier. Each outcome is laid out as in a record (its
/// end time relative to zero); its player id is not stored (the record supplies it).
pub fn encode_seats(seats: &[(&str, &SeatOutcome)]) -> String {
    let mut w = Writer(Vec::with_capacity(16 + 48 * seats.len()));
    w.unsigned(seats.len() as u64);
    for (player, outcome) in seats {
        w.unsigned(player.len() as u64);
        w.0.extend_from_slice(player.as_bytes());
        w.outcome(outcome, outcome.ended_at.timestamp_micros());
    }
    let mut text = String::with_capacity(SEATS_PREFIX.len() + w.0.len() * 4 / 3 + 4);
    text.push_str(SEATS_PREFIX);
    BASE64.encode_string(&w.0, &mut text);
    text
}

/// The seats of [`encode_seats`]: (player name, outcome), the outcome's player id unset (0).
pub fn decode_seats(text: &str) -> Result<Vec<(String, SeatOutcome)>, DecodeError> {
    let body = text
        .strip_prefix(SEATS_PREFIX)
        .ok_or_else(|| error("stored seats lack their prefix"))?;
    let bytes = unbase64(body)?;
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    let n = r.length(MOST_SEATS, "seats")?;
    let mut seats = Vec::with_capacity(n);
    for _ in 0..n {
        let len = r.unsigned()?;
        let name = usize::try_from(len)
            .ok()
            .and_then(|len| r.bytes.get(r.at..r.at.checked_add(len)?))
            .ok_or_else(|| error(format!("a {len}-byte name runs past the end")))?;
        let name = std::str::from_utf8(name)
            .map_err(|e| error(format!("player name: {e}")))?
            .to_string();
        r.at += name.len();
        let (outcome, _) = r.outcome(PlayerId(0), 0)?;
        seats.push((name, outcome));
    }
    if r.at != bytes.len() {
        return Err(error(format!("{} bytes left over", bytes.len() - r.at)));
    }
    Ok(seats)
}

fn unbase64(body: &str) -> Result<Vec<u8>, DecodeError> {
    BASE64
        .decode(body)
        .map_err(|e| error(format!("base64: {e}")))
}

/// The counters of [`OutcomeCounts`] in mask-bit order.
fn counter_values(c: &OutcomeCounts) -> [i64; 16] {
    [
        c.games.into(),
        c.completed.into(),
        c.aborted.into(),
        c.resigned.into(),
        c.timed_out.into(),
        c.forfeited.into(),
        c.claimed_win.into(),
        c.aborts_caused.into(),
        c.disconnects.into(),
        c.reconnects.into(),
        c.forfeits_after_disconnect.into(),
        c.lost_position_departures.into(),
        c.early_departures.into(),
        c.teams_games.into(),
        c.teams_early_resignations.into(),
        c.rating_lost_leaving_early,
    ]
}

fn index_of<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter().position(|v| v == value).unwrap_or(0) as u8
}

fn nth<T: Copy>(all: &[T], index: u8, what: &str) -> Result<T, DecodeError> {
    all.get(usize::from(index))
        .copied()
        .ok_or_else(|| error(format!("unknown {what} {index}")))
}

struct Writer(Vec<u8>);

impl Writer {
    fn unsigned(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn signed(&mut self, v: i64) {
        self.unsigned(((v << 1) ^ (v >> 63)) as u64);
    }

    fn counts(&mut self, c: &OutcomeCounts) {
        let values = counter_values(c);
        let mask = values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        self.unsigned(mask);
        for (i, v) in values.iter().enumerate() {
            if mask & 1 << i != 0 {
                // Only the last counter (rating lost) is signed.
                if i == 15 {
                    self.signed(*v);
                } else {
                    self.unsigned(*v as u64);
                }
            }
        }
    }

    fn outcome(&mut self, o: &SeatOutcome, at_delta: i64) {
        self.signed(o.game.0);
        self.signed(at_delta);
        let head = index_of(&SeatColor::ALL, &o.seat)
            | index_of(&VARIANTS, &o.variant) << 2
            | u8::from(o.caused_abort) << 4
            | u8::from(o.rating_change.is_some()) << 5
            | u8::from(o.departure.is_some()) << 6;
        self.0.push(head);
        self.0.push(index_of(&OutcomeKind::ALL, &o.kind));
        self.unsigned(o.disconnects.into());
        self.unsigned(o.reconnects.into());
        if let Some(change) = o.rating_change {
            self.signed(change.into());
        }
        if let Some(d) = &o.departure {
            let partner = match d.partner_still_playing {
                None => 0,
                Some(false) => 1,
                Some(true) => 2,
            };
            self.0.push(
                index_of(&DEPARTURES, &d.kind)
                    | u8::from(d.early) << 2
                    | u8::from(d.in_check) << 3
                    | u8::from(d.lost_position) << 4
                    | partner << 5,
            );
            self.unsigned(d.ply as u64);
            self.unsigned(d.moves_made.into());
            match &d.assessment {
                PositionAssessment::NotAssessed => self.0.push(0),
                PositionAssessment::Points {
                    points,
                    reachable,
                    next_above,
                } => {
                    self.0.push(if next_above.is_some() { 2 } else { 1 });
                    for p in points {
                        self.signed((*p).into());
                    }
                    self.signed((*reachable).into());
                    if let Some(next) = next_above {
                        self.signed((*next).into());
                    }
                }
                PositionAssessment::Teams {
                    team_material,
                    opponent_material,
                    king_moves,
                } => {
                    self.0.push(3);
                    self.signed((*team_material).into());
                    self.signed((*opponent_material).into());
                    self.unsigned((*king_moves).into());
                }
            }
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| error(format!("ends early at byte {}", self.at)))?;
        self.at += 1;
        Ok(b)
    }

    fn unsigned(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(error(format!("overlong number at byte {}", self.at)))
    }

    fn signed(&mut self) -> Result<i64, DecodeError> {
        let v = self.unsigned()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn small(&mut self, what: &str) -> Result<u32, DecodeError> {
        let v = self.unsigned()?;
        u32::try_from(v).map_err(|_| error(format!("{what} out of range: {v}")))
    }

    fn int(&mut self, what: &str) -> Result<i32, DecodeError> {
        let v = self.signed()?;
        i32::try_from(v).map_err(|_| error(format!("{what} out of range: {v}")))
    }

    /// A count of items that may not exceed `most`.
    fn length(&mut self, most: usize, what: &str) -> Result<usize, DecodeError> {
        let n = self.unsigned()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= most)
            .ok_or_else(|| error(format!("{n} {what}, at most {most} kept")))
    }

    fn counts(&mut self) -> Result<OutcomeCounts, DecodeError> {
        let mask = self.unsigned()?;
        if mask >> 16 != 0 {
            return Err(error(format!("counter mask {mask:#x}")));
        }
        let mut values = [0i64; 16];
        for (i, value) in values.iter_mut().enumerate() {
            if mask & 1 << i != 0 {
                *value = if i == 15 {
                    self.signed()?
                } else {
                    i64::from(self.small("counter")?)
                };
            }
        }
        let [games, completed, aborted, resigned, timed_out, forfeited, claimed_win, aborts_caused, disconnects, reconnects, forfeits_after_disconnect, lost_position_departures, early_departures, teams_games, teams_early_resignations, rating_lost_leaving_early] =
            values;
        // Every value but the last was read as a u32 above.
        let n = |v: i64| v as u32;
        Ok(OutcomeCounts {
            games: n(games),
            completed: n(completed),
            aborted: n(aborted),
            resigned: n(resigned),
            timed_out: n(timed_out),
            forfeited: n(forfeited),
            claimed_win: n(claimed_win),
            aborts_caused: n(aborts_caused),
            disconnects: n(disconnects),
            reconnects: n(reconnects),
            forfeits_after_disconnect: n(forfeits_after_disconnect),
            lost_position_departures: n(lost_position_departures),
            early_departures: n(early_departures),
            teams_games: n(teams_games),
            teams_early_resignations: n(teams_early_resignations),
            rating_lost_leaving_early,
        })
    }

    /// An outcome and its end time in microseconds.
    fn outcome(
        &mut self,
        player: PlayerId,
        previous: i64,
    ) -> Result<(SeatOutcome, i64), DecodeError> {
        let game = GameNumber(self.signed()?);
        let at = previous.wrapping_add(self.signed()?);
        let head = self.byte()?;
        if head >> 7 != 0 {
            return Err(error(format!("outcome flags {head:#x}")));
        }
        let kind = nth(&OutcomeKind::ALL, self.byte()?, "outcome kind")?;
        let disconnects = self.small("disconnects")?;
        let reconnects = self.small("reconnects")?;
        let rating_change = if head & 1 << 5 != 0 {
            Some(self.int("rating change")?)
        } else {
            None
        };
        let departure = if head & 1 << 6 != 0 {
            Some(self.departure()?)
        } else {
            None
        };
        let outcome = SeatOutcome {
            game,
            player,
            seat: nth(&SeatColor::ALL, head & 3, "seat")?,
            variant: nth(&VARIANTS, head >> 2 & 3, "variant")?,
            ended_at: DateTime::<Utc>::from_timestamp_micros(at)
                .ok_or_else(|| error(format!("time out of range: {at}")))?,
            kind,
            caused_abort: head & 1 << 4 != 0,
            departure,
            disconnects,
            reconnects,
            rating_change,
        };
        Ok((outcome, at))
    }

    fn departure(&mut self) -> Result<Departure, DecodeError> {
        let head = self.byte()?;
        let kind = nth(&DEPARTURES, head & 3, "departure kind")?;
        let partner_still_playing = match head >> 5 {
            0 => None,
            1 => Some(false),
            2 => Some(true),
            other => return Err(error(format!("partner flag {other}"))),
        };
        let ply = self.unsigned()?;
        let ply = usize::try_from(ply).map_err(|_| error(format!("ply {ply}")))?;
        let moves_made = self.small("moves made")?;
        let assessment = match self.byte()? {
            0 => PositionAssessment::NotAssessed,
            tag @ (1 | 2) => PositionAssessment::Points {
                points: [
                    self.int("points")?,
                    self.int("points")?,
                    self.int("points")?,
                    self.int("points")?,
                ],
                reachable: self.int("reachable points")?,
                next_above: if tag == 2 {
                    Some(self.int("points above")?)
                } else {
                    None
                },
            },
            3 => PositionAssessment::Teams {
                team_material: self.int("team material")?,
                opponent_material: self.int("opponent material")?,
                king_moves: self.small("king moves")?,
            },
            other => return Err(error(format!("assessment tag {other}"))),
        };
        Ok(Departure {
            kind,
            ply,
            moves_made,
            early: head & 1 << 2 != 0,
            in_check: head & 1 << 3 != 0,
            lost_position: head & 1 << 4 != 0,
            partner_still_playing,
            assessment,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conduct::RecordPolicy;
    use chrono::TimeZone;

    fn at(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
            + chrono::TimeDelta::minutes(minutes)
            + chrono::TimeDelta::microseconds(123_456)
    }

    fn outcome_with(game: i64, kind: OutcomeKind, departure: Option<Departure>) -> SeatOutcome {
        SeatOutcome {
            game: GameNumber(game),
            player: PlayerId(7),
            seat: SeatColor::ALL[(game % 4) as usize],
            variant: VARIANTS[(game % 4) as usize],
            ended_at: at(game * 97),
            kind,
            caused_abort: game % 5 == 0,
            departure,
            disconnects: (game % 3) as u32,
            reconnects: (game % 2) as u32,
            rating_change: if game % 2 == 0 { Some(-12) } else { None },
        }
    }

    fn departures() -> Vec<Option<Departure>> {
        let base = Departure {
            kind: DepartureKind::Forfeited,
            ply: 37,
            moves_made: 9,
            early: true,
            in_check: false,
            lost_position: true,
            partner_still_playing: None,
            assessment: PositionAssessment::NotAssessed,
        };
        vec![
            None,
            Some(base.clone()),
            Some(Departure {
                kind: DepartureKind::Resigned,
                in_check: true,
                partner_still_playing: Some(true),
                assessment: PositionAssessment::Teams {
                    team_material: 31,
                    opponent_material: 52,
                    king_moves: 1,
                },
                ..base.clone()
            }),
            Some(Departure {
                kind: DepartureKind::TimedOut,
                partner_still_playing: Some(false),
                assessment: PositionAssessment::Points {
                    points: [12, 0, -3, 40],
                    reachable: 25,
                    next_above: Some(40),
                },
                ..base.clone()
            }),
            Some(Departure {
                assessment: PositionAssessment::Points {
                    points: [50, 0, 3, 4],
                    reachable: 9,
                    next_above: None,
                },
                ..base
            }),
        ]
    }

    fn full_record() -> PlayerRecord {
        let policy = RecordPolicy {
            recent_games: 50,
            short_window_days: 30,
            long_window_days: 90,
        };
        let mut record = PlayerRecord::new(PlayerId(7), &policy);
        for game in 0..400 {
            let kind = OutcomeKind::ALL[(game % 6) as usize];
            let departure = departures()[(game % 5) as usize].clone();
            record.apply(&outcome_with(game, kind, departure));
        }
        record
    }

    #[test]
    fn a_games_seats_round_trip_with_their_names() {
        let outcomes: Vec<SeatOutcome> = (0..4)
            .map(|i| {
                let mut o = outcome_with(
                    40 + i,
                    OutcomeKind::ALL[i as usize],
                    departures()[(i + 1) as usize].clone(),
                );
                o.player = PlayerId(0);
                o
            })
            .collect();
        let names = ["Ann", "Bø b", "", "dee_4"];
        let seats: Vec<(&str, &SeatOutcome)> = names.iter().copied().zip(&outcomes).collect();
        let text = encode_seats(&seats);
        let back = decode_seats(&text).expect("decodes");
        let expected: Vec<(String, SeatOutcome)> = names
            .iter()
            .map(|n| n.to_string())
            .zip(outcomes.iter().cloned())
            .collect();
        assert_eq!(back, expected);
    }

    #[test]
    fn damaged_seats_are_refused_with_a_reason() {
        let o = outcome_with(3, OutcomeKind::Resigned, departures()[2].clone());
        let text = encode_seats(&[("Ann", &o)]);
        assert!(decode_seats(&text[..text.len() - 3]).is_err());
        assert!(decode_seats(&text[3..]).is_err(), "no prefix");
        let five: Vec<(&str, &SeatOutcome)> = (0..5).map(|_| ("x", &o)).collect();
        let refused = decode_seats(&encode_seats(&five)).unwrap_err();
        assert!(refused.0.contains("5 seats"), "{refused}");
        // A name longer than what is left.
        let bytes = [1u8, 200, 1];
        let text = format!("{SEATS_PREFIX}{}", BASE64.encode(bytes));
        assert!(decode_seats(&text).is_err());
    }

    #[test]
    fn every_field_survives_the_round_trip() {
        let record = full_record();
        assert_eq!(record.recent.len(), 50);
        assert!(!record.days.is_empty());
        let text = encode(&record);
        assert_eq!(decode(&text), Ok(record));
    }

    #[test]
    fn an_empty_record_round_trips() {
        let record = PlayerRecord::new(
            PlayerId(3),
            &crate::conduct::ConductPolicy::default().record,
        );
        assert_eq!(decode(&encode(&record)), Ok(record));
    }

    #[test]
    fn the_plain_form_is_still_read() {
        let record = full_record();
        let plain = serde_json::to_string(&record).unwrap_or_default();
        assert_eq!(decode(&plain), Ok(record));
    }

    #[test]
    fn the_stored_form_is_a_small_fraction_of_the_plain_one() {
        let record = full_record();
        let plain = serde_json::to_string(&record).unwrap_or_default().len();
        let stored = encode(&record).len();
        assert!(stored * 10 < plain, "{stored} bytes stored, {plain} plain");
    }

    #[test]
    fn damaged_records_are_refused_with_a_reason() {
        let text = encode(&full_record());
        let bytes = BASE64.decode(&text[PREFIX.len()..]).unwrap_or_default();
        let with = |bytes: &[u8]| format!("{PREFIX}{}", BASE64.encode(bytes));
        let mut small_ring = bytes.clone();
        // After the player (7: one byte) comes the ring's capacity (50): a ring of 50 outcomes
        // stored with a capacity of 10 is refused.
        small_ring[1] = 10;
        for (bad, reason) in [
            (with(&bytes[..bytes.len() - 1]), "ends early"),
            (with(&[bytes.as_slice(), &[0]].concat()), "left over"),
            (format!("{PREFIX}***"), "base64"),
            ("not json".to_string(), "expected"),
        ] {
            let err = decode(&bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(reason), "{reason}: {err}");
        }
        let err = decode(&with(&small_ring))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("50 recent outcomes, at most 10 kept"), "{err}");
    }

    #[test]
    fn extreme_values_round_trip() {
        let mut record = full_record();
        record.totals.rating_lost_leaving_early = i64::MIN + 1;
        record.totals.games = u32::MAX;
        record.recent[0].game = GameNumber(i64::MAX);
        record.recent[0].rating_change = Some(i32::MIN);
        record.recent[0].disconnects = u32::MAX;
        record.latest_day = Some(-5);
        assert_eq!(decode(&encode(&record)), Ok(record));
    }
}
