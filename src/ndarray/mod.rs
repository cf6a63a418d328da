//! N-dimensional arrays: DLPack structs (defined once), `NDArray`, collation into padded batches, `.npy`/`.npz`.
//!
//! With `any` and `object`, this is an FFI layer: the DLPack import/export and
//! buffer access are the unsafe parts, each with a `// SAFETY:` line.

mod array;
mod buffer;
pub mod collate;
mod convert;
mod dtype;
pub mod npy;

pub use anyproc_abi::dlpack;
pub use array::{NDArray, NDArrayObj, checked_numel, compact_strides};
pub use buffer::ALIGNMENT;
pub use collate::{
    Batch, CollateOptions, IdRow, Padding, RaggedBatch, Side, SpecialTokens, Truncation, collate, collate_lists,
    collate_ragged, plan_truncation,
};
pub use dlpack::{DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor};
pub use dtype::Element;
