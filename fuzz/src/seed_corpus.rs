//! Writes the starting corpora of the fuzz targets from the repository's own inputs: each
//! function of `tests/data/anyscript_cases.py` (as source and as a JSON syntax tree), each
//! pipeline file, and the small JSON files of the pipelines and their assets. Run from `fuzz/`:
//! `cargo run --bin seed_corpus`.

use anyproc::pipeline::parser::parse_module;
use std::fs;
use std::path::Path;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = fs::read_to_string(root.join("../tests/data/anyscript_cases.py"))?;
    let defs = cases.split("\nCASES = [").next().unwrap_or_default();
    for dir in ["script", "script_json", "pipeline", "json"] {
        fs::create_dir_all(root.join("corpus").join(dir))?;
    }
    let mut n = 0;
    for (i, chunk) in defs.split("\ndef ").skip(1).enumerate() {
        let source = format!("def {chunk}\n");
        let Ok(module) = parse_module(&source) else { continue };
        fs::write(root.join(format!("corpus/script/case{i}.py")), &source)?;
        let json = serde_json::to_string(&module).map_err(std::io::Error::other)?;
        fs::write(root.join(format!("corpus/script_json/case{i}.json")), json)?;
        n += 1;
    }
    for entry in fs::read_dir(root.join("../pipelines"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "toml") {
            let name = path.file_name().expect("a file name");
            fs::copy(&path, root.join("corpus/pipeline").join(name))?;
        }
    }
    let mut documents = 0;
    let mut folders = vec![root.join("../pipelines")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "json") && fs::metadata(&path)?.len() < 64 * 1024 {
                fs::copy(&path, root.join(format!("corpus/json/doc{documents}.json")))?;
                documents += 1;
            }
        }
    }
    println!("{n} functions written to fuzz/corpus/script and fuzz/corpus/script_json, {documents} documents to fuzz/corpus/json");
    Ok(())
}
