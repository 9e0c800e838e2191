// Command go-cgo-floor is the floor of a Go program that links cgo (as the
// Go binding does): it does nothing but start the cgo runtime.
package main

/*
static int nothing(void) { return 0; }
*/
import "C"

func main() { C.nothing() }
