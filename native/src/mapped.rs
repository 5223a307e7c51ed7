//! A log file mapped read-only into memory, so that every tool reads it without copying it into new
//! memory: the pages are the kernel's page cache, shared with every other reader, and cost no anonymous
//! memory whatever the file's size.
//!
//! Only regular files are mapped. The file is opened with O_NONBLOCK, so a FIFO (whose open would wait
//! for a writer) is refused at once instead of hanging; directories, character devices such as /dev/zero,
//! block devices and sockets are refused by what fstat says. The size is fstat's at open: a file still
//! growing (a live master log) is read up to the size seen at the start, never past it.
//!
//! This file and napi.rs are the only ones with `unsafe`: mmap(2) and munmap(2) are declared by hand (the
//! libc crate is not needed for two calls).

use std::ffi::c_void;
use std::fs::{File, OpenOptions};
use std::sync::RwLock;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;

const PROT_READ: i32 = 1;
const MAP_PRIVATE: i32 = 2;
/// Linux 5.14+: map a range's pages in, as reading each would, in one call (older kernels say EINVAL).
#[cfg(target_os = "linux")]
const MADV_POPULATE_READ: i32 = 22;
/// Drop the range's page-table entries. On a read-only private file mapping nothing is lost: the pages stay
/// in the page cache, and reading them again maps them back in, the same bytes. (On anonymous memory it would
/// zero the bytes: `release` only ever calls it inside a live mapping of a file, see LIVE.)
#[cfg(target_os = "linux")]
const MADV_DONTNEED: i32 = 4;
#[cfg(target_os = "linux")]
const SC_PAGESIZE: i32 = 30;
#[cfg(target_os = "linux")]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(target_os = "macos")]
const O_NONBLOCK: i32 = 0x4;

extern "C" {
    fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut c_void;
    fn munmap(addr: *mut c_void, len: usize) -> i32;
    #[cfg(target_os = "linux")]
    fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
    #[cfg(target_os = "linux")]
    fn sysconf(name: i32) -> i64;
}

/// Maps in the pages under `bytes` before they are read: one call instead of a page fault every 16 pages.
/// A file is mapped without populating it (mmap's MAP_POPULATE would do the whole file on one thread, before
/// any work): the threads that read a big file each call this on their own part, so the page-table work is
/// split across cores too, and a compare that stops early populates no further than its chunk. Best effort:
/// where the call is not supported, reading faults the pages in as before.
pub fn populate(bytes: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        if bytes.is_empty() {
            return;
        }
        let page = page_size();
        let start = bytes.as_ptr() as usize / page * page;
        let end = bytes.as_ptr() as usize + bytes.len();
        // SAFETY: [start, end) covers only pages that hold part of `bytes`, which are mapped and readable for
        // as long as the borrow lives; MADV_POPULATE_READ only faults them in, as reading them would.
        unsafe { madvise(start as *mut c_void, end - start, MADV_POPULATE_READ) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

/// The file mappings this process holds (start address, length), registered by `Mapped::open` and removed by
/// `unmap`: `release` acts only on bytes inside one of them, so it can never touch a caller's own memory.
static LIVE: RwLock<Vec<(usize, usize)>> = RwLock::new(Vec::new());

fn page_size() -> usize {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf has no preconditions.
        usize::try_from(unsafe { sysconf(SC_PAGESIZE) }).unwrap_or(4096).max(1)
    }
    #[cfg(not(target_os = "linux"))]
    4096
}

/// Done reading `bytes`: when they lie inside a file mapping made here, the pages under them are dropped from
/// this process's page tables (they stay in the kernel's page cache; reading them again maps them back in).
/// A big compare that releases each chunk as it goes keeps its resident memory to a few chunks, and the
/// page-table teardown is done by the threads that read, in parallel, instead of by the process's exit on one
/// core. Anything else (a buffer of the caller's, a Node Buffer) is left alone. Best effort, like `populate`.
pub fn release(bytes: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        if bytes.is_empty() {
            return;
        }
        let from = bytes.as_ptr() as usize;
        let to = from + bytes.len();
        let live = LIVE.read().unwrap_or_else(|p| p.into_inner());
        let Some(&(start, len)) = live.iter().find(|&&(s, l)| s <= from && to <= s + l) else {
            return;
        };
        let page = page_size();
        // The mapping starts on a page and covers whole pages, so rounding out stays inside it.
        let lo = from / page * page;
        let hi = to.div_ceil(page) * page;
        let hi = hi.min((start + len).div_ceil(page) * page);
        // SAFETY: [lo, hi) lies inside a live read-only private file mapping (it stays in LIVE while this read lock is
        // held, and `unmap` needs the write lock, so it cannot be unmapped meanwhile; threads release in parallel); MADV_DONTNEED there only drops page-table entries.
        unsafe { madvise(lo as *mut c_void, hi - lo, MADV_DONTNEED) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

/// Why a path cannot be mapped; `kind` is a stable word for scripts, `message` says it for people.
#[derive(Debug, PartialEq, Eq)]
pub struct MapError {
    pub kind: &'static str,
    pub message: String,
}

fn fail(kind: &'static str, message: impl Into<String>) -> MapError {
    MapError { kind, message: message.into() }
}

/// A read-only private mapping of a whole regular file (empty files map to an empty slice, no mapping).
pub struct Mapped {
    ptr: *mut c_void,
    len: usize,
}

// SAFETY: the mapping is read-only and owned by this value alone; the pages can be read from any thread.
unsafe impl Send for Mapped {}
// SAFETY: as above: shared references only read.
unsafe impl Sync for Mapped {}

impl Mapped {
    /// Maps `path`, refusing anything that is not a regular file, up to at most `limit` bytes.
    pub fn open(path: &str, limit: Option<usize>) -> Result<Mapped, MapError> {
        let file = open_regular(path)?;
        let size = file.metadata().map_err(|e| fail("unreadable", format!("cannot stat: {e}")))?.len();
        let size = usize::try_from(size).map_err(|_| fail("too-big", "the file is larger than this machine can address"))?;
        let len = limit.map_or(size, |l| l.min(size));
        if len == 0 {
            return Ok(Mapped { ptr: std::ptr::null_mut(), len: 0 });
        }
        // SAFETY: a fresh read-only private mapping of `len` bytes of an open regular file at offset 0;
        // the kernel chooses the address. The fd may be closed afterwards (the mapping keeps the file).
        let ptr = unsafe { mmap(std::ptr::null_mut(), len, PROT_READ, MAP_PRIVATE, file.as_raw_fd(), 0) };
        if ptr as isize == -1 || ptr.is_null() {
            return Err(fail("unreadable", format!("cannot map: {}", std::io::Error::last_os_error())));
        }
        LIVE.write().unwrap_or_else(|p| p.into_inner()).push((ptr as usize, len));
        Ok(Mapped { ptr, len })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_ptr(&self) -> *const u8 {
        self.ptr as *const u8
    }

    /// Gives up ownership: the caller must eventually pass (ptr, len) to `unmap`.
    pub fn into_raw(self) -> (*mut c_void, usize) {
        let raw = (self.ptr, self.len);
        std::mem::forget(self);
        raw
    }

    /// Unmaps what `into_raw` gave out.
    ///
    /// # Safety
    /// (ptr, len) must come from `into_raw`, once, and nothing may read the bytes afterwards.
    pub unsafe fn unmap(ptr: *mut c_void, len: usize) {
        if len > 0 && !ptr.is_null() {
            // Out of LIVE under the write lock, so no `release` is acting on the range when it goes.
            let mut live = LIVE.write().unwrap_or_else(|p| p.into_inner());
            live.retain(|&(s, l)| (s, l) != (ptr as usize, len));
            munmap(ptr, len);
        }
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: ptr maps `len` readable bytes for as long as self lives. (A file truncated by another
        // process while mapped makes reading the lost pages fault: logs are append-only, and the master
        // lives where no agent can reach it.)
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.len) }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping is ours and no borrow of it outlives self.
        unsafe { Mapped::unmap(self.ptr, self.len) };
    }
}

/// Opens `path` read-only without blocking, and only if it is a regular file.
pub fn open_regular(path: &str) -> Result<File, MapError> {
    let file = OpenOptions::new().read(true).custom_flags(O_NONBLOCK).open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => fail("missing-file", "no such file"),
        std::io::ErrorKind::PermissionDenied => fail("unreadable", format!("cannot open: {e}")),
        _ => fail("unreadable", format!("cannot open: {e}")),
    })?;
    let t = file.metadata().map_err(|e| fail("unreadable", format!("cannot stat: {e}")))?.file_type();
    if t.is_file() {
        return Ok(file);
    }
    let what = if t.is_dir() {
        return Err(fail("is-directory", "is a directory, expected a log file"));
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "something other than a regular file"
    };
    Err(fail("not-a-file", format!("is {what}; a log must be a regular file")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp(name: &str, bytes: &[u8]) -> String {
        let p = std::env::temp_dir().join(format!("prolong-mapped-{}-{name}", std::process::id()));
        std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn maps_a_file_and_a_limit() {
        let p = temp("a", b"hello\nworld\n");
        assert_eq!(&*Mapped::open(&p, None).unwrap(), b"hello\nworld\n");
        assert_eq!(&*Mapped::open(&p, Some(5)).unwrap(), b"hello");
        assert_eq!(&*Mapped::open(&p, Some(99)).unwrap(), b"hello\nworld\n");
        let e = temp("e", b"");
        assert!(Mapped::open(&e, None).unwrap().is_empty());
        std::fs::remove_file(p).unwrap();
        std::fs::remove_file(e).unwrap();
    }

    #[test]
    fn populating_changes_nothing_it_reads() {
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let p = temp("p", &bytes);
        let m = Mapped::open(&p, None).unwrap();
        populate(&m);
        populate(&m[4095..4097]);
        populate(&m[..0]);
        populate(&bytes[7..]);
        assert_eq!(&*m, &bytes[..]);
        std::fs::remove_file(p).unwrap();
    }

    /// The resident size of the one mapping that starts at `addr`, in kB, from /proc/self/smaps (Linux): other
    /// tests mapping files on other threads meanwhile do not count in it.
    fn resident_kb(addr: *const u8) -> usize {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let start = format!("{:x}-", addr as usize);
        let mut lines = smaps.lines().skip_while(|l| !l.starts_with(&start)).skip(1);
        let rss = lines.find(|l| l.starts_with("Rss:")).unwrap();
        rss.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn releasing_drops_resident_pages_and_keeps_the_bytes() {
        let bytes: Vec<u8> = (0..(32u32 << 20)).map(|i| (i % 253) as u8).collect();
        let p = temp("r", &bytes);
        let m = Mapped::open(&p, None).unwrap();
        // Every page read once (populate may be unsupported: it is best effort).
        std::hint::black_box(m.iter().step_by(4096).map(|&b| u64::from(b)).sum::<u64>());
        let before = resident_kb(m.as_ptr());
        release(&m[..]);
        let after = resident_kb(m.as_ptr());
        assert_eq!((before, after), (32 * 1024, 0), "32 MiB mapped in, then released (Rss of the mapping, kB)");
        // Read again, the same bytes (from the page cache), also across a partly released page.
        release(&m[4097..8191]);
        assert_eq!(&*m, &bytes[..]);
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn releasing_leaves_other_memory_alone() {
        // Anonymous memory released with MADV_DONTNEED would read back as zeros: release must not touch it.
        let owned: Vec<u8> = vec![9u8; 1 << 20];
        release(&owned);
        assert!(owned.iter().all(|&b| b == 9));
        // Bytes that only partly overlap a mapping are not released either (nor is anything after unmapping).
        let p = temp("o", &[5u8; 3 * 4096]);
        let m = Mapped::open(&p, None).unwrap();
        let (ptr, len) = m.into_raw();
        // SAFETY: from into_raw, unmapped once, and no slice of it is kept.
        unsafe { Mapped::unmap(ptr, len) };
        assert!(LIVE.read().unwrap().iter().all(|&(s, _)| s != ptr as usize), "unmap forgets the mapping");
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        assert_eq!(Mapped::open("/nonexistent/prolong", None).err().unwrap().kind, "missing-file");
        assert_eq!(Mapped::open("/", None).err().unwrap().kind, "is-directory");
        let zero = Mapped::open("/dev/zero", None).err().unwrap();
        assert_eq!(zero.kind, "not-a-file");
        assert!(zero.message.contains("character device"), "{}", zero.message);
    }
}
