package agenthooks

// Response is the agent's answer, exactly: write Stdout and Stderr, exit
// with ExitCode. Notes say what was degraded, dropped or capped.
type Response struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
	Notes    []Note `json:"notes,omitempty"`
}

// Note is a remark about how a decision was encoded. Code is stable
// (degraded, dropped, lossy_update, continuation_capped, fail_open,
// fail_closed, ...); Detail is for humans and never compared.
type Note struct {
	Code   string `json:"code"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Detail string `json:"detail,omitempty"`
}
