//! `arbiter token sign-player` through the real binary: it signs what the server verifies,
//! and refuses to sign without a secret or with odd input.

use std::process::Command;

use arbiter::api::auth::player::PlayerTokenVerifier;
use arbiter::config::Settings;

const SECRET: &str = "a-test-secret-that-is-at-least-32-bytes";

fn sign_player(secret: &str, args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["token", "sign-player"])
        .args(args)
        .env("ARBITER_AUTH__PLAYER_TOKEN_SECRET", secret)
        .output()
        .expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).trim().to_string(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_signed_player_token_verifies_with_the_same_secret() {
    let (ok, token, err) = sign_player(SECRET, &["rasulk", "--minutes", "5"]);
    assert!(ok, "{err}");
    let mut settings = Settings::load(None).expect("default settings");
    settings.auth.player_token_secret = SECRET.to_string();
    let verifier = PlayerTokenVerifier::from_settings(&settings.auth).expect("a verifier");
    assert_eq!(verifier.verify(&token).expect("verifies"), "rasulk");

    settings.auth.player_token_secret = format!("{SECRET}-other");
    let other = PlayerTokenVerifier::from_settings(&settings.auth).expect("a verifier");
    assert!(
        other.verify(&token).is_err(),
        "verified with another secret"
    );
}

#[test]
fn refuses_without_a_secret_or_with_odd_input() {
    let (ok, token, err) = sign_player("", &["rasulk"]);
    assert!(!ok && token.is_empty(), "signed without a secret: {token}");
    assert!(err.contains("auth.player_token_secret"), "{err}");

    let (ok, _, err) = sign_player(SECRET, &["rasulk", "--minutes", "0"]);
    assert!(!ok && err.contains("--minutes"), "{err}");
    let (ok, _, err) = sign_player(SECRET, &[&"x".repeat(65)]);
    assert!(!ok && err.contains("1 to 64 characters"), "{err}");
}
