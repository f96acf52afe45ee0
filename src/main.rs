//! The `astar-rogue` binary: a thin shell over the library's command line.

fn main() {
    std::process::exit(astar_rogue::cli::main());
}
