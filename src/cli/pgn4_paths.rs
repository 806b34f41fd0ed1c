//! The PGN4 files named on a command line (`arbiter import`, `arbiter replay`): files as
//! given, directories searched recursively for `*.pgn4`, and each file once however the
//! paths overlap (a directory and a file in it, `dir` and `dir/sub`, `./x` and `x`, the same
//! path twice, symbolic links).

use std::collections::HashSet;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// Every file named directly (whatever its name) and every `*.pgn4` file under the named
/// directories, in the order given with each directory's entries sorted. Each file is listed
/// once, under the path it was first reached by.
pub fn pgn4_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Found::default();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            ErrorKind::NotFound => anyhow::anyhow!("{}: no such file or directory", path.display()),
            _ => anyhow::Error::new(e).context(format!("{}: cannot read", path.display())),
        })?;
        if meta.is_dir() {
            found.walk(path)?;
        } else {
            found.add(path)?;
        }
    }
    Ok(found.files)
}

#[derive(Default)]
struct Found {
    files: Vec<PathBuf>,
    /// Canonical paths of the files listed and of the directories walked.
    seen_files: HashSet<PathBuf>,
    seen_dirs: HashSet<PathBuf>,
}

impl Found {
    fn add(&mut self, path: &Path) -> anyhow::Result<()> {
        if self.seen_files.insert(canonical(path)?) {
            self.files.push(path.to_path_buf());
        }
        Ok(())
    }

    fn walk(&mut self, dir: &Path) -> anyhow::Result<()> {
        // Also ends cycles of symbolic links to a parent directory.
        if !self.seen_dirs.insert(canonical(dir)?) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
            .with_context(|| format!("{}: cannot list", dir.display()))?;
        entries.sort();
        for path in entries {
            if path.is_dir() {
                self.walk(&path)?;
            } else if path.extension().is_some_and(|x| x == "pgn4") {
                self.add(&path)?;
            }
        }
        Ok(())
    }
}

fn canonical(path: &Path) -> anyhow::Result<PathBuf> {
    match path.canonicalize() {
        Ok(canonical) => Ok(canonical),
        // A dangling symbolic link found in a directory.
        Err(e) if e.kind() == ErrorKind::NotFound => {
            bail!("{}: no such file or directory", path.display())
        }
        Err(e) => Err(anyhow::Error::new(e).context(format!("{}: cannot read", path.display()))),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[allow(clippy::expect_used)]
    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, "").expect("write");
    }

    #[test]
    fn overlapping_paths_give_each_file_once() {
        let root = tempfile::tempdir().expect("temp dir");
        let dir = root.path().join("games");
        touch(&dir.join("a.pgn4"));
        touch(&dir.join("sub/b.pgn4"));
        touch(&dir.join("notes.txt"));
        let other = root.path().join("other.txt");
        touch(&other);
        std::os::unix::fs::symlink(dir.join("a.pgn4"), root.path().join("link.pgn4"))
            .expect("symlink");
        let paths = [
            dir.join("sub"),
            dir.clone(),
            dir.join("a.pgn4"),
            dir.join("./sub/../a.pgn4"),
            root.path().join("link.pgn4"),
            other.clone(),
            other.clone(),
        ];
        let files = pgn4_files(&paths).expect("files");
        assert_eq!(
            files,
            vec![dir.join("sub/b.pgn4"), dir.join("a.pgn4"), other],
            "each file once, under the first path that reached it"
        );
    }

    #[test]
    fn a_link_to_a_parent_directory_is_walked_once() {
        let root = tempfile::tempdir().expect("temp dir");
        let dir = root.path().join("games");
        touch(&dir.join("c.pgn4"));
        std::os::unix::fs::symlink(&dir, dir.join("again")).expect("symlink");
        assert_eq!(
            pgn4_files(std::slice::from_ref(&dir)).expect("files"),
            vec![dir.join("c.pgn4")]
        );
    }

    #[test]
    fn a_missing_path_is_named() {
        let err = pgn4_files(&[PathBuf::from("/nonexistent/x.pgn4")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/nonexistent/x.pgn4: no such file or directory"
        );
    }
}
