//! From settings to jobs (one input, one output each), and running them.
//!
//! The inputs and outputs follow `lz4` 1.10's rules. With no `-z`/`-d`, a `.lz4` input is
//! decompressed and anything else compressed (with `-m`, the first name decides for all). With
//! one input and no output named, standard input goes to standard output and a file to
//! `FILE.lz4` (compressing) or `FILE` without `.lz4` (decompressing), whatever standard output
//! is: only `-c` sends a file there. With `-m`/`-r` every input gets its own output by those
//! names (or all go to standard output with `-c`); with no file named they read standard input. Every job is checked
//! (`output::plan_check`) before any is run: with one job a refusal fails the run, with several
//! a refused job is skipped; a job that fails leaves its output as it was and the others still
//! run; the exit status says whether all succeeded.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::{self, IsTerminal, Read, Seek, SeekFrom};
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::args::{Mode, Operand, Settings};
use crate::codec;
use crate::container;
use crate::output::{self, FileId, Input, Output, Sink, SourceMeta};
use crate::progress::{Counted, Progress};
use crate::{write_failure_code, Failure};

const EXTENSION: &str = ".lz4";

/// One unit of work.
#[derive(Debug, Clone)]
pub struct Job {
    pub input: Input,
    pub output: Output,
    /// Compress, Decompress or Test.
    pub mode: Mode,
}

/// Prints at `level` and above (to standard error, where `lz4` prints its messages).
pub fn display(settings: &Settings, level: u8, message: &str) {
    if settings.display_level >= level {
        eprintln!("{message}");
    }
}

/// Reports an input that cannot be processed; the run goes on and fails at the end.
fn skip(settings: &mut Settings, failure: &Failure) {
    display(settings, 1, &format!("lz4-simd: {failure}"));
    settings.skipped = settings.skipped.saturating_add(1);
}

/// Whether `path` ends in `.lz4` after at least one byte (names are compared as bytes, as
/// `lz4` compares them: case matters, and a name need not be UTF-8).
fn has_extension(path: &Path) -> bool {
    let name = path.as_os_str().as_bytes();
    name.len() > EXTENSION.len() && name.ends_with(EXTENSION.as_bytes())
}

fn compressed_name(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(EXTENSION);
    PathBuf::from(name)
}

fn decompressed_name(path: &Path) -> Option<PathBuf> {
    has_extension(path).then(|| {
        let name = path.as_os_str().as_bytes();
        PathBuf::from(OsStr::from_bytes(&name[..name.len() - EXTENSION.len()]))
    })
}

/// What no `-z`/`-d` means, as `lz4` decides it: decompress a `.lz4` input, compress anything
/// else (with `-m`, the first name decides for all).
fn auto_mode(input: Option<&Path>) -> Mode {
    match input {
        Some(path) if has_extension(path) => Mode::Decompress,
        _ => Mode::Compress,
    }
}

/// Every file `-r` reaches from `paths`: a named path is followed through symbolic links (as
/// `lz4` follows it), a directory is walked in name order. Inside a directory only regular
/// files and directories are taken: symbolic links are not followed (a link to a parent would
/// loop, a link to a sibling would process one file twice) and FIFOs, sockets and devices are
/// skipped (reading a FIFO would wait forever). What cannot be read is reported and fails the
/// run; the rest is still processed.
fn expand_recursive(settings: &mut Settings, paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(settings, path, &mut files),
            Ok(_) => files.push(path.clone()),
            Err(e) => skip(settings, &Failure::Io(path.display().to_string(), e)),
        }
    }
    files
}

fn walk(settings: &mut Settings, dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return skip(settings, &Failure::Io(dir.display().to_string(), e)),
    };
    let mut paths = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => paths.push(entry.path()),
            Err(e) => skip(settings, &Failure::Io(dir.display().to_string(), e)),
        }
    }
    paths.sort();
    for path in paths {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(settings, &path, files),
            Ok(meta) if meta.is_file() => files.push(path),
            Ok(_) => display(
                settings,
                3,
                &format!(
                    "{}: skipped (-r takes regular files only, and follows no link)",
                    path.display()
                ),
            ),
            Err(e) => skip(settings, &Failure::Io(path.display().to_string(), e)),
        }
    }
}

/// The jobs the settings describe (`settings.mode` is Compress, Decompress, Test or Auto).
pub fn plan(settings: &mut Settings) -> Result<Vec<Job>, Failure> {
    settings.progress_bar = settings.display_level >= 2;
    let jobs = if settings.multiple && !settings.inputs.is_empty() {
        plan_multiple(settings)
    } else {
        vec![plan_single(settings)?]
    };
    // lz4 lowers its display level from 2 to 1 when writing to standard output and with
    // several inputs: no line per file (the progress bars still show on a terminal).
    let to_stdout = jobs.iter().any(|job| job.output == Output::Stdout);
    if settings.display_level == 2 && (to_stdout || settings.multiple) {
        settings.display_level = 1;
    }
    Ok(jobs)
}

/// `-m` and `-r`: every input gets its own output by the default names (or all go to standard
/// output with `-c`); an input whose output cannot be named is skipped, as `lz4` skips it.
fn plan_multiple(settings: &mut Settings) -> Vec<Job> {
    let test = settings.mode == Mode::Test;
    let mode = match settings.mode {
        Mode::Auto => auto_mode(settings.inputs.first().map(PathBuf::as_path)),
        mode => mode,
    };
    let inputs = if settings.recursive {
        let named = settings.inputs.clone();
        expand_recursive(settings, &named)
    } else {
        settings.inputs.clone()
    };
    let mut jobs = Vec::new();
    for path in inputs {
        let output = if test {
            Output::Discard
        } else if settings.output == Some(Operand::Stdio) {
            Output::Stdout
        } else if mode == Mode::Compress {
            Output::File(compressed_name(&path))
        } else if let Some(name) = decompressed_name(&path) {
            Output::File(name)
        } else {
            let message = format!(
                "{}: does not end in {EXTENSION}; cannot name its output, skipped",
                path.display()
            );
            skip(settings, &Failure::Message(message));
            continue;
        };
        jobs.push(Job {
            input: Input::File(path),
            output,
            mode,
        });
    }
    jobs
}

/// One input (a file or standard input) and one output, by `lz4`'s rules.
fn plan_single(settings: &mut Settings) -> Result<Job, Failure> {
    let input = match settings.input.take() {
        None | Some(Operand::Stdio) => Input::Stdin,
        Some(Operand::Path(path)) => Input::File(path),
    };
    let mode = match (settings.mode, &input) {
        (Mode::Auto, Input::File(path)) => auto_mode(Some(path)),
        (Mode::Auto, Input::Stdin) => Mode::Compress,
        (mode, _) => mode,
    };
    let output = match (&input, settings.output.take()) {
        _ if mode == Mode::Test => Output::Discard,
        (_, Some(Operand::Stdio)) | (Input::Stdin, None) => Output::Stdout,
        (_, Some(Operand::Path(path))) => Output::File(path),
        (Input::File(path), None) if mode == Mode::Decompress => {
            let name = decompressed_name(path).ok_or_else(|| {
                Failure::Usage(format!(
                    "Cannot determine an output filename for {} (it does not end in {EXTENSION})",
                    path.display()
                ))
            })?;
            display(settings, 2, &format!("Decoding file {}", name.display()));
            Output::File(name)
        }
        (Input::File(path), None) => {
            let name = compressed_name(path);
            display(
                settings,
                2,
                &format!("Compressed filename will be : {}", name.display()),
            );
            Output::File(name)
        }
    };
    Ok(Job {
        input,
        output,
        mode,
    })
}

/// Refuses terminals where `lz4` 1.10 does: standard input on a console (even with `-f`), and
/// standard output on a console unless `-c` (which forces any output there, as `lz4 -h` says).
fn check_terminals(settings: &Settings, jobs: &[Job]) -> Result<(), Failure> {
    for job in jobs {
        if job.input == Input::Stdin && io::stdin().is_terminal() {
            return Err(Failure::Message("refusing to read from a console".into()));
        }
        if job.output == Output::Stdout && io::stdout().is_terminal() && !settings.force_stdout {
            return Err(Failure::Message(
                "refusing to write to console without -c".into(),
            ));
        }
    }
    Ok(())
}

/// Fails, before any job runs, if a job reads standard input or writes standard output and the
/// caller closed it (`stdio.rs`), with `lz4`'s exit codes: 40 reading (`lz4 -c <&-`; `lz4 -d`
/// reads a closed input as empty, which is no success either), 42 writing compressed data
/// (`lz4 -c f >&-`), 70 writing decoded data (`lz4 -dc f.lz4 >&-`). A run that uses neither
/// (`lz4-simd f f.lz4 >&-`) is not concerned.
fn check_closed_stdio(jobs: &[Job]) -> Result<(), Failure> {
    if jobs.iter().any(|job| job.input == Input::Stdin) && crate::stdio::stdin_closed() {
        return Err(closed_stdin());
    }
    match jobs.iter().find(|job| job.output == Output::Stdout) {
        Some(job) if crate::stdio::stdout_closed() => Err(Failure::Exit(
            if job.mode == Mode::Compress { 42 } else { 70 },
            "Write error: standard output is closed".into(),
        )),
        _ => Ok(()),
    }
}

fn closed_stdin() -> Failure {
    Failure::Exit(40, "Error reading stdin: standard input is closed".into())
}

/// The files a run reads besides its jobs' inputs: the dictionary (`-D`), which no job may
/// write either.
fn other_inputs(settings: &Settings) -> Vec<(String, Option<FileId>)> {
    match &settings.dictionary {
        Some(path) if path != Path::new("-") => vec![(
            format!("the dictionary {}", path.display()),
            FileId::of_path(path),
        )],
        _ => Vec::new(),
    }
}

/// Runs every job that may run; the first failure is returned after all have run. With one
/// job a refusal is its failure; with several (`-m`, `-r`) a refused job is reported and
/// skipped, the others still run (as `lz4 -m` goes on past an existing output), and the run
/// fails at the end.
pub fn run(settings: &Settings, jobs: &[Job]) -> Result<(), Failure> {
    check_terminals(settings, jobs)?;
    check_closed_stdio(jobs)?;
    let reads_stdin = jobs.iter().any(|job| job.input == Input::Stdin);
    if reads_stdin && settings.dictionary.as_deref() == Some(Path::new("-")) {
        return Err(Failure::Usage(
            "the dictionary and the input cannot both be standard input".into(),
        ));
    }
    let pairs: Vec<(Input, Output)> = jobs
        .iter()
        .map(|job| (job.input.clone(), job.output.clone()))
        .collect();
    let refusals = output::plan_check(&pairs, &other_inputs(settings), settings.force);
    let dictionary = match &settings.dictionary {
        Some(path) => Some(Dictionary {
            bytes: read_dictionary(path)?,
            file: FileId::of_path(path).filter(|_| path != Path::new("-")),
        }),
        None => None,
    };
    // With several jobs, as `lz4 -m`: the first failure's code where it has its own, else
    // the number of inputs that failed.
    let mut failed = settings.skipped;
    let mut code = None;
    for (job, refusal) in jobs.iter().zip(refusals) {
        let result = match refusal {
            Some(refusal) => Err(refusal),
            None => run_job(settings, job, dictionary.as_ref()),
        };
        if let Err(failure) = result {
            let failure = failure.in_file(&job.input.name());
            if jobs.len() == 1 || failure.is_broken_pipe() {
                return Err(failure);
            }
            // Reported now; the others still run (as lz4 -m does).
            display(settings, 1, &format!("lz4-simd: {failure}"));
            failed = failed.saturating_add(1);
            if code.is_none() && failure.exit_code() != 1 {
                code = Some(failure.exit_code());
            }
        }
    }
    match (failed, code) {
        (0, _) => Ok(()),
        (_, Some(code)) => Err(Failure::Quiet(code)),
        (count, None) => Err(Failure::Quiet(count)),
    }
}

/// The `-D` dictionary.
struct Dictionary {
    /// Its last 64 KiB.
    bytes: Vec<u8>,
    /// The file it was read from: `--rm` never removes it (its outputs cannot be decoded
    /// without it).
    file: Option<FileId>,
}

/// The dictionary's last 64 KiB (all `lz4` uses of it; a larger file is not read whole).
pub fn read_dictionary(path: &Path) -> Result<Vec<u8>, Failure> {
    let name = format!("dictionary {}", path.display());
    // lz4's exit code for a dictionary it cannot read.
    let io_failure = |e: io::Error| Failure::Exit(27, format!("{name}: {e}"));
    let history = lz4_simd::block::MAX_HISTORY as u64;
    let mut data = Vec::new();
    if path == Path::new("-") {
        if crate::stdio::stdin_closed() {
            return Err(closed_stdin());
        }
        io::stdin().read_to_end(&mut data).map_err(io_failure)?;
    } else {
        let mut file = File::open(path).map_err(io_failure)?;
        let meta = file.metadata().map_err(io_failure)?;
        if meta.is_dir() {
            return Err(Failure::Exit(27, format!("{name}: is a directory")));
        }
        if meta.is_file() && meta.len() > history {
            file.seek(SeekFrom::End(-(history as i64)))
                .map_err(io_failure)?;
        }
        file.read_to_end(&mut data).map_err(io_failure)?;
    }
    let keep = data.len().saturating_sub(history as usize);
    data.drain(..keep);
    Ok(data)
}

/// What is left to read of standard input when it is a regular file (`< file`): `lz4` records
/// it with `--content-size` as for a named file. (Should the file change meanwhile, the frame
/// encoder refuses to finish a frame whose content differs from the declared size.)
fn stdin_length() -> Option<u64> {
    let mut file = File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
    let meta = file.metadata().ok()?;
    let position = file.stream_position().ok()?;
    meta.is_file().then(|| meta.len().saturating_sub(position))
}

/// Which side of a stream an I/O error came from; a write error gets `write_code`.
fn stream_failure(
    err: io::Error,
    input: &Counted<Box<dyn Read>>,
    sink: &Sink,
    write_code: u8,
) -> Failure {
    if let Some(codec) = err
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<lz4_simd::Error>())
    {
        return Failure::Codec(codec.clone());
    }
    if let Some(over) = err
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<container::OverMaxOut>())
    {
        let message = Failure::Message(over.to_string());
        return Failure::InFile(input.name().to_string(), Box::new(message));
    }
    if input.failed() {
        Failure::Io(format!("reading {}", input.name()), err)
    } else {
        Failure::Write(write_code, sink.name(), err)
    }
}

/// Without `-T`, a file is decoded on several threads from this size (compressed) on. A new
/// process decoding ahead first touches the buffers of the blocks in flight (about 8,500 more
/// pages with 4 MiB blocks on 2 threads, about 1.7 us each). Silesia to `/dev/null` on Intel
/// Xeon family 6 model 167, 2 vCPUs (2026-12-05, `51087ba`; `perf stat -r 10`, `chrt -f 50`),
/// one thread against two:
/// 64 MiB of content (37.6 MB compressed) 38.8 / 38.7 ms, for 58% more CPU time; 128 MiB
/// (75 MB) 82 / 62 ms; 256 MiB (150 MB) 155 / 107 ms.
const PARALLEL_DECODE_FROM: u64 = 64 << 20;

fn run_job(settings: &Settings, job: &Job, dictionary: Option<&Dictionary>) -> Result<(), Failure> {
    let dictionary_file = dictionary.and_then(|d| d.file);
    let dictionary = dictionary.map(|d| &d.bytes[..]);
    let start = Instant::now();
    // With `--rm`, the source as it was opened: it is removed only if still so
    // (`changed_since_opened`).
    let mut opened: Option<(File, fs::Metadata, Option<Watch>)> = None;
    let (reader, length): (Box<dyn Read>, Option<u64>) = match &job.input {
        Input::Stdin => (Box::new(io::stdin().lock()), stdin_length()),
        Input::File(path) => {
            // Watched from before it is opened, so no write after the open goes unseen.
            let watch = settings.remove_source.then(|| Watch::new(path)).flatten();
            let file = File::open(path).map_err(|e| Failure::Io(path.display().to_string(), e))?;
            let meta = file
                .metadata()
                .map_err(|e| Failure::Io(path.display().to_string(), e))?;
            if meta.is_dir() {
                return Err(Failure::Message(format!(
                    "{}: is a directory",
                    path.display()
                )));
            }
            if settings.remove_source {
                let same = file
                    .try_clone()
                    .map_err(|e| Failure::Io(path.display().to_string(), e))?;
                opened = Some((same, meta.clone(), watch));
            }
            (Box::new(file), meta.is_file().then_some(meta.len()))
        }
    };
    let source = SourceMeta::of(&job.input);
    // Decompressed output to a file is sparse unless `--no-sparse`; to standard output only
    // with `--sparse` (and only where it is a regular file), as in `lz4` 1.10.
    let sparse = job.mode != Mode::Compress
        && match job.output {
            Output::Stdout => settings.sparse == Some(true),
            _ => settings.sparse != Some(false),
        };
    let mut sink = Sink::open(&job.output, source.is_some(), settings.force, sparse)?;
    let progress = Progress::start(settings, &job.input.name(), length, sink.counter());
    let mut reader = Counted::new(reader, job.input.name(), progress);
    let result = match job.mode {
        Mode::Compress if settings.container.is_some() => settings.container.map_or(Ok(()), |c| {
            container::compress(c, &mut reader, &mut sink, settings)
        }),
        Mode::Compress if settings.prepended_block => {
            codec::compress_prepended(&mut reader, &mut sink, settings)
        }
        Mode::Compress if settings.legacy => {
            codec::compress_legacy(&mut reader, &mut sink, settings)
        }
        Mode::Compress => codec::compress_frame(
            &mut reader,
            &mut sink,
            settings,
            dictionary,
            length.filter(|_| settings.content_size),
        ),
        _ if settings.container.is_some() => settings.container.map_or(Ok(()), |c| {
            container::decompress(c, &mut reader, &mut sink, settings.max_out).map(drop)
        }),
        _ if settings.prepended_block => codec::decompress_prepended(
            &mut reader,
            &mut sink,
            settings.max_out.unwrap_or(lz4_simd::block::MAX_INPUT_SIZE),
        )
        .map(drop),
        // `lz4 -dcf` copies an input that is not LZ4 as it is (as `zcat -f` does).
        _ => {
            let pass_through = job.mode == Mode::Decompress
                && job.output == Output::Stdout
                && settings.force
                && settings.pass_through;
            // Blocks are decoded ahead on other threads only from a regular file: reading ahead
            // from a pipe would hold back blocks that have arrived until more input comes (a
            // live stream's output would lag by up to the read-ahead window). Without `-T`,
            // only from a file of at least `PARALLEL_DECODE_FROM` bytes.
            let threads = codec::decode_threads(match (length, settings.threads) {
                (None, _) => 1,
                (Some(_), Some(threads)) => threads as usize,
                (Some(len), None) if len >= PARALLEL_DECODE_FROM => 0,
                (Some(_), None) => 1,
            });
            // At `-vv`: what `-T` came to for this input (frames of linked blocks, legacy
            // frames and data passed through are still read on one thread).
            let how = match threads {
                1 => "one thread".to_owned(),
                n => format!("{n} threads for frames of independent blocks"),
            };
            display(settings, 4, &format!("{}: {how}", job.input.name()));
            codec::decompress_frames(&mut reader, &mut sink, dictionary, pass_through, threads)
                .map(drop)
        }
    };
    let written = sink.bytes_written();
    let read = reader.bytes_read();
    reader.finish_progress();
    let write_code = write_failure_code(settings, job.mode == Mode::Compress, sparse, read);
    if let Err(err) = result {
        return Err(stream_failure(err, &reader, &sink, write_code));
    }
    // A write error met only now (the last buffered bytes, the file's sync) is the output's too.
    let durable = sink
        .commit(source.as_ref())
        .map_err(|failure| match failure {
            Failure::Io(name, err) => Failure::Write(write_code, name, err),
            other => other,
        })?;
    summary(settings, job, read, written, start);
    if let (true, Input::File(path)) = (settings.remove_source, &job.input) {
        // Standard output, `-t`, `/dev/null`, a FIFO or a device keep nothing on disk: removing
        // the source would lose it. Nor is the dictionary removed: the output needs it.
        let is_dictionary = dictionary_file.is_some() && FileId::of_path(path) == dictionary_file;
        let kept = if is_dictionary {
            Some("it is the dictionary, which its output needs to be decoded".to_owned())
        } else if !durable {
            Some("--rm removes a source only once its output is a file on disk".to_owned())
        } else {
            opened.as_ref().and_then(|(file, meta, watch)| {
                changed_since_opened(path, file, meta, watch.as_ref())
            })
        };
        match kept {
            None => {
                // lz4 1.10's exit codes for a source it cannot remove.
                let code = if job.mode == Mode::Compress { 50 } else { 45 };
                if let Some(why) = remove_source(path, opened.as_ref(), code)? {
                    display(settings, 1, &format!("{}: kept ({why})", path.display()));
                }
            }
            Some(why) => display(settings, 1, &format!("{}: kept ({why})", path.display())),
        }
    }
    Ok(())
}

/// Why the source at `path` must be kept after its output was committed, if it must: it is no
/// longer the file that was opened and read (`file`, with `opened` its metadata at open), or its
/// size, modification time or change time differ from `opened`. A file appended to while it was
/// compressed (a live log) is kept whole: the output holds what was read, the source holds
/// that and what came after. Compared with the metadata at open, not at the end of the read:
/// a part rewritten after it was read changes the same fields as an append, and removing the
/// source would lose the new bytes. The check runs just before the removal, and
/// [`written_while_removed`] just after it: a write landing between the two is seen then, and
/// the source put back or restored from the open file ([`remove_source`]), so no write made before the
/// removal is lost (`lz4` removes without checking). Time stamps tick at the kernel's clock (4 ms at
/// `CONFIG_HZ=250`) where the file system keeps coarse ones, so the size catches an append made
/// in the same tick, and `watch` (see [`Watch`]) a rewrite of the same size.
fn changed_since_opened(
    path: &Path,
    file: &File,
    opened: &fs::Metadata,
    watch: Option<&Watch>,
) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let (now, named) = match (file.metadata(), fs::metadata(path)) {
        (Ok(now), Ok(named)) => (now, named),
        (Err(e), _) | (_, Err(e)) => {
            return Some(format!(
                "its state could not be checked before removal: {e}"
            ))
        }
    };
    if (named.dev(), named.ino()) != (now.dev(), now.ino()) {
        return Some("the name now stands for another file than the one read".to_owned());
    }
    let written = match watch.map(Watch::saw_change) {
        Some(Err(e)) => {
            return Some(format!(
                "its state could not be checked before removal: {e}"
            ))
        }
        Some(Ok(seen)) => seen,
        None => false,
    };
    let same = !written
        && now.len() == opened.len()
        && (now.mtime(), now.mtime_nsec()) == (opened.mtime(), opened.mtime_nsec())
        && (now.ctime(), now.ctime_nsec()) == (opened.ctime(), opened.ctime_nsec());
    (!same).then(|| {
        format!(
            "it changed while it was read: {} bytes when opened, {} now; --rm removes a source \
             only if it is unchanged once its output is complete, and the output holds what \
             was read",
            opened.len(),
            now.len()
        )
    })
}

/// Whether the source was written to since the last check of [`changed_since_opened`] (or since
/// the last call): the watch saw a write or a truncation since, or its size or modification
/// time moved from `opened`. The change time is not compared, nor are the attribute and move
/// events, which moving the name aside and the removal themselves make.
fn written_while_removed(file: &File, opened: &fs::Metadata, watch: Option<&Watch>) -> bool {
    use std::os::unix::fs::MetadataExt;
    let written = watch.is_some_and(|watch| watch.saw_write().unwrap_or(true));
    match file.metadata() {
        Ok(now) => {
            written
                || now.len() != opened.len()
                || (now.mtime(), now.mtime_nsec()) != (opened.mtime(), opened.mtime_nsec())
        }
        Err(_) => true,
    }
}

/// Debug builds only: a pause of `LZ4_SIMD_TEST_REMOVAL_PAUSE_MS` (before the removal) or
/// `LZ4_SIMD_TEST_REMOVED_PAUSE_MS` (after it), so that the tests can act there
/// (cli/tests/data_loss.rs).
fn test_pause(_variable: &str) {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var(_variable).ok().and_then(|ms| ms.parse().ok()) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Removes the source at `path` (`--rm`), which [`changed_since_opened`] found unchanged, with
/// `opened` the file that was read; `code` is the exit status if it cannot be removed. Returns
/// why it was kept instead, if it was.
///
/// The name is first moved aside (renamed, never over a file, to a fresh name beside it) and
/// checked to be the file that was read before anything is removed: a file renamed over the
/// source since the check (a file saved by rename) is put back under its name, never removed.
/// A write seen once the name is aside ([`written_while_removed`]) puts the source back too; one
/// seen after the removal, while the open file was its last link, restores it by copy
/// ([`restore_removed`]). The signal thread waits meanwhile for the registry lock held here: a
/// signal ends the process only once the source is removed or back under a name, never while
/// its only copy is the file this process holds open.
fn remove_source(
    path: &Path,
    opened: Option<&(File, fs::Metadata, Option<Watch>)>,
    code: u8,
) -> Result<Option<String>, Failure> {
    use std::os::unix::fs::MetadataExt;
    let _signals = crate::signals::registry();
    test_pause("LZ4_SIMD_TEST_REMOVAL_PAUSE_MS");
    let removing = |e: io::Error| Failure::Exit(code, format!("removing {}: {e}", path.display()));
    let Some((file, meta, watch)) = opened else {
        fs::remove_file(path).map_err(removing)?;
        return Ok(None);
    };
    let aside = move_aside(path).map_err(removing)?;
    let ours = match (fs::metadata(&aside), file.metadata()) {
        (Ok(moved), Ok(read)) => (moved.dev(), moved.ino()) == (read.dev(), read.ino()),
        _ => false,
    };
    if !ours || written_while_removed(file, meta, watch.as_ref()) {
        let at = put_back(&aside, path).map_err(|e| {
            Failure::Io(
                format!(
                    "{} was moved aside to {} to be removed, and could not be put back",
                    path.display(),
                    aside.display()
                ),
                e,
            )
        })?;
        return Ok(Some(if ours {
            format!(
                "written to while it was removed: restored as {}",
                at.display()
            )
        } else {
            format!(
                "the name now stands for another file than the one read, left as {}",
                at.display()
            )
        }));
    }
    fs::remove_file(&aside).map_err(removing)?;
    test_pause("LZ4_SIMD_TEST_REMOVED_PAUSE_MS");
    // A file still linked elsewhere (a hard link; the target of a symbolic link, which is what
    // was removed) keeps what is written to it.
    let last_link = file.metadata().map_or(true, |now| now.nlink() == 0);
    if last_link && written_while_removed(file, meta, watch.as_ref()) {
        let at = restore_removed(path, file, meta)?;
        return Ok(Some(format!(
            "written to while it was removed: restored as {}",
            at.display()
        )));
    }
    Ok(None)
}

/// A fresh name beside `path` for [`move_aside`]: `.NAME.` (or `.` for a long name, which
/// would exceed the 255 bytes a name may have) before the random part.
fn aside_prefix(path: &Path) -> std::ffi::OsString {
    let mut prefix = std::ffi::OsString::from(".");
    if let Some(name) = path.file_name().filter(|name| name.len() <= 200) {
        prefix.push(name);
        prefix.push(".");
    }
    prefix
}

/// Renames `path` to a fresh name beside it (`.NAME.XXXXXX.lz4-simd-rm`), never over a file;
/// returns that name.
fn move_aside(path: &Path) -> io::Result<PathBuf> {
    let named = tempfile::Builder::new()
        .prefix(&aside_prefix(path))
        .suffix(".lz4-simd-rm")
        .make_in(output::target_dir(path), |aside| {
            rename_noreplace(path, aside, true)
        })?;
    let ((), aside) = named.keep().map_err(|e| e.error)?;
    Ok(aside)
}

/// Renames `aside` back to `path`, or to `NAME.rm-restored` beside it if a file took the name
/// meanwhile (never over a file; left where it is if both are taken), on disk before this
/// returns. Returns where it is.
fn put_back(aside: &Path, path: &Path) -> io::Result<PathBuf> {
    for at in [path.to_path_buf(), rm_restored(path)] {
        match rename_noreplace(aside, &at, false) {
            Ok(()) => {
                File::open(output::target_dir(&at))?.sync_all()?;
                return Ok(at);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(aside.to_path_buf())
}

fn rm_restored(path: &Path) -> PathBuf {
    let mut beside = path.as_os_str().to_owned();
    beside.push(".rm-restored");
    PathBuf::from(beside)
}

/// Renames `from` to `to`, failing with `AlreadyExists` if `to` exists. Where the file system
/// has no `RENAME_NOREPLACE` (or off Linux): with `take`, a rename after checking that `to` is
/// free (`from`'s name is taken at once, so no file renamed over it meanwhile is removed; `to`
/// is a fresh random name); without, a link (which never replaces) and the removal of `from`
/// (that rename where the file system has no hard links).
fn rename_noreplace(from: &Path, to: &Path, take: bool) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if !take {
        match fs::hard_link(from, to) {
            Ok(()) => return fs::remove_file(from),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(e),
            // No hard links here (FAT): the checked rename below.
            Err(_) => {}
        }
    }
    if fs::symlink_metadata(to).is_ok() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    fs::rename(from, to)
}

/// Puts a source that was written to after its removal back, from the open file (its last
/// link is gone, but its content lives while it is open): copied to a temporary file beside it,
/// synced, then renamed under its name, or `NAME.rm-restored` if the name was taken meanwhile
/// (never over a file; the temporary file keeps its own name if both are taken), with its
/// permissions. A copy that fails leaves nothing under either name. Returns where it is.
fn restore_removed(path: &Path, file: &File, opened: &fs::Metadata) -> Result<PathBuf, Failure> {
    use std::os::unix::fs::PermissionsExt;
    let failed = |e: io::Error| {
        Failure::Io(
            format!(
                "{} was written to after its removal, and could not be restored (its output \
                 holds the {} bytes read)",
                path.display(),
                opened.len()
            ),
            e,
        )
    };
    let mode = fs::Permissions::from_mode(opened.permissions().mode() & 0o7777);
    let mut out = tempfile::Builder::new()
        .prefix(&aside_prefix(path))
        .suffix(".lz4-simd-tmp")
        .permissions(mode.clone())
        .tempfile_in(output::target_dir(path))
        .map_err(failed)?;
    let mut src = file;
    src.seek(SeekFrom::Start(0)).map_err(failed)?;
    io::copy(&mut src, &mut out).map_err(failed)?;
    out.as_file().set_permissions(mode).map_err(failed)?;
    out.as_file().sync_all().map_err(failed)?;
    for at in [path.to_path_buf(), rm_restored(path)] {
        match out.persist_noclobber(&at) {
            Ok(_) => {
                File::open(output::target_dir(&at))
                    .and_then(|dir| dir.sync_all())
                    .map_err(failed)?;
                return Ok(at);
            }
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => out = e.file,
            Err(e) => return Err(failed(e.error)),
        }
    }
    let (_, at) = out.keep().map_err(|e| failed(e.error))?;
    Ok(at)
}

/// What the kernel saw done to a source (inotify) from before it was opened until just before
/// its removal: a write, a truncation, new attributes or links, a rename, a removal or a writer
/// closing it. Time stamps miss a rewrite of the same size within one tick of the clock where
/// the file system keeps coarse ones (ext2; any file system before Linux 6.13's fine-grained
/// time stamps): on ext2 under Linux 6.18, 10 of 200 rewrites of a 4 KB source made just after
/// it was read changed neither its size nor its times, and `--rm` removed it.
#[cfg(target_os = "linux")]
struct Watch(std::os::fd::OwnedFd);

#[cfg(target_os = "linux")]
impl Watch {
    /// A watch on `path`, or `None` if the kernel refuses one (its limit on inotify instances):
    /// the size and time stamps alone are checked then.
    fn new(path: &Path) -> Option<Watch> {
        use rustix::fs::inotify::{add_watch, init, CreateFlags, WatchFlags};
        let fd = init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).ok()?;
        let events = WatchFlags::MODIFY
            | WatchFlags::ATTRIB
            | WatchFlags::CLOSE_WRITE
            | WatchFlags::MOVE_SELF
            | WatchFlags::DELETE_SELF;
        add_watch(&fd, path, events).ok()?;
        Some(Watch(fd))
    }

    /// Whether a write or a truncation was recorded since the last read of the events (attribute
    /// changes, such as the link count a removal lowers, do not count).
    fn saw_write(&self) -> io::Result<bool> {
        use rustix::fs::inotify::{ReadFlags, Reader};
        let mut buffer = [std::mem::MaybeUninit::<u8>::uninit(); 1024];
        let mut events = Reader::new(&self.0, &mut buffer);
        let mut written = false;
        loop {
            match events.next() {
                Ok(event) => {
                    written |= event
                        .events()
                        .intersects(ReadFlags::MODIFY | ReadFlags::CLOSE_WRITE);
                }
                Err(rustix::io::Errno::AGAIN) => return Ok(written),
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Whether any event was recorded (each one is a change: the watch asks for nothing else).
    fn saw_change(&self) -> io::Result<bool> {
        // Room for one event with the longest name (16 + 256 bytes).
        let mut events = [0u8; 1024];
        match rustix::io::read(&self.0, &mut events) {
            Ok(len) => Ok(len > 0),
            Err(rustix::io::Errno::AGAIN) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(not(target_os = "linux"))]
struct Watch;

#[cfg(not(target_os = "linux"))]
impl Watch {
    fn new(_path: &Path) -> Option<Watch> {
        None
    }

    fn saw_change(&self) -> io::Result<bool> {
        Ok(false)
    }

    fn saw_write(&self) -> io::Result<bool> {
        Ok(false)
    }
}

/// The line `lz4` 1.10 prints after a file (display level 2; timing from level 3), which
/// scripts read: `Compressed N bytes into M bytes ==> R%` (R: M / N in percent, N taken as 1
/// when 0; a space after it for legacy frames, as lz4 prints it), or `NAME : decoded N bytes `
/// with the name padded or cut to 30 columns (`-d` and `-t`).
fn summary(settings: &Settings, job: &Job, read: u64, written: u64, start: Instant) {
    let seconds = start.elapsed().as_secs_f64();
    let line = match job.mode {
        Mode::Compress => {
            let ratio = written as f64 * 100.0 / read.max(1) as f64;
            let space = if settings.legacy { " " } else { "" };
            format!("Compressed {read} bytes into {written} bytes ==> {ratio:.2}%{space}")
        }
        _ => format!("{:<30.30} : decoded {written} bytes ", job.input.name()),
    };
    display(settings, 2, &line);
    let processed = if job.mode == Mode::Compress {
        read
    } else {
        written
    };
    display(
        settings,
        3,
        &format!(
            "Done in {seconds:.2} s ==> {:.2} MiB/s",
            processed as f64 / (1 << 20) as f64 / seconds.max(1e-9)
        ),
    );
}
