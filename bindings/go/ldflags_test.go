package agenthooks

import (
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Implicitly linked by the C compiler driver cgo uses, so not named in the
// #cgo lines: the C library and libgcc's shared unwinder.
var implicitLibs = map[string]bool{"-lc": true, "-lgcc_s": true, "-lSystem": true}

var cgoLine = regexp.MustCompile(`(?m)^#cgo ([a-z0-9]+),([a-z0-9]+) LDFLAGS: (.*)$`)

func cgoLDFLAGS(t *testing.T) map[string][]string {
	src, err := os.ReadFile("native.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range cgoLine.FindAllStringSubmatch(string(src), -1) {
		out[m[1]+"_"+m[2]] = strings.Fields(m[3])
	}
	return out
}

// Every supported platform has a line that links the copied static
// library by path (cgo would pick a shared one with -l).
func TestCgoLinesPerPlatform(t *testing.T) {
	lines := cgoLDFLAGS(t)
	for _, p := range []string{"linux_amd64", "linux_arm64", "darwin_arm64", "darwin_amd64"} {
		f := lines[p]
		if len(f) == 0 || f[0] != "${SRCDIR}/lib/"+p+"/libagenthooks_ffi.a" {
			t.Errorf("%s: LDFLAGS must start with the static library: %v", p, f)
		}
	}
}

// The Go LDFLAGS of this platform name exactly the native libraries Rust
// says a static link of agenthooks-ffi needs (`cargo rustc -p
// agenthooks-ffi --crate-type staticlib -- --print native-static-libs`,
// captured by `make go-test` into $AH_NATIVE_STATIC_LIBS).
func TestLDFLAGSMatchNativeStaticLibs(t *testing.T) {
	path := os.Getenv("AH_NATIVE_STATIC_LIBS")
	if path == "" {
		t.Skip("AH_NATIVE_STATIC_LIBS not set (make go-test sets it)")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var native []string
	for _, line := range strings.Split(string(text), "\n") {
		if _, libs, ok := strings.Cut(line, "native-static-libs:"); ok {
			native = strings.Fields(libs)
		}
	}
	if len(native) == 0 {
		t.Fatalf("%s holds no native-static-libs line:\n%s", path, text)
	}
	want := map[string]bool{}
	for _, l := range native {
		if !implicitLibs[l] {
			want[l] = true
		}
	}
	got := map[string]bool{}
	for _, f := range cgoLDFLAGS(t)[runtime.GOOS+"_"+runtime.GOARCH][1:] {
		got[f] = true
	}
	if !equalSets(got, want) {
		t.Fatalf("#cgo %s,%s LDFLAGS %v, but rustc says %v (implicit: -lc, -lgcc_s)",
			runtime.GOOS, runtime.GOARCH, keys(got), native)
	}
}

func equalSets(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
