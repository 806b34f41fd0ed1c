//! The population and the tables: players with an activity and a skill, the colluding pairs
//! drawn from them, alts, shared networks, and who sits at which table when.

use std::collections::HashMap;
use std::vec::IntoIter;

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
    let (mut players, activity) = draw_players(&mut rng, config);
    // Colluders: distinct players, drawn without replacement.
    let mut order: Vec<usize> = (0..config.players).collect();
    order.shuffle(&mut rng);
    let mut free = order.into_iter();
    let mut colluders = Colluders::default();
    colluders.draw_pairs(config, &players, &mut free);
    colluders.add_self_partners(config, &mut players, &mut free);
    // Rings' pairs come last, so that they arrange no pair tables of their own.
    let pair_tables = colluders.pair_members.len();
    colluders.draw_rings(config, &players, &mut free);
    let honest: Vec<usize> = free.collect();
    share_networks(config, &mut players, &honest);
    let pair_of = pair_index(&colluders.pair_members);
    let seatings = draw_seatings(&mut rng, config, &activity, &colluders, pair_tables);
    let tables = schedule(&mut rng, seatings);
    Plan {
        seed: config.seed,
        max_rounds: config.max_rounds,
        players,
        colluding: colluders.colluding,
        pair_members: colluders.pair_members,
        pair_of,
        rings: colluders.rings,
        tables,
    }
}

/// The honest population and each player's activity (relative rate of play). Activity is
/// heavy-tailed (lognormal): a few regulars play most games, so some honest pairs meet dozens
/// of times by chance while most pairs meet rarely or never.
fn draw_players(rng: &mut StdRng, config: &SimulationConfig) -> (Vec<Player>, Vec<f64>) {
    let mut players = Vec::with_capacity(config.players + config.self_partnering);
    let mut activity = Vec::with_capacity(config.players);
    for i in 0..config.players {
        let noise = 1.2 * (0.6 * normal(rng)).exp();
        let rating = (1700.0 - 350.0 * (noise / 1.2).ln()).clamp(800.0, 2800.0) as i32;
        activity.push((1.3 * normal(rng)).exp());
        players.push(Player {
            name: format!("sim{:04}", i + 1),
            device_fp: fingerprint(rng, "dev"),
            network_fp: fingerprint(rng, "net"),
            noise,
            rating,
        });
    }
    (players, activity)
}

/// Games the `k`-th pair of a kind arranges: the configured counts, cyclically.
fn arranged(config: &SimulationConfig, k: usize) -> u32 {
    if config.arranged_games.is_empty() {
        0
    } else {
        config.arranged_games[k % config.arranged_games.len()]
    }
}

/// The colluders drawn so far: their pairs, with the players of each, and the rings.
#[derive(Default)]
struct Colluders {
    colluding: Vec<ColludingPair>,
    /// Player indices of each pair in `colluding`, same order.
    pair_members: Vec<(usize, usize)>,
    rings: Vec<[usize; 3]>,
}

impl Colluders {
    fn add_pair(
        &mut self,
        players: &[Player],
        (a, b): (usize, usize),
        kind: CollusionKind,
        arranged_games: u32,
    ) {
        self.pair_members.push((a, b));
        self.colluding.push(ColludingPair {
            first: players[a].name.clone(),
            second: players[b].name.clone(),
            kind,
            arranged_games,
        });
    }

    /// Sparing pairs, then feeding pairs, of players not yet drawn.
    fn draw_pairs(
        &mut self,
        config: &SimulationConfig,
        players: &[Player],
        free: &mut IntoIter<usize>,
    ) {
        let kinds = [
            (CollusionKind::Sparing, config.sparing_pairs),
            (CollusionKind::Feeding, config.feeding_pairs),
        ];
        for (kind, count) in kinds {
            for k in 0..count {
                let (Some(a), Some(b)) = (free.next(), free.next()) else {
                    break;
                };
                self.add_pair(players, (a, b), kind, arranged(config, k));
            }
        }
    }

    /// Players who also play an alt: a new account on the same device and network, of the
    /// same person.
    fn add_self_partners(
        &mut self,
        config: &SimulationConfig,
        players: &mut Vec<Player>,
        free: &mut IntoIter<usize>,
    ) {
        for k in 0..config.self_partnering {
            let Some(main) = free.next() else {
                break;
            };
            let alt = Player {
                name: format!("{}alt", players[main].name),
                ..players[main].clone()
            };
            players.push(alt);
            let alt = players.len() - 1;
            self.add_pair(
                players,
                (main, alt),
                CollusionKind::SelfPartnering,
                arranged(config, k),
            );
        }
    }

    /// Rings: three players who all spare one another (three sparing pairs), arranging
    /// tables for the three of them.
    fn draw_rings(
        &mut self,
        config: &SimulationConfig,
        players: &[Player],
        free: &mut IntoIter<usize>,
    ) {
        for k in 0..config.rings {
            let (Some(a), Some(b), Some(c)) = (free.next(), free.next(), free.next()) else {
                break;
            };
            for pair in [(a, b), (a, c), (b, c)] {
                self.add_pair(players, pair, CollusionKind::Sparing, arranged(config, k));
            }
            self.rings.push([a, b, c]);
        }
    }
}

/// Households and clubs: about 2.5% of the honest players share a network with another
/// honest player, an innocent source of suspicion.
fn share_networks(config: &SimulationConfig, players: &mut [Player], honest: &[usize]) {
    let sharing =
        ((config.players as f64 * 0.025).round() as usize / 2 * 2).min(honest.len() / 2 * 2);
    for chunk in honest[..sharing].chunks(2) {
        if let [a, b] = *chunk {
            players[b].network_fp = players[a].network_fp.clone();
        }
    }
}

/// (a, b) -> index of their pair, both orders.
fn pair_index(pair_members: &[(usize, usize)]) -> HashMap<(usize, usize), usize> {
    let mut pair_of = HashMap::new();
    for (i, &(a, b)) in pair_members.iter().enumerate() {
        pair_of.insert((a, b), i);
        pair_of.insert((b, a), i);
    }
    pair_of
}

/// Who sits together: matchmaking draws by activity (alts never queue alone); each pair (the
/// first `pair_tables`) and each ring arranges its own tables with others drawn so.
fn draw_seatings(
    rng: &mut StdRng,
    config: &SimulationConfig,
    activity: &[f64],
    colluders: &Colluders,
    pair_tables: usize,
) -> Vec<[usize; 4]> {
    let mut seatings: Vec<[usize; 4]> = Vec::new();
    if config.players < 4 {
        return seatings;
    }
    let Ok(weights) = WeightedIndex::new(activity) else {
        return seatings;
    };
    for _ in 0..config.games {
        seatings.push(draw_table(rng, &weights, &[]));
    }
    let colluding = &colluders.colluding;
    for (pair, &(a, b)) in colluders.pair_members[..pair_tables].iter().enumerate() {
        for _ in 0..colluding[pair].arranged_games {
            seatings.push(draw_table(rng, &weights, &[a, b]));
        }
    }
    for (k, ring) in colluders.rings.iter().enumerate() {
        for _ in 0..colluding[pair_tables + 3 * k].arranged_games {
            seatings.push(draw_table(rng, &weights, ring));
        }
    }
    seatings
}

/// The tables in played order: seatings shuffled over time from 2 March 2026, seats at
/// random, each table 15 s to 150 s after the one before.
fn schedule(rng: &mut StdRng, mut seatings: Vec<[usize; 4]>) -> Vec<Table> {
    seatings.shuffle(rng);
    let start = NaiveDate::from_ymd_opt(2026, 3, 2)
        .and_then(|d| d.and_hms_opt(8, 0, 0))
        .unwrap_or_default();
    let mut at = start;
    seatings
        .into_iter()
        .map(|mut players| {
            players.shuffle(rng);
            at += Duration::seconds(rng.gen_range(15..150));
            Table {
                players,
                started_at: at,
            }
        })
        .collect()
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
