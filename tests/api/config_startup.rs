//! Start-up through the real binary: configuration errors, environment overrides, the token
//! commands, and serve with graceful shutdown.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn arbiter(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.current_dir(dir);
    // Only what each test sets: no inherited ARBITER_* settings.
    for (key, _) in std::env::vars() {
        if key.starts_with("ARBITER_") {
            command.env_remove(key);
        }
    }
    command.stdin(Stdio::null());
    command
}

fn run(command: &mut Command) -> Output {
    command.output().expect("run arbiter")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn unknown_key_in_file_stops_start_up_and_names_the_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("arbiter.toml");
    std::fs::write(&file, "[server]\nlisten_port = 9000\n").expect("write");
    let output = run(arbiter(dir.path()).arg("--config").arg(&file).arg("serve"));
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("listen_port"),
        "{}",
        stderr(&output)
    );
    assert!(
        !dir.path().join("data").exists(),
        "nothing created on a bad config"
    );
}

#[test]
fn config_file_from_environment_variable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("arbiter.toml");
    std::fs::write(&file, "[log]\nformat = \"yaml\"\n").expect("write");
    let output = run(arbiter(dir.path())
        .env("ARBITER_CONFIG", &file)
        .arg("config"));
    assert!(!output.status.success());
    assert!(stderr(&output).contains("format"), "{}", stderr(&output));
}

#[test]
fn bad_value_in_environment_names_the_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(arbiter(dir.path())
        .env("ARBITER_SERVER__WORKERS", "many")
        .arg("config"));
    assert!(!output.status.success());
    let message = stderr(&output).to_lowercase();
    assert!(message.contains("workers"), "{message}");
    let output = run(arbiter(dir.path())
        .env("ARBITER_SERVER__LISTEN", "not-an-address")
        .arg("config"));
    assert!(!output.status.success());
    assert!(
        stderr(&output).to_lowercase().contains("listen"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn missing_config_file_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run(arbiter(dir.path()).args(["--config", "nope.toml", "config"]));
    assert!(!output.status.success());
    assert!(stderr(&output).contains("nope.toml"), "{}", stderr(&output));
}

#[test]
fn environment_overrides_file_overrides_defaults() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("arbiter.toml");
    std::fs::write(
        &file,
        "[server]\nlisten = \"127.0.0.1:7000\"\nworkers = 3\n",
    )
    .expect("write");
    let output = run(arbiter(dir.path())
        .arg("--config")
        .arg(&file)
        .env("ARBITER_SERVER__LISTEN", "0.0.0.0:9999")
        .env(
            "ARBITER_AUTH__PLAYER_TOKEN_SECRET",
            "a-very-long-secret-of-at-least-32-bytes",
        )
        .env("ARBITER_DATABASE__SQLITE_SYNCHRONOUS", "normal")
        .env(
            "ARBITER_API__CURSOR_KEY",
            "a-cursor-key-of-at-least-32-bytes",
        )
        .arg("config"));
    assert!(output.status.success(), "{}", stderr(&output));
    let shown = stdout(&output);
    assert!(shown.contains("listen = \"0.0.0.0:9999\""), "{shown}");
    assert!(shown.contains("sqlite_synchronous = \"normal\""), "{shown}");
    assert!(
        !shown.contains("a-cursor-key"),
        "secrets are redacted: {shown}"
    );
    assert!(shown.contains("workers = 3"), "{shown}");
    assert!(shown.contains("body_limit_bytes = 1048576"), "{shown}");
    assert!(
        !shown.contains("a-very-long-secret"),
        "secrets are redacted: {shown}"
    );
}

#[test]
fn token_commands_create_list_and_revoke() {
    let dir = tempfile::tempdir().expect("temp dir");
    let create =
        run(arbiter(dir.path()).args(["token", "create", "--role", "admin", "--name", "alice"]));
    assert!(create.status.success(), "{}", stderr(&create));
    let token = stdout(&create).trim().to_string();
    assert!(
        token.starts_with("arb_") && !token.contains('\n'),
        "{token}"
    );
    assert!(
        dir.path().join("data/arbiter.db").exists(),
        "default database created"
    );

    let list = run(arbiter(dir.path()).args(["token", "list"]));
    assert!(list.status.success(), "{}", stderr(&list));
    assert!(stdout(&list).contains("alice"));
    assert!(!stdout(&list).contains(&token), "tokens are never listed");

    let revoke = run(arbiter(dir.path()).args(["token", "revoke", "1"]));
    assert!(revoke.status.success(), "{}", stderr(&revoke));
    let missing = run(arbiter(dir.path()).args(["token", "revoke", "99"]));
    assert!(!missing.status.success());

    let bad_role =
        run(arbiter(dir.path()).args(["token", "create", "--role", "player", "--name", "x"]));
    assert!(!bad_role.status.success());
}

#[test]
fn migrate_reports_versions_then_nothing_to_do() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = run(arbiter(dir.path()).arg("migrate"));
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("applied"), "{}", stdout(&first));
    let second = run(arbiter(dir.path()).arg("migrate"));
    assert!(
        stdout(&second).contains("nothing to do"),
        "{}",
        stdout(&second)
    );
}

/// Kills the server if the test fails before stopping it, so no process outlives the test.
struct ServerProcess(Option<std::process::Child>);

impl ServerProcess {
    fn child(&mut self) -> &mut std::process::Child {
        self.0.as_mut().expect("server process")
    }

    fn take(&mut self) -> std::process::Child {
        self.0.take().expect("server process")
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

#[test]
fn serve_answers_then_stops_gracefully_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let mut server = ServerProcess(Some(
        arbiter(dir.path())
            .env("ARBITER_SERVER__LISTEN", format!("127.0.0.1:{port}"))
            .env("ARBITER_SERVER__WORKERS", "1")
            .env("ARBITER_SERVER__SHUTDOWN_TIMEOUT_SECS", "2")
            .env("ARBITER_LOG__FORMAT", "json")
            .arg("serve")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn serve"),
    ));

    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut ready = false;
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(addr).is_ok() {
            let (status, _) = crate::support::raw_http(
                addr,
                "GET /readyz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
            );
            ready = status == 200;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, response) = crate::support::raw_http(
        addr,
        "GET /api/v1/whoami HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer arb_secret_never_logged\r\nConnection: close\r\n\r\n",
    );

    let pid = server.child().id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let exit = loop {
        if let Some(exit) = server.child().try_wait().expect("wait") {
            break Some(exit);
        }
        if Instant::now() > deadline {
            let _ = server.child().kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = server.take().wait_with_output().expect("output");
    let logs = String::from_utf8_lossy(&output.stderr);

    assert!(ready, "server did not become ready; logs:\n{logs}");
    assert_eq!(status, 401, "{response}");
    let exit = exit.expect("server stopped within the deadline after SIGTERM");
    assert!(exit.success(), "exit {exit:?}; logs:\n{logs}");
    assert!(dir.path().join("data/arbiter.db").exists());
    // JSON logs with the request id; never the token.
    assert!(
        logs.lines()
            .any(|l| l.starts_with('{') && l.contains("request_id")),
        "{logs}"
    );
    assert!(!logs.contains("arb_secret_never_logged"), "{logs}");
}
