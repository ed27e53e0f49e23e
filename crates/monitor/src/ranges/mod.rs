//! Value ranges: the C runtime text the weaver puts into programs
//! ([`table`]), the record files that runtime writes ([`record`]), and range
//! sets read from them ([`load`]): merged ([`set`]), learned from a sample of
//! training runs ([`learn`]), checked ([`check`]) and compared ([`diff`]);
//! [`aspect_api`] lets aspects build the tables; [`frequency`] makes the
//! FREQ strategies' report from the records of a counting run.
//! Finding lives here; printing lives in the `weft ranges` command.

pub mod aspect_api;
pub mod check;
pub mod diff;
pub mod error;
pub mod frequency;
pub mod key;
pub mod learn;
pub mod load;
pub mod monitor;
pub mod range;
pub mod record;
pub mod set;
pub mod table;

pub use error::RangesError;
pub use key::{Key, Kind, ValueType};
pub use monitor::Ranges;
pub use range::{Bounds, Range, Value};
pub use set::RangeSet;
pub use table::{Slot, TableSpec};
