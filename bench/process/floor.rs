// The Rust floor of bench/process/run.py: a program that does nothing.
fn main() {}
