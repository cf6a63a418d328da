//! The `anyproc` command line: `run` a pipeline over records into tensor batches,
//! `check` a pipeline, list the `ops`, and the runtime `demo` (the seed's
//! `unicode_split`). `--plugin` loads plugins built against `include/anyproc.h` first.

mod cli;

use anyproc::{AnyValue, AnyView, Dict, List, PackedFunc, Result, UStr};
use clap::{Parser, Subcommand};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// mimalloc instead of the system allocator in optimised builds: scripts make and drop many
/// small objects (strings longer than inline, lists, dict entries), where glibc's malloc and
/// free spent about a tenth of a glue pipeline's instructions. Debug builds, which the
/// AddressSanitizer and valgrind runs use, keep the system allocator those tools watch.
#[cfg(not(debug_assertions))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The sample the demo runs on when no input is given (see tests/data/README.md).
const SAMPLE_WORDS: &str = include_str!("../tests/data/words_sample.txt");

#[derive(Parser)]
#[command(name = "anyproc", version, about = "NLP preprocessing engine on a universal 16-byte value")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Split every word of a word list into one-character strings (the seed's unicode_split).
    Demo {
        /// A file with one word per line, or `-` for stdin; the bundled sample by default.
        #[arg(long)]
        input: Option<PathBuf>,
        /// Split by UCS4 code point index (`word[i]`) instead of iterating UTF-8.
        #[arg(long)]
        ucs4: bool,
    },
    /// Run a pipeline over records (lines of text, or .jsonl objects) and collate tensor batches.
    Run {
        /// The pipeline file (TOML or JSON).
        pipeline: PathBuf,
        /// Input file (`.jsonl` for records with several fields), or `-` for stdin; a bundled sample by default.
        #[arg(long)]
        input: Option<PathBuf>,
        /// Write the tensors to FILE.npz, or one JSON object per record to FILE.jsonl.
        #[arg(long)]
        output: Option<PathBuf>,
        /// Records per batch.
        #[arg(long, default_value_t = 1024)]
        batch_size: usize,
        /// Worker threads (default: ANYPROC_NUM_THREADS, else all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Leave out records whose steps fail (and report them) instead of stopping.
        #[arg(long)]
        skip_errors: bool,
        /// Load a plugin (a shared library built against include/anyproc.h) first; may be repeated.
        #[arg(long = "plugin", value_name = "PATH")]
        plugins: Vec<PathBuf>,
    },
    /// Load and validate a pipeline, then print its compiled program.
    Check {
        /// The pipeline file (TOML or JSON).
        pipeline: PathBuf,
        /// Load a plugin (a shared library built against include/anyproc.h) first; may be repeated.
        #[arg(long = "plugin", value_name = "PATH")]
        plugins: Vec<PathBuf>,
    },
    /// List every registered op with its signature and doc.
    #[command(alias = "funcs")]
    Ops {
        /// Print JSON lines instead of a table.
        #[arg(long)]
        json: bool,
        /// Load a plugin (a shared library built against include/anyproc.h) first; may be repeated.
        #[arg(long = "plugin", value_name = "PATH")]
        plugins: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo { input, ucs4 } => run_demo(input, ucs4),
        Command::Run { pipeline, input, output, batch_size, threads, skip_errors, plugins } => {
            let args = cli::run::RunArgs { pipeline, input, output, batch_size, threads, skip_errors };
            load_plugins(&plugins).and_then(|()| cli::run::run(&args)).map(|summary| eprintln!("{summary}"))
        }
        Command::Check { pipeline, plugins } => load_plugins(&plugins).and_then(|()| check(&pipeline)),
        Command::Ops { json, plugins } => load_plugins(&plugins).map(|()| list_funcs(json)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("anyproc: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Loads each plugin; they stay loaded for the rest of the process (their ops are registered).
fn load_plugins(paths: &[PathBuf]) -> Result<()> {
    for path in paths {
        anyproc::capi::load_module(path)?;
    }
    Ok(())
}

fn read_words(input: Option<PathBuf>) -> Result<Vec<String>> {
    let text = match input {
        None => return Ok(SAMPLE_WORDS.lines().map(str::to_owned).collect()),
        Some(p) if p.as_os_str() == "-" => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| anyproc::Error::from(e).context("stdin"))?;
            s
        }
        Some(p) => {
            let file = std::fs::File::open(&p).map_err(|e| anyproc::Error::from(e).context(p.display().to_string()))?;
            let mut words = Vec::new();
            for (i, line) in BufReader::new(file).lines().enumerate() {
                let line = line.map_err(|e| anyproc::Error::from(e).context(format!("{}:{}", p.display(), i + 1)))?;
                words.push(line);
            }
            return Ok(words);
        }
    };
    Ok(text.lines().map(str::to_owned).collect())
}

/// The seed's untyped `unicode_split_any`: one one-character string per code point.
fn unicode_split(word: AnyView<'_>, ucs4: bool) -> Result<AnyValue> {
    let mut out = List::new();
    if ucs4 {
        let word: UStr = word.get()?;
        for i in 0..word.len() as i64 {
            out.push(word.item::<1>(i)?);
        }
    } else {
        let word: anyproc::Str = word.get()?;
        for c in word.chars() {
            out.push(c);
        }
    }
    Ok(out.into_any())
}

fn run_demo(input: Option<PathBuf>, ucs4: bool) -> Result<()> {
    let words = read_words(input)?;
    // Functions are objects: keep the splitter in a dict and call it from there.
    let mut funcs = Dict::new();
    funcs.set("unicode_split", PackedFunc::new(move |args| unicode_split(args[0], ucs4)));
    let split: PackedFunc = funcs.get_item("unicode_split")?.get()?;

    let start = Instant::now();
    let (mut chars, mut inline, mut heap) = (0usize, 0usize, 0usize);
    let mut first = Vec::new();
    for word in &words {
        let pieces: List = split.call(&[AnyView::from(word)])?.get()?;
        pieces.with_items(|items| {
            chars += items.len();
            let on_heap = items.iter().filter(|v| v.is_object()).count();
            heap += on_heap;
            inline += items.len() - on_heap;
        });
        if first.len() < 3 {
            first.push(format!("{word:?} -> {pieces:?}"));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    for line in &first {
        println!("{line}");
    }
    println!(
        "words: {}  characters: {chars}  inline: {inline}  heap: {heap}  time: {:.1} ms  ({:.1} ns/char)",
        words.len(),
        secs * 1e3,
        secs * 1e9 / chars.max(1) as f64
    );
    Ok(())
}

fn check(path: &std::path::Path) -> Result<()> {
    let p = anyproc::pipeline::Pipeline::load(path)?;
    println!(
        "{}: ok: inputs {:?}, {} steps, {} functions",
        p.label,
        p.spec.inputs,
        p.spec.steps.len(),
        p.program.functions.len() - 1
    );
    for o in &p.outputs {
        println!("output {} <- {} ({:?}, {:?})", o.spec.name, o.spec.from, o.spec.layout, o.collate);
    }
    print!("{}", p.program);
    Ok(())
}

fn list_funcs(json: bool) {
    for f in anyproc::list_global_funcs() {
        if json {
            println!("{}", serde_json::json!({"name": f.name, "signature": f.signature, "doc": f.doc}));
        } else {
            println!("{:<16} {:<24} {}", f.name, f.signature, f.doc);
        }
    }
}
