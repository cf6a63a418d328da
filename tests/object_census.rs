//! placeholder until written
