//! Running host calls on the caller's thread for a script on another one.
//!
//! rhai's registered functions must be `'static + Send + Sync`, but the host
//! is a borrowed `&mut dyn Host`. The script therefore runs on a scoped
//! worker thread and reaches the host through [`Remote`], which ships each
//! call as a closure to the calling thread, where [`serve`] runs it against
//! the real host and sends the result back. No unsafe code, and the host
//! need not be `Send`.

use std::sync::mpsc::{Receiver, Sender, channel};

use super::host::{Host, HostError, InsertAt};
use crate::joinpoint::{JoinPoint, Value};

/// A host call waiting to run on the host's thread.
pub type Request = Box<dyn FnOnce(&mut dyn Host) + Send>;

/// The script side's handle to the host.
#[derive(Clone)]
pub struct Remote {
    requests: Sender<Request>,
    root: JoinPoint,
}

/// A remote for the host served by `serve(host, receiver)`.
pub fn connect(host: &dyn Host) -> (Remote, Receiver<Request>) {
    let (requests, receiver) = channel();
    (
        Remote {
            requests,
            root: host.root(),
        },
        receiver,
    )
}

/// Runs requests against `host` until every [`Remote`] is dropped.
pub fn serve(host: &mut dyn Host, requests: Receiver<Request>) {
    for request in requests {
        request(host);
    }
}

impl Remote {
    /// Runs `f` on the host's thread and returns its result.
    fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Host) -> Result<R, HostError> + Send + 'static,
    ) -> Result<R, HostError> {
        let (reply, result) = channel();
        let request: Request = Box::new(move |host| {
            // The script side may have gone (an error unwound it); then
            // nobody wants the reply.
            let _ = reply.send(f(host));
        });
        let lost = || HostError::Failed("the program being woven is no longer available".into());
        self.requests.send(request).map_err(|_| lost())?;
        result.recv().map_err(|_| lost())?
    }
}

impl Host for Remote {
    fn root(&self) -> JoinPoint {
        self.root.clone()
    }

    fn select(&mut self, parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
        let (parent, kind) = (parent.clone(), kind.to_string());
        self.call(move |h| h.select(&parent, &kind))
    }

    fn attribute(&mut self, jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
        let (jp, name) = (jp.clone(), name.to_string());
        self.call(move |h| h.attribute(&jp, &name))
    }

    fn insert(&mut self, jp: &JoinPoint, at: InsertAt, code: &str) -> Result<(), HostError> {
        let (jp, code) = (jp.clone(), code.to_string());
        self.call(move |h| h.insert(&jp, at, &code))
    }

    fn perform(&mut self, jp: &JoinPoint, action: &str, args: &[Value]) -> Result<(), HostError> {
        let (jp, action, args) = (jp.clone(), action.to_string(), args.to_vec());
        self.call(move |h| h.perform(&jp, &action, &args))
    }

    fn define(&mut self, jp: &JoinPoint, name: &str, value: &Value) -> Result<(), HostError> {
        let (jp, name, value) = (jp.clone(), name.to_string(), value.clone());
        self.call(move |h| h.define(&jp, &name, &value))
    }

    fn commit(&mut self) -> Result<(), HostError> {
        self.call(|h| h.commit())
    }
}
