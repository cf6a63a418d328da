use anyproc::AnyView;
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let src = std::fs::read_to_string("tests/data/anyscript_cases.py").unwrap();
    let src = src.split("\nCASES = [").next().unwrap();
    let f = anyproc::pipeline::script(src, "unicode_split_any").unwrap();
    let text = std::fs::read_to_string("/tmp/small/corpus/words_1m.txt").unwrap();
    let words: Vec<&str> = text.lines().collect();
    for _ in 0..n { for w in &words { std::hint::black_box(f.call(&[AnyView::from(*w)]).unwrap()); } }
}
