//! The OpenAPI document is compared with `tests/snapshots/openapi.json`.
//! After an intended API change: `UPDATE_SNAPSHOTS=1 cargo test --test api openapi`.

use std::path::PathBuf;

use crate::support::TestApp;

#[actix_web::test]
async fn openapi_document_matches_snapshot() {
    let app = TestApp::spawn().await;
    let response = app.get("/api/v1/openapi.json", None).await;
    assert_eq!(response.status, 200);
    let document = response.json();
    assert_eq!(
        document["openapi"].as_str().map(|v| v.starts_with("3.")),
        Some(true)
    );
    let rendered = format!(
        "{}\n",
        serde_json::to_string_pretty(&document).expect("render")
    );

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/openapi.json");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &rendered).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with UPDATE_SNAPSHOTS=1 to create it",
            path.display()
        )
    });
    assert!(
        expected == rendered,
        "the OpenAPI document changed; review, then run `UPDATE_SNAPSHOTS=1 cargo test --test api openapi`\n\
         --- snapshot ({} bytes) vs served ({} bytes); first difference at line {}",
        expected.len(),
        rendered.len(),
        expected
            .lines()
            .zip(rendered.lines())
            .position(|(a, b)| a != b)
            .map(|i| i + 1)
            .unwrap_or_else(|| expected.lines().count().min(rendered.lines().count()) + 1)
    );
}

#[actix_web::test]
async fn every_route_is_documented() {
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let paths = document["paths"].as_object().expect("paths");
    for (path, method) in [
        ("/healthz", "get"),
        ("/readyz", "get"),
        ("/metrics", "get"),
        ("/api/v1/whoami", "get"),
        ("/api/v1/admin/tokens", "get"),
        ("/api/v1/admin/tokens", "post"),
        ("/api/v1/admin/tokens/{id}", "delete"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} undocumented"
        );
    }
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
}
