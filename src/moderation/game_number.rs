//! The one rule for a game number taken as input: a decimal positive integer, written without
//! sign or leading zeros, at most [`MAX_GAME_NUMBER`]. The archive takes it as text (the
//! `GameNr` tag, `site_game_id`) and reports cite it as a number; both check it here, so every
//! stored game can be cited and nothing else is stored as a game number.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::types::GameNumber;

/// Largest game number accepted: 2^53 - 1. It fits in i64 with room to spare, and it is the
/// largest integer a JSON number keeps exactly in a browser (`Number.MAX_SAFE_INTEGER`), so a
/// web client reads back the number it sent. The site's numbers have nine digits today.
pub const MAX_GAME_NUMBER: i64 = 9_007_199_254_740_991;

/// The rule as a phrase for error messages.
pub const GAME_NUMBER_RULE: &str = "a positive whole number in decimal digits, without sign or \
     leading zeros, at most 9007199254740991";

/// Why a value is not a game number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameNumberError {
    Empty,
    /// A character other than an ASCII digit: a sign, a point, an exponent, a letter, a slash.
    NotDigits,
    LeadingZero,
    /// Zero or negative.
    NotPositive,
    TooLarge,
}

impl fmt::Display for GameNumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameNumberError::Empty => "it is empty",
            GameNumberError::NotDigits => "it has a character other than the digits 0-9",
            GameNumberError::LeadingZero => "it starts with a zero",
            GameNumberError::NotPositive => "it is not positive",
            GameNumberError::TooLarge => "it is larger than 9007199254740991",
        })
    }
}

impl GameNumber {
    /// Reads a game number written as text (surrounding whitespace is the caller's to trim).
    pub fn parse(text: &str) -> Result<GameNumber, GameNumberError> {
        if text.is_empty() {
            return Err(GameNumberError::Empty);
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GameNumberError::NotDigits);
        }
        if text == "0" {
            return Err(GameNumberError::NotPositive);
        }
        if text.starts_with('0') {
            return Err(GameNumberError::LeadingZero);
        }
        // Digits only: the parse fails only by overflow.
        match text.parse::<i64>() {
            Ok(n) => GameNumber::checked(n),
            Err(_) => Err(GameNumberError::TooLarge),
        }
    }

    /// Checks a game number given as a number.
    pub fn checked(number: i64) -> Result<GameNumber, GameNumberError> {
        if number <= 0 {
            Err(GameNumberError::NotPositive)
        } else if number > MAX_GAME_NUMBER {
            Err(GameNumberError::TooLarge)
        } else {
            Ok(GameNumber(number))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_decimal_numbers_are_game_numbers() {
        assert_eq!(GameNumber::parse("104071136"), Ok(GameNumber(104_071_136)));
        assert_eq!(GameNumber::parse("1"), Ok(GameNumber(1)));
        assert_eq!(
            GameNumber::parse("9007199254740991"),
            Ok(GameNumber(MAX_GAME_NUMBER))
        );
        assert_eq!(GameNumber::checked(1), Ok(GameNumber(1)));
        assert_eq!(
            GameNumber::checked(MAX_GAME_NUMBER),
            Ok(GameNumber(MAX_GAME_NUMBER))
        );
    }

    #[test]
    fn everything_else_is_refused_with_its_reason() {
        for (text, why) in [
            ("", GameNumberError::Empty),
            ("-5", GameNumberError::NotDigits),
            ("+5", GameNumberError::NotDigits),
            ("1e30", GameNumberError::NotDigits),
            ("1.0", GameNumberError::NotDigits),
            ("../../etc/passwd", GameNumberError::NotDigits),
            (" 5", GameNumberError::NotDigits),
            ("٣", GameNumberError::NotDigits),
            ("0", GameNumberError::NotPositive),
            ("00", GameNumberError::LeadingZero),
            ("007", GameNumberError::LeadingZero),
            ("9007199254740992", GameNumberError::TooLarge),
            ("9223372036854775807", GameNumberError::TooLarge),
            ("99999999999999999999999999999", GameNumberError::TooLarge),
        ] {
            assert_eq!(GameNumber::parse(text), Err(why), "{text:?}");
        }
        assert_eq!(GameNumber::checked(0), Err(GameNumberError::NotPositive));
        assert_eq!(GameNumber::checked(-5), Err(GameNumberError::NotPositive));
        assert_eq!(
            GameNumber::checked(i64::MAX),
            Err(GameNumberError::TooLarge)
        );
    }

    proptest::proptest! {
        /// Text and number agree: a number is accepted exactly when its decimal form is.
        #[test]
        fn text_and_number_agree(n in proptest::num::i64::ANY) {
            proptest::prop_assert_eq!(
                GameNumber::parse(&n.to_string()).is_ok(),
                GameNumber::checked(n).is_ok()
            );
            if let Ok(number) = GameNumber::parse(&n.to_string()) {
                proptest::prop_assert_eq!(number.0, n);
            }
        }
    }
}
