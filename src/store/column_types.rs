//! How the moderation vocabulary reaches the database: id newtypes as `BIGINT` and closed sets
//! as their snake_case names in `TEXT`, so rows and queries carry `CaseId` or `SanctionKind`
//! rather than `i64` and `String`. The impls live here, not beside the types, to keep
//! `moderation` free of the database (diesel's own guide to custom types:
//! <https://diesel.rs/guides/custom-types.html>).

use std::sync::OnceLock;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{BigInt, Nullable, Text};

use crate::chat::{Category, EntryKind, MatchMode, Severity, Strictness};
use crate::moderation::{
    AlertId, AppealId, AppealStatus, CaseId, CaseStatus, DecisionKind, Ground, Language, NoteId,
    PlayerId, ReportId, ReportOutcome, ReportReason, ReportSource, SanctionId, SanctionKind,
    WarningId, WordListEntryId,
};

/// An id newtype bound, compared and read as the `i64` it wraps.
macro_rules! id_column {
    ($($id:ident),* $(,)?) => {$(
        impl AsExpression<BigInt> for $id {
            type Expression = <i64 as AsExpression<BigInt>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<BigInt>::as_expression(self.0)
            }
        }

        impl AsExpression<BigInt> for &$id {
            type Expression = <i64 as AsExpression<BigInt>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<BigInt>::as_expression(self.0)
            }
        }

        impl AsExpression<Nullable<BigInt>> for $id {
            type Expression = <i64 as AsExpression<Nullable<BigInt>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<Nullable<BigInt>>::as_expression(self.0)
            }
        }

        impl AsExpression<Nullable<BigInt>> for &$id {
            type Expression = <i64 as AsExpression<Nullable<BigInt>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<Nullable<BigInt>>::as_expression(self.0)
            }
        }

        // Needed where an `Option<$id>` is bound (nullable columns of insert structs).
        impl<DB: Backend> ToSql<BigInt, DB> for $id
        where
            i64: ToSql<BigInt, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <i64 as ToSql<BigInt, DB>>::to_sql(&self.0, out)
            }
        }

        // `eq_any` on a nullable column binds each value as its column's type.
        impl<DB: Backend> ToSql<Nullable<BigInt>, DB> for $id
        where
            i64: ToSql<BigInt, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <i64 as ToSql<BigInt, DB>>::to_sql(&self.0, out)
            }
        }

        impl<DB: Backend> FromSql<BigInt, DB> for $id
        where
            i64: FromSql<BigInt, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                <i64 as FromSql<BigInt, DB>>::from_sql(bytes).map($id)
            }
        }

        impl<DB: Backend> Queryable<BigInt, DB> for $id
        where
            i64: FromSql<BigInt, DB>,
        {
            type Row = Self;
            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }
    )*};
}

id_column!(
    PlayerId,
    CaseId,
    ReportId,
    SanctionId,
    AppealId,
    NoteId,
    WarningId,
    AlertId,
    WordListEntryId,
);

/// The stored name of each value of a closed set, made once: `ToSql` must lend a `str` that
/// outlives the query, which a name built per call cannot.
fn stored_name<T: Copy + PartialEq + serde::Serialize>(
    all: &[T],
    names: &'static OnceLock<Vec<String>>,
    value: T,
) -> &'static str {
    let names = names.get_or_init(|| all.iter().map(super::enum_name).collect());
    let index = all.iter().position(|v| *v == value).unwrap_or(0);
    &names[index]
}

/// A closed set stored as its snake_case name in `TEXT` (what `super::enum_name` writes).
macro_rules! name_column {
    ($($set:ident),* $(,)?) => {$(
        impl $set {
            /// The name this value is stored under.
            pub(crate) fn stored_name(self) -> &'static str {
                static NAMES: OnceLock<Vec<String>> = OnceLock::new();
                stored_name(&$set::ALL, &NAMES, self)
            }
        }

        impl AsExpression<Text> for $set {
            type Expression = <&'static str as AsExpression<Text>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<Text>::as_expression(self.stored_name())
            }
        }

        impl AsExpression<Text> for &$set {
            type Expression = <&'static str as AsExpression<Text>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<Text>::as_expression(self.stored_name())
            }
        }

        impl AsExpression<Nullable<Text>> for $set {
            type Expression = <&'static str as AsExpression<Nullable<Text>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                AsExpression::<Nullable<Text>>::as_expression(self.stored_name())
            }
        }

        impl<DB: Backend> ToSql<Text, DB> for $set
        where
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <str as ToSql<Text, DB>>::to_sql(self.stored_name(), out)
            }
        }

        impl<DB: Backend> ToSql<Nullable<Text>, DB> for $set
        where
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <str as ToSql<Text, DB>>::to_sql(self.stored_name(), out)
            }
        }

        impl<DB: Backend> FromSql<Text, DB> for $set
        where
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let name = <String as FromSql<Text, DB>>::from_sql(bytes)?;
                Ok(super::parse_enum(&name)?)
            }
        }

        impl<DB: Backend> Queryable<Text, DB> for $set
        where
            String: FromSql<Text, DB>,
        {
            type Row = Self;
            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }
    )*};
}

name_column!(
    ReportReason,
    ReportSource,
    ReportOutcome,
    DecisionKind,
    Ground,
    SanctionKind,
    CaseStatus,
    AppealStatus,
    Language,
    Category,
    Severity,
    Strictness,
    MatchMode,
    EntryKind,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_name_is_the_serde_name() {
        for kind in SanctionKind::ALL {
            assert_eq!(kind.stored_name(), super::super::enum_name(&kind));
        }
        for reason in ReportReason::ALL {
            assert_eq!(reason.stored_name(), super::super::enum_name(&reason));
        }
        for ground in Ground::ALL {
            assert_eq!(ground.stored_name(), super::super::enum_name(&ground));
        }
    }
}
