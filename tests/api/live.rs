//! A real server on an ephemeral port: what in-process tests cannot show (connections).

use crate::support::LiveServer;

#[actix_web::test]
async fn real_connection_gets_envelopes_even_when_a_handler_panics() {
    let server = LiveServer::start().await;
    let (status, response) = server
        .raw("GET /healthz HTTP/1.1\r\nHost: test\r\nx-request-id: live-1\r\nConnection: close\r\n\r\n".to_string())
        .await;
    assert_eq!(status, 200, "{response}");
    assert!(
        response.to_lowercase().contains("x-request-id: live-1"),
        "{response}"
    );

    let (status, response) = server
        .raw("GET /__test/panic HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".to_string())
        .await;
    assert_eq!(status, 500, "{response}");
    assert!(response.contains(r#""code":"internal""#), "{response}");

    // A body over the limit, announced by Content-Length.
    let limit = server.app.state.settings.server.body_limit_bytes;
    let (status, response) = server
        .raw(format!(
            "POST /__test/echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            limit + 1
        ))
        .await;
    assert_eq!(status, 413, "{response}");
    assert!(response.contains("payload_too_large"), "{response}");

    let (status, _) = server
        .raw("GET /readyz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".to_string())
        .await;
    assert_eq!(status, 200);
    server.stop().await;
}
