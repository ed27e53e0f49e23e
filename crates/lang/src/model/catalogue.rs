//! The catalogue of join point kinds, their attributes and actions: the single
//! source of truth for selection checking, attribute lookup, the interpreter's
//! name registration, `weft joinpoints` and docs/joinpoints.md.
//!
//! Names follow MANET (snake_case); Clava's camelCase spellings are accepted
//! as aliases so that strategies written for either read naturally.

/// The type of an attribute's value, as documented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrType {
    Bool,
    Int,
    Str,
    /// An integer, or null when it is not statically known.
    IntOrNull,
    /// A string, or null when there is none.
    StrOrNull,
    /// A join point, or null when there is none.
    JoinPointOrNull,
    /// A list of values (join points or strings, as documented).
    List,
}

impl AttrType {
    /// The type as written in the reference.
    pub fn label(self) -> &'static str {
        match self {
            AttrType::Bool => "bool",
            AttrType::Int => "int",
            AttrType::Str => "string",
            AttrType::IntOrNull => "int or null",
            AttrType::StrOrNull => "string or null",
            AttrType::JoinPointOrNull => "joinpoint or null",
            AttrType::List => "list",
        }
    }
}

/// One attribute of a kind.
#[derive(Debug)]
pub struct AttributeSpec {
    /// Canonical (MANET, snake_case) name.
    pub name: &'static str,
    /// Other accepted spellings (Clava camelCase, MANET synonyms).
    pub aliases: &'static [&'static str],
    pub ty: AttrType,
    /// One-line description.
    pub doc: &'static str,
}

impl AttributeSpec {
    /// Whether `name` is this attribute's name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// One action applicable to a kind.
#[derive(Debug)]
pub struct ActionSpec {
    /// How the action is written in an aspect.
    pub syntax: &'static str,
    pub doc: &'static str,
}

/// One join point kind.
#[derive(Debug)]
pub struct KindSpec {
    /// Canonical name.
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// What the kind is, including the exact selection semantics.
    pub doc: &'static str,
    /// Canonical names of the kinds that can be selected from this one.
    pub selects: &'static [&'static str],
    /// Attributes beyond the [`COMMON`] ones every kind has.
    pub attributes: &'static [AttributeSpec],
    pub actions: &'static [ActionSpec],
}

impl KindSpec {
    /// Whether `name` is this kind's name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }

    /// The attribute called `name` (canonical or alias), common ones included.
    /// A kind's own attribute wins over a common one of the same name
    /// (`loop.kind` is `for`/`while`/`dowhile`).
    pub fn attribute(&'static self, name: &str) -> Option<&'static AttributeSpec> {
        self.all_attributes().find(|a| a.answers_to(name))
    }

    /// Every attribute of the kind: the common ones it does not redefine,
    /// then its own.
    pub fn all_attributes(&'static self) -> impl Iterator<Item = &'static AttributeSpec> {
        let own = self.attributes;
        COMMON
            .iter()
            .filter(move |c| !own.iter().any(|a| a.name == c.name))
            .chain(own.iter())
    }

    /// Whether `child` (canonical or alias) can be selected from this kind;
    /// returns the child's spec.
    pub fn child(&self, child: &str) -> Option<&'static KindSpec> {
        let spec = kind(child)?;
        self.selects.contains(&spec.name).then_some(spec)
    }
}

/// The kind called `name` (canonical name or alias).
pub fn kind(name: &str) -> Option<&'static KindSpec> {
    KINDS.iter().find(|k| k.answers_to(name))
}

/// Every kind, in reference order.
pub fn kinds() -> &'static [KindSpec] {
    KINDS
}

/// The shortest chain of kinds that selects `kind` starting from the
/// program, e.g. `["function", "loop", "cond"]`: some kinds (a loop's
/// `cond`) are only selected from their parent. `None` for an unknown kind
/// or the program itself.
pub fn selection_path(kind_name: &str) -> Option<Vec<&'static str>> {
    let target = kind(kind_name)?.name;
    let mut paths: Vec<Vec<&'static str>> = vec![vec!["program"]];
    let mut seen = vec!["program"];
    while !paths.is_empty() {
        let mut next = Vec::new();
        for path in &paths {
            let last = kind(path[path.len() - 1]).expect("catalogue kinds exist");
            for &child in last.selects {
                let mut longer = path.clone();
                longer.push(child);
                if child == target {
                    return Some(longer[1..].to_vec());
                }
                if !seen.contains(&child) {
                    seen.push(child);
                    next.push(longer);
                }
            }
        }
        paths = next;
    }
    None
}

/// Every attribute name and alias of every kind, each once. The interpreter
/// registers these as property names.
pub fn attribute_names() -> impl Iterator<Item = &'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    for attr in COMMON
        .iter()
        .chain(KINDS.iter().flat_map(|k| k.attributes.iter()))
    {
        for name in std::iter::once(attr.name).chain(attr.aliases.iter().copied()) {
            if !seen.contains(&name) {
                seen.push(name);
            }
        }
    }
    seen.into_iter()
}

/// Every kind name and alias.
pub fn kind_names() -> impl Iterator<Item = &'static str> {
    KINDS
        .iter()
        .flat_map(|k| std::iter::once(k.name).chain(k.aliases.iter().copied()))
}

/// The candidate closest to `wrong`, if any is close enough to be a likely
/// typo (case-insensitive Jaro-Winkler similarity of at least 0.8).
pub fn suggest(candidates: impl Iterator<Item = &'static str>, wrong: &str) -> Option<&'static str> {
    let wrong = wrong.to_lowercase();
    candidates
        .map(|c| (strsim::jaro_winkler(&c.to_lowercase(), &wrong), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

const fn attr(
    name: &'static str,
    aliases: &'static [&'static str],
    ty: AttrType,
    doc: &'static str,
) -> AttributeSpec {
    AttributeSpec {
        name,
        aliases,
        ty,
        doc,
    }
}

use AttrType::*;

/// Attributes every kind has.
pub static COMMON: &[AttributeSpec] = &[
    attr(
        "kind",
        &["joinPointType"],
        Str,
        "Canonical kind name of the join point.",
    ),
    attr(
        "line",
        &[],
        Int,
        "1-based line where the join point starts in the original text (0 for program).",
    ),
    attr(
        "column",
        &["col"],
        Int,
        "1-based column, in bytes, where the join point starts (0 for program).",
    ),
    attr("code", &[], Str, "Source text of the join point as it is now."),
    attr(
        "file",
        &["path", "filepath", "filePath"],
        Str,
        "Path of the file containing the join point, relative to the input directory it was found in (`gzip.c` for `weft weave … path/to/gzip-1.12`), so names do not depend on where the program is checked out; empty for program.",
    ),
    attr(
        "parent",
        &[],
        JoinPointOrNull,
        "Nearest enclosing join point (its most specific kind); null for program.",
    ),
];

/// Attributes of anything that names a declared object (param, vardecl,
/// var). Declarations and types are resolved by the semantic model
/// (scopes, typedefs, the project's headers); what it cannot resolve has an
/// unknown type: `type_known` false, every shape attribute false.
macro_rules! typed_attributes {
    ($($extra:expr),* $(,)?) => {
        &[
            attr("name", &[], Str, "The identifier."),
            attr("type", &["declaredType"], StrOrNull, "Declared type as written, without name or storage class, e.g. `const char *[4]` or `ush` (null when the declaration is not found)."),
            attr("scalar_type", &["scalarType"], StrOrNull, "The type after typedefs (through project headers) as a standard C scalar spelling: `unsigned long` for `ulg`, `double`, `_Bool`, `int` for an enum, `void *` for any pointer; null for structs, arrays, functions and unresolved types. What monitors record a value by."),
            attr("type_known", &["typeKnown"], Bool, "The type was resolved (through typedefs and project headers). False for names declared by macros, in text that did not parse, or with types from unread headers: strategies should not instrument those."),
            attr("is_param", &["isParam"], Bool, "Declared as a function parameter."),
            attr("is_global", &["isGlobal"], Bool, "Declared at file scope (in the file or a project header)."),
            attr("is_local", &["isLocal"], Bool, "Declared in a block of a function (not a parameter)."),
            attr("is_primitive", &["isPrimitive"], Bool, "Integer, floating, enum or _Bool type after typedef resolution; not a pointer, array or struct."),
            attr("is_pointer", &["isPointer"], Bool, "A pointer, directly or through a typedef."),
            attr("is_array", &["isArray"], Bool, "An array, directly or through a typedef."),
            attr("is_struct", &["isStruct"], Bool, "A struct or union value (not a pointer to one), directly or through a typedef."),
            attr("is_const", &["isConst"], Bool, "The object itself is const (`const int x`, `char *const p`; not `const char *p`)."),
            attr("is_volatile", &["isVolatile"], Bool, "The object itself is volatile."),
            attr("storage_class", &["storageClass"], StrOrNull, "`static`, `extern`, `register`, `auto` or `_Thread_local` when written; null otherwise."),
            attr("target_type", &["targetType"], StrOrNull, "For a pointer, the scalar spelling (as `scalar_type`) of what it points to (`char` for `const char *`); for an array, of its elements; null otherwise, and when that is not a scalar."),
            attr("fields", &[], List, "For a struct, or a pointer to one, its members as `[name, scalar_type, element_type]` lists: `scalar_type` as the attribute (null for a member that is not a scalar), `element_type` the scalar spelling of the elements of a member array of known length (null otherwise; a flexible array member `a[]` has no known length). Empty for unions (their members overlap), other types, and structs whose definition was not seen."),
            attr("written_first", &["writtenFirst"], List, "For a pointer, the parts of what it points to that the function using it (declaring it, for a param or local) writes before reading them, as strings: `*` for what it points to as a whole (`p[i] = c`, `*(p + i) = c`, `*p = c`, or `p` passed to a call that fills it: `fgets`, `strcpy`, `memcpy`, `sprintf`, the `scanf` family's targets..., or a function of the same file whose parameter is written first), `->m` for member `m` (`p->m = v`, `(*p).m = v`). Accesses are ordered as C evaluates them (the right side of `=` before the write, a call's arguments before the call) and in text order between expressions; only a plain `=` writes. What such a part holds before the write is not the program's value (a buffer being filled, a fresh heap block). Empty at file scope, for other variables, and when the function declares another variable of the name."),
            $($extra),*
        ]
    };
}

const INSERT: &[ActionSpec] = &[
    ActionSpec {
        syntax: "insert before 'CODE'",
        doc: "Insert CODE before the join point.",
    },
    ActionSpec {
        syntax: "insert after 'CODE'",
        doc: "Insert CODE after the join point.",
    },
    ActionSpec {
        syntax: "insert replace 'CODE'",
        doc: "Replace the join point's text with CODE.",
    },
    ActionSpec {
        syntax: "perform NAME(ARGS)",
        doc: "Run the transformation NAME on the join point.",
    },
];

const PERFORM_ONLY: &[ActionSpec] = &[ActionSpec {
    syntax: "perform NAME(ARGS)",
    doc: "Run the transformation NAME on the join point.",
}];

/// Kinds selectable inside any piece of code (transitive descendants).
macro_rules! in_code {
    ($($extra:literal),* $(,)?) => {
        &[$($extra,)* "stmt", "decl", "vardecl", "var", "assignment", "call", "arg", "return",
          "loop", "if", "switch", "branch", "expression", "binaryOp", "unaryOp", "arrayAccess", "memberAccess"]
    };
}

/// Kinds selectable inside an expression or declaration (transitive
/// descendants): what every expression-level kind selects, after its own
/// extras.
macro_rules! in_expression {
    ($($extra:literal),* $(,)?) => {
        &[$($extra,)* "var", "call", "expression", "binaryOp", "unaryOp", "arrayAccess",
          "memberAccess", "assignment", "arg"]
    };
}

const STMT_ATTRS: &[AttributeSpec] = &[
    attr(
        "is_decl",
        &["isDecl"],
        Bool,
        "The statement is a local declaration.",
    ),
    attr(
        "conditional",
        &[],
        Bool,
        "Starts inside a preprocessor conditional (`#if`, `#ifdef`, `#ifndef`) opened in its function, so code inserted around it is compiled only when the condition holds.",
    ),
    attr(
        "assigned_locals",
        &["assignedLocals"],
        List,
        "The locals in scope before the statement that certainly hold a value there, innermost first, as `vardecl` join points (one per name): declared `static` or with an initializer, or assigned `x = e;` (or by a `for` initializer) in a block enclosing the statement, after the declaration, on every path to it (no `case` label or `goto` target in between). What a trace point there may read without reading an indeterminate value (docs/invariants.md).",
    ),
];

static KINDS: &[KindSpec] = &[
    KindSpec {
        name: "program",
        aliases: &[],
        doc: "The whole program: every input file.",
        selects: in_code![
            "file",
            "function",
            "param",
            "body",
            "first_stmt",
            "last_stmt",
            "first_decl",
            "last_decl"
        ],
        attributes: &[attr("num_files", &["numFiles"], Int, "Number of files.")],
        actions: PERFORM_ONLY,
    },
    KindSpec {
        name: "file",
        aliases: &["cfile", "CFile"],
        doc: "One C file. Selecting code kinds from a file reaches the whole file, file-scope declarations included.",
        selects: in_code![
            "function",
            "param",
            "body",
            "first_stmt",
            "last_stmt",
            "first_decl",
            "last_decl"
        ],
        attributes: &[attr("name", &[], Str, "File name without directories.")],
        actions: INSERT,
    },
    KindSpec {
        name: "function",
        aliases: &[],
        doc: "A function definition (not a prototype). A function whose body the front end did not understand is still selected, but yields no join points inside it.",
        selects: in_code![
            "param",
            "body",
            "first_stmt",
            "last_stmt",
            "first_decl",
            "last_decl"
        ],
        attributes: &[
            attr(
                "name",
                &[],
                Str,
                "The function's name; a name a macro call makes is the call as written (`PREFIX(scan)`), no identifier.",
            ),
            attr(
                "num_params",
                &["numParams"],
                Int,
                "Number of parameters (`(void)` has none; `...` is not counted).",
            ),
            attr(
                "return_type",
                &["returnType"],
                Str,
                "Return type as written, with the declarator's `*`s.",
            ),
            attr("is_static", &["isStatic"], Bool, "Declared `static`."),
            attr(
                "num_loops",
                &["numLoops"],
                Int,
                "Number of loops in the body, nested ones included.",
            ),
            attr(
                "recursive",
                &[],
                Bool,
                "The body calls the function itself (direct recursion).",
            ),
            attr(
                "pure",
                &[],
                Bool,
                "The body reads only its parameters and locals, writes no memory and calls only such functions (itself included), output whose result is unused, or functions that never return: a call's effect and result depend on its arguments alone.",
            ),
            attr(
                "reads_only",
                &["readsOnly"],
                Bool,
                "As `pure`, but the body may also read memory (`*p`, `p->next`, `a[i]`): it writes no memory and no variable but its locals, so no memory changes while it and its callees run, and a call's effect and result depend on its arguments and the memory they reach.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "param",
        aliases: &["parameter"],
        doc: "A parameter of a function definition, prototype style or old (K&R) style. Unnamed parameters have name \"\".",
        selects: &[],
        attributes: typed_attributes![attr(
            "length",
            &[],
            StrOrNull,
            "For a pointer the function indexes in a loop bounded by a length, that length as C text without spaces (`len`, `s->n`): a loop whose condition is `i < L`, `L > i` or `i != L`, L a parameter or a member of one, and whose body reads `p[i]`, `p[i++]`, `*(p + i)` or `*(i + p)`; neither p nor L is assigned, incremented or has its address taken in the function. Null otherwise.",
        )],
        actions: PERFORM_ONLY,
    },
    KindSpec {
        name: "body",
        aliases: &["scope"],
        doc: "The body of a function or loop: the `{...}` block, or the single statement of a brace-less loop body.",
        selects: in_code!["first_stmt", "last_stmt", "first_decl", "last_decl"],
        attributes: &[
            attr("has_braces", &["hasBraces"], Bool, "The body is a `{...}` block."),
            attr(
                "num_stmts",
                &["numStmts"],
                Int,
                "Number of statements directly in the body, declarations included.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "stmt",
        aliases: &["statement"],
        doc: "A statement inside a function, local declarations and nested blocks included; the function body block itself is `body`.",
        selects: in_code![],
        attributes: STMT_ATTRS,
        actions: INSERT,
    },
    KindSpec {
        name: "first_stmt",
        aliases: &["firstStmt"],
        doc: "The first statement of a body that is not a declaration (where code can go right after the declarations). Selected from a function or loop (through its body), a body, or a file or the program (through each function); none when the body holds only declarations. When a conditional group (`#if`) comes first, it is the group (code before it runs first in every branch), or the first statement of each branch when branches open with declarations and an `#else` ends the group, or what follows a group that cannot return.",
        selects: in_code![],
        attributes: STMT_ATTRS,
        actions: INSERT,
    },
    KindSpec {
        name: "last_stmt",
        aliases: &["lastStmt"],
        doc: "The last statement of a body (a declaration when that comes last). Selected like first_stmt.",
        selects: in_code![],
        attributes: STMT_ATTRS,
        actions: INSERT,
    },
    KindSpec {
        name: "decl",
        aliases: &["declaration"],
        doc: "A declaration statement (`int a, *b = 0;`), local or at file scope, prototypes included; typedefs are not decls.",
        selects: in_expression!["vardecl"],
        attributes: &[attr(
            "num_declarators",
            &["numDeclarators"],
            Int,
            "Number of declarators.",
        )],
        actions: INSERT,
    },
    KindSpec {
        name: "first_decl",
        aliases: &["firstDecl"],
        doc: "The first declaration directly in a body. Selected like first_stmt.",
        selects: in_expression!["vardecl"],
        attributes: &[attr(
            "num_declarators",
            &["numDeclarators"],
            Int,
            "Number of declarators.",
        )],
        actions: INSERT,
    },
    KindSpec {
        name: "last_decl",
        aliases: &["lastDecl"],
        doc: "The last declaration directly in a body. Selected like first_stmt.",
        selects: in_expression!["vardecl"],
        attributes: &[attr(
            "num_declarators",
            &["numDeclarators"],
            Int,
            "Number of declarators.",
        )],
        actions: INSERT,
    },
    KindSpec {
        name: "vardecl",
        aliases: &["varDecl"],
        doc: "One declarator of a variable in a declaration (`b = 0` in `int a, b = 0;`), local, in a for header or at file scope; function prototypes are not vardecls. Its name is not a `var`.",
        selects: in_expression![],
        attributes: typed_attributes![
            attr("has_init", &["hasInit"], Bool, "Has an initializer."),
            attr("init", &[], StrOrNull, "The initializer's text."),
            attr(
                "conditional",
                &[],
                Bool,
                "Inside a preprocessor conditional (`#if`, `#ifdef`, `#ifndef`): one opened in its function, or for a file-scope declarator, anywhere before it in the file (include guards too)."
            ),
            attr(
                "length",
                &[],
                StrOrNull,
                "For a local pointer whose initializer names an array of known length directly (`int *p = buf;` or `= &buf[0]`, `buf` a static or stack array whose declaration gives its length, not hidden by another `buf` of the function), which the function never assigns, increments or takes the address of: `sizeof (buf) / sizeof (buf)[0]`, the count of elements it points to. Null otherwise.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "var",
        aliases: &["varref", "varRef"],
        doc: "One use of a variable: an identifier in expression position. Not: function names in calls, struct member names (in `s.m` and `p->m` only `s` and `p` are vars), type names, labels, macro names and preprocessor conditions, enumerator definitions, nor declarator names (parameters are `param`, declared variables are `vardecl`, even with an initializer). Identifiers of enum constants and of functions used as values (`&f`) are vars too; they are neither params, locals nor globals and have no `declaration`. Type attributes come from the declaration the name resolves to (blocks, parameters, file scope, project headers); when none is found they are false/null.",
        selects: &[],
        attributes: typed_attributes![
            attr(
                "reference",
                &["use"],
                Str,
                "`write` when the variable is the whole left operand of `=`; `readwrite` for the left operand of a compound assignment (`+=`, ...) and the operand of `++`/`--`; `read` otherwise (also `a[i] = x`, `s.m = x`, `*p = x`: there `a`, `s`, `p` are read)."
            ),
            attr(
                "in_loop_header",
                &["inLoopHeader"],
                Bool,
                "Inside a for's init, condition or update, or a while/do condition."
            ),
            attr(
                "conditional",
                &[],
                Bool,
                "Inside a preprocessor conditional (`#if`, `#ifdef`, `#ifndef`) opened in its function: the use is compiled only when the condition holds."
            ),
            attr(
                "declaration",
                &["decl", "vardecl"],
                JoinPointOrNull,
                "The param or vardecl the name resolves to; null for globals declared only in a header, enum constants, functions and unresolved names."
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "assignment",
        aliases: &["assign"],
        doc: "An assignment expression, simple (`=`) or compound (`+=`, ...).",
        selects: &[
            "var",
            "call",
            "arg",
            "expression",
            "binaryOp",
            "unaryOp",
            "arrayAccess",
            "memberAccess",
        ],
        attributes: &[
            attr("operator", &["op"], Str, "The operator, e.g. `=` or `+=`."),
            attr("lhs", &["left"], Str, "Text of the left operand."),
            attr("rhs", &["right"], Str, "Text of the right operand."),
            attr(
                "is_compound",
                &["isCompound"],
                Bool,
                "The operator is not plain `=`.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "call",
        aliases: &[],
        doc: "A function call.",
        selects: in_expression![],
        attributes: &[
            attr(
                "name",
                &[],
                Str,
                "The called function's name, or the callee's text when it is not a plain name.",
            ),
            attr("num_args", &["numArgs"], Int, "Number of arguments."),
            attr(
                "is_stmt_call",
                &["isStmtCall"],
                Bool,
                "The call is a whole expression statement.",
            ),
            attr(
                "noreturn",
                &["isNoreturn"],
                Bool,
                "The callee does not return: a standard function that never does (`exit`, `_exit`, `_Exit`, `abort`, `quick_exit`, `longjmp`, `siglongjmp`, …), or one declared `_Noreturn`, `noreturn`, `__attribute__((noreturn))`/`((__noreturn__))`, or with a macro expanding to one of these or whose name says `NORETURN`, in any declaration the call's file or its project headers hold. False for calls through a pointer.",
            ),
            attr(
                "assigned_locals",
                &["assignedLocals"],
                List,
                "As `stmt`'s, at the statement holding the call.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "arg",
        aliases: &["argument"],
        doc: "An argument expression of a call.",
        selects: &[
            "var",
            "call",
            "expression",
            "binaryOp",
            "unaryOp",
            "arrayAccess",
            "memberAccess",
            "assignment",
        ],
        attributes: &[attr(
            "index",
            &[],
            Int,
            "0-based position among the call's arguments.",
        )],
        actions: INSERT,
    },
    KindSpec {
        name: "return",
        aliases: &["returnStmt"],
        doc: "A return statement. `return.var` selects the vars used in the returned expression.",
        selects: in_expression![],
        attributes: &[
            attr("has_value", &["hasValue"], Bool, "Returns an expression."),
            attr(
                "value",
                &["returnValue"],
                StrOrNull,
                "Text of the returned expression.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "loop",
        aliases: &[],
        doc: "A for, while or do-while loop. `loop.loop` selects the loops nested in it.",
        selects: in_code![
            "body",
            "cond",
            "first_stmt",
            "last_stmt",
            "first_decl",
            "last_decl"
        ],
        attributes: &[
            attr(
                "kind",
                &["type", "loopType"],
                Str,
                "`for`, `while` or `dowhile` (MANET wrote `type`; this replaces the common `kind`).",
            ),
            attr(
                "rank",
                &[],
                Str,
                "Position in the file's loop nests, unique in the file: `2` is the second outermost loop of the file, `2.1` the first loop nested directly in it.",
            ),
            attr("is_innermost", &["isInnermost"], Bool, "Contains no loop."),
            attr(
                "state",
                &[],
                List,
                "The loop's state for non-termination monitoring: the variables read by any condition in the loop, closed under the assignments in the loop that feed them (and the conditions those run under), less the variables the loop never writes, those declared inside it, and those every iteration assigns before reading them. One `var` join point per variable, its first use in the loop, in source order.",
            ),
            attr(
                "state_cells",
                &["stateCells"],
                List,
                "The memory cells in the loop's state: `*p` or `a[K]` (`K` an integer constant) that the loop's own condition reads on every evaluation and the loop writes, whose pointer or array variable the loop never assigns and whose address its function never takes. One `[key, var]` pair per cell: its text (`a[2]`, also for `a[1+1]`) and the `var` join point of its base variable in the condition.",
            ),
            attr(
                "state_exact",
                &["stateExact"],
                Bool,
                "The state determines the next iteration: the loop calls nothing and does not both read and write memory, unless every memory read and write is of a cell in `state_cells`, so a repeated state proves it never ends.",
            ),
            attr(
                "state_unknowns",
                &["stateUnknowns"],
                List,
                "What feeds the loop besides its state, e.g. `calls getc()`, `reads memory (a[i]) and writes memory (a[i])`; empty when `state_exact`.",
            ),
            attr(
                "has_exit",
                &["hasExit"],
                Bool,
                "The loop can end: its condition is not constantly true, or it holds a `break` of its own, a `return`, a `goto`, or a call that does not return (`exit`, `abort`, …).",
            ),
            attr("is_outermost", &["isOutermost"], Bool, "Is in no loop."),
            attr(
                "nested_level",
                &["nestedLevel"],
                Int,
                "Number of enclosing loops (0 for an outermost loop).",
            ),
            attr(
                "num_iterations",
                &["iterations", "numIterations"],
                IntOrNull,
                "Iteration count of `for (i = A; i OP B; i STEP)` with integer literal bounds and a body that does not write `i`; null otherwise.",
            ),
            attr(
                "control_var",
                &["controlVar"],
                StrOrNull,
                "The variable initialised, tested and updated by a for header; null otherwise.",
            ),
            attr(
                "src",
                &[],
                StrOrNull,
                "A sufficient recurrence condition under bit-vectors at the types' widths (what the machine runs): a C condition on the state at the loop head under which the loop never ends, found and re-checked by an SMT solver (docs/nonterm.md); null when there is none (`src_reason` says why). For a loop that reads input it holds, at end of file, the premise too (`feof(fp) && …`, or `weft_round > 1 && got == 0 && …`, where `weft_round` stands for the count of this loop entry's condition evaluations, which the checking code must supply: aspects/nonterm.lara does). Needs z3 or cvc5 at weave time: without one the weave stops with exit status 2.",
            ),
            attr(
                "src_reason",
                &["srcReason"],
                Str,
                "How `src` was found (`stuck path`, `one path`, `several paths`; `…, assuming end of file is sticky` for a loop analysed at end of file), or why there is none (`outside the integer fragment: pointer dereference`, `no recurrent set among the candidates (no lasso)`, …).",
            ),
            attr(
                "src_ideal",
                &["srcIdeal"],
                StrOrNull,
                "As `src`, over ideal integers (nothing overflows): catches loops that diverge only because nothing wraps, such as `while (x > 0) x++;`.",
            ),
            attr(
                "src_ideal_reason",
                &["srcIdealReason"],
                Str,
                "How `src_ideal` was found (`inductive path, quantifier elimination`, …), or why there is none.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "cond",
        aliases: &["condition"],
        doc: "The condition of a loop, without its parentheses: evaluated before every iteration of a for or while loop and after every iteration of a do-while loop. A `for (;;)` has none. `insert replace` rewrites it in place.",
        selects: in_expression![],
        attributes: &[],
        actions: INSERT,
    },
    KindSpec {
        name: "if",
        aliases: &["ifStmt"],
        doc: "An if statement.",
        selects: in_code![],
        attributes: &[
            attr(
                "condition",
                &["cond"],
                Str,
                "Text of the condition (without parentheses).",
            ),
            attr("has_else", &["hasElse"], Bool, "Has an else branch."),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "switch",
        aliases: &["switchStmt"],
        doc: "A switch statement.",
        selects: in_code![],
        attributes: &[attr(
            "condition",
            &["cond"],
            Str,
            "Text of the controlling expression (without parentheses).",
        )],
        actions: INSERT,
    },
    KindSpec {
        name: "branch",
        aliases: &["outcome"],
        doc: "What runs when a condition is decided: the then statement of an `if`, its else statement (for `else if`, the inner `if`), or a `case` or `default` label with the statements that follow it up to the next label. `branch.first_stmt` is the first statement run on that outcome (none for a label with no statement of its own, which falls through to the next).",
        selects: in_code!["first_stmt", "last_stmt", "first_decl", "last_decl"],
        attributes: &[attr("outcome", &[], Str, "`then`, `else`, `case` or `default`.")],
        actions: INSERT,
    },
    KindSpec {
        name: "expression",
        aliases: &["expr"],
        doc: "Any expression except a bare identifier (see `var`) or a called function's name: literals, operators, calls, casts, ... Nested expressions are selected too.",
        selects: in_expression![],
        attributes: &[],
        actions: INSERT,
    },
    KindSpec {
        name: "binaryOp",
        aliases: &["binary_op", "binop"],
        doc: "A binary operator expression (arithmetic, comparison, logical, bitwise); assignments are `assignment`.",
        selects: in_expression![],
        attributes: &[
            attr("operator", &["op"], Str, "The operator."),
            attr("left", &["lhs"], Str, "Text of the left operand."),
            attr("right", &["rhs"], Str, "Text of the right operand."),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "unaryOp",
        aliases: &["unary_op"],
        doc: "A unary operator expression: `-x`, `!x`, `~x`, `*p`, `&x`, `++x`, `x--`, ...",
        selects: in_expression![],
        attributes: &[
            attr("operator", &["op"], Str, "The operator."),
            attr("operand", &[], Str, "Text of the operand."),
            attr(
                "is_prefix",
                &["isPrefix"],
                Bool,
                "The operator is written before the operand.",
            ),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "arrayAccess",
        aliases: &["array_access"],
        doc: "A subscript expression `a[i]`.",
        selects: in_expression![],
        attributes: &[
            attr(
                "name",
                &[],
                StrOrNull,
                "The subscripted variable's name when the base is a plain name.",
            ),
            attr("array", &["base"], Str, "Text of the subscripted expression."),
            attr("subscript", &["index"], Str, "Text of the index expression."),
        ],
        actions: INSERT,
    },
    KindSpec {
        name: "memberAccess",
        aliases: &["member_access"],
        doc: "A member access `s.m` or `p->m`.",
        selects: in_expression![],
        attributes: &[
            attr("name", &["member"], Str, "The member's name."),
            attr("base", &[], Str, "Text of the accessed expression."),
            attr("is_arrow", &["isArrow"], Bool, "Written with `->`."),
        ],
        actions: INSERT,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_but_the_program_is_reachable_from_it() {
        assert_eq!(selection_path("function"), Some(vec!["function"]));
        assert_eq!(selection_path("condition"), Some(vec!["loop", "cond"]));
        assert_eq!(selection_path("program"), None);
        for spec in kinds().iter().filter(|k| k.name != "program") {
            let path = selection_path(spec.name).unwrap_or_else(|| panic!("`{}` unreachable", spec.name));
            assert_eq!(path.last(), Some(&spec.name));
        }
    }

    #[test]
    fn aliases_resolve_to_canonical_kinds() {
        assert_eq!(kind("firstStmt").map(|k| k.name), Some("first_stmt"));
        assert_eq!(kind("loop").map(|k| k.name), Some("loop"));
        assert!(kind("nonsense").is_none());
    }

    #[test]
    fn attributes_resolve_through_aliases_and_common_table() {
        let lp = kind("loop").unwrap();
        assert_eq!(lp.attribute("isInnermost").unwrap().name, "is_innermost");
        assert_eq!(lp.attribute("type").unwrap().name, "kind");
        assert_eq!(lp.attribute("line").unwrap().name, "line");
        let call = kind("call").unwrap();
        assert_eq!(call.attribute("numArgs").unwrap().name, "num_args");
    }

    #[test]
    fn every_selectable_kind_exists() {
        for k in kinds() {
            for child in k.selects {
                assert!(kind(child).is_some(), "{}.{child}", k.name);
            }
        }
    }

    #[test]
    fn names_are_unique() {
        let names: Vec<_> = kind_names().collect();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(n), "duplicate kind name {n}");
        }
        for k in kinds() {
            let attrs: Vec<_> = k
                .all_attributes()
                .flat_map(|a| std::iter::once(a.name).chain(a.aliases.iter().copied()))
                .collect();
            for (i, n) in attrs.iter().enumerate() {
                assert!(!attrs[i + 1..].contains(n), "{}: duplicate attribute {n}", k.name);
            }
        }
    }

    #[test]
    fn suggestions_catch_typos() {
        assert_eq!(suggest(kind_names(), "fucntion"), Some("function"));
        assert_eq!(suggest(attribute_names(), "is_inermost"), Some("is_innermost"));
        assert_eq!(suggest(kind_names(), "zzzzzz"), None);
    }

    #[test]
    fn attribute_names_are_listed_once() {
        let names: Vec<_> = attribute_names().collect();
        assert!(names.contains(&"numArgs") && names.contains(&"reference"));
        let types = names.iter().filter(|n| **n == "type").count();
        assert_eq!(types, 1);
    }
}
