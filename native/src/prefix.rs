//! Prefix check: is `copy` a byte-prefix of `master`, and if not, where do they first differ.
//! This is the sandbox verifier's question; it is not a diff (it stops at the first difference).

/// Chunk size for the equality fast path: big enough that memcmp runs at full speed, small enough
/// that locating the differing byte inside a failing chunk is cheap.
const CHUNK: usize = 4096;

/// Below this many compared bytes one thread is quicker than starting a second.
const PARALLEL_MIN: usize = 16 << 20;

/// `None` when `copy` is a byte-prefix of `master` (equal buffers included); otherwise the first
/// offset where they differ, which is `master.len()` when `copy` is longer and equal up to there.
/// Big inputs are compared in two halves on two threads (the first half's difference wins).
pub fn prefix_check(master: &[u8], copy: &[u8]) -> Option<usize> {
    let n = master.len().min(copy.len());
    let first = if n >= PARALLEL_MIN {
        let mid = n / 2;
        let (left, right) = std::thread::scope(|scope| {
            let right = scope.spawn(|| first_difference(&master[mid..n], &copy[mid..n], true).map(|i| mid + i));
            let left = first_difference(&master[..mid], &copy[..mid], true);
            (left, right.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
        });
        left.or(right)
    } else {
        first_difference(&master[..n], &copy[..n], false)
    };
    if first.is_some() {
        return first;
    }
    if copy.len() > master.len() {
        Some(master.len())
    } else {
        None
    }
}

/// Bytes whose pages are mapped in (both files') before they are compared: a compare that stops early maps in
/// little more than what it read.
const POPULATE: usize = 8 << 20;

/// The first offset where two equally long slices differ. With `release` (big compares) each block is
/// released once compared (see mapped::release; buffers that are not mapped files are never released): the
/// compare keeps about two blocks a thread resident, and the page-table teardown is done here, on both
/// threads, instead of at exit on one core. Small compares keep their pages: a caller that compares the same
/// mapping again (the in-process benchmark, a harness sync) would only map them back in.
fn first_difference(master: &[u8], copy: &[u8], release: bool) -> Option<usize> {
    let n = master.len();
    let mut block = 0;
    while block < n {
        let end = (block + POPULATE).min(n);
        let (m, c) = (&master[block..end], &copy[block..end]);
        crate::mapped::populate(m);
        crate::mapped::populate(c);
        let mut at = 0;
        while at < m.len() {
            let to = (at + CHUNK).min(m.len());
            if m[at..to] != c[at..to] {
                let k = m[at..to].iter().zip(&c[at..to]).position(|(a, b)| a != b);
                // The chunks differ, so some byte differs.
                return Some(block + at + k.unwrap_or(0));
            }
            at = to;
        }
        if release {
            crate::mapped::release(m);
            crate::mapped::release(c);
        }
        block = end;
    }
    None
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
    fn two_threads_find_the_first_difference() {
        let master = vec![3u8; super::PARALLEL_MIN + 100];
        let mut copy = master.clone();
        assert_eq!(prefix_check(&master, &copy), None);
        copy[super::PARALLEL_MIN - 5] = 4;
        assert_eq!(prefix_check(&master, &copy), Some(super::PARALLEL_MIN - 5));
        copy[10] = 4;
        assert_eq!(prefix_check(&master, &copy), Some(10), "the left half's difference comes first");
        copy.push(1);
        copy[10] = 3;
        copy[super::PARALLEL_MIN - 5] = 3;
        assert_eq!(prefix_check(&master, &copy), Some(master.len()));
    }

    #[test]
    fn mapped_files_compare_alike_and_read_the_same_after() {
        use crate::mapped::Mapped;
        use std::io::Write;
        let master: Vec<u8> = (0..(super::PARALLEL_MIN as u32 * 3)).map(|i| (i % 241) as u8).collect();
        let mut copy = master[..master.len() - 7].to_vec();
        let write = |name: &str, bytes: &[u8]| {
            let p = std::env::temp_dir().join(format!("prolong-prefix-{}-{name}", std::process::id()));
            std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
            p.to_string_lossy().into_owned()
        };
        let (mp, cp) = (write("m", &master), write("c", &copy));
        let (m, c) = (Mapped::open(&mp, None).unwrap(), Mapped::open(&cp, None).unwrap());
        assert_eq!(prefix_check(&m, &c), None);
        assert_eq!(&*m, &master[..], "released pages read back the same");
        let late = copy.len() - super::POPULATE - 3;
        copy[late] ^= 1;
        let cp2 = write("c2", &copy);
        let c2 = Mapped::open(&cp2, None).unwrap();
        assert_eq!(prefix_check(&m, &c2), Some(late));
        assert_eq!(prefix_check(&m, &c2), Some(late), "the same answer after its pages were released");
        for p in [mp, cp, cp2] {
            std::fs::remove_file(p).unwrap();
        }
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
