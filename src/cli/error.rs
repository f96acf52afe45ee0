//! What can go wrong on the command line, and the exit code of each.

use crate::app::OpenError;
use crate::frontend::script::ScriptError;
use crate::frontend::term::NoTerminal;
use crate::text::LoadError;

/// Exit code for bad input: unreadable or invalid files, bad arguments.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Exit code when the reader of standard output went away (a closed pipe, as in
/// `| head`): 128 + SIGPIPE, what a shell shows for a process that a closed pipe killed.
pub const EXIT_CLOSED_PIPE: i32 = 141;

/// Why `generate` cannot make the level asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// `--size` is not `WxH`.
    #[error("bad size {0:?}: expected WxH, e.g. 80x40")]
    Size(String),
    /// The generator refused the parameters.
    #[error("{0}")]
    Generator(#[from] crate::content::generate::GenError),
}

/// A command that could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file could not be read or parsed.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// A level could not be opened for play.
    #[error("{0}")]
    Open(#[from] OpenError),
    /// An argument or a file's content is not acceptable.
    #[error("{0}")]
    BadInput(String),
    /// `generate` cannot make the level asked for.
    #[error("{0}")]
    Generate(#[from] GenerateError),
    /// There is no data folder to read the scores from.
    #[error("{0}")]
    NoData(#[from] crate::session::data::NoDataDir),
    /// The game needs a terminal and has none.
    #[error("{0}")]
    NoTerminal(#[from] NoTerminal),
    /// The terminal failed while playing.
    #[error("terminal error: {0}")]
    Terminal(std::io::Error),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
}

impl CliError {
    /// Whether this is a write to a pipe whose reader has gone.
    pub fn is_closed_pipe(&self) -> bool {
        matches!(self, CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Load(_)
            | CliError::Open(_)
            | CliError::BadInput(_)
            | CliError::Generate(_)
            | CliError::NoData(_)
            | CliError::NoTerminal(_) => EXIT_BAD_INPUT,
            CliError::Terminal(_) | CliError::Output(_) => 1,
        }
    }
}

impl From<ScriptError> for CliError {
    fn from(e: ScriptError) -> Self {
        match e {
            ScriptError::Script(e) => CliError::Load(e),
            ScriptError::Level(e) => CliError::Open(e),
            ScriptError::Output(e) => CliError::Output(e),
            e @ ScriptError::LabOption { .. } => CliError::BadInput(e.to_string()),
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
