package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	aht "github.com/agenthooks/agenthooks/bindings/go/agenthookstest"
)

// The guard on every agent, checked on what each agent does with its
// answer (the core's behaviour reader), not only on the bytes.

func TestDestructiveCommandsAreBlockedEverywhere(t *testing.T) {
	outcomes := aht.AcrossAgents(t, newRouter(), aht.Shell("rm -rf build"))
	aht.AssertBlockedEverywhere(t, outcomes...)
	for _, o := range outcomes {
		if o.Agent != "copilot" && !strings.Contains(o.Prediction.ModelSees, "destructive") {
			t.Errorf("the model is not told why: %s", o)
		}
	}
}

func TestOtherCommandsAreLeftToTheAgent(t *testing.T) {
	outcomes := aht.AcrossAgents(t, newRouter(), aht.Shell("cargo build"))
	aht.AssertNoEmptyAllow(t, outcomes...)
	aht.AssertEffectEverywhere(t, aht.ToolRuns, outcomes...)
}

func TestForcePushNeverRunsUnasked(t *testing.T) {
	// Ask where the agent can ask; elsewhere AskFallbackDeny blocks.
	for _, o := range aht.AcrossAgents(t, newRouter(), aht.Shell("git push --force origin main")) {
		if o.Effect() != aht.AsksUser && !o.Effect().IsBlock() {
			t.Errorf("force push neither asks nor is blocked: %s", o)
		}
	}
}

func TestListingIsApproved(t *testing.T) {
	outcomes := aht.AcrossAgents(t, newRouter(), aht.Shell("ls -la"))
	aht.AssertRunsEverywhere(t, outcomes...)
	// An explicit allow skips the user's approval where the agent reads
	// it so (the guard means it: ls is read-only).
	for _, o := range outcomes {
		switch o.Agent {
		case "claude-code", "cursor", "copilot":
			aht.AssertEffect(t, o, aht.ToolRunsWithoutPrompt)
		}
	}
}

func TestNpmInstallIsRewritten(t *testing.T) {
	outcomes := aht.AcrossAgents(t, newRouter(), aht.Shell("npm install"))
	aht.AssertRunsEverywhere(t, outcomes...)
	for _, o := range outcomes {
		switch o.Agent {
		case "cursor", "kimi-code":
			// Neither can rewrite a tool's input: the command runs as is.
			continue
		}
		if aht.AssertEffect(t, o, aht.ToolRunsWithInputRewritten) && !strings.Contains(string(o.Prediction.UpdatedInput), "npm ci") {
			t.Errorf("not rewritten to npm ci: %s", o)
		}
	}
}

func TestStopBeforeTestsKeepsTheAgentGoing(t *testing.T) {
	aht.AssertEffectEverywhere(t, aht.AgentContinues, aht.AcrossAgents(t, newRouter(), aht.Stop())...)
}

// Every payload shape of every agent (the corpus the core ships) gets an
// answer the agent reads without complaint.
func TestEveryCorpusPayload(t *testing.T) {
	r := newRouter()
	for _, f := range aht.Corpus(t, "", "") {
		t.Run(f.Name, func(t *testing.T) {
			o := aht.RunRouter(t, r, f.Agent, f.Scenario())
			for _, code := range []string{aht.HookFailed, aht.FailClosed, aht.InvalidJSON, aht.UnknownField, aht.JSONOnStderr} {
				aht.AssertNoWarning(t, code, o)
			}
		})
	}
}

// The same, out of process: the built guard run as each agent runs it.
func TestBuiltGuardOnEveryAgent(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "guard")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	argv := []string{bin, "agenthooks", "run", "--provider={agent}", "--event={event}"}
	aht.AssertBlockedEverywhere(t, aht.HookAcrossAgents(t, argv, aht.Shell("rm -rf build"), 0)...)
	aht.AssertNoEmptyAllow(t, aht.HookAcrossAgents(t, argv, aht.Shell("cargo build"), 0)...)
}
