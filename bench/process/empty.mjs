// The floor of an ESM hook process (bench/process/run.py): Node with its ESM
// loader started and nothing to load.
