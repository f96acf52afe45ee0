//! The command line: one file per subcommand, each with its arguments and what it prints.
//! Arguments parse straight into the domain's own types (`Neighbourhood`, `Heuristic`,
//! `Weight`, `GenKind`, `Frames` all implement `FromStr`); failures are one typed
//! [`CliError`] that knows its exit code.

mod check;
mod error;
mod generate;
mod lab;
mod new;
mod path;
mod play;
mod query;
mod scen;
mod script;
mod test;

pub use check::CheckArgs;
pub use error::{CliError, EXIT_BAD_INPUT, EXIT_CLOSED_PIPE};
pub use generate::{GenerateArgs, generate_text};
pub use lab::LabArgs;
pub use new::NewArgs;
pub use path::{PathArgs, draw_path};
pub use play::PlayArgs;
pub use query::QueryArgs;
pub use scen::ScenArgs;
pub use script::ScriptArgs;
pub use test::TestArgs;

use clap::{Parser, Subcommand};

/// A terminal roguelike sandbox whose monsters hunt with grid A*.
#[derive(Debug, Parser)]
#[command(name = "astar-rogue", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (plays the default level when omitted).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options for playing without a subcommand.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a level in the terminal.
    Play(PlayArgs),
    /// Find a path on a level and print it.
    Path(PathArgs),
    /// Open the search lab on a level: any start and goal, the search stepped and explained.
    Lab(LabArgs),
    /// Run every scenario of Moving AI scenario files.
    Scen(ScenArgs),
    /// Check level files and print a summary of each.
    Check(CheckArgs),
    /// Generate a level.
    Generate(GenerateArgs),
    /// Make a blank level file to design from (never over an existing file).
    New(NewArgs),
    /// Run a script of inputs headless and print the frames.
    Script(ScriptArgs),
    /// Run every script found and compare its output with the expected `NAME.snap`.
    Test(TestArgs),
}

/// Carries out the command line; returns the process exit code. Errors are printed to
/// standard error.
pub fn execute(cli: Cli) -> i32 {
    let result = match cli.command {
        None => play::play(cli.play),
        Some(Command::Play(args)) => play::play(args),
        Some(Command::Path(args)) => path::path(&args),
        Some(Command::Lab(args)) => lab::lab(&args),
        Some(Command::Scen(args)) => scen::scen(&args),
        Some(Command::Check(args)) => check::check(&args),
        Some(Command::Generate(args)) => generate::generate(&args),
        Some(Command::New(args)) => new::new(&args),
        Some(Command::Script(args)) => script::script(&args),
        Some(Command::Test(args)) => test::test(&args),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`| head`): it has what it wanted, so nothing to say.
        Err(e) if e.is_closed_pipe() => EXIT_CLOSED_PIPE,
        Err(e) => {
            report(&e);
            e.exit_code()
        }
    }
}

/// Prints a message on standard error, control characters escaped (a message may quote a
/// file's content). A failed write is ignored: there is nowhere else to say it.
pub(crate) fn report(message: &dyn std::fmt::Display) {
    use std::io::Write;
    let text = message.to_string();
    let mut err = std::io::stderr().lock();
    for line in text.lines() {
        let _ = writeln!(err, "{}", crate::text::escape_controls(line));
    }
}
