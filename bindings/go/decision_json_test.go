package agenthooks

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDecisionJSONMatchesTags holds the hand-written Decision.MarshalJSON
// to what encoding/json renders from the struct tags, byte for byte.
func TestDecisionJSONMatchesTags(t *testing.T) {
	type plain Decision
	tricky := "a\"b\\c\n\r\t\b\f\x00\x1f<>& é \u2028\u2029 \xff\xfe end"
	cases := []Decision{
		{},
		NoDecision(),
		Deny("destructive command: rm -rf /"),
		Deny(tricky).WithBlockReason(tricky).WithSystemMessage(tricky),
		Ask("why").WithContext("one").WithContext(tricky),
		Continue("run the tests").WithStopAgent(""),
		Continue("x").WithStopAgent(tricky),
		Allow().WithUpdatedInput(map[string]any{"command": "npm ci", "n": json.Number("1.50"), "nested": []any{1, "<x>", nil}}),
		Allow().WithUpdatedInput(map[string]any{}),
		Allow().WithPatchInput(map[string]any{"command": "npm ci", "timeout": nil, "env": map[string]any{"<A>": "1"}}),
		{Kind: DecisionAllow, PatchInput: map[string]any{"a": 1}, RewriteConflicts: []string{"/a", tricky}},
		{Kind: DecisionAllow, RewriteConflicts: []string{}},
		ReplaceOutput(""),
		ReplaceOutput(map[string]any{"stdout": tricky}),
		ReplaceOutput(nil),
		Observed().WithNative(map[string]any{"k": true}),
		Observed().WithNative(map[string]any{}),
		{Kind: DecisionDeny, Context: []string{}},
	}
	for _, d := range cases {
		got, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want := d
		if want.Kind == "" {
			want.Kind = DecisionNoDecision
		}
		w, err := json.Marshal(plain(want))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, w) {
			t.Errorf("MarshalJSON\n got: %s\nwant: %s", got, w)
		}
		// And through json.Marshal (the path Main takes).
		if m, err := json.Marshal(d); err != nil || !bytes.Equal(m, w) {
			t.Errorf("json.Marshal\n got: %s (%v)\nwant: %s", m, err, w)
		}
	}
	if _, err := Allow().WithUpdatedInput(map[string]any{"f": func() {}}).MarshalJSON(); err == nil {
		t.Errorf("an unencodable updated_input must fail")
	}
}

// reflectiveDecision decodes decision JSON into the struct as
// encoding/json does: the reference decisionFromJSON is held to.
func reflectiveDecision(t *testing.T, b []byte) Decision {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out Decision
	if err := d.Decode(&out); err != nil {
		t.Fatalf("reflective decode of %s: %v", b, err)
	}
	return out
}

// TestDecisionFromJSONMatchesReflection: every decision of the shared
// fixtures, normalized by the core, decodes by hand exactly as
// encoding/json decodes it into the struct.
func TestDecisionFromJSONMatchesReflection(t *testing.T) {
	var found [][]byte
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "decision" {
					if b, err := json.Marshal(x); err == nil {
						found = append(found, b)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	err := filepath.WalkDir("../../fixtures", func(path string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			walk(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Decision{Deny("x").WithStopAgent(""), Continue("y").WithStopAgent("z").WithContext("c"),
		ReplaceOutput(map[string]any{"a": json.Number("1e3")}), Allow().WithNative(map[string]any{"n": nil})} {
		b, _ := json.Marshal(d)
		found = append(found, b)
	}
	n := 0
	for _, raw := range found {
		norm, err := normalizeDecisionJSON(raw)
		if err != nil {
			continue // an invalid decision a fixture expects to fail
		}
		n++
		got, err := decisionFromJSON(norm)
		if err != nil {
			t.Fatalf("decisionFromJSON(%s): %v", norm, err)
		}
		if want := reflectiveDecision(t, norm); !reflect.DeepEqual(got, want) {
			t.Errorf("decisionFromJSON(%s)\n got: %#v\nwant: %#v", norm, got, want)
		}
	}
	if n < 50 {
		t.Fatalf("only %d fixture decisions checked", n)
	}
	t.Logf("%d decisions", n)
}

func TestNotesFromJSONMatchesReflection(t *testing.T) {
	for _, b := range []string{
		`[]`,
		`[{"code":"degraded","from":"ask","to":"deny","detail":"no ask \"here\""}]`,
		`[{"code":"dropped","from":"context"},{"code":"fail_closed","to":"deny","extra":1}]`,
	} {
		got, err := notesFromJSON([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		var want []Note
		if err := json.Unmarshal([]byte(b), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("notesFromJSON(%s) = %#v, want %#v", b, got, want)
		}
	}
}
