//! The subcommands of the `anyproc` command line.

pub mod run;
