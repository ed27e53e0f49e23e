//! The project's macro definitions, learned from its own files and from a
//! user macro file, each classified once.

use super::classify::{MacroClass, classify, macro_shaped};
use super::lexer::{TokenKind, directive_parts, directives, tokenize};
use anyhow::Context;
use std::collections::HashMap;
use std::path::Path;

/// One `#define`.
#[derive(Debug, Clone, PartialEq)]
pub struct MacroDef {
    /// Parameter names of a function-like macro (`...` for variadic).
    pub params: Option<Vec<String>>,
    /// Replacement text, comments and line continuations removed.
    pub body: String,
}

/// A macro and how uses of it are repaired.
#[derive(Debug, Clone, PartialEq)]
pub struct Macro {
    /// Every definition seen (conditional compilation gives several); a
    /// user macro file's definitions come first and win.
    pub defs: Vec<MacroDef>,
    pub class: MacroClass,
}

impl Macro {
    /// The definition used for expansion: the first non-empty one.
    pub fn expansion_def(&self) -> Option<&MacroDef> {
        self.defs.iter().find(|d| !d.body.trim().is_empty())
    }
}

/// Macros known to the front end.
#[derive(Debug, Clone, Default)]
pub struct MacroTable {
    macros: HashMap<String, Macro>,
    /// Names defined by the user macro file: their definitions override.
    user: Vec<String>,
}

impl MacroTable {
    /// Learns the #defines of the project's own files (all .c and .h given).
    pub fn learn<'a>(files: impl IntoIterator<Item = (&'a Path, &'a str)>) -> MacroTable {
        let mut table = MacroTable::default();
        for (_, text) in files {
            table.add_defines(text, false);
        }
        table.classify_all();
        table
    }

    /// Adds definitions from a user macro file (like Coccinelle's
    /// --macro-file: plain `#define` lines). They replace what was learned
    /// for the same names.
    pub fn add_macro_file(&mut self, path: &Path) -> anyhow::Result<()> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading macro file {}", path.display()))?;
        self.add_user_defines(&text);
        Ok(())
    }

    /// Adds user definitions given as text (the contents of a macro file).
    pub fn add_user_defines(&mut self, text: &str) {
        self.add_defines(text, true);
        self.classify_all();
    }

    /// The macro called `name`, if defined.
    pub fn get(&self, name: &str) -> Option<&Macro> {
        self.macros.get(name)
    }

    /// Whether a use of object-like macro `name` ends a statement or opens
    /// a block: a punctuation or statement macro whose body ends with `;`,
    /// `{` or `}` (`#define END_TEST } }`, `#define YY_BREAK break;`).
    pub fn ends_statement(&self, name: &str) -> bool {
        matches!(
            self.class(name),
            Some(MacroClass::Punctuation | MacroClass::Statement)
        ) && self
            .get(name)
            .and_then(Macro::expansion_def)
            .filter(|d| d.params.is_none())
            .is_some_and(|d| matches!(d.body.trim_end().chars().last(), Some(';' | '{' | '}')))
    }

    /// Whether `name` is an object-like attribute macro that may also rename
    /// a function: every non-empty definition is one reserved `_x` word that
    /// is neither a compiler keyword taking parentheses nor another macro
    /// (`#define getpid _getpid`, beside `#define near _near`). A use
    /// where no attribute can stand is then the renamed name: `kill (getpid
    /// (), sig)` keeps its callee, `struct utimbuf` its tag.
    pub fn renames_function(&self, name: &str) -> bool {
        const PAREN_KEYWORDS: &[&str] = &[
            "__attribute__",
            "__attribute",
            "__declspec",
            "__asm__",
            "__asm",
            "asm",
            "_Alignas",
            "alignas",
            "__typeof__",
            "__typeof",
        ];
        self.get(name).is_some_and(|m| {
            m.class == MacroClass::Attribute
                && m.defs.iter().all(|d| d.params.is_none())
                && m.defs.iter().any(|d| !d.body.trim().is_empty())
                && m.defs.iter().all(|d| {
                    let word = d.body.trim();
                    word.is_empty()
                        || (word.starts_with('_')
                            && tokenize(word).len() == 1
                            && !PAREN_KEYWORDS.contains(&word)
                            && !self.macros.contains_key(word))
                })
        })
    }

    /// The class of `name`, if it is a macro.
    pub fn class(&self, name: &str) -> Option<MacroClass> {
        self.macros.get(name).map(|m| m.class)
    }

    /// Number of distinct macro names.
    pub fn len(&self) -> usize {
        self.macros.len()
    }

    /// True when no macro is known.
    pub fn is_empty(&self) -> bool {
        self.macros.is_empty()
    }

    fn add_defines(&mut self, text: &str, user: bool) {
        for directive in directives(text) {
            let (name, rest) = directive_parts(directive);
            if name != "define" {
                continue;
            }
            let Some((macro_name, def)) = parse_define(rest) else {
                continue;
            };
            let user_owned = self.user.contains(&macro_name);
            if user && !user_owned {
                self.user.push(macro_name.clone());
                self.macros.remove(&macro_name);
            } else if !user && user_owned {
                continue;
            }
            let entry = self.macros.entry(macro_name).or_insert(Macro {
                defs: Vec::new(),
                class: MacroClass::Other,
            });
            if !entry.defs.contains(&def) {
                entry.defs.push(def);
            }
        }
    }

    /// Classes depend on each other (`#define A B`, B an attribute), so they
    /// are settled by a few rounds until nothing changes.
    fn classify_all(&mut self) {
        // Which definitions name a platform macro: see `names_unseen_macro`.
        let vague: HashMap<String, Vec<bool>> = self
            .macros
            .iter()
            .map(|(name, m)| {
                let flags = m
                    .defs
                    .iter()
                    .map(|d| names_unseen_macro(d, &self.macros))
                    .collect();
                (name.clone(), flags)
            })
            .collect();
        let function_like_names: std::collections::HashSet<String> = self
            .macros
            .iter()
            .filter(|(_, m)| m.defs.iter().any(|d| d.params.is_some()))
            .map(|(n, _)| n.clone())
            .collect();
        for _ in 0..4 {
            let classes: HashMap<String, MacroClass> =
                self.macros.iter().map(|(n, m)| (n.clone(), m.class)).collect();
            let class_of = |w: &str| classes.get(w).copied();
            // Function-like attribute macros only: `#define chdir _chdir`
            // renames a function, and `chdir (d)` in a body is a call.
            let attribute_call =
                |w: &str| function_like_names.contains(w) && class_of(w) == Some(MacroClass::Attribute);
            let mut changed = false;
            for (name, m) in self.macros.iter_mut() {
                // A macro is an attribute if every definition is (platform
                // variants such as `#define near _near` / `#define near`). A
                // single other definition makes it something else: gnulib's
                // `#define write rpl_write` next to `#define write _write`
                // renames a function, and blanking its uses would drop the
                // callee from `write (fd, buf, n)`.
                let classes: Vec<MacroClass> = m
                    .defs
                    .iter()
                    .map(|d| classify(name, d.params.as_deref(), &d.body, &class_of))
                    .collect();
                // A definition naming a platform macro the project never
                // defines says nothing certain (`#define ZCALLBACK CALLBACK`
                // beside `#define ZCALLBACK`, `#define BZ_API(f) WINAPI f`
                // beside `#define BZ_API(f) f`): the others decide, when
                // there are any.
                let all: Vec<(&MacroDef, MacroClass)> = m.defs.iter().zip(classes).collect();
                let known: Vec<(&MacroDef, MacroClass)> = all
                    .iter()
                    .zip(&vague[name])
                    .filter(|(_, vague)| !**vague)
                    .map(|(def, _)| *def)
                    .collect();
                let telling = if known.is_empty() { all } else { known };
                // A function-like macro is an attribute only when one of
                // its definitions spells a compiler attribute, the others
                // being attributes or empty (`lzma_attribute(attr)` →
                // `__attribute__(attr)` or nothing). One that is only ever
                // empty is a call compiled away (`Trace((…))`), and one
                // whose body calls a renamed function (`#define
                // chdir_long(d) chdir (d)` with `#define chdir _chdir`) is a
                // call.
                let attribute_or_empty_call = |(d, c): &&(&MacroDef, MacroClass)| {
                    *c == MacroClass::Attribute || (d.params.is_some() && d.body.trim().is_empty())
                };
                let function_like = m.defs.iter().any(|d| d.params.is_some());
                let class = if !telling.is_empty()
                    && telling.iter().all(|t| attribute_or_empty_call(&t))
                    && telling.iter().any(|(d, c)| {
                        *c == MacroClass::Attribute
                            && (!function_like
                                || spells_compiler_attribute(&d.body)
                                || uses_attribute_macro(&d.body, &attribute_call))
                    }) {
                    MacroClass::Attribute
                } else {
                    // The first non-empty definition that is not an
                    // attribute says what the macro is: `#define NULL __null`
                    // beside `#define NULL 0L` is a constant, and blanking it
                    // would leave `p = ;`.
                    telling
                        .iter()
                        .find(|(d, c)| !d.body.trim().is_empty() && *c != MacroClass::Attribute)
                        .map_or(MacroClass::Other, |(_, c)| *c)
                };
                if class != m.class {
                    m.class = class;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
}

/// Whether `body` holds a compiler's attribute syntax (`__attribute__`,
/// `__declspec`).
fn spells_compiler_attribute(body: &str) -> bool {
    tokenize(body)
        .iter()
        .any(|t| matches!(t.text(body), "__attribute__" | "__attribute" | "__declspec"))
}

/// Whether `body` calls a function-like macro already known to be an
/// attribute (`#define FORMAT_PRINTF(a, b) _GL_ATTRIBUTE_FORMAT ((printf,
/// a, b))`, itself `__attribute__ ((__format__ spec))` or empty).
fn uses_attribute_macro(body: &str, attribute_call: &dyn Fn(&str) -> bool) -> bool {
    let tokens = tokenize(body);
    tokens
        .windows(2)
        .any(|w| w[0].kind == TokenKind::Ident && w[1].text(body) == "(" && attribute_call(w[0].text(body)))
}

/// Whether `def`'s body names an upper-case macro that no file of the
/// project defines (`WINAPI`, `CALLBACK`: a platform's).
fn names_unseen_macro(def: &MacroDef, macros: &HashMap<String, Macro>) -> bool {
    let params = def.params.as_deref().unwrap_or_default();
    tokenize(&def.body).iter().any(|t| {
        let word = t.text(&def.body);
        t.kind == TokenKind::Ident
            && macro_shaped(word)
            && !macros.contains_key(word)
            && !params.iter().any(|p| p == word)
    })
}

/// Parses the text after `#define`: a name, optional parameters glued to
/// it, and the body.
/// Every distinct `#define` of `name` in `texts`, in the order met.
pub fn definitions_in<'a>(texts: impl IntoIterator<Item = &'a str>, name: &str) -> Vec<MacroDef> {
    let mut defs = Vec::new();
    for text in texts {
        for directive in directives(text) {
            let (keyword, rest) = directive_parts(directive);
            if keyword != "define" || !rest.contains(name) {
                continue;
            }
            if let Some((defined, def)) = parse_define(rest)
                && defined == name
                && !defs.contains(&def)
            {
                defs.push(def);
            }
        }
    }
    defs
}

fn parse_define(rest: &str) -> Option<(String, MacroDef)> {
    let rest = rest.trim_start();
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    if name_end == 0 {
        return None;
    }
    let name = rest[..name_end].to_string();
    let mut after = &rest[name_end..];
    let mut params = None;
    if let Some(inner) = after.strip_prefix('(') {
        let close = inner.find(')')?;
        params = Some(
            inner[..close]
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect(),
        );
        after = &inner[close + 1..];
    }
    Some((
        name,
        MacroDef {
            params,
            body: clean_body(after),
        },
    ))
}

/// Removes comments and continuations: tokens the definition separates
/// (by spaces, a comment or a continuation) are separated by one space,
/// tokens written together stay together, so that `<<` (two tokens to the
/// lexer) stays one operator in an expansion.
fn clean_body(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut end = None;
    for t in tokenize(body) {
        if end.is_some_and(|e| e < t.range().start) {
            out.push(' ');
        }
        out.push_str(t.text(body));
        end = Some(t.range().end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_and_classifies_conditional_definitions() {
        let h = "#ifdef X\n# define near _near\n#else\n# define near\n#endif\n#define local static\n\
                 #define OF(args)  args /* proto */\n#define DECLARE(t, a, n) \\\n  t a[n]\n";
        let t = MacroTable::learn([(Path::new("a.h"), h)]);
        assert_eq!(t.class("near"), Some(MacroClass::Attribute));
        assert_eq!(t.class("local"), Some(MacroClass::Attribute));
        assert!(t.renames_function("near"), "`near (` would be a call");
        assert!(
            !t.renames_function("local"),
            "`static` is a keyword, never called"
        );
        assert_eq!(t.class("OF"), Some(MacroClass::Identity));
        let d = t.get("DECLARE").and_then(Macro::expansion_def).cloned();
        assert_eq!(
            d,
            Some(MacroDef {
                params: Some(vec!["t".into(), "a".into(), "n".into()]),
                body: "t a[n]".into()
            })
        );
        assert_eq!(t.class("nope"), None);
    }

    #[test]
    fn a_function_renamed_on_one_platform_is_no_attribute() {
        // gnulib's unistd.h: `_write` looks like a reserved attribute word,
        // but `rpl_write` shows `write` names a function.
        let h = "#if A\n# define write rpl_write\n#elif B\n# define write _write\n#endif\n\
                 #if C\n# define far _far\n#endif\n";
        let t = MacroTable::learn([(Path::new("unistd.h"), h)]);
        assert_eq!(t.class("write"), Some(MacroClass::Other));
        assert_eq!(t.class("far"), Some(MacroClass::Attribute));
    }

    #[test]
    fn an_attribute_looking_first_definition_does_not_decide() {
        // gnulib's stddef.h and sys/types.h: the first definition looks like
        // a reserved word, the others show a constant and a type.
        let h = "#if A\n# define NULL __null\n#else\n# define NULL ((void *) 0)\n#endif\n\
                 #if W\n# define off_t __int64\n#else\n# define off_t long long int\n#endif\n";
        let t = MacroTable::learn([(Path::new("stddef.h"), h)]);
        assert_eq!(t.class("NULL"), Some(MacroClass::Other));
        assert_eq!(t.class("off_t"), Some(MacroClass::Other));
    }

    #[test]
    fn a_definition_naming_an_unseen_platform_macro_does_not_decide() {
        // zlib's minizip/ioapi.h and zconf.h, bzip2's bzlib.h: on Windows
        // the calling convention comes from a system macro the project
        // never defines; elsewhere the macro is empty or the bare name. A
        // macro of the project keeps its class, and a lower-case alias
        // renames a function.
        let h = "#if W\n# define ZCALLBACK CALLBACK\n#else\n# define ZCALLBACK\n#endif\n\
                 #if W\n# define ZEXPORT WINAPI\n#elif D\n# define ZEXPORT __declspec(dllexport)\n\
                 #else\n# define ZEXPORT\n#endif\n\
                 #define LIMIT 10\n#if W\n# define MAXIMUM LIMIT\n#else\n# define MAXIMUM\n#endif\n\
                 #if W\n# define open rpl_open\n#else\n# define open\n#endif\n\
                 #if W\n# define BZ_API(f) WINAPI f\n#elif D\n# define BZ_API(f) (WINAPI * f)\n\
                 #else\n# define BZ_API(f) f\n#endif\n";
        let t = MacroTable::learn([(Path::new("ioapi.h"), h)]);
        assert_eq!(t.class("ZCALLBACK"), Some(MacroClass::Attribute));
        assert_eq!(t.class("ZEXPORT"), Some(MacroClass::Attribute));
        assert_eq!(t.class("MAXIMUM"), Some(MacroClass::Other));
        assert_eq!(t.class("open"), Some(MacroClass::Other));
        assert_eq!(t.class("BZ_API"), Some(MacroClass::Identity));
    }

    #[test]
    fn a_function_like_attribute_empty_elsewhere_is_an_attribute() {
        let t = MacroTable::learn([(
            Path::new("a.h"),
            "#if __GNUC__ >= 3\n#define lzma_attribute(attr) __attribute__(attr)\n#else\n#define lzma_attribute(attr)\n#endif\n\
             #define Trace(x)\n",
        )]);
        assert_eq!(t.class("lzma_attribute"), Some(MacroClass::Attribute));
        assert_eq!(t.class("Trace"), Some(MacroClass::Other));
        let t = MacroTable::learn([(
            Path::new("a.h"),
            "#define chdir _chdir\n#define chdir_long(Dir) chdir (Dir)\n",
        )]);
        assert_eq!(t.class("chdir_long"), Some(MacroClass::Other));
        // An attribute macro spelled through another (gnulib's printf
        // format attributes).
        let t = MacroTable::learn([(
            Path::new("a.h"),
            "#if __GNUC__
# define _GL_ATTRIBUTE_FORMAT(spec) __attribute__ ((__format__ spec))
#else
# define _GL_ATTRIBUTE_FORMAT(spec)
#endif
             #define FORMAT_PRINTF(f, a) _GL_ATTRIBUTE_FORMAT ((__printf__, f, a))
",
        )]);
        assert_eq!(t.class("FORMAT_PRINTF"), Some(MacroClass::Attribute));
    }

    #[test]
    fn user_definitions_override_learned_ones() {
        let mut t = MacroTable::learn([(Path::new("a.h"), "#define EXPORT 1\n")]);
        t.add_user_defines("#define EXPORT\n");
        assert_eq!(t.class("EXPORT"), Some(MacroClass::Attribute));
        assert_eq!(t.get("EXPORT").map(|m| m.defs.len()), Some(1));
    }

    #[test]
    fn definitions_of_one_name_across_texts_each_once() {
        let file = "#ifdef SMALL\n#define HASH_BITS 13\n#else\n#define HASH_BITS 15\n#endif\n#define HASH_BITS_X 1\n";
        let header = "#  define MAX_BITS  (15) /* bits */\n#define HASH_BITS 15\n";
        let defs = definitions_in([file, header], "HASH_BITS");
        let bodies: Vec<&str> = defs.iter().map(|d| d.body.trim()).collect();
        assert_eq!(bodies, ["13", "15"]);
        let max = definitions_in([file, header], "MAX_BITS");
        assert_eq!(
            (max.len(), max[0].body.trim(), max[0].params.is_none()),
            (1, "(15)", true)
        );
        assert!(definitions_in([file], "MAX_BITS").is_empty());
    }
}
