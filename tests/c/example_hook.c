/* A complete hook program in C (the example of tests/c/README.md): denies
 * shell commands containing `rm -rf` on every agent, fail-closed. Wire it
 * as `<path>/example_hook agenthooks run --provider=<agent>`.
 * `make c-test` builds it with -std=c11 -Wall -Werror and pipes payloads
 * through it. A real hook would parse the event JSON and enforce
 * ah_invocation_deadline_ms(inv). */
#include <stdio.h>
#include <string.h>

#include "agenthooks.h"

#define POLICY "{\"fail\":\"closed\"}"
#define DENY "{\"kind\":\"deny\",\"reason\":\"destructive command\"}"

int main(int argc, char **argv) {
  ah_run_args *args = NULL;
  ah_invocation *inv = NULL;
  ah_response *resp = NULL;
  if (ah_abi_version() != AH_ABI_VERSION) return 70;
  if (ah_run_start((const char *const *)argv, (size_t)argc, &args, &resp, NULL) != AH_OK) return 70;
  if (args && !ah_run_args_reads_stdin(args)) { /* `serve` is not handled by this example */
    fputs("example_hook: serve is not supported\n", stderr);
    ah_run_args_free(args);
    return 2;
  }
  if (args) { /* else resp is the whole answer (usage: 64) */
    /* The core reads stdin itself (a read failure is answered per the policy). */
    ah_invocation_prepare_fd(args, (const uint8_t *)POLICY, strlen(POLICY), 0, &inv, &resp, NULL);
  }
  if (inv) { /* else resp is already the answer (bad input or argv, unknown agent, duplicate) */
    const ah_event *ev = ah_invocation_event(inv);
    bool deny = strcmp(ah_event_kind(ev).ptr, "tool.pre") == 0 && strstr(ah_event_json(ev).ptr, "rm -rf");
    const char *d = deny ? DENY : "{\"kind\":\"no_decision\"}";
    ah_invocation_complete(inv, (const uint8_t *)d, strlen(d), &resp, NULL);
  }
  ah_str e = ah_response_stderr(resp), o = ah_response_stdout(resp);
  fwrite(e.ptr, 1, e.len, stderr);
  fwrite(o.ptr, 1, o.len, stdout);
  int code = ah_response_exit_code(resp);
  ah_response_free(resp);
  ah_invocation_free(inv);
  ah_run_args_free(args);
  return code;
}
