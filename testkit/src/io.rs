//! Writers that fail on purpose, for the tests of what encoders do with a writer's errors.

use std::io::{self, ErrorKind, Write};

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
