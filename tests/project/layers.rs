//! The rooms of `src/` import one way: `cli -> api -> config -> usecases -> store -> archive ->
//! conduct -> (moderation | chat | collusion | simulation) -> rules`, each only from the rooms
//! below it, never sideways or up; the pure rooms touch no database, network, file or HTTP
//! crate; the modules of `store`, and the files of every room, form no import circle; no file
//! of `api` imports from `api/mod.rs`. Read from the source text (`crate::room`, `super::` and
//! `self::` paths), so a test of the build itself rather than of its behaviour.

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
    without_tests(&std::fs::read_to_string(path).expect("source file"))
}

/// Whether a line is the attribute of test-only code: `#[cfg(test)]`, `#[cfg(all(test, ...))]`.
fn is_test_attribute(line: &str) -> bool {
    line.starts_with("#[cfg(test)]") || line.starts_with("#[cfg(all(test,")
}

/// A file's text without comment lines and tests: a test module declared in its own file
/// (`#[cfg(test)] mod tests;`) is dropped, and any other test item ends the code (the test
/// module closes the file).
fn without_tests(text: &str) -> String {
    let mut kept = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if is_test_attribute(trimmed) {
            match lines.next() {
                Some(next) if module_declaration(next.trim()).is_some() => continue,
                _ => break,
            }
        }
        if !trimmed.starts_with("//") {
            kept.push(line);
        }
    }
    kept.join("\n")
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
    let mut done = BTreeSet::new();
    for module in &modules {
        let circle = find_circle(module, &edges, &mut done);
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

/// The files of a room form no import circle, at any depth: `a.rs -> b.rs -> a.rs` is one, and
/// so is `x.rs -> mod.rs -> x.rs` when `x.rs` uses an item defined in `mod.rs` (an item
/// `mod.rs` only re-exports is followed to the file that defines it).
#[test]
fn the_files_of_each_room_form_no_import_circle() {
    let modules = crate_modules();
    let circles = import_circles(&modules);
    assert!(
        circles.is_empty(),
        "files import each other:\n{}",
        circles.join("\n")
    );
}

/// The files of `api` import `AppState`, `ApiError` and the rest from the files that define
/// them, never from `api/mod.rs`, which only declares them.
#[test]
fn nothing_in_api_imports_from_api_mod_rs() {
    let wrong = imports_up_to(&crate_modules(), "api");
    assert!(
        wrong.is_empty(),
        "imports from api/mod.rs:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_file_checks_follow_paths_groups_and_re_exports() {
    let modules = synthetic(&[
        (
            "r/mod.rs",
            "pub mod a;\npub mod b;\npub mod deep;\npub use b::B;\npub fn helper() {}",
        ),
        (
            "r/a.rs",
            "use super::{B, deep::{inner::{self, Inner}}};\npub struct A;",
        ),
        ("r/b.rs", "pub struct B;\npub fn f() { super::helper(); }"),
        ("r/deep/mod.rs", "pub mod inner;"),
        (
            "r/deep/inner.rs",
            "use super::super::a::A as Alias;\npub struct Inner;",
        ),
    ]);
    let named = |file: &str| -> BTreeSet<String> {
        file_imports(&modules, &module_path(Path::new(file)))
            .into_iter()
            .map(|target| modules[&target].file.clone())
            .collect()
    };
    // `super::B` is re-exported by mod.rs: the import is of b.rs, the file defining it.
    assert_eq!(
        named("r/a.rs"),
        ["r/b.rs", "r/deep/inner.rs"]
            .into_iter()
            .map(String::from)
            .collect()
    );
    assert_eq!(
        named("r/b.rs"),
        ["r/mod.rs"].into_iter().map(String::from).collect()
    );
    assert_eq!(
        named("r/mod.rs"),
        ["r/b.rs"].into_iter().map(String::from).collect()
    );
    // a -> deep/inner -> a, and b -> mod -> b (mod.rs defines `helper` and re-exports `B`).
    assert_eq!(
        import_circles(&modules),
        [
            "r/a.rs -> r/deep/inner.rs -> r/a.rs",
            "r/b.rs -> r/mod.rs -> r/b.rs"
        ]
    );
}

#[test]
fn the_file_checks_see_two_files_importing_each_other() {
    let modules = synthetic(&[
        ("r/mod.rs", "mod a;\nmod b;"),
        ("r/a.rs", "use crate::r::b::B;\npub struct A;"),
        (
            "r/b.rs",
            "pub struct B;\n// use super::a::A;\nfn f() { let _ = \"super::a::A\"; }\n\
             #[cfg(test)]\nmod tests {\n    use super::super::a::A;\n}",
        ),
    ]);
    assert!(import_circles(&modules).is_empty());
    let modules = synthetic(&[
        ("r/mod.rs", "mod a;\nmod b;"),
        ("r/a.rs", "use crate::r::b::B;\npub struct A;"),
        (
            "r/b.rs",
            "pub struct B;\nfn f() -> super::a::A { super::a::A }",
        ),
    ]);
    assert_eq!(import_circles(&modules), ["r/a.rs -> r/b.rs -> r/a.rs"]);
}

#[test]
fn the_api_check_sees_imports_of_mod_rs_items() {
    let modules = synthetic(&[
        (
            "api/mod.rs",
            "pub mod state;\npub mod routes;\nuse state::AppState;",
        ),
        ("api/state.rs", "pub struct AppState;"),
        ("api/routes/mod.rs", "pub mod games;"),
        (
            "api/routes/games.rs",
            "use crate::api::state::AppState;\nuse super::super::AppState as Again;\n\
             fn f() { crate::api::routes::games::f(); }",
        ),
    ]);
    assert_eq!(
        imports_up_to(&modules, "api"),
        ["api/routes/games.rs imports api::AppState"]
    );
}

/// A module of the crate: its file (relative to `src/`) and what its code says.
struct Module {
    file: String,
    /// Every token of the code outside its `use` declarations.
    body: Vec<String>,
    /// The names it defines: functions, types, constants, modules, macros.
    defines: BTreeSet<String>,
    /// The leaves of its `use` declarations.
    imports: Vec<Import>,
}

/// One leaf of a `use` declaration: the path as written, and the name it binds (`None` for
/// a glob `*`).
#[derive(Debug)]
struct Import {
    path: Vec<String>,
    binds: Option<String>,
}

/// Every module of the crate by its path (`["api", "console", "layout"]` for
/// `api/console/layout.rs`).
type Modules = BTreeMap<Vec<String>, Module>;

/// The module path of a file relative to `src/`: `a/b.rs` and `a/b/mod.rs` are `a::b`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = path.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if !["mod", "lib"].contains(&stem) {
        path.push(stem.to_string());
    }
    path
}

/// The module written in `file`, from its code (`code()`: tests and comment lines left out).
fn module(file: &str, code: &str) -> Module {
    let tokens = tokens(code);
    let (imports, body) = use_declarations(&tokens);
    Module {
        file: file.to_string(),
        defines: defined_names(&body),
        body,
        imports,
    }
}

/// The modules of `src/` (the library; `main.rs` is the binary, and modules declared under
/// `#[cfg(test)]` are left out).
fn crate_modules() -> Modules {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut modules = Modules::new();
    let mut test_only = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(src()).unwrap_or(file);
        if relative == Path::new("main.rs") {
            continue;
        }
        let path = module_path(relative);
        let text = std::fs::read_to_string(file).expect("source file");
        for name in test_modules(&text) {
            test_only.insert([path.clone(), vec![name]].concat());
        }
        let name = relative.to_string_lossy().replace('\\', "/");
        modules.insert(path, module(&name, &code(file)));
    }
    modules.retain(|path, _| !(1..=path.len()).any(|n| test_only.contains(&path[..n])));
    modules
}

/// Modules from synthetic file texts, for the self-tests.
fn synthetic(files: &[(&str, &str)]) -> Modules {
    files
        .iter()
        .map(|(file, text)| {
            let path = module_path(Path::new(file));
            (path, module(file, &without_tests(text)))
        })
        .collect()
}

/// The tokens of Rust code: identifiers (and numbers), `::`, and single punctuation
/// characters; string and character literals and comments are left out, lifetimes kept as `'`.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let next = chars.get(at + 1).copied();
        if c.is_whitespace() {
            at += 1;
        } else if c == '/' && next == Some('/') {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
        } else if c == '/' && next == Some('*') {
            at += 2;
            while at < chars.len() && !(chars[at] == '*' && chars.get(at + 1) == Some(&'/')) {
                at += 1;
            }
            at += 2;
        } else if c == '"' {
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{2019}'), else a lifetime.
            if next == Some('\\') {
                at += 3;
                while at < chars.len() && chars[at] != '\'' {
                    at += 1;
                }
                at += 1;
            } else if chars.get(at + 2) == Some(&'\'') {
                at += 3;
            } else {
                tokens.push("'".to_string());
                at += 1;
            }
        } else if ident(c) || (c == '$' && next.is_some_and(ident)) {
            let start = at;
            at += 1;
            while at < chars.len() && ident(chars[at]) {
                at += 1;
            }
            let word: String = chars[start..at].iter().collect();
            // A raw string r"..." or r#"..."# (b and c prefixes fold into the ident before).
            if word.ends_with('r') && word.len() <= 2 && matches!(chars.get(at), Some('"' | '#')) {
                let hashes = chars[at..].iter().take_while(|&&c| c == '#').count();
                if chars.get(at + hashes) == Some(&'"') {
                    at += hashes + 1;
                    let close: Vec<char> = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    while at < chars.len() && !chars[at..].starts_with(&close) {
                        at += 1;
                    }
                    at += close.len();
                    continue;
                }
            }
            tokens.push(word.trim_start_matches('$').to_string());
        } else if c == ':' && next == Some(':') {
            tokens.push("::".to_string());
            at += 2;
        } else {
            tokens.push(c.to_string());
            at += 1;
        }
    }
    tokens
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The leaves of the `use` declarations among `tokens`, and the tokens outside them.
fn use_declarations(tokens: &[String]) -> (Vec<Import>, Vec<String>) {
    let mut imports = Vec::new();
    let mut body = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        if tokens[at] == "use" {
            at += 1;
            use_tree(tokens, &mut at, &[], &mut imports);
            while at < tokens.len() && tokens[at] != ";" {
                at += 1;
            }
            at += 1;
        } else {
            body.push(tokens[at].clone());
            at += 1;
        }
    }
    (imports, body)
}

/// One use tree (`a::b::{c, d::{self, e as f}, g::*}`) after `prefix`, its leaves into `out`.
fn use_tree(tokens: &[String], at: &mut usize, prefix: &[String], out: &mut Vec<Import>) {
    let token = |at: usize| tokens.get(at).map(String::as_str);
    let mut path = prefix.to_vec();
    if token(*at) == Some("::") {
        *at += 1;
    }
    while let Some(name) = token(*at) {
        match name {
            "{" => {
                *at += 1;
                while !matches!(token(*at), Some("}" | ";") | None) {
                    let before = *at;
                    use_tree(tokens, at, &path, out);
                    if token(*at) == Some(",") || *at == before {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "*" => {
                *at += 1;
                out.push(Import { path, binds: None });
                return;
            }
            name if is_ident(name) => {
                *at += 1;
                // `self` inside a group is the module before it; leading, it stays in the path.
                if name != "self" || path.is_empty() {
                    path.push(name.to_string());
                }
                if token(*at) == Some("::") {
                    *at += 1;
                    continue;
                }
                let mut binds = path.last().cloned().unwrap_or_default();
                if token(*at) == Some("as") {
                    binds = token(*at + 1).unwrap_or_default().to_string();
                    *at += 2;
                }
                out.push(Import {
                    path,
                    binds: Some(binds),
                });
                return;
            }
            _ => return,
        }
    }
}

/// The module names declared under `#[cfg(test)]` in a file's text (`mod tests;`).
fn test_modules(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if is_test_attribute(line) {
            if let Some(name) = lines.next().and_then(module_declaration) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The name a line `mod x;` (or `pub mod x;`, `pub(crate) mod x;`) declares.
fn module_declaration(line: &str) -> Option<&str> {
    let rest = line.strip_suffix(';')?;
    let (_, name) = rest.rsplit_once("mod ")?;
    let before = &rest[..rest.len() - name.len() - "mod ".len()];
    (before.is_empty() || before.starts_with("pub")).then_some(name.trim())
}

/// The names code defines: after `fn`, `struct`, `enum`, `trait`, `type`, `const`,
/// `static` (`mut`), `union`, `mod` and `macro_rules!`.
fn defined_names(body: &[String]) -> BTreeSet<String> {
    const KINDS: &[&str] = &[
        "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod",
    ];
    let mut names = BTreeSet::new();
    for (at, kind) in body.iter().enumerate() {
        let skip = match kind.as_str() {
            kind if KINDS.contains(&kind) => 1,
            "macro_rules" => 2,
            _ => continue,
        };
        let mut name = body.get(at + skip);
        if name.is_some_and(|n| n == "mut") {
            name = body.get(at + skip + 1);
        }
        names.extend(name.filter(|n| is_ident(n)).cloned());
    }
    names
}

/// `path` written in module `at`, from the crate root; `None` when it starts outside the
/// crate (std, another crate, a local name).
fn absolute(modules: &Modules, at: &[String], path: &[String]) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" => Some(rest.to_vec()),
        "self" => Some([at, rest].concat()),
        "super" => {
            let mut base = at.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            Some([&base[..], rest].concat())
        }
        _ => {
            let child = [at, &path[..1]].concat();
            modules.contains_key(&child).then(|| [at, path].concat())
        }
    }
}

/// The longest start of `path` that is a module.
fn known_module<'a>(modules: &Modules, path: &'a [String]) -> Option<&'a [String]> {
    (0..=path.len())
        .rev()
        .map(|n| &path[..n])
        .find(|start| modules.contains_key(*start))
}

/// The module that defines what `path` names (from the crate root), following `use`
/// declarations (re-exports, globs) to the defining file; `None` when not found.
fn definition(modules: &Modules, path: &[String], depth: u32) -> Option<Vec<String>> {
    let known = known_module(modules, path)?;
    let Some(item) = path.get(known.len()) else {
        return Some(known.to_vec());
    };
    let module = &modules[known];
    if module.defines.contains(item) {
        return Some(known.to_vec());
    }
    if depth == 0 {
        return None;
    }
    let rest = &path[known.len()..];
    if let Some(import) = module
        .imports
        .iter()
        .find(|import| import.binds.as_deref() == Some(item.as_str()))
    {
        let target = absolute(modules, known, &import.path)?;
        return definition(modules, &[&target[..], &rest[1..]].concat(), depth - 1);
    }
    module
        .imports
        .iter()
        .filter(|import| import.binds.is_none())
        .filter_map(|glob| absolute(modules, known, &glob.path))
        .find_map(|base| definition(modules, &[&base[..], rest].concat(), depth - 1))
}

/// The paths (from the crate root) that a module's code names: its `use` leaves other than
/// modules (a module imported by name counts where a path through it is used), globs as
/// their module, and every path in its body that starts at `crate`, `self`, `super`, a
/// child module or a module it imported by name.
fn named_paths(modules: &Modules, at: &[String]) -> Vec<Vec<String>> {
    let module = &modules[at];
    let mut named = Vec::new();
    let mut aliases = BTreeMap::new();
    for import in &module.imports {
        let Some(path) = absolute(modules, at, &import.path) else {
            continue;
        };
        match &import.binds {
            Some(name) if modules.contains_key(&path) => {
                aliases.insert(name.clone(), path);
            }
            _ => named.push(path),
        }
    }
    let body = &module.body;
    for start in 0..body.len() {
        let token = |n: usize| body.get(n).map(String::as_str);
        let after_path = start > 0 && token(start - 1) == Some("::");
        if after_path || !is_ident(&body[start]) || token(start + 1) != Some("::") {
            continue;
        }
        let mut path = vec![body[start].clone()];
        let mut next = start + 1;
        while token(next) == Some("::") && token(next + 1).is_some_and(is_ident) {
            path.push(body[next + 1].clone());
            next += 2;
        }
        let from_alias = aliases
            .get(&path[0])
            .map(|base| [&base[..], &path[1..]].concat());
        if let Some(path) = from_alias.or_else(|| absolute(modules, at, &path)) {
            named.push(path);
        }
    }
    named
}

/// The modules a module imports from, each resolved to the file that defines the item.
fn file_imports(modules: &Modules, at: &[String]) -> BTreeSet<Vec<String>> {
    named_paths(modules, at)
        .iter()
        .filter_map(|path| {
            definition(modules, path, 8)
                .or_else(|| known_module(modules, path).map(<[String]>::to_vec))
        })
        .filter(|target| target != at)
        .collect()
}

/// The import circles between files of the same room: for each file on one, the shortest
/// circle through it, written from its first file (`a.rs -> b.rs -> a.rs`).
fn import_circles(modules: &Modules) -> Vec<String> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (at, module) in modules {
        for target in file_imports(modules, at) {
            if !at.is_empty() && target.first() == at.first() {
                edges
                    .entry(module.file.clone())
                    .or_default()
                    .insert(modules[&target].file.clone());
            }
        }
    }
    let mut circles = BTreeSet::new();
    for module in modules.values() {
        if let Some(mut circle) = circle_through(&module.file, &edges) {
            let first = (0..circle.len()).min_by_key(|&n| &circle[n]).unwrap_or(0);
            circle.rotate_left(first);
            circle.push(circle[0].clone());
            circles.insert(circle.join(" -> "));
        }
    }
    circles.into_iter().collect()
}

/// The shortest circle from `node` back to itself (`[a, b]` for `a -> b -> a`), by
/// breadth-first search.
fn circle_through(node: &str, edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([node]);
    while let Some(at) = queue.pop_front() {
        for next in edges.get(at).into_iter().flatten() {
            if next == node {
                let mut circle = vec![at.to_string()];
                let mut step = at;
                while step != node {
                    step = came_from[step];
                    circle.push(step.to_string());
                }
                circle.reverse();
                return Some(circle);
            }
            if !came_from.contains_key(next.as_str()) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// Every path in a file under `room/` that names an item of `room/mod.rs` itself (rather
/// than one of its modules), as `file imports room::Item`.
fn imports_up_to(modules: &Modules, room: &str) -> Vec<String> {
    let top = vec![room.to_string()];
    let mut wrong = BTreeSet::new();
    for (at, module) in modules.range(top.clone()..) {
        if at.first() != top.first() {
            break;
        }
        if at.len() < 2 {
            continue;
        }
        let globs = module
            .imports
            .iter()
            .filter(|import| import.binds.is_none())
            .filter_map(|import| absolute(modules, at, &import.path))
            .map(|path| [path, vec!["*".to_string()]].concat());
        for path in named_paths(modules, at).into_iter().chain(globs) {
            if known_module(modules, &path) == Some(&top[..]) && path.len() > 1 {
                wrong.insert(format!("{} imports {}", module.file, path.join("::")));
            }
        }
    }
    wrong.into_iter().collect()
}

/// A circle through `node` or a node reachable from it, by depth-first search
/// (`[a, b, a]`); `done` holds nodes already searched without one.
fn find_circle(
    node: &str,
    edges: &BTreeMap<String, BTreeSet<String>>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
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
    visit(node, edges, &mut Vec::new(), done)
}
