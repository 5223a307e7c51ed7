//! Prefix check: is `copy` a byte-prefix of `master`, and if not, where do they first differ.
//! This is the sandbox verifier's question; it is not a diff (it stops at the first difference).

/// Chunk size for the equality fast path: big enough that memcmp runs at full speed, small enough
/// that locating the differing byte inside a failing chunk is cheap.
const CHUNK: usize = 4096;

/// `None` when `copy` is a byte-prefix of `master` (equal buffers included); otherwise the first
/// offset where they differ, which is `master.len()` when `copy` is longer and equal up to there.
pub fn prefix_check(master: &[u8], copy: &[u8]) -> Option<usize> {
    let n = master.len().min(copy.len());
    let mut at = 0;
    while at < n {
        let to = (at + CHUNK).min(n);
        if master[at..to] != copy[at..to] {
            let k = master[at..to].iter().zip(&copy[at..to]).position(|(a, b)| a != b);
            // The chunks differ, so some byte differs.
            return Some(at + k.unwrap_or(0));
        }
        at = to;
    }
    if copy.len() > master.len() {
        Some(master.len())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::prefix_check;

    #[test]
    fn equal_and_prefix() {
        assert_eq!(prefix_check(b"", b""), None);
        assert_eq!(prefix_check(b"abc", b""), None);
        assert_eq!(prefix_check(b"abc", b"ab"), None);
        assert_eq!(prefix_check(b"abc", b"abc"), None);
    }

    #[test]
    fn first_difference() {
        assert_eq!(prefix_check(b"abc", b"abd"), Some(2));
        assert_eq!(prefix_check(b"abc", b"xbc"), Some(0));
        assert_eq!(prefix_check(b"abc", b"abcd"), Some(3));
        assert_eq!(prefix_check(b"", b"a"), Some(0));
    }

    #[test]
    fn difference_past_first_chunk() {
        let master = vec![7u8; 3 * super::CHUNK + 5];
        let mut copy = master.clone();
        copy[2 * super::CHUNK + 17] = 8;
        assert_eq!(prefix_check(&master, &copy), Some(2 * super::CHUNK + 17));
        copy.truncate(2 * super::CHUNK);
        assert_eq!(prefix_check(&master, &copy), None);
    }
}
