//! The rooms of `src/` import one way: `cli -> api -> config -> usecases -> store -> archive ->
//! conduct -> (moderation | chat | collusion | simulation) -> rules`, each only from the rooms
//! below it, never sideways or up; the pure rooms touch no database, network, file or HTTP
//! crate; the modules of `store` form no import circle. Read from the source text
//! (`crate::room` paths), so a test of the build itself rather than of its behaviour.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each room with its level: a room may import rooms of lower levels only.
const ROOMS: &[(&str, u32)] = &[
    ("rules", 0),
    ("chat", 1),
    ("moderation", 1),
    ("collusion", 1),
    ("simulation", 1),
    ("conduct", 2),
    ("archive", 3),
    ("store", 4),
    ("usecases", 5),
    ("config", 6),
    ("api", 7),
    ("cli", 8),
];

/// Rooms free of I/O: none of these may appear in their code (tests excepted).
const PURE: &[&str] = &[
    "rules",
    "chat",
    "moderation",
    "collusion",
    "simulation",
    "conduct",
    "archive",
];
const IO_CRATES: &[&str] = &[
    "diesel",
    "actix",
    "utoipa",
    "tokio",
    "std::fs",
    "std::net",
    "std::process",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its test modules and comments: what the build imports.
fn code(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(path).expect("source file");
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .filter(|line| {
            let line = line.trim_start();
            !line.starts_with("//")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The room a source file belongs to (`src/chat/spam.rs` -> chat, `src/config.rs` -> config).
fn room_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(src()).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    ROOMS
        .iter()
        .any(|(room, _)| *room == name)
        .then(|| name.to_string())
}

/// The first path segments after each `prefix` in `code`, including inside `prefix{...}`
/// groups: `names_after("use crate::{a::x, b};", "crate::")` is `a` and `b`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        let heads: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end]
                .split(',')
                .map(|part| part.trim().split("::").next().unwrap_or(""))
                .collect()
        } else {
            vec![rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")]
        };
        named.extend(heads.into_iter().map(str::to_string));
    }
    named
}

/// The rooms a piece of code names as `crate::room`.
fn rooms_named(code: &str) -> BTreeSet<String> {
    names_after(code, "crate::")
        .into_iter()
        .filter(|head| ROOMS.iter().any(|(room, _)| room == head))
        .collect()
}

fn level(room: &str) -> u32 {
    ROOMS
        .iter()
        .find(|(r, _)| *r == room)
        .map(|(_, l)| *l)
        .expect("a known room")
}

#[test]
fn rooms_import_only_from_the_rooms_below_them() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let Some(room) = room_of(file) else {
            continue;
        };
        for other in rooms_named(&code(file)) {
            if other != room && level(&other) >= level(&room) {
                wrong.push(format!(
                    "{} ({room}) imports {other}",
                    file.strip_prefix(src()).unwrap_or(file).display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn pure_rooms_use_no_database_network_file_or_http_crate() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let Some(room) = room_of(file) else {
            continue;
        };
        if !PURE.contains(&room.as_str()) {
            continue;
        }
        let code = code(file);
        for name in IO_CRATES {
            if code.contains(name) {
                wrong.push(format!("{} uses {name}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The module of `store` a file belongs to (`store/conduct/queue.rs` -> conduct).
fn store_module(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(src().join("store")).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    Some(first.strip_suffix(".rs").unwrap_or(first).to_string())
}

/// The sibling modules of `store` a piece of code names (`super::x` from a top-level file,
/// `crate::store::x` anywhere).
fn store_modules_named(code: &str, nested: bool) -> BTreeSet<String> {
    let parent = if nested { "super::super::" } else { "super::" };
    let mut named = names_after(code, "crate::store::");
    named.extend(names_after(code, parent));
    named
}

#[test]
fn the_modules_of_store_form_no_import_circle() {
    let mut files = Vec::new();
    rust_files(&src().join("store"), &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| store_module(f)).collect();
    // Shared by every module: the connection, the schema and the crate-level helpers.
    let shared = ["mod", "connection", "schema", "settings"];
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = store_module(file) else {
            continue;
        };
        let nested = file.parent() != Some(src().join("store").as_path());
        for other in store_modules_named(&code(file), nested) {
            if other != module && modules.contains(&other) && !shared.contains(&other.as_str()) {
                edges.entry(module.clone()).or_default().insert(other);
            }
        }
    }
    // Depth-first search for a circle.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for module in &modules {
        let circle = visit(module, &edges, &mut Vec::new(), &mut done);
        assert!(
            circle.is_none(),
            "store modules import each other: {}",
            circle.unwrap_or_default().join(" -> ")
        );
    }
}

#[test]
fn the_checks_see_imports() {
    assert_eq!(
        rooms_named("use crate::{chat::x, rules::y};\nlet a = crate::store::now();"),
        ["chat", "rules", "store"]
            .into_iter()
            .map(String::from)
            .collect()
    );
    assert_eq!(
        store_modules_named("use super::{games, conduct::x};", false),
        ["conduct", "games"].into_iter().map(String::from).collect()
    );
}
