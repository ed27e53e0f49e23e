//! The host as the script's registered functions reach it.
//!
//! rhai's registered functions must be `'static + Send + Sync`, so they
//! cannot hold the `&mut` host the interpreter was given. For the length
//! of a run the interpreter moves the host into a [`SharedHost`] (a locked,
//! shared handle) and takes it back at the end; the script thread calls it
//! directly, with no hand-off between threads and no unsafe code.

use std::sync::{Arc, Mutex, MutexGuard};

use super::host::{Host, HostError, InsertAt, Part};
use crate::model::{JoinPoint, Value};

/// The script side's handle to the host.
#[derive(Clone)]
pub struct SharedHost {
    host: Arc<Mutex<dyn Host + Send>>,
    root: JoinPoint,
}

impl SharedHost {
    /// A handle to `host`, which the caller keeps a clone of to take the
    /// host back when the script is done.
    pub fn new(host: Arc<Mutex<dyn Host + Send>>) -> SharedHost {
        let root = lock(&host).root();
        SharedHost { host, root }
    }

    fn host(&self) -> MutexGuard<'_, dyn Host + Send + 'static> {
        lock(&self.host)
    }
}

/// The host behind `shared`. A lock poisoned by a crash in a host call is
/// still taken: the run ends with that crash as its error, and the host
/// must go back to its owner all the same.
fn lock(shared: &Mutex<dyn Host + Send>) -> MutexGuard<'_, dyn Host + Send + 'static> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

impl Host for SharedHost {
    fn root(&self) -> JoinPoint {
        self.root.clone()
    }

    fn select(&mut self, parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
        self.host().select(parent, kind)
    }

    fn select_part(
        &mut self,
        parent: &JoinPoint,
        kind: &str,
        from: Part,
    ) -> Result<(Vec<JoinPoint>, Option<Part>), HostError> {
        self.host().select_part(parent, kind, from)
    }

    fn attribute(&mut self, jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
        self.host().attribute(jp, name)
    }

    fn insert(&mut self, jp: &JoinPoint, at: InsertAt, code: &str) -> Result<(), HostError> {
        self.host().insert(jp, at, code)
    }

    fn perform(&mut self, jp: &JoinPoint, action: &str, args: &[Value]) -> Result<(), HostError> {
        self.host().perform(jp, action, args)
    }

    fn define(&mut self, jp: &JoinPoint, name: &str, value: &Value) -> Result<(), HostError> {
        self.host().define(jp, name, value)
    }

    fn commit(&mut self) -> Result<(), HostError> {
        self.host().commit()
    }
}
