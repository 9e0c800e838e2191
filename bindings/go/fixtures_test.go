package agenthooks

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The shared fixtures (fixtures/README.md, fixtures/router/README.md),
// run through the Go package and the C ABI. Loaders are strict: unknown
// fields, duplicate keys and duplicate names fail.

const fixturesDir = "../../fixtures"

type fixtureCase struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Provider    string            `json:"provider"`
	Variant     *string           `json:"variant"`
	Event       *string           `json:"event"`
	Argv        []string          `json:"argv"`
	Env         map[string]string `json:"env"`
	Payload     json.RawMessage   `json:"payload"`
	PayloadText *string           `json:"payload_text"`
	PayloadB64  *string           `json:"payload_b64"`
	PayloadGen  *struct {
		Kind  string         `json:"kind"`
		Depth int            `json:"depth"`
		Bytes int            `json:"bytes"`
		Base  map[string]any `json:"base"`
		Field string         `json:"field"`
	} `json:"payload_gen"`
	Expect struct {
		Event json.RawMessage `json:"event"`
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	} `json:"expect"`
	Responses []struct {
		Decision json.RawMessage `json:"decision"`
		Policy   json.RawMessage `json:"policy"`
		Error    *struct {
			Code string `json:"code"`
		} `json:"error"`
		Wire struct {
			StdoutJSON json.RawMessage `json:"stdout_json"`
			Stdout     *string         `json:"stdout"`
			Stderr     json.RawMessage `json:"stderr"`
			ExitCode   int             `json:"exit_code"`
		} `json:"wire"`
		Notes []struct {
			Code string `json:"code"`
			From string `json:"from"`
			To   string `json:"to"`
		} `json:"notes"`
	} `json:"responses"`
	Skip map[string]string `json:"skip"`
}

// loadStrict decodes a fixture file, failing on unknown fields and
// duplicate keys.
func loadStrict(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := noDuplicateKeys(b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func noDuplicateKeys(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	var walk func() error
	walk = func() error {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]bool{}
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return err
				}
				if seen[k.(string)] {
					return fmt.Errorf("duplicate key %q", k)
				}
				seen[k.(string)] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		case json.Delim('['):
			for d.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		}
		return nil
	}
	return walk()
}

func payloadBytes(t *testing.T, c *fixtureCase) []byte {
	forms := 0
	for _, given := range []bool{c.Payload != nil, c.PayloadText != nil, c.PayloadB64 != nil, c.PayloadGen != nil} {
		if given {
			forms++
		}
	}
	if forms != 1 {
		t.Fatalf("%s: exactly one payload form, got %d", c.Name, forms)
	}
	switch {
	case c.Payload != nil:
		var buf bytes.Buffer
		if err := json.Compact(&buf, c.Payload); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	case c.PayloadText != nil:
		return []byte(*c.PayloadText)
	case c.PayloadB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*c.PayloadB64)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	g := c.PayloadGen
	switch g.Kind {
	case "deep":
		return append(bytes.Repeat([]byte("["), g.Depth), bytes.Repeat([]byte("]"), g.Depth)...)
	case "big_string":
		return []byte(`"` + strings.Repeat("x", g.Bytes) + `"`)
	case "big_field":
		base := map[string]any{}
		for k, v := range g.Base {
			base[k] = v
		}
		base[g.Field] = strings.Repeat("x", g.Bytes)
		b, err := json.Marshal(base)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Fatalf("%s: unknown payload_gen kind %q", c.Name, g.Kind)
	return nil
}

// parse makes comparable values (key order and number spelling ignored;
// a number beyond float64, such as 1e999 in a raw payload, is ±Inf, as
// JavaScript reads it).
func parse(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("not JSON (%v): %q", err, b)
	}
	return numbersToFloats(v)
}

func numbersToFloats(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64) // ±Inf on overflow
		return f
	case []any:
		for i := range x {
			x[i] = numbersToFloats(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbersToFloats(x[k])
		}
	}
	return v
}

func policyFromFixture(t *testing.T, raw json.RawMessage) Policy {
	if raw == nil {
		return Policy{}
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var p Policy
	for k, v := range m {
		switch k {
		case "fail":
			p.Fail = Fail(v.(string))
		case "unsupported":
			p.Unsupported = Unsupported(v.(string))
		case "ask_fallback":
			p.AskFallback = AskFallback(v.(string))
		case "headless_ask":
			p.HeadlessAsk = HeadlessAsk(v.(string))
		case "continuation_cap":
			p.ContinuationCap = int(v.(float64))
			if p.ContinuationCap == 0 {
				p.ContinuationCap = -1
			}
		case "timeout_ms":
			p.Timeout = msDuration(v.(float64))
		default:
			t.Fatalf("unknown policy field %q", k)
		}
	}
	return p
}

// providerDirs are the fixture folders named after a provider.
func providerDirs(t *testing.T) []string {
	entries, err := os.ReadDir(fixturesDir)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			if _, err := ParseProvider(e.Name()); err == nil {
				dirs = append(dirs, e.Name())
			}
		}
	}
	sort.Strings(dirs)
	return dirs
}

func TestProviderFixtures(t *testing.T) {
	filter := os.Getenv("AH_FIXTURE")
	total, ran, skipped := 0, 0, 0
	names := map[string]bool{}
	for _, dir := range providerDirs(t) {
		files, _ := filepath.Glob(filepath.Join(fixturesDir, dir, "*.json"))
		sort.Strings(files)
		for _, f := range files {
			var c fixtureCase
			if err := loadStrict(f, &c); err != nil {
				t.Fatal(err)
			}
			want := dir + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
			if c.Name != want || strings.TrimSpace(c.Description) == "" {
				t.Fatalf("%s: name must be %q, with a description", f, want)
			}
			if names[c.Name] {
				t.Fatalf("duplicate fixture name %s", c.Name)
			}
			names[c.Name] = true
			if filter != "" && !strings.Contains(c.Name, filter) {
				continue
			}
			total++
			if reason, ok := c.Skip["go"]; ok {
				if strings.TrimSpace(reason) == "" {
					t.Fatalf("%s: skip needs a reason", c.Name)
				}
				skipped++
				continue
			}
			t.Run(c.Name, func(t *testing.T) { runProviderCase(t, &c) })
			ran++
		}
	}
	t.Logf("provider fixtures (Go): ran %d, skipped %d, total %d", ran, skipped, total)
	fmt.Fprintf(os.Stderr, "provider fixtures (Go): ran %d, skipped %d, total %d\n", ran, skipped, total)
	if ran+skipped != total || (total == 0 && filter == "") {
		t.Fatalf("ran %d + skipped %d != total %d (or no fixtures)", ran, skipped, total)
	}
}

func runProviderCase(t *testing.T, c *fixtureCase) {
	payload := payloadBytes(t, c)
	var opts []DecodeOption
	if c.Variant != nil {
		opts = append(opts, WithVariant(*c.Variant))
	}
	if c.Event != nil {
		opts = append(opts, WithEventName(*c.Event))
	}
	if c.Env != nil || c.Argv != nil {
		// Detection cases: the provider must be found from argv/env/shape
		// (a --provider in argv is the flag), and the decode records how.
		env := c.Env
		if env == nil {
			env = map[string]string{}
		}
		flag := ""
		if a, err := ParseArgs(c.Argv); err == nil && a != nil {
			flag = a.Provider
		}
		d, err := Detect(flag, c.Argv, env, payload)
		if err != nil {
			t.Fatalf("detection failed: %v", err)
		}
		if want, _ := ParseProvider(c.Provider); d.Provider != want {
			t.Fatalf("detected %s, want %s", d.Provider, want)
		}
		opts = append(opts, WithDetection(d.Detection))
		if c.Variant == nil && d.Variant != "" {
			opts = append(opts, WithVariant(d.Variant))
		}
	}
	ev, decErr := Decode(c.Provider, payload, opts...)
	switch {
	case c.Expect.Event != nil && c.Expect.Error == nil:
		if decErr != nil {
			t.Fatalf("decode: %v", decErr)
		}
		defer ev.Close()
		full, err := ev.JSON()
		if err != nil {
			t.Fatal(err)
		}
		got := parse(t, full).(map[string]any)
		if !reflect.DeepEqual(got["raw"], parse(t, payload)) {
			t.Errorf("canonical raw differs from the payload")
		}
		delete(got, "raw")
		if want := parse(t, c.Expect.Event); !reflect.DeepEqual(got, want) {
			gj, _ := json.Marshal(got)
			t.Errorf("canonical event\n got: %s\nwant: %s", gj, c.Expect.Event)
		}
		if !bytes.Equal(ev.Raw(), payload) {
			t.Errorf("Event.Raw must be byte-identical to the payload")
		}
		// The Go types mirror every field the core emits (the head: all
		// but output and raw), and the hand-walked decoding of the head
		// equals encoding/json's reflective one.
		head := ev.headJSON()
		slow, err := reflectiveEvent(head)
		if err != nil {
			t.Errorf("Go Event type lacks a field: %v", err)
		} else {
			fast, err := decodeHead(head)
			if err != nil {
				t.Fatalf("decodeHead: %v", err)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("decodeHead differs from encoding/json\n fast: %+v\n slow: %+v", fast, slow)
			}
		}
		// Output (read on demand) is the canonical output, exactly.
		if want, ok := got["output"]; ok {
			if out := ev.Output(); out == nil || !reflect.DeepEqual(parse(t, out), want) {
				t.Errorf("Output() = %s, want %v", out, want)
			}
		} else if out := ev.Output(); out != nil {
			t.Errorf("Output() = %s, want nil (no output)", out)
		}
	case c.Expect.Error != nil && c.Expect.Event == nil:
		var e *Error
		if !errors.As(decErr, &e) {
			t.Fatalf("expected error %s, decoded fine", c.Expect.Error.Code)
		}
		if e.Code != c.Expect.Error.Code || !errors.Is(decErr, &Error{Code: c.Expect.Error.Code}) {
			t.Fatalf("error code %s, want %s (%v)", e.Code, c.Expect.Error.Code, decErr)
		}
	default:
		t.Fatal("expect needs exactly one of event / error")
	}
	for i, rc := range c.Responses {
		policy := policyFromFixture(t, rc.Policy)
		var resp *Response
		var err error
		if decErr != nil {
			if rc.Error != nil {
				t.Fatalf("response %d: error is implied on error cases", i)
			}
			resp, err = FailResponseForPayload(c.Provider, payload, decErr, policy)
			if err != nil {
				t.Fatalf("response %d: %v", i, err)
			}
		} else {
			var d Decision
			var perr error
			if rc.Decision != nil {
				d, perr = NormalizeDecision(rc.Decision)
			}
			if perr == nil {
				resp, perr = ev.Respond(d, policy)
			}
			switch {
			case rc.Error == nil && perr != nil:
				t.Fatalf("response %d: unexpected error %v", i, perr)
			case rc.Error != nil && perr == nil:
				t.Fatalf("response %d: expected error %s, got %+v", i, rc.Error.Code, resp)
			case rc.Error != nil:
				if !errors.Is(perr, &Error{Code: rc.Error.Code}) {
					t.Fatalf("response %d: error %v, want %s", i, perr, rc.Error.Code)
				}
				if resp, err = ev.FailResponse(perr, policy); err != nil {
					t.Fatalf("response %d: fail response: %v", i, err)
				}
			}
		}
		checkWire(t, i, resp, c, policy)
	}
}

func checkWire(t *testing.T, i int, r *Response, c *fixtureCase, _ Policy) {
	t.Helper()
	w := c.Responses[i].Wire
	if r.ExitCode != w.ExitCode {
		t.Errorf("response %d: exit %d, want %d (stdout %q, stderr %q)", i, r.ExitCode, w.ExitCode, r.Stdout, r.Stderr)
	}
	switch {
	case w.StdoutJSON != nil && w.Stdout == nil:
		if !reflect.DeepEqual(parse(t, []byte(r.Stdout)), parse(t, w.StdoutJSON)) {
			t.Errorf("response %d: stdout JSON\n got: %s\nwant: %s", i, r.Stdout, w.StdoutJSON)
		}
	case w.Stdout != nil && w.StdoutJSON == nil:
		if r.Stdout != *w.Stdout {
			t.Errorf("response %d: stdout %q, want %q", i, r.Stdout, *w.Stdout)
		}
	default:
		t.Fatalf("response %d: wire needs exactly one of stdout_json / stdout", i)
	}
	if w.Stderr != nil {
		var exact string
		var contains struct {
			Contains string `json:"contains"`
		}
		if json.Unmarshal(w.Stderr, &exact) == nil {
			if r.Stderr != exact {
				t.Errorf("response %d: stderr %q, want %q", i, r.Stderr, exact)
			}
		} else {
			d := json.NewDecoder(bytes.NewReader(w.Stderr))
			d.DisallowUnknownFields()
			if err := d.Decode(&contains); err != nil {
				t.Fatalf("response %d: stderr: %v", i, err)
			}
			if !strings.Contains(r.Stderr, contains.Contains) {
				t.Errorf("response %d: stderr %q lacks %q", i, r.Stderr, contains.Contains)
			}
		}
	}
	type note struct{ Code, From, To string }
	var got, want []note
	for _, n := range r.Notes {
		got = append(got, note{n.Code, n.From, n.To})
	}
	for _, n := range c.Responses[i].Notes {
		want = append(want, note{n.Code, n.From, n.To})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("response %d: notes %+v, want %+v", i, got, want)
	}
}

type routerCase struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Mode        string `json:"mode"`
	Handlers    []struct {
		Decision json.RawMessage `json:"decision"`
		Error    *string         `json:"error"`
	} `json:"handlers"`
	Expect struct {
		Decision json.RawMessage `json:"decision"`
		Error    *struct {
			Code string `json:"code"`
		} `json:"error"`
	} `json:"expect"`
	Called int `json:"called"`
}

func TestRouterFixtures(t *testing.T) {
	filter := os.Getenv("AH_FIXTURE")
	files, _ := filepath.Glob(filepath.Join(fixturesDir, "router", "*.json"))
	sort.Strings(files)
	total, ran := 0, 0
	for _, f := range files {
		var c routerCase
		if err := loadStrict(f, &c); err != nil {
			t.Fatal(err)
		}
		if want := "router/" + strings.TrimSuffix(filepath.Base(f), ".json"); c.Name != want || c.Description == "" {
			t.Fatalf("%s: name must be %q, with a description", f, want)
		}
		if filter != "" && !strings.Contains(c.Name, filter) {
			continue
		}
		total++
		t.Run(c.Name, func(t *testing.T) {
			calls := 0
			var hs []Handler
			for _, h := range c.Handlers {
				h := h
				if (h.Decision == nil) == (h.Error == nil) {
					t.Fatal("handler needs decision or error")
				}
				var d Decision
				if h.Decision != nil {
					var err error
					if d, err = NormalizeDecision(h.Decision); err != nil {
						t.Fatal(err)
					}
				}
				hs = append(hs, func(ctx context.Context, e *Event) (Decision, error) {
					calls++
					if h.Error != nil {
						return Decision{}, errors.New(*h.Error)
					}
					return d, nil
				})
			}
			var combined Handler
			switch c.Mode {
			case "stack":
				combined = Any(hs...)
			case "all":
				combined = All(hs...)
			default:
				t.Fatalf("unknown mode %q", c.Mode)
			}
			ev := &Event{Provider: "claude-code", NativeName: "PreToolUse", Kind: KindToolPre}
			got, err := combined(context.Background(), ev)
			switch {
			case c.Expect.Decision != nil && err == nil:
				want, nerr := NormalizeDecision(c.Expect.Decision)
				if nerr != nil {
					t.Fatal(nerr)
				}
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(want)
				if !reflect.DeepEqual(parse(t, gj), parse(t, wj)) {
					t.Errorf("decision %s, want %s", gj, wj)
				}
			case c.Expect.Error != nil && err != nil:
				if code, _ := codeAndMessage(err); code != c.Expect.Error.Code {
					t.Errorf("error code %s, want %s", code, c.Expect.Error.Code)
				}
			default:
				t.Fatalf("unexpected result %+v, %v", got, err)
			}
			if calls != c.Called {
				t.Errorf("called %d handlers, want %d", calls, c.Called)
			}
		})
		ran++
	}
	fmt.Fprintf(os.Stderr, "router fixtures (Go): ran %d, total %d\n", ran, total)
	if ran != total || (total == 0 && filter == "") {
		t.Fatalf("ran %d != total %d (or no fixtures)", ran, total)
	}
}

// reflectiveEvent decodes a head JSON the way encoding/json does it into
// the Event struct, rejecting unknown fields: the reference decodeHead is
// held to.
func reflectiveEvent(b []byte) (*Event, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	d.DisallowUnknownFields()
	var e Event
	if err := d.Decode(&e); err != nil {
		return nil, err
	}
	return &e, nil
}
