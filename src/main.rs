//! `tianwang`: no subcommand opens the GUI; subcommands run the same engine jobs from the
//! command line (see `cli.rs`).

use std::process::ExitCode;

use clap::Parser;

/// Small blocks from mimalloc, large ones from the system (see `engine::alloc`).
#[global_allocator]
static GLOBAL: tianwang::engine::alloc::Split = tianwang::engine::alloc::Split;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,html5ever=error")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = tianwang::cli::Cli::parse();
    match tianwang::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(tianwang::cli::exit_code(&e))
        }
    }
}
