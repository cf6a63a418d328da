//! The subcommands of the `anyproc` command line.

pub mod records;
pub mod run;
pub mod sink;
