//! The preset texts and the words that fill their placeholders, in every [`Language`]:
//! `config/presets/<code>.toml`, embedded. English is the fallback for a missing translation,
//! and the only language of a preset the site rewrote (`[moderation] presets_file`): a
//! translation follows the built-in preset it was written for (docs/moderation.md,
//! "Languages").

use std::collections::HashMap;
use std::fmt;

use serde::Deserialize;

use super::language::{Language, Plural};
use super::preset::{placeholders, DecisionPreset, DecisionPresets};
use super::types::{Ground, ReportReason, SanctionKind};

/// The embedded language files, by language.
const FILES: [(Language, &str); 8] = [
    (Language::En, include_str!("../../config/presets/en.toml")),
    (Language::Es, include_str!("../../config/presets/es.toml")),
    (Language::Pt, include_str!("../../config/presets/pt.toml")),
    (Language::De, include_str!("../../config/presets/de.toml")),
    (Language::Fr, include_str!("../../config/presets/fr.toml")),
    (Language::Ru, include_str!("../../config/presets/ru.toml")),
    (Language::Tr, include_str!("../../config/presets/tr.toml")),
    (Language::Pl, include_str!("../../config/presets/pl.toml")),
];

/// A unit's word by plural category.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitWords {
    one: String,
    #[serde(default)]
    few: Option<String>,
    #[serde(default)]
    many: Option<String>,
    #[serde(default)]
    other: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    pub day: UnitWords,
    pub hour: UnitWords,
    pub minute: UnitWords,
}

/// The sentence a warning without preset or note reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarningWords {
    pub with_ground: String,
    pub without_ground: String,
}

/// What fills the placeholders in one language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    pub none_cited: String,
    pub permanent_until: String,
    reason: HashMap<ReportReason, String>,
    ground: HashMap<Ground, String>,
    sanction: HashMap<SanctionKind, String>,
    sanction_permanent: HashMap<SanctionKind, String>,
    unit: Units,
    pub warning: WarningWords,
    /// Whose plural rules the units follow; set when the file is loaded.
    #[serde(skip)]
    language: Option<Language>,
}

impl Words {
    pub fn reason(&self, reason: ReportReason) -> &str {
        self.reason.get(&reason).map_or("", String::as_str)
    }

    pub fn ground(&self, ground: Ground) -> &str {
        self.ground.get(&ground).map_or("", String::as_str)
    }

    /// A sanction in words: "a chat ban of 3 days", "a permanent play ban".
    pub fn sanction(&self, kind: SanctionKind, minutes: Option<u32>) -> String {
        let Some(minutes) = minutes else {
            return self
                .sanction_permanent
                .get(&kind)
                .cloned()
                .unwrap_or_default();
        };
        let template = self.sanction.get(&kind).map_or("", String::as_str);
        template.replace("{length}", &self.length(minutes))
    }

    /// "3 days", "1 hour", "90 minutes": the largest unit that divides evenly.
    fn length(&self, minutes: u32) -> String {
        let (count, unit) = if minutes.is_multiple_of(1440) {
            (minutes / 1440, &self.unit.day)
        } else if minutes.is_multiple_of(60) {
            (minutes / 60, &self.unit.hour)
        } else {
            (minutes, &self.unit.minute)
        };
        format!("{count} {}", unit.word(self.plural_of(count)))
    }

    fn plural_of(&self, count: u32) -> Plural {
        self.language.unwrap_or(Language::En).plural(count)
    }
}

impl UnitWords {
    fn word(&self, plural: Plural) -> &str {
        let chosen = match plural {
            Plural::One => Some(&self.one),
            Plural::Few => self.few.as_ref(),
            Plural::Many => self.many.as_ref(),
            Plural::Other => self.other.as_ref(),
        };
        chosen
            .or(self.other.as_ref())
            .or(self.many.as_ref())
            .unwrap_or(&self.one)
    }

    fn has(&self, plural: Plural) -> bool {
        match plural {
            Plural::One => true,
            Plural::Few => self.few.is_some(),
            Plural::Many => self.many.is_some(),
            Plural::Other => self.other.is_some(),
        }
    }
}

/// One preset's texts in one language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TranslatedPreset {
    pub key: String,
    pub title: String,
    pub text: String,
    #[serde(default)]
    pub reporter_text: Option<String>,
}

/// One language file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguageFile {
    language: Language,
    words: Words,
    #[serde(default, rename = "preset")]
    presets: Vec<TranslatedPreset>,
}

/// Why the language files were refused (a test loads them, so a release never ships one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextsError(pub String);

impl fmt::Display for TextsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "preset translations: {}", self.0)
    }
}

impl std::error::Error for TextsError {}

/// Every language's words and preset translations, checked against the built-in presets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texts {
    files: HashMap<Language, LanguageFile>,
    /// The presets the translations were written for.
    built_in: DecisionPresets,
}

impl Texts {
    /// The embedded files, checked: each names its language, lists every word, and translates
    /// only built-in presets, with the placeholders of the English text.
    pub fn built_in() -> Result<Texts, TextsError> {
        let built_in = DecisionPresets::built_in();
        let mut files = HashMap::new();
        for (language, text) in FILES {
            let code = language.code();
            let mut file: LanguageFile =
                toml::from_str(text).map_err(|e| TextsError(format!("{code}.toml: {e}")))?;
            if file.language != language {
                return Err(TextsError(format!("{code}.toml names another language")));
            }
            file.words.language = Some(language);
            check_words(&file.words, language)?;
            for translated in &file.presets {
                check_translation(translated, &built_in, code)?;
            }
            files.insert(language, file);
        }
        Ok(Texts { files, built_in })
    }

    /// The words of `language`, English where a file is missing.
    pub fn words(&self, language: Language) -> &Words {
        self.files
            .get(&language)
            .or_else(|| self.files.get(&Language::En))
            .map(|f| &f.words)
            .unwrap_or_else(|| english_words())
    }

    /// The preset's translation into `language`, if the site kept the built-in preset and the
    /// language has one.
    fn translation(
        &self,
        preset: &DecisionPreset,
        language: Language,
    ) -> Option<&TranslatedPreset> {
        if self.built_in.find(&preset.key) != Some(preset) {
            return None;
        }
        self.files
            .get(&language)?
            .presets
            .iter()
            .find(|t| t.key == preset.key)
    }

    /// The text to the player in `language` (English when untranslated).
    pub fn player_text<'a>(&'a self, preset: &'a DecisionPreset, language: Language) -> &'a str {
        self.translation(preset, language)
            .map_or(preset.text.as_str(), |t| t.text.as_str())
    }

    /// The text to reporters in `language` (English when untranslated), if the preset has one.
    pub fn reporter_text<'a>(
        &'a self,
        preset: &'a DecisionPreset,
        language: Language,
    ) -> Option<&'a str> {
        let english = preset.reporter_text.as_deref()?;
        Some(
            self.translation(preset, language)
                .and_then(|t| t.reporter_text.as_deref())
                .unwrap_or(english),
        )
    }
}

/// English words when the files could not be read: what the service renders with before
/// `Texts::built_in` is checked (a test and start-up check it).
fn english_words() -> &'static Words {
    static ENGLISH: std::sync::OnceLock<Words> = std::sync::OnceLock::new();
    ENGLISH.get_or_init(|| {
        let mut words = toml::from_str::<LanguageFile>(FILES[0].1)
            .map(|f| f.words)
            .unwrap_or_else(|_| empty_words());
        words.language = Some(Language::En);
        words
    })
}

fn empty_words() -> Words {
    let unit = || UnitWords {
        one: String::new(),
        few: None,
        many: None,
        other: None,
    };
    Words {
        none_cited: String::new(),
        permanent_until: String::new(),
        reason: HashMap::new(),
        ground: HashMap::new(),
        sanction: HashMap::new(),
        sanction_permanent: HashMap::new(),
        unit: Units {
            day: unit(),
            hour: unit(),
            minute: unit(),
        },
        warning: WarningWords {
            with_ground: String::new(),
            without_ground: String::new(),
        },
        language: None,
    }
}

/// The English words (`config/presets/en.toml`).
pub fn english() -> &'static Words {
    english_words()
}

/// Every word present, units in the language's plural categories, templates with their
/// placeholders.
fn check_words(words: &Words, language: Language) -> Result<(), TextsError> {
    let code = language.code();
    let missing = |what: String| TextsError(format!("{code}.toml lacks {what}"));
    for reason in ReportReason::ALL {
        if words.reason(reason).is_empty() {
            return Err(missing(format!("words.reason.{reason:?}")));
        }
    }
    for ground in Ground::ALL {
        if words.ground(ground).is_empty() {
            return Err(missing(format!("words.ground.{ground:?}")));
        }
    }
    for kind in SanctionKind::ALL {
        let timed = words.sanction.get(&kind).map_or("", String::as_str);
        if !timed.contains("{length}") {
            return Err(missing(format!("words.sanction.{kind:?} with {{length}}")));
        }
        if words
            .sanction_permanent
            .get(&kind)
            .is_none_or(String::is_empty)
        {
            return Err(missing(format!("words.sanction_permanent.{kind:?}")));
        }
    }
    for n in [0, 1, 2, 3, 5, 11, 12, 21, 22, 25] {
        let plural = language.plural(n);
        for (name, unit) in [
            ("day", &words.unit.day),
            ("hour", &words.unit.hour),
            ("minute", &words.unit.minute),
        ] {
            if !unit.has(plural) {
                return Err(missing(format!("words.unit.{name}.{plural:?}")));
            }
        }
    }
    let warning = &words.warning;
    let complete = warning.with_ground.contains("{reason}")
        && warning.with_ground.contains("{ground}")
        && warning.without_ground.contains("{reason}");
    if !complete {
        return Err(missing("words.warning with its placeholders".into()));
    }
    Ok(())
}

/// A translation of a built-in preset, with exactly the placeholders of its English text.
fn check_translation(
    translated: &TranslatedPreset,
    built_in: &DecisionPresets,
    code: &str,
) -> Result<(), TextsError> {
    let key = &translated.key;
    let preset = built_in
        .find(key)
        .ok_or_else(|| TextsError(format!("{code}.toml translates an unknown preset {key:?}")))?;
    let same = |english: &str, translation: &str| {
        let mut a = placeholders(english).unwrap_or_default();
        let mut b = placeholders(translation).unwrap_or_default();
        a.sort_unstable();
        a.dedup();
        b.sort_unstable();
        b.dedup();
        a == b && placeholders(translation).is_some()
    };
    let reporter_matches = match (&preset.reporter_text, &translated.reporter_text) {
        (Some(english), Some(translation)) => same(english, translation),
        (None, None) => true,
        _ => false,
    };
    if !same(&preset.text, &translated.text) || !reporter_matches {
        return Err(TextsError(format!(
            "{code}.toml: preset {key:?} must use the placeholders of its English text"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_file_loads_and_translates_every_built_in_preset() {
        let texts = Texts::built_in().expect("language files");
        for language in Language::ALL {
            let file = texts.files.get(&language).expect("file");
            if language == Language::En {
                continue;
            }
            let keys: Vec<&str> = file.presets.iter().map(|p| p.key.as_str()).collect();
            let built_in: Vec<&str> = texts
                .built_in
                .presets
                .iter()
                .map(|p| p.key.as_str())
                .collect();
            assert_eq!(keys, built_in, "{language:?}");
        }
    }

    #[test]
    fn lengths_take_the_plural_of_their_language() {
        let texts = Texts::built_in().expect("language files");
        let en = texts.words(Language::En);
        assert_eq!(
            en.sanction(SanctionKind::ChatBan, Some(4320)),
            "a chat ban of 3 days"
        );
        assert_eq!(
            en.sanction(SanctionKind::PlayBan, Some(60)),
            "a play ban of 1 hour"
        );
        assert_eq!(
            en.sanction(SanctionKind::ClubBan, None),
            "a permanent club ban"
        );
        let ru = texts.words(Language::Ru);
        let days = |n: u32| ru.length(n * 1440);
        assert_ne!(days(1).split(' ').nth(1), days(2).split(' ').nth(1));
        assert_ne!(days(2).split(' ').nth(1), days(5).split(' ').nth(1));
        assert_eq!(days(21).split(' ').nth(1), days(1).split(' ').nth(1));
    }

    #[test]
    fn a_rewritten_preset_is_not_translated() {
        let texts = Texts::built_in().expect("language files");
        let mut preset = texts.built_in.presets[0].clone();
        assert_ne!(texts.player_text(&preset, Language::De), preset.text);
        preset.text = "Our own words.".into();
        assert_eq!(texts.player_text(&preset, Language::De), "Our own words.");
    }
}
