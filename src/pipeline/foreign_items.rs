//! [`ForeignItems`]: the items of an iterator that lives outside anyproc (a Python iterator
//! handed to a script), which a [`Generator`](super::generator::Generator) asks for one at a
//! time, so that a loop that stops early leaves the rest untaken, as in Python.

use crate::AnyValue;
use crate::error::Result;

/// A source of items outside anyproc.
pub trait ForeignItems: Send + Sync + 'static {
    /// The next item, `None` once there is none, or the error the source raised.
    fn next_item(&self) -> Result<Option<AnyValue>>;

    /// Its repr, as its own language writes it.
    fn repr(&self) -> String;

    /// Itself, so that the binding that made it can find its own source again (a Python
    /// iterator goes back to Python as itself).
    fn as_any(&self) -> &dyn std::any::Any;
}
