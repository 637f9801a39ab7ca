//! The manual page and the shell completions made from the option table (`src/options.rs`) by
//! `examples/generate.rs`: every option of the table is in them, the manual has its sections and
//! is read by groff without a warning (skipped where groff is not installed), and the generator
//! writes the files it names.

#[allow(dead_code)]
#[path = "../examples/generate.rs"]
mod generate;

use generate::options::{Value, OPTIONS};
use generate::SHELLS;

/// How the manual spells a name: roff writes `-` as `\-`.
fn roff_name(name: &str) -> String {
    name.replace('-', "\\-")
}

/// A letter glued to a short option (`-BD`): `(option, letter)`.
fn glued_letter(name: &str) -> Option<(char, &str)> {
    (name.len() > 2 && name.starts_with('-') && !name.starts_with("--"))
        .then(|| (name.as_bytes()[1] as char, &name[2..]))
}

#[test]
fn the_manual_has_every_option_and_section() {
    let manual = String::from_utf8(generate::manual()).unwrap();
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "COMMANDS",
        "SAFETY",
        "\"EXIT STATUS\"",
        "\"SEE ALSO\"",
    ] {
        assert!(
            manual.contains(&format!("\n.SH {section}\n")),
            "no section {section}"
        );
    }
    assert!(manual.contains("\\fBlz4\\fR(1)"), "SEE ALSO lz4(1)");
    for opt in OPTIONS {
        for name in opt.names {
            match glued_letter(name) {
                // `-BD`: among `-B`'s values, with its description.
                Some((_, letter)) => assert!(
                    manual.contains(&format!("{letter}: {}", opt.description())),
                    "{name}"
                ),
                None if name.starts_with('-') => assert!(
                    manual.contains(&format!("\\fB{}\\fR", roff_name(name)))
                        || manual.contains(&format!(" {}.", roff_name(name))),
                    "{name}"
                ),
                // A word: in the COMMANDS section.
                None => assert!(
                    manual
                        .split("\n.SH COMMANDS\n")
                        .nth(1)
                        .is_some_and(|commands| commands
                            .split("\n.SH ")
                            .next()
                            .unwrap()
                            .contains(name)),
                    "{name}"
                ),
            }
        }
    }
    for (code, _) in generate::options::EXIT_CODES {
        assert!(manual.contains(&format!(".TP\n\\fB{code}\\fR\n")), "{code}");
    }
}

/// Every spelling in each shell's script: `-x`, `--name`, the words, and `-B`'s letters.
#[test]
fn the_completions_have_every_option() {
    for (shell, _) in SHELLS {
        let script = String::from_utf8(generate::completions(*shell)).unwrap();
        // zsh and fish escape `:` and quotes inside descriptions.
        let plain = script.replace('\\', "");
        let shell = shell.to_string();
        for opt in OPTIONS {
            for name in opt.names {
                let found = match (shell.as_str(), glued_letter(name)) {
                    ("bash", Some((option, letter))) => script
                        .split(&format!("-{option})"))
                        .nth(1)
                        .and_then(|case| case.lines().nth(1))
                        .is_some_and(|line| line.split(['"', ' ']).any(|word| word == letter)),
                    (_, Some((_, letter))) => {
                        plain.contains(&format!("{letter}:\"{}\"", opt.description()))
                            || plain.contains(&format!("{letter}t'{}'", opt.description()))
                    }
                    ("fish", None) => match name.strip_prefix("--") {
                        Some(long) => plain.contains(&format!("-l {long} ")),
                        None => match name.strip_prefix('-') {
                            Some(short) => plain.contains(&format!("-s {short} ")),
                            None => plain.contains(&format!("-a \"{name}\"")),
                        },
                    },
                    ("bash", None) => script
                        .lines()
                        .filter_map(|line| line.trim().strip_prefix("opts=\""))
                        .any(|opts| opts.split([' ', '"']).any(|word| word == *name)),
                    (_, None) => {
                        plain.contains(&format!("'{name}[")) // zsh: -x[...], --name[...]
                            || plain.contains(&format!("'{name}=["))
                            || plain.contains(&format!("'{name}+["))
                            || plain.contains(&format!("'{name}:")) // a word
                    }
                };
                assert!(found, "{shell}: {name}");
            }
        }
    }
}

/// The table's values are described the same way in the manual and in `-h`.
#[test]
fn options_with_values_name_them() {
    let manual = String::from_utf8(generate::manual()).unwrap();
    for opt in OPTIONS {
        if let Value::Next(value) | Value::Glued(value) | Value::Equals(value) = opt.value {
            assert!(manual.contains(&format!("<{value}>")), "{:?}", opt.names);
        }
    }
}

/// groff reads the manual without a warning (`-ww`: all of them).
#[test]
fn groff_reads_the_manual() {
    let dir = std::env::temp_dir().join(format!("lz4-simd-manual-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("lz4-simd.1");
    std::fs::write(&page, generate::manual()).unwrap();
    let out = std::process::Command::new("groff")
        // -P-cbu: plain text, without bold or underlining.
        .args(["-man", "-Tutf8", "-ww", "-P-cbu"])
        .arg(&page)
        .env("LC_ALL", "C")
        .output();
    let out = match out {
        Ok(out) => out,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("groff is not installed: the manual's syntax is not checked");
            return;
        }
        Err(err) => panic!("groff: {err}"),
    };
    std::fs::remove_dir_all(&dir).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    let text = String::from_utf8_lossy(&out.stdout);
    for heading in [
        "NAME",
        "SYNOPSIS",
        "OPTIONS",
        "SAFETY",
        "EXIT STATUS",
        "SEE ALSO",
    ] {
        assert!(text.lines().any(|line| line == heading), "{heading}");
    }
}

/// The generator writes the manual and a script for each shell, the same bytes as above.
#[test]
fn the_generator_writes_its_files() {
    let dir = std::env::temp_dir().join(format!("lz4-simd-generate-{}", std::process::id()));
    generate::write_to(&dir, "all").unwrap();
    assert_eq!(
        std::fs::read(dir.join("lz4-simd.1")).unwrap(),
        generate::manual()
    );
    for (shell, file) in SHELLS {
        assert_eq!(
            std::fs::read(dir.join("completions").join(file)).unwrap(),
            generate::completions(*shell),
            "{file}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each shell that is installed reads its script: bash and fish complete `--con` with the script
/// loaded, zsh checks its syntax. A shell that is not installed is skipped.
#[test]
fn the_shells_read_their_scripts() {
    let dir = std::env::temp_dir().join(format!("lz4-simd-shells-{}", std::process::id()));
    generate::write_to(&dir, "completions").unwrap();
    let scripts = dir.join("completions");
    let bash = format!(
        "source {}/lz4-simd.bash && COMP_WORDS=(lz4-simd --con) && COMP_CWORD=1 && \
         _lz4__simd lz4-simd --con lz4-simd && echo \"${{COMPREPLY[*]}}\"",
        scripts.display()
    );
    let zsh = format!("zsh -n {}/_lz4-simd", scripts.display());
    let fish = format!(
        "fish --no-execute {0}/lz4-simd.fish && source {0}/lz4-simd.fish && \
         complete -C 'lz4-simd --con'",
        scripts.display()
    );
    for (shell, args) in [
        ("bash", vec!["-c".to_string(), bash]),
        ("zsh", vec!["-c".to_string(), zsh]),
        ("fish", vec!["-c".to_string(), fish]),
    ] {
        let out = match std::process::Command::new(shell).args(&args).output() {
            Ok(out) => out,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("{shell} is not installed: its script is not checked");
                continue;
            }
            Err(err) => panic!("{shell}: {err}"),
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{shell}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut words: Vec<&str> = match shell {
            "bash" => stdout.split_whitespace().collect(),
            // fish: one candidate a line, then a tab and its description.
            "fish" => stdout
                .lines()
                .map(|line| line.split('\t').next().unwrap())
                .collect(),
            _ => continue,
        };
        words.sort_unstable();
        assert_eq!(
            words,
            ["--container", "--content-size"],
            "{shell} completes --con"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
