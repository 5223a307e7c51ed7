//! One digest over the files of a source tree, for the build id (src/build-id.ts): read and hashed here in one
//! call, because a fresh process reading a few hundred small files through the engine paid more for the calls
//! than for the bytes. The order and framing are the contract src/native.ts writes down (and the TypeScript
//! twin in test/native-tree.test.ts keeps): each part in the order given; a directory walked depth first, its
//! entries in byte order of their names, only directories and regular files taken (a link is not followed); a
//! part that is a file taken as it is; a part that is missing skipped. Each file adds its path relative to the
//! root ('/' between names), a NUL, its bytes, a NUL.

use std::fs;
use std::io;
use std::path::Path;

/// blake3 over the framed files of `parts` under `root`, as 64 hex digits.
pub fn tree_hash(root: &Path, parts: &[&str]) -> io::Result<String> {
    let mut h = blake3::Hasher::new();
    for part in parts {
        let p = root.join(part);
        match fs::metadata(&p) {
            Ok(m) if m.is_dir() => walk(&p, part, &mut h)?,
            Ok(m) if m.is_file() => add(&p, part, &mut h)?,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(h.finalize().to_hex().to_string())
}

fn walk(dir: &Path, rel: &str, h: &mut blake3::Hasher) -> io::Result<()> {
    let mut entries: Vec<(Vec<u8>, fs::DirEntry)> = Vec::new();
    for e in fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().into_encoded_bytes();
        entries.push((name, e));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, e) in entries {
        let name = String::from_utf8_lossy(&name).into_owned();
        let child = format!("{rel}/{name}");
        let kind = e.file_type()?;
        if kind.is_dir() {
            walk(&e.path(), &child, h)?;
        } else if kind.is_file() {
            add(&e.path(), &child, h)?;
        }
    }
    Ok(())
}

fn add(path: &Path, rel: &str, h: &mut blake3::Hasher) -> io::Result<()> {
    h.update(rel.as_bytes());
    h.update(&[0]);
    h.update(&fs::read(path)?);
    h.update(&[0]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn framed(files: &[(&str, &[u8])]) -> String {
        let mut h = blake3::Hasher::new();
        for (rel, bytes) in files {
            h.update(rel.as_bytes());
            h.update(&[0]);
            h.update(bytes);
            h.update(&[0]);
        }
        h.finalize().to_hex().to_string()
    }

    #[test]
    fn order_framing_links_and_missing_parts() {
        let root = std::env::temp_dir().join(format!("prolong-tree-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("src/b")).unwrap();
        fs::write(root.join("src/B.ts"), b"upper").unwrap();
        fs::write(root.join("src/a.ts"), b"a").unwrap();
        fs::write(root.join("src/b/c.ts"), b"").unwrap();
        symlink(root.join("src/a.ts"), root.join("src/link.ts")).unwrap();
        fs::write(root.join("package.json"), b"{}").unwrap();
        let got = tree_hash(&root, &["src", "missing", "package.json"]).unwrap();
        // Byte order puts "B.ts" before "a.ts" before "b"; the link is left out; the missing part adds nothing.
        let want = framed(&[("src/B.ts", b"upper"), ("src/a.ts", b"a"), ("src/b/c.ts", b""), ("package.json", b"{}")]);
        assert_eq!(got, want);
        fs::write(root.join("src/b/c.ts"), b"x").unwrap();
        assert_ne!(tree_hash(&root, &["src", "missing", "package.json"]).unwrap(), want);
        fs::remove_dir_all(&root).unwrap();
    }
}
