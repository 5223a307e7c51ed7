//! Section index of a PRO-LONG log: where each section starts and ends, its parsed header, how many
//! animation frames it holds and where its settled board is. It does not validate the log or read
//! boards' cells (diff.rs does); it is the one fast pass that every log tool starts from.
//!
//! The rules are the contract in src/native.ts. Speed comes from touching little: memmem finds the
//! separator, the header is parsed only at section starts, marker lines are found by a backward memrchr
//! for '[' (grids never contain it), and board rows are stepped over by their width.

use memchr::memmem;

use crate::diff::count_changes;

pub const SEPARATOR_LEN: usize = 80;
const SEPARATOR: [u8; SEPARATOR_LEN] = [b'='; SEPARATOR_LEN];

pub const KIND_INITIAL: u8 = 0;
pub const KIND_ACTION: u8 = 1;
pub const KIND_OTHER: u8 = 2;

const BOARD_MARKERS: [&[u8]; 4] =
    [b"[settled]", b"[POST-ACTION BOARD STATE]", b"[INITIAL BOARD STATE]", b"[CURRENT BOARD STATE]"];
const FRAME_MARKER: &[u8] = b"[frame ";

/// Parsed header fields; -1 where a field is absent (or the whole header is not one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub kind: u8,
    pub action: i32,
    pub level: i32,
    pub attempt: i32,
    pub plan_step: i32,
    pub plan_total: i32,
    pub score: i32,
}

const NOT_A_HEADER: Header =
    Header { kind: KIND_OTHER, action: -1, level: -1, attempt: -1, plan_step: -1, plan_total: -1, score: -1 };

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub start: usize,
    pub end: usize,
    pub header: Header,
    pub frames: i32,
    /// Byte range of the settled board including its last line's '\n'; None when the section has none.
    pub board: Option<(usize, usize)>,
    pub complete: bool,
    /// Only when the scan was asked for them (`section_index_with`), else -1 and None: cells changed since
    /// the previous section's settled board (diff::cell_changes's count), and the tool call.
    pub changed: i32,
    pub tool: Option<ToolCall>,
}

/// A section's tool call as `log sections` shows it, copied during the scan (while the section is in cache)
/// into the table's `tool_text`: its place there, and its length in UTF-8 bytes and in UTF-16 units (what
/// the column is padded by).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolCall {
    pub at: usize,
    pub bytes: usize,
    pub units: usize,
}

#[derive(Debug, Default)]
pub struct SectionTable {
    pub preamble_end: usize,
    pub sections: Vec<Section>,
    /// Lines of the whole buffer: '\n' bytes, plus one for a final line without one. Not counted (0) by a
    /// scan for the listing (`section_index_with` with extras), which shows no line numbers.
    pub lines: usize,
    /// The tool calls' text, one after another (only with `section_index_with`'s extras).
    pub tool_text: Vec<u8>,
}

/// End of the separator line starting at `at` (just past its '\n', or the buffer end), if the 80 '='
/// at `at` form a separator line: start of buffer or after '\n', followed by '\n', "\r\n" or the end.
#[inline]
fn separator_line_end(buf: &[u8], at: usize) -> Option<usize> {
    if at > 0 && buf[at - 1] != b'\n' {
        return None;
    }
    let after = at + SEPARATOR_LEN;
    match buf.get(after) {
        None => Some(after),
        Some(b'\n') => Some(after + 1),
        Some(b'\r') if buf.get(after + 1) == Some(&b'\n') => Some(after + 2),
        _ => None,
    }
}

/// Calls `found` with the offset of every separator line, in order.
fn for_each_separator(buf: &[u8], mut found: impl FnMut(usize)) {
    let finder = memmem::Finder::new(&SEPARATOR);
    let mut from = 0;
    while let Some(i) = finder.find(&buf[from..]) {
        let at = from + i;
        if separator_line_end(buf, at).is_some() {
            found(at);
        }
        // No separator can start inside this run of '=' (it would need a '\n' before it), so skip it.
        from = at + SEPARATOR_LEN;
    }
}

/// Offsets of every separator line, in order.
pub fn separator_offsets(buf: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    for_each_separator(buf, |at| out.push(at));
    out
}

/// The line starting at `at`, without its "\n" / "\r\n", and the offset just past it.
#[inline]
fn line_at(buf: &[u8], at: usize, end: usize) -> (&[u8], usize) {
    let (content_end, next) = match memchr::memchr(b'\n', &buf[at..end]) {
        Some(i) => (at + i, at + i + 1),
        None => (end, end),
    };
    let mut line = &buf[at..content_end];
    if let [rest @ .., b'\r'] = line {
        line = rest;
    }
    (line, next)
}

/// A decimal field in 0..=2^31-1 (digits only; leading zeros allowed).
fn parse_field(s: &[u8]) -> Option<i32> {
    if s.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
        if v > i64::from(i32::MAX) {
            return None;
        }
    }
    Some(v as i32)
}

fn labelled(part: &[u8], label: &[u8]) -> Option<i32> {
    part.strip_prefix(label).and_then(parse_field)
}

/// Parse a header line (without its line ending); anything that is not exactly one of the three
/// header shapes (each optionally with a terminal game's "XL x | HP h(H) | Turn t" before its Score)
/// is KIND_OTHER with every field -1.
pub fn parse_header(line: &[u8]) -> Header {
    parse_header_fields(line).map_or(NOT_A_HEADER, |(h, _)| h)
}

/// The header's fields and whether it carries a terminal game's vitals.
fn parse_header_fields(line: &[u8]) -> Option<(Header, bool)> {
    if !line.starts_with(b"Action ") {
        return None;
    }
    let mut parts: [&[u8]; 8] = [b""; 8];
    let mut n = 0;
    let mut rest = line;
    loop {
        if n == parts.len() {
            return None;
        }
        match memmem::find(rest, b" | ") {
            Some(i) => {
                parts[n] = &rest[..i];
                rest = &rest[i + 3..];
                n += 1;
            }
            None => {
                parts[n] = rest;
                n += 1;
                break;
            }
        }
    }
    if n < 4 {
        return None;
    }
    let action = labelled(parts[0], b"Action ")?;
    let level = labelled(parts[1], b"Level ")?;
    let attempt = labelled(parts[2], b"Attempt ")?;
    let score = labelled(parts[n - 1], b"Score: ")?;
    // Between Attempt and Score: the kind (INITIAL STATE / Plan Step i/K) or nothing, then a terminal game's
    // vitals (XL x | HP h(H) | Turn t) or nothing — 0, 1, 3 or 4 parts.
    let middle = &parts[3..n - 1];
    let (kind_part, vitals) = match middle.len() {
        0 => (None, None),
        1 => (Some(middle[0]), None),
        3 => (None, Some(&middle[0..3])),
        4 => (Some(middle[0]), Some(&middle[1..4])),
        _ => return None,
    };
    if let Some(v) = vitals {
        labelled(v[0], b"XL ")?;
        let hp = v[1].strip_prefix(b"HP ")?;
        let open = memchr::memchr(b'(', hp)?;
        parse_field(&hp[..open])?;
        parse_field(hp[open + 1..].strip_suffix(b")")?)?;
        labelled(v[2], b"Turn ")?;
    }
    let (kind, plan_step, plan_total) = match kind_part {
        None => (KIND_ACTION, -1, -1),
        Some(b"INITIAL STATE") => (KIND_INITIAL, -1, -1),
        Some(p) => {
            let plan = p.strip_prefix(b"Plan Step ")?;
            let slash = memchr::memchr(b'/', plan)?;
            (KIND_ACTION, parse_field(&plan[..slash])?, parse_field(&plan[slash + 1..])?)
        }
    };
    Some((Header { kind, action, level, attempt, plan_step, plan_total, score }, vitals.is_some()))
}

fn is_board_marker(line: &[u8]) -> bool {
    BOARD_MARKERS.iter().any(|m| *m == line)
}

/// Frame count and the offset just past the LAST board marker line, scanning the lines in
/// [lines_start, end) (each of which starts at lines_start or after a '\n').
fn scan_markers(buf: &[u8], lines_start: usize, end: usize) -> (i32, Option<usize>) {
    let mut frame_lines = 0;
    let mut last_marker_end = None;
    let mut hi = end;
    while let Some(i) = memchr::memrchr(b'[', &buf[lines_start..hi]) {
        let at = lines_start + i;
        hi = at;
        if at != lines_start && buf[at - 1] != b'\n' {
            continue;
        }
        if buf[at..end].starts_with(FRAME_MARKER) {
            frame_lines += 1;
        } else if last_marker_end.is_none() {
            let (line, next) = line_at(buf, at, end);
            if is_board_marker(line) {
                last_marker_end = Some(next);
            }
        }
    }
    (frame_lines + 1, last_marker_end)
}

/// Number of '\n' bytes. Summed as u8 per 128-byte chunk so the compiler vectorizes it (a plain
/// `filter().count()` runs at a third of the speed); with AVX2 where the CPU has it.
pub fn count_newlines(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above), all the function requires.
            return unsafe { count_newlines_avx2(bytes) };
        }
    }
    count_newlines_baseline(bytes)
}

/// The same loop compiled for AVX2: 32 bytes a step instead of the baseline x86-64's 16 (the section index
/// of the 8M-line log took 7% less CPU).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn count_newlines_avx2(bytes: &[u8]) -> usize {
    count_newlines_baseline(bytes)
}

#[inline(always)]
fn count_newlines_baseline(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(128);
    let mut n: usize = 0;
    for chunk in &mut chunks {
        n += usize::from(chunk.iter().fold(0u8, |acc, &c| acc + u8::from(c == b'\n')));
    }
    n + chunks.remainder().iter().filter(|&&c| c == b'\n').count()
}

/// The run of board lines starting at `at`: non-empty lines that are not "[frame " markers.
/// Returns (end of the run including the last line's '\n', number of rows, first row's width).
fn board_run(buf: &[u8], at: usize, end: usize) -> (usize, usize, usize) {
    let (first, mut pos) = line_at(buf, at, end);
    if first.is_empty() || first.starts_with(FRAME_MARKER) {
        return (at, 0, 0);
    }
    let width = first.len();
    let stride = pos - at; // the first row's bytes including its line ending
    let mut rows = 1;
    // Fast path: step row by row while each row ends where the first one did.
    let fast_from = pos;
    let mut fast_rows = 0;
    while pos + stride <= end
        && buf[pos + stride - 1] == b'\n'
        && buf[pos] != b'\n'
        && buf[pos] != b'\r'
        && buf[pos] != b'['
    {
        pos += stride;
        fast_rows += 1;
    }
    // The stepped rows are real rows only if they hold no other '\n' (one per row); else walk exactly.
    let newlines = count_newlines(&buf[fast_from..pos]);
    if newlines != fast_rows {
        pos = fast_from;
    } else {
        rows += fast_rows;
    }
    while pos < end {
        let (line, next) = line_at(buf, pos, end);
        if line.is_empty() || line.starts_with(FRAME_MARKER) {
            break;
        }
        rows += 1;
        pos = next;
    }
    (pos, rows, width)
}

const TOOL_CALL: &[u8] = b"\nTool Call: ";

/// The tool call of a section: the rest of the first line starting "Tool Call: " right after a '\n' in
/// [start, limit), one final '\r' dropped (the format escapes agent text that would read as one).
pub fn tool_call(buf: &[u8], start: usize, limit: usize) -> Option<(usize, usize)> {
    let view = &buf[start..limit];
    static FINDER: std::sync::OnceLock<memmem::Finder<'static>> = std::sync::OnceLock::new();
    let at = FINDER.get_or_init(|| memmem::Finder::new(TOOL_CALL)).find(view)?;
    let from = at + TOOL_CALL.len();
    let mut end = memchr::memchr(b'\n', &view[from..]).map_or(view.len(), |i| from + i);
    if end > from && view[end - 1] == b'\r' {
        end -= 1;
    }
    Some((start + from, start + end))
}

fn describe_section(buf: &[u8], start: usize, end: usize) -> Section {
    let lines_start = (start + SEPARATOR_LEN..end).find(|&i| buf[i] == b'\n').map_or(end, |i| i + 1);
    let parsed = if lines_start < end { parse_header_fields(line_at(buf, lines_start, end).0) } else { None };
    let (header, terminal) = parsed.unwrap_or((NOT_A_HEADER, false));
    let (frames, marker_end) = scan_markers(buf, lines_start, end);
    let (board, complete) = match marker_end {
        Some(from) => {
            let (to, rows, width) = board_run(buf, from, end);
            if rows == 0 {
                (None, false)
            } else {
                // A grid is whole when square; a terminal game's screen never is: it is whole when the
                // blank line written after it is there.
                let blank_after = terminal && to < end && line_at(buf, to, end).0.is_empty();
                (Some((from, to)), rows == width || blank_after)
            }
        }
        None => (None, false),
    };
    Section { start, end, header, frames, board, complete, changed: -1, tool: None }
}

/// Cells changed between two settled boards (diff::cell_changes's count; -1 when either is missing).
fn changed_since(buf: &[u8], prev: Option<(usize, usize)>, board: Option<(usize, usize)>) -> i32 {
    match (prev, board) {
        (Some((a, b)), Some((c, d))) => count_changes(&buf[a..b], &buf[c..d]).unwrap_or(-1),
        _ => -1,
    }
}

/// What `section_index_with` adds to a section, while its bytes are still in cache from the search.
fn add_extras(buf: &[u8], s: &mut Section, prev_board: Option<(usize, usize)>, tool_text: &mut Vec<u8>) {
    s.changed = changed_since(buf, prev_board, s.board);
    if s.header.kind == KIND_ACTION {
        let limit = s.board.map_or(s.end, |(from, _)| if from > s.start { from } else { s.end });
        s.tool = tool_call(buf, s.start, limit).map(|(start, end)| {
            let at = tool_text.len();
            let units = crate::listing::push_shown(&buf[start..end], tool_text);
            ToolCall { at, bytes: tool_text.len() - at, units }
        });
    }
}

/// Sections of `buf` and its '\n' count. Each section is described, and its newlines counted, as soon as
/// the next separator is found, while its bytes are still in cache from the search.
fn scan(buf: &[u8], extras: bool) -> (Vec<Section>, usize, Vec<u8>) {
    crate::mapped::populate(buf);
    let mut sections: Vec<Section> = Vec::new();
    let mut tool_text = Vec::new();
    let mut newlines = 0;
    let mut open: Option<usize> = None;
    let mut push = |sections: &mut Vec<Section>, start: usize, end: usize| {
        let mut s = describe_section(buf, start, end);
        if extras {
            add_extras(buf, &mut s, sections.last().and_then(|p| p.board), &mut tool_text);
        }
        sections.push(s);
    };
    for_each_separator(buf, |at| {
        match open.replace(at) {
            Some(start) => {
                // The listing has no use for the line count: skipping it saves 4% of its CPU.
                if !extras {
                    newlines += count_newlines(&buf[start..at]);
                }
                push(&mut sections, start, at);
            }
            None => newlines += count_newlines(&buf[..at]),
        }
    });
    match open {
        Some(start) => {
            newlines += count_newlines(&buf[start..]);
            push(&mut sections, start, buf.len());
        }
        None => newlines += count_newlines(buf),
    }
    (sections, newlines, tool_text)
}

/// Below this size one thread is quicker than starting a second.
const PARALLEL_MIN: usize = 8 << 20;

/// The first separator line at or after `from`, where a second thread can start scanning: a section
/// never spans it, so scanning [0, split) and [split, len) apart gives exactly the sections of the whole.
fn split_point(buf: &[u8], from: usize) -> Option<usize> {
    let finder = memmem::Finder::new(&SEPARATOR);
    let mut at = from;
    while let Some(i) = finder.find(&buf[at..]) {
        let found = at + i;
        if separator_line_end(buf, found).is_some() {
            return Some(found);
        }
        at = found + 1;
    }
    None
}

pub fn section_index(buf: &[u8]) -> SectionTable {
    section_index_with(buf, false)
}

/// The section index; with `extras` (for the listing), each section's `changed` and `tool` too (see Section),
/// and no line count.
pub fn section_index_with(buf: &[u8], extras: bool) -> SectionTable {
    let split = if buf.len() >= PARALLEL_MIN { split_point(buf, buf.len() / 2).filter(|&s| s > 0) } else { None };
    let (sections, newlines, tool_text) = match split {
        None => scan(buf, extras),
        Some(split) => {
            // Two halves on two threads (the machine's second core); the right half's offsets are shifted back.
            let (left, right) = std::thread::scope(|scope| {
                let right = scope.spawn(|| scan(&buf[split..], extras));
                let left = scan(&buf[..split], extras);
                (left, right.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            });
            let (mut sections, left_newlines, mut tool_text) = left;
            let (right_sections, right_newlines, right_text) = right;
            let (left_count, text_shift) = (sections.len(), tool_text.len());
            sections.extend(right_sections.into_iter().map(|s| Section {
                start: s.start + split,
                end: s.end + split,
                board: s.board.map(|(a, b)| (a + split, b + split)),
                tool: s.tool.map(|t| ToolCall { at: t.at + text_shift, ..t }),
                ..s
            }));
            tool_text.extend_from_slice(&right_text);
            // The right half's first section was compared with nothing: its previous board is the left's last.
            if extras && left_count > 0 && left_count < sections.len() {
                let (prev, board) = (sections[left_count - 1].board, sections[left_count].board);
                sections[left_count].changed = changed_since(buf, prev, board);
            }
            (sections, left_newlines + right_newlines, tool_text)
        }
    };
    let preamble_end = sections.first().map_or(buf.len(), |s| s.start);
    let lines = if extras { 0 } else { newlines + usize::from(buf.last().is_some_and(|&c| c != b'\n')) };
    SectionTable { preamble_end, sections, lines, tool_text }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sep() -> String {
        "=".repeat(80)
    }

    fn board(rows: usize, width: usize, c: char) -> String {
        (0..rows).map(|_| c.to_string().repeat(width) + "\n").collect()
    }

    #[test]
    fn headers() {
        let h = parse_header(b"Action 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0");
        assert_eq!(h, Header { kind: 0, action: 0, level: 1, attempt: 1, plan_step: -1, plan_total: -1, score: 0 });
        let h = parse_header(b"Action 12 | Level 3 | Attempt 2 | Plan Step 4/15 | Score: 2");
        assert_eq!(h, Header { kind: 1, action: 12, level: 3, attempt: 2, plan_step: 4, plan_total: 15, score: 2 });
        let h = parse_header(b"Action 7 | Level 1 | Attempt 1 | Score: 0");
        assert_eq!((h.kind, h.action, h.plan_step, h.score), (1, 7, -1, 0));
        assert_eq!(parse_header(b"Action 7 | Level 1 | Attempt 1 | Score: 99999999999"), NOT_A_HEADER);
        assert_eq!(parse_header(b"Action -1 | Level 1 | Attempt 1 | Score: 0"), NOT_A_HEADER);
        assert_eq!(parse_header(b"Action 1 | Level 1 | Attempt 1 | Plan Step 1/ | Score: 0"), NOT_A_HEADER);
        assert_eq!(parse_header(b"Action 1 | Level 1 | Attempt 1 | Plan Step 1/2 | Score: 0 "), NOT_A_HEADER);
        let h = parse_header(b"Action 9 | Level 2 | Attempt 1 | Plan Step 2/5 | XL 3 | HP 7(16) | Turn 812 | Score: 154");
        assert_eq!(h, Header { kind: 1, action: 9, level: 2, attempt: 1, plan_step: 2, plan_total: 5, score: 154 });
        let h = parse_header(b"Action 0 | Level 1 | Attempt 2 | INITIAL STATE | XL 1 | HP 16(16) | Turn 1 | Score: 0");
        assert_eq!((h.kind, h.action, h.attempt, h.score), (0, 0, 2, 0));
        let h = parse_header(b"Action 4 | Level 1 | Attempt 1 | XL 1 | HP 0(16) | Turn 30 | Score: 0");
        assert_eq!((h.kind, h.action, h.plan_step, h.score), (1, 4, -1, 0));
        assert_eq!(parse_header(b"Action 4 | Level 1 | Attempt 1 | XL 1 | HP 16 | Turn 30 | Score: 0"), NOT_A_HEADER);
        assert_eq!(parse_header(b"Action 4 | Level 1 | Attempt 1 | HP 1(1) | XL 1 | Turn 30 | Score: 0"), NOT_A_HEADER);
        assert_eq!(parse_header(b"Action 4 | Level 1 | Attempt 1 | XL 1 | HP 1(1) | Score: 0"), NOT_A_HEADER);
        assert_eq!(parse_header(b"Action 4 | Level 1 | Attempt 1 | XL 1 | HP 1(1) | Turn 3 | x | Score: 0"), NOT_A_HEADER);
        assert_eq!(parse_header(b"hello"), NOT_A_HEADER);
        assert_eq!(parse_header(b""), NOT_A_HEADER);
    }

    #[test]
    fn separators_only_whole_lines() {
        let s = sep();
        let text = format!(
            "pre\n{s}\nA\n{}\n={s}\n x{s}\n{s}\r\nB\n{s}",
            "=".repeat(79)
        );
        let offs = separator_offsets(text.as_bytes());
        let expected: Vec<usize> = text.match_indices(&s).map(|(i, _)| i).collect();
        // The valid ones: after "pre\n", the CRLF one, and the final one without a newline.
        assert_eq!(offs.len(), 3);
        assert_eq!(offs[0], 4);
        assert_eq!(*offs.last().unwrap(), text.len() - 80);
        assert!(offs.iter().all(|o| expected.contains(o)));
    }

    #[test]
    fn empty_and_no_separator() {
        let t = section_index(b"");
        assert_eq!((t.preamble_end, t.sections.len()), (0, 0));
        let t = section_index(b"just text\n");
        assert_eq!((t.preamble_end, t.sections.len()), (10, 0));
    }

    #[test]
    fn a_small_log() {
        let s = sep();
        let b1 = board(3, 3, 'a');
        let log = format!(
            "{s}\nAction 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\n\n[INITIAL BOARD STATE]\n{b1}\n\n\
             {s}\nAction 1 | Level 1 | Attempt 1 | Plan Step 1/2 | Score: 0\n\n[PLAN]\n{s}=\n[settled]\nTool Call: ACTION1({{}})\n\
             [POST-ACTION BOARD STATE]\n[frame 1/2]\n{b1}[frame 2/2]\n{b1}[settled]\n{}\n{s}\nAction 2 | Level 1 | Attempt 1 | Score: 1\n[POST-ACTION BOARD STATE]\naaa\naa",
            board(3, 4, 'b')
        );
        let t = section_index(log.as_bytes());
        assert_eq!(t.sections.len(), 3);
        assert_eq!(t.preamble_end, 0);
        let [a, b, c] = [t.sections[0], t.sections[1], t.sections[2]];
        assert_eq!((a.header.kind, a.frames, a.complete), (KIND_INITIAL, 1, true));
        let (bs, be) = a.board.unwrap();
        assert_eq!(&log[bs..be], b1);
        assert_eq!((b.header.plan_step, b.header.plan_total, b.frames), (1, 2, 3));
        let (bs, be) = b.board.unwrap();
        assert_eq!(&log[bs..be], board(3, 4, 'b'));
        assert!(!b.complete, "3 rows of 4 is not square");
        assert_eq!(b.end, c.start);
        assert_eq!((c.header.kind, c.header.score, c.end), (KIND_ACTION, 1, log.len()));
        let (bs, be) = c.board.unwrap();
        assert_eq!(&log[bs..be], "aaa\naa");
        assert!(!c.complete);
    }

    #[test]
    fn crlf_and_bracket_rows() {
        let s = sep();
        let log = format!("{s}\r\nAction 3 | Level 2 | Attempt 1 | Score: 1\r\n[settled]\r\nab\r\ncd\r\n\r\ntail\r\n");
        let t = section_index(log.as_bytes());
        let sec = t.sections[0];
        assert_eq!((sec.header.kind, sec.header.action, sec.header.level), (KIND_ACTION, 3, 2));
        let (bs, be) = sec.board.unwrap();
        assert_eq!(&log[bs..be], "ab\r\ncd\r\n");
        assert!(sec.complete);
        // A row with an inner '\n' at the stepped position must not fool the fast path.
        let log = format!("{s}\n[settled]\nabcd\nab\nd\nabcd\n");
        let sec = section_index(log.as_bytes()).sections[0];
        let (bs, be) = sec.board.unwrap();
        assert_eq!(&log[bs..be], "abcd\nab\nd\nabcd\n");
        assert!(sec.complete, "4 rows, first row 4 wide");
    }

    #[test]
    fn separator_at_end_and_no_board() {
        let s = sep();
        let t = section_index(format!("x\n{s}").as_bytes());
        assert_eq!(t.sections.len(), 1);
        let sec = t.sections[0];
        assert_eq!((sec.start, sec.end, sec.header.kind, sec.frames, sec.board), (2, 82, KIND_OTHER, 1, None));
        let t = section_index(format!("{s}\n[settled]\n\nabc\n").as_bytes());
        assert_eq!(t.sections[0].board, None);
    }

    #[test]
    fn lines_counted_like_wc_plus_a_final_unterminated_line() {
        assert_eq!(section_index(b"").lines, 0);
        assert_eq!(section_index(b"a").lines, 1);
        assert_eq!(section_index(b"a\n").lines, 1);
        assert_eq!(section_index(b"a\nb").lines, 2);
        let s = sep();
        assert_eq!(section_index(format!("pre\n{s}\nAction 1\n\n{s}\nx").as_bytes()).lines, 6);
    }

    #[test]
    fn newline_counts_agree_at_every_length_and_alignment() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| if i % 7 == 0 || i % 13 == 0 { b'\n' } else { b'a' }).collect();
        for start in 0..33 {
            for end in (start..bytes.len()).step_by(37) {
                let slice = &bytes[start..end];
                let naive = slice.iter().filter(|&&c| c == b'\n').count();
                assert_eq!((start, end, count_newlines(slice)), (start, end, naive));
                assert_eq!(count_newlines_baseline(slice), naive);
            }
        }
    }

    #[test]
    fn two_threads_give_the_one_thread_table() {
        let s = sep();
        let mut log = String::from("preamble\n");
        let mut i = 0;
        while log.len() < PARALLEL_MIN + 4096 {
            log.push_str(&format!("{s}\nAction {i} | Level 1 | Attempt 1 | Score: 0\n[settled]\n{}\n", board(8, 8, 'a')));
            i += 1;
        }
        let parallel = section_index(log.as_bytes());
        let (sections, newlines, _) = scan(log.as_bytes(), false);
        assert!(split_point(log.as_bytes(), log.len() / 2).is_some());
        assert_eq!(parallel.sections, sections);
        assert_eq!(parallel.lines, newlines);
        assert_eq!(parallel.lines, log.matches('\n').count());
        let parallel = section_index_with(log.as_bytes(), true);
        let (sections, _, _) = scan(log.as_bytes(), true);
        assert_eq!(parallel.sections, sections);
        assert!(sections[1..].iter().all(|s| s.changed == 0 && s.tool.is_none()));
    }
}
