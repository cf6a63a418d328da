//! Reading input records in chunks: a line of text each, or a JSON object per line for `.jsonl`.

use crate::pipeline::json::json_to_any;
use crate::{AnyValue, Error, ErrorKind, Result};
use std::io::BufRead;

/// A record as read: its value, or why its line could not be read.
pub type Record = Result<AnyValue>;

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

    /// Up to `window` more chunks of `batch_size` records, each with the input line it starts
    /// at, for one parallel pass (`Pipeline::run_batches`); fewer at the end of the input. An
    /// I/O error ends the window, and comes back beside the chunks read before it.
    pub fn next_window(&mut self, batch_size: usize, window: usize) -> (Vec<(Vec<Record>, usize)>, Option<Error>) {
        let mut chunks = Vec::with_capacity(window);
        while chunks.len() < window {
            let first_line = self.line + 1;
            match self.next_chunk(batch_size) {
                Ok(chunk) if chunk.is_empty() => break,
                Ok(chunk) => chunks.push((chunk, first_line)),
                Err(e) => return (chunks, Some(e)),
            }
        }
        (chunks, None)
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
    fn windows_hold_whole_chunks_with_their_first_lines() {
        let mut r = RecordReader::new(&b"a\nb\nc\n"[..], false);
        let first_lines = |w: &[(Vec<Record>, usize)]| w.iter().map(|(c, l)| (c.len(), *l)).collect::<Vec<_>>();
        let (w, e) = r.next_window(1, 2);
        assert!(e.is_none());
        assert_eq!(first_lines(&w), [(1, 1), (1, 2)]);
        let (w, _) = r.next_window(1, 2);
        assert_eq!(first_lines(&w), [(1, 3)]);
        assert_eq!(w[0].0[0].as_ref().unwrap(), &AnyValue::from("c"));
        assert!(r.next_window(1, 2).0.is_empty());
    }
}
