//! Table definitions shared by both backends. Written by hand (not generated) because the
//! SQLite and PostgreSQL DDL differ in spelling while mapping to the same diesel types:
//! ids are `BigInt`, timestamps are `Timestamp` holding UTC.

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        name -> Text,
        role -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}
