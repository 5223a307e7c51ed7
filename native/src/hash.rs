//! Checksums of a byte range as lowercase hex: xxh3-128 (fast, for change detection) and blake3
//! (cryptographic, for tamper evidence). Range checking is the caller's job (napi.rs throws RangeError).

/// xxh3-128 as 32 hex digits, high 64 bits first (the canonical XXH128 form `xxhsum -H2` prints).
pub fn xxh3_128_hex(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// blake3 (32-byte output) as 64 hex digits.
pub fn blake3_hex(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blake3_known_vectors() {
        // From the BLAKE3 specification / b3sum.
        assert_eq!(blake3_hex(b""), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
        assert_eq!(blake3_hex(b"abc"), "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
    }

    #[test]
    fn xxh3_128_known_vectors() {
        // XXH128 of the empty input (xxhsum -H2 /dev/null).
        assert_eq!(xxh3_128_hex(b""), "99aa06d3014798d86001c324468d497f");
        assert_eq!(xxh3_128_hex(b"abc").len(), 32);
        assert_ne!(xxh3_128_hex(b"abc"), xxh3_128_hex(b"abd"));
    }
}
