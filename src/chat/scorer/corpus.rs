//! The training corpus format: UTF-8 TSV with the header `source lang abuse identity text`,
//! as `training/chat_scorer/stage.py` and `own/expand.py` write it (`abuse` 0 or 1,
//! `identity` 0, 1 or `-` where the source does not say).

use super::training::Example;

/// A corpus line that cannot be read, with its line number (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct CorpusError {
    pub line: usize,
    pub problem: String,
}

const HEADER: &str = "source\tlang\tabuse\tidentity\ttext";

/// Reads a corpus; the header is optional (so the expanded own lines can be read alone).
pub fn parse_corpus(text: &str) -> Result<Vec<Example>, CorpusError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.is_empty() || (i == 0 && raw == HEADER) {
            continue;
        }
        let fail = |problem: &str| CorpusError {
            line,
            problem: problem.to_string(),
        };
        let mut fields = raw.splitn(5, '\t');
        let (Some(source), Some(lang), Some(abuse), Some(identity), Some(text)) = (
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
        ) else {
            return Err(fail("expected 5 tab-separated fields"));
        };
        if lang.is_empty() || !lang.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(fail("lang must be a lower-case language code"));
        }
        let hostile = match abuse {
            "0" => false,
            "1" => true,
            _ => return Err(fail("abuse must be 0 or 1")),
        };
        let identity = match identity {
            "0" => Some(false),
            "1" => Some(true),
            "-" => None,
            _ => return Err(fail("identity must be 0, 1 or -")),
        };
        if text.trim().is_empty() {
            return Err(fail("text is empty"));
        }
        out.push(Example {
            source: source.to_string(),
            lang: lang.to_string(),
            hostile,
            identity,
            text: text.to_string(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_with_or_without_the_header() {
        let rows =
            parse_corpus("source\tlang\tabuse\tidentity\ttext\nown\ten\t1\t-\tgo away\tnow\n")
                .unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].text, "go away\tnow");
        assert!(rows[0].hostile && rows[0].identity.is_none());
        assert_eq!(parse_corpus("own\tde\t0\t0\thallo\n").unwrap().len(), 1);
    }

    #[test]
    fn bad_rows_name_their_line_and_field() {
        let error = parse_corpus("own\ten\t0\t0\tok\nown\ten\tyes\t0\tx\n").unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.problem.contains("abuse"));
        assert!(parse_corpus("own\tEN\t0\t0\tx").is_err());
        assert!(parse_corpus("own\ten\t0\t0").is_err());
    }
}
