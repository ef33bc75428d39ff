//! The engine stays GUI-free: nothing under src/engine, and nothing in the composition root
//! (src/workbench, which the CLI and headless runs use too), may mention egui, eframe or rfd.

#[test]
fn engine_does_not_use_the_gui() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut stack = vec![src.join("engine"), src.join("workbench")];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).expect("read file");
            for (n, line) in text.lines().enumerate() {
                let words = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
                if words
                    .into_iter()
                    .any(|w| matches!(w, "egui" | "eframe" | "rfd"))
                    || line.contains("egui_")
                {
                    offenders.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(files >= 3, "src/engine not found");
    assert!(
        offenders.is_empty(),
        "GUI names in the engine:\n{}",
        offenders.join("\n")
    );
}
