//! Writing on the other cores: the formatting thread hands each full 1 MiB block to a writer
//! thread, which compresses it (if asked) and writes it in order, and passes it on to a hash
//! thread for the GBD hash ([`super::gbd`]); blocks come back to the formatting thread for
//! reuse. So formatting, compression, the write system calls and MD5 overlap, and the bytes are
//! exactly those of a write on one thread.
//!
//! An error on the writer thread (a full disk, a raised cancel) is seen by the formatting
//! thread at its next block, so the encoder stops early instead of running to the end.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use crate::compress::{Codec, Compressor};

use super::gbd::GbdHasher;

/// How a file is written: compression and whether to compute the GBD hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The codec.
    pub codec: Codec,
    /// Its level (see [`Codec::level`]).
    pub level: u32,
    /// Compute the GBD hash of a DIMACS file while writing it.
    pub gbdhash: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            codec: Codec::Plain,
            level: 0,
            gbdhash: false,
        }
    }
}

/// Blocks in flight between the threads (each 1 MiB or so).
const BLOCKS: usize = 4;

/// The formatting thread's end: a [`Write`] that sends every write as one block.
pub(crate) struct PipeWriter {
    tx: SyncSender<Vec<u8>>,
    pool: Receiver<Vec<u8>>,
    failed: Arc<AtomicBool>,
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if self.failed.load(Ordering::Relaxed) {
            return Err(io::Error::other("the writer thread failed"));
        }
        if buf.is_empty() {
            return Ok(());
        }
        let mut block = self.pool.try_recv().unwrap_or_default();
        block.clear();
        block.extend_from_slice(buf);
        self.tx
            .send(block)
            .map_err(|_| io::Error::other("the writer thread stopped"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the writer thread gives back: the writer, the bytes written to it (compressed), and
/// the GBD hash if one was asked for.
pub(crate) type PipeResult<W> = io::Result<(W, u64, Option<String>)>;

/// Runs `body` with a [`PipeWriter`] (dropped when `body` returns, which ends the stream) whose
/// blocks go, on other threads, through `options`'
/// compressor into `w` (and through the GBD hash when `options.gbdhash`). Returns `body`'s
/// value and the writer thread's result.
pub(crate) fn with_pipe<W: Write + Send, T>(
    w: W,
    options: WriteOptions,
    body: impl FnOnce(&mut PipeWriter) -> T,
) -> (T, PipeResult<W>) {
    let failed = Arc::new(AtomicBool::new(false));
    let (tx, rx) = sync_channel::<Vec<u8>>(BLOCKS);
    let (back, pool) = channel::<Vec<u8>>();
    std::thread::scope(|s| {
        let (to_hash, hash) = if options.gbdhash {
            let (to_hash, from_writer) = sync_channel::<Vec<u8>>(BLOCKS);
            let back = back.clone();
            let hash = s.spawn(move || hash_blocks(from_writer, back));
            (Some(to_hash), Some(hash))
        } else {
            (None, None)
        };
        let failed_w = failed.clone();
        let writer = s.spawn(move || write_blocks(w, options, rx, to_hash, back, &failed_w));
        let mut pipe = PipeWriter { tx, pool, failed };
        let value = body(&mut pipe);
        drop(pipe);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")));
        let gbd = hash.map(|h| h.join().ok());
        let result = written.and_then(|(w, bytes)| match gbd {
            None => Ok((w, bytes, None)),
            Some(Some(g)) => Ok((w, bytes, Some(g))),
            Some(None) => Err(io::Error::other("the hash thread panicked")),
        });
        (value, result)
    })
}

/// The writer thread: compress and write every block in order, then pass it to the hash thread
/// (or back to the pool). After an error it keeps receiving (and dropping) blocks, so the
/// formatting thread never blocks, and reports the first error at the end.
fn write_blocks<W: Write>(
    w: W,
    options: WriteOptions,
    rx: Receiver<Vec<u8>>,
    to_hash: Option<SyncSender<Vec<u8>>>,
    back: Sender<Vec<u8>>,
    failed: &AtomicBool,
) -> io::Result<(W, u64)> {
    let mut out = Compressor::new(options.codec, options.level, Counting { w, bytes: 0 })?;
    let mut error = None;
    for block in rx {
        if error.is_none()
            && let Err(e) = out.write_all(&block)
        {
            failed.store(true, Ordering::Relaxed);
            error = Some(e);
        }
        match &to_hash {
            Some(h) if error.is_none() => {
                let _ = h.send(block);
            }
            _ => {
                let _ = back.send(block);
            }
        }
    }
    drop(to_hash);
    if let Some(e) = error {
        return Err(e);
    }
    let counting = out.finish()?;
    Ok((counting.w, counting.bytes))
}

/// The hash thread.
fn hash_blocks(rx: Receiver<Vec<u8>>, back: Sender<Vec<u8>>) -> String {
    let mut h = GbdHasher::new();
    for block in rx {
        h.update_written(&block);
        let _ = back.send(block);
    }
    h.finish()
}

/// Counts the bytes that reach the inner writer.
struct Counting<W> {
    w: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let k = self.w.write(buf)?;
        self.bytes += k as u64;
        Ok(k)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// Starts the disk write-back of what has been written so far every [`Writeback::STEP`] bytes
/// (`sync_file_range(SYNC_FILE_RANGE_WRITE)`, which does not wait), so that the disk works
/// while the text is still being formatted and the final `fsync` of an atomic write has little
/// left to do. Linux only; elsewhere a plain pass-through.
pub(crate) struct Writeback<W> {
    inner: W,
    fd: std::os::fd::RawFd,
    written: u64,
    started: u64,
}

impl<W: Write> Writeback<W> {
    /// Bytes between two write-back requests.
    const STEP: u64 = 8 << 20;

    /// Wraps `inner`, the file open at `fd`.
    pub(crate) fn new(inner: W, fd: std::os::fd::RawFd) -> Writeback<W> {
        Writeback {
            inner,
            fd,
            written: 0,
            started: 0,
        }
    }
}

impl<W: Write> Write for Writeback<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.written += k as u64;
        if self.written - self.started >= Self::STEP {
            #[cfg(target_os = "linux")]
            // SAFETY: a plain system call on a file descriptor this writer's file owns for its
            // whole life; it reads and writes no memory of ours. A failure only means no early
            // write-back: the final fsync still writes everything.
            unsafe {
                libc::sync_file_range(
                    self.fd,
                    self.started as libc::off64_t,
                    (self.written - self.started) as libc::off64_t,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
            self.started = self.written;
        }
        Ok(k)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `left` bytes, then fails like a full disk.
    struct Failing {
        left: usize,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if buf.len() > self.left {
                return Err(io::Error::other("disk full"));
            }
            self.left -= buf.len();
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_writer_error_stops_the_formatter_and_is_the_result() {
        let block = vec![b'1'; 1 << 16];
        let (sent, result) = with_pipe(Failing { left: 1 << 20 }, WriteOptions::default(), |p| {
            // The channel holds a few blocks, so the formatter learns of the failure a few
            // blocks after it, long before the 10,000th.
            (0..10_000)
                .take_while(|_| p.write_all(&block).is_ok())
                .count()
        });
        assert!((16..32).contains(&sent), "{sent} blocks sent");
        let e = result.err().expect("the error").to_string();
        assert!(e.contains("disk full"), "{e}");
    }

    #[test]
    fn blocks_arrive_in_order_compressed_and_hashed() {
        let text: Vec<u8> = (1..20_000)
            .map(|i| format!("{i} -{} 0\n", i + 1))
            .collect::<String>()
            .into_bytes();
        let header = b"c x\np cnf 20001 19999\n";
        for codec in Codec::ALL {
            let options = WriteOptions {
                codec,
                level: codec.default_level(),
                gbdhash: true,
            };
            let ((), result) = with_pipe(Vec::new(), options, |p| {
                p.write_all(header).unwrap();
                for piece in text.chunks(777) {
                    p.write_all(piece).unwrap();
                }
            });
            let (bytes, file_bytes, hash) = result.unwrap();
            assert_eq!(file_bytes, bytes.len() as u64);
            let mut back = Vec::new();
            std::io::Read::read_to_end(
                &mut crate::compress::decoder(&bytes[..]).unwrap(),
                &mut back,
            )
            .unwrap();
            assert_eq!(back, [header.as_slice(), &text].concat(), "{codec}");
            let want = super::super::gbd::gbdhash_reader(&back[..]).unwrap();
            assert_eq!(hash.as_deref(), Some(want.as_str()), "{codec}");
        }
    }
}
