//! Where results live and how they are written: atomically, so a reader never sees a torn
//! file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary sibling file and a rename, creating missing
/// parent directories; the file is readable by all (0644), as every file dodbench writes
/// (results, baselines, exports, histories, traces).
///
/// # Errors
/// Any I/O failure, without the temporary file's name (the caller names `path`); the previous
/// file at `path`, if any, is left untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(without_temporary_path)?;
    // The temporary file is created private (0600); the result is an ordinary readable file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)
        .map_err(|e| without_temporary_path(e.error))?;
    Ok(())
}

/// `e` without the temporary file's path that `tempfile` adds to its errors (users never
/// see that file; the caller's message names theirs).
fn without_temporary_path(e: std::io::Error) -> std::io::Error {
    let kind = e.kind();
    if e.get_ref().is_none() {
        return e;
    }
    let inner = e.into_inner().expect("checked above");
    match inner.source() {
        Some(cause) => std::io::Error::new(kind, cause.to_string()),
        None => std::io::Error::new(kind, inner.to_string()),
    }
}

/// The workspace's `target` directory: `$CARGO_TARGET_DIR`, else `target/` beside the
/// workspace `Cargo.toml` this crate was built from.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
        })
}

/// `target/dodbench/results.json`.
pub fn default_results_path() -> PathBuf {
    target_dir().join("dodbench").join("results.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_do_not_name_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"x").unwrap();
        // A parent that is a file: the directory cannot be created.
        let e = write_atomically(&blocker.join("f.json"), b"y").unwrap_err();
        assert!(!e.to_string().contains(".tmp"), "{e}");
        // A target that is a directory: the rename fails.
        let target = dir.path().join("sub");
        std::fs::create_dir(&target).unwrap();
        let e = write_atomically(&target, b"y").unwrap_err();
        assert!(!e.to_string().contains(".tmp"), "{e}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no leftovers"
        );
    }

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub").join("f.json");
        write_atomically(&p, b"first version, long").unwrap();
        write_atomically(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }
}
