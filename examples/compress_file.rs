//! Compresses a file into an LZ4 frame beside it (`FILE` -> `FILE.lz4`), streaming: memory stays
//! at one block (4 MiB by default) whatever the file's size. `lz4 -d FILE.lz4` reads the result.
//!
//! ```sh
//! cargo run --release --example compress_file -- FILE
//! ```

use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lz4_simd::frame::{FrameEncoder, FrameOptions};

fn compress_file(input: &Path, output: &Path) -> io::Result<u64> {
    let reader = BufReader::new(File::open(input)?);
    // `create_new`: never overwrite an existing file.
    let file = File::options().write(true).create_new(true).open(output)?;
    let result = write_frame(reader, file);
    if result.is_err() {
        // A partly written frame is of no use: remove it (this run created the file).
        let _ = std::fs::remove_file(output);
    }
    result
}

fn write_frame(mut reader: impl io::Read, file: File) -> io::Result<u64> {
    // The `lz4` tool's defaults: 4 MiB independent blocks, content checksum.
    let mut encoder = FrameEncoder::with_options(BufWriter::new(file), FrameOptions::default());
    let bytes = io::copy(&mut reader, &mut encoder)?;
    // `finish` writes the last block, the end mark and the checksum: without it the frame is
    // truncated. Then flush the buffer and make sure the bytes reached the disk.
    let writer = encoder.finish()?;
    let file = writer.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(bytes)
}

fn main() -> ExitCode {
    let Some(input) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: compress_file FILE");
        return ExitCode::FAILURE;
    };
    let mut output = input.clone().into_os_string();
    output.push(".lz4");
    let output = PathBuf::from(output);

    match compress_file(&input, &output) {
        Ok(bytes) => {
            let written = std::fs::metadata(&output).map_or(0, |m| m.len());
            println!(
                "{} -> {}: {bytes} -> {written} bytes",
                input.display(),
                output.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{} -> {}: {error}", input.display(), output.display());
            ExitCode::FAILURE
        }
    }
}
