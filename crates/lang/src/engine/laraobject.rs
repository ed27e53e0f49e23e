//! `LaraObject`, MANET's id allocator: `getId(kind, function, var)` gives a
//! stable integer per distinct triple, in order of first request. Strategies
//! use the ids as indices of the range array and the recorded entries to
//! generate tables. Clones share one table, so an object passed to a called
//! aspect keeps counting for the caller.

use std::sync::{Arc, Mutex};

use rhai::{Array, Dynamic, Map};

/// A shared id allocator (rhai type `LaraObject`).
#[derive(Debug, Clone, Default)]
pub struct LaraObject {
    entries: Arc<Mutex<Vec<(String, String, String)>>>,
}

impl LaraObject {
    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<(String, String, String)>> {
        // A poisoned lock only means another script call panicked; the
        // table itself is still consistent.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The id of (`kind`, `function`, `var`), allocating the next one for a
    /// new triple.
    pub fn get_id(&self, kind: &str, function: &str, var: &str) -> i64 {
        let mut entries = self.entries();
        let key = (kind.to_string(), function.to_string(), var.to_string());
        match entries.iter().position(|e| *e == key) {
            Some(i) => i as i64,
            None => {
                entries.push(key);
                entries.len() as i64 - 1
            }
        }
    }

    /// How many ids were allocated.
    pub fn total(&self) -> i64 {
        self.entries().len() as i64
    }

    /// Every entry as a map `#{kind, function, var, id}`, in id order.
    pub fn entry_maps(&self) -> Array {
        self.entries()
            .iter()
            .enumerate()
            .map(|(id, (kind, function, var))| {
                let mut map = Map::new();
                map.insert("kind".into(), kind.clone().into());
                map.insert("function".into(), function.clone().into());
                map.insert("var".into(), var.clone().into());
                map.insert("id".into(), (id as i64).into());
                Dynamic::from(map)
            })
            .collect()
    }
}

/// Registers `LaraObject()`, `getId`, `getTotal` and `entries` with rhai.
pub fn register(engine: &mut rhai::Engine) {
    let text = super::convert::text;
    engine
        .register_type_with_name::<LaraObject>("LaraObject")
        .register_fn("LaraObject", LaraObject::default)
        .register_fn(
            "getId",
            move |o: &mut LaraObject, k: Dynamic, f: Dynamic, v: Dynamic| {
                o.get_id(&text(&k), &text(&f), &text(&v))
            },
        )
        .register_fn("getTotal", |o: &mut LaraObject| o.total())
        .register_fn("entries", |o: &mut LaraObject| o.entry_maps());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_shared_by_clones() {
        let o = LaraObject::default();
        let copy = o.clone();
        assert_eq!(o.get_id("write", "main", "x"), 0);
        assert_eq!(copy.get_id("param", "f", "a"), 1);
        assert_eq!(o.get_id("write", "main", "x"), 0);
        assert_eq!(o.total(), 2);
        assert_eq!(o.entry_maps().len(), 2);
    }
}
