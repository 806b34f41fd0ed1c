//! Strictness per category, set by admins (`docs/chat-analysis.md`, "Strictness"): how hard a
//! flag of each category is acted on. Medium is the analyser as built; high counts every flag
//! of the category one severity higher (a medium flag blocks instead of warning), low one
//! lower, and off drops the category's flags, so they neither warn, block nor report.

use serde::{Deserialize, Serialize};

use super::types::{Category, Flag, Severity};

/// How hard flags of one category are acted on.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Strictness {
    Off,
    Low,
    #[default]
    Medium,
    High,
}

impl Strictness {
    pub const ALL: [Strictness; 4] = [
        Strictness::Off,
        Strictness::Low,
        Strictness::Medium,
        Strictness::High,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strictness::Off => "off",
            Strictness::Low => "low",
            Strictness::Medium => "medium",
            Strictness::High => "high",
        }
    }

    pub fn from_name(name: &str) -> Option<Strictness> {
        Strictness::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The strictness of every category; medium where nothing was set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StrictnessLevels {
    /// Only the categories set to something other than medium.
    changed: Vec<(Category, Strictness)>,
}

impl StrictnessLevels {
    pub fn of(&self, category: Category) -> Strictness {
        self.changed
            .iter()
            .find(|(c, _)| *c == category)
            .map_or(Strictness::Medium, |(_, s)| *s)
    }

    pub fn set(&mut self, category: Category, strictness: Strictness) {
        self.changed.retain(|(c, _)| *c != category);
        if strictness != Strictness::Medium {
            self.changed.push((category, strictness));
        }
    }

    /// Every category with its strictness, in `Category::ALL` order.
    pub fn all(&self) -> impl Iterator<Item = (Category, Strictness)> + '_ {
        Category::ALL.into_iter().map(|c| (c, self.of(c)))
    }

    /// Adjusts `flags[from..]` to their categories' strictness: drops those of categories that
    /// are off and moves the others' severity. With every category at medium nothing changes,
    /// and the live check pays one comparison.
    pub fn apply(&self, flags: &mut Vec<Flag>, from: usize) {
        if self.changed.is_empty() || from >= flags.len() {
            return;
        }
        let mut index = from;
        while index < flags.len() {
            let strictness = self.of(flags[index].category);
            if strictness == Strictness::Off {
                flags.remove(index);
                continue;
            }
            adjust(&mut flags[index], strictness);
            index += 1;
        }
    }
}

/// One flag at a strictness other than off.
fn adjust(flag: &mut Flag, strictness: Strictness) {
    let before = flag.severity;
    flag.severity = match strictness {
        Strictness::High => before.raise(),
        Strictness::Low => before.lower(),
        Strictness::Medium | Strictness::Off => before,
    };
    if flag.severity == before {
        return;
    }
    // A flag raised to block is worth a report; one lowered to "recorded only" is not.
    if flag.severity >= Severity::High {
        flag.report_worthy = true;
    } else if flag.severity == Severity::Low {
        flag.report_worthy = false;
    }
    flag.explanation.push_str(&format!(
        " ({} strictness {})",
        flag.category.name(),
        strictness.name()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::types::{Action, Span};

    fn flag(category: Category, severity: Severity) -> Flag {
        Flag {
            category,
            severity,
            span: Span::new(0, 4),
            rule: "lexicon:test:x".into(),
            explanation: "x".into(),
            report_worthy: severity >= Severity::High,
            evidence: None,
            learned: None,
        }
    }

    #[test]
    fn medium_everywhere_changes_nothing() {
        let levels = StrictnessLevels::default();
        let mut flags = vec![flag(Category::Insult, Severity::Medium)];
        let before = flags.clone();
        levels.apply(&mut flags, 0);
        assert_eq!(flags, before);
    }

    #[test]
    fn each_level_moves_the_action() {
        let cases = [
            (Strictness::Off, None),
            (Strictness::Low, Some((Action::Allow, false))),
            (Strictness::Medium, Some((Action::Warn, false))),
            (Strictness::High, Some((Action::Block, true))),
        ];
        for (strictness, expected) in cases {
            let mut levels = StrictnessLevels::default();
            levels.set(Category::Insult, strictness);
            let mut flags = vec![
                flag(Category::Profanity, Severity::Medium),
                flag(Category::Insult, Severity::Medium),
            ];
            levels.apply(&mut flags, 0);
            let insult = flags.iter().find(|f| f.category == Category::Insult);
            assert_eq!(
                insult.map(|f| (f.action(), f.report_worthy)),
                expected,
                "{strictness:?}"
            );
            // Another category keeps its own level.
            assert_eq!(flags[0].severity, Severity::Medium);
        }
    }

    #[test]
    fn flags_before_from_are_left_alone() {
        let mut levels = StrictnessLevels::default();
        levels.set(Category::Flooding, Strictness::Off);
        let mut flags = vec![
            flag(Category::Flooding, Severity::Medium),
            flag(Category::Flooding, Severity::Medium),
        ];
        levels.apply(&mut flags, 1);
        assert_eq!(flags.len(), 1);
    }

    #[test]
    fn setting_medium_again_forgets_the_category() {
        let mut levels = StrictnessLevels::default();
        levels.set(Category::Sexual, Strictness::High);
        levels.set(Category::Sexual, Strictness::Medium);
        assert_eq!(levels, StrictnessLevels::default());
        assert_eq!(Strictness::from_name("off"), Some(Strictness::Off));
    }
}
