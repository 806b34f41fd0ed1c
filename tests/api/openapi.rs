//! The OpenAPI document is compared with `tests/snapshots/openapi.json`.
//! After an intended API change: `UPDATE_SNAPSHOTS=1 cargo test --test api openapi`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{json, Value};

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

/// `(METHOD, path)` of each operation the document holds.
fn documented(document: &Value) -> BTreeSet<(String, String)> {
    operations(document)
        .into_iter()
        .map(|(method, path, _)| (method.to_uppercase(), path))
        .collect()
}

/// `(METHOD, path)` of each `#[utoipa::path(method, path = "...")]` under `src/api/routes/`:
/// a handler annotated there but left out of `routes::api_handlers!` is neither mounted nor
/// documented, so only the source still names it.
fn annotated() -> BTreeSet<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/api/routes");
    let mut found = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).expect("src/api/routes") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("source");
        for attribute in text.split("#[utoipa::path(").skip(1) {
            let (methods, rest) = attribute.split_once("path = \"").expect("path = \"...\"");
            let path = rest.split('"').next().expect("closing quote");
            for method in methods.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                found.insert((method.to_uppercase(), path.to_string()));
            }
        }
    }
    found
}

/// Asserts that two sets of routes are equal, naming the routes only one of them holds.
fn assert_same_routes(
    (name, routes): (&str, &BTreeSet<(String, String)>),
    (other_name, other): (&str, &BTreeSet<(String, String)>),
) {
    let only = |these: &BTreeSet<(String, String)>, those| {
        these
            .difference(those)
            .map(|(method, path)| format!("{method} {path}"))
            .collect::<Vec<_>>()
    };
    assert!(
        routes == other,
        "{name} only: {:?}; {other_name} only: {:?}",
        only(routes, other),
        only(other, routes)
    );
}

/// The routes of `routes` that a request does not bring to a handler: 405, or 404
/// `route_not_found`. Each is asked without credentials, with placeholder path values.
async fn unserved(app: &TestApp, routes: &BTreeSet<(String, String)>) -> Vec<String> {
    let mut unserved = Vec::new();
    for (method, path) in routes {
        // A placeholder any parameter takes: ids are integers, names any text.
        let concrete: Vec<&str> = path
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') {
                    "7"
                } else {
                    segment
                }
            })
            .collect();
        let response = app.request(method, &concrete.join("/"), None, None).await;
        if response.status == 405
            || (response.status == 404 && response.text().contains("route_not_found"))
        {
            unserved.push(format!("{method} {path}: {}", response.status));
        }
    }
    unserved
}

/// Every served API route is documented and every documented route is served: the routes
/// mounted are the document's operations (`/metrics` is mounted by `metrics_endpoint`), the
/// handlers annotated are the document's, and each documented route reaches a handler.
#[actix_web::test]
async fn every_route_is_documented_and_every_documented_route_served() {
    use arbiter::api::metrics_endpoint::METRICS_PATH;
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let documented = documented(&document);
    assert!(documented.len() > 40, "{} operations", documented.len());

    let mut mounted: BTreeSet<(String, String)> = arbiter::api::route_table::api_routes()
        .iter()
        .map(|route| (route.method.to_string(), route.path.clone()))
        .collect();
    assert!(mounted.insert(("GET".to_string(), METRICS_PATH.to_string())));
    assert_same_routes(("mounted", &mounted), ("documented", &documented));
    assert_same_routes(("annotated", &annotated()), ("documented", &documented));

    let unserved = unserved(&app, &documented).await;
    assert!(unserved.is_empty(), "documented, not served: {unserved:#?}");
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
}

/// Resolves `{"$ref": "#/components/schemas/X"}` in `document`.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            &document["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// The values of a closed set: the schema's own `enum`, through a `$ref` and past a `null`
/// alternative (`oneOf`/`anyOf` of null and the set). `None` for an open string.
fn enum_values(document: &Value, schema: &Value) -> Option<Vec<String>> {
    let schema = resolve(document, schema);
    if let Some(values) = schema["enum"].as_array() {
        return Some(
            values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        );
    }
    ["oneOf", "anyOf"].iter().find_map(|key| {
        schema[*key].as_array().and_then(|branches| {
            branches
                .iter()
                .filter(|b| b["type"] != "null")
                .find_map(|b| enum_values(document, b))
        })
    })
}

fn component_enum(document: &Value, name: &str) -> Vec<String> {
    enum_values(document, &document["components"]["schemas"][name])
        .unwrap_or_else(|| panic!("component {name} is not an enum"))
}

fn wire<T: serde::Serialize>(values: &[T]) -> Vec<String> {
    arbiter::api::wire_enums::wire_names(values)
}

/// Every documented value is one the domain type reads back as itself.
fn accepted_by<T: serde::de::DeserializeOwned + serde::Serialize>(values: &[String]) {
    for value in values {
        let parsed: T = serde_json::from_value(json!(value))
            .unwrap_or_else(|e| panic!("the domain refuses documented value {value:?}: {e}"));
        assert_eq!(serde_json::to_value(&parsed).ok(), Some(json!(value)));
    }
}

/// An exhaustive match over the type's variants: adding a variant stops this from
/// compiling until it is listed here, and the test then requires it in the type's `ALL`.
macro_rules! every_variant {
    ($type:ident: $($variant:ident),+ $(,)?) => {{
        #[allow(dead_code)]
        fn exhaustive(value: $type) {
            match value {
                $($type::$variant => {})+
            }
        }
        vec![$($type::$variant),+]
    }};
}

#[actix_web::test]
async fn closed_sets_are_enums_equal_to_the_domain_values() {
    use arbiter::archive::{ChatChannel, EventKind, SeatColour};
    use arbiter::chat::{Category, FfaClass, Severity};
    use arbiter::conduct::abort::AbortReason;
    use arbiter::moderation::{
        AuditAction, DecisionKind, Ground, ReportOutcome, ReportReason, ReportSource, SanctionKind,
    };

    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();

    let reasons = every_variant!(ReportReason: OffensiveChat, RuleViolatingChat, Abandoning,
        SelfPartnering, PrearrangedTeaming, Other);
    assert_eq!(reasons, ReportReason::ALL.to_vec());
    let grounds = every_variant!(Ground: AbusiveLanguageHabit, Harassment, HighlyOffensiveChat,
        Spamming, RuleViolatingChat, HabitualDisconnecting, Sandbagging, GameSpoiling,
        SelfPartnering, PrearrangedTeaming, ChatCollusion, Other);
    assert_eq!(grounds, Ground::ALL.to_vec());
    let decisions = every_variant!(DecisionKind: DismissUnjustified, DismissNotActionable, Warn,
        Sanction);
    assert_eq!(decisions, DecisionKind::ALL.to_vec());
    let sanctions = every_variant!(SanctionKind: ChatBan, PlayBan, ClubBan, Separation);
    assert_eq!(sanctions, SanctionKind::ALL.to_vec());
    let outcomes = every_variant!(ReportOutcome: Upheld, DismissedUnjustified,
        DismissedNotActionable);
    assert_eq!(outcomes, ReportOutcome::ALL.to_vec());
    let sources = every_variant!(
        ReportSource: Player,
        ChatAnalysis,
        ConductSignal,
        CollusionAnalysis,
        FingerprintMatch,
        Admin
    );
    assert_eq!(sources, ReportSource::ALL.to_vec());
    let severities = every_variant!(Severity: Low, Medium, High, Critical);
    assert_eq!(severities, Severity::ALL.to_vec());
    let classes = every_variant!(FfaClass: Begging, Offering, MoveSuggestion, Intention,
        Collusion, ResignOrClaim, PastMoveDiscussion, TurnReminder, CheckAnnouncement, Neutral);
    assert_eq!(classes, FfaClass::ALL.to_vec());
    let aborts = every_variant!(AbortReason: TeamsFirstMove, CustomStartFirstMove,
        BulletFirstMove, EarlyLeave);
    assert_eq!(aborts, AbortReason::ALL.to_vec());

    for (name, domain) in [
        ("ReportReason", wire(&ReportReason::ALL)),
        ("Ground", wire(&Ground::ALL)),
        ("DecisionKind", wire(&DecisionKind::ALL)),
        ("SanctionKind", wire(&SanctionKind::ALL)),
        ("ReportOutcome", wire(&ReportOutcome::ALL)),
        ("ReportSource", wire(&ReportSource::ALL)),
        ("FlagCategory", wire(&Category::ALL)),
        ("FlagSeverity", wire(&Severity::ALL)),
        ("FfaClass", wire(&FfaClass::ALL)),
        ("SeatColour", wire(&SeatColour::ALL)),
        ("Language", wire(&arbiter::moderation::Language::ALL)),
        (
            "SanctionEvent",
            wire(&arbiter::moderation::WebhookEventKind::ALL),
        ),
    ] {
        assert_eq!(component_enum(&document, name), domain, "{name}");
    }
    accepted_by::<ReportReason>(&component_enum(&document, "ReportReason"));
    accepted_by::<Ground>(&component_enum(&document, "Ground"));
    accepted_by::<DecisionKind>(&component_enum(&document, "DecisionKind"));
    accepted_by::<SanctionKind>(&component_enum(&document, "SanctionKind"));
    accepted_by::<ReportOutcome>(&component_enum(&document, "ReportOutcome"));
    accepted_by::<ReportSource>(&component_enum(&document, "ReportSource"));
    accepted_by::<Category>(&component_enum(&document, "FlagCategory"));
    accepted_by::<Severity>(&component_enum(&document, "FlagSeverity"));
    accepted_by::<FfaClass>(&component_enum(&document, "FfaClass"));
    accepted_by::<SeatColour>(&component_enum(&document, "SeatColour"));
    accepted_by::<EventKind>(&component_enum(&document, "EventKind"));
    accepted_by::<ChatChannel>(&component_enum(&document, "ChatChannel"));
    // Stored flags are written with `Category::name`, read back with the documented names.
    for category in Category::ALL {
        assert_eq!(wire(&[category]), vec![category.name().to_string()]);
    }
    let channels: Vec<String> = component_enum(&document, "ChatChannel");
    assert!(channels.iter().all(|c| ChatChannel::parse(c).is_some()));
    assert_eq!(channels.len(), 3);
    let events = component_enum(&document, "EventKind");
    assert!(events.iter().all(|e| EventKind::parse(e).is_some()));
    assert_eq!(events.len(), 6);
    assert_eq!(
        component_enum(&document, "AbortReason"),
        AbortReason::ALL
            .iter()
            .map(|r| r.as_str().to_string())
            .collect::<Vec<_>>()
    );
    assert_eq!(component_enum(&document, "ModlogKind"), AuditAction::KINDS);
}

/// Fields and parameters that hold a closed set must say which: none is a bare string.
/// The exceptions are open sets, named here with the reason.
#[actix_web::test]
async fn no_closed_set_is_a_bare_string() {
    const CLOSED: &[&str] = &[
        "reason",
        "kind",
        "status",
        "ground",
        "decision",
        "channel",
        "role",
        "severity",
        "category",
        "outcome",
        "source",
        "termination",
        "elimination_cause",
        "cause",
        "team_result",
        "actor_kind",
        "view",
        "tense",
        "ffa",
        "seat",
        "sender_seat",
        "variant",
        "report_outcome",
        "action",
    ];
    // A game's variant is the PGN4 `Variant` tag: any text a site writes.
    const OPEN: &[(&str, &str)] = &[
        ("GameSummary", "variant"),
        ("ExportGameView", "variant"),
        ("PairGameView", "variant"),
        ("VariantCount", "variant"),
        ("GET /api/v1/games", "variant"),
    ];
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let mut bare = Vec::new();
    let schemas = document["components"]["schemas"]
        .as_object()
        .expect("schemas");
    for (schema_name, schema) in schemas {
        let Some(properties) = schema["properties"].as_object() else {
            continue;
        };
        for (field, property) in properties {
            if CLOSED.contains(&field.as_str())
                && !OPEN.contains(&(schema_name.as_str(), field.as_str()))
                && enum_values(&document, property).is_none()
            {
                bare.push(format!("{schema_name}.{field}"));
            }
        }
    }
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let operation_name = format!("{} {path}", method.to_uppercase());
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().unwrap_or_default();
                if CLOSED.contains(&name)
                    && !OPEN.contains(&(operation_name.as_str(), name))
                    && enum_values(&document, &parameter["schema"]).is_none()
                {
                    bare.push(format!("{operation_name} ?{name}"));
                }
            }
        }
    }
    assert!(
        bare.is_empty(),
        "closed sets documented as bare strings: {bare:?}"
    );
    // Domain types are referenced by name, so generated clients share one type per set.
    let reason = &document["components"]["schemas"]["ReportBody"]["properties"]["reason"];
    assert_eq!(reason["$ref"], "#/components/schemas/ReportReason");
    let kind = &document["components"]["schemas"]["SanctionBody"]["properties"]["kind"];
    assert_eq!(kind["$ref"], "#/components/schemas/SanctionKind");
}

fn operations(document: &Value) -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            all.push((method.clone(), path.clone(), operation.clone()));
        }
    }
    all
}

#[actix_web::test]
async fn every_limit_states_the_bounds_the_server_enforces() {
    use arbiter::api::pagination::MAX_LIMIT;
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let mut paginated = 0;
    for (method, path, operation) in operations(&document) {
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            if parameter["name"] == "limit" {
                paginated += 1;
                assert_eq!(parameter["schema"]["minimum"], 1, "{method} {path}");
                assert_eq!(parameter["schema"]["maximum"], MAX_LIMIT, "{method} {path}");
            }
        }
    }
    assert!(paginated >= 8, "{paginated} paginated routes");
    let text = &document["components"]["schemas"]["ChatCheckRequest"]["properties"]["text"];
    assert_eq!(
        text["maxLength"],
        arbiter::api::routes::chat::MAX_TEXT_CHARS
    );

    // The bounds are the server's: each listing parser refuses 0 and 201, takes 1 and 200.
    let admin = app.token(arbiter::api::auth::tokens::TokenRole::Admin, "bounds");
    for path in [
        "/api/v1/admin/tokens",
        "/api/v1/admin/cases",
        "/api/v1/admin/appeals",
        "/api/v1/admin/modlog",
    ] {
        for limit in [0, MAX_LIMIT + 1] {
            app.get(&format!("{path}?limit={limit}"), Some(&admin))
                .await
                .assert_error(400, "invalid_limit");
        }
        for limit in [1, MAX_LIMIT] {
            let response = app
                .get(&format!("{path}?limit={limit}"), Some(&admin))
                .await;
            assert_eq!(response.status, 200, "{path}: {}", response.text());
        }
    }
}

#[actix_web::test]
async fn every_route_documents_the_answers_of_its_kind() {
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    for (method, path, operation) in operations(&document) {
        let responses = operation["responses"].as_object().expect("responses");
        let has = |status: &str| responses.contains_key(status);
        let name = format!("{method} {path}");
        if operation["security"]
            .as_array()
            .is_some_and(|s| !s.is_empty())
        {
            assert!(has("401") && has("503"), "{name}: 401 and 503");
            assert!(
                responses["401"]["headers"]["WWW-Authenticate"].is_object(),
                "{name}"
            );
        }
        if path.contains("{id}") {
            let description = responses["400"]["description"].as_str().unwrap_or_default();
            assert!(
                description.contains("invalid_path"),
                "{name}: {description}"
            );
        }
        if let Some(content) = operation["requestBody"]["content"].as_object() {
            assert!(has("400") && has("413") && has("415"), "{name}");
            let description = responses["415"]["description"].as_str().unwrap_or_default();
            for content_type in content.keys() {
                assert!(
                    description.contains(content_type.as_str()),
                    "{name}: {description}"
                );
            }
        }
    }
    let ingest = &document["paths"]["/api/v1/games"]["post"]["requestBody"]["content"];
    assert!(ingest["application/json"].is_object() && ingest["text/plain"].is_object());
    // Bodies from two modules once shared a name, so one silently replaced the other.
    let schemas = &document["components"]["schemas"];
    for name in [
        "SanctionView",
        "SanctionRecordView",
        "AppealView",
        "QueuedAppeal",
        "FlagView",
        "LineCheckFlag",
    ] {
        assert!(schemas[name].is_object(), "{name} missing");
    }
    assert!(schemas["QueuedAppeal"]["properties"]["player"].is_object());
    assert!(schemas["AppealView"]["properties"]["sanction_id"].is_object());
    assert!(schemas["SanctionView"]["properties"]["effective_end"].is_object());
    assert!(schemas["SanctionRecordView"]["properties"]["note"].is_object());
    assert!(schemas["FlagView"]["properties"]["game_id"].is_object());
    assert!(schemas["LineCheckFlag"]["properties"]["matched"].is_object());
}

#[actix_web::test]
async fn a_405_lists_the_route_methods_in_allow() {
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let mut by_path: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (method, path, _) in operations(&document) {
        by_path.entry(path).or_default().push(method.to_uppercase());
    }
    for (path, methods) in by_path {
        let concrete = path.replace("{id}", "7").replace("{name}", "Spaksi");
        let response = app.request("PATCH", &concrete, None, None).await;
        let error = response.assert_error(405, "method_not_allowed");
        let mut allow: Vec<String> = response
            .header("allow")
            .unwrap_or_else(|| panic!("PATCH {path}: no Allow header"))
            .split(", ")
            .map(str::to_string)
            .collect();
        allow.sort();
        let mut expected = methods.clone();
        expected.sort();
        assert_eq!(allow, expected, "PATCH {path}");
        assert_eq!(
            error["details"]["allowed"].as_array().map(Vec::len),
            Some(expected.len())
        );
    }
    // Ids that do not parse still name the route's methods.
    let response = app
        .request("DELETE", "/api/v1/games/not-a-number", None, None)
        .await;
    assert_eq!(response.status, 405);
    assert_eq!(response.header("allow").as_deref(), Some("GET"));
    let response = app.request("PUT", "/api/v1/admin/tokens", None, None).await;
    assert_eq!(response.header("allow").as_deref(), Some("GET, POST"));
}

#[actix_web::test]
async fn a_415_names_the_accepted_types() {
    use actix_web::test::TestRequest;
    use arbiter::api::auth::tokens::TokenRole;
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "media");
    let server = app.token(TokenRole::Server, "media-server");
    let send = |path: &str, token: &str, content_type: &str| {
        TestRequest::post()
            .uri(path)
            .insert_header(("authorization", format!("Bearer {token}")))
            .insert_header(("content-type", content_type.to_string()))
            .set_payload("{}")
    };
    let response = app
        .send(send("/api/v1/admin/tokens", &admin, "text/plain"))
        .await;
    let error = response.assert_error(415, "unsupported_media_type");
    assert_eq!(error["details"]["accepted"], json!(["application/json"]));
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("application/json")));

    let response = app
        .send(send("/api/v1/games", &server, "application/xml"))
        .await;
    let error = response.assert_error(415, "unsupported_media_type");
    assert_eq!(
        error["details"]["accepted"],
        json!(["application/json", "text/plain"])
    );
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("application/json") && message.contains("text/plain"),
        "{message}"
    );
}

#[actix_web::test]
async fn path_ids_that_do_not_parse_are_400_invalid_path() {
    use arbiter::api::auth::tokens::TokenRole;
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "paths");
    for path in [
        "/api/v1/games/abc",
        "/api/v1/games/99999999999999999999",
        "/api/v1/admin/cases/1.5",
    ] {
        app.get(path, Some(&admin))
            .await
            .assert_error(400, "invalid_path");
    }
}

#[actix_web::test]
async fn an_unknown_termination_filter_is_refused() {
    use arbiter::api::auth::tokens::TokenRole;
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "filters");
    let error = app
        .get("/api/v1/games?termination=walkover", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "termination");
    let response = app
        .get("/api/v1/games?termination=king_captured", Some(&admin))
        .await;
    assert_eq!(response.status, 200, "{}", response.text());
}

/// Collects every `$ref` in `value`.
fn references(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                found.push(reference.clone());
            }
            map.values().for_each(|v| references(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, found)),
        _ => {}
    }
}

/// A parameter's enum once pointed at a schema the document did not hold, and clients
/// (and Schemathesis) had to skip it.
#[actix_web::test]
async fn every_reference_resolves() {
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let mut found = Vec::new();
    references(&document, &mut found);
    assert!(found.len() > 50, "{} references", found.len());
    let dangling: Vec<&String> = found
        .iter()
        .filter(|r| {
            r.strip_prefix("#/components/schemas/")
                .is_none_or(|name| !document["components"]["schemas"][name].is_object())
        })
        .collect();
    assert!(dangling.is_empty(), "dangling references: {dangling:?}");
}

/// A real game's answers use only the documented values. The timeline once wrote causes as
/// prose (`timed out`, `king captured`) while seats wrote `timed_out`.
#[actix_web::test]
async fn a_real_game_answers_with_documented_values_only() {
    use actix_web::test::TestRequest;
    use arbiter::api::auth::tokens::TokenRole;
    let app = TestApp::spawn().await;
    let document = app.get("/api/v1/openapi.json", None).await.json();
    let server = app.token(TokenRole::Server, "values-server");
    let admin = app.token(TokenRole::Admin, "values-admin");
    let stored = app
        .send(
            TestRequest::post()
                .uri("/api/v1/games")
                .insert_header(("authorization", format!("Bearer {server}")))
                .insert_header(("content-type", "text/plain"))
                .set_payload(include_str!("../data/pgn4/ffa/cc_game_0016.pgn4")),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    let stored = stored.json();
    assert_eq!(stored["status"], "created");
    let game = app
        .get(&format!("/api/v1/games/{}", stored["id"]), Some(&admin))
        .await
        .json();
    let causes = component_enum(&document, "EliminationCause");
    let mut seen = 0;
    for ply in game["timeline"].as_array().expect("timeline") {
        for elimination in ply["eliminations"].as_array().expect("eliminations") {
            seen += 1;
            let cause = elimination["cause"].as_str().unwrap_or_default();
            assert!(
                causes.iter().any(|c| c == cause),
                "timeline cause {cause:?}"
            );
        }
    }
    assert!(seen >= 1, "the game has eliminations");
    for seat in game["seats"].as_array().expect("seats") {
        if let Some(cause) = seat["elimination_cause"].as_str() {
            assert!(causes.iter().any(|c| c == cause), "seat cause {cause:?}");
        }
    }
    let terminations = component_enum(&document, "Termination");
    let termination = game["termination"].as_str().unwrap_or_default();
    assert!(
        terminations.iter().any(|t| t == termination),
        "{termination}"
    );
}

/// Every `ToSchema` type under `src/` with the name it takes in the document: `#[schema(as =
/// X)]` when given, else the type's own name. utoipa keys components by that name alone, so two
/// types of one name silently share one schema and one of them is documented wrongly.
fn schema_names() -> Vec<(String, PathBuf)> {
    fn walk(dir: &std::path::Path, found: &mut Vec<(String, PathBuf)>) {
        for entry in std::fs::read_dir(dir).expect("source dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, found);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source");
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for (at, line) in lines.iter().enumerate() {
                if !(line.starts_with("#[derive(") && line.contains("ToSchema")) {
                    continue;
                }
                let mut renamed = None;
                for next in &lines[at + 1..] {
                    if let Some(rest) = next.strip_prefix("#[schema(as = ") {
                        renamed = Some(rest.trim_end_matches(")]").to_string());
                    }
                    let item = next.strip_prefix("pub ").unwrap_or(next);
                    let declared = item
                        .strip_prefix("struct ")
                        .or_else(|| item.strip_prefix("enum "));
                    if let Some(declared) = declared {
                        let own: String = declared
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        found.push((renamed.unwrap_or(own), path.clone()));
                        break;
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    found
}

#[test]
fn no_two_schema_types_share_a_name() {
    let names = schema_names();
    assert!(names.len() > 50, "found only {} schema types", names.len());
    let mut seen: std::collections::BTreeMap<&str, &PathBuf> = Default::default();
    let mut clashes = Vec::new();
    for (name, path) in &names {
        if let Some(first) = seen.insert(name, path) {
            clashes.push(format!(
                "{name}: {} and {}",
                first.display(),
                path.display()
            ));
        }
    }
    assert!(clashes.is_empty(), "schema names used twice: {clashes:#?}");
}
