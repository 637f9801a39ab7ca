//! A filter: compresses stdin into an LZ4 frame on stdout, or with `-d` decompresses frames
//! from stdin (any number of concatenated frames, as `lz4 -d` does).
//!
//! ```sh
//! cargo run --release --example stdin_to_stdout < FILE > FILE.lz4
//! cargo run --release --example stdin_to_stdout -- -d < FILE.lz4 > FILE
//! ```

use std::io::{self, Write};
use std::process::ExitCode;

use lz4_simd::frame::{FrameDecoder, FrameEncoder};

fn run(decompress: bool) -> io::Result<()> {
    // Locked handles are buffered; the encoder and decoder only need `Read` / `Write`.
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    if decompress {
        // Every check (checksums, sizes, the end mark) passes before `copy` returns `Ok`; bad
        // input is an `io::Error` of kind `InvalidData` holding an `lz4_simd::Error`.
        let mut decoder = FrameDecoder::new(stdin);
        io::copy(&mut decoder, &mut stdout)?;
    } else {
        let mut encoder = FrameEncoder::new(stdout.by_ref());
        io::copy(&mut stdin, &mut encoder)?;
        encoder.finish()?; // the last block, the end mark and the checksum
    }
    stdout.flush()
}

fn main() -> ExitCode {
    let decompress = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("-d") => true,
        Some(_) => {
            eprintln!("usage: stdin_to_stdout [-d] < INPUT > OUTPUT");
            return ExitCode::FAILURE;
        }
    };
    match run(decompress) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("stdin_to_stdout: {error}");
            ExitCode::FAILURE
        }
    }
}
