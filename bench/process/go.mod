// The floors of bench/process/run.py (built by mk/bench-process.mk).
module agenthooks.invalid/benchfloors

go 1.22
