package agenthooks_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
	"github.com/agenthooks/agenthooks/bindings/go/native/claudecode"
	"github.com/agenthooks/agenthooks/bindings/go/native/codex"
	"github.com/agenthooks/agenthooks/bindings/go/native/copilot"
	"github.com/agenthooks/agenthooks/bindings/go/native/cursor"
	"github.com/agenthooks/agenthooks/bindings/go/native/gemini"
	"github.com/agenthooks/agenthooks/bindings/go/native/kimicode"
	"github.com/agenthooks/agenthooks/bindings/go/native/openclaw"
	"github.com/agenthooks/agenthooks/bindings/go/native/opencode"
)

// The typed native views (bindings/go/native/<agent>, generated from
// schemas/) against every provider fixture whose payload is a JSON object
// that decodes: each property the event's input schema declares (nested
// ones too) must come back from the typed struct exactly as the payload
// has it, and every required one must be there. The schemas are read here,
// not through the generated code.

var nativeOf = map[string]func(*agenthooks.Event) (any, error){
	"claude-code": claudecode.Native,
	"codex":       codex.Native,
	"cursor":      cursor.Native,
	"gemini":      gemini.Native,
	"kimi-code":   kimicode.Native,
	"copilot":     copilot.Native,
	"opencode":    opencode.Native,
	"openclaw":    openclaw.Native,
}

const nativeFixturesDir = "../../fixtures"

func schemasDir() string {
	if d := os.Getenv("AH_SCHEMAS_DIR"); d != "" {
		return d
	}
	return "../../schemas"
}

func readJSONValue(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeNumbers(t, b)
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	return v
}

// objectPayload is the fixture's payload when it is a JSON object.
func objectPayload(c map[string]any) ([]byte, bool) {
	if p, ok := c["payload"]; ok {
		if _, obj := p.(map[string]any); !obj {
			return nil, false
		}
		b, _ := json.Marshal(p)
		return b, true
	}
	if s, ok := c["payload_text"].(string); ok {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber() // numbers beyond float64 are still JSON
		var v any
		if d.Decode(&v) != nil {
			return nil, false
		}
		if _, obj := v.(map[string]any); !obj {
			return nil, false
		}
		return []byte(s), true
	}
	if g, ok := c["payload_gen"].(map[string]any); ok && g["kind"] == "big_field" {
		base := map[string]any{}
		for k, v := range g["base"].(map[string]any) {
			base[k] = v
		}
		n, _ := g["bytes"].(json.Number).Int64()
		base[g["field"].(string)] = strings.Repeat("x", int(n))
		b, _ := json.Marshal(base)
		return b, true
	}
	return nil, false
}

type schemaNode = map[string]any

// resolve follows a local $ref.
func resolve(root, n schemaNode) schemaNode {
	if ref, ok := n["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		defs, _ := root["$defs"].(map[string]any)
		if d, ok := defs[name].(map[string]any); ok {
			return d
		}
	}
	return n
}

func sameNumber(a, b json.Number) bool {
	if x, err := a.Int64(); err == nil {
		if y, err := b.Int64(); err == nil {
			return x == y
		}
	}
	x, _, ex := big.ParseFloat(string(a), 10, 200, big.ToNearestEven)
	y, _, ey := big.ParseFloat(string(b), 10, 200, big.ToNearestEven)
	if ex != nil || ey != nil {
		return false
	}
	// float64 precision: the view holds a float64.
	fx, _ := x.Float64()
	fy, _ := y.Float64()
	return fx == fy
}

// sameJSON is deep equality with numbers compared as numbers.
func sameJSON(view, payload any) bool {
	switch p := payload.(type) {
	case json.Number:
		v, ok := view.(json.Number)
		return ok && sameNumber(v, p)
	case []any:
		v, ok := view.([]any)
		if !ok || len(v) != len(p) {
			return false
		}
		for i := range p {
			if !sameJSON(v[i], p[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		v, ok := view.(map[string]any)
		if !ok || len(v) != len(p) {
			return false
		}
		for k, pv := range p {
			vv, ok := v[k]
			if !ok || !sameJSON(vv, pv) {
				return false
			}
		}
		return true
	default:
		return view == payload
	}
}

// sameBySchema compares the view with the payload where the schema
// declares the value; returns how many declared properties it compared.
func sameBySchema(root, node schemaNode, view, payload any, path string) (int, error) {
	node = resolve(root, node)
	if props, ok := node["properties"].(map[string]any); ok && len(props) > 0 {
		p, pok := payload.(map[string]any)
		v, vok := view.(map[string]any)
		if !pok {
			// A value of another type the schema allows (e.g. null): as JSON.
			if sameJSON(view, payload) {
				return 0, nil
			}
			return 0, fmt.Errorf("%s: view %v != payload %v", path, view, payload)
		}
		if !vok {
			return 0, fmt.Errorf("%s: the view is not an object (%v)", path, view)
		}
		n := 0
		for k, sub := range props {
			pv, in := p[k]
			if !in {
				if _, inView := v[k]; inView {
					return n, fmt.Errorf("%s.%s: in the view, not in the payload", path, k)
				}
				continue
			}
			n++
			vv, inView := v[k]
			if !inView {
				if pv == nil {
					continue // null: an optional pointer left nil
				}
				return n, fmt.Errorf("%s.%s: declared and in the payload, not in the view", path, k)
			}
			subn, _ := sub.(map[string]any)
			m, err := sameBySchema(root, subn, vv, pv, path+"."+k)
			n += m
			if err != nil {
				return n, err
			}
		}
		for k := range v {
			if _, declared := props[k]; !declared {
				return n, fmt.Errorf("%s.%s: in the view, not declared", path, k)
			}
		}
		return n, nil
	}
	if items, ok := node["items"].(map[string]any); ok {
		if p, ok := payload.([]any); ok {
			v, ok := view.([]any)
			if !ok || len(v) != len(p) {
				return 0, fmt.Errorf("%s: view %v != payload %v", path, view, payload)
			}
			n := 0
			for i := range p {
				m, err := sameBySchema(root, items, v[i], p[i], fmt.Sprintf("%s[%d]", path, i))
				n += m
				if err != nil {
					return n, err
				}
			}
			return n, nil
		}
	}
	if !sameJSON(view, payload) {
		return 0, fmt.Errorf("%s: view %v != payload %v", path, view, payload)
	}
	return 0, nil
}

func TestNativeViewsReadEveryFixturePayload(t *testing.T) {
	dir := schemasDir()
	index := readJSONValue(t, filepath.Join(dir, "index.json")).(map[string]any)
	agents := index["agents"].(map[string]any)
	checked, eligible := 0, 0
	var unlisted []string
	ids := make([]string, 0, len(nativeOf))
	for id := range nativeOf {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, agent := range ids {
		files, err := filepath.Glob(filepath.Join(nativeFixturesDir, agent, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no fixtures for %s: %v", agent, err)
		}
		sort.Strings(files)
		events, _ := agents[agent].(map[string]any)["events"].(map[string]any)
		for _, f := range files {
			c := readJSONValue(t, f).(map[string]any)
			name, _ := c["name"].(string)
			if exp, _ := c["expect"].(map[string]any); exp["event"] == nil {
				continue
			}
			payload, ok := objectPayload(c)
			if !ok {
				continue
			}
			var opts []agenthooks.DecodeOption
			if v, ok := c["variant"].(string); ok {
				opts = append(opts, agenthooks.WithVariant(v))
			}
			if v, ok := c["event"].(string); ok {
				opts = append(opts, agenthooks.WithEventName(v))
			}
			ev, err := agenthooks.Decode(agent, payload, opts...)
			if err != nil {
				t.Errorf("%s: does not decode: %v", name, err)
				continue
			}
			got, err := nativeOf[agent](ev)
			entry, listed := events[ev.NativeName].(map[string]any)
			if !listed {
				raw, isRaw := got.(json.RawMessage)
				if err != nil || !isRaw || !bytes.Equal(raw, ev.Raw()) {
					t.Errorf("%s: unlisted event %s gave %T %v", name, ev.NativeName, got, err)
				}
				unlisted = append(unlisted, name)
				ev.Close()
				continue
			}
			eligible++
			if os.Getenv("AH_NATIVE_VIEWS_LIST") != "" {
				fmt.Println("eligible", name)
			}
			if err != nil {
				t.Errorf("%s: no typed view: %v", name, err)
				ev.Close()
				continue
			}
			if _, isRaw := got.(json.RawMessage); isRaw {
				t.Errorf("%s: the listed event %s came back untyped", name, ev.NativeName)
				ev.Close()
				continue
			}
			schema := readJSONValue(t, filepath.Join(dir, entry["input"].(string))).(map[string]any)
			vb, err := json.Marshal(got)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			view := decodeNumbers(t, vb)
			pv := decodeNumbers(t, payload)
			if _, err := sameBySchema(schema, schema, view, pv, "$"); err != nil {
				t.Errorf("%s: %v", name, err)
				ev.Close()
				continue
			}
			req, _ := schema["required"].([]any)
			bad := false
			for _, r := range req {
				k := r.(string)
				if _, ok := pv.(map[string]any)[k]; !ok {
					t.Errorf("%s: required %s is not in the payload", name, k)
					bad = true
				}
				if _, ok := view.(map[string]any)[k]; !ok && pv.(map[string]any)[k] != nil {
					t.Errorf("%s: required %s is not in the view", name, k)
					bad = true
				}
			}
			if !bad {
				checked++
			}
			ev.Close()
		}
	}
	fmt.Printf("native views (go): %d payloads checked (%d of events the schemas do not list)\n", checked, len(unlisted))
	if checked == 0 || checked != eligible {
		t.Fatalf("checked %d of %d eligible payloads", checked, eligible)
	}
}

func TestNativeViewErrors(t *testing.T) {
	stop := []byte(`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}`)
	ev, err := agenthooks.Decode("claude-code", stop)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	if _, err := claudecode.PreToolUse(ev); !errors.Is(err, agenthooks.ErrInvalidArgument) {
		t.Fatalf("a PreToolUse view of a Stop event: %v", err)
	}
	if _, err := codex.Stop(ev); !errors.Is(err, agenthooks.ErrInvalidArgument) {
		t.Fatalf("a codex view of a claude-code event: %v", err)
	}
	if _, err := claudecode.PreToolUse(nil); !errors.Is(err, agenthooks.ErrInvalidArgument) {
		t.Fatalf("nil event: %v", err)
	}
	// A field of the wrong type, a missing required field, not JSON.
	fake := &agenthooks.Event{Provider: "claude-code", NativeName: "PreToolUse"}
	fake.SetRaw([]byte(`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":7,"tool_input":{},"tool_use_id":"t"}`))
	if _, err := claudecode.PreToolUse(fake); !errors.Is(err, agenthooks.ErrWrongType) {
		t.Fatalf("tool_name 7: %v", err)
	}
	fake.SetRaw([]byte(`{"hook_event_name":"PreToolUse"}`))
	if _, err := claudecode.PreToolUse(fake); !errors.Is(err, agenthooks.ErrWrongType) {
		t.Fatalf("required fields missing: %v", err)
	}
	fake.SetRaw([]byte(`{"session_id":`))
	if _, err := claudecode.PreToolUse(fake); !errors.Is(err, agenthooks.ErrInvalidJSON) {
		t.Fatalf("truncated: %v", err)
	}
	fake.SetRaw([]byte(`[1]`))
	if _, err := claudecode.PreToolUse(fake); !errors.Is(err, agenthooks.ErrNotAnObject) {
		t.Fatalf("an array: %v", err)
	}
}
