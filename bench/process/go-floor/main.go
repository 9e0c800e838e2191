// Command go-floor is the Go floor of bench/process/run.py: a program that
// does nothing (pure Go, like a Go hook without cgo).
package main

func main() {}
