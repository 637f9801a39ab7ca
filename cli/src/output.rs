//! Where output goes, without ever losing data.
//!
//! A file output is written to a temporary file created beside the target (same directory, so
//! same file system: linking and renaming it into place are atomic). On Linux it is an unnamed
//! file (`O_TMPFILE`): until the commit it has no name at all, so nothing is left behind even by
//! SIGKILL or a crash. Where the file system refuses `O_TMPFILE` (or `/proc` is missing, needed
//! to link the file) it is a named `.NAME.XXXXXX.lz4-simd-tmp`, which a SIGKILL leaves behind.
//! Only when everything was written and every check passed is the temporary file given the
//! source's permissions, owner and times, flushed to disk (`fsync`), put in place of the target,
//! and the directory flushed too. Any error before that (corrupt input, full disk, an I/O error)
//! drops the temporary file, which deletes it; a signal deletes a named one through
//! `signals.rs`. So the target either keeps its old content or receives the complete new one,
//! and the source is never written at all.
//!
//! Putting an unnamed file in place: `linkat` through `/proc/self/fd/N` gives it the target's
//! name when no file has it (and fails, like `persist_noclobber`, if one appeared meanwhile).
//! `linkat` cannot replace a file, so with `-f` over an existing target the file is linked under
//! a random `.NAME.XXXXXX.lz4-simd-tmp` first and renamed over the target: a SIGKILL between the
//! two (a `link` and a `rename`, after the data's `fsync`) leaves that complete file behind.
//!
//! Checks made before anything is opened for writing (`plan_check`): an existing target is
//! not replaced without `--force`; no job writes a file that any job of the run reads (same
//! device and inode: also through hard links and symbolic links, and across a `-m` list), and
//! no two jobs write the same file. A symbolic link as target is followed: the file it names is
//! replaced, as `lz4` (which opens the path for writing) would change it.
//!
//! Standard output, and existing targets that are not regular files (`/dev/null`, devices,
//! FIFOs), are written directly: they hold nothing a failure could destroy (and `--rm` keeps the
//! source, since nothing of it is on disk).
//!
//! A writable file in a directory we may not write is therefore not replaced (`lz4 -f` writes it
//! in place): the rename needs the directory. That is the price of never truncating a target.
//!
//! Sparse output (`--sparse`, on by default when decompressing to a file, as in `lz4`): every
//! 4 KiB of output that is whole, aligned in the file and all zero is skipped with a seek instead
//! of written, so runs of zeros become holes (no disk blocks), and the temporary file is given its
//! full length at commit. The bytes read back are the same; only the allocation differs. Standard
//! output is sparse only with `--sparse` and where it is a regular file not opened for appending
//! that ends at its position (`> file`; `1<>file` keeps old bytes past it, which a skipped zero
//! run would leave in place, so it is written whole; lz4 1.10 fails with exit 69 on a pipe,
//! where we write the zeros); direct targets
//! (devices, FIFOs) are always written whole.
//!
//! Durability costs little time: a large output is handed to the disk while it is being
//! written, not all at the end. After every [`WRITEBACK_WINDOW`] bytes a writeback thread
//! (started with the first window, so small outputs never start one) `fdatasync`s what the
//! temporary file holds so far, on its own duplicate of the descriptor, while decoding goes on;
//! the `fsync` at commit then waits only for the last window. Any error that thread meets fails
//! the commit (an error reported to one descriptor of a file is not reported again to its
//! duplicates, so it must not be dropped). Why a thread and not `sync_file_range`: the standard
//! library reaches `fdatasync` in safe code, this crate forbids `unsafe`, and neither `rustix`
//! nor `nix` offers `sync_file_range`.
//!
//! Why `tempfile`: it creates the temporary file with `O_EXCL` under a random name (no race with
//! another process, no following a planted link), with the permissions given at creation,
//! deletes it when dropped (every early return and error path), and renames it without
//! replacing a file that appeared meanwhile (`persist_noclobber`: `renameat2(RENAME_NOREPLACE)`,
//! or a hard link where that is missing) — each of which is easy to get subtly wrong by hand.

use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use tempfile::NamedTempFile;

use crate::signals;
use crate::Failure;

/// Buffer between the codec and the file (the codec writes a block at a time).
const WRITE_BUFFER: usize = 1 << 20;

/// The unit of sparse output: a whole, aligned, all-zero unit becomes a hole. 4 KiB is the
/// block size of the common Linux file systems, so a smaller unit would save no disk space.
const SPARSE_UNIT: usize = 4096;

/// Bytes written to a temporary file between two early writebacks (see the module docs).
const WRITEBACK_WINDOW: u64 = 8 << 20;

/// A file's identity: device and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    fn of(metadata: &fs::Metadata) -> Self {
        FileId {
            dev: metadata.dev(),
            ino: metadata.ino(),
        }
    }

    /// The identity of the file `path` names (through symbolic links), if it exists.
    pub fn of_path(path: &Path) -> Option<Self> {
        fs::metadata(path).ok().map(|m| FileId::of(&m))
    }

    /// The identity of what standard input or output is, when it is a regular file (a file
    /// redirected with `<`, `>` or `>>`).
    pub fn of_stdio(fd: std::os::fd::BorrowedFd<'_>) -> Option<Self> {
        let file = File::from(fd.try_clone_to_owned().ok()?);
        let metadata = file.metadata().ok()?;
        metadata.is_file().then(|| FileId::of(&metadata))
    }
}

/// Where one job writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    Stdout,
    File(PathBuf),
    /// `-t`: decode and check, write nothing.
    Discard,
}

/// Where one job reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "stdin".into(),
            Input::File(path) => path.display().to_string(),
        }
    }
}

impl Output {
    pub fn name(&self) -> String {
        match self {
            Output::Stdout => "stdout".into(),
            Output::File(path) => path.display().to_string(),
            Output::Discard => "(nothing)".into(),
        }
    }
}

/// The file a target path stands for: a symbolic link's target, followed as `open` follows it,
/// also when it does not exist yet (a dangling link: `lz4 -f` creates the file it names, so the
/// link stays a link). A loop of links (or more than 40) stays the path itself: an existing
/// file for the `-f` rule, and with `-f` the looping link is what is replaced.
fn resolved_target(path: &Path) -> PathBuf {
    if let Ok(canonical) = fs::canonicalize(path) {
        if fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink()) {
            return canonical;
        }
        return path.to_path_buf();
    }
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => match fs::read_link(&target) {
                Ok(next) => {
                    target = match target.parent() {
                        Some(dir) => dir.join(next),
                        None => next,
                    };
                }
                Err(_) => return path.to_path_buf(),
            },
            _ => return target,
        }
    }
    path.to_path_buf()
}

/// A name that is the same for two spellings of one not-yet-existing path (`a` and `./a`).
fn normalized(path: &Path) -> PathBuf {
    let target = resolved_target(path);
    let parent = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match (fs::canonicalize(parent), target.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => target,
    }
}

fn is_dev_null(path: &Path) -> bool {
    fs::canonicalize(path).is_ok_and(|p| p == Path::new("/dev/null"))
}

/// Why each job may not run (`None` when it may), decided before anything is opened for
/// writing: its output is a file the run reads (any job's input, standard input, or one of
/// `other_inputs` such as the dictionary; same device and inode, so also through hard and
/// symbolic links, and standard output redirected onto one), another job writes the same file
/// from another input (two spellings of one path count as one; one input named twice may
/// write its output twice with `force`, as `lz4 -f` does), or it exists and `force` is off.
pub fn plan_check(
    jobs: &[(Input, Output)],
    other_inputs: &[(String, Option<FileId>)],
    force: bool,
) -> Vec<Option<Failure>> {
    let stdin_id = FileId::of_stdio(std::os::fd::AsFd::as_fd(&io::stdin()));
    let stdout_id = FileId::of_stdio(std::os::fd::AsFd::as_fd(&io::stdout()));
    let mut inputs: Vec<(String, Option<FileId>)> = jobs
        .iter()
        .map(|(input, _)| match input {
            Input::Stdin => (input.name(), stdin_id),
            Input::File(path) => (input.name(), FileId::of_path(path)),
        })
        .collect();
    inputs.extend_from_slice(other_inputs);
    let input_ids: Vec<Option<FileId>> = inputs.iter().map(|(_, id)| *id).collect();
    // Each output written so far: its normalized path, its identity, the input it comes from.
    let mut outputs_seen: Vec<(PathBuf, Option<FileId>, Option<FileId>)> = Vec::new();
    jobs.iter()
        .zip(input_ids)
        .map(|((input, output), input_id)| {
            let (output_name, output_id) = match output {
                Output::Discard => return None,
                Output::Stdout => (output.name(), stdout_id),
                Output::File(path) => (output.name(), FileId::of_path(path)),
            };
            if let Some(id) = output_id {
                if let Some((name, _)) = inputs.iter().find(|(_, input_id)| *input_id == Some(id))
                {
                    return Some(Failure::Message(format!(
                        "{output_name}: is the same file as the input {name}; refusing to write to it"
                    )));
                }
            }
            let Output::File(path) = output else {
                return None;
            };
            let key = normalized(path);
            let same_input = |seen_input: &Option<FileId>| input_id.is_some() && *seen_input == input_id;
            let written_twice = outputs_seen.iter().any(|(seen, seen_id, seen_input)| {
                let same_output = *seen == key || (output_id.is_some() && *seen_id == output_id);
                same_output && !(force && same_input(seen_input))
            });
            outputs_seen.push((key, output_id, input_id));
            if written_twice {
                return Some(Failure::Message(format!(
                    "{output_name}: more than one input would be written to it; refusing ({} is one)",
                    input.name()
                )));
            }
            // A dangling symbolic link names a file that does not exist yet: writing creates
            // it (as `lz4` does) and the link stays.
            let exists = fs::symlink_metadata(resolved_target(path)).is_ok();
            if exists && !force && !is_dev_null(path) {
                return Some(Failure::Message(format!(
                    "{output_name} already exists; not overwritten (use -f to replace it)"
                )));
            }
            None
        })
        .collect()
}

/// An output being written, and how many bytes it received.
pub struct Sink {
    target: Target,
    written: Arc<AtomicU64>,
}

/// Where a [`Sink`] writes: a temporary file, a direct file (a device or FIFO), standard
/// output, or nothing.
enum Target {
    Temporary(Box<Temporary>),
    Direct(BufWriter<File>, String),
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// `--sparse` onto a standard output that is a regular file (`> file`), as lz4 1.10
    /// honours it there.
    SparseStdout(Box<SparseStdout>),
    Discard,
}

/// Standard output as a regular file written with holes: its start, and the sparse state.
pub struct SparseStdout {
    file: BufWriter<File>,
    start: u64,
    sparse: Sparse,
}

impl SparseStdout {
    /// Standard output as a seekable file, if it is a regular file not opened for appending
    /// (`>>`: every write goes to the end, a skipped run would be lost, so it is written whole)
    /// and holding nothing from its position on (`> file`; a file opened without truncation,
    /// `1<>file`, keeps its old bytes where a zero run is skipped, so it is written whole).
    fn open() -> Option<SparseStdout> {
        use std::os::fd::AsFd;
        let stdout = io::stdout();
        let flags = rustix::fs::fcntl_getfl(stdout.as_fd()).ok()?;
        if flags.contains(rustix::fs::OFlags::APPEND) {
            return None;
        }
        let mut file = File::from(stdout.as_fd().try_clone_to_owned().ok()?);
        let metadata = file.metadata().ok()?;
        if !metadata.is_file() {
            return None;
        }
        let start = file.stream_position().ok()?;
        if metadata.len() > start {
            return None;
        }
        Some(SparseStdout {
            file: BufWriter::with_capacity(WRITE_BUFFER, file),
            start,
            sparse: Sparse::default(),
        })
    }

    /// Flushes, and gives the file the zeros at its end that were skipped.
    fn finish(mut self) -> io::Result<()> {
        self.file.flush()?;
        if self.sparse.hole > 0 {
            let file = self.file.get_ref();
            let end = self.start + self.sparse.length;
            file.set_len(end)?;
            (&mut &*file).seek(SeekFrom::Start(end))?;
        }
        Ok(())
    }
}

/// The file a [`Temporary`] writes: unnamed until the commit, or named (see the module docs).
enum Scratch {
    Unnamed(File),
    Named(NamedTempFile),
}

impl Scratch {
    /// An unnamed file in `dir` with permissions `mode` (less the umask), if the file system
    /// makes one (`O_TMPFILE`: ext4, XFS, Btrfs, tmpfs since Linux 3.11-3.15) and `/proc` is
    /// there to link it at commit; `None` otherwise, for the named file instead.
    #[cfg(target_os = "linux")]
    fn unnamed(dir: &Path, mode: u32) -> Option<Scratch> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC;
        let fd = rustix::fs::open(dir, flags, Mode::from_raw_mode(mode)).ok()?;
        let file = File::from(fd);
        fs::metadata(proc_path(&file))
            .is_ok()
            .then_some(Scratch::Unnamed(file))
    }

    #[cfg(not(target_os = "linux"))]
    fn unnamed(_dir: &Path, _mode: u32) -> Option<Scratch> {
        None
    }

    fn as_file(&self) -> &File {
        match self {
            Scratch::Unnamed(file) => file,
            Scratch::Named(file) => file.as_file(),
        }
    }
}

/// The name `linkat` gives an open file by (`AT_EMPTY_PATH` would need `CAP_DAC_READ_SEARCH`).
#[cfg(target_os = "linux")]
fn proc_path(file: &File) -> String {
    use std::os::fd::AsRawFd;
    format!("/proc/self/fd/{}", file.as_raw_fd())
}

/// Links the unnamed `file` as `path`; fails with `AlreadyExists` if `path` exists.
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, path: &Path) -> io::Result<()> {
    use rustix::fs::{AtFlags, CWD};
    rustix::fs::linkat(CWD, proc_path(file), CWD, path, AtFlags::SYMLINK_FOLLOW)?;
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn link_unnamed(_file: &File, _path: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

impl Write for Scratch {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut file = self.as_file();
        file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for Scratch {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let mut file = self.as_file();
        file.seek(pos)
    }
}

/// A temporary file beside `target` (a named one registered for deletion on a signal).
pub struct Temporary {
    file: Option<BufWriter<Scratch>>,
    /// The temporary file's name, when it has one.
    path: Option<PathBuf>,
    target: PathBuf,
    /// Replace an existing target (`-f`); otherwise the rename refuses to.
    overwrite: bool,
    /// `Some` when zero runs become holes (see the module docs).
    sparse: Option<Sparse>,
    /// Without a source file (standard input), the regular file being replaced: its owner and
    /// permission bits carry over (`lz4 -f` writes into the file and so keeps them; a private
    /// file stays private).
    replaced: Option<fs::Metadata>,
    /// The early writeback of what was written so far.
    writeback: Writeback,
}

impl Drop for Temporary {
    fn drop(&mut self) {
        // The `NamedTempFile` (if not renamed) deletes its file when dropped; forget it after.
        // (An unnamed file goes with its last descriptor.)
        let mut registry = signals::registry();
        drop(self.file.take());
        if let Some(path) = &self.path {
            signals::unregister(&mut registry, path);
        }
    }
}

/// Where a sparse output stands: its logical length, and the zero bytes at its end not yet
/// written (skipped with a seek before the next data, or given by `set_len` at commit).
#[derive(Default)]
struct Sparse {
    length: u64,
    hole: u64,
}

/// The early writeback of a temporary file (see the module docs): the logical bytes written so
/// far, where the next window ends, and the thread that `fdatasync`s, once started.
#[derive(Default)]
struct Writeback {
    written: u64,
    next: u64,
    /// The thread could not be started: no early writeback for this output.
    unavailable: bool,
    thread: Option<(mpsc::SyncSender<()>, JoinHandle<io::Result<()>>)>,
}

impl Writeback {
    /// Counts `bytes` more written to `file`; at the end of a window, asks the thread (started
    /// on the first) for an `fdatasync` of what `file` holds. A request made while one is
    /// pending is dropped: that one covers it. If the thread cannot be started (no descriptor
    /// or thread to spare), the output goes on without early writeback: the commit's `fsync`
    /// does it all, as it would for a small output. (So this never fails a write whose bytes
    /// were taken.)
    fn wrote(&mut self, bytes: usize, file: &File) {
        self.written += bytes as u64;
        if self.unavailable || self.written < self.next.max(WRITEBACK_WINDOW) {
            return;
        }
        self.next = self.written + WRITEBACK_WINDOW;
        if self.thread.is_none() {
            let (requests, received) = mpsc::sync_channel::<()>(1);
            let started = file.try_clone().and_then(|duplicate| {
                std::thread::Builder::new()
                    .name("writeback".into())
                    .spawn(move || received.iter().try_for_each(|()| duplicate.sync_data()))
            });
            match started {
                Ok(thread) => self.thread = Some((requests, thread)),
                Err(_) => {
                    self.unavailable = true;
                    return;
                }
            }
        }
        if let Some((requests, _)) = &self.thread {
            // Full: a request is pending. Disconnected: the thread stopped on an error, which
            // `finish` reports.
            let _ = requests.try_send(());
        }
    }

    /// Stops the thread after its pending request, with the first error it met.
    fn finish(&mut self) -> io::Result<()> {
        match self.thread.take() {
            None => Ok(()),
            Some((requests, thread)) => {
                drop(requests);
                thread
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("the writeback thread panicked")))
            }
        }
    }
}

/// Whether `unit` is all zero (a unit of data usually answers at its first or last byte).
fn all_zero(unit: &[u8]) -> bool {
    unit.first() == Some(&0) && unit.last() == Some(&0) && unit.iter().all(|&byte| byte == 0)
}

impl Temporary {
    /// Writes some of `buf` (all of it when sparse), counted for the early writeback.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = match (self.sparse.is_some(), self.file.as_mut()) {
            (_, None) => return Err(io::Error::other("output already committed")),
            (true, Some(_)) => self.write_sparse(buf).map(|()| buf.len())?,
            (false, Some(file)) => file.write(buf)?,
        };
        self.wrote(written);
        Ok(written)
    }

    /// Writes all of `buf`, counted for the early writeback.
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match (self.sparse.is_some(), self.file.as_mut()) {
            (_, None) => return Err(io::Error::other("output already committed")),
            (true, Some(_)) => self.write_sparse(buf)?,
            (false, Some(file)) => file.write_all(buf)?,
        }
        self.wrote(buf.len());
        Ok(())
    }

    fn wrote(&mut self, bytes: usize) {
        if let Some(file) = self.file.as_ref() {
            self.writeback.wrote(bytes, file.get_ref().as_file());
        }
    }

    fn write_sparse(&mut self, buf: &[u8]) -> io::Result<()> {
        let (Some(file), Some(sparse)) = (self.file.as_mut(), self.sparse.as_mut()) else {
            return Err(io::Error::other("output already committed"));
        };
        write_sparse(file, sparse, buf)
    }
}

/// Writes `buf` to a sparse output: data runs are written in one call each, and whole aligned
/// zero units are left as holes.
fn write_sparse(file: &mut (impl Write + Seek), sparse: &mut Sparse, buf: &[u8]) -> io::Result<()> {
    let mut data_start = 0;
    let mut at = 0;
    while at < buf.len() {
        // Cannot truncate: the remainder of a division by a `usize` constant.
        let into_unit = (sparse.length % SPARSE_UNIT as u64) as usize;
        let take = (SPARSE_UNIT - into_unit).min(buf.len() - at);
        let unit = &buf[at..at + take];
        if take == SPARSE_UNIT && all_zero(unit) {
            file.write_all(&buf[data_start..at])?;
            sparse.hole += SPARSE_UNIT as u64;
            data_start = at + take;
        } else if sparse.hole > 0 {
            let hole = i64::try_from(sparse.hole).map_err(io::Error::other)?;
            file.seek(SeekFrom::Current(hole))?;
            sparse.hole = 0;
        }
        sparse.length += take as u64;
        at += take;
    }
    file.write_all(&buf[data_start..])
}

/// What the output file receives from the source once complete.
pub struct SourceMeta {
    metadata: fs::Metadata,
}

impl SourceMeta {
    pub fn of(input: &Input) -> Option<Self> {
        match input {
            Input::File(path) => fs::metadata(path)
                .ok()
                .map(|metadata| SourceMeta { metadata }),
            Input::Stdin => None,
        }
    }
}

impl Sink {
    /// Opens `output` for writing (after [`plan_check`]). A source with `meta` makes the
    /// temporary file private (0600) until it receives the source's permissions; without one it
    /// gets 0666 less the umask, as a new file would.
    ///
    /// `sparse`: a file output turns its whole, aligned 4 KiB zero units into holes.
    pub fn open(
        output: &Output,
        private: bool,
        overwrite: bool,
        sparse: bool,
    ) -> Result<Sink, Failure> {
        Ok(Sink {
            target: Target::open(output, private, overwrite, sparse)?,
            written: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Bytes written so far (shared with the progress bar).
    pub fn counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.written)
    }

    pub fn bytes_written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    pub fn name(&self) -> String {
        self.target.name()
    }

    /// Makes the output complete and durable: flush, copy the source's metadata, `fsync`,
    /// rename over the target, `fsync` the directory. Returns whether the output is now a file
    /// on disk (not standard output, a device, a FIFO or nothing): only then may the source be
    /// removed.
    pub fn commit(self, source: Option<&SourceMeta>) -> Result<bool, Failure> {
        let durable = matches!(self.target, Target::Temporary(_));
        self.target.commit(source)?;
        Ok(durable)
    }
}

impl Target {
    fn open(
        output: &Output,
        private: bool,
        overwrite: bool,
        sparse: bool,
    ) -> Result<Target, Failure> {
        match output {
            Output::Discard => Ok(Target::Discard),
            Output::Stdout => match sparse.then(SparseStdout::open).flatten() {
                Some(file) => Ok(Target::SparseStdout(Box::new(file))),
                None => Ok(Target::Stdout(BufWriter::with_capacity(
                    WRITE_BUFFER,
                    io::stdout().lock(),
                ))),
            },
            Output::File(path) => {
                let name = path.display().to_string();
                let target = resolved_target(path);
                if fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
                    let file = fs::OpenOptions::new()
                        .write(true)
                        .open(&target)
                        .map_err(|e| Failure::Io(name.clone(), e))?;
                    return Ok(Target::Direct(
                        BufWriter::with_capacity(WRITE_BUFFER, file),
                        name,
                    ));
                }
                let dir = match target.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir,
                    _ => Path::new("."),
                };
                let replaced = fs::metadata(&target)
                    .ok()
                    .filter(|meta| !private && meta.is_file());
                let mode = if private || replaced.is_some() {
                    0o600
                } else {
                    0o666
                };
                let new = |file, path| {
                    Ok(Target::Temporary(Box::new(Temporary {
                        file: Some(BufWriter::with_capacity(WRITE_BUFFER, file)),
                        path,
                        target: target.clone(),
                        overwrite,
                        sparse: sparse.then(Sparse::default),
                        replaced: replaced.clone(),
                        writeback: Writeback::default(),
                    })))
                };
                if let Some(file) = Scratch::unnamed(dir, mode) {
                    return new(file, None);
                }
                // Created and registered under the lock: a signal cannot fall between the two.
                let mut registry = signals::registry();
                let file = tempfile::Builder::new()
                    .prefix(&temporary_prefix(&target))
                    .suffix(TEMPORARY_SUFFIX)
                    .permissions(fs::Permissions::from_mode(mode))
                    .tempfile_in(dir)
                    .map_err(|e| {
                        Failure::Io(
                            format!(
                                "{name}: cannot create a temporary file in {} (outputs are \
                                 written beside their target, then renamed over it)",
                                dir.display()
                            ),
                            without_path(e),
                        )
                    })?;
                let path = file.path().to_path_buf();
                registry.push(path.clone());
                drop(registry);
                new(Scratch::Named(file), Some(path))
            }
        }
    }

    fn name(&self) -> String {
        match self {
            Target::Temporary(temporary) => temporary.target.display().to_string(),
            Target::Direct(_, name) => name.clone(),
            Target::Stdout(_) | Target::SparseStdout(_) => "stdout".into(),
            Target::Discard => "(nothing)".into(),
        }
    }

    fn commit(self, source: Option<&SourceMeta>) -> Result<(), Failure> {
        let name = self.name();
        let io_failure = |e| Failure::Io(name.clone(), e);
        match self {
            Target::Discard => Ok(()),
            Target::Stdout(mut out) => out.flush().map_err(io_failure),
            Target::SparseStdout(out) => out.finish().map_err(io_failure),
            Target::Direct(mut out, _) => out.flush().map_err(io_failure),
            Target::Temporary(mut temporary) => {
                let Some(buffered) = temporary.file.take() else {
                    return Err(Failure::Message(format!("{name}: committed twice")));
                };
                // On failure the `NamedTempFile` inside the error is dropped: the file goes.
                let file = buffered
                    .into_inner()
                    .map_err(|e| Failure::Io(name.clone(), e.into_error()))?;
                // Zeros at the end of a sparse output were skipped, not written: the length
                // gives them (as a hole).
                if let Some(sparse) = temporary.sparse.as_ref().filter(|s| s.hole > 0) {
                    file.as_file().set_len(sparse.length).map_err(io_failure)?;
                }
                if let Some(source) = source {
                    copy_metadata(file.as_file(), &source.metadata).map_err(io_failure)?;
                } else if let Some(replaced) = &temporary.replaced {
                    let _ = std::os::unix::fs::fchown(
                        file.as_file(),
                        Some(replaced.uid()),
                        Some(replaced.gid()),
                    );
                    let mode = replaced.permissions().mode() & 0o777;
                    file.as_file()
                        .set_permissions(fs::Permissions::from_mode(mode))
                        .map_err(io_failure)?;
                }
                temporary.writeback.finish().map_err(io_failure)?;
                file.as_file().sync_all().map_err(io_failure)?;
                let appeared = || {
                    Failure::Message(format!(
                        "{name} appeared while it was being written; not overwritten"
                    ))
                };
                // The named file to rename over the target.
                let named = match file {
                    Scratch::Named(file) => file.into_temp_path(),
                    Scratch::Unnamed(file) => match link_unnamed(&file, &temporary.target) {
                        Ok(()) => return sync_parent(&temporary.target).map_err(io_failure),
                        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
                            return Err(io_failure(e))
                        }
                        Err(_) if !temporary.overwrite => return Err(appeared()),
                        // `-f` over an existing target: linked under a temporary name (as a
                        // named temporary file, registered under the lock), renamed below.
                        Err(_) => {
                            let mut registry = signals::registry();
                            let linked = tempfile::Builder::new()
                                .prefix(&temporary_prefix(&temporary.target))
                                .suffix(TEMPORARY_SUFFIX)
                                .make_in(target_dir(&temporary.target), |path| {
                                    link_unnamed(&file, path)
                                })
                                .map_err(|e| io_failure(without_path(e)))?;
                            let path = linked.path().to_path_buf();
                            registry.push(path.clone());
                            temporary.path = Some(path);
                            linked.into_temp_path()
                        }
                    },
                };
                let mut registry = signals::registry();
                let persisted = if temporary.overwrite {
                    named.persist(&temporary.target)
                } else {
                    named.persist_noclobber(&temporary.target)
                };
                let result = match persisted {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        let exists = e.error.kind() == io::ErrorKind::AlreadyExists;
                        drop(e.path);
                        Err(if exists {
                            appeared()
                        } else {
                            Failure::Io(name.clone(), e.error)
                        })
                    }
                };
                if let Some(path) = temporary.path.take() {
                    signals::unregister(&mut registry, &path);
                }
                drop(registry);
                result?;
                sync_parent(&temporary.target).map_err(io_failure)
            }
        }
    }
}

/// The end of a temporary file's name (`.NAME.XXXXXX.lz4-simd-tmp`).
const TEMPORARY_SUFFIX: &str = ".lz4-simd-tmp";

/// The longest part of the target's name a temporary name repeats: with the dot, six random
/// characters and the suffix it stays within the 255 bytes a file name may have, whatever the
/// target's length.
const TEMPORARY_NAME_PART: usize = 200;

/// `.NAME.` for a temporary file beside `target` (NAME cut to at most [`TEMPORARY_NAME_PART`]
/// bytes, at a character boundary).
fn temporary_prefix(target: &Path) -> String {
    let name = target
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let mut end = name.len().min(TEMPORARY_NAME_PART);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.", &name[..end])
}

/// `tempfile`'s error without the temporary path it appends (a random name the user never
/// chose; the message names the directory instead).
fn without_path(err: io::Error) -> io::Error {
    let text = err.to_string();
    match text.rfind(" at path ") {
        Some(at) => io::Error::new(err.kind(), &text[..at]),
        None => err,
    }
}

/// The source's owner (when allowed), permissions and times, as `lz4` copies them.
fn copy_metadata(file: &File, source: &fs::Metadata) -> io::Result<()> {
    // Changing the owner is allowed only to root (or to the same owner); lz4 ignores failures
    // too. It goes first: it may clear the set-user-ID bits the chmod then restores.
    let _ = std::os::unix::fs::fchown(file, Some(source.uid()), Some(source.gid()));
    file.set_permissions(fs::Permissions::from_mode(source.mode() & 0o7777))?;
    let mut times = fs::FileTimes::new();
    if let Ok(accessed) = source.accessed() {
        times = times.set_accessed(accessed);
    }
    if let Ok(modified) = source.modified() {
        times = times.set_modified(modified);
    }
    file.set_times(times)
}

/// The directory `target` is in.
pub(crate) fn target_dir(target: &Path) -> &Path {
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Flushes the directory entry of a renamed file to disk.
fn sync_parent(target: &Path) -> io::Result<()> {
    File::open(target_dir(target))?.sync_all()
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match &mut self.target {
            Target::Temporary(temporary) => temporary.write(buf),
            Target::Direct(out, _) => out.write(buf),
            Target::Stdout(out) => out.write(buf),
            Target::SparseStdout(out) => {
                write_sparse(&mut out.file, &mut out.sparse, buf).map(|()| buf.len())
            }
            Target::Discard => Ok(buf.len()),
        }?;
        self.written.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.target {
            Target::Temporary(temporary) => temporary.write_all(buf),
            Target::Direct(out, _) => out.write_all(buf),
            Target::Stdout(out) => out.write_all(buf),
            Target::SparseStdout(out) => write_sparse(&mut out.file, &mut out.sparse, buf),
            Target::Discard => Ok(()),
        }?;
        self.written.fetch_add(buf.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        // The real flush (and fsync) is `commit`'s; the frame encoder's flushes need not reach
        // the file.
        Ok(())
    }
}
