fn main() {
    std::process::exit(weft::cli::main());
}
