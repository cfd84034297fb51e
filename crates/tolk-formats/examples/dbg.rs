//! Temporary debugging aid.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[2]).unwrap();
    let mut f = tolk_formats::parse(&args[1], "x", &data).unwrap();
    let before = f.units();
    let n = before.len();
    for i in [0, n / 2, n.saturating_sub(1)] {
        if i < n {
            println!("edit {i}: {:?} {:?}", before[i].context, before[i].source);
            let forms =
                vec!["v <x id=\"1\"/> & \"q\" ' ]]> \\n \u{e9}".to_owned(); before[i].target.len()];
            println!("{:?}", f.set_translation(i, &forms, false));
        }
    }
    let w = f.to_bytes().unwrap();
    std::fs::write("/tmp/dbg-out", &w).unwrap();
    match tolk_formats::parse(&args[1], "x", &w) {
        Ok(g) => {
            let after = g.units();
            println!("{} -> {}", n, after.len());
            for (a, b) in before.iter().zip(&after) {
                if a.context != b.context || a.source != b.source {
                    println!(
                        "differs: {:?} {:?} / {:?} {:?}",
                        a.context, a.source, b.context, b.source
                    );
                    break;
                }
            }
        }
        Err(e) => println!("{e}"),
    }
}
