//! What a player name may hold, wherever one arrives (a game's seats and chat senders, a
//! standing check, a report, a token): 1 to [`MAX_NAME_CHARS`] characters, none of them a
//! control, format, bidirectional or invisible character. Such characters let one name
//! display exactly like another ("Spaksi" and "Spaksi" with a zero-width space), which would
//! split a player's record in two or let someone pass for them in every list an admin reads.
//! The sets are Unicode's general category Cc and Cf and its Default_Ignorable_Code_Point
//! property (UCD `DerivedGeneralCategory.txt`, `DerivedCoreProperties.txt`, Unicode 15.1);
//! Unicode's own advice for identifiers is the same (UAX #31, UTS #39 "Restriction Levels").

use std::fmt;

use super::submission::MAX_NAME_CHARS;

/// Why a string is not a possible player name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameProblem {
    Empty,
    TooLong {
        chars: usize,
    },
    /// `position` counts characters from 0.
    Forbidden {
        ch: char,
        position: usize,
        kind: ForbiddenKind,
    },
}

/// The kinds of character a name may not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForbiddenKind {
    Control,
    /// Bidirectional controls (U+200E/F, U+202A..E, U+2066..9, U+061C).
    Bidi,
    /// Zero-width and other invisible characters (joiners, fillers, variation selectors).
    Invisible,
    /// Other format characters (general category Cf).
    Format,
}

impl ForbiddenKind {
    fn describe(self) -> &'static str {
        match self {
            ForbiddenKind::Control => "a control character",
            ForbiddenKind::Bidi => "a bidirectional control",
            ForbiddenKind::Invisible => "an invisible character",
            ForbiddenKind::Format => "a format character",
        }
    }
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameProblem::Empty => write!(f, "is empty: name a player"),
            NameProblem::TooLong { chars } => write!(
                f,
                "is {chars} characters long; a player name has at most {MAX_NAME_CHARS}"
            ),
            NameProblem::Forbidden { ch, position, kind } => write!(
                f,
                "holds {} (U+{:04X}) at character {position}; a player name has none",
                kind.describe(),
                u32::from(*ch)
            ),
        }
    }
}

/// The first problem of `name` as a player name; `None` when it may be one. The caller trims
/// where its input may carry surrounding blanks.
pub fn name_problem(name: &str) -> Option<NameProblem> {
    if name.is_empty() {
        return Some(NameProblem::Empty);
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Some(NameProblem::TooLong { chars });
    }
    name.chars().enumerate().find_map(|(position, ch)| {
        forbidden_kind(ch).map(|kind| NameProblem::Forbidden { ch, position, kind })
    })
}

/// Which forbidden kind `ch` is, if any.
pub fn forbidden_kind(ch: char) -> Option<ForbiddenKind> {
    let c = u32::from(ch);
    if ch.is_control() {
        Some(ForbiddenKind::Control)
    } else if BIDI.iter().any(|r| r.contains(&c)) {
        Some(ForbiddenKind::Bidi)
    } else if INVISIBLE.iter().any(|r| r.contains(&c)) {
        Some(ForbiddenKind::Invisible)
    } else if FORMAT.iter().any(|r| r.contains(&c)) {
        Some(ForbiddenKind::Format)
    } else {
        None
    }
}

const BIDI: [std::ops::RangeInclusive<u32>; 4] = [
    0x061C..=0x061C,
    0x200E..=0x200F,
    0x202A..=0x202E,
    0x2066..=0x2069,
];

/// Default_Ignorable_Code_Point outside Cc/Cf and the bidi controls, plus the zero-width
/// format characters, named apart because they are what impersonation uses.
const INVISIBLE: [std::ops::RangeInclusive<u32>; 15] = [
    0x00AD..=0x00AD,
    0x034F..=0x034F,
    0x115F..=0x1160,
    0x17B4..=0x17B5,
    0x180B..=0x180F,
    0x200B..=0x200D,
    0x2060..=0x2064,
    0x2065..=0x2065,
    0x3164..=0x3164,
    0xFE00..=0xFE0F,
    0xFEFF..=0xFEFF,
    0xFFA0..=0xFFA0,
    0xFFF0..=0xFFF8,
    0x1BCA0..=0x1BCA3,
    0xE0000..=0xE0FFF,
];

/// The rest of general category Cf.
const FORMAT: [std::ops::RangeInclusive<u32>; 11] = [
    0x0600..=0x0605,
    0x06DD..=0x06DD,
    0x070F..=0x070F,
    0x0890..=0x0891,
    0x08E2..=0x08E2,
    0x206A..=0x206F,
    0xFFF9..=0xFFFB,
    0x110BD..=0x110BD,
    0x110CD..=0x110CD,
    0x13430..=0x1343F,
    0x1D173..=0x1D17A,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_of_the_site_pass() {
        for name in [
            "Spaksi",
            "HSCCCB",
            "mod_anna",
            "Jürgen-1",
            "Игрок",
            "棋手",
            "a b",
        ] {
            assert_eq!(name_problem(name), None, "{name}");
        }
    }

    #[test]
    fn each_kind_is_refused_with_its_position() {
        let cases = [
            ("Spak\u{200B}si", '\u{200B}', 4, ForbiddenKind::Invisible),
            ("\u{202E}iskapS", '\u{202E}', 0, ForbiddenKind::Bidi),
            ("Spaksi\u{2066}", '\u{2066}', 6, ForbiddenKind::Bidi),
            ("Spa\u{7}ksi", '\u{7}', 3, ForbiddenKind::Control),
            ("Spaksi\u{FEFF}", '\u{FEFF}', 6, ForbiddenKind::Invisible),
            ("\u{3164}", '\u{3164}', 0, ForbiddenKind::Invisible),
            ("x\u{0600}", '\u{0600}', 1, ForbiddenKind::Format),
            ("tag\u{E0041}", '\u{E0041}', 3, ForbiddenKind::Invisible),
        ];
        for (name, ch, position, kind) in cases {
            assert_eq!(
                name_problem(name),
                Some(NameProblem::Forbidden { ch, position, kind }),
                "{name:?}"
            );
        }
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        assert_eq!(name_problem(&"é".repeat(MAX_NAME_CHARS)), None);
        assert_eq!(
            name_problem(&"a".repeat(MAX_NAME_CHARS + 1)),
            Some(NameProblem::TooLong { chars: 65 })
        );
        assert_eq!(name_problem(""), Some(NameProblem::Empty));
    }

    #[test]
    fn the_message_names_the_code_point() {
        let problem = name_problem("a\u{200D}b").map(|p| p.to_string());
        assert_eq!(
            problem.as_deref(),
            Some("holds an invisible character (U+200D) at character 1; a player name has none")
        );
    }
}
