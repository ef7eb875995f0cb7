//! The pack's description in other forms: HTML ([`html`]) and an IEEE Proceedings LaTeX source
//! (`IEEEtran`, conference mode: [`latex`]), both from the Markdown that `DESCRIPTION.md` holds,
//! and a PDF ([`pdf`]) when a TeX engine is on PATH.
//!
//! Only the Markdown that [`super::pack`] writes is understood: `#` and `##` headings,
//! paragraphs, `- ` lists, pipe tables, fenced code blocks, and inline `` `code` ``,
//! `<https://...>` links and `![caption](file)` pictures.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// One block of the Markdown.
enum Block<'a> {
    Title(&'a str),
    Section(&'a str),
    Paragraph(String),
    List(Vec<&'a str>),
    Table(Vec<Vec<&'a str>>),
    Code(Vec<&'a str>),
    Picture { caption: &'a str, file: &'a str },
}

fn blocks(md: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut lines = md.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(t) = line.strip_prefix("## ") {
            out.push(Block::Section(t));
        } else if let Some(t) = line.strip_prefix("# ") {
            out.push(Block::Title(t));
        } else if line.starts_with("```") {
            let mut code = Vec::new();
            for l in lines.by_ref() {
                if l.starts_with("```") {
                    break;
                }
                code.push(l);
            }
            out.push(Block::Code(code));
        } else if let Some(rest) = line.strip_prefix("![")
            && let Some((caption, tail)) = rest.split_once("](")
        {
            out.push(Block::Picture {
                caption,
                file: tail.trim_end_matches(')'),
            });
        } else if line.starts_with('|') {
            let mut rows = vec![cells(line)];
            while let Some(l) = lines.next_if(|l| l.starts_with('|')) {
                if !l.starts_with("|---") {
                    rows.push(cells(l));
                }
            }
            out.push(Block::Table(rows));
        } else if let Some(item) = line.strip_prefix("- ") {
            let mut items = vec![item];
            while let Some(l) = lines.next_if(|l| l.starts_with("- ")) {
                items.push(&l[2..]);
            }
            out.push(Block::List(items));
        } else {
            let mut text = line.to_string();
            while let Some(l) = lines.next_if(|l| {
                !l.trim().is_empty()
                    && !l.starts_with('#')
                    && !l.starts_with("```")
                    && !l.starts_with('|')
                    && !l.starts_with("- ")
            }) {
                text.push(' ');
                text.push_str(l);
            }
            out.push(Block::Paragraph(text));
        }
    }
    out
}

fn cells(line: &str) -> Vec<&str> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect()
}

/// An inline piece of text.
enum Inline<'a> {
    Text(&'a str),
    Code(&'a str),
    Link(&'a str),
}

fn inlines(text: &str) -> Vec<Inline<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let code = rest.find('`');
        let link = rest.find("<http");
        let next = match (code, link) {
            (Some(c), Some(l)) => Some(c.min(l)),
            (c, l) => c.or(l),
        };
        let Some(at) = next else {
            out.push(Inline::Text(rest));
            break;
        };
        if at > 0 {
            out.push(Inline::Text(&rest[..at]));
        }
        let tail = &rest[at..];
        let code = tail.starts_with('`');
        match tail[1..].find(if code { '`' } else { '>' }) {
            Some(end) => {
                let inner = &tail[1..1 + end];
                out.push(if code {
                    Inline::Code(inner)
                } else {
                    Inline::Link(inner)
                });
                rest = &tail[end + 2..];
            }
            None => {
                out.push(Inline::Text(tail));
                break;
            }
        }
    }
    out
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn html_inline(text: &str) -> String {
    inlines(text)
        .into_iter()
        .map(|i| match i {
            Inline::Text(t) => escape_html(t),
            Inline::Code(c) => format!("<code>{}</code>", escape_html(c)),
            Inline::Link(u) => format!("<a href=\"{0}\">{0}</a>", escape_html(u)),
        })
        .collect()
}

/// The description as a standalone HTML page.
pub fn html(md: &str) -> String {
    let blocks = blocks(md);
    let title = blocks
        .iter()
        .find_map(|b| match b {
            Block::Title(t) => Some(*t),
            _ => None,
        })
        .unwrap_or("description");
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>body{{font-family:serif;max-width:52em;margin:2em auto;padding:0 1em}}\
         table{{border-collapse:collapse;font-size:90%}}td,th{{border:1px solid #999;padding:2px 6px}}\
         pre{{background:#f4f4f4;padding:.5em;overflow-x:auto}}</style>\n</head>\n<body>\n",
        escape_html(title)
    );
    for b in &blocks {
        match b {
            Block::Title(t) => s += &format!("<h1>{}</h1>\n", html_inline(t)),
            Block::Section(t) => s += &format!("<h2>{}</h2>\n", html_inline(t)),
            Block::Paragraph(t) => s += &format!("<p>{}</p>\n", html_inline(t)),
            Block::List(items) => {
                s += "<ul>\n";
                for i in items {
                    s += &format!("<li>{}</li>\n", html_inline(i));
                }
                s += "</ul>\n";
            }
            Block::Table(rows) => {
                s += "<table>\n";
                for (k, row) in rows.iter().enumerate() {
                    let tag = if k == 0 { "th" } else { "td" };
                    s += "<tr>";
                    for c in row {
                        s += &format!("<{tag}>{}</{tag}>", html_inline(c));
                    }
                    s += "</tr>\n";
                }
                s += "</table>\n";
            }
            Block::Code(lines) => {
                s += &format!(
                    "<pre><code>{}\n</code></pre>\n",
                    escape_html(&lines.join("\n"))
                )
            }
            Block::Picture { caption, file } => {
                s += &format!(
                    "<figure><img src=\"{}\" alt=\"{1}\"><figcaption>{1}</figcaption></figure>\n",
                    escape_html(file),
                    escape_html(caption)
                )
            }
        }
    }
    s + "</body>\n</html>\n"
}

fn escape_tex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out += r"\textbackslash{}",
            '{' | '}' | '$' | '&' | '#' | '%' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out += r"\^{}",
            '~' => out += r"\~{}",
            '|' => out += r"\textbar{}",
            '<' => out += r"\textless{}",
            '>' => out += r"\textgreater{}",
            '−' => out += "--",
            '≤' => out += r"$\le$",
            _ => out.push(c),
        }
    }
    out
}

fn tex_inline(text: &str) -> String {
    inlines(text)
        .into_iter()
        .map(|i| match i {
            Inline::Text(t) => escape_tex(t),
            Inline::Code(c) => format!(r"\texttt{{{}}}", escape_tex(c)),
            Inline::Link(u) => format!(r"\url{{{u}}}"),
        })
        .collect()
}

/// The description as an IEEE Proceedings LaTeX source (`IEEEtran`, conference mode), by
/// `author`.
pub fn latex(md: &str, author: &str) -> String {
    let blocks = blocks(md);
    let title = blocks
        .iter()
        .find_map(|b| match b {
            Block::Title(t) => Some(*t),
            _ => None,
        })
        .unwrap_or("description");
    let mut s = String::from(
        "\\documentclass[conference]{IEEEtran}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\
         \\usepackage{url}\n\\usepackage{graphicx}\n\\usepackage{listings}\n\
         \\lstset{basicstyle=\\scriptsize\\ttfamily,breaklines=true,columns=fullflexible}\n",
    );
    s += &format!(
        "\\title{{{}}}\n\\author{{\\IEEEauthorblockN{{{}}}}}\n\\begin{{document}}\n\\maketitle\n",
        tex_inline(title),
        escape_tex(author)
    );
    for b in &blocks {
        match b {
            Block::Title(_) => {}
            Block::Section(t) => s += &format!("\\section{{{}}}\n", tex_inline(t)),
            Block::Paragraph(t) => s += &format!("{}\n\n", tex_inline(t)),
            Block::List(items) => {
                s += "\\begin{itemize}\n";
                for i in items {
                    s += &format!("\\item {}\n", tex_inline(i));
                }
                s += "\\end{itemize}\n";
            }
            Block::Table(rows) => {
                let cols = rows.first().map_or(1, Vec::len);
                s += "\\begin{table*}[t]\n\\centering\\scriptsize\n\\resizebox{\\textwidth}{!}{%\n";
                s += &format!("\\begin{{tabular}}{{|{}}}\n\\hline\n", "l|".repeat(cols));
                for (k, row) in rows.iter().enumerate() {
                    let cells: Vec<String> = row.iter().map(|c| tex_inline(c)).collect();
                    s += &cells.join(" & ");
                    s += " \\\\ \\hline\n";
                    if k == 0 {
                        s += "\\hline\n";
                    }
                }
                s += "\\end{tabular}}\n\\end{table*}\n";
            }
            Block::Code(lines) => {
                s += "\\begin{lstlisting}\n";
                for l in lines {
                    s += l;
                    s.push('\n');
                }
                s += "\\end{lstlisting}\n";
            }
            Block::Picture { caption, file } => {
                // pdflatex reads no SVG: the picture is named, next to the text.
                s += &format!(
                    "\\noindent {} (\\texttt{{{}}} in the pack).\n\n",
                    escape_tex(caption),
                    escape_tex(file)
                );
            }
        }
    }
    s + "\\end{document}\n"
}

/// A program on PATH.
fn on_path(name: &str) -> Option<std::path::PathBuf> {
    crate::solve::external::resolve_solver(name).ok()
}

/// Typesets `dir/tex_name` into `dir/<stem>.pdf` with `tectonic` or `pdflatex` (the first on
/// PATH), in a temporary folder, so that a failed run leaves no PDF; `None` (and a warning when
/// an engine ran and failed) otherwise. At most two minutes.
pub fn pdf(dir: &Path, tex_name: &str) -> Option<std::path::PathBuf> {
    let (engine, args): (_, &[&str]) = if let Some(t) = on_path("tectonic") {
        (t, &[])
    } else if let Some(p) = on_path("pdflatex") {
        (p, &["-interaction=nonstopmode", "-halt-on-error"])
    } else {
        return None;
    };
    let stem = tex_name.trim_end_matches(".tex");
    let tmp = tempfile::TempDir::new().ok()?;
    std::fs::copy(dir.join(tex_name), tmp.path().join(tex_name)).ok()?;
    let mut cmd = Command::new(&engine);
    cmd.args(args).arg(tex_name).current_dir(tmp.path());
    let limits = crate::process::Limits {
        timeout: Some(Duration::from_secs(120)),
        term_grace: Duration::ZERO,
        max_stdout: 16 << 20,
        cancel: None,
    };
    let ok = crate::process::run(&mut cmd, &engine.display().to_string(), &limits)
        .is_ok_and(|done| done.status.success());
    let built = tmp.path().join(format!("{stem}.pdf"));
    let target = dir.join(format!("{stem}.pdf"));
    if ok
        && built.exists()
        && crate::atomic_file::write_atomic(&target, |f| {
            let bytes = std::fs::read(&built)
                .map_err(|e| crate::Error::io(built.display().to_string(), e))?;
            std::io::Write::write_all(f, &bytes)
                .map_err(|e| crate::Error::io(target.display().to_string(), e))
        })
        .is_ok()
    {
        return Some(target);
    }
    eprintln!(
        "queens-sat: warning: {} could not typeset {tex_name}; the pack has description.html",
        engine.display()
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "# t: a family\n\nSome `code_x` and <https://example.org/a>.\nsecond line\n\n\
                      ## Part\n\n- one\n- two & three\n\n| a | b |\n|---|---|\n| 1 | `h_2` |\n\n\
                      ```sh\nqueens-sat suite r.suite\n```\n\n![Solved against time](cactus.svg)\n";

    #[test]
    fn html_has_every_block() {
        let h = html(MD);
        assert!(h.contains("<title>t: a family</title>"), "{h}");
        assert!(h.contains("<h2>Part</h2>"));
        assert!(h.contains("<p>Some <code>code_x</code> and <a href=\"https://example.org/a\">https://example.org/a</a>. second line</p>"), "{h}");
        assert!(h.contains("<li>two &amp; three</li>"));
        assert!(
            h.contains(
                "<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td><code>h_2</code></td></tr>"
            ),
            "{h}"
        );
        assert!(h.contains("<pre><code>queens-sat suite r.suite\n</code></pre>"));
        assert!(h.contains("<img src=\"cactus.svg\" alt=\"Solved against time\">"));
    }

    #[test]
    fn latex_is_ieeetran_and_escaped() {
        let t = latex(MD, "A. Author");
        assert!(
            t.starts_with("\\documentclass[conference]{IEEEtran}"),
            "{t}"
        );
        assert!(t.contains("\\author{\\IEEEauthorblockN{A. Author}}"));
        assert!(t.contains("\\section{Part}"));
        assert!(t.contains("\\texttt{code\\_x}"), "{t}");
        assert!(t.contains("\\url{https://example.org/a}"));
        assert!(t.contains("\\item two \\& three"));
        assert!(t.contains("\\begin{tabular}{|l|l|}"));
        assert!(t.contains("queens-sat suite r.suite\n\\end{lstlisting}"));
        assert!(t.trim_end().ends_with("\\end{document}"));
    }
}
