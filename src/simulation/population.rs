//! The population and the tables: players with an activity and a skill, the colluding pairs
//! drawn from them, alts, shared networks, and who sits at which table when.

use std::collections::HashMap;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use rand::distributions::{Distribution, WeightedIndex};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::colluding_pair::{ColludingPair, CollusionKind};
use super::config::SimulationConfig;

/// One account.
#[derive(Debug, Clone)]
pub(super) struct Player {
    pub name: String,
    pub device_fp: String,
    pub network_fp: String,
    /// Amplitude of the random noise added to each move's score: the lack of skill.
    pub noise: f64,
    /// Rating at the player's first game (follows skill).
    pub rating: i32,
}

/// One table: player indices in seat order (Red, Blue, Yellow, Green) and its start.
#[derive(Debug, Clone)]
pub(super) struct Table {
    pub players: [usize; 4],
    pub started_at: NaiveDateTime,
}

/// How a player treats one opponent at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stance {
    /// Never give this opponent check.
    pub no_check: bool,
    pub capture: CaptureRule,
    /// On some turns, leave a piece en prise to this opponent only.
    pub gifts: bool,
}

/// Which captures of an opponent's pieces a player allows itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CaptureRule {
    Any,
    /// Only a piece the opponent cannot take back (a gift).
    FreeOnly,
    Never,
}

impl Stance {
    pub const HONEST: Stance = Stance {
        no_check: false,
        capture: CaptureRule::Any,
        gifts: false,
    };

    /// The stance of `mover` toward `target` when they form a pair of `kind` (`mover_is_first`
    /// says which side of the pair the mover is).
    fn of(kind: CollusionKind, mover_is_first: bool) -> Stance {
        match kind {
            CollusionKind::Sparing => Stance {
                no_check: true,
                capture: CaptureRule::Never,
                gifts: false,
            },
            CollusionKind::Feeding => Stance {
                no_check: true,
                capture: CaptureRule::FreeOnly,
                gifts: true,
            },
            // `first` is the main account: it takes what the alt offers.
            CollusionKind::SelfPartnering if mover_is_first => Stance {
                no_check: true,
                capture: CaptureRule::Any,
                gifts: false,
            },
            CollusionKind::SelfPartnering => Stance {
                no_check: true,
                capture: CaptureRule::Never,
                gifts: true,
            },
        }
    }
}

/// Everything drawn before play: the population, the pairs, the tables in played order.
#[derive(Debug, Clone)]
pub struct Plan {
    pub(super) seed: u64,
    pub(super) max_rounds: u32,
    pub(super) players: Vec<Player>,
    pub(super) colluding: Vec<ColludingPair>,
    /// Player indices of each pair in `colluding`, same order.
    pub(super) pair_members: Vec<(usize, usize)>,
    /// (a, b) -> index in `colluding`, both orders.
    pub(super) pair_of: HashMap<(usize, usize), usize>,
    /// Player indices of each ring (three players who all spare one another).
    pub(super) rings: Vec<[usize; 3]>,
    pub(super) tables: Vec<Table>,
}

impl Plan {
    /// The colluding pairs (the truth to detect).
    pub fn colluding(&self) -> &[ColludingPair] {
        &self.colluding
    }

    /// The rings' members (their pairs are also in [`Plan::colluding`], as sparing pairs).
    pub fn rings(&self) -> Vec<[String; 3]> {
        self.rings
            .iter()
            .map(|ring| ring.map(|p| self.players[p].name.clone()))
            .collect()
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Stances of the player at `seat` toward each seat of table `index`.
    pub(super) fn stances(&self, table: &Table, seat: usize) -> [Stance; 4] {
        let me = table.players[seat];
        std::array::from_fn(|other| {
            let them = table.players[other];
            match self.pair_of.get(&(me, them)) {
                Some(&pair) if other != seat => {
                    let kind = self.colluding[pair].kind;
                    Stance::of(kind, self.pair_members[pair].0 == me)
                }
                _ => Stance::HONEST,
            }
        })
    }
}

/// A standard normal draw (Box-Muller; `rand` 0.8 has no normal distribution without
/// `rand_distr`).
fn normal(rng: &mut StdRng) -> f64 {
    let u1: f64 = rng.gen_range(f64::EPSILON..1.0);
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn fingerprint(rng: &mut StdRng, prefix: &str) -> String {
    format!("{prefix}-{:016x}", rng.gen::<u64>())
}

/// Draw the whole plan from the seed.
pub(super) fn build(config: &SimulationConfig) -> Plan {
    let mut rng = StdRng::seed_from_u64(config.seed ^ 0x5EED_0F7A_B1E5);
    let mut players = Vec::with_capacity(config.players + config.self_partnering);
    // Activity is heavy-tailed (lognormal): a few regulars play most games, so some honest
    // pairs meet dozens of times by chance while most pairs meet rarely or never.
    let mut activity = Vec::with_capacity(config.players);
    for i in 0..config.players {
        let noise = 1.2 * (0.6 * normal(&mut rng)).exp();
        let rating = (1700.0 - 350.0 * (noise / 1.2).ln()).clamp(800.0, 2800.0) as i32;
        activity.push((1.3 * normal(&mut rng)).exp());
        players.push(Player {
            name: format!("sim{:04}", i + 1),
            device_fp: fingerprint(&mut rng, "dev"),
            network_fp: fingerprint(&mut rng, "net"),
            noise,
            rating,
        });
    }

    // Colluders: distinct players, drawn without replacement.
    let mut order: Vec<usize> = (0..config.players).collect();
    order.shuffle(&mut rng);
    let mut free = order.into_iter();
    let mut colluding = Vec::new();
    let mut pair_members = Vec::new();
    let arranged = |k: usize| -> u32 {
        if config.arranged_games.is_empty() {
            0
        } else {
            config.arranged_games[k % config.arranged_games.len()]
        }
    };
    let kinds = [
        (CollusionKind::Sparing, config.sparing_pairs),
        (CollusionKind::Feeding, config.feeding_pairs),
    ];
    for (kind, count) in kinds {
        for k in 0..count {
            let (Some(a), Some(b)) = (free.next(), free.next()) else {
                break;
            };
            pair_members.push((a, b));
            colluding.push(ColludingPair {
                first: players[a].name.clone(),
                second: players[b].name.clone(),
                kind,
                arranged_games: arranged(k),
            });
        }
    }
    for k in 0..config.self_partnering {
        let Some(main) = free.next() else {
            break;
        };
        // The alt is a new account on the same device and network, of the same person.
        let alt = Player {
            name: format!("{}alt", players[main].name),
            ..players[main].clone()
        };
        players.push(alt);
        let alt = players.len() - 1;
        pair_members.push((main, alt));
        colluding.push(ColludingPair {
            first: players[main].name.clone(),
            second: players[alt].name.clone(),
            kind: CollusionKind::SelfPartnering,
            arranged_games: arranged(k),
        });
    }

    // Rings: three players who all spare one another, arranging tables for the three of them
    // (their pairs come last, so that they arrange no pair tables of their own).
    let pair_tables = pair_members.len();
    let mut rings = Vec::new();
    for k in 0..config.rings {
        let (Some(a), Some(b), Some(c)) = (free.next(), free.next(), free.next()) else {
            break;
        };
        for (x, y) in [(a, b), (a, c), (b, c)] {
            pair_members.push((x, y));
            colluding.push(ColludingPair {
                first: players[x].name.clone(),
                second: players[y].name.clone(),
                kind: CollusionKind::Sparing,
                arranged_games: arranged(k),
            });
        }
        rings.push([a, b, c]);
    }

    // Households and clubs: about 2.5% of the honest players share a network with another
    // honest player, an innocent source of suspicion.
    let honest: Vec<usize> = free.collect();
    let sharing =
        ((config.players as f64 * 0.025).round() as usize / 2 * 2).min(honest.len() / 2 * 2);
    for chunk in honest[..sharing].chunks(2) {
        if let [a, b] = *chunk {
            players[b].network_fp = players[a].network_fp.clone();
        }
    }

    let mut pair_of = HashMap::new();
    for (i, &(a, b)) in pair_members.iter().enumerate() {
        pair_of.insert((a, b), i);
        pair_of.insert((b, a), i);
    }

    // Tables: matchmaking draws by activity (alts never queue alone); each pair arranges its
    // own tables with two others. All are then shuffled over time, seats at random.
    let mut seatings: Vec<[usize; 4]> = Vec::new();
    if config.players >= 4 {
        if let Ok(weights) = WeightedIndex::new(&activity) {
            for _ in 0..config.games {
                seatings.push(draw_table(&mut rng, &weights, &[]));
            }
            for (pair, &(a, b)) in pair_members[..pair_tables].iter().enumerate() {
                for _ in 0..colluding[pair].arranged_games {
                    seatings.push(draw_table(&mut rng, &weights, &[a, b]));
                }
            }
            for (k, ring) in rings.iter().enumerate() {
                for _ in 0..colluding[pair_tables + 3 * k].arranged_games {
                    seatings.push(draw_table(&mut rng, &weights, ring));
                }
            }
        }
    }
    seatings.shuffle(&mut rng);
    let start = NaiveDate::from_ymd_opt(2026, 3, 2)
        .and_then(|d| d.and_hms_opt(8, 0, 0))
        .unwrap_or_default();
    let mut at = start;
    let tables = seatings
        .into_iter()
        .map(|mut players| {
            players.shuffle(&mut rng);
            at += Duration::seconds(rng.gen_range(15..150));
            Table {
                players,
                started_at: at,
            }
        })
        .collect();

    Plan {
        seed: config.seed,
        max_rounds: config.max_rounds,
        players,
        colluding,
        pair_members,
        pair_of,
        rings,
        tables,
    }
}

/// Four distinct players: `fixed` first, the rest drawn by activity.
fn draw_table(rng: &mut StdRng, weights: &WeightedIndex<f64>, fixed: &[usize]) -> [usize; 4] {
    let mut table = [usize::MAX; 4];
    table[..fixed.len()].copy_from_slice(fixed);
    let mut filled = fixed.len();
    while filled < 4 {
        let p = weights.sample(rng);
        if !table[..filled].contains(&p) {
            table[filled] = p;
            filled += 1;
        }
    }
    table
}
