//! The `astar-rogue` binary: a thin shell over the library's command line.

use clap::Parser;

fn main() {
    let cli = astar_rogue::cli::Cli::parse();
    std::process::exit(astar_rogue::cli::execute(cli));
}
