//! Where results live and the one rule by which every file dodbench writes is written
//! ([`write_atomically`]): results, baselines and their `.prev` copies, histories, exports,
//! traces, and the report directories ([`create_output_dir`]).

use std::fs::{FileType, Metadata};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The path that means standard output wherever dodbench writes one file (`-o -`).
pub const STDOUT_PATH: &str = "-";

/// Symbolic links followed before a path is refused as a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Where bytes written to an output path go, by [`destination`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// `-`: standard output.
    Stdout,
    /// A FIFO, a character device (`/dev/null`, a terminal) or an open descriptor
    /// (`/dev/stdout`, `/dev/fd/N`): opened for writing as it is, never created, truncated
    /// or replaced.
    Stream(PathBuf),
    /// A regular file, existing or not: the end of the path's chain of symbolic links, which
    /// is replaced atomically (the links stay links).
    File(PathBuf),
}

/// What writing to `path` means under the rule of [`write_atomically`].
///
/// # Errors
/// `path` is a directory ([`std::io::ErrorKind::IsADirectory`]), a block device or a socket
/// (refused), its symbolic links loop, or it cannot be inspected (e.g. a parent is a file).
/// The messages do not repeat `path`: the caller names it.
pub fn destination(path: &Path) -> std::io::Result<Destination> {
    if path.as_os_str() == STDOUT_PATH {
        return Ok(Destination::Stdout);
    }
    match follow_links(path)? {
        (end, None) => Ok(Destination::File(end)),
        (end, Some(meta)) => {
            let kind = meta.file_type();
            if kind.is_file() {
                // A descriptor's file (`/dev/stdout` redirected to a file) is written through:
                // replacing it would leave the descriptor's holder with the old file.
                if is_descriptor(&end) {
                    Ok(Destination::Stream(end))
                } else {
                    Ok(Destination::File(end))
                }
            } else if kind.is_dir() {
                Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    "Is a directory",
                ))
            } else if is_stream(kind) {
                Ok(Destination::Stream(end))
            } else {
                Err(refused(kind))
            }
        }
    }
}

/// Writes `bytes` to `path` by the one rule of every file dodbench writes (results,
/// baselines and their `.prev` copies, histories, exports, traces):
///
/// * a regular file, or a path where nothing is yet, is replaced atomically: the bytes go to
///   a temporary file in the same directory (missing parent directories are created), which
///   is synced and renamed over it, so a reader sees the old or the new file, never a torn
///   one; the file is readable by all (0644);
/// * a symbolic link is followed to the end of its chain (relative targets against the
///   link's directory) and its target is replaced as above; the link stays a link, and a
///   dangling link's target is created;
/// * a FIFO, a character device (`/dev/null`, `/dev/stdout`) or an open descriptor
///   (`/dev/fd/N`) is written through as a stream, appended to, never replaced;
/// * `-` is standard output;
/// * a directory (`Is a directory`), a block device or a socket is refused, untouched.
///
/// # Errors
/// The refusals above, or any I/O failure, without the temporary file's name (the caller
/// names `path`); the previous file at `path`, if any, is left untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match destination(path)? {
        Destination::Stdout => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
        Destination::Stream(stream) => write_through(&stream, bytes),
        Destination::File(file) => replace_atomically(&file, bytes),
    }
}

/// Creates the directory `path` (and its parents) if missing, for a writer that fills a
/// directory (the HTML report, `dodbench advise --out`): a symbolic link is followed (a
/// dangling one's target is created); a path that exists and is not a directory is refused
/// with what it is.
///
/// # Errors
/// `path` is a file, FIFO, device or socket ([`std::io::ErrorKind::NotADirectory`]; the
/// message does not repeat `path`), or the directory cannot be created.
pub fn create_output_dir(path: &Path) -> std::io::Result<()> {
    match follow_links(path)? {
        (end, None) => std::fs::create_dir_all(end),
        (_, Some(meta)) if meta.is_dir() => Ok(()),
        (_, Some(meta)) => Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            format!("is {}, not a directory", kind_name(meta.file_type())),
        )),
    }
}

/// The end of `path`'s chain of symbolic links and what is there (`None`: nothing yet).
/// A link into `/proc` (an open descriptor such as `/dev/stdout`'s `/proc/self/fd/1`, whose
/// target may be no path at all, e.g. `pipe:[7]`) ends the chain, described by what it opens.
fn follow_links(path: &Path) -> std::io::Result<(PathBuf, Option<Metadata>)> {
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((at, None)),
            Err(e) => return Err(e),
        };
        if !meta.file_type().is_symlink() {
            return Ok((at, Some(meta)));
        }
        if is_descriptor(&at) {
            let meta = std::fs::metadata(&at)?;
            return Ok((at, Some(meta)));
        }
        let target = std::fs::read_link(&at)?;
        at = match at.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Whether `path` lies in `/proc` (its directory resolved: `/dev/fd` is `/proc/self/fd`),
/// where a link names an open descriptor rather than a file to replace.
fn is_descriptor(path: &Path) -> bool {
    path.parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .and_then(|dir| std::fs::canonicalize(dir).ok())
        .is_some_and(|dir| dir.starts_with("/proc"))
}

/// Whether a file of this kind is written through: a FIFO or a character device.
fn is_stream(kind: FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        kind.is_fifo() || kind.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = kind;
        false
    }
}

/// The refusal of a path that is neither a directory, a file nor a stream.
fn refused(kind: FileType) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "is {}; dodbench writes regular files, FIFOs and character devices only",
            kind_name(kind)
        ),
    )
}

/// `kind` as a noun with its article, for messages.
fn kind_name(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "neither a file nor a directory"
    }
}

/// Writes `bytes` into an existing FIFO, device or descriptor, appending, without creating,
/// truncating or replacing it.
fn write_through(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut stream = std::fs::OpenOptions::new().append(true).open(path)?;
    stream.write_all(bytes)?;
    stream.flush()
}

/// The atomic replacement of the regular file (or nothing yet) at `path`.
fn replace_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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

/// The `target` directory dodbench's files go to, found at run time (never the folder this
/// crate was compiled in, which for a crate that depends on dodbench is cargo's checkout
/// cache), in this order:
/// 1. `$CARGO_TARGET_DIR`;
/// 2. when cargo runs this process (`cargo bench`, `cargo test` and `cargo run` set `$CARGO`
///    and `$CARGO_MANIFEST_DIR`), the target directory cargo reports for that package
///    (`cargo metadata`): right for a workspace, a `[build] target-dir` in a config file,
///    and a separate `build-dir`, from which `cargo bench` runs binaries that are not in the
///    target directory;
/// 3. the cargo target directory the running executable sits in (its nearest ancestor
///    holding cargo's `CACHEDIR.TAG`), for a binary run by hand from `target/<profile>/`;
/// 4. `target/` in the current directory (an installed binary).
///
/// Found once per process.
pub fn target_dir() -> PathBuf {
    static FOUND: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let exe = std::env::current_exe().ok();
            target_dir_for(
                std::env::var_os("CARGO_TARGET_DIR"),
                target_dir_from_cargo,
                exe.as_deref(),
            )
        })
        .clone()
}

/// [`target_dir`] for a given `$CARGO_TARGET_DIR`, answer of cargo (asked only when needed)
/// and executable path.
fn target_dir_for(
    cargo_target_dir: Option<std::ffi::OsString>,
    from_cargo: impl FnOnce() -> Option<PathBuf>,
    exe: Option<&Path>,
) -> PathBuf {
    if let Some(dir) = cargo_target_dir.filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = from_cargo() {
        return dir;
    }
    exe.and_then(|exe| {
        exe.ancestors()
            .skip(1)
            .find(|dir| dir.join("CACHEDIR.TAG").is_file())
            .map(Path::to_path_buf)
    })
    .unwrap_or_else(|| PathBuf::from("target"))
}

/// The target directory of the package cargo is running this process for: `$CARGO metadata
/// --no-deps` on `$CARGO_MANIFEST_DIR/Cargo.toml` (offline, about 0.1 s). `None` when this
/// process was not started by cargo or cargo does not answer.
fn target_dir_from_cargo() -> Option<PathBuf> {
    #[derive(serde::Deserialize)]
    struct Metadata {
        target_directory: PathBuf,
    }
    let cargo = std::env::var_os("CARGO").filter(|c| !c.is_empty())?;
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?).join("Cargo.toml");
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    serde_json::from_slice::<Metadata>(&output.stdout)
        .ok()
        .map(|m| m.target_directory)
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

    /// Runs `f` on a thread and fails the test instead of hanging when it does not finish in
    /// 20 s (a FIFO without its reader or writer blocks forever).
    #[cfg(unix)]
    fn within_time_limit<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("the write finished within 20 s")
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("run mkfifo");
        assert!(status.success(), "mkfifo {}", path.display());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_chain_is_followed_and_its_target_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real_dir = dir.path().join("real");
        std::fs::create_dir(&real_dir).unwrap();
        let real = real_dir.join("results.json");
        std::fs::write(&real, b"old").unwrap();
        // link -> middle -> real/results.json, both relative to their link's directory.
        let middle = dir.path().join("middle.json");
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real/results.json", &middle).unwrap();
        std::os::unix::fs::symlink("middle.json", &link).unwrap();
        assert_eq!(destination(&link).unwrap(), Destination::File(real.clone()));
        write_atomically(&link, b"new").unwrap();
        for l in [&link, &middle] {
            assert!(std::fs::symlink_metadata(l).unwrap().is_symlink());
        }
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // The temporary file was made, and renamed, beside the target.
        assert_eq!(std::fs::read_dir(&real_dir).unwrap().count(), 1);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_symlink_has_its_target_created() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("baseline.json");
        std::os::unix::fs::symlink("kept/elsewhere/baseline.json", &link).unwrap();
        write_atomically(&link, b"{}").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        let target = dir.path().join("kept/elsewhere/baseline.json");
        assert_eq!(std::fs::read(target).unwrap(), b"{}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let e = write_atomically(&a, b"x").unwrap_err();
        assert!(e.to_string().contains("symbolic links"), "{e}");
        assert!(std::fs::symlink_metadata(&a).unwrap().is_symlink());
    }

    #[test]
    fn a_directory_is_refused_by_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let e = write_atomically(dir.path(), b"x").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::IsADirectory);
        assert_eq!(e.to_string(), "Is a directory");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_dash_is_standard_output() {
        assert_eq!(
            destination(Path::new(STDOUT_PATH)).unwrap(),
            Destination::Stdout
        );
        // `./-` is a file named `-`.
        assert!(matches!(
            destination(Path::new("./-")).unwrap(),
            Destination::File(_)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through_and_stays_a_fifo() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.json");
        mkfifo(&fifo);
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        let written = bytes.clone();
        let writer = fifo.clone();
        within_time_limit(move || write_atomically(&writer, &written)).unwrap();
        let read = within_time_limit(move || reader.join().unwrap());
        assert_eq!(read, bytes);
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_character_device_is_written_through_and_stays_one() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        assert_eq!(
            destination(null).unwrap(),
            Destination::Stream(null.to_path_buf())
        );
        // Writable by everyone: a rename would need /dev and fail (or, as root, replace it).
        write_atomically(null, b"discarded").unwrap();
        assert!(
            std::fs::symlink_metadata(null)
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_open_descriptor_is_appended_to_not_replaced() {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("held.txt");
        std::fs::write(&path, b"head ").unwrap();
        let held = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        let inode = std::fs::metadata(&path).unwrap().ino();
        let through = PathBuf::from(format!("/dev/fd/{}", held.as_raw_fd()));
        assert!(matches!(
            destination(&through).unwrap(),
            Destination::Stream(_)
        ));
        write_atomically(&through, b"tail").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"head tail");
        assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
    }

    #[cfg(unix)]
    #[test]
    fn sockets_and_block_devices_are_refused() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let e = write_atomically(&socket, b"x").unwrap_err();
        assert!(e.to_string().starts_with("is a socket;"), "{e}");
        assert!(
            std::fs::symlink_metadata(&socket)
                .unwrap()
                .file_type()
                .is_socket()
        );
        // Refused before anything is opened, so any block device present serves.
        let block = std::fs::read_dir("/dev").ok().and_then(|entries| {
            entries.filter_map(Result::ok).map(|e| e.path()).find(|p| {
                std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_block_device())
            })
        });
        if let Some(block) = block {
            let e = write_atomically(&block, b"x").unwrap_err();
            assert!(e.to_string().starts_with("is a block device;"), "{e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_output_directory_follows_links_and_refuses_files() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("report");
        std::os::unix::fs::symlink("real/report", &link).unwrap();
        create_output_dir(&link).unwrap();
        assert!(dir.path().join("real/report").is_dir());
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        create_output_dir(&link).unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let e = create_output_dir(&file).unwrap_err();
        assert_eq!(e.to_string(), "is a regular file, not a directory");
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let e = create_output_dir(&fifo).unwrap_err();
        assert_eq!(e.to_string(), "is a FIFO, not a directory");
        create_output_dir(&dir.path().join("new/nested")).unwrap();
        assert!(dir.path().join("new/nested").is_dir());
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

    #[test]
    fn the_target_directory_is_found_from_the_running_executable() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("user-crate").join("target");
        let deps = target.join("release").join("deps");
        std::fs::create_dir_all(&deps).unwrap();
        std::fs::write(
            target.join("CACHEDIR.TAG"),
            b"Signature: 8a477f597d28d172789f06886806bc55",
        )
        .unwrap();
        let exe = deps.join("suite-0123456789abcdef");
        let not_cargo = || None;
        assert_eq!(target_dir_for(None, not_cargo, Some(&exe)), target);
        assert_eq!(
            target_dir_for(Some("/elsewhere".into()), not_cargo, Some(&exe)),
            PathBuf::from("/elsewhere")
        );
        // Run by cargo: cargo's answer, even where the binary sits in another directory (a
        // separate build-dir); `$CARGO_TARGET_DIR` still comes first.
        let from_cargo = || Some(PathBuf::from("/user-crate/target"));
        assert_eq!(
            target_dir_for(None, from_cargo, Some(&exe)),
            PathBuf::from("/user-crate/target")
        );
        assert_eq!(
            target_dir_for(Some("/elsewhere".into()), from_cargo, Some(&exe)),
            PathBuf::from("/elsewhere")
        );
        // An installed binary outside any target directory: ./target.
        let installed = dir.path().join("bin").join("dodbench");
        assert_eq!(
            target_dir_for(None, not_cargo, Some(&installed)),
            PathBuf::from("target")
        );
        assert_eq!(
            target_dir_for(Some("".into()), not_cargo, None),
            PathBuf::from("target")
        );
    }
}
