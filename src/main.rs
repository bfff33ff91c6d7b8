//! The `umpire` binary: with no command the desktop window (`umpire::ui`),
//! otherwise the headless CLI on the same core. Errors are reported once,
//! here, with their causes.

mod cli;

use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        // The reader went away (`umpire status | head`): not a failure.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // Messages quote names and text from files: escaped, so a name
            // cannot clear the terminal or forge a line.
            eprintln!("error: {}", umpire::model::text::printable(&message(&error)));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes, each said once: a cause whose words the message
/// already holds (an error that prints its own source) ends the chain, since
/// its own causes are the details of what was said.
fn message(error: &anyhow::Error) -> String {
    let mut message = error.to_string();
    for cause in error.chain().skip(1) {
        let text = cause.to_string();
        if message.contains(&text) {
            break;
        }
        message.push_str(": ");
        message.push_str(&text);
    }
    message
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}
