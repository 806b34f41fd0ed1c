//! The chat analyser an instance serves with: the built-in one until the admins' word list is
//! read, then rebuilt from it whenever its version moves (`jobs::word_list_reloader`). Every
//! request takes the analyser current when it starts, so a rebuild never waits on a request
//! and a request never sees half a change.

use std::sync::{Arc, RwLock};

use tokio::sync::{Mutex, Notify};

use crate::chat::{Analyzer, WordList};

pub struct LiveAnalyzer {
    current: RwLock<Loaded>,
    /// Held by the one rebuild at a time, so that a change made here and the poll do not
    /// build the same list twice.
    pub(crate) rebuilding: Mutex<()>,
    /// Ends the reloader's pause at once, after a change made on this instance.
    pub wake: Arc<Notify>,
}

struct Loaded {
    /// The word list's version the analyser was built from; `None` before the first read.
    version: Option<i64>,
    list: WordList,
    analyzer: Arc<Analyzer>,
}

impl LiveAnalyzer {
    pub fn new(built_in: Arc<Analyzer>) -> LiveAnalyzer {
        LiveAnalyzer {
            current: RwLock::new(Loaded {
                version: None,
                list: WordList::default(),
                analyzer: built_in,
            }),
            rebuilding: Mutex::new(()),
            wake: Arc::new(Notify::new()),
        }
    }

    /// The analyser to judge with now.
    pub fn current(&self) -> Arc<Analyzer> {
        match self.current.read() {
            Ok(loaded) => loaded.analyzer.clone(),
            Err(poisoned) => poisoned.into_inner().analyzer.clone(),
        }
    }

    /// The word list's version the current analyser was built from.
    pub fn version(&self) -> Option<i64> {
        match self.current.read() {
            Ok(loaded) => loaded.version,
            Err(poisoned) => poisoned.into_inner().version,
        }
    }

    /// The word list the current analyser was built from.
    pub fn list(&self) -> WordList {
        match self.current.read() {
            Ok(loaded) => loaded.list.clone(),
            Err(poisoned) => poisoned.into_inner().list.clone(),
        }
    }

    /// Serves `analyzer`, built from `list` at `version`, unless a later version is served
    /// already.
    pub fn replace(&self, version: i64, list: WordList, analyzer: Arc<Analyzer>) {
        let mut loaded = match self.current.write() {
            Ok(loaded) => loaded,
            Err(poisoned) => poisoned.into_inner(),
        };
        if loaded.version.is_none_or(|v| v < version) {
            *loaded = Loaded {
                version: Some(version),
                list,
                analyzer,
            };
        }
    }
}
