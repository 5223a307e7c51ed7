//! The text table of `prolong log sections`, written natively: on a big log the table has one row per
//! section (82,840 rows for an 8M-line log), and building it as JavaScript strings cost several times the
//! section scan itself. The scan finds each section's change count and tool call while the section is in
//! cache; then each column's width is measured and the rows written straight into one buffer sized
//! beforehand, both split over two threads for big tables.
//!
//! The rules are the contract in src/native.ts (`sectionRowsText`); its TypeScript twin is
//! test/oracle/rows.ts.

use std::borrow::Cow;

use crate::sections::{section_index_with, Section, KIND_ACTION, KIND_INITIAL};

const HEADERS: [&str; COLUMNS] = ["#", "action", "level", "attempt", "score", "plan", "tool call", "frames", "changed", "offset"];
const COLUMNS: usize = 10;
const TOOL: usize = 6;
/// Below this many rows one thread is quicker than starting a second.
const PARALLEL_MIN: usize = 4096;

/// Text as a WHATWG UTF-8 decoder (TextDecoder's default) gives it: a leading byte-order mark dropped,
/// each ill-formed subsequence replaced by U+FFFD (Rust's lossy decoding replaces the same subsequences).
fn decoded(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
}

/// Length in UTF-16 code units, what JavaScript's .length counts and the columns are padded to.
fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    text.chars().map(char::len_utf16).sum()
}

/// Appends a tool call's text as shown to `out` and returns its length in UTF-16 units.
pub fn push_shown(bytes: &[u8], out: &mut Vec<u8>) -> usize {
    if bytes.is_ascii() {
        out.extend_from_slice(bytes);
        return bytes.len();
    }
    let text = decoded(bytes);
    out.extend_from_slice(text.as_bytes());
    utf16_len(&text)
}

/// The tool call cell of a section: its text and width (UTF-16 units).
fn tool_cell<'a>(tool_text: &'a [u8], s: &Section) -> (&'a [u8], usize) {
    match s.tool {
        Some(t) => (&tool_text[t.at..t.at + t.bytes], t.units),
        None if is_other(s.header.kind) => (b"(unreadable header)", 19),
        None => (b"-", 1),
    }
}

/// Every cell but the tool call: a number, a number with a suffix, a pair, or a fixed word.
#[derive(Clone, Copy)]
enum Cell {
    Num(u64),
    NumThen(u64, &'static str),
    Pair(u64, u64),
    Word(&'static str),
}

fn is_other(kind: u8) -> bool {
    kind != KIND_INITIAL && kind != KIND_ACTION
}

/// Column `c` (not the tool call) of row `i`.
fn cell(s: &Section, i: usize, c: usize) -> Cell {
    let other = is_other(s.header.kind);
    let field = |v: i32| (!other && v >= 0).then_some(v as u64);
    let num_or_dash = |v: i32| field(v).map_or(Cell::Word("-"), Cell::Num);
    let h = &s.header;
    match c {
        0 => Cell::Num(i as u64),
        1 => match (h.kind, field(h.action)) {
            (KIND_INITIAL, Some(a)) => Cell::NumThen(a, " init"),
            (_, Some(a)) => Cell::Num(a),
            _ => Cell::Word("?"),
        },
        2 => num_or_dash(h.level),
        3 => num_or_dash(h.attempt),
        4 => num_or_dash(h.score),
        5 => match (field(h.plan_step), field(h.plan_total)) {
            (Some(a), Some(b)) => Cell::Pair(a, b),
            _ => Cell::Word("-"),
        },
        // The contract makes frames at least 1.
        7 => Cell::Num(s.frames.max(0) as u64),
        8 => num_or_dash(s.changed),
        _ if s.complete => Cell::Num(s.start as u64),
        _ => Cell::NumThen(s.start as u64, " CUT"),
    }
}

fn digits(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

fn width(cell: Cell) -> usize {
    match cell {
        Cell::Num(v) => digits(v),
        Cell::NumThen(v, s) => digits(v) + s.len(),
        Cell::Pair(a, b) => digits(a) + 1 + digits(b),
        Cell::Word(w) => w.len(),
    }
}

/// Rows [from, to): the widest cell of each column, and the bytes their tool calls take beyond one per
/// UTF-16 unit (what makes a line longer than the sum of its widths).
fn measure(tool_text: &[u8], sections: &[Section], from: usize) -> ([usize; COLUMNS], usize) {
    let mut widths = [0; COLUMNS];
    let mut extra = 0;
    for (k, s) in sections.iter().enumerate() {
        for (c, w) in widths.iter_mut().enumerate() {
            if c == TOOL {
                let (text, units) = tool_cell(tool_text, s);
                *w = (*w).max(units);
                extra += text.len() - units;
            } else {
                *w = (*w).max(width(cell(s, from + k, c)));
            }
        }
    }
    (widths, extra)
}

/// Writes into a slice sized beforehand (so the output is allocated once and never copied).
struct Cursor<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl Cursor<'_> {
    fn bytes(&mut self, b: &[u8]) {
        self.out[self.at..self.at + b.len()].copy_from_slice(b);
        self.at += b.len();
    }

    fn byte(&mut self, b: u8) {
        self.out[self.at] = b;
        self.at += 1;
    }

    fn spaces(&mut self, n: usize) {
        self.out[self.at..self.at + n].fill(b' ');
        self.at += n;
    }

    fn num(&mut self, v: u64) {
        let n = digits(v);
        let mut v = v;
        for slot in self.out[self.at..self.at + n].iter_mut().rev() {
            *slot = b'0' + (v % 10) as u8;
            v /= 10;
        }
        self.at += n;
    }

    fn cell(&mut self, cell: Cell) {
        match cell {
            Cell::Num(v) => self.num(v),
            Cell::NumThen(v, s) => {
                self.num(v);
                self.bytes(s.as_bytes());
            }
            Cell::Pair(a, b) => {
                self.num(a);
                self.byte(b'/');
                self.num(b);
            }
            Cell::Word(w) => self.bytes(w.as_bytes()),
        }
    }
}

/// One line per section: cells joined by two spaces, the tool call padded on its right, every other column
/// on its left, then '\n'. (The last column is never blank, so no line ends in spaces.)
fn write_rows(tool_text: &[u8], sections: &[Section], from: usize, widths: &[usize; COLUMNS], out: &mut [u8]) {
    let mut w = Cursor { out, at: 0 };
    for (k, s) in sections.iter().enumerate() {
        for (c, &width_c) in widths.iter().enumerate() {
            if c > 0 {
                w.bytes(b"  ");
            }
            if c == TOOL {
                let (text, units) = tool_cell(tool_text, s);
                w.bytes(text);
                w.spaces(width_c - units);
            } else {
                let x = cell(s, from + k, c);
                w.spaces(width_c - width(x));
                w.cell(x);
            }
        }
        w.byte(b'\n');
    }
    debug_assert_eq!(w.at, w.out.len());
}

/// The header line.
fn write_header(widths: &[usize; COLUMNS], out: &mut [u8]) {
    let mut w = Cursor { out, at: 0 };
    for (c, h) in HEADERS.iter().enumerate() {
        if c > 0 {
            w.bytes(b"  ");
        }
        if c == TOOL {
            w.bytes(h.as_bytes());
            w.spaces(widths[c] - h.len());
        } else {
            w.spaces(widths[c] - h.len());
            w.bytes(h.as_bytes());
        }
    }
    w.byte(b'\n');
}

/// Runs `job` on each part, the first on this thread and the rest on their own.
fn on_threads<T: Send, R: Send>(parts: Vec<T>, job: impl Fn(T) -> R + Sync) -> Vec<R> {
    std::thread::scope(|scope| {
        let mut parts = parts.into_iter();
        let first = parts.next();
        let job = &job;
        let others: Vec<_> = parts.map(|p| scope.spawn(move || job(p))).collect();
        let mut out: Vec<R> = first.into_iter().map(job).collect();
        out.extend(others.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))));
        out
    })
}

/// The whole table of a log: a header line, then one line per section; every line ends in '\n'.
pub fn section_rows_text(buf: &[u8]) -> Vec<u8> {
    let table = section_index_with(buf, true);
    let sections = &table.sections;
    let n = sections.len();
    let cuts: Vec<(usize, usize)> = if n >= PARALLEL_MIN { vec![(0, n / 2), (n / 2, n)] } else { vec![(0, n)] };
    let text = &table.tool_text;
    let measured = on_threads(cuts.clone(), |(a, b)| measure(text, &sections[a..b], a));
    let mut widths: [usize; COLUMNS] = HEADERS.map(str::len);
    for (w, _) in &measured {
        for c in 0..COLUMNS {
            widths[c] = widths[c].max(w[c]);
        }
    }
    let line = widths.iter().sum::<usize>() + 2 * (COLUMNS - 1) + 1;
    let sizes: Vec<usize> = cuts.iter().zip(&measured).map(|((a, b), (_, extra))| (b - a) * line + extra).collect();
    // Zeroed memory comes from the allocator as fresh pages, not written twice: each writer touches its own.
    let mut out = vec![0u8; line + sizes.iter().sum::<usize>()];
    let (head, mut rest) = out.split_at_mut(line);
    write_header(&widths, head);
    let mut parts = Vec::new();
    for (&(a, b), &size) in cuts.iter().zip(&sizes) {
        let (part, tail) = rest.split_at_mut(size);
        parts.push((a, b, part));
        rest = tail;
    }
    on_threads(parts, |(a, b, part)| write_rows(text, &sections[a..b], a, &widths, part));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(log: &str) -> String {
        String::from_utf8(section_rows_text(log.as_bytes())).unwrap()
    }

    #[test]
    fn a_small_table() {
        let s = "=".repeat(80);
        let log = format!(
            "{s}\nAction 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\n[INITIAL BOARD STATE]\nab\ncd\n\n\
             {s}\nAction 1 | Level 1 | Attempt 1 | Plan Step 1/2 | Score: 0\nTool Call: ACTION1(\u{e9})\r\n[POST-ACTION BOARD STATE]\nab\nxd\n\n\
             {s}\nnot a header\n{s}\nAction 2 | Level 1 | Attempt 1 | Score: 3\n[settled]\nab\n"
        );
        let text = text_of(&log);
        let lines: Vec<&str> = text.lines().collect();
        // The same text as the TypeScript table (test/oracle/rows.ts) gives for this log.
        assert_eq!(lines[0], "#  action  level  attempt  score  plan  tool call            frames  changed   offset");
        assert_eq!(lines[1], "0  0 init      1        1      0     -  -                         1        -        0");
        assert_eq!(lines[2], "1       1      1        1      0   1/2  ACTION1(\u{e9})                1        1      168");
        assert_eq!(lines[3], "2       ?      -        -      -     -  (unreadable header)       1        -  364 CUT");
        assert_eq!(lines[4], "3       2      1        1      3     -  -                         1        -  458 CUT");
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn two_threads_write_the_one_thread_text() {
        let s = "=".repeat(80);
        let mut log = String::new();
        for i in 0..(PARALLEL_MIN + 10) {
            log.push_str(&format!("{s}\nAction {i} | Level 1 | Attempt 1 | Score: 0\nTool Call: ACTION{}({{}})\n[settled]\nab\nc{}\n\n", i % 7, i % 3));
        }
        let text = text_of(&log);
        assert_eq!(text.lines().count(), PARALLEL_MIN + 11);
        let row = |i: usize| text.lines().nth(i + 1).unwrap().split_whitespace().collect::<Vec<_>>();
        assert_eq!(row(PARALLEL_MIN / 2)[6], format!("ACTION{}({{}})", (PARALLEL_MIN / 2) % 7));
        // Each row's change count compares against the row before, across the threads' split too.
        assert!((1..PARALLEL_MIN + 10).all(|i| row(i)[8] == "1"));
    }

    #[test]
    fn decoding_like_textdecoder() {
        assert_eq!(decoded(b"\xEF\xBB\xBFab"), "ab");
        assert_eq!(decoded(b"a\xFFb"), "a\u{FFFD}b");
        assert_eq!(utf16_len("\u{1F600}\u{e9}"), 3);
    }
}
