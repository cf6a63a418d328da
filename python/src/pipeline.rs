//! `Pipeline`: a loaded pipeline, run on lists of records or on files, and picklable with its resources.

use crate::convert::{any_to_py, py_to_any};
use crate::errors::{IntoPyResult, error_text};
use crate::pools::pool;
use crate::run_file::run_file;
use anyproc::pipeline::{ErrorPolicy, Format, Pipeline};
use anyproc::{AnyValue, Error, ErrorKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// A compiled pipeline; calls release the GIL and run records on a pool of worker threads.
#[pyclass(frozen, name = "Pipeline", module = "anyproc._native")]
pub struct PyPipeline {
    pipeline: Pipeline,
    text: String,
    format: Format,
    /// An unpickled pipeline's resource files (relative path, bytes), pickled again from memory:
    /// the temporary directory they were loaded from is gone once the pipeline is built.
    pickled_resources: Option<Arc<ResourceFiles>>,
}

/// Resource files carried by a pickle: each file's path relative to the pipeline, and its bytes.
type ResourceFiles = Vec<(String, Vec<u8>)>;

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Toml => "toml",
        Format::Json => "json",
    }
}

fn parse_format(name: &str) -> PyResult<Format> {
    match name.to_ascii_lowercase().as_str() {
        "toml" => Ok(Format::Toml),
        "json" => Ok(Format::Json),
        _ => Err(PyValueError::new_err(format!("pipeline format must be 'toml' or 'json', got {name:?}"))),
    }
}

impl PyPipeline {
    fn build(
        py: Python<'_>,
        text: String,
        format: Format,
        base_dir: &Path,
        label: &str,
        pickled_resources: Option<Arc<ResourceFiles>>,
    ) -> PyResult<Self> {
        let pipeline = py.detach(|| Pipeline::from_text(&text, format, base_dir, label)).py_err(py)?;
        Ok(PyPipeline { pipeline, text, format, pickled_resources })
    }
}

#[pymethods]
impl PyPipeline {
    /// Loads a pipeline file (TOML, or JSON by the `.json` extension); resources resolve beside it.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read pipeline {}: {e}", path.display())))
            .py_err(py)?;
        let base = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Self::build(py, text, Format::of_path(&path), &base, &path.display().to_string(), None)
    }

    /// Loads a pipeline from text; `base_dir` resolves relative resource paths, `label` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, format = "toml", base_dir = PathBuf::from("."), label = "<string>"))]
    fn from_str(py: Python<'_>, text: String, format: &str, base_dir: PathBuf, label: &str) -> PyResult<Self> {
        Self::build(py, text, parse_format(format)?, &base_dir, label, None)
    }

    /// Runs the pipeline over `records` (a list of str, or of dicts with the input fields).
    ///
    /// Returns output name → NDArray (padded and ragged layouts) or list; with `skip_errors`
    /// failing records are left out and listed under `"__skipped__"` as (index, message).
    #[pyo3(signature = (records, threads = None, skip_errors = false))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        records: &Bound<'py, PyAny>,
        threads: Option<usize>,
        skip_errors: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        if records.is_instance_of::<PyString>() || records.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err("records must be a list of str or dict, not a single string"));
        }
        let values = records.try_iter()?.map(|r| py_to_any(&r?)).collect::<PyResult<Vec<AnyValue>>>()?;
        let policy = if skip_errors { ErrorPolicy::Skip } else { ErrorPolicy::Fail };
        let pipeline = &self.pipeline;
        let batch = py.detach(|| pool(threads)?.install(|| pipeline.run_batch(&values, policy))).py_err(py)?;
        let out = PyDict::new(py);
        for (name, value) in &batch.outputs {
            out.set_item(name, any_to_py(py, &value.view())?)?;
        }
        if skip_errors {
            let skipped = PyList::empty(py);
            for (i, e) in &batch.skipped {
                skipped.append((*i, error_text(e)))?;
            }
            out.set_item("__skipped__", skipped)?;
        }
        Ok(out)
    }

    /// Streams `input` (a line per record, or `.jsonl`) through the pipeline in batches;
    /// writes `output` (`.npz` or `.jsonl`) if given; returns {records, skipped, tokens}.
    #[pyo3(signature = (input, output = None, batch_size = 1024, threads = None, skip_errors = false))]
    fn run_file<'py>(
        &self,
        py: Python<'py>,
        input: PathBuf,
        output: Option<PathBuf>,
        batch_size: usize,
        threads: Option<usize>,
        skip_errors: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let s = run_file(py, &self.pipeline, &input, output.as_deref(), batch_size, threads, skip_errors)?;
        let out = PyDict::new(py);
        out.set_item("records", s.records)?;
        out.set_item("skipped", s.skipped)?;
        out.set_item("tokens", s.tokens)?;
        Ok(out)
    }

    /// The pipeline text as given.
    #[getter]
    fn spec_text(&self) -> &str {
        &self.text
    }

    /// `"toml"` or `"json"`.
    #[getter]
    fn format(&self) -> &'static str {
        format_name(self.format)
    }

    /// The record fields the pipeline reads.
    #[getter]
    fn inputs(&self) -> Vec<String> {
        self.pipeline.inputs().to_vec()
    }

    /// The pipeline's name.
    #[getter]
    fn name(&self) -> &str {
        &self.pipeline.spec.name
    }

    /// The file it came from (or `<string>`), as errors name it.
    #[getter]
    fn label(&self) -> &str {
        &self.pipeline.label
    }

    /// The directory resource paths are relative to.
    #[getter]
    fn base_dir(&self) -> String {
        self.pipeline.base_dir.display().to_string()
    }

    fn __repr__(&self) -> String {
        format!("<anyproc.Pipeline {:?} inputs={:?} from {}>", self.pipeline.spec.name, self.inputs(), self.label())
    }

    /// Pickles as the text plus every relative resource file's bytes, so a worker without the files can load it.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let resources = PyDict::new(py);
        match &self.pickled_resources {
            // An unpickled pipeline's files are kept in memory: their directory is gone.
            Some(files) => {
                for (i, (path, bytes)) in files.iter().enumerate() {
                    resources.set_item(i, (path, PyBytes::new(py, bytes)))?;
                }
            }
            None => {
                for (name, res) in &self.pipeline.spec.resources {
                    // Absolute paths are left to resolve on the receiving side as they are.
                    if Path::new(&res.path).is_absolute() {
                        continue;
                    }
                    let full = self.pipeline.base_dir.join(&res.path);
                    let bytes = std::fs::read(&full)
                        .map_err(|e| {
                            Error::new(ErrorKind::Io, format!("resource '{name}': cannot read {}: {e}", full.display()))
                        })
                        .py_err(py)?;
                    resources.set_item(name, (&res.path, PyBytes::new(py, &bytes)))?;
                }
            }
        }
        let ctor = py.import("anyproc._native")?.getattr("_pipeline_from_pickle")?;
        let args = (&self.text, format_name(self.format), &self.pipeline.label, resources);
        Ok((ctor, args.into_pyobject(py)?))
    }
}

/// Rebuilds a pickled pipeline: writes its resources into a fresh temporary directory, loads from
/// there, and removes the directory (resources are read while the pipeline is built).
#[pyfunction]
pub fn _pipeline_from_pickle(
    py: Python<'_>,
    text: String,
    format: &str,
    label: &str,
    resources: &Bound<'_, PyDict>,
) -> PyResult<PyPipeline> {
    let format = parse_format(format)?;
    if resources.is_empty() {
        return PyPipeline::build(py, text, format, Path::new("."), label, None);
    }
    let mut files: ResourceFiles = Vec::with_capacity(resources.len());
    for (_, entry) in resources.iter() {
        files.push(entry.extract()?);
    }
    let dir = tempfile::Builder::new().prefix("anyproc-pipeline-").tempdir().map_err(Error::from).py_err(py)?;
    // Paths may climb out of the pipeline's directory (`../assets/x`): nest the base
    // deep enough that every path still lands inside the temporary directory.
    let mut climb = 0usize;
    for (path, _) in &files {
        climb = climb.max(climb_of(Path::new(path)).map_err(PyValueError::new_err)?);
    }
    let base = (0..climb).fold(dir.path().to_path_buf(), |p, _| p.join("_"));
    let write = |path: &Path, bytes: &[u8]| -> std::io::Result<()> {
        let target = base.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::create_dir_all(&base)?;
        std::fs::write(target, bytes)
    };
    for (path, bytes) in &files {
        write(Path::new(path), bytes)
            .map_err(|e| Error::from(e).context(format!("writing resource {path}")))
            .py_err(py)?;
    }
    let built = PyPipeline::build(py, text, format, &base, label, Some(Arc::new(files)));
    // Removed here rather than left to drop: a pipeline alive at interpreter exit is never
    // freed, and a DataLoader worker would leave a directory of vocab files behind per run.
    dir.close().map_err(Error::from).py_err(py)?;
    built
}

/// How many levels a relative path climbs above its base (`../../x` climbs 2); absolute paths are refused.
fn climb_of(path: &Path) -> Result<usize, String> {
    let (mut depth, mut lowest) = (0isize, 0isize);
    for c in path.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::ParentDir => depth -= 1,
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("pickled resource path {} is not relative", path.display()));
            }
        }
        lowest = lowest.min(depth);
    }
    if !matches!(path.components().next_back(), Some(Component::Normal(_))) {
        return Err(format!("pickled resource path {} names no file", path.display()));
    }
    Ok((-lowest) as usize)
}

#[cfg(test)]
mod tests {
    use super::climb_of;
    use std::path::Path;

    #[test]
    fn climb_counts_levels_above_the_base() {
        assert_eq!(climb_of(Path::new("vocab.txt")), Ok(0));
        assert_eq!(climb_of(Path::new("assets/x/vocab.txt")), Ok(0));
        assert_eq!(climb_of(Path::new("../assets/vocab.txt")), Ok(1));
        assert_eq!(climb_of(Path::new("a/../../../b/c")), Ok(2));
        assert!(climb_of(Path::new("/etc/passwd")).is_err());
        assert!(climb_of(Path::new("..")).is_err());
    }
}
