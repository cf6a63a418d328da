//! (being written)

use crate::Result;
use crate::func::Registry;

/// Registers this family's ops.
pub fn register(_reg: &Registry) -> Result<()> {
    Ok(())
}
