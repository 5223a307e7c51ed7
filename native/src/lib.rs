//! prolong-native: the byte-scanning core of prolong's log tools, loaded by Bun/Node as an N-API addon.
//!
//! One module per job; each is plain safe Rust over `&[u8]` with its own unit tests. Only `napi.rs`
//! touches the JavaScript engine; it and `mapped.rs` (mmap/munmap/madvise) are the only files with `unsafe`,
//! apart from one call in `sections.rs` into its newline count compiled for AVX2 once the CPU is known to have
//! it. The contract every function keeps is written once, in src/native.ts of the project; test/oracle/ holds
//! a TypeScript twin of each.

pub mod diff;
pub mod hash;
pub mod listing;
pub mod mapped;
pub mod prefix;
pub mod sections;
pub mod tree;

// The N-API glue links against symbols the host (Bun/Node) provides at load time; a test binary has no
// host, so it is left out of `cargo test`.
#[cfg(not(test))]
mod napi;
