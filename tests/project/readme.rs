//! The README stays true and short, and every file it links to exists; the configuration
//! table (`docs/configuration.md`) lists every key of `config/default.toml` with its default.

use std::collections::BTreeMap;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn readme() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md")
}

fn configuration_doc() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("docs/configuration.md"))
        .expect("docs/configuration.md")
}

/// `section.key` -> the default as TOML writes it (`"text"`, `8`, `true`).
fn default_settings() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("config/default.toml"))
        .expect("config/default.toml");
    let table: toml::Table = text.parse().expect("default.toml parses");
    let mut keys = BTreeMap::new();
    for (section, value) in table {
        let toml::Value::Table(entries) = value else {
            panic!("top-level key `{section}` outside a section");
        };
        for (key, value) in entries {
            keys.insert(format!("{section}.{key}"), value.to_string());
        }
    }
    keys
}

/// The rows of the configuration table: `key` -> the default column.
fn documented_settings(doc: &str) -> BTreeMap<String, String> {
    let readme = doc;
    let start = readme
        .find("<!-- config:begin -->")
        .expect("config:begin marker");
    let end = readme
        .find("<!-- config:end -->")
        .expect("config:end marker");
    let mut rows = BTreeMap::new();
    for line in readme[start..end].lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `key` | `default` | meaning |
        if cells.len() < 4 || !cells[1].starts_with('`') {
            continue;
        }
        let key = cells[1].trim_matches('`').to_string();
        let default = cells[2].trim_matches('`').to_string();
        assert!(
            rows.insert(key.clone(), default).is_none(),
            "`{key}` is listed twice in docs/configuration.md"
        );
    }
    rows
}

#[test]
fn configuration_table_matches_the_defaults() {
    let defaults = default_settings();
    let documented = documented_settings(&configuration_doc());
    for (key, default) in &defaults {
        match documented.get(key) {
            None => panic!("docs/configuration.md lacks `{key}` (default {default})"),
            Some(shown) => assert_eq!(
                shown, default,
                "docs/configuration.md shows `{key}` defaulting to {shown}, config/default.toml says {default}"
            ),
        }
    }
    for key in documented.keys() {
        assert!(
            defaults.contains_key(key),
            "docs/configuration.md documents `{key}`, which config/default.toml does not have"
        );
    }
}

#[test]
fn every_relative_link_resolves() {
    let readme = readme();
    let mut rest = readme.as_str();
    let mut checked = 0;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let target = &rest[..rest.find(')').expect("closing parenthesis")];
        if target.starts_with("http") || target.starts_with('#') {
            continue;
        }
        let path = target.split('#').next().unwrap_or(target);
        assert!(
            Path::new(ROOT).join(path).exists(),
            "README links to {path}, which does not exist"
        );
        checked += 1;
    }
    assert!(checked > 0, "no relative links found: the parser is broken");
}

#[test]
fn readme_stays_short() {
    let size = readme().len();
    assert!(
        size < 15 * 1024,
        "README.md is {size} bytes; keep it under 15 KB and move details to docs/"
    );
}

/// The refunds table of `docs/configuration.md` lists every key of `config/moderation.toml`'s
/// `[refunds]` with its default (spaces aside).
#[test]
fn refunds_settings_match_the_policy_file() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("config/moderation.toml"))
        .expect("config/moderation.toml");
    let table: toml::Table = text.parse().expect("moderation.toml parses");
    let Some(toml::Value::Table(refunds)) = table.get("refunds") else {
        panic!("config/moderation.toml has no [refunds]");
    };
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let doc = configuration_doc();
    let mut documented = BTreeMap::new();
    for line in doc.lines().filter(|l| l.starts_with("| `refunds.")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        documented.insert(
            cells[1].trim_matches('`').to_string(),
            squeeze(cells[2].trim_matches('`')),
        );
    }
    let defaults: BTreeMap<String, String> = refunds
        .iter()
        .map(|(k, v)| (format!("refunds.{k}"), squeeze(&v.to_string())))
        .collect();
    assert_eq!(documented, defaults);
}
