//! The command line: one file per subcommand, each with its arguments and what it prints.
//! Arguments parse straight into the domain's own types (`Neighbourhood`, `Heuristic`,
//! `Weight`, `GenKind`, `Frames` all implement `FromStr`); failures are one typed
//! [`CliError`] that knows its exit code.

mod cast;
mod check;
mod config;
mod error;
mod generate;
mod kinds;
mod lab;
mod new;
mod path;
mod play;
mod query;
mod replay;
mod scen;
mod scores;
mod script;
mod test;

pub use cast::CastArgs;
pub use check::CheckArgs;
pub use config::ConfigArgs;
pub use error::GenerateError;
use error::report;
pub use error::{CliError, EXIT_BAD_INPUT, EXIT_CLOSED_PIPE};
pub use generate::{GenerateArgs, generate_text};
pub use kinds::KindsArgs;
pub use lab::LabArgs;
pub use new::NewArgs;
pub use path::{PathArgs, draw_path};
pub use play::PlayArgs;
pub use query::QueryArgs;
pub use replay::ReplayArgs;
pub use scen::ScenArgs;
pub use scores::ScoresArgs;
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
    /// List every kind of monster and how each searches for you.
    Kinds(KindsArgs),
    /// Make a blank level file to design from (never over an existing file).
    New(NewArgs),
    /// Run a script of inputs headless and print the frames.
    Script(ScriptArgs),
    /// Write a script's frames as an asciicast v2 file (`.cast`) to play or embed.
    Cast(CastArgs),
    /// Run every script found and compare its output with the expected `NAME.snap`.
    Test(TestArgs),
    /// Print where the settings file is and the full default file, or check a settings file.
    Config(ConfigArgs),
    /// Print the best runs that have ended, best first.
    Scores(ScoresArgs),
    /// Watch a recording in the terminal: speed, pause, single steps, a jump to a turn.
    Replay(ReplayArgs),
}

/// The whole program: parses the command line and carries it out; returns the process
/// exit code. Help and version go to standard output, and a failed write of them is an
/// error as any other output's: 141 for a closed pipe, else a message and 1 (`--help >
/// /dev/full` must not look like success).
pub fn main() -> i32 {
    use std::io::Write;
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let printed = e.print().and_then(|()| std::io::stdout().flush());
            return match printed {
                Ok(()) => e.exit_code(),
                Err(w) => output_failed(w),
            };
        }
    };
    let code = execute(cli);
    // Whatever is still buffered must reach its file too, or the run did not succeed.
    match std::io::stdout().flush() {
        Err(w) if code == 0 => output_failed(w),
        _ => code,
    }
}

/// The exit code (and message) for output that could not be written.
fn output_failed(e: std::io::Error) -> i32 {
    let e = CliError::Output(e);
    if e.is_closed_pipe() {
        return EXIT_CLOSED_PIPE;
    }
    report(&e);
    e.exit_code()
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
        Some(Command::Kinds(args)) => kinds::kinds(&args),
        Some(Command::New(args)) => new::new(&args),
        Some(Command::Script(args)) => script::script(&args),
        Some(Command::Cast(args)) => cast::cast(&args),
        Some(Command::Test(args)) => test::test(&args),
        Some(Command::Config(args)) => config::config(&args),
        Some(Command::Scores(args)) => scores::scores(&args),
        Some(Command::Replay(args)) => replay::replay(&args),
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
