//! The `umpire` binary: the headless CLI (the desktop window comes later on
//! the same core). Errors are reported once, here, with their causes.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
