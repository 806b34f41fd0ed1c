//! The languages players read Arbiter's texts in: the preset texts exist in each (English the
//! fallback). A player's language comes from their token's `locale` claim or the request's
//! `Accept-Language`, kept as their last known language (docs/moderation.md, "Languages").

use serde::{Deserialize, Serialize};

/// A language the preset texts are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    En,
    Es,
    Pt,
    De,
    Fr,
    Ru,
    Tr,
    Pl,
}

/// CLDR plural categories the unit words use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plural {
    One,
    Few,
    Many,
    Other,
}

impl Language {
    pub const ALL: [Language; 8] = [
        Language::En,
        Language::Es,
        Language::Pt,
        Language::De,
        Language::Fr,
        Language::Ru,
        Language::Tr,
        Language::Pl,
    ];

    /// The ISO 639-1 code, e.g. `pt`.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Es => "es",
            Language::Pt => "pt",
            Language::De => "de",
            Language::Fr => "fr",
            Language::Ru => "ru",
            Language::Tr => "tr",
            Language::Pl => "pl",
        }
    }

    /// The language of a BCP 47 tag (`pt-BR`, `de`, `ru_RU`), by its primary subtag; `None`
    /// for a language the texts are not written in.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The most preferred language of an `Accept-Language` header that the texts are written
    /// in (RFC 9110, section 12.5.4: weights `q`, highest first; equal weights in order).
    pub fn from_accept_language(header: &str) -> Option<Language> {
        let mut best: Option<(Language, u16)> = None;
        for item in header.split(',') {
            let mut parts = item.split(';');
            let tag = parts.next().unwrap_or_default();
            let weight = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1000), quality);
            let (Some(language), Some(weight)) = (Language::from_tag(tag), weight) else {
                continue;
            };
            if weight > 0 && best.is_none_or(|(_, w)| weight > w) {
                best = Some((language, weight));
            }
        }
        best.map(|(language, _)| language)
    }

    /// The plural category of `n` for unit words (CLDR plural rules, cardinal, integers).
    pub fn plural(self, n: u32) -> Plural {
        let (last, last_two) = (n % 10, n % 100);
        let few = (2..=4).contains(&last) && !(12..=14).contains(&last_two);
        match self {
            Language::Ru if last == 1 && last_two != 11 => Plural::One,
            Language::Ru if few => Plural::Few,
            Language::Ru => Plural::Many,
            Language::Pl if n == 1 => Plural::One,
            Language::Pl if few => Plural::Few,
            Language::Pl => Plural::Many,
            Language::Fr if n <= 1 => Plural::One,
            _ if n == 1 => Plural::One,
            _ => Plural::Other,
        }
    }
}

/// A `q` value in thousandths (`0.8` → 800); `None` when malformed.
fn quality(text: &str) -> Option<u16> {
    let value: f32 = text.trim().parse().ok()?;
    (0.0..=1.0)
        .contains(&value)
        .then(|| (value * 1000.0).round() as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_headers_name_a_language() {
        assert_eq!(Language::from_tag("pt-BR"), Some(Language::Pt));
        assert_eq!(Language::from_tag("RU_ru"), Some(Language::Ru));
        assert_eq!(Language::from_tag("ja"), None);
        assert_eq!(
            Language::from_accept_language("ja, de-CH;q=0.9, en;q=0.8"),
            Some(Language::De)
        );
        assert_eq!(
            Language::from_accept_language("fr;q=0.5, pl;q=0.7"),
            Some(Language::Pl)
        );
        assert_eq!(Language::from_accept_language("tr;q=0, *"), None);
        assert_eq!(Language::from_accept_language("es;q=abc"), None);
    }

    #[test]
    fn plural_categories_follow_cldr() {
        let ru: Vec<Plural> = [1, 2, 5, 11, 12, 21, 22, 25]
            .map(|n| Language::Ru.plural(n))
            .to_vec();
        use Plural::*;
        assert_eq!(ru, [One, Few, Many, Many, Many, One, Few, Many]);
        let pl: Vec<Plural> = [1, 2, 5, 12, 21, 22]
            .map(|n| Language::Pl.plural(n))
            .to_vec();
        assert_eq!(pl, [One, Few, Many, Many, Many, Few]);
        assert_eq!(Language::Fr.plural(0), One);
        assert_eq!(Language::En.plural(0), Other);
        assert_eq!(Language::De.plural(1), One);
    }
}
