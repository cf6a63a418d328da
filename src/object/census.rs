//! Live-object accounting, compiled in with the `object-census` feature.
//!
//! Every object birth and every deleter call is counted, so a test can prove
//! that a workload frees each object exactly once.

#[cfg(feature = "object-census")]
mod imp {
    use std::sync::atomic::{AtomicU64, Ordering};

    static BORN: AtomicU64 = AtomicU64::new(0);
    static FREED: AtomicU64 = AtomicU64::new(0);

    pub(crate) fn on_birth() {
        BORN.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn on_free() {
        FREED.fetch_add(1, Ordering::Relaxed);
    }

    /// Objects created so far.
    pub fn born() -> u64 {
        BORN.load(Ordering::SeqCst)
    }

    /// Deleter calls so far.
    pub fn freed() -> u64 {
        FREED.load(Ordering::SeqCst)
    }
}

#[cfg(not(feature = "object-census"))]
mod imp {
    #[inline(always)]
    pub(crate) fn on_birth() {}
    #[inline(always)]
    pub(crate) fn on_free() {}
}

#[cfg(feature = "object-census")]
pub use imp::{born, freed};
pub(crate) use imp::{on_birth, on_free};
