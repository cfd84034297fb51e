//! The import-cycle check (`cargo xtask cycles`): reads the modules of
//! every crate under `crates/` and the paths by which each names another
//! module of its crate, and reports each loop — a set of modules that
//! reach each other through those paths.
//!
//! Counted are `use` items and paths in code (types, expressions,
//! patterns, and the tokens given to macros) that start with `crate::`,
//! `super::`, `self::` or the name of a child module. A name that a
//! module re-exports (`pub use child::Thing`) counts as the module that
//! defines it, and the re-export itself is no dependency; nor are test
//! modules (`#[cfg(test)]`) or doc comments.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module's path inside its crate (empty for the crate root).
type ModPath = Vec<String>;

/// Each module's dependencies on other modules of its crate, each with
/// the first path written that makes it.
type Graph = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

/// What one module holds that the check needs.
#[derive(Default)]
struct Module {
    /// The file it is written in.
    file: PathBuf,
    /// Its child modules' names.
    children: BTreeSet<String>,
    /// Names it re-exports, with the path written (relative to it).
    reexports: BTreeMap<String, Vec<String>>,
    /// Paths it uses, as written.
    uses: Vec<Vec<String>>,
}

/// Modules of one crate by path.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<ModPath, Module>,
}

/// Checks every crate under `root/crates`; an error lists the loops.
pub fn run(root: &Path) -> Result<(), String> {
    let mut report = String::new();
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .map_err(|e| format!("cannot list crates: {e}"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    crates.sort();
    for dir in crates {
        for entry in ["lib.rs", "main.rs"] {
            let file = dir.join("src").join(entry);
            if !file.exists() {
                continue;
            }
            for found in find(&file)? {
                report.push_str(&format!(
                    "{}: {} modules: {}\n",
                    file.display(),
                    found.modules.len(),
                    found.modules.join(", ")
                ));
                for link in found.links {
                    report.push_str(&format!("    {link}\n"));
                }
            }
        }
    }
    if report.is_empty() {
        println!("no import cycles");
        Ok(())
    } else {
        Err(format!("import cycles between modules:\n{report}"))
    }
}

/// One loop: modules that reach each other.
#[derive(Debug, PartialEq)]
pub struct Loop {
    /// The modules, by path.
    pub modules: Vec<String>,
    /// The dependencies among them: `from → to (path written)`.
    pub links: Vec<String>,
}

/// The loops among the modules of the crate whose root file is `root`.
pub fn find(root: &Path) -> Result<Vec<Loop>, String> {
    let mut krate = Crate::default();
    read_file(&mut krate, ModPath::new(), root)?;
    let graph = krate.edges();
    Ok(loops(&graph)
        .into_iter()
        .map(|part| {
            let members: BTreeSet<&ModPath> = part.iter().collect();
            let links = part
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|(to, _)| members.contains(to))
                        .map(move |(to, written)| {
                            format!("{} → {} ({written})", display(from), display(to))
                        })
                })
                .collect();
            Loop {
                modules: part.iter().map(display).collect(),
                links,
            }
        })
        .collect())
}

fn display(path: &ModPath) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        path.join("::")
    }
}

/// Reads the module written in `file`, and the files of its children.
fn read_file(krate: &mut Crate, path: ModPath, file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let syntax =
        syn::parse_file(&text).map_err(|e| format!("cannot parse {}: {e}", file.display()))?;
    // The folder a file's `mod x;` children are in.
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let folder = match stem {
        "lib" | "main" | "mod" => file.parent().map(Path::to_path_buf),
        _ => file.parent().map(|p| p.join(stem)),
    }
    .unwrap_or_default();
    read_items(krate, path, file, &folder, &syntax.items)
}

/// Records a module's items; recurses into child modules inline or in files.
fn read_items(
    krate: &mut Crate,
    path: ModPath,
    file: &Path,
    folder: &Path,
    items: &[syn::Item],
) -> Result<(), String> {
    krate.modules.entry(path.clone()).or_default().file = file.to_path_buf();
    for item in items {
        if is_test_only(attributes(item)) {
            continue;
        }
        match item {
            syn::Item::Mod(module) => {
                let name = module.ident.to_string();
                let mut child = path.clone();
                child.push(name.clone());
                krate
                    .modules
                    .entry(path.clone())
                    .or_default()
                    .children
                    .insert(name.clone());
                match &module.content {
                    Some((_, inner)) => read_items(krate, child, file, &folder.join(&name), inner)?,
                    None => {
                        let flat = folder.join(format!("{name}.rs"));
                        let nested = folder.join(&name).join("mod.rs");
                        let found = if flat.exists() { flat } else { nested };
                        read_file(krate, child, &found)?;
                    }
                }
            }
            syn::Item::Use(item_use) if !matches!(item_use.vis, syn::Visibility::Inherited) => {
                let mut leaves = Vec::new();
                use_leaves(&item_use.tree, Vec::new(), &mut leaves);
                let module = krate.modules.entry(path.clone()).or_default();
                for (written, name) in leaves {
                    module.reexports.insert(name, written);
                }
            }
            syn::Item::Macro(mac) if is_exported_macro(mac) => {
                if let Some(name) = &mac.ident {
                    let mut written = vec!["crate".to_owned()];
                    written.extend(path.iter().cloned());
                    written.push(name.to_string());
                    krate
                        .modules
                        .entry(ModPath::new())
                        .or_default()
                        .reexports
                        .insert(name.to_string(), written);
                }
                collect_uses(krate, &path, item);
            }
            _ => collect_uses(krate, &path, item),
        }
    }
    Ok(())
}

fn collect_uses(krate: &mut Crate, path: &ModPath, item: &syn::Item) {
    let mut paths = PathCollector::default();
    paths.visit_item(item);
    krate
        .modules
        .entry(path.clone())
        .or_default()
        .uses
        .extend(paths.found);
}

fn is_exported_macro(mac: &syn::ItemMacro) -> bool {
    mac.attrs.iter().any(|a| a.path().is_ident("macro_export"))
}

/// The attributes of an item of any kind.
fn attributes(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Whether the attributes hold `#[cfg(test)]`.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The leaves of a `use` tree: each path written and the name it brings.
fn use_leaves(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let with = |segment: String| {
        let mut path = prefix.clone();
        path.push(segment);
        path
    };
    match tree {
        syn::UseTree::Path(p) => use_leaves(&p.tree, with(p.ident.to_string()), out),
        syn::UseTree::Name(n) => out.push((with(n.ident.to_string()), n.ident.to_string())),
        syn::UseTree::Rename(r) => out.push((with(r.ident.to_string()), r.rename.to_string())),
        syn::UseTree::Glob(_) => out.push((prefix.clone(), "*".to_owned())),
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .for_each(|t| use_leaves(t, prefix.clone(), out)),
    }
}

/// Gathers the paths an item writes, outside its test-only parts.
#[derive(Default)]
struct PathCollector {
    found: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(attributes(item)) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&item.tree, Vec::new(), &mut leaves);
        self.found.extend(leaves.into_iter().map(|(path, _)| path));
    }

    /// `pub(crate)`, `pub(super)`: who may see an item, no dependency.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.found
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        token_paths(mac.tokens.clone(), &mut self.found);
    }
}

/// Paths (`a::b::c`) in the tokens given to a macro, which syn leaves unread.
fn token_paths(tokens: proc_macro2::TokenStream, out: &mut Vec<Vec<String>>) {
    use proc_macro2::TokenTree;
    fn flush(current: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if current.len() > 1 {
            out.push(std::mem::take(current));
        }
        current.clear();
    }
    let mut current: Vec<String> = Vec::new();
    let mut colons = 0;
    for token in tokens {
        match token {
            TokenTree::Ident(ident) if colons == 2 || current.is_empty() => {
                current.push(ident.to_string());
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' && !current.is_empty() && colons < 2 => {
                colons += 1;
            }
            TokenTree::Group(group) => {
                flush(&mut current, out);
                colons = 0;
                token_paths(group.stream(), out);
            }
            TokenTree::Ident(ident) => {
                flush(&mut current, out);
                current.push(ident.to_string());
                colons = 0;
            }
            _ => {
                flush(&mut current, out);
                colons = 0;
            }
        }
    }
    flush(&mut current, out);
}

impl Crate {
    /// Each module's dependencies on other modules of the crate.
    fn edges(&self) -> Graph {
        let mut graph = Graph::new();
        for (path, module) in &self.modules {
            let targets = graph.entry(path.clone()).or_default();
            for written in &module.uses {
                if let Some(target) = self.target(path, written)
                    && &target != path
                {
                    targets.entry(target).or_insert_with(|| written.join("::"));
                }
            }
        }
        graph
    }

    /// The crate-absolute path a path written in module `at` names, if it
    /// names something of this crate.
    fn absolute(&self, at: &ModPath, written: &[String]) -> Option<Vec<String>> {
        let (first, rest) = written.split_first()?;
        match first.as_str() {
            "crate" => Some(rest.to_vec()),
            "self" => Some(at.iter().chain(rest).cloned().collect()),
            "super" => {
                let mut base = at.clone();
                base.pop()?;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                Some(base.into_iter().chain(rest.iter().cloned()).collect())
            }
            name if self
                .modules
                .get(at)
                .is_some_and(|m| m.children.contains(name)) =>
            {
                Some(at.iter().chain(written).cloned().collect())
            }
            _ => None,
        }
    }

    /// The module defining what a path written in module `at` names,
    /// following re-exports.
    fn target(&self, at: &ModPath, written: &[String]) -> Option<ModPath> {
        let mut path = self.absolute(at, written)?;
        for _ in 0..16 {
            let module_len = (0..=path.len())
                .rev()
                .find(|&n| self.modules.contains_key(&path[..n]))?;
            let module: ModPath = path[..module_len].to_vec();
            let next = path.get(module_len);
            let reexported = next.and_then(|name| self.modules[&module].reexports.get(name));
            match reexported.and_then(|written| self.absolute(&module, written)) {
                Some(mut resolved) => {
                    resolved.extend(path[module_len + 1..].iter().cloned());
                    path = resolved;
                }
                None => return Some(module),
            }
        }
        None
    }
}

/// The loops of a graph: its strongly connected parts of more than one
/// node (Tarjan's algorithm), each in the order of one walk around it.
fn loops(graph: &Graph) -> Vec<Vec<ModPath>> {
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g ModPath, usize>,
        low: BTreeMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        on_stack: BTreeSet<&'g ModPath>,
        parts: Vec<Vec<ModPath>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g ModPath) {
        let n = state.index.len();
        state.index.insert(node, n);
        state.low.insert(node, n);
        state.stack.push(node);
        state.on_stack.insert(node);
        for next in state.graph.get(node).into_iter().flat_map(|t| t.keys()) {
            if !state.graph.contains_key(next) {
                continue;
            }
            if !state.index.contains_key(next) {
                visit(state, next);
                let low = state.low[node].min(state.low[next]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(next) {
                let low = state.low[node].min(state.index[next]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut part = Vec::new();
            while let Some(top) = state.stack.pop() {
                state.on_stack.remove(top);
                part.push(top.clone());
                if top == node {
                    break;
                }
            }
            if part.len() > 1 {
                state.parts.push(part);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        parts: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.parts.iter_mut().for_each(|part| part.sort());
    state.parts.sort();
    state.parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir.join("lib.rs")
    }

    #[test]
    fn finds_a_loop_through_use_items_paths_and_macros() {
        let dir = tempfile::tempdir().unwrap();
        let root = write(
            dir.path(),
            &[
                (
                    "lib.rs",
                    "pub mod a;\npub mod b;\nmod c;\npub use c::Thing;\n",
                ),
                (
                    "a.rs",
                    "pub(crate) fn f() -> crate::b::B { todo!() }\npub(super) fn g() {}\n",
                ),
                (
                    "b/mod.rs",
                    "mod inner;\npub struct B;\nfn h() { inner::g() }\n",
                ),
                (
                    "b/inner.rs",
                    "fn g() { format!(\"{}\", super::super::Thing::new()); }\n",
                ),
                (
                    "c.rs",
                    "use crate::a;\npub struct Thing;\n#[cfg(test)]\nmod tests { use crate::b::B; }\n",
                ),
            ],
        );
        let found = find(&root).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].modules, ["a", "b", "b::inner", "c"]);
        assert_eq!(
            found[0].links,
            [
                "a → b (crate::b::B)",
                "b → b::inner (inner::g)",
                "b::inner → c (super::super::Thing::new)",
                "c → a (crate::a)"
            ]
        );
    }

    #[test]
    fn re_exports_and_test_modules_make_no_loop() {
        let dir = tempfile::tempdir().unwrap();
        let root = write(
            dir.path(),
            &[
                ("lib.rs", "mod a;\nmod b;\npub use a::A;\n"),
                ("a.rs", "pub struct A(pub crate::b::B);\n"),
                (
                    "b.rs",
                    "pub struct B;\n#[cfg(test)]\nmod tests { use crate::A; }\nfn f(_: &dyn Fn() -> crate::A) {}\n",
                ),
            ],
        );
        let found = find(&root).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].links,
            ["a → b (crate::b::B)", "b → a (crate::A)"],
            "b names A through the root's re-export"
        );
        std::fs::write(
            dir.path().join("b.rs"),
            "pub struct B;\n#[cfg(test)]\nmod tests { use crate::A; }\n",
        )
        .unwrap();
        assert!(find(&root).unwrap().is_empty());
    }

    #[test]
    fn the_workspace_has_no_import_cycles() {
        run(&crate::root()).unwrap();
    }
}
