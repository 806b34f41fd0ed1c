use clap::Parser;

fn main() {
    let cli = arbiter::cli::Cli::parse();
    if let Err(err) = arbiter::cli::run(cli) {
        eprintln!("arbiter: {err:#}");
        std::process::exit(1);
    }
}
