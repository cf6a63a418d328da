//! Loading a pipeline: check resources, evaluate `init`, compile steps and functions.

use super::Slot;
use super::ast::{Expr, FunctionDef, Stmt, StmtKind, Target};
use super::compile::{Globals, Limits, compile, module_globals, visit_children};
use super::interp::run;
use super::ir::Program;
use super::json::json_to_any;
use super::parser::{parse_expr, parse_module};
use super::spec::{Format, Layout, Output, PipelineSpec, parse_spec};
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::ndarray::collate::CollateOptions;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A loaded, compiled pipeline, ready to run on records.
#[derive(Clone, Debug)]
pub struct Pipeline {
    /// The spec as loaded.
    pub spec: PipelineSpec,
    /// The file it came from (or `<string>`), for messages.
    pub label: String,
    /// The directory resource paths are relative to.
    pub base_dir: PathBuf,
    /// The compiled steps (function 0) and functions.
    pub program: Arc<Program>,
    /// The outputs with their collation settings, and where their values are in a record's result.
    pub outputs: Vec<PlannedOutput>,
    /// How many values one record's run returns.
    pub n_values: usize,
}

/// The values one record's run gives the outputs, in the order [`PlannedOutput::value`] indexes.
pub type RecordValues = smallvec::SmallVec<[crate::AnyValue; 3]>;

/// An output and where to find its values.
#[derive(Clone, Debug)]
pub struct PlannedOutput {
    /// As written in the file.
    pub spec: Output,
    /// Collation settings (padded and ragged layouts).
    pub collate: CollateOptions,
    /// Index of the `from` value in a record's result.
    pub value: usize,
    /// Index of the `pair_from` value.
    pub pair_value: Option<usize>,
}

impl Pipeline {
    /// Loads the pipeline file at `path` (TOML, or JSON by extension).
    pub fn load(path: impl AsRef<Path>) -> Result<Pipeline> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read pipeline {}: {e}", path.display())))?;
        let base = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        Self::from_text(&text, Format::of_path(path), &base, &path.display().to_string())
    }

    /// Loads a pipeline from text; `base_dir` resolves relative resource paths; `label` names it in errors.
    pub fn from_text(text: &str, format: Format, base_dir: &Path, label: &str) -> Result<Pipeline> {
        Self::build(text, format, base_dir, label).with_context(|| label.to_string())
    }

    fn build(text: &str, format: Format, base_dir: &Path, label: &str) -> Result<Pipeline> {
        let (spec, functions_line) = parse_spec(text, format)?;
        if spec.inputs.is_empty() {
            return Err(Error::value("a pipeline needs at least one input"));
        }
        let limits = Limits { while_limit: spec.options.while_limit, max_depth: spec.options.max_depth };
        let mut globals = Globals::new();
        for (name, res) in &spec.resources {
            let path = check_resource(base_dir, &res.path, res.sha256.as_deref())
                .with_context(|| format!("resource '{name}'"))?;
            globals.insert(name.clone(), Slot::from_text(&path.to_string_lossy()));
        }
        for (name, value) in &spec.constants {
            globals.insert(name.clone(), json_to_any(value).with_context(|| format!("constant '{name}'"))?.resize());
        }
        for (name, expr) in &spec.init {
            let value = eval_init(expr, &globals, limits).with_context(|| format!("init '{name}'"))?;
            globals.insert(name.clone(), value);
        }
        let mut functions = vec![main_function(&spec)?];
        if !spec.functions.trim().is_empty() {
            let module = parse_module(&spec.functions).map_err(|e| shift_error_line(e, functions_line))?;
            globals = module_globals(&module, &globals).map_err(|e| shift_error_line(e, functions_line))?;
            for mut f in module.functions {
                shift_lines(&mut f, functions_line.saturating_sub(1));
                functions.push(f);
            }
        }
        check_steps_define_before_use(&spec)?;
        let labels: Vec<(u32, String)> =
            spec.steps.iter().enumerate().map(|(i, s)| (s.line, format!("step '{}'", step_name(s, i)))).collect();
        let mut program = compile(&functions, &globals, limits, &labels)?;
        program.functions[0].label = format!("pipeline '{}'", spec.name);
        let (outputs, n_values) = plan_outputs(&spec)?;
        let _ = label;
        Ok(Pipeline {
            spec,
            label: label.to_string(),
            base_dir: base_dir.to_path_buf(),
            program: Arc::new(program),
            outputs,
            n_values,
        })
    }

    /// The record fields the pipeline reads.
    pub fn inputs(&self) -> &[String] {
        &self.spec.inputs
    }

    /// Runs the steps on one record's inputs; returns the values the outputs read, in order.
    pub fn run_record(&self, inputs: &[crate::AnyView<'_>]) -> Result<RecordValues> {
        let out = run(&self.program, 0, inputs)?;
        if self.n_values == 1 {
            // `main` returns the one value itself (see `main_function`).
            return Ok(smallvec::smallvec![out]);
        }
        let list = out.get::<crate::List>()?;
        Ok(list.with_items(|items| items.iter().cloned().collect()))
    }
}

fn step_name(step: &super::spec::Step, index: usize) -> String {
    if !step.name.is_empty() {
        step.name.clone()
    } else if let Some(out) = &step.out {
        out.clone()
    } else {
        format!("#{index}")
    }
}

/// Resolves `path` against `base` and checks it exists and has the expected hash.
fn check_resource(base: &Path, path: &str, sha256: Option<&str>) -> Result<PathBuf> {
    let full = base.join(path);
    let bytes =
        std::fs::read(&full).map_err(|e| Error::new(ErrorKind::Io, format!("cannot read {}: {e}", full.display())))?;
    if let Some(expected) = sha256 {
        let actual: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        if !actual.eq_ignore_ascii_case(expected.trim()) {
            return Err(Error::value(format!("{}: sha256 is {actual}, expected {expected}", full.display())));
        }
    }
    Ok(full)
}

fn eval_init(source: &str, globals: &Globals, limits: Limits) -> Result<Slot> {
    let expr = parse_expr(source)?;
    let def = FunctionDef {
        name: "init".into(),
        params: vec![],
        defaults: Vec::new(),
        extra: Default::default(),
        body: vec![Stmt { line: 1, kind: StmtKind::Return { value: Some(expr) } }],
        line: 1,
    };
    let program = Arc::new(compile(&[def], globals, limits, &[])?);
    Ok(run(&program, 0, &[])?.resize())
}

/// The steps as one function of the inputs that returns the output variables.
fn main_function(spec: &PipelineSpec) -> Result<FunctionDef> {
    let mut body = Vec::with_capacity(spec.steps.len() + 1);
    for (i, step) in spec.steps.iter().enumerate() {
        let value = parse_expr(&step.call)
            .map_err(|e| shift_error_line(e, step.line).context(format!("step '{}'", step_name(step, i))))?;
        let kind = match &step.out {
            Some(out) => StmtKind::Assign { targets: vec![Target::Name { id: out.clone() }], value },
            None => StmtKind::Expr { value },
        };
        body.push(Stmt { line: step.line, kind });
    }
    let (_, _) = plan_outputs(spec)?;
    let vars = output_vars(spec);
    let line = spec.steps.last().map_or(1, |s| s.line);
    // One value is returned as it is, several as a list: most pipelines have one, and a
    // list per record would be built only to be taken apart again.
    let value = match vars.as_slice() {
        [one] => Expr::Name { id: one.clone() },
        _ => Expr::List { items: vars.iter().map(|v| Expr::Name { id: v.clone() }).collect() },
    };
    body.push(Stmt { line, kind: StmtKind::Return { value: Some(value) } });
    Ok(FunctionDef {
        name: "main".into(),
        params: spec.inputs.clone(),
        defaults: Vec::new(),
        extra: Default::default(),
        body,
        line: 1,
    })
}

/// The variables the outputs read, each once, in order of first use.
fn output_vars(spec: &PipelineSpec) -> Vec<String> {
    let mut vars: Vec<String> = Vec::new();
    for o in &spec.outputs {
        for v in std::iter::once(&o.from).chain(&o.pair_from) {
            if !vars.contains(v) {
                vars.push(v.clone());
            }
        }
    }
    vars
}

fn plan_outputs(spec: &PipelineSpec) -> Result<(Vec<PlannedOutput>, usize)> {
    let vars = output_vars(spec);
    let index = |v: &str| vars.iter().position(|x| x == v).expect("collected above");
    let defined: HashSet<&str> =
        spec.inputs.iter().map(String::as_str).chain(spec.steps.iter().filter_map(|s| s.out.as_deref())).collect();
    let mut names = HashSet::new();
    let mut planned = Vec::new();
    for o in &spec.outputs {
        for v in std::iter::once(&o.from).chain(&o.pair_from) {
            if !defined.contains(v.as_str()) {
                return Err(Error::new(ErrorKind::Key, format!("output '{}': no input or step defines '{v}'", o.name)));
            }
        }
        for n in std::iter::once(&o.name).chain(&o.attention_mask).chain(&o.token_type_ids) {
            if !names.insert(n.clone()) {
                return Err(Error::value(format!("output name '{n}' is used twice")));
            }
        }
        if o.layout == Layout::List && (o.pair_from.is_some() || o.special_tokens.is_some()) {
            return Err(Error::value(format!("output '{}': list layout takes no pair_from or special_tokens", o.name)));
        }
        planned.push(PlannedOutput {
            spec: o.clone(),
            collate: o.collate_options()?,
            value: index(&o.from),
            pair_value: o.pair_from.as_deref().map(index),
        });
    }
    Ok((planned, vars.len()))
}

/// A step may read only inputs and the outputs of earlier steps.
fn check_steps_define_before_use(spec: &PipelineSpec) -> Result<()> {
    let later: HashSet<&str> = spec.steps.iter().filter_map(|s| s.out.as_deref()).collect();
    let mut defined: HashSet<&str> = spec.inputs.iter().map(String::as_str).collect();
    for (i, step) in spec.steps.iter().enumerate() {
        let expr = parse_expr(&step.call)?;
        let mut names = Vec::new();
        let mut bound = Vec::new();
        collect_names(&expr, &mut names, &mut bound);
        for n in names {
            if later.contains(n.as_str()) && !defined.contains(n.as_str()) && !bound.contains(&n) {
                return Err(Error::new(
                    ErrorKind::Key,
                    format!(
                        "step '{}' (line {}): '{n}' is read before any step defines it",
                        step_name(step, i),
                        step.line
                    ),
                ));
            }
        }
        if let Some(out) = &step.out {
            defined.insert(out);
        }
    }
    Ok(())
}

fn collect_names(e: &Expr, names: &mut Vec<String>, bound: &mut Vec<String>) {
    match e {
        Expr::Name { id } => names.push(id.clone()),
        _ if let Some(comp) = e.comprehension() => {
            bound.extend(comp.clauses().flat_map(|(t, _, _)| t.names()).map(str::to_string));
        }
        _ => {}
    }
    visit_children(e, &mut |c| collect_names(c, names, bound));
}

/// Moves every line of `f` down by `by` (function source embedded in a file).
fn shift_lines(f: &mut FunctionDef, by: u32) {
    fn stmts(body: &mut [Stmt], by: u32) {
        for s in body {
            s.line += by;
            if let StmtKind::Try { handlers, .. } = &mut s.kind {
                handlers.iter_mut().for_each(|h| h.line += by);
            }
            s.kind.blocks_mut().into_iter().for_each(|b| stmts(b, by));
        }
    }
    f.line += by;
    stmts(&mut f.body, by);
}

/// Rewrites a parse error's `line N` for source that starts on file line `first_line`.
fn shift_error_line(e: Error, first_line: u32) -> Error {
    let msg = e.message();
    let shifted = msg.strip_prefix("line ").and_then(|rest| {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let n: u32 = rest[..digits].parse().ok()?;
        Some(format!("line {}{}", n + first_line.max(1) - 1, &rest[digits..]))
    });
    match shifted {
        Some(m) => Error::new(e.kind(), m),
        None => e,
    }
}
