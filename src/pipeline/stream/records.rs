//! Reading input records in chunks: a line of text each, or a JSON object per line for `.jsonl`.

use crate::pipeline::json::json_to_any;
use crate::{AnyValue, Error, ErrorKind, Result};
use std::io::BufRead;

/// A record as read: its value, or why its line could not be read.
pub type Record = Result<AnyValue>;

/// Records read for one batch.
pub struct Chunk {
    /// The records, a line each.
    pub records: Vec<Record>,
    /// The 1-based input line of the first record.
    pub first_line: usize,
    /// Input bytes read up to the end of this chunk.
    pub bytes_read: u64,
}

/// Reads records from a buffered reader, `chunk` at a time.
pub struct RecordReader<R> {
    reader: R,
    jsonl: bool,
    /// Lines read so far (the 1-based number of the last line read).
    pub line: usize,
    /// Bytes read so far.
    pub bytes: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> RecordReader<R> {
    /// Records of `reader`; `jsonl` parses each line as a JSON object.
    pub fn new(reader: R, jsonl: bool) -> Self {
        RecordReader { reader, jsonl, line: 0, bytes: 0, buf: Vec::new() }
    }

    /// Up to `n` more records; empty at the end of the input. An I/O error ends the run.
    pub fn next_chunk(&mut self, n: usize) -> Result<Vec<Record>> {
        // Capped: a huge batch size must not reserve memory the input may never fill.
        let mut out = Vec::with_capacity(n.min(1 << 16));
        while out.len() < n {
            self.buf.clear();
            let read = self
                .reader
                .read_until(b'\n', &mut self.buf)
                .map_err(|e| Error::from(e).context(format!("line {}", self.line + 1)))?;
            if read == 0 {
                break;
            }
            self.line += 1;
            self.bytes += read as u64;
            let mut raw: &[u8] = &self.buf;
            raw = raw.strip_suffix(b"\n").unwrap_or(raw);
            raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            out.push(self.record(raw));
        }
        Ok(out)
    }

    /// The rest of the input in chunks of up to `batch_size` records; an I/O error is the
    /// last item.
    pub fn chunks(&mut self, batch_size: usize) -> impl Iterator<Item = Result<Chunk>> + '_ {
        let mut failed = false;
        std::iter::from_fn(move || {
            if failed {
                return None;
            }
            let first_line = self.line + 1;
            match self.next_chunk(batch_size) {
                Ok(records) if records.is_empty() => None,
                Ok(records) => Some(Ok(Chunk { records, first_line, bytes_read: self.bytes })),
                Err(e) => {
                    failed = true;
                    Some(Err(e))
                }
            }
        })
    }

    /// One line as a record; its errors say what is wrong with it, and whoever runs it adds
    /// which input line it was (`input line 7: ...`), since only they know how it is shown.
    fn record(&self, raw: &[u8]) -> Record {
        let text = std::str::from_utf8(raw)
            .map_err(|e| Error::new(ErrorKind::Value, format!("not valid UTF-8 (at byte {})", e.valid_up_to())))?;
        if !self.jsonl {
            return Ok(AnyValue::from(text));
        }
        let json: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            // serde's message ends with its own position, always line 1 of a one-line record.
            let message = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let what = message.strip_suffix(&suffix).unwrap_or(&message);
            Error::new(ErrorKind::Parse, format!("invalid JSON at column {}: {what}", e.column()))
        })?;
        if !json.is_object() {
            return Err(Error::value("a .jsonl record must be a JSON object"));
        }
        json_to_any(&json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_hold_their_first_lines_and_the_bytes_read() {
        let mut r = RecordReader::new(&b"a\nbb\nc\n"[..], false);
        let chunks: Vec<Chunk> = r.chunks(2).map(|c| c.unwrap()).collect();
        let summary: Vec<_> = chunks.iter().map(|c| (c.records.len(), c.first_line, c.bytes_read)).collect();
        assert_eq!(summary, [(2, 1, 5), (1, 3, 7)]);
        assert_eq!(chunks[1].records[0].as_ref().unwrap(), &AnyValue::from("c"));
        assert_eq!(r.chunks(2).count(), 0);
    }

    /// A reader that fails after its first line.
    struct FailsAfterOneLine(bool);

    impl std::io::Read for FailsAfterOneLine {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            unreachable!("read through BufRead")
        }
    }

    impl BufRead for FailsAfterOneLine {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            if self.0 { Err(std::io::Error::other("disk on fire")) } else { Ok(b"first\n") }
        }
        fn consume(&mut self, _: usize) {
            self.0 = true;
        }
    }

    #[test]
    fn an_io_error_is_the_last_chunk_and_names_the_line() {
        let mut r = RecordReader::new(FailsAfterOneLine(false), false);
        let chunks: Vec<Result<Chunk>> = r.chunks(1).collect();
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].as_ref().unwrap().records[0].as_ref().unwrap(), &AnyValue::from("first"));
        let e = chunks[1].as_ref().err().unwrap().to_string();
        assert!(e.contains("line 2") && e.contains("disk on fire"), "{e}");
    }
}
