fn main() {
    eprintln!("arbiter: no commands yet");
    std::process::exit(2);
}
