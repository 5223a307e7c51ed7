//! The N-API glue, by hand: the few napi_* functions prolong needs, declared `extern "C"` (the host,
//! Bun or Node, provides them when it loads the addon), and one JS function per job module.
//!
//! Rules kept here: every exported function runs inside `catch_unwind`, so no panic crosses into the
//! host (a panic becomes a thrown JS Error); wrong argument types throw TypeError, bad ranges
//! RangeError. Inputs are borrowed from JS typed arrays only while Rust computes; results are copied into
//! fresh JS values afterwards, so no borrowed slice outlives a call that can run the garbage collector.

use std::ffi::{c_char, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use crate::mapped::Mapped;
use crate::{diff, hash, listing, prefix, sections};

type Env = *mut c_void;
type Value = *mut c_void;
type CallbackInfo = *mut c_void;
type Status = i32;
type Callback = unsafe extern "C" fn(Env, CallbackInfo) -> Value;
type Finalize = unsafe extern "C" fn(Env, *mut c_void, *mut c_void);

const NAPI_OK: Status = 0;
const VALUETYPE_UNDEFINED: i32 = 0;
const VALUETYPE_NUMBER: i32 = 3;
const VALUETYPE_STRING: i32 = 4;
const TA_UINT8: i32 = 1;
const TA_INT32: i32 = 5;
const TA_FLOAT64: i32 = 8;

extern "C" {
    fn napi_create_function(env: Env, name: *const c_char, len: usize, cb: Callback, data: *mut c_void, result: *mut Value) -> Status;
    fn napi_set_named_property(env: Env, object: Value, name: *const c_char, value: Value) -> Status;
    fn napi_get_named_property(env: Env, object: Value, name: *const c_char, result: *mut Value) -> Status;
    fn napi_get_cb_info(env: Env, info: CallbackInfo, argc: *mut usize, argv: *mut Value, this: *mut Value, data: *mut *mut c_void) -> Status;
    fn napi_typeof(env: Env, value: Value, result: *mut i32) -> Status;
    fn napi_is_typedarray(env: Env, value: Value, result: *mut bool) -> Status;
    fn napi_get_typedarray_info(env: Env, value: Value, kind: *mut i32, length: *mut usize, data: *mut *mut c_void, arraybuffer: *mut Value, byte_offset: *mut usize) -> Status;
    fn napi_get_value_double(env: Env, value: Value, result: *mut f64) -> Status;
    fn napi_create_double(env: Env, value: f64, result: *mut Value) -> Status;
    fn napi_create_string_utf8(env: Env, s: *const c_char, len: usize, result: *mut Value) -> Status;
    fn napi_create_object(env: Env, result: *mut Value) -> Status;
    fn napi_create_arraybuffer(env: Env, byte_length: usize, data: *mut *mut c_void, result: *mut Value) -> Status;
    fn napi_create_typedarray(env: Env, kind: i32, length: usize, arraybuffer: Value, byte_offset: usize, result: *mut Value) -> Status;
    fn napi_get_value_string_utf8(env: Env, value: Value, buf: *mut c_char, bufsize: usize, result: *mut usize) -> Status;
    fn napi_create_external_arraybuffer(env: Env, data: *mut c_void, byte_length: usize, finalize: Finalize, hint: *mut c_void, result: *mut Value) -> Status;
    fn napi_throw_error(env: Env, code: *const c_char, msg: *const c_char) -> Status;
    fn napi_throw_type_error(env: Env, code: *const c_char, msg: *const c_char) -> Status;
    fn napi_throw_range_error(env: Env, code: *const c_char, msg: *const c_char) -> Status;
}

/// Why a call failed; becomes the matching JS error class.
enum Fail {
    Type(String),
    Range(String),
    Napi(&'static str),
}

type R<T> = Result<T, Fail>;

fn check(status: Status, what: &'static str) -> R<()> {
    if status == NAPI_OK {
        Ok(())
    } else {
        Err(Fail::Napi(what))
    }
}

/// The call's arguments (up to N; missing ones are null and read as undefined by `typeof_`).
fn args<const N: usize>(env: Env, info: CallbackInfo) -> R<[Value; N]> {
    let mut argv: [Value; N] = [ptr::null_mut(); N];
    let mut argc = N;
    // SAFETY: argv has room for argc = N values, as napi_get_cb_info requires; the other outputs are optional.
    check(unsafe { napi_get_cb_info(env, info, &mut argc, argv.as_mut_ptr(), ptr::null_mut(), ptr::null_mut()) }, "napi_get_cb_info")?;
    Ok(argv)
}

fn typeof_(env: Env, v: Value) -> R<i32> {
    if v.is_null() {
        return Ok(VALUETYPE_UNDEFINED);
    }
    let mut t = 0;
    // SAFETY: v is a live napi_value of this call; t is a valid out-pointer.
    check(unsafe { napi_typeof(env, v, &mut t) }, "napi_typeof")?;
    Ok(t)
}

/// Borrow the bytes of a typed array of element kind `want` (Uint8Array covers Buffer) as `&[T]`.
fn typed<'a, T>(env: Env, v: Value, want: i32, what: &str) -> R<&'a [T]> {
    let wrong = || Fail::Type(format!("{what} must be a {}", match want {
        TA_UINT8 => "Uint8Array or Buffer",
        TA_FLOAT64 => "Float64Array",
        _ => "typed array",
    }));
    if v.is_null() {
        return Err(wrong());
    }
    let mut is = false;
    // SAFETY: v is a live napi_value; is is a valid out-pointer.
    check(unsafe { napi_is_typedarray(env, v, &mut is) }, "napi_is_typedarray")?;
    if !is {
        return Err(wrong());
    }
    let (mut kind, mut len, mut data) = (0, 0usize, ptr::null_mut::<c_void>());
    // SAFETY: v is a typed array (checked above); the unused outputs may be null per the N-API docs.
    check(unsafe { napi_get_typedarray_info(env, v, &mut kind, &mut len, &mut data, ptr::null_mut(), ptr::null_mut()) }, "napi_get_typedarray_info")?;
    if kind != want {
        return Err(wrong());
    }
    if len == 0 || data.is_null() {
        return Ok(&[]);
    }
    // SAFETY: N-API reports `len` elements of type T at `data` (the element kind was checked to match T
    // at every call site), kept alive by the JS value for the whole call; JS cannot run or mutate them
    // while this native call computes, and results are built only after the borrow ends.
    Ok(unsafe { std::slice::from_raw_parts(data as *const T, len) })
}

fn bytes<'a>(env: Env, v: Value, what: &str) -> R<&'a [u8]> {
    typed::<u8>(env, v, TA_UINT8, what)
}

/// An optional integer byte bound in 0..=len (undefined → `default`).
fn bound(env: Env, v: Value, default: usize, len: usize, what: &str) -> R<usize> {
    match typeof_(env, v)? {
        VALUETYPE_UNDEFINED => return Ok(default),
        VALUETYPE_NUMBER => {}
        _ => return Err(Fail::Type(format!("{what} must be a number"))),
    }
    let mut d = 0.0;
    // SAFETY: v is a number (checked); d is a valid out-pointer.
    check(unsafe { napi_get_value_double(env, v, &mut d) }, "napi_get_value_double")?;
    if !(d.fract() == 0.0 && d >= 0.0 && d <= len as f64) {
        return Err(Fail::Range(format!("{what} {d} is outside 0..{len}")));
    }
    Ok(d as usize)
}

/// A JS string argument as a Rust String.
fn string_arg(env: Env, v: Value, what: &str) -> R<String> {
    if typeof_(env, v)? != VALUETYPE_STRING {
        return Err(Fail::Type(format!("{what} must be a string")));
    }
    let mut len = 0usize;
    // SAFETY: a null buffer asks for the length (in bytes, without the NUL) only.
    check(unsafe { napi_get_value_string_utf8(env, v, ptr::null_mut(), 0, &mut len) }, "napi_get_value_string_utf8")?;
    let mut buf = vec![0u8; len + 1];
    let mut got = 0usize;
    // SAFETY: buf has room for len bytes and the NUL the call writes.
    check(unsafe { napi_get_value_string_utf8(env, v, buf.as_mut_ptr() as *mut c_char, buf.len(), &mut got) }, "napi_get_value_string_utf8")?;
    buf.truncate(got);
    String::from_utf8(buf).map_err(|_| Fail::Type(format!("{what} is not valid UTF-8")))
}

fn number(env: Env, x: f64) -> R<Value> {
    let mut v = ptr::null_mut();
    // SAFETY: v is a valid out-pointer.
    check(unsafe { napi_create_double(env, x, &mut v) }, "napi_create_double")?;
    Ok(v)
}

fn string(env: Env, s: &str) -> R<Value> {
    let mut v = ptr::null_mut();
    // SAFETY: s points to s.len() bytes of valid UTF-8 for the duration of the call.
    check(unsafe { napi_create_string_utf8(env, s.as_ptr() as *const c_char, s.len(), &mut v) }, "napi_create_string_utf8")?;
    Ok(v)
}

/// A fresh JS typed array of element kind `kind` holding a copy of `items`.
fn typed_array<T: Copy>(env: Env, kind: i32, items: &[T]) -> R<Value> {
    let (mut data, mut ab, mut out) = (ptr::null_mut::<c_void>(), ptr::null_mut(), ptr::null_mut());
    let size = std::mem::size_of_val(items);
    // SAFETY: out-pointers are valid; the engine allocates `size` bytes and returns their address.
    check(unsafe { napi_create_arraybuffer(env, size, &mut data, &mut ab) }, "napi_create_arraybuffer")?;
    if size > 0 {
        // SAFETY: data points to `size` freshly allocated bytes owned by ab, not overlapping items.
        unsafe { ptr::copy_nonoverlapping(items.as_ptr() as *const u8, data as *mut u8, size) };
    }
    // SAFETY: ab is the array buffer just created, exactly items.len() elements of T long.
    check(unsafe { napi_create_typedarray(env, kind, items.len(), ab, 0, &mut out) }, "napi_create_typedarray")?;
    Ok(out)
}

fn set(env: Env, obj: Value, name: &str, v: Value) -> R<()> {
    let name = CString::new(name).map_err(|_| Fail::Napi("property name"))?;
    // SAFETY: obj and v are live napi_values; name is NUL-terminated.
    check(unsafe { napi_set_named_property(env, obj, name.as_ptr(), v) }, "napi_set_named_property")
}

fn get(env: Env, obj: Value, name: &str) -> R<Value> {
    let cname = CString::new(name).map_err(|_| Fail::Napi("property name"))?;
    let mut v = ptr::null_mut();
    // SAFETY: obj is a live object (checked by the caller); cname is NUL-terminated.
    check(unsafe { napi_get_named_property(env, obj, cname.as_ptr(), &mut v) }, "napi_get_named_property")?;
    Ok(v)
}

fn section_index(env: Env, info: CallbackInfo) -> R<Value> {
    let [b] = args::<1>(env, info)?;
    let table = sections::section_index(bytes(env, b, "sectionIndex(buf): buf")?);
    let s = &table.sections;
    let f64s = |f: &dyn Fn(&sections::Section) -> f64| s.iter().map(f).collect::<Vec<f64>>();
    let i32s = |f: &dyn Fn(&sections::Section) -> i32| s.iter().map(f).collect::<Vec<i32>>();
    let mut obj = ptr::null_mut();
    // SAFETY: obj is a valid out-pointer.
    check(unsafe { napi_create_object(env, &mut obj) }, "napi_create_object")?;
    set(env, obj, "count", number(env, s.len() as f64)?)?;
    set(env, obj, "preambleEnd", number(env, table.preamble_end as f64)?)?;
    set(env, obj, "lines", number(env, table.lines as f64)?)?;
    set(env, obj, "start", typed_array(env, TA_FLOAT64, &f64s(&|x| x.start as f64))?)?;
    set(env, obj, "end", typed_array(env, TA_FLOAT64, &f64s(&|x| x.end as f64))?)?;
    set(env, obj, "kind", typed_array(env, TA_UINT8, &s.iter().map(|x| x.header.kind).collect::<Vec<u8>>())?)?;
    set(env, obj, "action", typed_array(env, TA_INT32, &i32s(&|x| x.header.action))?)?;
    set(env, obj, "level", typed_array(env, TA_INT32, &i32s(&|x| x.header.level))?)?;
    set(env, obj, "attempt", typed_array(env, TA_INT32, &i32s(&|x| x.header.attempt))?)?;
    set(env, obj, "planStep", typed_array(env, TA_INT32, &i32s(&|x| x.header.plan_step))?)?;
    set(env, obj, "planTotal", typed_array(env, TA_INT32, &i32s(&|x| x.header.plan_total))?)?;
    set(env, obj, "score", typed_array(env, TA_INT32, &i32s(&|x| x.header.score))?)?;
    set(env, obj, "frames", typed_array(env, TA_INT32, &i32s(&|x| x.frames))?)?;
    set(env, obj, "boardStart", typed_array(env, TA_FLOAT64, &f64s(&|x| x.board.map_or(-1.0, |b| b.0 as f64)))?)?;
    set(env, obj, "boardEnd", typed_array(env, TA_FLOAT64, &f64s(&|x| x.board.map_or(-1.0, |b| b.1 as f64)))?)?;
    set(env, obj, "complete", typed_array(env, TA_UINT8, &s.iter().map(|x| u8::from(x.complete)).collect::<Vec<u8>>())?)?;
    Ok(obj)
}

fn prefix_check(env: Env, info: CallbackInfo) -> R<Value> {
    let [m, c] = args::<2>(env, info)?;
    let master = bytes(env, m, "prefixCheck(master, copy): master")?;
    let copy = bytes(env, c, "prefixCheck(master, copy): copy")?;
    number(env, prefix::prefix_check(master, copy).map_or(-1.0, |i| i as f64))
}

fn line_count(env: Env, info: CallbackInfo) -> R<Value> {
    let [b, s, e] = args::<3>(env, info)?;
    let buf = bytes(env, b, "lineCount(buf, start?, end?): buf")?;
    let start = bound(env, s, 0, buf.len(), "lineCount: start")?;
    let end = bound(env, e, buf.len(), buf.len(), "lineCount: end")?;
    if start > end {
        return Err(Fail::Range(format!("lineCount: start {start} is after end {end}")));
    }
    number(env, sections::count_newlines(&buf[start..end]) as f64)
}

/// Called by the engine when the last reference to a mapped buffer is gone: unmap it.
unsafe extern "C" fn unmap_buffer(_env: Env, data: *mut c_void, hint: *mut c_void) {
    // SAFETY: (data, hint as the length) came from Mapped::into_raw in map_file, and the engine calls this once.
    unsafe { Mapped::unmap(data, hint as usize) };
}

/// The longest buffer the JavaScript engine accepts from an addon (Bun's buffer.constants.MAX_LENGTH, 2^32).
const MAX_MAPPED_BYTES: usize = 1 << 32;

/// mapFile(path, limit?) → a Uint8Array over the mapped file, or {kind, message} when it cannot be mapped.
fn map_file(env: Env, info: CallbackInfo) -> R<Value> {
    let [p, l] = args::<2>(env, info)?;
    let path = string_arg(env, p, "mapFile(path, limit?): path")?;
    let limit = match typeof_(env, l)? {
        VALUETYPE_UNDEFINED => None,
        _ => Some(bound(env, l, 0, usize::MAX >> 11, "mapFile: limit")?),
    };
    let mapped = match Mapped::open(&path, limit) {
        Ok(m) => m,
        Err(e) => {
            let mut obj = ptr::null_mut();
            // SAFETY: obj is a valid out-pointer.
            check(unsafe { napi_create_object(env, &mut obj) }, "napi_create_object")?;
            set(env, obj, "kind", string(env, e.kind)?)?;
            set(env, obj, "message", string(env, &e.message)?)?;
            return Ok(obj);
        }
    };
    if mapped.is_empty() {
        return typed_array::<u8>(env, TA_UINT8, &[]);
    }
    let len = mapped.len();
    if len > MAX_MAPPED_BYTES {
        // The engine refuses an ArrayBuffer this long (ERR_BUFFER_TOO_LARGE): a clean refusal instead, the
        // mapping released when `mapped` drops here.
        let mut obj = ptr::null_mut();
        // SAFETY: obj is a valid out-pointer.
        check(unsafe { napi_create_object(env, &mut obj) }, "napi_create_object")?;
        set(env, obj, "kind", string(env, "too-big")?)?;
        let msg = format!("the file is {len} bytes; prolong maps at most {MAX_MAPPED_BYTES} bytes (4 GiB) of one file");
        set(env, obj, "message", string(env, &msg)?)?;
        return Ok(obj);
    }
    let (data, len_raw) = mapped.into_raw();
    let mut ab = ptr::null_mut();
    // SAFETY: data maps len readable bytes that stay mapped until unmap_buffer runs; the engine owns them now.
    let status = unsafe { napi_create_external_arraybuffer(env, data, len_raw, unmap_buffer, len_raw as *mut c_void, &mut ab) };
    if status != NAPI_OK {
        // SAFETY: the engine did not take the mapping, so it is still ours to release.
        unsafe { Mapped::unmap(data, len_raw) };
        return Err(Fail::Napi("napi_create_external_arraybuffer"));
    }
    let mut out = ptr::null_mut();
    // SAFETY: ab is the external array buffer just created, len bytes long.
    check(unsafe { napi_create_typedarray(env, TA_UINT8, len, ab, 0, &mut out) }, "napi_create_typedarray")?;
    Ok(out)
}

fn hash_range(env: Env, info: CallbackInfo, name: &str, f: fn(&[u8]) -> String) -> R<Value> {
    let [b, s, e] = args::<3>(env, info)?;
    let buf = bytes(env, b, &format!("{name}(buf, start?, end?): buf"))?;
    let start = bound(env, s, 0, buf.len(), &format!("{name}: start"))?;
    let end = bound(env, e, buf.len(), buf.len(), &format!("{name}: end"))?;
    if start > end {
        return Err(Fail::Range(format!("{name}: start {start} is after end {end}")));
    }
    string(env, &f(&buf[start..end]))
}

fn xxh3_128(env: Env, info: CallbackInfo) -> R<Value> {
    hash_range(env, info, "xxh3_128", hash::xxh3_128_hex)
}

fn blake3(env: Env, info: CallbackInfo) -> R<Value> {
    hash_range(env, info, "blake3", hash::blake3_hex)
}

fn tree_hash(env: Env, info: CallbackInfo) -> R<Value> {
    let [r, p] = args::<2>(env, info)?;
    let root = string_arg(env, r, "treeHash(root, parts): root")?;
    let parts = string_arg(env, p, "treeHash(root, parts): parts")?;
    let parts: Vec<&str> = parts.split('\n').filter(|s| !s.is_empty()).collect();
    match crate::tree::tree_hash(std::path::Path::new(&root), &parts) {
        Ok(hex) => string(env, &hex),
        Err(e) => Err(Fail::Type(format!("treeHash: {root}: {e}"))),
    }
}

fn board_diff(env: Env, info: CallbackInfo) -> R<Value> {
    let [a, b] = args::<2>(env, info)?;
    let a = bytes(env, a, "boardDiff(a, b): a")?;
    let b = bytes(env, b, "boardDiff(a, b): b")?;
    let cells = diff::board_diff(a, b).ok_or_else(|| Fail::Range("boardDiff: the boards differ in shape (rows or row widths)".into()))?;
    typed_array(env, TA_INT32, &cells)
}

fn cell_changes(env: Env, info: CallbackInfo) -> R<Value> {
    let [b, t] = args::<2>(env, info)?;
    if typeof_(env, t)? != 6 {
        return Err(Fail::Type("cellChanges(buf, table): table must be a SectionTable from sectionIndex".into()));
    }
    // Reading a property can run a JavaScript getter, and a getter can detach any ArrayBuffer (buf's or
    // the table's own arrays'). So every property is fetched first; only then are the buffers borrowed,
    // with no JavaScript running between the borrows and their last use.
    let start_value = get(env, t, "boardStart")?;
    let end_value = get(env, t, "boardEnd")?;
    let buf = bytes(env, b, "cellChanges(buf, table): buf")?;
    let starts = typed::<f64>(env, start_value, TA_FLOAT64, "cellChanges: table.boardStart")?;
    let ends = typed::<f64>(env, end_value, TA_FLOAT64, "cellChanges: table.boardEnd")?;
    if starts.len() != ends.len() {
        return Err(Fail::Range("cellChanges: table.boardStart and table.boardEnd differ in length".into()));
    }
    let mut boards = Vec::with_capacity(starts.len());
    for (&s, &e) in starts.iter().zip(ends) {
        if s < 0.0 || e < 0.0 {
            boards.push(None);
            continue;
        }
        if !(s.fract() == 0.0 && e.fract() == 0.0 && s <= e && e <= buf.len() as f64) {
            return Err(Fail::Range(format!("cellChanges: board range {s}..{e} is outside the buffer (0..{}); was the table made from this buffer?", buf.len())));
        }
        boards.push(Some((s as usize, e as usize)));
    }
    typed_array(env, TA_INT32, &diff::cell_changes(buf, &boards))
}

/// Called by the engine when the last reference to a buffer made by `owned_bytes` is gone: free it.
unsafe extern "C" fn free_vec(_env: Env, _data: *mut c_void, hint: *mut c_void) {
    // SAFETY: hint is the Box<Vec<u8>> leaked by owned_bytes, and the engine calls this once.
    drop(unsafe { Box::from_raw(hint as *mut Vec<u8>) });
}

/// A Uint8Array over bytes Rust made, handed over without a copy (the engine frees them with the array).
fn owned_bytes(env: Env, bytes: Vec<u8>) -> R<Value> {
    if bytes.is_empty() {
        return typed_array::<u8>(env, TA_UINT8, &[]);
    }
    let len = bytes.len();
    let boxed = Box::into_raw(Box::new(bytes));
    // SAFETY: boxed is a live Box<Vec<u8>>; its heap bytes stay put until free_vec drops it.
    let data = unsafe { (*boxed).as_mut_ptr() } as *mut c_void;
    let mut ab = ptr::null_mut();
    // SAFETY: data points to len bytes owned by boxed, which the engine releases through free_vec.
    let status = unsafe { napi_create_external_arraybuffer(env, data, len, free_vec, boxed as *mut c_void, &mut ab) };
    if status != NAPI_OK {
        // SAFETY: the engine did not take the bytes, so they are still ours to free.
        drop(unsafe { Box::from_raw(boxed) });
        return Err(Fail::Napi("napi_create_external_arraybuffer"));
    }
    let mut out = ptr::null_mut();
    // SAFETY: ab is the external array buffer just created, len bytes long.
    check(unsafe { napi_create_typedarray(env, TA_UINT8, len, ab, 0, &mut out) }, "napi_create_typedarray")?;
    Ok(out)
}

fn section_rows_text(env: Env, info: CallbackInfo) -> R<Value> {
    let [b] = args::<1>(env, info)?;
    let text = listing::section_rows_text(bytes(env, b, "sectionRowsText(buf): buf")?);
    owned_bytes(env, text)
}

fn throw(env: Env, fail: Fail) {
    let (kind, msg) = match fail {
        Fail::Type(m) => (0, m),
        Fail::Range(m) => (1, m),
        Fail::Napi(what) => (2, format!("prolong-native: {what} failed")),
    };
    let msg = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    // SAFETY: msg is NUL-terminated; a null code is allowed. If throwing itself fails there is nothing
    // more to do: the call returns undefined.
    unsafe {
        match kind {
            0 => napi_throw_type_error(env, ptr::null(), msg.as_ptr()),
            1 => napi_throw_range_error(env, ptr::null(), msg.as_ptr()),
            _ => napi_throw_error(env, ptr::null(), msg.as_ptr()),
        };
    }
}

/// Runs one exported function: a returned failure or a caught panic becomes a thrown JS error.
fn guarded(env: Env, info: CallbackInfo, f: fn(Env, CallbackInfo) -> R<Value>) -> Value {
    match catch_unwind(AssertUnwindSafe(|| f(env, info))) {
        Ok(Ok(v)) => v,
        Ok(Err(fail)) => {
            throw(env, fail);
            ptr::null_mut()
        }
        Err(_) => {
            throw(env, Fail::Napi("a panic inside the native code (a bug: please report it)"));
            ptr::null_mut()
        }
    }
}

macro_rules! export {
    ($($js:literal => $f:ident),* $(,)?) => {
        const EXPORTS: &[(&str, Callback)] = &[$(($js, {
            unsafe extern "C" fn entry(env: Env, info: CallbackInfo) -> Value { guarded(env, info, $f) }
            entry
        })),*];
    };
}

export! {
    "sectionIndex" => section_index,
    "prefixCheck" => prefix_check,
    "xxh3_128" => xxh3_128,
    "blake3" => blake3,
    "treeHash" => tree_hash,
    "boardDiff" => board_diff,
    "cellChanges" => cell_changes,
    "lineCount" => line_count,
    "mapFile" => map_file,
    "sectionRowsText" => section_rows_text,
}

fn register(env: Env, exports: Value) -> R<Value> {
    for &(name, cb) in EXPORTS {
        let mut f = ptr::null_mut();
        // SAFETY: name points to name.len() bytes of UTF-8; cb is a valid N-API callback; f is an out-pointer.
        check(unsafe { napi_create_function(env, name.as_ptr() as *const c_char, name.len(), cb, ptr::null_mut(), &mut f) }, "napi_create_function")?;
        set(env, exports, name, f)?;
    }
    Ok(exports)
}

/// Called by the host when the addon loads.
///
/// # Safety
/// `env` and `exports` must be the values the host passes to a module's init function.
#[no_mangle]
pub unsafe extern "C" fn napi_register_module_v1(env: Env, exports: Value) -> Value {
    match catch_unwind(AssertUnwindSafe(|| register(env, exports))) {
        Ok(Ok(v)) => v,
        Ok(Err(fail)) => {
            throw(env, fail);
            ptr::null_mut()
        }
        Err(_) => {
            throw(env, Fail::Napi("a panic while registering the addon"));
            ptr::null_mut()
        }
    }
}

/// The N-API version this addon is written against (8: everything used here exists since 1–5).
#[no_mangle]
pub extern "C" fn node_api_module_get_api_version_v1() -> i32 {
    8
}
