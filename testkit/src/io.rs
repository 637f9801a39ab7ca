//! Writers that fail on purpose, for the tests of what encoders do with a writer's errors, and
//! the comparison of what two decoders handed out.

use std::fmt::{Debug, Display};
use std::io::{self, ErrorKind, Write};

/// Asserts that a decoder handed out `expected`'s content and gave its errors (`got` and
/// `expected` are the content and the errors, in any form). The content is compared without
/// being printed (it may be megabytes): a mismatch prints the lengths and the first difference.
pub fn assert_same_stream<E: PartialEq + Debug>(
    context: impl Display,
    got: &(Vec<u8>, E),
    expected: &(Vec<u8>, E),
) {
    if got.0 != expected.0 {
        let first = got.0.iter().zip(&expected.0).position(|(a, b)| a != b);
        panic!(
            "{context}: content of {} bytes against {} (first difference at {first:?})",
            got.0.len(),
            expected.0.len()
        );
    }
    assert_eq!(got.1, expected.1, "{context}: errors");
}

/// Fails its `fail_at`-th write call (once, or from then on when `persistent`) with
/// `WouldBlock`, and takes at most `step` bytes per call into `out`.
pub struct FailingWriter {
    pub out: Vec<u8>,
    pub calls: usize,
    pub fail_at: usize,
    pub persistent: bool,
    pub step: usize,
}

impl Write for FailingWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls == self.fail_at || (self.persistent && self.calls > self.fail_at) {
            return Err(io::Error::new(ErrorKind::WouldBlock, "test writer failure"));
        }
        let n = buf.len().min(self.step);
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `op` until it succeeds; returns its value and how many times it failed first. Every
/// failure must be `WouldBlock` (a [`FailingWriter`]'s): any other error panics.
pub fn retry_would_block<T>(mut op: impl FnMut() -> io::Result<T>) -> (T, usize) {
    let mut failures = 0;
    loop {
        match op() {
            Ok(value) => return (value, failures),
            Err(error) => {
                assert_eq!(error.kind(), ErrorKind::WouldBlock, "{error}");
                failures += 1;
            }
        }
    }
}

/// Writes all of `data` to `writer` one `write` call at a time, calling again after a
/// `WouldBlock` failure ([`retry_would_block`]); returns how many calls failed.
pub fn write_through_failures(writer: &mut impl Write, mut data: &[u8]) -> usize {
    let mut failures = 0;
    while !data.is_empty() {
        let (n, failed) = retry_would_block(|| writer.write(data));
        assert!(n > 0, "the writer took nothing of {} bytes", data.len());
        data = &data[n..];
        failures += failed;
    }
    failures
}
